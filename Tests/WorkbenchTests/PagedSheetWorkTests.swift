import BulletList
import BulletListRenderer
import Foundation
import Primitives
import Scene
import TestSupport
import Testing
import Workbench

/// Issue 40: a paged sheet's work grows with what it draws, never with its square. Work is
/// counted as the rows the pages draw (each page draws only the rows of its part), not seconds.
@Suite("Paged sheets: linear work, a refused tall row, a refused huge sheet")
struct PagedSheetWorkTests {
  /// The rows every page of `document` draws, summed.
  static func rowsDrawn(_ document: SheetDocument) -> Int {
    document.pages.reduce(0) { total, page in
      total + page.insets.reduce(0) { $0 + $1.scene.rows.count }
    }
  }

  static func list(items: Int, lines: Int = 1) -> OUDSBulletList {
    OUDSBulletList(type: .unordered()) {
      for index in 0..<items {
        OUDSBulletList.Item(
          (0..<lines).map { "Item \(index) line \($0) of a label" }.joined(separator: " "))
      }
    }
  }

  @Test("twice the items, twice the rows drawn: each page draws only its part")
  func linearInItems() throws {
    let heading = SheetHeading(title: "long.json", lines: [])
    let (small, large) = try SharedRenderer.shared.with { renderer in
      (
        try renderer.sheetDocument(
          Self.list(items: 150), themes: [.orange], modes: [.light], heading: heading),
        try renderer.sheetDocument(
          Self.list(items: 300), themes: [.orange], modes: [.light], heading: heading)
      )
    }
    #expect(small.pages.count > 1 && large.pages.count > small.pages.count)
    #expect(Self.rowsDrawn(small) == 150)
    #expect(Self.rowsDrawn(large) == 300)
  }

  @Test("a row taller than a page is refused in one line, at two label sizes alike, before drawing")
  func tallRowRefused() throws {
    let heading = SheetHeading(title: "tall.json", lines: [])
    for lines in [1_500, 3_000] {
      #expect {
        try SharedRenderer.shared.with { renderer in
          _ = try renderer.sheetDocument(
            Self.list(items: 1, lines: lines), themes: [.orange], modes: [.light],
            heading: heading)
        }
      } throws: { error in
        let text = "\(error)"
        return text.hasPrefix("theme orange (light): item items[0]'s row is ")
          && text.contains(
            " points a page holds: a paged sheet cuts a cell only between rows; draw the sheet as SVG or PNG (one tall page), or shorten the label"
          )
          && !text.contains("\n")
      }
    }
  }

  @Test("a sheet over 100,000 rows (items × cells) is refused before it is laid out")
  func hugeSheetRefused() throws {
    let list = Self.list(items: 2_000)
    #expect(
      throws: RenderError.sheetTooLarge(
        reason:
          "2000 items in 128 cells make 256000 rows, over the 100000 a sheet lays out (about 7 KB of memory each): choose fewer themes, modes, platforms or text sizes, or split the list",
        RenderError.Context(theme: nil, mode: nil))
    ) {
      try SharedRenderer.shared.with { renderer in
        _ = try renderer.sheetLayout(
          list, platforms: [.ios, .android],
          textSizes: SheetTextSizes(
            fontScales: [1, 1.15, 1.3, 1.5, 1.8, 2, 2.5, 3],
            contentSizes: [
              .xSmall, .small, .medium, .large, .xLarge, .xxLarge, .xxxLarge, .accessibility1,
            ]))
      }
    }
  }
}
