import CSpng
import Foundation
import Testing

@testable import Graphics

/// The PNG encoder that deflates one image in segments on several threads: the bytes must not
/// depend on the number of threads, and libspng (which checks every chunk CRC and the zlib
/// stream's Adler-32) must read back the exact pixels.
@Suite("SegmentedPNGEncoder")
struct SegmentedPNGEncoderTests {
  /// Flat bands (long matches that cross segment cuts), gradients and noise; `alpha` also puts
  /// fully transparent pixels with colour and every alpha value in.
  static func image(width: Int, height: Int, alpha: Bool) -> RasterImage {
    var state: UInt32 = 2024
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 1_103_515_245 &+ 12345
        let i = (y * width + x) * 4
        let band = (y / 40) % 3
        pixels[i] = band == 0 ? 0xFF : UInt8(truncatingIfNeeded: x)
        pixels[i + 1] = band == 1 ? UInt8(truncatingIfNeeded: state >> 16) : 0x79
        pixels[i + 2] = UInt8(truncatingIfNeeded: x ^ y)
        pixels[i + 3] = alpha ? UInt8(truncatingIfNeeded: x + y) : 255
      }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  /// Decodes with libspng alone, RGBA8 out, with a width limit wide enough for the wide test.
  static func decodeWithSpng(_ png: Data) throws -> RasterImage {
    let ctx = try #require(spng_ctx_new(0))
    defer { spng_ctx_free(ctx) }
    #expect(spng_set_image_limits(ctx, 1 << 20, 1 << 20) == 0)
    return try png.withUnsafeBytes { bytes in
      #expect(spng_set_png_buffer(ctx, bytes.baseAddress, bytes.count) == 0)
      var header = spng_ihdr()
      let status = spng_get_ihdr(ctx, &header)
      guard status == 0 else { throw DecodeFailure(status: status) }
      let size = Int(header.width) * Int(header.height) * 4
      var result: Int32 = 0
      let pixels = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        result = spng_decode_image(
          ctx, buffer.baseAddress, size, Int32(SPNG_FMT_RGBA8.rawValue),
          Int32(SPNG_DECODE_TRNS.rawValue))
        count = result == 0 ? size : 0
      }
      guard result == 0 else { throw DecodeFailure(status: result) }
      return RasterImage(width: Int(header.width), height: Int(header.height), pixels: pixels)
    }
  }

  struct DecodeFailure: Error {
    let status: Int32
  }

  /// The chunks of a PNG file, in order: type and body.
  static func chunks(_ png: Data) -> [(type: String, body: Data)] {
    var result: [(String, Data)] = []
    var offset = png.startIndex + 8
    while offset + 12 <= png.endIndex {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      result.append((type, png[offset + 8..<offset + 8 + length]))
      offset += 12 + length
    }
    return result
  }

  @Test(
    "1, 2, 3 and 8 workers write the same bytes, which libspng reads back to the exact pixels",
    arguments: [(500, 700, false), (500, 700, true), (37, 6000, true)])
  func sameBytesForAnyWorkerCount(width: Int, height: Int, alpha: Bool) throws {
    let image = Self.image(width: width, height: height, alpha: alpha)
    let rowBytes = width * (alpha ? 4 : 3)
    // the image really is cut: several segments, so that 2 workers share it
    #expect(
      (height + SegmentedPNGEncoder.segmentRows(rowBytes: rowBytes) - 1)
        / SegmentedPNGEncoder.segmentRows(rowBytes: rowBytes) >= 3)
    let one = try SegmentedPNGEncoder.encode(image, workers: 1)
    for workers in [2, 3, 8] {
      #expect(try SegmentedPNGEncoder.encode(image, workers: workers) == one, "\(workers) workers")
    }
    #expect(try Self.decodeWithSpng(one) == image)
    #expect(try PNGCodec.decode(one) == image)
    // an opaque image is written as RGB (colour type 2), else RGBA (6)
    let header = try #require(Self.chunks(one).first)
    #expect(header.type == "IHDR")
    #expect(header.body[header.body.startIndex + 9] == (alpha ? 6 : 2))
    #expect(Self.chunks(one).map(\.type).filter { $0 != "IDAT" } == ["IHDR", "IEND"])
  }

  @Test("rows longer than a segment: one row per segment, the dictionary is the previous row's end")
  func rowsLongerThanASegment() throws {
    let image = Self.image(width: 70_000, height: 4, alpha: true)
    #expect(SegmentedPNGEncoder.segmentRows(rowBytes: 70_000 * 4) == 1)
    let one = try SegmentedPNGEncoder.encode(image, workers: 1)
    #expect(try SegmentedPNGEncoder.encode(image, workers: 2) == one)
    #expect(try Self.decodeWithSpng(one) == image)
  }

  @Test("the combined Adler-32 is the stream's: a wrong one makes libspng refuse the file")
  func adlerIsChecked() throws {
    let image = Self.image(width: 400, height: 900, alpha: false)
    let png = try SegmentedPNGEncoder.encode(image, workers: 2)
    let idat = Data(Self.chunks(png).filter { $0.type == "IDAT" }.flatMap(\.body))
    // the zlib header says deflate, 32 KiB window, no preset dictionary, and checks out
    #expect(idat.prefix(2) == Data([0x78, 0x01]))
    #expect((Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0)
    // the trailer equals the Adler-32 of the filtered rows, computed here from scratch
    var (a, b): (UInt32, UInt32) = (1, 0)
    func add(_ byte: UInt8) {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    for y in 0..<image.height {
      add(0)  // filter type None
      for x in 0..<image.width {
        for channel in 0..<3 { add(image.pixels[(y * image.width + x) * 4 + channel]) }
      }
    }
    let trailer = idat.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(trailer == b << 16 | a)

    // flip one bit of the trailer and fix the chunk's CRC: only the Adler-32 is now wrong
    var broken = png
    let iend = broken.count - 12
    let lastByte = iend - 5  // the last byte of the last IDAT body, before its CRC
    broken[lastByte] ^= 0x01
    let lastIDAT = try #require(Self.chunks(broken).last { $0.type == "IDAT" })
    let crc = Self.crc32(
      Data("IDAT".utf8) + broken[lastIDAT.body.startIndex..<lastIDAT.body.endIndex])
    broken.replaceSubrange(
      lastIDAT.body.endIndex..<lastIDAT.body.endIndex + 4,
      with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
    #expect(throws: DecodeFailure.self) { try Self.decodeWithSpng(broken) }
    #expect(throws: GraphicsError.self) { try PNGCodec.decode(broken) }
  }

  @Test("an empty image is an encoding error naming its size")
  func emptyImage() {
    #expect(throws: GraphicsError.pngEncodingFailed(reason: "cannot encode an image of 0×5 pixels"))
    {
      try SegmentedPNGEncoder.encode(width: 0, height: 5, alpha: true) { _, _ in }
    }
  }

  /// CRC-32 (PNG's polynomial), bit by bit: independent of the encoder's zlib call.
  static func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
