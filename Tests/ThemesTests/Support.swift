import Foundation
import Primitives
import Testing

@testable import Themes

/// Paths and helpers shared by the Themes tests.
enum Fixture {
  /// The package root: …/Tests/ThemesTests/Support.swift → …
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  /// The project's `Themes/` directory.
  static let themesDirectory = repositoryRoot.appendingPathComponent("Themes")
  /// The OUDS reference token files next to the repository (`../shared/reference/ouds/tokens`).
  static let sharedReferenceDirectory =
    repositoryRoot
    .appendingPathComponent("../shared/reference/ouds/tokens").standardizedFileURL
  /// The copy of the reference files kept with the tests, for checkouts without `../shared`.
  static let vendoredReferenceDirectory =
    repositoryRoot
    .appendingPathComponent("Tests/ThemesTests/ReferenceTokens")
  /// The reference token files: the shared ones when present, else the copy.
  static let referenceDirectory =
    FileManager.default.fileExists(
      atPath: sharedReferenceDirectory.appendingPathComponent("orange.json").path)
    ? sharedReferenceDirectory : vendoredReferenceDirectory

  /// The library read from the repository's `Themes/`, loaded once.
  static let library: Result<ThemeLibrary, ThemeError> = Result { () throws(ThemeError) in
    try ThemeLibrary(directory: themesDirectory)
  }

  static func loadLibrary() throws -> ThemeLibrary { try library.get() }

  /// The reference JSON of a theme, e.g. `orange-compact.json`.
  static func reference(_ name: ThemeName) throws -> [String: Any] {
    let url = referenceDirectory.appendingPathComponent("\(name.rawValue).json")
    let data = try Data(contentsOf: url)
    let json = try JSONSerialization.jsonObject(with: data)
    return try #require(json as? [String: Any], "reference \(url.path) is not an object")
  }

  /// Copies `Themes/` to a fresh temporary directory, applies `edit` to the text of `file`, and
  /// returns the copy. Each replacement must match, so a test cannot silently test nothing.
  static func modifiedCopy(
    of file: String, replacing replacements: [(String, String)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> URL {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("ouds-themes-test-\(UUID().uuidString)/Themes")
    try FileManager.default.createDirectory(
      at: dir.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: themesDirectory, to: dir)
    let url = dir.appendingPathComponent(file)
    var text = try String(contentsOf: url, encoding: .utf8)
    for (old, new) in replacements {
      let range = try #require(
        text.range(of: old), "\"\(old)\" not found in \(file)", sourceLocation: sourceLocation)
      text.replaceSubrange(range, with: new)
    }
    try text.write(to: url, atomically: true, encoding: .utf8)
    return dir
  }

  /// Opens the library of `directory` and reads every file at once (``ThemeLibrary/readAll()``):
  /// the call that stops at the first broken file.
  static func readAll(_ directory: URL) throws(ThemeError) {
    try ThemeLibrary(directory: directory).readAll()
  }

  /// The error thrown by `body`, or nil.
  static func error<T>(_ body: () throws(ThemeError) -> T) -> ThemeError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error
    }
  }
}
