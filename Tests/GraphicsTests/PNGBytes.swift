import CZlib
import Foundation

/// Hand-made PNG files for the decoder tests: chunks, CRCs and zlib streams written byte by byte,
/// so that a test can build what no encoder would write (huge sides, huge or compressed chunks).
enum PNGBytes {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A PNG made of `signature`, the given chunks and IEND.
  static func file(_ chunks: [[UInt8]]) -> Data {
    // Appended array by array, not through `joined()`, whose element-by-element iteration takes
    // seconds over the few MB of a huge image's stream in a debug build.
    var bytes = signature
    for chunk in chunks + [chunk("IEND", [])] { bytes += chunk }
    return Data(bytes)
  }

  /// An IHDR chunk.
  static func header(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6)
    -> [UInt8]
  {
    chunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, 0])
  }

  /// A chunk: length, type, data, CRC-32 of type and data.
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  /// IDAT of a `width`×`height` RGBA image filled with `pixel`, stored uncompressed.
  static func opaqueImageData(width: Int, height: Int, pixel: [UInt8]) -> [UInt8] {
    var raw: [UInt8] = []
    for _ in 0..<height { raw += [0] + Array([[UInt8]](repeating: pixel, count: width).joined()) }
    return chunk("IDAT", zlibStored(raw))
  }

  /// A zlib stream holding `data` in stored (uncompressed) blocks.
  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65535, data.count - offset)
      let final: UInt8 = offset + count == data.count ? 1 : 0
      out += [
        final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF),
        UInt8((~count >> 8) & 0xFF),
      ]
      out += data[offset..<(offset + count)]
      offset += count
    } while offset < data.count
    return out + bigEndian(adler32(data))
  }

  /// A valid zlib stream of `count` zero bytes, compressed with fixed Huffman codes: one literal,
  /// then copies of 258 bytes at distance 1 (13 bits each): about 1/160 of the size.
  static func zlibZeros(count: Int) -> [UInt8] {
    var bits = BitWriter()
    bits.write(1, count: 1)  // BFINAL
    bits.write(1, count: 2)  // BTYPE = 01, fixed Huffman
    var left = count
    if left > 0 {
      bits.writeHuffman(0x30, count: 8)  // literal 0
      left -= 1
    }
    func copy() {
      bits.writeHuffman(0xC5, count: 8)  // length symbol 285 = 258 bytes
      bits.writeHuffman(0, count: 5)  // distance symbol 0 = distance 1
    }
    // Eight copies are 104 bits, 13 bytes: from the second group of eight on, each group starts
    // with the bits the one before left over, so it writes the same 13 bytes as the second; they
    // are appended as such (a 65535×65535 image is 2 million copies, slow to write bit by bit).
    var groups = 0
    var repeated: [UInt8] = []
    while left >= 8 * 258 {
      if groups < 2 {
        let start = bits.count
        for _ in 0..<8 { copy() }
        if groups == 1 { repeated = bits.bytes(from: start) }
      } else {
        bits.append(repeated)
      }
      groups += 1
      left -= 8 * 258
    }
    while left >= 258 {
      copy()
      left -= 258
    }
    for _ in 0..<left { bits.writeHuffman(0x30, count: 8) }
    bits.writeHuffman(0, count: 7)  // end of block (256)
    let adler = UInt32(count % 65521) << 16 | 1
    return [0x78, 0x01] + bits.finished + bigEndian(adler)
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
      UInt8(value & 0xFF),
    ]
  }

  /// The CRC-32 of a chunk, zlib's.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, UInt32($0.count))) }
  }

  /// The Adler-32 of a zlib stream's data, zlib's.
  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(CZlib.adler32(1, $0.baseAddress, UInt32($0.count))) }
  }

  /// Packs bits least-significant first, as DEFLATE does.
  private struct BitWriter {
    private var bytes: [UInt8] = []
    private var current: UInt32 = 0
    private var used = 0

    /// Writes the low `count` bits of `value`, least significant first (headers, extra bits).
    mutating func write(_ value: UInt32, count: Int) {
      for index in 0..<count { push(value >> index & 1) }
    }

    /// Writes a Huffman code of `count` bits, most significant first.
    mutating func writeHuffman(_ code: UInt32, count: Int) {
      for index in stride(from: count - 1, through: 0, by: -1) { push(code >> index & 1) }
    }

    var finished: [UInt8] { used == 0 ? bytes : bytes + [UInt8(current)] }

    /// How many whole bytes are written.
    var count: Int { bytes.count }

    /// The whole bytes written from `start` on.
    func bytes(from start: Int) -> [UInt8] { Array(bytes[start...]) }

    /// Appends whole bytes that the bits already written continue into (the same bits left over).
    mutating func append(_ more: [UInt8]) { bytes += more }

    private mutating func push(_ bit: UInt32) {
      current |= bit << used
      used += 1
      if used == 8 {
        bytes.append(UInt8(current))
        current = 0
        used = 0
      }
    }
  }
}
