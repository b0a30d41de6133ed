import Foundation
import Graphics
import Primitives
import Scene
import Testing

@Suite("SVG and PDF canvases stay within Cairo's exact coordinates")
struct VectorCanvasLimitTests {
  private func scene(width: Double = 360, height: Double) -> Scene {
    Scene(
      width: width, height: height, direction: .ltr, theme: .orange, mode: .light,
      background: RGBAColor(red: 255, green: 255, blue: 255, alpha: 255), rows: [])
  }

  private func refusal(_ scene: Scene, as format: OutputFormat) throws -> String? {
    let renderer = SceneRenderer(textEngine: try Fixtures.engine())
    do {
      _ = try renderer.render(scene, as: format)
      return nil
    } catch {
      return error.description
    }
  }

  @Test("a canvas taller than 8,000,000 points is refused as SVG and PDF before drawing")
  func tallRefused() throws {
    // 8,100,000 points: below 2²³, so Cairo would still finish, and used to write it (exit 0)
    for format in [OutputFormat.svg, .pdf] {
      #expect(
        try refusal(scene(height: 8_100_000), as: format)
          == "canvas of 360×8100000 points cannot be drawn as SVG or PDF: its height, 8100000 points, is over the 8000000-point limit (Cairo's coordinates stop at 8388608); shorten the list or split it into several files"
      )
    }
    // past 2²³ the SVG used to lose everything beyond it (a PDF never finished)
    #expect(try refusal(scene(height: 9_000_000), as: .svg) != nil)
    #expect(
      try refusal(scene(width: 8_100_000, height: 100), as: .svg)?.contains(
        "its width, 8100000 points, is over the 8000000-point limit") == true)
  }

  @Test("a PDF of pages refuses a page over the limit")
  func pagesRefused() throws {
    let renderer = SceneRenderer(textEngine: try Fixtures.engine())
    #expect(throws: GraphicsError.invalidCanvasSize(width: 360, height: 8_100_000, scale: 0)) {
      try renderer.renderPDF(pages: [scene(height: 100), scene(height: 8_100_000)])
    }
  }

  @Test("a canvas of 8,000,000 points is drawn as SVG")
  func atLimitDrawn() throws {
    #expect(try refusal(scene(height: 8_000_000), as: .svg) == nil)
  }

  @Test("a PDF page over 14,400 points (the page limit of PDF readers) is refused; 14,400 is drawn")
  func pdfPageLimit() throws {
    // Cairo writes the 7,200,036-point page, exit 0, and readers then refuse it or show a part.
    #expect(
      try refusal(scene(height: 14_401), as: .pdf)
        == "canvas of 360×14401 points cannot be a PDF page: its height, 14401 points, is over the 14400-point page limit PDF readers apply; use SVG or PNG, or split the list into several files"
    )
    #expect(
      try refusal(scene(width: 20_000, height: 100), as: .pdf)?.contains(
        "its width, 20000 points, is over the 14400-point") == true)
    #expect(try refusal(scene(height: 14_400), as: .pdf) == nil)
    #expect(try refusal(scene(height: 14_401), as: .svg) == nil)
    let renderer = SceneRenderer(textEngine: try Fixtures.engine())
    #expect(throws: GraphicsError.pdfPageTooLarge(width: 360, height: 20_000)) {
      try renderer.renderPDF(pages: [scene(height: 100), scene(height: 20_000)])
    }
  }
}
