import Foundation
import Testing

@testable import ouds_render

/// The version lives in one place, `CommandTree.version`: `--version` prints it, CHANGELOG.md's
/// newest entry names it, the README pins it, and `scripts/package` names the Debian package after
/// the binary's `--version` (the package test of `scripts/test` checks the installed package's).
@Suite("one version: --version, CHANGELOG.md, the README's pin")
struct VersionTests {
  /// The `## <version> — <date>` headings of CHANGELOG.md, newest first.
  static func changelogEntries() throws -> [(version: String, date: String)] {
    let text = try String(
      contentsOf: repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      guard let match = line.wholeMatch(of: #/## (\d+\.\d+\.\d+) — (\d{4}-\d{2}-\d{2})/#) else {
        return nil
      }
      return (String(match.1), String(match.2))
    }
  }

  @Test("the version is three numbers, and CHANGELOG.md's newest entry is that version")
  func changelogAgrees() throws {
    let version = CommandTree.version
    #expect(version.wholeMatch(of: #/\d+\.\d+\.\d+/#) != nil, "\(version)")
    let entries = try Self.changelogEntries()
    let newest = try #require(entries.first, "CHANGELOG.md has no '## <version> — <date>' entry")
    #expect(newest.version == version, "CHANGELOG.md's newest entry is \(newest.version)")
    #expect(Set(entries.map(\.version)).count == entries.count, "a version listed twice")
    #expect(entries.map(\.date) == entries.map(\.date).sorted(by: >), "entries not newest first")
  }

  @Test("--version prints that version first, then the render stack")
  func printed() throws {
    let result = try run(["--version"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix("ouds-render \(CommandTree.version) (cairo "), "\(result.stdout)")
  }

  @Test("the README says how to pin the Swift package to the current version's tag")
  func readmePin() throws {
    let readme = try String(
      contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains(#"from: "\#(CommandTree.version)""#), "no 'from: \"<version>\"' pin")
    #expect(readme.contains("git tag \(CommandTree.version)"), "no tagging line")
  }
}
