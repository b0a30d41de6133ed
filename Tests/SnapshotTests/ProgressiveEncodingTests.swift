import BulletListRenderer
import Foundation
import Graphics
import Snapshot
import Testing

/// `render` of one PNG encodes the bitmap's rows while it draws the rows below (a segment as soon
/// as no row left to draw can reach it): a segment encoded too early would hold pixels a later row
/// painted over. The references were encoded from finished bitmaps, so each render must give
/// their very bytes.
@Suite("A PNG encoded while it is drawn")
struct ProgressiveEncodingTests {
  @Test("every reference of the catalogue, rendered as one PNG, has the reference's bytes")
  func catalogueBytes() throws {
    let catalogue = try SnapshotCatalogue(directory: Repo.snapshots)
    let renderer = try BulletListRenderer(themesDirectory: Repo.themes)
    var compared = 0
    for reference in catalogue.references {
      let expected = try Data(
        contentsOf: Repo.snapshots.appendingPathComponent(reference.imagePath))
      let rendered = try renderer.render(
        reference.list, theme: reference.variant.theme, mode: reference.variant.mode,
        options: reference.variant.options, format: .png(scale: reference.variant.scale))
      #expect(rendered.data == expected, "\(reference.id)")
      compared += 1
    }
    #expect(compared == catalogue.references.count && compared > 200)
  }
}
