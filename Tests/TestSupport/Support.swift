// What several test targets share: the repository's folders, scratch copies of the catalogue and
// the themes, one renderer for a whole run. A library target under Tests/ that only test
// targets depend on (scripts/package-graph keeps it there).
import BulletList
import BulletListRenderer
import Foundation
import Layout
import Primitives
import Scene
import Snapshot
import Themes
import Threads

/// Paths of the repository and scratch folders for the snapshot tests.
public enum Repo {
  /// The package root (…/Tests/TestSupport/Support.swift → …).
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  /// `Snapshots/`.
  public static let snapshots = root.appendingPathComponent("Snapshots")
  /// `Themes/`.
  public static let themes = root.appendingPathComponent("Themes")
  /// `Snapshots/cases/`.
  public static let cases = snapshots.appendingPathComponent("cases")
}

/// A fresh temporary folder, removed by the caller's `defer`.
public func temporaryFolder(_ label: String = "snapshot-tests") throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("\(label)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A snapshots folder holding copies of `cases` (all when nil) with their icons, and no references.
public func makeSnapshotsFolder(cases: [String]? = nil, variants: [String: String] = [:]) throws
  -> URL
{
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
public func replacingVariants(in text: String, with variants: String) -> String {
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
public func copyOfThemes() throws -> URL {
  let folder = try temporaryFolder("themes")
  let copy = folder.appendingPathComponent("Themes")
  try FileManager.default.copyItem(at: Repo.themes, to: copy)
  return copy
}

/// Replaces `old` by `new` in a file of a themes copy, failing when `old` is not there exactly once.
public func edit(_ file: URL, replacing old: String, with new: String) throws {
  let text = try String(contentsOf: file, encoding: .utf8)
  let count = text.components(separatedBy: old).count - 1
  guard count == 1 else {
    throw SupportFailure("\(file.lastPathComponent): expected \"\(old)\" once, found \(count)")
  }
  try text.replacingOccurrences(of: old, with: new).write(
    to: file, atomically: true, encoding: .utf8)
}

/// An engine over `snapshots` with `themes` (the repository's when nil).
public func engine(snapshots: URL, themes: URL? = nil) throws -> SnapshotEngine {
  try SnapshotEngine(
    configuration: SnapshotConfiguration(
      snapshotsDirectory: snapshots, themesDirectory: themes ?? Repo.themes))
}

/// The repository root, found from this file's location.
public let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// One renderer for the whole suite (fonts are loaded once); tests run in parallel, so each uses
/// it while holding its lock (a renderer is not thread-safe, which is why this is `@unchecked`).
public final class SharedRenderer: @unchecked Sendable {
  /// The one renderer.
  public static let shared = SharedRenderer()
  private let renderer = Locked<BulletListRenderer?>(nil)

  /// Runs `body` with the renderer (made on first use), holding its lock.
  public func with<T>(_ body: (BulletListRenderer) throws -> T) throws -> T {
    try renderer.withLock { (cached: inout BulletListRenderer?) throws -> T in
      let renderer =
        try cached
        ?? BulletListRenderer(themesDirectory: repositoryRoot.appendingPathComponent("Themes"))
      cached = renderer
      return try body(renderer)
    }
  }
}

/// The scene of `list` laid out by the shared renderer.
public func layout(
  _ list: OUDSBulletList, _ theme: ThemeName, _ mode: ColorMode = .light,
  options: LayoutOptions = LayoutOptions()
) throws -> Scene {
  try SharedRenderer.shared.with {
    try $0.layout(list, theme: theme, mode: mode, options: options).scene
  }
}

/// The resolved tokens of a theme and mode, from the shared renderer.
public func tokens(_ theme: ThemeName, _ mode: ColorMode = .light) throws -> Theme {
  try SharedRenderer.shared.with { try $0.themes.theme(theme, mode: mode) }
}

/// Runs a program and returns its standard output; throws when it fails.
public func runProcess(_ path: String, _ arguments: [String]) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    throw SupportFailure("\(path) exited with \(process.terminationStatus)")
  }
  return String(decoding: data, as: UTF8.self)
}

/// The headless Chromium the review-page test drives (Debian's, installed by `scripts/test`).
public enum Chromium {
  /// Its path, nil when none is installed.
  public static let path: String? = [
    "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
  ].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Whether the test runs: always under CI (where a missing Chromium is a failure), else only when installed.
  public static var testRuns: Bool { path != nil || SnapshotRecordMode.isCI() }
}

/// A set-up step of a test that went wrong (not a snapshot error): its message.
public struct SupportFailure: Error, CustomStringConvertible {
  /// The message.
  public let description: String
  /// A failure saying `description`.
  public init(_ description: String) { self.description = description }
}
