import Foundation
import Primitives
import RunReports
import Snapshot
import SnapshotReports
import StrictJSON
import TestSupport
import Testing
import Themes

/// A failure is blamed on a token change only when its own theme and mode read a changed token:
/// re-aliasing Sosh light's `brand-primary` cannot explain a painted Sosh dark reference.
@Suite("explainedBy: each failure blamed on its own cause")
struct ExplainedByTests {
  static let painted = "demo-unordered/sosh-dark@2x"

  /// demo-unordered (branded bullets) recorded in Sosh light and dark; then Sosh light's
  /// `brand-primary` re-aliased (raspberry-500 → scarlet-600) and 10×10 magenta pixels painted
  /// into the Sosh dark reference. Returns the verify report and the folders.
  static func run() throws -> (report: SnapshotRunReport, snapshots: URL, themes: URL) {
    let folder = try makeSnapshotsFolder(
      cases: ["demo-unordered"],
      variants: ["demo-unordered": #"{ "themes": ["sosh"], "modes": "all" }"#])
    let recorder = try engine(snapshots: folder)
    #expect(try recorder.record(recorder.catalogue.references, mode: .all).succeeded)
    let themes = try copyOfThemes()
    try edit(
      themes.appendingPathComponent("brands/sosh/light.tokens.json"),
      replacing:
        #""$value": "{color.raw.sosh.raspberry-500}",\#n        "$description": "Branded bullets.""#,
      with:
        #""$value": "{color.raw.functional.scarlet-600}",\#n        "$description": "Branded bullets.""#
    )
    try ExplainedByReadsTests.paint(painted, in: folder)
    let verifier = try engine(snapshots: folder, themes: themes)
    return (try verifier.verify(verifier.catalogue.references), folder, themes)
  }

  @Test(
    "a list that draws neither the old nor the new brand-primary is not explained by it: a painted sample-1 in Sosh light stays its own changed row (issue 39 point 1)"
  )
  func colourTokenOnlyWhereDrawn() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["demo-unordered", "sample-1"],
      variants: [
        "demo-unordered": #"{ "themes": ["sosh"], "modes": ["light"] }"#,
        "sample-1": #"{ "themes": ["sosh"], "modes": ["light"] }"#,
      ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let recorder = try engine(snapshots: folder)
    #expect(try recorder.record(recorder.catalogue.references, mode: .all).succeeded)
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes) }
    try edit(
      themes.appendingPathComponent("brands/sosh/light.tokens.json"),
      replacing:
        #""$value": "{color.raw.sosh.raspberry-500}",\#n        "$description": "Branded bullets.""#,
      with:
        #""$value": "{color.raw.functional.scarlet-600}",\#n        "$description": "Branded bullets.""#
    )
    // sample-1 draws no branded bullet: neither raspberry-500 (#DE034B) nor scarlet-600.
    let layout = try String(
      contentsOf: folder.appendingPathComponent("sample-1/sosh-light.layout.json"), encoding: .utf8)
    #expect(!layout.contains("#DE034B"))
    try ExplainedByReadsTests.paint("sample-1/sosh-light@2x", in: folder)
    let verifier = try engine(snapshots: folder, themes: themes)
    let report = try verifier.verify(verifier.catalogue.references)
    let explained = Dictionary(
      uniqueKeysWithValues: report.failures.map { ($0.reference.id, $0.explainedBy) })
    #expect(
      explained == [
        "demo-unordered/sosh-light@2x": ["color.content.brand-primary"],
        "sample-1/sosh-light@2x": [],
      ], "\(explained)")
  }

  /// The results of `report` with its artifacts written into `folder`, as `verify --results` makes them.
  static func results(_ report: SnapshotRunReport, in folder: URL) throws -> SnapshotRunResults {
    let written = try SnapshotArtifacts.write(
      report, to: folder, root: RepositoryRoot(directory: folder))
    return SnapshotRunResults(
      report, root: nil, artifacts: written.byReference, artifactDigests: written.digests)
  }

  @Test(
    "re-aliased Sosh light brand-primary and a painted Sosh dark reference: the dark one is an unexplained changed row everywhere, the light one names the token"
  )
  func splitEverywhere() throws {
    let (report, folder, themes) = try Self.run()
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: themes.deletingLastPathComponent())
    }
    let light = "demo-unordered/sosh-light@2x"
    let byID = Dictionary(uniqueKeysWithValues: report.outcomes.map { ($0.reference.id, $0) })
    #expect(byID[light]?.status == .changed)
    #expect(byID[light]?.explainedBy == ["color.content.brand-primary"])
    #expect(byID[Self.painted]?.status == .changed)
    #expect(byID[Self.painted]?.explainedBy == [], "a light token cannot change a dark picture")
    #expect(
      report.tokenCauses == [
        SnapshotEnvironment.TokenCause(
          context: "sosh/light", token: "color.content.brand-primary", before: "#DE034B",
          after: "#DB0002", file: "brands/sosh/light.tokens.json")
      ])

    var results = SnapshotRunResults(report, root: nil)
    #expect(results.unexplainedFailures.map(\.id) == [Self.painted])
    #expect(results.failureGroups.map(\.cause) == [["color.content.brand-primary"]])
    #expect(
      results.failureGroups.first?.headline(results)
        == "1 reference changed by color.content.brand-primary #DE034B → #DB0002 (sosh; light)")

    // --list: every failing id, the unexplained first, an explained one with its causes.
    #expect(
      results.failureList
        == "changed \(Self.painted)\nchanged \(light)  explained by color.content.brand-primary\n")

    // Terminal: one row for the group, one row of its own for the painted reference, with its
    // block and accept command.
    let text = SnapshotSummary.text(
      results, acceptCommand: { "ouds-render snapshot record --failed --filter \($0.id)" },
      acceptAll: "ouds-render snapshot record --failed")
    let lines = text.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix("environment  1 reference: color.content.brand-primary ")
      }, "\(text)")
    #expect(
      lines.contains { $0.hasPrefix("changed      \(Self.painted) ") && $0.contains(" 100 ") },
      "\(text)")
    #expect(lines.contains("CHANGED \(Self.painted)"), "\(text)")
    #expect(
      lines.contains(
        "        accept: ouds-render snapshot record --failed --filter \(Self.painted)"))
    #expect(!text.contains("--filter \(light)"), "the explained one is accepted with the tokens")
    #expect(
      lines.contains(
        "        1 reference changed by color.content.brand-primary #DE034B → #DB0002 (sosh; light): \(light)"
      ), "\(text)")

    // Markdown: the painted one keeps its own --filter command; the group says "with the tokens".
    let summary = MarkdownSummary.document(results, commands: .cli())
    #expect(
      summary.contains(
        "| changed | `\(Self.painted)` | 100 pixels differ (0.")
        && summary.contains(
          "(not explained by the environment difference) | `ouds-render snapshot record --failed --filter \(Self.painted)` |"
        ), "\(summary)")
    #expect(summary.contains("| changed | `\(light)` | 1 reference changed by "), "\(summary)")
    #expect(summary.contains("| with the tokens, below |"))

    // JUnit (the painted one's failure text starts with its own reason, not the environment),
    // the GitHub annotations (the unexplained one first) and the review page (the painted one
    // among the unexplained cards, before the group), as ExplainedByReadsTests checks them.
    try ExplainedByReadsTests.expectSplit(
      report, folder: folder, painted: Self.painted, explained: light,
      causes: ["color.content.brand-primary"])
    #expect(JUnitXML.document(results).contains(" time=\""), "test cases carry their time")

    // Review page: causes before any picture; every picture loads lazily.
    let page = try temporaryFolder("explained-page")
    defer { try? FileManager.default.removeItem(at: page) }
    let index = try ReviewReport.write(report, to: page, root: RepositoryRoot(directory: folder))
    let html = try String(contentsOfFile: index, encoding: .utf8)
    let causes = try #require(html.range(of: "id=\"causes\""))
    let firstImage = try #require(html.range(of: "<img"))
    #expect(causes.lowerBound < firstImage.lowerBound)
    #expect(!html.contains("<img class=\"shot\" src="), "every picture loads lazily")

    // results.json keeps explainedBy and the token causes through a write and a read.
    let written = try temporaryFolder("explained-results")
    defer { try? FileManager.default.removeItem(at: written) }
    results = try Self.results(report, in: written)
    try results.write(to: written)
    let read = try SnapshotRunResults.read(from: written)
    #expect(read.references.map(\.explainedBy) == results.references.map(\.explainedBy))
    #expect(read.tokenCauses == results.tokenCauses)
  }

  @Test(
    "results.json: an explanation that is not a changed token of the reference's own theme and mode is refused; an older schemaVersion is refused in one line naming it"
  )
  func readerRefuses() throws {
    let (report, folder, themes) = try Self.run()
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: themes.deletingLastPathComponent())
    }
    let written = try temporaryFolder("explained-forged")
    defer { try? FileManager.default.removeItem(at: written) }
    let text = try Self.results(report, in: written).jsonText()
    func refusal(_ edited: String) -> String {
      do {
        try Data(edited.utf8).write(to: written.appendingPathComponent("results.json"))
        _ = try SnapshotRunResults.read(from: written)
        return "read"
      } catch {
        return "\(error)"
      }
    }
    #expect(refusal(text) == "read")
    // The painted Sosh dark reference claims the Sosh light token.
    let entry = try #require(text.range(of: "\"id\": \"\(Self.painted)\""))
    let empty = try #require(
      text.range(of: "\"explainedBy\": []", range: entry.upperBound..<text.endIndex))
    let forged = text.replacingCharacters(
      in: empty, with: "\"explainedBy\": [\"color.content.brand-primary\"]")
    let path = written.appendingPathComponent("results.json").path
    #expect(
      refusal(forged)
        == "\(path): references[0].explainedBy: \"color.content.brand-primary\" is neither a changed token of sosh/dark (tokenCauses) nor an environment difference"
    )
    let older = text.replacingOccurrences(of: "\"schemaVersion\": 4", with: "\"schemaVersion\": 3")
    let message = refusal(older)
    #expect(
      message
        == "\(path): schemaVersion: schema version 3; this ouds-render reads version 4 (version 3 is an older ouds-render's: it has no explainedBy: it blames every failure on any token change; run verify again with this one)"
    )
    #expect(!message.contains("\n"))
    let duplicate = text.replacingOccurrences(
      of: "\"explainedBy\": [\n        \"color.content.brand-primary\"\n      ]",
      with:
        "\"explainedBy\": [\n        \"color.content.brand-primary\",\n        \"color.content.brand-primary\"\n      ]"
    )
    #expect(duplicate != text)
    #expect(
      refusal(duplicate).contains("explainedBy[1]: \"color.content.brand-primary\" is listed twice")
    )
  }

  @Test(
    "Snapshots/results.schema.json: the members verify writes, each required as the reader requires it, and check-jsonschema accepts a written results.json"
  )
  func publishedSchema() throws {
    let schema = try JSONParser.parse(
      String(
        contentsOf: Repo.snapshots.appendingPathComponent("results.schema.json"), encoding: .utf8))
    let (report, folder, themes) = try Self.run()
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: themes.deletingLastPathComponent())
    }
    var results = SnapshotRunResults(report, root: nil)
    results.run = nil
    let document = try JSONParser.parse(results.jsonText())
    func keys(_ value: JSONValue?) -> [String] { (value?.members ?? []).map(\.key).sorted() }
    func strings(_ value: JSONValue?) -> [String] {
      guard case .array(let items)? = value else { return [] }
      return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        .sorted()
    }
    #expect(keys(schema["properties"]) == keys(document))
    #expect(strings(schema["required"]) == keys(document))
    #expect(schema["properties"]?["schemaVersion"]?["const"] == .number(4))
    let reference = schema["$defs"]?["reference"]
    guard case .array(let entries)? = document["references"], let first = entries.first else {
      Issue.record("no reference written")
      return
    }
    // Every member a reference entry has; artifactsSHA256 and referenceSHA256 are optional
    // (older files lack them: merge and accept then refuse the references found here).
    #expect(keys(reference?["properties"]) == keys(first))
    #expect(
      strings(reference?["required"])
        == keys(first).filter { $0 != "artifactsSHA256" && $0 != "referenceSHA256" })
    #expect(schema["additionalProperties"] == .bool(false))
    #expect(reference?["additionalProperties"] == .bool(false))

    let tool = Repo.root.appendingPathComponent(".build/test-venv/bin/check-jsonschema").path
    try #require(
      FileManager.default.isExecutableFile(atPath: tool),
      "\(tool) is missing: run scripts/setup --with-test-tools")
    let written = try temporaryFolder("schema-results")
    defer { try? FileManager.default.removeItem(at: written) }
    let file = try results.write(to: written)
    let output = try runProcess(
      tool,
      [
        "--schemafile", Repo.snapshots.appendingPathComponent("results.schema.json").path, file,
      ])
    #expect(output.contains("ok -- validation done"), "\(output)")
  }
}
