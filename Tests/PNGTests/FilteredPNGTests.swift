import CSpng
import Foundation
import Graphics
import PNG
import Testing

/// PNGs written by libspng with every row filter (Sub, Up, Average, Paeth) and as RGB or RGBA,
/// read back by `PNGCodec.decode`'s own reader: the pixels must come back exactly.
@Suite("Decoding PNGs from another encoder")
struct FilteredPNGTests {
  /// A deterministic image with gradients, edges and noise, so that every filter gets chosen.
  func sample(width: Int, height: Int, alpha: Bool) -> [UInt8] {
    var state: UInt32 = 12345
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 1_103_515_245 &+ 12345
        let noise = UInt8(truncatingIfNeeded: state >> 16)
        pixels.append(UInt8(truncatingIfNeeded: x * 3 + y))
        pixels.append(x > width / 2 ? noise : UInt8(truncatingIfNeeded: y * 5))
        pixels.append(UInt8(truncatingIfNeeded: (x ^ y) * 7))
        if alpha { pixels.append(y % 7 == 0 ? 255 : UInt8(truncatingIfNeeded: x + Int(noise / 8))) }
      }
    }
    return pixels
  }

  func encodeWithSpng(_ pixels: [UInt8], width: Int, height: Int, alpha: Bool, filters: Int32)
    throws -> Data
  {
    try SpngWriter.encode(
      pixels, width: width, height: height, alpha: alpha, interlaced: false, filters: filters)
  }

  @Test(
    "every filter, RGB and RGBA",
    arguments: [
      (Int32(SPNG_FILTER_CHOICE_SUB.rawValue), true), (Int32(SPNG_FILTER_CHOICE_UP.rawValue), true),
      (Int32(SPNG_FILTER_CHOICE_AVG.rawValue), true),
      (Int32(SPNG_FILTER_CHOICE_PAETH.rawValue), true),
      (Int32(SPNG_FILTER_CHOICE_ALL.rawValue), true),
      (Int32(SPNG_FILTER_CHOICE_ALL.rawValue), false),
    ])
  func roundTrip(filters: Int32, alpha: Bool) throws {
    let (width, height) = (37, 23)
    let pixels = sample(width: width, height: height, alpha: alpha)
    let png = try encodeWithSpng(
      pixels, width: width, height: height, alpha: alpha, filters: filters)
    let decoded = try PNGCodec.decode(png)
    #expect(decoded.width == width && decoded.height == height)
    var expected = pixels
    if !alpha {
      expected = []
      for i in stride(from: 0, to: pixels.count, by: 3) {
        expected += [pixels[i], pixels[i + 1], pixels[i + 2], 255]
      }
    }
    #expect(decoded.pixels == expected)
  }

  @Test("damaged image data is an error, not a crash")
  func damaged() throws {
    let image = RasterImage(width: 8, height: 8, pixels: Array(repeating: 200, count: 8 * 8 * 4))
    var png = try PNGCodec.encode(image)
    // Flip bytes in the middle of the compressed data (after the 33-byte header and IDAT's head).
    png[50] ^= 0xFF
    png[51] ^= 0xFF
    #expect(throws: PNGError.self) { try PNGCodec.decode(png) }
    #expect(throws: PNGError.self) { try PNGCodec.decode(png.prefix(40)) }
  }
}
