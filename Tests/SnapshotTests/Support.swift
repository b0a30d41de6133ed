import BulletList
import Foundation
import Snapshot
import Testing

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
  for name in try FileManager.default.contentsOfDirectory(atPath: Repo.cases.path) {
    let isCase = name.hasSuffix(".json")
    if isCase, let cases, !cases.contains(String(name.dropLast(5))) { continue }
    var data = try Data(contentsOf: Repo.cases.appendingPathComponent(name))
    if isCase, let replacement = variants[String(name.dropLast(5))] {
      data = Data(replacingVariants(in: String(decoding: data, as: UTF8.self), with: replacement).utf8)
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
  return body.trimmingCharacters(in: .whitespacesAndNewlines) + ",\n  \"variants\": \(variants)\n}\n"
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
  guard count == 1 else { throw SnapshotError("\(file.lastPathComponent): expected \"\(old)\" once, found \(count)") }
  try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
}

/// An engine over `snapshots` with `themes` (the repository's when nil).
func engine(snapshots: URL, themes: URL? = nil) throws -> SnapshotEngine {
  try SnapshotEngine(
    configuration: SnapshotConfiguration(snapshotsDirectory: snapshots, themesDirectory: themes ?? Repo.themes))
}

/// The whole catalogue recorded once with the repository's themes into a private snapshots folder:
/// the baseline the regression tests modify the themes against.
enum Baseline {
  static let folder: Result<URL, any Error> = Result {
    let folder = try makeSnapshotsFolder()
    let report = try engine(snapshots: folder).record(try engine(snapshots: folder).catalogue.references, mode: .all)
    guard report.failures.isEmpty else {
      throw SnapshotError("baseline: \(report.failures.map { "\($0.reference.id): \($0.reason)" }.joined(separator: "; "))")
    }
    return folder
  }

  /// The ids that fail when the baseline is verified with `themes`.
  static func failingIDs(themes: URL) throws -> (ids: Set<String>, report: SnapshotRunReport) {
    let folder = try Baseline.folder.get()
    let engine = try engine(snapshots: folder, themes: themes)
    let report = try engine.verify(engine.catalogue.references)
    return (Set(report.failures.map(\.reference.id)), report)
  }

  /// The baseline's references whose recorded layout JSON satisfies `predicate`.
  static func ids(where predicate: (SnapshotReference, String) throws -> Bool) throws -> Set<String> {
    let folder = try Baseline.folder.get()
    let engine = try engine(snapshots: folder)
    var ids = Set<String>()
    for reference in engine.catalogue.references {
      let layout = try String(contentsOf: folder.appendingPathComponent(reference.layoutPath), encoding: .utf8)
      if try predicate(reference, layout) { ids.insert(reference.id) }
    }
    return ids
  }
}
