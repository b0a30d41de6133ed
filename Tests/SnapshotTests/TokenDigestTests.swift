import Foundation
import Primitives
import Snapshot
import SnapshotReports
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

  @Test(
    "record writes the digest of every theme × mode's tokens the renderer reads, whatever the selection"
  )
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
    // The changed tokens are named (path, old → new, file, as --compare-themes prints them),
    // not two digests: every theme × mode, since the edited token is a component token.
    let changed = ThemeName.allCases.flatMap { theme in
      ColorMode.allCases.map {
        "\(theme.rawValue)/\($0.rawValue) bullet-list.space.padding-inline.level-2: 68px → 28px (components/bullet-list.tokens.json)"
      }
    }
    #expect(
      report.tokenDifference
        == "tokens: \(themes.path) (--themes) differ from the values the references were recorded with (ENVIRONMENT.json), changed: "
        + changed.joined(separator: "; "))
    let lines = SnapshotSummary.text(report, acceptAll: "ouds-render snapshot record --failed")
      .split(separator: "\n").map(String.init)
    #expect(
      lines.first?.hasPrefix(
        "themes: \(themes.path) (--themes) · fonts: orange 4 files") == true)
    // One environment row, its block naming each token, and the one command that can accept it.
    #expect(
      Array(lines.dropFirst().prefix(4)) == [
        "STATUS       REFERENCE  PIXELS  RATIO  REGIONS  LAYOUT",
        "environment  tokens     -       -      -        -",
        "ENVIRONMENT tokens",
        "        tokens: \(themes.path) (--themes) differ from the values the references were recorded with:",
      ])
    #expect(Array(lines.dropFirst(5).prefix(changed.count)) == changed.map { "          " + $0 })
    #expect(
      lines.dropFirst(5 + changed.count).first
        == "        if the change is intended, record the references again: ouds-render snapshot record --failed"
    )
    #expect(
      lines.last?.hasSuffix(
        "; failed: the tokens are not the ones the references were recorded with") == true)
    let junit = JUnitXML.document(report)
    #expect(
      junit.contains("tests=\"2\" failures=\"1\" errors=\"0\""), "one reference and the tokens")
    #expect(
      junit.contains(
        "<property name=\"environment-tokens\" value=\"tokens: \(themes.path) (--themes) differ from the values"
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

  @Test(
    "the digest covers the tokens the renderer reads: one it does not read (a link's pressed colour, a new raw colour) leaves the references valid"
  )
  func unreadTokensKeepDigest() throws {
    let folder = try recordedFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recorded = try #require(try SnapshotEnvironment.read(from: folder)?.tokensSHA256)
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    // Orange's pressed link colour, which no picture shows, and a raw colour nothing aliases.
    try edit(
      themes.appendingPathComponent("brands/orange/light.tokens.json"),
      replacing: #""pressed": {\#n        "$value": "{color.raw.orange.orange-550}""#,
      with: #""pressed": {\#n        "$value": "{color.raw.functional.white}""#)
    try edit(
      themes.appendingPathComponent("core/color.tokens.json"),
      replacing: #""functional": {"#,
      with: ##""functional": {\##n        "unused": { "$value": { "hex": "#123456" } },"##)
    let library = try ThemeLibrary(directory: themes)
    #expect(SnapshotEnvironment.tokenDigest(of: library) == recorded)
    #expect(library.tokenDigest != (try ThemeLibrary(directory: Repo.themes)).tokenDigest)
    let unchanged = try engine(snapshots: folder, themes: themes)
    let report = try unchanged.verify(unchanged.catalogue.references)
    #expect(report.succeeded && report.tokenDifference == nil)
    // A token it reads still fails verify (``differentTokensFail``), also through a raw alias.
    try edit(
      themes.appendingPathComponent("core/dimension.tokens.json"),
      replacing: #""value": 68,"#, with: #""value": 60,"#)
    let edited = try engine(snapshots: folder, themes: themes)
    let changed = try edited.verify(edited.catalogue.references)
    #expect(!changed.succeeded)
    #expect(
      changed.tokenDifference?.contains(
        "orange/light bullet-list.space.padding-inline.level-2: 68px → 60px") == true)
  }

  @Test(
    "a token change that changes pictures is one environment row per cause: no row, and no accept command, per reference it explains"
  )
  func tokenChangeOneRow() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-1"], variants: ["sample-1": #"{ "themes": ["orange"], "modes": "all" }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    let recorder = try engine(snapshots: folder)
    #expect(try recorder.record(recorder.catalogue.references, mode: .all).succeeded)
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    try edit(
      themes.appendingPathComponent("brands/orange/brand.tokens.json"),
      replacing: #""column-gap": {\#n      "small": {\#n        "$value": "{dimension.100}""#,
      with: #""column-gap": {\#n      "small": {\#n        "$value": "{dimension.200}""#)
    let engine = try engine(snapshots: folder, themes: themes)
    let report = try engine.verify(engine.catalogue.references)
    #expect(report.count(.changed) == 2)
    let text = SnapshotSummary.text(
      report, acceptCommand: { "ouds-render snapshot record --failed --filter \($0.id)" },
      acceptAll: "ouds-render snapshot record --failed")
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("environment ") }.count == 1)
    #expect(!lines.contains { $0.hasPrefix("changed ") || $0.hasPrefix("CHANGED ") }, "\(text)")
    #expect(!text.contains("accept:"), "no accept command per reference")
    #expect(
      lines.contains(
        "          orange/light space.column-gap.small: 8px → 16px (brands/orange/brand.tokens.json)"
      ))
    #expect(
      lines.contains(
        "        2 references changed by space.column-gap.small 8px → 16px (orange; light, dark): sample-1/orange-dark@2x, sample-1/orange-light@2x"
      ))
    // The Markdown summary of a pull request says the same: no accept command per reference,
    // the one that records them all again, after the changed tokens.
    let summary = MarkdownSummary.document(
      SnapshotRunResults(report, root: nil), commands: .cli())
    #expect(summary.contains("space.column-gap.small: 8px → 16px"), "\(summary)")
    #expect(!summary.contains("--filter"), "\(summary)")
    #expect(
      summary.contains(
        "| changed | `sample-1/orange-dark@2x`, `sample-1/orange-light@2x` | 2 references changed by space.column-gap.small 8px → 16px (orange; light, dark) |"
      ), "\(summary)")
    #expect(summary.contains("| with the tokens, below |"))
    #expect(summary.hasSuffix("```sh\nouds-render snapshot record --failed\n```\n"), "\(summary)")
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
