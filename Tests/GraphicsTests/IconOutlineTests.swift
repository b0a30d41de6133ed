import Foundation
import PNG
import Primitives
import Scene
import Testing
import VectorAsset

@testable import Graphics

/// SVG icons inside the filled-outline subset are drawn into bitmaps without librsvg: the pixels
/// must be exactly those librsvg draws, at every size, scale and position within a pixel.
@Suite("Icons drawn from their outline")
struct IconOutlineTests {
  let renderer: SceneRenderer
  let folder: URL

  init() throws {
    renderer = SceneRenderer(textEngine: try Fixtures.engine())
    folder = try Fixtures.temporaryFolder("ouds-icon-outline")
  }

  /// Icons of the subset: the catalogue's heart and others using every path command but arcs,
  /// both fill rules, a size in the view box's proportions and inherited fills.
  private var icons: [(name: String, text: String)] {
    get throws {
      let heart = try String(
        contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Snapshots/cases/heart.svg"),
        encoding: .utf8)
      return [
        ("heart", heart),
        (
          "relative",
          """
          <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">
            <path d="m4 4h16v16h-16z m3 3 v10 h10 v-10 z"/>
            <path fill-rule="evenodd" fill="#FFF" d="M8 8 L16 8 L12 16 Z M10 10 L14 10 L12 14 Z"/>
          </svg>
          """
        ),
        (
          "offset",
          """
          <svg xmlns="http://www.w3.org/2000/svg" width="28px" height="28" viewBox="0 0 28 28">
            <path d="M2 10 Q 8 0 14 10 T 24 10 S 20 18 14 18 s -6 -2 -8 -4 c 0 -1 1 -2 2 -3 Z"/>
          </svg>
          """
        ),
        (
          "inherited",
          """
          <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="black" fill-rule="evenodd">
            <path fill="none" d="M0 0 H24 V24 H0 Z"/>
            <path d="M3 3 H21 V21 H3 Z M6 6 V18 H18 V6 Z"/>
            <path fill="#000000ff" d="M10 10 H14 V14 H10 Z"/>
          </svg>
          """
        ),
      ]
    }
  }

  /// The catalogue's heart written into the folder, and its outline.
  private func heart() throws -> (url: URL, outline: VectorOutline) {
    let heart = try #require(try icons.first)
    let url = folder.appendingPathComponent("heart.svg")
    try heart.text.write(to: url, atomically: true, encoding: .utf8)
    return (url, try #require(VectorAssetReader.iconOutline(of: Array(heart.text.utf8))))
  }

  private func scene(icon path: String, at rect: Rect) -> Scene {
    var scene = Fixtures.scene(glyph: SceneGlyph(imageFile: path, tint: Fixtures.orange))
    scene.rows[0].icon = rect
    scene.rows[0].marker.rect = rect
    return scene
  }

  @Test("a filled outline draws the pixels librsvg draws, at every size, scale and phase")
  func samePixels() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let boxes = [
      Rect(x: 10, y: 8, width: 20, height: 20), Rect(x: 10.3, y: 7.55, width: 16, height: 16),
      Rect(x: 11.7, y: 8.25, width: 24, height: 24),
      Rect(x: 9.9, y: 8.1, width: 18.5, height: 22.2),
    ]
    var compared = 0
    for icon in try icons {
      let url = folder.appendingPathComponent("\(icon.name).svg")
      try icon.text.write(to: url, atomically: true, encoding: .utf8)
      let outline = try #require(
        VectorAssetReader.iconOutline(of: Array(icon.text.utf8)), "\(icon.name)")
      for box in boxes {
        for scale in PixelScale.supported {
          let picture = scene(icon: url.path, at: box)
          renderer.iconOutlines = [:]
          let byLibrsvg = try renderer.render(picture, as: .png(scale: scale))
          renderer.iconOutlines = [url.path: outline]
          let byOutline = try renderer.render(picture, as: .png(scale: scale))
          renderer.iconOutlines = [:]
          #expect(byOutline == byLibrsvg, "\(icon.name) in \(box) at \(scale)x")
          compared += 1
        }
      }
    }
    #expect(compared == 4 * 4 * PixelScale.supported.count)
  }

  @Test("an icon filled from its outline is drawn in its tint, inside its box")
  func iconIsDrawn() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (url, outline) = try heart()
    renderer.iconOutlines = [url.path: outline]
    defer { renderer.iconOutlines = [:] }
    let drawn = try PNGCodec.decode(
      try renderer.render(
        scene(icon: url.path, at: Rect(x: 10, y: 8, width: 20, height: 20)), as: .png(scale: 1)),
      limits: .standard)
    // the heart is a ring: its left side runs from x 3 to 5.3 of the 24-point box near y 9, so
    // pixel (13, 15) of the 20-point box at (10, 8) lies inside it; the box's corner stays white
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      let index = (y * drawn.width + x) * 4
      return Array(drawn.pixels[index..<index + 3])
    }
    #expect(pixel(13, 15) == [0xF1, 0x6E, 0x00])
    #expect(pixel(10, 8) == [0xFF, 0xFF, 0xFF])
  }

  @Test("vector output keeps librsvg's drawing: the outlines change nothing in SVG and PDF")
  func vectorOutputUnchanged() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (url, outline) = try heart()
    let picture = scene(icon: url.path, at: Rect(x: 10, y: 8, width: 20, height: 20))
    for format in [OutputFormat.svg, .pdf] {
      renderer.iconOutlines = [:]
      let before = try renderer.render(picture, as: format)
      renderer.iconOutlines = [url.path: outline]
      let after = try renderer.render(picture, as: format)
      renderer.iconOutlines = [:]
      #expect(before == after, "\(format)")
    }
  }
}
