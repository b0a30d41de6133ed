import BulletList
import Foundation
import Graphics
import PNG
import Primitives
import Snapshot
@_exported import TestSupport
import Testing
import Themes

/// The repository's catalogue rendered once per test run, with the repository's `Themes/`, and compared
/// with `Snapshots/` in the record mode of the environment (`OUDS_SNAPSHOT_RECORD`, `never` under `CI`),
/// as `ouds-render snapshot verify` or `record` would. The whole-catalogue test asserts on it, and the
/// regression tests' baseline is made from it, so one `swift test` renders the catalogue once.
enum RepositoryRun {
  static let result: Result<(mode: SnapshotRecordMode, report: SnapshotRunReport), any Error> =
    Result {
      let mode = try SnapshotRecordMode.fromEnvironment()
      let engine = try engine(snapshots: Repo.snapshots)
      let references = engine.catalogue.references
      let report =
        mode == .never
        ? try engine.verify(references)
        : try engine.record(references, mode: mode, checkExisting: true)
      return (mode, report)
    }
}

/// `Snapshots/` as this machine renders it with the repository's themes: the baseline the regression
/// tests change the themes against. It costs no render of its own: a copy of `Snapshots/` in which each
/// reference the shared run found different (or missing) is replaced by that run's render, with this
/// machine's `ENVIRONMENT.json`. A reference that could not be rendered at all fails every user.
enum Baseline {
  static let folder: Result<URL, any Error> = Result {
    let report = try RepositoryRun.result.get().report
    let errors = report.outcomes.filter { $0.status == .error }.map {
      "\($0.reference.id): \($0.reason)"
    }
    guard errors.isEmpty else {
      throw SupportFailure("baseline: \(errors.joined(separator: "; "))")
    }
    let folder = try temporaryFolder("baseline").appendingPathComponent("Snapshots")
    try FileManager.default.copyItem(at: Repo.snapshots, to: folder)
    for outcome in report.failures {
      guard let evidence = outcome.evidence else {
        throw SupportFailure(
          "baseline: \(outcome.reference.id) failed without a render: \(outcome.reason)")
      }
      let png = folder.appendingPathComponent(outcome.reference.imagePath)
      try FileManager.default.createDirectory(
        at: png.deletingLastPathComponent(), withIntermediateDirectories: true)
      try PNGCodec.encode(evidence.actualImage).write(to: png)
      try Data(evidence.actualLayout.utf8).write(
        to: folder.appendingPathComponent(outcome.reference.layoutPath))
    }
    guard let environment = report.environment else {
      throw SupportFailure("baseline: the shared run has no environment")
    }
    try environment.write(to: folder)
    return folder
  }

  /// The baseline's catalogue.
  static func references() throws -> [SnapshotReference] {
    try engine(snapshots: Baseline.folder.get()).catalogue.references
  }

  /// The ids among `references` that fail when the baseline is verified with `themes`.
  static func failingIDs(themes: URL, verifying references: [SnapshotReference]) throws
    -> (ids: Set<String>, report: SnapshotRunReport)
  {
    let engine = try engine(snapshots: Baseline.folder.get(), themes: themes)
    let report = try engine.verify(references)
    return (Set(report.failures.map(\.reference.id)), report)
  }

  /// The baseline's references whose recorded layout JSON satisfies `predicate`.
  static func ids(where predicate: (SnapshotReference, String) throws -> Bool) throws -> Set<String>
  {
    let folder = try Baseline.folder.get()
    var ids = Set<String>()
    for reference in try references() {
      let layout = try String(
        contentsOf: folder.appendingPathComponent(reference.layoutPath), encoding: .utf8)
      if try predicate(reference, layout) { ids.insert(reference.id) }
    }
    return ids
  }

  /// What a regression test verifies after changing the themes: every reference `predicted` to fail;
  /// every other reference of `theme`, the theme the change belongs to (the likeliest to be hit by
  /// mistake); and a control sample of every theme × mode (``controlSample(of:excluding:perThemeAndMode:)``).
  /// The test then expects exactly `predicted` to fail among them.
  static func slice(predicted: Set<String>, theme: ThemeName? = nil) throws -> [SnapshotReference] {
    let all = try references()
    let sameTheme = Set(all.filter { $0.variant.theme == theme }.map(\.id))
    let control = controlSample(of: all, excluding: predicted.union(sameTheme), perThemeAndMode: 3)
    let chosen = predicted.union(sameTheme).union(control)
    return all.filter { chosen.contains($0.id) }
  }
}

/// Up to `count` references of each theme × mode that are not in `excluded`, spread evenly over the
/// catalogue's order (so over different cases), always the same ones.
func controlSample(
  of references: [SnapshotReference], excluding excluded: Set<String>, perThemeAndMode count: Int
)
  -> Set<String>
{
  var sample = Set<String>()
  for theme in ThemeName.allCases {
    for mode in ColorMode.allCases {
      let candidates = references.filter {
        $0.variant.theme == theme && $0.variant.mode == mode && !excluded.contains($0.id)
      }.map(\.id).sorted()
      guard !candidates.isEmpty else { continue }
      let picks = min(count, candidates.count)
      for index in 0..<picks { sample.insert(candidates[index * candidates.count / picks]) }
    }
  }
  return sample
}
