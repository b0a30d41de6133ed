import Foundation
import Graphics
import PNG
import Primitives
import Scene
import Testing
import Themes

@Suite("SceneRenderer")
struct SceneRendererTests {
  let renderer: SceneRenderer

  init() throws {
    renderer = SceneRenderer(textEngine: try Fixtures.engine())
  }

  private func rgba(_ image: RasterImage, _ x: Int, _ y: Int) -> RGBAColor {
    let p = image.pixel(x: x, y: y)
    return RGBAColor(red: p.red, green: p.green, blue: p.blue, alpha: p.alpha)
  }

  @Test("a square bullet is filled with its tint, the canvas with the background")
  func pixelColours() throws {
    let scene = Fixtures.scene(
      glyph: SceneGlyph(shape: try Fixtures.orangeSquare(), tint: Fixtures.orange))
    for scale in [1, 3] {
      let image = try renderer.rasterize(scene, scale: scale)
      // Icon square (10, 8, 20, 20): its centre (20, 18) is inside the 9.4/24 square.
      #expect(rgba(image, 20 * scale, 18 * scale) == Fixtures.orange)
      // Just outside the square (x 7.3/24 of the icon = 16.08 pt) is background.
      #expect(rgba(image, 15 * scale, 18 * scale) == Fixtures.white)
      #expect(rgba(image, 0, 0) == Fixtures.white)
      #expect(rgba(image, image.width - 1, image.height - 1) == Fixtures.white)
    }
  }

  @Test("without a background the canvas stays transparent; a translucent tint keeps its colour")
  func transparency() throws {
    let tint = RGBAColor(red: 0xF1, green: 0x6E, blue: 0x00, alpha: 0x80)
    let scene = Fixtures.scene(
      glyph: SceneGlyph(shape: try Fixtures.orangeSquare(), tint: tint), background: nil)
    let image = try renderer.rasterize(scene, scale: 2)
    #expect(image.pixel(x: 1, y: 1).alpha == 0)
    #expect(image.pixel(x: 700, y: 70).alpha == 0)
    let centre = rgba(image, 40, 36)
    #expect(centre.alpha == 0x80)
    #expect(abs(Int(centre.red) - 0xF1) <= 1)
    #expect(abs(Int(centre.green) - 0x6E) <= 1)
    #expect(centre.blue == 0)
  }

  @Test("label ink stays inside the box the text engine measured, starting at the text origin")
  func measureMatchesDraw() throws {
    let scene = Fixtures.scene(glyph: nil, label: "Label")
    let image = try renderer.rasterize(scene, scale: 1)
    let measured = renderer.textEngine.measure(scene.rows[0].text.content, wrapWidth: 300)
    var minX = Int.max
    var maxX = Int.min
    var maxY = Int.min
    for y in 0..<image.height {
      for x in 0..<image.width where image.pixel(x: x, y: y).red < 128 {
        minX = min(minX, x)
        maxX = max(maxX, x)
        maxY = max(maxY, y)
      }
    }
    #expect(minX >= 40 && minX <= 42)
    #expect(Double(maxX) <= 40 + measured.width + 1)
    // Nothing below the baseline plus the descent of "Label" (no descenders): baseline 6 + 17.55.
    #expect(maxY <= 24)
  }

  @Test("right-aligned text ends at the right edge of its wrap box")
  func rightAlignment() throws {
    var scene = Fixtures.scene(glyph: nil, label: "Label")
    scene.rows[0].text.alignment = .right
    let image = try renderer.rasterize(scene, scale: 1)
    var maxX = Int.min
    for y in 0..<image.height {
      for x in 0..<image.width where image.pixel(x: x, y: y).red < 128 { maxX = max(maxX, x) }
    }
    // Wrap box 40…340.
    #expect(maxX >= 336 && maxX < 340)
  }

  @Test("an italic span is slanted (synthetic oblique: the manifests have no italic files)")
  func italic() throws {
    let regular = Fixtures.scene(glyph: nil, label: "Label")
    var slanted = regular
    slanted.rows[0].text.content.spans = [TextSpan("Label", italic: true)]
    let upright = try renderer.rasterize(regular, scale: 1)
    let oblique = try renderer.rasterize(slanted, scale: 1)
    #expect(upright != oblique)
    #expect(
      renderer.textEngine.measure(slanted.rows[0].text.content, wrapWidth: nil).lineCount == 1)
  }

  @Test("a span colour overrides the paragraph colour for its characters only")
  func spanColour() throws {
    var scene = Fixtures.scene(glyph: nil, label: "")
    scene.rows[0].text.content.spans = [
      TextSpan("████", color: Fixtures.orange), TextSpan("████"),
    ]
    let image = try renderer.rasterize(scene, scale: 1)
    var colours: [RGBAColor] = []
    for x in stride(from: 42, to: 140, by: 2) where rgba(image, x, 18) != Fixtures.white {
      colours.append(rgba(image, x, 18))
    }
    #expect(colours.contains(Fixtures.orange))
    #expect(colours.contains(Fixtures.black))
  }

  @Test("every theme marker is drawn inside its icon square, and outlined sparkles are hollow")
  func shapes() throws {
    for theme in ThemeName.allCases {
      let markers = try Fixtures.markers(theme)
      for asset in markers.levels.values + [markers.tick] {
        let shape = Fixtures.shape(asset)
        let scene = Fixtures.scene(
          glyph: SceneGlyph(shape: shape, tint: Fixtures.orange), label: "")
        let image = try renderer.rasterize(scene, scale: 3)
        var inked = 0
        for y in 0..<image.height {
          for x in 0..<image.width where image.pixel(x: x, y: y).blue < 128 {
            inked += 1
            // Icon square (10, 8, 20, 20) at scale 3.
            #expect(
              (30..<90).contains(x) && (24..<84).contains(y), "\(asset.name) inks (\(x), \(y))")
          }
        }
        #expect(inked > 50, "\(asset.name) draws nothing")
        let centre = rgba(image, 60, 54)
        switch asset.name {
        case "wireframe.sparkle-thick-outline", "wireframe.sparkle-thin-outline":
          #expect(centre == Fixtures.white, "\(asset.name) is not hollow")
        case _ where asset.name.hasSuffix(".tick"):
          break
        default:
          #expect(centre == Fixtures.orange, "\(asset.name) centre is \(centre)")
        }
      }
    }
  }

  @Test(
    "a glyph is a shape or an image, never both: its JSON has exactly one of shape and imageFile")
  func glyphJSON() throws {
    let shape = SceneGlyph(shape: try Fixtures.orangeSquare(), tint: Fixtures.orange)
    let image = SceneGlyph(
      imageFile: "/icons/heart.svg", tint: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0x80))
    #expect(
      try SceneJSON.encode(shape)
        == "{\n  \"shape\" : \"orange.square\",\n  \"tint\" : \"#F16E00\"\n}")
    #expect(
      try SceneJSON.encode(image)
        == "{\n  \"imageFile\" : \"/icons/heart.svg\",\n  \"tint\" : \"#00000080\"\n}")
    #expect(
      try JSONDecoder().decode(SceneGlyph.self, from: Data(SceneJSON.encode(image).utf8)) == image)
    #expect(image.imageFile == "/icons/heart.svg" && image.shape == nil && shape.imageFile == nil)
    for bad in [
      ##"{"tint": "#000000"}"##,
      ##"{"shape": "orange.square", "imageFile": "/a.svg", "tint": "#000000"}"##,
    ] {
      #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(SceneGlyph.self, from: Data(bad.utf8))
      }
    }
  }

  @Test("a shape read back from JSON has no outline and is refused with its name")
  func shapeWithoutOutline() throws {
    let json = try SceneJSON.encode(
      SceneGlyph(shape: try Fixtures.orangeSquare(), tint: Fixtures.orange))
    #expect(json.contains(#""shape" : "orange.square""#))
    let decoded = try JSONDecoder().decode(SceneGlyph.self, from: Data(json.utf8))
    #expect(decoded.shape?.name == "orange.square" && decoded.shape?.outline.paths.isEmpty == true)
    let message =
      "marker shape \"orange.square\" has no outline to draw (a scene read back from JSON names its shapes only; lay the list out again)"
    #expect {
      _ = try renderer.rasterize(Fixtures.scene(glyph: decoded), scale: 1)
    } throws: { error in
      "\(error)" == message
    }
    // one PNG, drawn in bands (whose rows are placed before any is drawn)
    #expect {
      _ = try renderer.render(Fixtures.scene(glyph: decoded), as: .png(scale: 2))
    } throws: { error in
      "\(error)" == message
    }
  }

  @Test("an SVG icon is used as a mask tinted with the glyph colour, in PNG and SVG")
  func svgIcon() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let icon = folder.appendingPathComponent("square.svg")
    // A black square covering the middle half of a 24×24 viewport.
    try Data(
      """
      <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">\
      <rect x="6" y="6" width="12" height="12" fill="#000"/></svg>
      """.utf8
    ).write(to: icon)
    let scene = Fixtures.scene(glyph: SceneGlyph(imageFile: icon.path, tint: Fixtures.orange))
    let image = try renderer.rasterize(scene, scale: 2)
    #expect(rgba(image, 40, 36) == Fixtures.orange)  // centre of the icon
    #expect(rgba(image, 24, 20) == Fixtures.white)  // icon corner, outside the rect
    let svg = String(decoding: try renderer.render(scene, as: .svg), as: UTF8.self)
    #expect(svg.contains("mask"))
    #expect(!svg.contains("<image"))  // stays vector
  }

  @Test("a PNG icon's alpha is used as a mask tinted with the glyph colour")
  func pngIcon() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let icon = folder.appendingPathComponent("dot.png")
    // 4×4 opaque blue pixels inside a transparent 8×8 image: the colour must not leak.
    var pixels = [UInt8](repeating: 0, count: 8 * 8 * 4)
    for y in 2..<6 {
      for x in 2..<6 {
        pixels.replaceSubrange((y * 8 + x) * 4..<(y * 8 + x) * 4 + 4, with: [0, 0, 255, 255])
      }
    }
    try PNGCodec.encode(RasterImage(width: 8, height: 8, pixels: pixels)).write(to: icon)
    let scene = Fixtures.scene(glyph: SceneGlyph(imageFile: icon.path, tint: Fixtures.orange))
    let image = try renderer.rasterize(scene, scale: 1)
    #expect(rgba(image, 20, 18) == Fixtures.orange)
    #expect(rgba(image, 11, 9) == Fixtures.white)
  }

  @Test("a missing icon file names the path")
  func missingIcon() {
    let scene = Fixtures.scene(
      glyph: SceneGlyph(imageFile: "/nonexistent/icons/heart.svg", tint: Fixtures.orange))
    #expect {
      _ = try renderer.render(scene, as: .png(scale: 1))
    } throws: { error in
      "\(error)" == "icon file not found: /nonexistent/icons/heart.svg"
    }
  }

  @Test("an SVG icon librsvg cannot parse names the file")
  func brokenIcon() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let icon = folder.appendingPathComponent("broken.svg")
    try Data("<svg".utf8).write(to: icon)
    let scene = Fixtures.scene(glyph: SceneGlyph(imageFile: icon.path, tint: Fixtures.orange))
    #expect {
      _ = try renderer.rasterize(scene, scale: 1)
    } throws: { error in
      "\(error)".hasPrefix("icon file could not be read: \(icon.path): ")
    }
  }

  @Test("the same scene gives the same PNG bytes, even from another text engine")
  func deterministicPNG() throws {
    let scene = Fixtures.scene(
      glyph: SceneGlyph(
        shape: Fixtures.shape(try Fixtures.markers(.orange).tick), tint: Fixtures.orange),
      label: "Label عنصر")
    let first = try renderer.render(scene, as: .png(scale: 2))
    let second = try renderer.render(scene, as: .png(scale: 2))
    let other = try SceneRenderer(textEngine: Fixtures.engine()).render(scene, as: .png(scale: 2))
    #expect(first == second)
    #expect(first == other)
    #expect(try PNGCodec.decode(first) == renderer.rasterize(scene, scale: 2))
  }

  @Test("a PNG at scale 3 is three times the scale-1 size")
  func scales() throws {
    let scene = Fixtures.scene(
      glyph: SceneGlyph(
        shape: Fixtures.shape(try Fixtures.markers(.sosh).levels[level: 0]), tint: Fixtures.orange))
    for scale in 1...3 {
      let image = try PNGCodec.decode(renderer.render(scene, as: .png(scale: scale)))
      #expect(image.width == 360 * scale)
      #expect(image.height == 36 * scale)
    }
    for scale in [0, 4] {
      #expect(throws: GraphicsError.invalidScale(scale)) {
        _ = try renderer.rasterize(scene, scale: scale)
      }
      #expect(
        "\(GraphicsError.invalidScale(scale))"
          == "pixel scale \(scale) is not supported (use 1, 2 or 3)")
    }
  }

  @Test("SVG output is byte-identical run to run, in px units, with normalised surface ids")
  func deterministicSVG() throws {
    let scene = Fixtures.scene(
      glyph: SceneGlyph(shape: try Fixtures.orangeSquare(), tint: Fixtures.orange))
    let first = try renderer.render(scene, as: .svg)
    _ = try renderer.render(scene, as: .pdf)  // advances Cairo's process-wide surface counter
    _ = try renderer.rasterize(scene, scale: 1)
    let second = try renderer.render(scene, as: .svg)
    #expect(first == second)
    let svg = String(decoding: first, as: UTF8.self)
    #expect(svg.contains(#"width="360px""#))
    #expect(svg.contains(#"height="36px""#))
    #expect(svg.contains(#"version="1.1""#))
    #expect(svg.contains(#"id="surface1""#))
  }

  @Test("PDF output is byte-identical run to run")
  func deterministicPDF() throws {
    let scene = Fixtures.scene(
      glyph: SceneGlyph(
        shape: Fixtures.shape(try Fixtures.markers(.sosh).tick), tint: Fixtures.orange))
    let first = try renderer.render(scene, as: .pdf)
    let second = try renderer.render(scene, as: .pdf)
    #expect(first == second)
    #expect(first.starts(with: Data("%PDF-".utf8)))
  }

  @Test("a canvas without area is refused")
  func emptyCanvas() {
    let scene = Fixtures.scene(glyph: nil, width: 0)
    #expect {
      _ = try renderer.render(scene, as: .svg)
    } throws: { error in
      "\(error)" == "canvas of 0×36 points cannot be drawn: both sides must be positive"
    }
  }
}

@Suite("Canvas limits")
struct CanvasLimitTests {
  @Test("a bitmap over Cairo's limit says the pixel size, the limit and the way out; SVG draws it")
  func tallCanvas() throws {
    let renderer = SceneRenderer(textEngine: try Fixtures.engine())
    let scene = Fixtures.scene(glyph: nil, height: 20000)
    #expect {
      _ = try renderer.render(scene, as: .png(scale: 2))
    } throws: { error in
      "\(error)"
        == "canvas of 360×20000 points at scale 2 is 720×40000 pixels, over the 32767-pixel limit of a bitmap: use a lower scale, or SVG or PDF"
    }
    #expect(try renderer.render(scene, as: .svg).count > 0)
  }
}
