import BulletListRenderer
import Foundation
import Graphics
import Snapshot
import Testing

/// `render` of one PNG draws an opaque list band by band, each band encoded as soon as it is
/// drawn: a row missed by a band, or a band encoded before it is drawn, would change pixels.
/// The references were written by `snapshot record`, so each render must give their very bytes.
@Suite("Every reference rendered as one PNG")
struct CatalogueBytesTests {
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
