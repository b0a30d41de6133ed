import Foundation
import PNG
import Primitives
import RunReports
import Snapshot
import SnapshotReports
import TestSupport
import Testing

/// Issue 39 point 1, beyond colours: a changed size, weight or spacing token, and a changed font
/// file, explain only the failures of references whose own list, theme, mode and font set read it.
@Suite("explainedBy: sizes, weights and fonts blamed only where they are read")
struct ExplainedByReadsTests {
  /// Paints 10×10 magenta pixels into the reference picture `id` of `folder`.
  static func paint(_ id: String, in folder: URL) throws {
    let png = folder.appendingPathComponent(id + ".png")
    var image = try PNGCodec.decode(Data(contentsOf: png))
    for y in 10..<20 {
      for x in 10..<20 {
        let i = (y * image.width + x) * 4
        image.pixels.replaceSubrange(i..<(i + 4), with: [255, 0, 255, 255])
      }
    }
    try PNGCodec.encode(image).write(to: png)
  }

  /// Paints the references `ids` of `folder` (``paint(_:in:)``) and verifies the whole folder
  /// with the repository's themes.
  static func paintAndVerify(_ ids: [String], in folder: URL) throws -> SnapshotRunReport {
    for id in ids { try paint(id, in: folder) }
    let verifier = try engine(snapshots: folder)
    return try verifier.verify(verifier.catalogue.references)
  }

  /// A snapshots folder of `cases` in `variants`, recorded with the repository's themes;
  /// `regular` cases are set in regular text (`"isBold": false`; a list is bold by default).
  static func recorded(_ variants: [String: String], regular: [String] = []) throws -> URL {
    let folder = try makeSnapshotsFolder(cases: Array(variants.keys), variants: variants)
    for name in regular {
      try edit(
        folder.appendingPathComponent("cases/\(name).json"), replacing: "{\n  \"items\"",
        with: "{\n  \"isBold\": false,\n  \"items\"")
    }
    let recorder = try engine(snapshots: folder)
    #expect(try recorder.record(recorder.catalogue.references, mode: .all).succeeded)
    return folder
  }

  /// Rewrites the `ENVIRONMENT.json` of the snapshots `folder` through `change`, as references
  /// recorded on another machine would have it.
  static func editEnvironment(
    of folder: URL, _ change: (inout [String: Any]) throws -> Void
  ) throws {
    let environment = folder.appendingPathComponent("ENVIRONMENT.json")
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: environment)) as? [String: Any])
    try change(&json)
    try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
      .write(to: environment)
  }

  /// Each failure's id and explanation.
  static func explained(_ report: SnapshotRunReport) -> [String: [String]] {
    Dictionary(uniqueKeysWithValues: report.failures.map { ($0.reference.id, $0.explainedBy) })
  }

  /// Checks that `painted` is an unexplained `changed` failure in the terminal table, the
  /// Markdown summary, JUnit, the GitHub annotations and the review page, and that `explained`
  /// is named with its `causes` in each.
  static func expectSplit(
    _ report: SnapshotRunReport, folder: URL, painted: String, explained: String,
    causes: [String]
  ) throws {
    let cause = causes.joined(separator: ", ")
    let first = causes.first ?? ""
    let results = SnapshotRunResults(report, root: nil)
    #expect(results.unexplainedFailures.map(\.id) == [painted])
    #expect(results.failureGroups.map { $0.references.map(\.id) } == [[explained]])
    #expect(
      results.failureList == "changed \(painted)\nchanged \(explained)  explained by \(cause)\n")

    let text = SnapshotSummary.text(
      results, acceptCommand: { "ouds-render snapshot record --failed --filter \($0.id)" },
      acceptAll: "ouds-render snapshot record --failed")
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("environment  1 reference: \(first)") }, "\(text)")
    #expect(lines.contains { $0.hasPrefix("changed      \(painted) ") }, "\(text)")
    #expect(
      lines.contains("        accept: ouds-render snapshot record --failed --filter \(painted)"),
      "\(text)")
    #expect(!text.contains("--filter \(explained)"), "\(text)")

    let summary = MarkdownSummary.document(results, commands: .cli())
    #expect(
      summary.contains(
        "(not explained by the environment difference) | `ouds-render snapshot record --failed --filter \(painted)` |"
      ), "\(summary)")
    #expect(summary.contains("| changed | `\(explained)` | 1 reference changed by \(first) "))

    let junit = JUnitXML.document(results)
    func failureText(_ id: String) throws -> String {
      let parts = id.split(separator: "/").map(String.init)
      let start = try #require(
        junit.range(of: "classname=\"\(parts[0])\" name=\"\(parts[1])\""))
      let rest = String(junit[start.upperBound...])
      return try #require(
        rest.firstMatch(of: /<failure type="snapshot-changed" message="[^"]*">([^<]*)/).map {
          String($0.1)
        })
    }
    let paintedText = try failureText(painted)
    #expect(paintedText.hasPrefix("\(painted): 100 pixels differ"), "\(paintedText)")
    #expect(!paintedText.contains("environment differs"))
    #expect(try failureText(explained).contains("explained by: \(cause)"))

    let annotations = GitHubAnnotations.text(results, root: RepositoryRoot(directory: folder))
      .split(separator: "\n")
    #expect(annotations.first?.contains("title=snapshot changed%3A \(painted)::") == true)
    #expect(annotations.dropFirst().first?.contains("(explained)") == true)

    let page = try temporaryFolder("explained-reads-page")
    defer { try? FileManager.default.removeItem(at: page) }
    let index = try ReviewReport.write(report, to: page, root: RepositoryRoot(directory: folder))
    let html = try String(contentsOfFile: index, encoding: .utf8)
    let unexplained = try #require(html.range(of: "id=\"unexplained\""))
    let paintedCard = try #require(html.range(of: "data-id=\"\(painted)\""))
    let group = try #require(html.range(of: "id=\"g0\""))
    let explainedCard = try #require(html.range(of: "data-id=\"\(explained)\""))
    #expect(unexplained.lowerBound < paintedCard.lowerBound)
    #expect(
      paintedCard.lowerBound < group.lowerBound && group.lowerBound < explainedCard.lowerBound)
    #expect(html.contains("1 reference changed by \(first) "))
  }

  @Test(
    "a dimension token of Sosh light only (padding-inline.level-0): a painted Sosh dark reference is an unexplained changed row in every output, the Sosh light one names the token"
  )
  func dimensionOfOneMode() throws {
    let folder = try Self.recorded([
      "demo-unordered": #"{ "themes": ["sosh"], "modes": "all" }"#
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    // Sosh light alone indents its rows by dimension.100 instead of the core's dimension.50.
    try edit(
      themes.appendingPathComponent("brands/sosh/light.tokens.json"),
      replacing: #""$description": "Sosh, light mode: semantic colours.","#,
      with: #"""
        "$description": "Sosh, light mode: semantic colours.",
          "bullet-list": {
            "space": {
              "$type": "dimension",
              "padding-inline": { "level-0": { "$value": "{dimension.100}" } }
            }
          },
        """#)
    let painted = "demo-unordered/sosh-dark@2x"
    let light = "demo-unordered/sosh-light@2x"
    try Self.paint(painted, in: folder)
    let verifier = try engine(snapshots: folder, themes: themes)
    let report = try verifier.verify(verifier.catalogue.references)
    let cause = "bullet-list.space.padding-inline.level-0"
    #expect(report.tokenCauses.map(\.context) == ["sosh/light"], "\(report.tokenCauses)")
    #expect(
      Self.explained(report) == [light: [cause], painted: []], "\(Self.explained(report))")
    try Self.expectSplit(
      report, folder: folder, painted: painted, explained: light, causes: [cause])
  }

  @Test(
    "Body Medium's font size and the strong weight edited: a painted Body Large list without bold text, same theme and mode, is not explained by them; the bold Body Medium list is"
  )
  func sizeAndWeightOnlyWhereRead() throws {
    // sample-1: Body Large, here in regular text, no rich text; sample-1.1: Body Medium, bold.
    let folder = try Self.recorded(
      [
        "sample-1": #"{ "themes": ["orange"], "modes": ["light"] }"#,
        "sample-1.1": #"{ "themes": ["orange"], "modes": ["light"] }"#,
      ], regular: ["sample-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    let brand = themes.appendingPathComponent("brands/orange/brand.tokens.json")
    try edit(
      brand, replacing: "\"medium\": {\n          \"$value\": \"{font.raw.size.200}\"",
      with: "\"medium\": {\n          \"$value\": \"{font.raw.size.250}\"")
    try edit(
      brand, replacing: "\"strong\": {\n          \"$value\": \"{font.raw.weight.700}\"",
      with: "\"strong\": {\n          \"$value\": \"{font.raw.weight.500}\"")
    let painted = "sample-1/orange-light@2x"
    let bold = "sample-1.1/orange-light@2x"
    try Self.paint(painted, in: folder)
    let verifier = try engine(snapshots: folder, themes: themes)
    let report = try verifier.verify(verifier.catalogue.references)
    #expect(
      report.tokenCauses.filter { $0.context == "orange/light" }.map(\.token) == [
        "font.size.body.medium", "font.weight.body.strong",
      ], "\(report.tokenCauses)")
    #expect(
      Self.explained(report) == [
        bold: ["font.size.body.medium", "font.weight.body.strong"], painted: [],
      ], "\(Self.explained(report))")
    try Self.expectSplit(
      report, folder: folder, painted: painted, explained: bold,
      causes: ["font.size.body.medium", "font.weight.body.strong"])
  }

  @Test(
    "a font file of Sosh recorded with another SHA-256: a painted Sosh reference is explained by it, a painted Orange reference (its own font set) is not"
  )
  func fontFileOnlyForItsFontSet() throws {
    let folder = try Self.recorded([
      "sample-1": #"{ "themes": ["orange", "sosh"], "modes": ["light"] }"#
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    // The references of Sosh were drawn with another version of its first font file: its
    // recorded SHA-256 differs from the loaded one's.
    var role = ""
    try Self.editEnvironment(of: folder) { json in
      var fonts = try #require(json["fonts"] as? [String: Any])
      var sosh = try #require(fonts["sosh"] as? [[String: Any]])
      role = try #require(sosh.first?["role"] as? String)
      sosh[0]["sha256"] = String(repeating: "0", count: 64)
      fonts["sosh"] = sosh
      json["fonts"] = fonts
    }
    let soshID = "sample-1/sosh-light@2x"
    let orangeID = "sample-1/orange-light@2x"
    let report = try Self.paintAndVerify([soshID, orangeID], in: folder)
    let cause = "sosh font \(role)"
    #expect(
      report.environmentDifferences.map { $0.hasPrefix(cause + ": ") } == [true],
      "\(report.environmentDifferences)")
    #expect(
      Self.explained(report) == [soshID: [cause], orangeID: []], "\(Self.explained(report))")
    try Self.expectSplit(
      report, folder: folder, painted: orangeID, explained: soshID, causes: [cause])
  }

  @Test(
    "on the repository's Orange light references, one token edited at a time: every changed reference is explained by it, and no reference that still passes claims to read it",
    arguments: [
      (
        "components/bullet-list.tokens.json", "bullet-list.size.icon.body-large",
        "{size.icon.with-body.large.size-small}", "{size.icon.with-body.large.size-large}"
      ),
      (
        "components/bullet-list.tokens.json", "bullet-list.space.padding-inline.level-1",
        "{dimension.450}", "{dimension.350}"
      ),
      (
        "styles/typography.tokens.json", "typography.body-large.font-size",
        "{font.size.body.large}", "{font.size.body.medium}"
      ),
    ])
  func readsMatchTheRenders(file: String, token: String, old: String, new: String) throws {
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    try edit(
      themes.appendingPathComponent(file), replacing: "\"$value\": \"\(old)\"",
      with: "\"$value\": \"\(new)\"")
    let verifier = try engine(snapshots: Repo.snapshots, themes: themes)
    let references = verifier.catalogue.references.filter {
      $0.variant.theme == .orange && $0.variant.mode == .light
    }
    let report = try verifier.verify(references)
    let failures = report.failures
    let passes = report.outcomes.filter { $0.status == .passed }
    #expect(
      !failures.isEmpty && !passes.isEmpty, "\(failures.count) failed, \(passes.count) passed")
    for failure in failures {
      #expect(
        failure.status == .changed && failure.explainedBy == [token], "\(failure.reference.id)")
    }
    for pass in passes {
      #expect(
        !pass.reference.tokenPathsRead.contains(token),
        "\(pass.reference.id) passes but claims to read \(token)")
    }
  }

  @Test(
    "another librsvg in the references: it explains a painted list with bullets (SVG markers), not a painted ordered list, which draws no SVG"
  )
  func librsvgOnlyForMarkers() throws {
    // sample-1: bullets; sample-3: ordered.
    let folder = try Self.recorded([
      "sample-1": #"{ "themes": ["orange"], "modes": ["light"] }"#,
      "sample-3": #"{ "themes": ["orange"], "modes": ["light"] }"#,
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.editEnvironment(of: folder) { json in
      var stack = try #require(json["renderStack"] as? [String: Any])
      stack["librsvg"] = "0.0.1"
      json["renderStack"] = stack
    }
    let bullets = "sample-1/orange-light@2x"
    let ordered = "sample-3/orange-light@2x"
    let report = try Self.paintAndVerify([bullets, ordered], in: folder)
    #expect(
      report.environmentDifferences.map { $0.hasPrefix("librsvg 0.0.1 in the references, ") }
        == [true], "\(report.environmentDifferences)")
    #expect(
      Self.explained(report) == [bullets: ["librsvg"], ordered: []], "\(Self.explained(report))")
  }
}
