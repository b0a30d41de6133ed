import Foundation
import Graphics
import Primitives
import Scene
import Testing
import Themes
import VectorAsset

@Suite("Marker assets drawn")
struct MarkerAssetDrawingTests {
  let renderer: SceneRenderer

  init() throws {
    renderer = SceneRenderer(textEngine: try Fixtures.engine())
  }

  /// A diamond with a diamond hole, both wound the same way: only even-odd leaves the hole.
  static let ring = "M12 2L22 12L12 22L2 12Z M12 7L17 12L12 17L7 12Z"

  @Test("a VectorDrawable file and an SVG file with the same outline draw the same pixels")
  func sameOutlineSamePixels() throws {
    let folder = try Fixtures.temporaryFolder("ouds-marker")
    defer { try? FileManager.default.removeItem(at: folder) }
    let svg = folder.appendingPathComponent("ring.svg")
    try Data(
      """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill-rule="evenodd" d="\(Self.ring)"/></svg>
      """.utf8
    ).write(to: svg)
    let xml = folder.appendingPathComponent("ring.xml")
    try Data(
      """
      <?xml version="1.0" encoding="utf-8"?>
      <vector xmlns:android="http://schemas.android.com/apk/res/android"
          android:width="24dp" android:height="24dp" android:viewportWidth="24" android:viewportHeight="24">
        <path android:fillColor="#FF000000" android:fillType="evenOdd" android:pathData="\(Self.ring)"/>
      </vector>
      """.utf8
    ).write(to: xml)
    let fromSVG = MarkerShape(
      name: "t.svg", outline: try VectorAssetReader.outline(contentsOf: svg.path))
    let fromXML = MarkerShape(
      name: "t.svg", outline: try VectorAssetReader.outline(contentsOf: xml.path))
    let a = try renderer.rasterize(
      Fixtures.scene(glyph: SceneGlyph(shape: fromSVG, tint: Fixtures.orange), label: ""), scale: 3)
    let b = try renderer.rasterize(
      Fixtures.scene(glyph: SceneGlyph(shape: fromXML, tint: Fixtures.orange), label: ""), scale: 3)
    #expect(a == b)
    // The fill type is honoured: the icon square (10, 8, 20, 20) has ink on the ring, none in the hole.
    let ring = a.pixel(x: 30 + 10, y: 24 + 30)  // (4 units, 12 units): between the diamonds
    let hole = a.pixel(x: 30 + 30, y: 24 + 30)  // the centre
    #expect(RGBAColor(red: ring.red, green: ring.green, blue: ring.blue) == Fixtures.orange)
    #expect(RGBAColor(red: hole.red, green: hole.green, blue: hole.blue) == Fixtures.white)
  }

  @Test("a view box that is not 24×24 nor at the origin is fitted into the icon square")
  func viewBoxFitted() throws {
    // A square filling the view box -100 -100 400 400 fills the whole icon square.
    let outline = try VectorAssetReader.outline(
      of: Array(
        #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="-100 -100 400 400"><path d="M-100 -100h400v400h-400z"/></svg>"#
          .utf8),
      format: .svg)
    let image = try renderer.rasterize(
      Fixtures.scene(
        glyph: SceneGlyph(
          shape: MarkerShape(name: "t.box", outline: outline), tint: Fixtures.orange), label: ""),
      scale: 1)
    for (x, y) in [(10, 8), (29, 27), (20, 18)] {
      let p = image.pixel(x: x, y: y)
      #expect(
        RGBAColor(red: p.red, green: p.green, blue: p.blue) == Fixtures.orange, "(\(x), \(y))")
    }
    for (x, y) in [(9, 18), (30, 18), (20, 7), (20, 28)] {
      let p = image.pixel(x: x, y: y)
      #expect(RGBAColor(red: p.red, green: p.green, blue: p.blue) == Fixtures.white, "(\(x), \(y))")
    }
  }

  @Test("markers stay vectors in SVG and PDF output, filled with their fill rule")
  func vectors() throws {
    let tick = Fixtures.shape(try Fixtures.markers(.wireframe).tick)
    let scene = Fixtures.scene(glyph: SceneGlyph(shape: tick, tint: Fixtures.orange), label: "")
    let svg = String(decoding: try renderer.render(scene, as: .svg), as: UTF8.self)
    // One path: the tick, in the tint, with curves (the round ends) and no bitmap.
    #expect(svg.contains("fill-rule:nonzero;fill:rgb(94.509804%,43.137255%,0%)"))
    #expect(svg.contains(" C "))
    #expect(!svg.contains("<image"))
    let pdf = try renderer.render(scene, as: .pdf)
    #expect(pdf.range(of: Data("/Subtype /Image".utf8)) == nil)
    #expect(pdf.count > 0)
  }
}
