import Foundation
import Primitives
import Scene
import Testing

@testable import Graphics

/// A PNG render writes its background itself, half on each thread, instead of Cairo's paint:
/// the bytes must be those of the paint, for opaque and translucent colours and any height.
@Suite("The background written without Cairo")
struct BackgroundFillTests {
  let renderer: SceneRenderer

  init() throws {
    renderer = SceneRenderer(textEngine: try Fixtures.engine())
  }

  static let colours: [RGBAColor] = [
    RGBAColor(red: 255, green: 255, blue: 255), RGBAColor(red: 0, green: 0, blue: 0),
    RGBAColor(red: 255, green: 121, blue: 0), RGBAColor(red: 1, green: 2, blue: 3),
    RGBAColor(red: 0, green: 0, blue: 0, alpha: 0),
    RGBAColor(red: 255, green: 255, blue: 255, alpha: 1),
    RGBAColor(red: 10, green: 200, blue: 30, alpha: 127),
    RGBAColor(red: 255, green: 0, blue: 0, alpha: 128),
    RGBAColor(red: 99, green: 17, blue: 250, alpha: 254),
  ]

  @Test(
    "render's PNG (the background written on two threads) has the bytes of a Cairo paint",
    arguments: colours)
  func sameBytesAsThePaint(colour: RGBAColor) throws {
    // heights whose halves are odd, one row, and a bitmap large enough for the huge-page map
    for (width, height, scale) in [(7.0, 5.0, 1), (7.0, 5.0, 3), (3.0, 1.0, 1), (360.0, 720.0, 3)] {
      let scene = Scene(
        width: width, height: height, direction: .ltr, theme: .orange, mode: .light,
        background: colour, rows: [])
      let written = try renderer.render(scene, as: .png(scale: scale))
      let painted = try renderer.draw(scene, scale: scale).encodePNG()
      #expect(written == painted, "\(colour) \(width)×\(height) at \(scale)")
    }
  }

  @Test("the word is Cairo's premultiplied ARGB32 pixel", arguments: colours)
  func word(colour: RGBAColor) throws {
    let word = try BackgroundFill.paintedWord(colour)
    let alpha = UInt32(colour.alpha)
    #expect(word >> 24 == alpha)
    // premultiplied: no channel above the alpha
    for shift in [16, 8, 0] { #expect((word >> UInt32(shift)) & 0xFF <= alpha, "\(colour)") }
    if alpha == 255 {
      #expect(
        word == 0xFF00_0000 | UInt32(colour.red) << 16 | UInt32(colour.green) << 8
          | UInt32(colour.blue))
    }
  }
}
