import Foundation
import Snapshot
import Testing
import Themes

/// `ENVIRONMENT.json` records a digest of the resolved tokens; verify fails on a different one,
/// even when every picture still matches, and names the themes folder it read.
@Suite("The token digest of ENVIRONMENT.json")
struct TokenDigestTests {
  /// A snapshots folder with sample-1 (orange, light: one level, so padding-inline level-2 is unused) recorded.
  func recordedFolder() throws -> URL {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-1"], variants: ["sample-1": #"{ "themes": ["orange"], "modes": ["light"] }"#])
    let engine = try engine(snapshots: folder)
    #expect(try engine.record(engine.catalogue.references, mode: .all).succeeded)
    return folder
  }

  /// A copy of Themes/ whose level-2 padding differs: a token change no sample-1 picture shows.
  func editedThemes() throws -> URL {
    let themes = try copyOfThemes()
    try edit(
      themes.appendingPathComponent("components/bullet-list.tokens.json"),
      replacing: #""$value": "{dimension.850}""#, with: #""$value": "{dimension.350}""#)
    return themes
  }

  @Test("record writes the digest of every theme × mode's resolved tokens, whatever the selection")
  func recorded() throws {
    let folder = try recordedFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let environment = try #require(try SnapshotEnvironment.read(from: folder))
    let library = try ThemeLibrary(directory: Repo.themes)
    #expect(environment.tokensSHA256 == SnapshotEnvironment.tokenDigest(of: library))
    #expect(environment.tokensSHA256?.count == 64)
    #expect(
      environment.fonts["orange"]?.map(\.file) == [
        "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "NotoSansArabicUI-Regular.ttf",
        "NotoSansArabicUI-Bold.ttf",
      ])
    let text = try String(
      contentsOf: folder.appendingPathComponent(SnapshotEnvironment.fileName), encoding: .utf8)
    #expect(!text.contains("/usr/"), "no folder of this machine in the fingerprint")
  }

  @Test(
    "other tokens fail verify with 'environment differs: tokens …' naming the folder, though every picture matches"
  )
  func differentTokensFail() throws {
    let folder = try recordedFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try editedThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    let engine = try engine(snapshots: folder, themes: themes)
    let report = try engine.verify(engine.catalogue.references)
    #expect(report.failures.isEmpty, "the pictures and layouts match")
    #expect(!report.succeeded)
    let recorded = try #require(try SnapshotEnvironment.read(from: folder)?.tokensSHA256)
    let here = SnapshotEnvironment.tokenDigest(of: try ThemeLibrary(directory: themes))
    #expect(recorded != here)
    #expect(
      report.tokenDifference
        == "tokens: \(themes.path) (--themes) resolve to sha256 \(here.prefix(12))…, the references were recorded with \(recorded.prefix(12))…"
    )
    let lines = SnapshotSummary.text(report).split(separator: "\n").map(String.init)
    #expect(
      lines.first?.hasPrefix(
        "themes: \(themes.path) (--themes) · fonts: LiberationSans-Regular.ttf") == true)
    #expect(lines.dropFirst().first == "environment differs: " + (report.tokenDifference ?? ""))
    #expect(
      lines.last?.hasSuffix(
        "; failed: the tokens are not the ones the references were recorded with") == true)
    let junit = JUnitXML.document(report)
    #expect(
      junit.contains("tests=\"2\" failures=\"1\" errors=\"0\""), "one reference and the tokens")
    #expect(
      junit.contains(
        "<property name=\"environment-tokens\" value=\"tokens: \(themes.path) (--themes) resolve to"
      ))

    // record --missing does not look at existing references: it keeps their digest.
    _ = try engine.record(engine.catalogue.references, mode: .missing)
    #expect(try SnapshotEnvironment.read(from: folder)?.tokensSHA256 == recorded)
    #expect(try !engine.verify(engine.catalogue.references).succeeded)
    // record --failed re-renders and accepts the new tokens: ENVIRONMENT.json only.
    let accepted = try engine.record(engine.catalogue.references, mode: .failed)
    #expect(accepted.written == [SnapshotEnvironment.fileName])
    #expect(accepted.tokenDifference == nil)
    #expect(try SnapshotEnvironment.read(from: folder)?.tokensSHA256 == here)
    #expect(try engine.verify(engine.catalogue.references).succeeded)
  }

  @Test("references without ENVIRONMENT.json, or with an unreadable one, cannot pass")
  func noFingerprint() throws {
    let folder = try recordedFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent(SnapshotEnvironment.fileName)
    try Data(
      #"{"renderStack": {}, "fonts": {"orange": [{"path": "/usr/share/fonts/x.ttf"}]}}"#.utf8
    ).write(to: file)
    let engine = try engine(snapshots: folder)
    let unreadable = try engine.verify(engine.catalogue.references)
    #expect(!unreadable.succeeded)
    #expect(
      unreadable.tokenDifference
        == "tokens: \(file.path): not a valid environment fingerprint (re-record to rewrite it)")
    // Record rewrites it.
    let rewritten = try engine.record(engine.catalogue.references, mode: .all)
    #expect(rewritten.written == [SnapshotEnvironment.fileName])
    #expect(try engine.verify(engine.catalogue.references).succeeded)
    try FileManager.default.removeItem(at: file)
    let missing = try engine.verify(engine.catalogue.references)
    #expect(!missing.succeeded)
    #expect(
      missing.tokenDifference
        == "tokens: no ENVIRONMENT.json in \(folder.path) records which tokens the references were made from (record to create it)"
    )
  }
}
