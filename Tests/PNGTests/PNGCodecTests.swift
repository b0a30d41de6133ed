import Foundation
import Graphics
import PNG
import Scene
import Testing

@Suite("PNGCodec")
struct PNGCodecTests {
  /// Every alpha value, colours that differ per pixel, and fully transparent pixels with colour.
  static let sample: RasterImage = {
    let width = 64
    let height = 32
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        pixels[i] = UInt8((x * 4) & 0xFF)
        pixels[i + 1] = UInt8((y * 8) & 0xFF)
        pixels[i + 2] = UInt8((x * y) & 0xFF)
        pixels[i + 3] = UInt8(((y * width + x) * 255 / (width * height - 1)) & 0xFF)
      }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }()

  @Test("encode then decode gives back the exact pixels")
  func roundTrip() throws {
    let data = try PNGCodec.encode(Self.sample)
    #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    #expect(try PNGCodec.decode(data) == Self.sample)
  }

  @Test("the same pixels always give the same bytes, with no time or text chunk")
  func deterministic() throws {
    let first = try PNGCodec.encode(Self.sample)
    #expect(first == (try PNGCodec.encode(Self.sample)))
    for chunk in ["tIME", "tEXt", "zTXt", "iTXt"] {
      #expect(first.range(of: Data(chunk.utf8)) == nil)
    }
  }

  @Test("garbage is a decoding error, not a crash")
  func garbage() {
    #expect(throws: PNGError.self) { _ = try PNGCodec.decode(Data("not a png".utf8)) }
    #expect(throws: PNGError.self) { _ = try PNGCodec.decode(Data()) }
  }
}

@Suite("RenderStack and OutputFormat")
struct RenderStackTests {
  @Test("reports the run-time versions of every library")
  func versions() {
    let stack = RenderStack.current()
    let versions = [
      stack.cairo, stack.pango, stack.harfbuzz, stack.freetype, stack.fontconfig, stack.librsvg,
      stack.libspng,
    ]
    for version in versions {
      #expect(version.split(separator: ".").count == 3, "\(version)")
      #expect(version.split(separator: ".").allSatisfy { Int($0) != nil }, "\(version)")
    }
    #expect(stack.cairo.hasPrefix("1."))
    #expect(stack.pango.hasPrefix("1."))
  }

  @Test("output formats map to and from file extensions")
  func formats() {
    #expect(OutputFormat(fileExtension: "PNG") == .png(scale: 1))
    #expect(OutputFormat(fileExtension: "svg") == .svg)
    #expect(OutputFormat(fileExtension: "pdf") == .pdf)
    #expect(OutputFormat(fileExtension: "jpg") == nil)
    #expect(OutputFormat.png(scale: 3).fileExtension == "png")
  }
}
