import CSpng
import Foundation
import Testing

@testable import Graphics
@testable import PNG

/// `PNGCodec.decode(_:limits:into:rowsDone:)`: the decoder `ouds-render diff` runs on two threads
/// while it compares the rows already decoded.
@Suite("PNGCodec row by row")
struct PNGRowDecodingTests {
  /// Writes `image` with libspng (RGBA, 8 bits), interlaced (Adam7) or not.
  static func spngEncode(_ image: RasterImage, interlaced: Bool) throws -> Data {
    try SpngWriter.encode(
      image.pixels, width: image.width, height: image.height, alpha: true, interlaced: interlaced,
      filters: nil)
  }

  /// Decodes row by row into a fresh buffer; returns the pixels and every `rowsDone` value.
  static func decodeRows(_ data: Data) throws -> (RasterImage, [Int]) {
    let (width, height) = try PNGCodec.size(of: data)
    var announced: [Int] = []
    var pixels = [UInt8](repeating: 0xAB, count: width * height * 4)
    try pixels.withUnsafeMutableBytes { buffer in
      try PNGCodec.decode(data, into: buffer) { announced.append($0) }
    }
    return (RasterImage(width: width, height: height, pixels: pixels), announced)
  }

  @Test("every row is announced once, in order, and the pixels are decode's")
  func progressiveRows() throws {
    let image = PNGCodecTests.sample
    for data in [try PNGCodec.encode(image), try Self.spngEncode(image, interlaced: false)] {
      let (decoded, announced) = try Self.decodeRows(data)
      #expect(decoded == image)
      #expect(announced == Array(1...image.height))
      #expect(try PNGCodec.decode(data) == image)
    }
  }

  @Test("an interlaced image is final only after its last pass: announced once, whole")
  func interlacedRows() throws {
    let image = PNGCodecTests.sample
    let data = try Self.spngEncode(image, interlaced: true)
    #expect(data[data.startIndex + 28] == 1, "the IHDR says Adam7")
    let (decoded, announced) = try Self.decodeRows(data)
    #expect(decoded == image)
    #expect(announced == [image.height])
    #expect(try PNGCodec.decode(data) == image)
  }

  @Test("size(of:) reads the header and applies the limits; a buffer of the wrong size is refused")
  func sizeAndBuffer() throws {
    let data = try PNGCodec.encode(PNGCodecTests.sample)
    let size = try PNGCodec.size(of: data)
    #expect(size.width == 64 && size.height == 32)
    let small = PNGDecodeLimits(
      maxSide: 40, maxPixels: 1 << 20, maxChunkBytes: 1 << 20, maxAncillaryBytes: 2 << 20)
    #expect(
      throws: PNGError.overLimit(
        reason: "the image is 64×32 pixels, over the limit of 40 pixels a side")
    ) {
      _ = try PNGCodec.size(of: data, limits: small)
    }
    var pixels = [UInt8](repeating: 0, count: 64 * 31 * 4)
    #expect(throws: PNGError.self) {
      try pixels.withUnsafeMutableBytes { try PNGCodec.decode(data, into: $0) { _ in } }
    }
  }

  @Test("a stream cut in the middle announces the rows it had, then fails")
  func truncated() throws {
    let image = PNGCodecTests.sample
    let whole = try Self.spngEncode(image, interlaced: false)
    var announced: [Int] = []
    var pixels = [UInt8](repeating: 0, count: image.pixels.count)
    let cut = whole.prefix(whole.count / 2)
    #expect(throws: PNGError.self) {
      try pixels.withUnsafeMutableBytes {
        try PNGCodec.decode(cut, into: $0) { announced.append($0) }
      }
    }
    #expect(announced.count < image.height)
    #expect(announced == Array(announced.indices.map { $0 + 1 }))
  }
}
