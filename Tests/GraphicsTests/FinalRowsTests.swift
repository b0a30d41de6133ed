import Foundation
import Primitives
import Scene
import Testing

@testable import Graphics

/// A PNG is encoded while it is drawn: after each row the renderer says how many pixel rows no
/// later row can touch, and the encoder's other thread encodes those. A count too high lets the
/// encoder read rows before they are drawn, and the file loses whatever was drawn there after —
/// depending on which thread runs first, so it shows as text missing in some runs only.
@Suite("Rows final while drawing")
struct FinalRowsTests {
  @Test("rows above every later row's ink are final, one pixel of antialiasing spared")
  func measured() {
    #expect(SceneRenderer.finalPixelRows(inkTops: [4, 30.2, 50], scale: 2) == [59, 99, Int.max])
    #expect(SceneRenderer.finalPixelRows(inkTops: [4, 50, 30.2], scale: 1) == [29, 29, Int.max])
    #expect(SceneRenderer.finalPixelRows(inkTops: [0.2, 0.4], scale: 1) == [0, Int.max])
    #expect(SceneRenderer.finalPixelRows(inkTops: [], scale: 3) == [])
  }

  @Test(
    "a later row whose ink is not measured keeps every row open until it is drawn",
    arguments: [-Double.infinity, .nan])
  func unmeasured(ink: Double) {
    // the row at index 2 is laid out in pieces (no ink): nothing is final before it is drawn
    #expect(
      SceneRenderer.finalPixelRows(inkTops: [10, 20, ink, 300, 400], scale: 3)
        == [0, 0, 899, 1199, Int.max])
  }

  @Test("a row with nothing to draw leaves the rows before it as the rows after it make them")
  func nothingToDraw() {
    #expect(
      SceneRenderer.finalPixelRows(inkTops: [10, .infinity, 40], scale: 1) == [39, 39, Int.max])
  }

  /// Three rows, the middle one's label long enough to be laid out in pieces by `engine`.
  private static func scene(longLabel: String) -> Scene {
    func row(_ index: Int, y: Double, label: String, height: Double) -> SceneRow {
      let icon = Rect(x: 10, y: y + 2, width: 20, height: 20)
      return SceneRow(
        path: "items[\(index)]", level: 0,
        marker: SceneMarker(kind: .none, text: nil, rect: icon), icon: nil, glyph: nil,
        markerText: nil, label: Rect(x: 40, y: y, width: 300, height: height),
        text: SceneText(
          origin: Point(x: 40, y: y), wrapWidth: 300, alignment: .left,
          content: Fixtures.text(label)),
        lines: 1, firstBaseline: 17.55, accessibilityLabel: label)
    }
    return Scene(
      width: 360, height: 2000, direction: .ltr, theme: .orange, mode: .light,
      background: Fixtures.white,
      rows: [
        row(0, y: 0, label: "First", height: 24),
        row(1, y: 30, label: longLabel, height: 1800),
        row(2, y: 1900, label: "Last", height: 24),
      ])
  }

  @Test("a label laid out in pieces holds back the encoder until it is drawn, then it is PNG-exact")
  func labelInPieces() throws {
    let engine = try Fixtures.engine()
    engine.layoutLimits = TextLayout.Limits(
      maxPieceBytes: 200, maxParagraphsPerPiece: 64, seamCharacters: 256)
    let long = String(repeating: "words of a long label ", count: 60)
    let scene = Self.scene(longLabel: long)
    let renderer = SceneRenderer(textEngine: engine)
    let final = renderer.finalPixelRows(of: scene, scale: 2)
    #expect(final.count == 3)
    #expect(final.first == 0)  // not every row, as before: the encoder raced the drawing
    #expect(final.last == Int.max)
    // at the top of the ink of "Last" (its text box at 1900 pt, its baseline at 1917.55)
    #expect(final[1] >= 3799 && final[1] < 3835)
    // the bytes are those of the finished bitmap encoded afterwards, run after run
    let expected = try renderer.draw(scene, scale: 2).encodePNG()
    for _ in 0..<5 {
      #expect(try renderer.render(scene, as: .png(scale: 2)) == expected)
    }
  }
}
