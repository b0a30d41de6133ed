import BulletListRenderer
import Foundation
import Graphics
import PNG
import Snapshot
import Testing

/// The references are kept by pixels, not bytes: a PNG encoder's bytes may change with the CPU
/// (ISA-L picks its kernels at run time) while the pixels may not. The whole catalogue is checked
/// on the shared run of ``RepositoryRun`` (rendered once per `swift test`), and `render`'s own
/// path, one PNG drawn and encoded band by band, on one reference per theme, scale and platform,
/// whose decoded pixels must be the reference's.
@Suite("Every reference has the pixels of its render")
struct CatalogueBytesTests {
  @Test("the shared run's render of every reference has the reference's very pixels")
  func cataloguePixels() throws {
    let report = try RepositoryRun.result.get().report
    let catalogue = try SnapshotCatalogue(directory: Repo.snapshots)
    #expect(report.outcomes.count == catalogue.references.count && catalogue.references.count > 200)
    // identical pixels, not within a tolerance (a missing render has no diff: it fails too)
    let notIdentical = report.outcomes.filter { $0.diff != .identical }.map(\.reference.id)
    #expect(notIdentical.isEmpty, "\(notIdentical.count) differ: \(notIdentical.prefix(10))")
  }

  @Test(
    "one PNG drawn band by band decodes to the reference's pixels, per theme, scale and platform")
  func bandedRenderPixels() throws {
    let catalogue = try SnapshotCatalogue(directory: Repo.snapshots)
    let renderer = try BulletListRenderer(themesDirectory: Repo.themes)
    var seen = Set<String>()
    for reference in catalogue.references {
      let variant = reference.variant
      let key = "\(variant.theme)-\(variant.scale)-\(variant.options.platform)"
      guard seen.insert(key).inserted else { continue }
      let expected = try PNGCodec.decode(
        Data(contentsOf: Repo.snapshots.appendingPathComponent(reference.imagePath)))
      let rendered = try renderer.render(
        reference.list, theme: variant.theme, mode: variant.mode, options: variant.options,
        format: .png(scale: variant.scale))
      #expect(try PNGCodec.decode(rendered.data) == expected, "\(reference.id)")
    }
    #expect(seen.count >= 8, "\(seen.sorted())")
  }
}
