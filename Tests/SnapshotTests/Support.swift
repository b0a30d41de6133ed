import BulletList
import Foundation
import Graphics
import PNG
import Primitives
import Snapshot
import Testing
import Themes

/// Paths of the repository and scratch folders for the snapshot tests.
enum Repo {
  /// The package root (…/Tests/SnapshotTests/Support.swift → …).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let snapshots = root.appendingPathComponent("Snapshots")
  static let themes = root.appendingPathComponent("Themes")
  static let cases = snapshots.appendingPathComponent("cases")
}

/// A fresh temporary folder, removed by the caller's `defer`.
func temporaryFolder(_ label: String = "snapshot-tests") throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("\(label)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A snapshots folder holding copies of `cases` (all when nil) with their icons, and no references.
func makeSnapshotsFolder(cases: [String]? = nil, variants: [String: String] = [:]) throws -> URL {
  let folder = try temporaryFolder("snapshots")
  let casesFolder = folder.appendingPathComponent("cases")
  try FileManager.default.createDirectory(at: casesFolder, withIntermediateDirectories: true)
  let names = try FileManager.default.contentsOfDirectory(atPath: Repo.cases.path)
  func caseName(_ name: String) -> String? {
    SnapshotCatalogue.caseFileExtensions.first { name.hasSuffix($0) }.map {
      String(name.dropLast($0.count))
    }
  }
  // The texts of the chosen case files: an icon is copied when one of them names it (a file of
  // `cases/` that no case draws is an error row).
  let chosenTexts = try names.filter { name in
    caseName(name).map { cases?.contains($0) ?? true } ?? false
  }.map { try String(contentsOf: Repo.cases.appendingPathComponent($0), encoding: .utf8) }
  for name in names {
    let caseExtension = SnapshotCatalogue.caseFileExtensions.first { name.hasSuffix($0) }
    let caseName = caseName(name)
    if let caseName, let cases, !cases.contains(caseName) { continue }
    if caseName == nil, !chosenTexts.contains(where: { $0.contains(name) }) { continue }
    var data = try Data(contentsOf: Repo.cases.appendingPathComponent(name))
    if caseExtension == ".json", let caseName, let replacement = variants[caseName] {
      data = Data(
        replacingVariants(in: String(decoding: data, as: UTF8.self), with: replacement).utf8)
    }
    try data.write(to: casesFolder.appendingPathComponent(name))
  }
  return folder
}

/// The case text with its top-level "variants" replaced by (or set to) `variants`.
func replacingVariants(in text: String, with variants: String) -> String {
  var body = text
  if let range = body.range(of: ",\n  \"variants\"") {
    body = String(body[..<range.lowerBound]) + "\n}\n"
  }
  body = body.trimmingCharacters(in: .whitespacesAndNewlines)
  body.removeLast()  // the closing brace
  return body.trimmingCharacters(in: .whitespacesAndNewlines)
    + ",\n  \"variants\": \(variants)\n}\n"
}

/// A copy of the repository's `Themes/` to modify.
func copyOfThemes() throws -> URL {
  let folder = try temporaryFolder("themes")
  let copy = folder.appendingPathComponent("Themes")
  try FileManager.default.copyItem(at: Repo.themes, to: copy)
  return copy
}

/// Replaces `old` by `new` in a file of a themes copy, failing when `old` is not there exactly once.
func edit(_ file: URL, replacing old: String, with new: String) throws {
  let text = try String(contentsOf: file, encoding: .utf8)
  let count = text.components(separatedBy: old).count - 1
  guard count == 1 else {
    throw SupportFailure("\(file.lastPathComponent): expected \"\(old)\" once, found \(count)")
  }
  try text.replacingOccurrences(of: old, with: new).write(
    to: file, atomically: true, encoding: .utf8)
}

/// An engine over `snapshots` with `themes` (the repository's when nil).
func engine(snapshots: URL, themes: URL? = nil) throws -> SnapshotEngine {
  try SnapshotEngine(
    configuration: SnapshotConfiguration(
      snapshotsDirectory: snapshots, themesDirectory: themes ?? Repo.themes))
}

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

/// A set-up step of a test that went wrong (not a snapshot error): its message.
struct SupportFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
