import Foundation
import Graphics
import PNG
import Testing

/// PNG inputs (icons, snapshot references, both sides of `diff`) are hostile input: the decoder
/// refuses them over its limits before allocating anything large, with an error saying which limit.
@Suite("PNG decoder limits")
struct HostilePNGTests {
  /// The message of a refusal, or nil when `decode` did not throw `pngOverLimit`.
  private func refusal(_ data: Data, limits: PNGDecodeLimits = .standard) -> String? {
    do {
      _ = try PNGCodec.decode(data, limits: limits)
      return nil
    } catch {
      guard case .overLimit = error else { return "wrong error: \(error)" }
      return error.description
    }
  }

  @Test("the fixtures are valid PNGs: a small image with a small text chunk decodes")
  func control() throws {
    let png = PNGBytes.file([
      PNGBytes.header(width: 2, height: 2),
      PNGBytes.chunk("tEXt", Array("Comment\u{0}hello".utf8)),
      PNGBytes.opaqueImageData(width: 2, height: 2, pixel: [255, 0, 0, 255]),
    ])
    let image = try PNGCodec.decode(png)
    #expect(image.width == 2 && image.height == 2)
    #expect(image.pixels == [UInt8](Array(repeating: [255, 0, 0, 255], count: 4).joined()))
  }

  @Test("a 65535×65535 PNG of a few MB (17 GB decoded) is refused by its side, before decoding")
  func hugeSides() throws {
    // 1-bit grey, every row zero: a valid image whose decoded RGBA would take 17 GB.
    let rows = 65535 * (1 + (65535 + 7) / 8)
    let png = PNGBytes.file([
      PNGBytes.header(width: 65535, height: 65535, bitDepth: 1, colorType: 0),
      PNGBytes.chunk("IDAT", PNGBytes.zlibZeros(count: rows)),
    ])
    #expect(png.count < 4_000_000)
    #expect(
      refusal(png)
        == "PNG refused: the image is 65535×65535 pixels, over the limit of 32767 pixels a side")
  }

  @Test("sides within the limit but too many pixels are refused by the pixel count")
  func tooManyPixels() {
    let png = PNGBytes.file([
      PNGBytes.header(width: 32767, height: 32767, bitDepth: 1, colorType: 0),
      PNGBytes.chunk("IDAT", PNGBytes.zlibZeros(count: 1000)),
    ])
    #expect(
      refusal(png)
        == "PNG refused: the image is 32767×32767 = 1073676289 pixels, over the limit of 134217728 pixels (512 MiB decoded)"
    )
  }

  @Test("an icon is limited to 4096 pixels a side; the same image decodes as a reference")
  func iconLimits() throws {
    let png = PNGBytes.file([
      PNGBytes.header(width: 5000, height: 10, bitDepth: 1, colorType: 0),
      PNGBytes.chunk("IDAT", PNGBytes.zlibZeros(count: 10 * (1 + (5000 + 7) / 8))),
    ])
    let image = try PNGCodec.decode(png, limits: .standard)
    #expect(image.width == 5000 && image.height == 10)
    #expect(image.pixels[0..<4] == [0, 0, 0, 255])
    #expect(
      refusal(png, limits: .icon)
        == "PNG refused: the image is 5000×10 pixels, over the limit of 4096 pixels a side")
  }

  @Test("a 3 MB text chunk is refused, named, without reading it")
  func bigTextChunk() {
    let png = PNGBytes.file([
      PNGBytes.header(width: 2, height: 2),
      PNGBytes.chunk("tEXt", Array("Comment\u{0}".utf8) + [UInt8](repeating: 65, count: 3_000_000)),
      PNGBytes.opaqueImageData(width: 2, height: 2, pixel: [255, 0, 0, 255]),
    ])
    #expect(
      refusal(png)
        == "PNG refused: its tEXt chunk is 3000008 bytes, over the limit of 1048576 bytes for one ancillary chunk"
    )
  }

  @Test("3 MB of text in a thousand small chunks is refused by the total")
  func manyTextChunks() {
    let text = PNGBytes.chunk(
      "tEXt", Array("Comment\u{0}".utf8) + [UInt8](repeating: 65, count: 3000))
    let png = PNGBytes.file(
      [PNGBytes.header(width: 2, height: 2)] + Array(repeating: text, count: 1000)
        + [PNGBytes.opaqueImageData(width: 2, height: 2, pixel: [255, 0, 0, 255])])
    #expect(
      refusal(png)
        == "PNG refused: its ancillary chunks hold over 2097152 bytes together (the limit)")
  }

  @Test(
    "a small compressed chunk that inflates to 64 MB (zTXt, iCCP) is refused by libspng's limit")
  func compressedChunkBombs() {
    let bomb = PNGBytes.zlibZeros(count: 64 << 20)
    #expect(bomb.count < 1 << 20)
    for chunk in [
      PNGBytes.chunk("zTXt", Array("Comment\u{0}\u{0}".utf8) + bomb),
      PNGBytes.chunk("iCCP", Array("profile\u{0}\u{0}".utf8) + bomb),
    ] {
      let png = PNGBytes.file([
        PNGBytes.header(width: 2, height: 2), chunk,
        PNGBytes.opaqueImageData(width: 2, height: 2, pixel: [255, 0, 0, 255]),
      ])
      #expect(
        refusal(png)
          == "PNG refused: an ancillary chunk (text, ICC profile, EXIF…) is over 1048576 bytes, or all of them together over 2097152 bytes, once decompressed"
      )
    }
  }

  @Test("the limits of the standard and icon decoders are what the README says")
  func documentedLimits() {
    #expect(PNGDecodeLimits.standard.maxSide == 32767)
    #expect(PNGDecodeLimits.standard.maxPixels == 134_217_728)
    #expect(PNGDecodeLimits.icon.maxSide == 4096)
    #expect(PNGDecodeLimits.standard.maxChunkBytes == 1 << 20)
    #expect(PNGDecodeLimits.standard.maxAncillaryBytes == 2 << 20)
  }
}
