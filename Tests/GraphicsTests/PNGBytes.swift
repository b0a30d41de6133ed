import Foundation

/// Hand-made PNG files for the decoder tests: chunks, CRCs and zlib streams written byte by byte,
/// so that a test can build what no encoder would write (huge sides, huge or compressed chunks).
enum PNGBytes {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A PNG made of `signature`, the given chunks and IEND.
  static func file(_ chunks: [[UInt8]]) -> Data {
    Data(signature + chunks.joined() + chunk("IEND", []))
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
    while left >= 258 {
      bits.writeHuffman(0xC5, count: 8)  // length symbol 285 = 258 bytes
      bits.writeHuffman(0, count: 5)  // distance symbol 0 = distance 1
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

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
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
