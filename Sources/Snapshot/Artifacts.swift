import BulletListRenderer
import Dispatch
import Graphics
import PNG
import PixelDiff
import Primitives
import SafeInput
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes what a person needs to see a failure: expected, actual and diff images, layout JSON and a diff, JUnit XML.
///
/// Layout: `<dir>/<case>/<variant>/expected.png`, `actual.png`, `diff.png`, `side-by-side.png`,
/// `expected.layout.json`, `actual.layout.json`, `layout.diff`; `<dir>/junit.xml`; `<dir>/summary.txt`.
public enum SnapshotArtifacts {
  /// Layout diff lines shown per failure before eliding the rest.
  public static let maxLayoutLines = 24

  /// The default artifacts folder of the test suite and `assertSnapshot`, relative to the current folder.
  public static let defaultDirectory = ".build/snapshot-artifacts"

  /// The default artifacts folder of `ouds-render snapshot verify`: `<parent of snapshots>/.build/snapshot-artifacts`,
  /// i.e. the package's `.build/snapshot-artifacts` for `./Snapshots`, wherever the command runs from.
  public static func defaultDirectory(forSnapshots snapshots: URL) -> URL {
    snapshots.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(
      defaultDirectory)
  }
  /// Refuses an output folder (`--results`, `--artifacts`, `--report`) that is the snapshots or
  /// themes folder, lies inside one (its `results.json` would become a broken case, its files
  /// would mix with references and tokens) or holds the snapshots folder.
  /// - Throws: ``SnapshotError/outputFolderOverlaps(option:path:what:folder:holds:)``.
  public static func checkOutputFolder(
    _ path: String, option: String, snapshots: URL, themes: URL?
  ) throws(SnapshotError) {
    let places =
      [ProtectedPlace("snapshots folder", snapshots.path)]
      + (themes.map { [ProtectedPlace("themes folder", $0.path)] } ?? [])
    do {
      try OutputPlace.check(path, option: option, against: places, refuseHolding: true)
    } catch {
      // Holding the themes folder is harmless: only the snapshots folder's clean-up matters.
      if error.holds, error.place.what != "snapshots folder" { return }
      throw .outputFolderOverlaps(
        option: option, path: path, what: error.place.what, folder: error.place.path,
        holds: error.holds)
    }
  }

  /// A file that marks a folder as written by this tool, so stale per-reference folders can be cleared.
  package static let markerFileName = ".ouds-snapshot-artifacts"

  /// The folder of one reference's artifacts, relative to the artifacts folder.
  public static func folder(for reference: SnapshotReference) -> String {
    reference.id
  }

  /// Writes the artifacts of one failure into `<directory>/<case>/<variant>/`, leaving the rest of
  /// the folder alone and never replacing one of `inputs`.
  public static func writeOne(
    _ outcome: SnapshotOutcome, to directory: URL, protecting inputs: InputFiles
  ) throws {
    let folder = directory.appendingPathComponent(folder(for: outcome.reference))
    for (name, data) in try files(for: outcome) {
      try AtomicFile.write(
        data, to: folder.appendingPathComponent(name).path, createDirectories: true,
        protecting: inputs)
    }
  }

  /// The artifact files of one failure, name → bytes; without `side-by-side.png` when `sideBySide` is false.
  package static func files(for outcome: SnapshotOutcome, sideBySide: Bool = true) throws -> [(
    String, Data
  )] {
    var files: [(String, Data)] = []
    if let evidence = outcome.evidence {
      if let expectedPNG = evidence.expectedPNG { files.append(("expected.png", expectedPNG)) }
      let actual = evidence.actualImage
      files.append(("actual.png", try PNGCodec.encode(actual)))
      if let expected = evidence.expectedImage, let diff = outcome.diff {
        let diffImage = ImageDiff.diffImage(expected: expected, actual: actual, result: diff)
        files.append(("diff.png", try PNGCodec.encode(diffImage)))
        if sideBySide {
          files.append(
            (
              "side-by-side.png",
              try PNGCodec.encode(
                ImageDiff.sideBySide(expected: expected, actual: actual, diff: diffImage))
            ))
        }
      }
      if let expectedLayout = evidence.expectedLayout {
        files.append(("expected.layout.json", Data(expectedLayout.utf8)))
      }
      files.append(("actual.layout.json", Data(evidence.actualLayout.utf8)))
    }
    if !outcome.layoutDiff.isEmpty {
      let header =
        "--- \(outcome.reference.layoutPath) (reference)\n+++ \(outcome.reference.layoutPath) (this render)\n"
      files.append(
        ("layout.diff", Data((header + outcome.layoutDiff.joined(separator: "\n") + "\n").utf8)))
    }
    return files
  }

  /// The bytes of one picture of a failure, as ``files(for:sideBySide:)`` writes it, or nil when
  /// the outcome has none.
  package static func image(_ image: ArtifactImage, of outcome: SnapshotOutcome) throws -> Data? {
    guard let evidence = outcome.evidence else { return nil }
    switch image {
    case .expected:
      return evidence.expectedPNG
    case .actual:
      return try PNGCodec.encode(evidence.actualImage)
    case .diff:
      guard let expected = evidence.expectedImage, let diff = outcome.diff else { return nil }
      return try PNGCodec.encode(
        ImageDiff.diffImage(expected: expected, actual: evidence.actualImage, result: diff))
    }
  }

  /// The names of the files ``files(for:sideBySide:)`` can write for a failure.
  public static let fileNames: Set<String> = [
    "expected.png", "actual.png", "diff.png", "side-by-side.png", "expected.layout.json",
    "actual.layout.json",
    "layout.diff",
  ]
}

/// A reference whose files could not be written, and why; the first by reference id is reported.
package typealias WriteFailure = (reference: String, reason: String)

/// The failure with the smallest reference id (then reason), so the report does not depend on
/// which thread failed first.
package func firstFailure(_ failures: [WriteFailure]) -> WriteFailure? {
  failures.min { ($0.reference, $0.reason) < ($1.reference, $1.reason) }
}

/// The pictures of a failure, each an artifact file: the reference, the fresh render and their
/// difference.
public enum ArtifactImage: String, Hashable, Sendable, CaseIterable, Comparable {
  /// The reference PNG.
  case expected
  /// The fresh render.
  case actual
  /// The difference picture (changed pixels red over the ghosted reference).
  case diff

  /// The order in which JUnit attaches them: diff, actual, expected.
  public static let attachmentOrder: [ArtifactImage] = [.diff, .actual, .expected]

  /// The artifact file that holds it: `expected.png`…
  public var fileName: String { rawValue + ".png" }

  /// Expected, actual, diff.
  public static func < (a: ArtifactImage, b: ArtifactImage) -> Bool {
    allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
  }
}
