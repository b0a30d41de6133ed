import Foundation
import Graphics
import PixelDiff
import SafeInput
import Snapshot
import SnapshotReports
import TestSupport
import Testing

/// A small results value with one reference of each status a merge sees, for the tests below.
enum SampleResults {
  static let stack = RenderStack(
    cairo: "1.16.0", pango: "1.50.12", harfbuzz: "6.0.0", freetype: "2.12.1", fontconfig: "2.14.1",
    librsvg: "2.54.7", libspng: "0.7.3")
  static let digest = String(repeating: "ab", count: 32)

  static func reference(
    _ caseName: String, _ variant: String = "orange-light@2x",
    status: SnapshotOutcome.Status = .passed,
    reason: String = "matches", message: String? = nil
  ) -> ReferenceResult {
    let stem = String(variant.prefix { $0 != "@" })
    var result = ReferenceResult(
      caseName: caseName, variant: variant, theme: String(stem.split(separator: "-")[0]),
      mode: String(stem.split(separator: "-")[1]), imagePath: "\(caseName)/\(variant).png",
      layoutPath: "\(caseName)/\(stem).layout.json", status: status, reason: reason,
      message: message,
      pixels: status == .passed ? .identical : nil, layoutCompared: status != .missing)
    if status == .changed {
      let size = PixelSize(width: 4, height: 2)
      result.pixels = .different(
        .init(
          size: size, changedPixels: 3, antiAliasedPixels: 0,
          regions: [DiffRegion(x: 0, y: 0, width: 2, height: 2, changedPixels: 3)],
          omittedRegions: 0))
      result.images = [.expected: size, .actual: size, .diff: size]
      result.artifacts = Dictionary(
        uniqueKeysWithValues: ReferenceResult.Image.allCases.map {
          ($0.fileName, "\(caseName)/\(variant)/\($0.fileName)")
        })
    }
    return result
  }

  static func results(
    _ references: [ReferenceResult], shard: SnapshotShard? = nil, catalogue: Int? = nil,
    caseErrors: [SnapshotCaseError] = [], tokenDifference: String? = nil,
    fonts: [SnapshotRunResults.Font]? = nil
  ) -> SnapshotRunResults {
    SnapshotRunResults(
      snapshots: "Snapshots",
      themes: .init(folder: "Themes", reason: "beside the snapshots folder"), renderStack: stack,
      tokensSHA256: digest,
      fonts: fonts ?? [
        .init(
          theme: "orange", role: "latin-regular", family: "Liberation Sans",
          file: "LiberationSans-Regular.ttf",
          sha256: String(repeating: "cd", count: 32),
          folder: "/usr/share/fonts/truetype/liberation2")
      ],
      recordedEnvironment: nil, tokenDifference: tokenDifference,
      selection: .init(
        filter: nil, shard: shard, catalogueReferences: catalogue ?? references.count),
      acceptOptions: "", seconds: 1, caseErrors: caseErrors, references: references)
  }
}

@Suite("results.json: written, read back, refused when it is not what verify writes")
struct ResultsFileTests {
  @Test("the results of a real failing run (changed, missing, environment) read back equal")
  func roundTrip() throws {
    let (_, report) = try FailingRun.run.get()
    let folder = try temporaryFolder("results")
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try SnapshotArtifacts.write(report, to: folder)
    let results = SnapshotRunResults(
      report, root: RepositoryRoot(directory: folder),
      selection: .init(catalogueReferences: report.outcomes.count),
      acceptOptions: "--themes /tmp/T", artifacts: written.byReference)
    #expect(results.failures.count == 3)
    #expect(results.tokenDifference != nil)
    try results.write(to: folder)
    let read = try SnapshotRunResults.read(from: folder)
    #expect(read == results)
    #expect(read.sources == report.sources, "the sources line of the run, rebuilt from the data")
    #expect(read.environmentHeadline == report.environmentHeadline)
    let changed = try #require(read.references.first { $0.id == "sample-3/orange-light@2x" })
    #expect(changed.artifacts["diff.png"] == "sample-3/orange-light@2x/diff.png")
    #expect(changed.images[.diff] != nil && changed.pixels?.changedPixels ?? 0 > 0)
  }

  /// Writes `results` to a fresh folder with its text edited by `edit`, and reads it back.
  private func read(_ results: SnapshotRunResults, _ edit: (String) -> String) throws
    -> SnapshotError?
  {
    let folder = try temporaryFolder("results")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(edit(results.jsonText()).utf8).write(to: folder.appendingPathComponent("results.json"))
    do {
      _ = try SnapshotRunResults.read(from: folder)
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "a schema problem is one line naming the file and the JSON path",
    arguments: [
      (
        #""status": "changed""#, #""status": "fine""#,
        #"references[0].status: expected one of passed, changed, missing, error, recorded, skipped, found "fine""#
      ),
      (
        #""layoutCompared": true,"#, #""layoutCompared": true, "evil": 1,"#,
        #"references[0]: unknown member "evil""#
      ),
      (
        #""id": "a/orange-light@2x""#, #""id": "a/../../x@2x""#,
        #"references[0].id: "a/../../x@2x" is not a reference id (<case>/<theme>-<mode>[-<variant>]@<scale>x)"#
      ),
      (
        #""png": "a/orange-light@2x.png""#, #""png": "/etc/passwd""#,
        #"references[0].png: expected "a/orange-light@2x.png", found "/etc/passwd""#
      ),
      (
        #""changedPixels": 3,"#, #""changedPixels": 4,"#,
        "references[0].pixels.ratio: 0.375 is not changedPixels / (width × height) = 0.5"
      ),
      (
        #""diff.png": "a/orange-light@2x/diff.png""#, #""diff.png": "/etc/passwd""#,
        #"references[0].artifacts.diff.png: "/etc/passwd" is an absolute path; a reference is a path relative to the results folder"#
      ),
      (
        #""references": 1"#, #""references": 2"#,
        "selection.references: says 2, but 1 references are listed"
      ),
      (
        #""schema": "ouds-render snapshot results""#, #""schema": "junit""#,
        #"schema: not an ouds-render results file (expected "ouds-render snapshot results")"#
      ),
      (
        #""reason": "3 pixels differ""#, #""reason": "3\npixels""#,
        #"references[0].reason: "3\npixels" holds a control character"#
      ),
      (#""tokensSHA256": "abab"#, #""tokensSHA256": "zzab"#, #"environment.tokensSHA256: "zzab"#),
      (
        #""schemaVersion": 4,"#, #""schemaVersion": 4, "schemaVersion": 4,"#,
        #"duplicate key "schemaVersion""#
      ),
      // A false pass: the status says passed, the pixel verdict says different.
      (
        #""status": "changed""#, #""status": "passed""#,
        "references[0].status: passed contradicts pixels.result different: the entry was edited"
      ),
      (
        #""status": "changed""#, #""status": "skipped""#,
        "references[0].status: skipped is a status of snapshot record, which writes no results.json: the entry was edited"
      ),
      (
        #""run": null,"#,
        #""run": {"id": "a b", "idSource": "--run-id", "catalogueSHA256": "\#(SampleResults.digest)"},"#,
        #"run.id: "a b" is not a run id"#
      ),
    ])
  func schemaProblems(old: String, new: String, expected: String) throws {
    let results = SampleResults.results([
      SampleResults.reference("a", status: .changed, reason: "3 pixels differ")
    ])
    let text = results.jsonText()
    #expect(text.contains(old), "the sample holds \(old)")
    let error = try #require(try read(results) { $0.replacingOccurrences(of: old, with: new) })
    let message = "\(error)"
    #expect(message.hasPrefix("/") && message.contains("/results.json: "), "\(message)")
    #expect(message.contains(expected), "\(message)")
    #expect(!message.contains("\n"))
  }

  @Test(
    "a status its verdicts contradict is refused: changed with identical pixels and no layout diff, passed with layout diff lines; and edited environment differences"
  )
  func contradictions() throws {
    let passed = SampleResults.results([SampleResults.reference("a")])
    let changed = try #require(
      try read(passed) {
        $0.replacingOccurrences(of: #""status": "passed""#, with: #""status": "changed""#)
      })
    #expect(
      "\(changed)".hasSuffix(
        "references[0].status: changed contradicts pixels.result identical and an empty layoutDiff: the entry was edited"
      ), "\(changed)")
    let layout = try #require(
      try read(passed) {
        $0.replacingOccurrences(of: #""layoutDiff": []"#, with: #""layoutDiff": ["-a", "+b"]"#)
      })
    #expect(
      "\(layout)".hasSuffix(
        "references[0].status: passed contradicts its 2 layoutDiff lines: the entry was edited"),
      "\(layout)")
    let differences = try #require(
      try read(passed) {
        $0.replacingOccurrences(
          of: #""environmentDifferences": []"#,
          with: #""environmentDifferences": ["pango 1 in the references, 2 here"]"#)
      })
    #expect(
      "\(differences)".hasSuffix(
        "environmentDifferences: pango 1 in the references, 2 here is not what the environment and recordedEnvironment give (none)"
      ), "\(differences)")
  }

  @Test(
    "a null tokenDifference over different token digests is refused: it would pass a token change")
  func tokenVerdictChecked() throws {
    var results = SampleResults.results([SampleResults.reference("a")])
    let recorded = SnapshotEnvironment(
      renderStack: SampleResults.stack, fonts: [:], tokensSHA256: SampleResults.digest)
    results.recordedEnvironment = recorded
    results.environmentDifferences = recorded.differences(from: results.environment)
    // As written, it reads back: equal digests, no verdict.
    #expect(try read(results) { $0 } == nil)
    // The run's digest edited, its verdict left null: what a hand-edited shard looks like.
    let other = String(repeating: "0", count: 64)
    let edited = try #require(
      try read(results) { text in
        guard let environment = text.range(of: #""environment": {"#),
          let digest = text.range(
            of: SampleResults.digest, range: environment.upperBound..<text.endIndex)
        else { return text }
        return text.replacingCharacters(in: digest, with: other)
      })
    #expect(
      "\(edited)".hasSuffix(
        "tokenDifference: is null, but environment.tokensSHA256 (000000000000…) is not recordedEnvironment.tokensSHA256 (\(SampleResults.digest.prefix(12))…)"
      ), "\(edited)")
    // A verdict over equal digests is refused too.
    results.tokenDifference = "tokens: Themes differ"
    let verdict = try #require(try read(results) { $0 })
    #expect(
      "\(verdict)".hasSuffix(
        "tokenDifference: says the tokens changed, but environment.tokensSHA256 and recordedEnvironment.tokensSHA256 are the same"
      ), "\(verdict)")
  }

  @Test("a results.json over 256 MiB is refused before it is read; a folder without one is named")
  func limits() throws {
    let folder = try temporaryFolder("results")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("results.json")
    #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: UInt64(256 << 20) + 1)
    try handle.close()
    #expect(
      throws: SnapshotError.resultsUnreadable(
        UserFileError(
          path: file.path, kind: .results,
          problem: .tooLarge(bytes: (256 << 20) + 1, limit: 256 << 20)))
    ) {
      try SnapshotRunResults.read(from: folder)
    }
    #expect(
      errorText { try SnapshotRunResults.read(from: folder) }
        == "\(file.path): the results file is 256.0 MiB, over the limit of 256 MiB")
    try FileManager.default.removeItem(at: file)
    #expect(errorText { try SnapshotRunResults.read(from: folder) } == "\(file.path): no such file")
  }

  @Test("a results.json of tiny values is refused at 8 million values, before it takes gigabytes")
  func valueLimit() throws {
    let folder = try temporaryFolder("results")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("results.json")
    // 16 MB: well under the size limit, but a value every 2 bytes; the array is the first value,
    // so the 8,000,000th zero (column 16,000,000) is one too many
    let count = SnapshotRunResults.maxValues
    try Data(("[" + String(repeating: "0,", count: count) + "0]").utf8).write(to: file)
    #expect(
      errorText { try SnapshotRunResults.read(from: folder) }
        == "\(file.path): malformed JSON at line 1, column \(2 * count): more than \(count) values, the limit for this file"
    )
  }

  private func errorText(_ body: () throws -> Any) -> String {
    do {
      _ = try body()
      return ""
    } catch {
      return "\(error)"
    }
  }
}

@Suite("Merging results: one run's results from its shards, or a clear refusal")
struct ResultsMergeTests {
  private func part(_ label: String, _ results: SnapshotRunResults) -> SnapshotRunResults.Part {
    .init(label: label, results: results)
  }

  @Test(
    "two shards merge into the results of the whole: references sorted, times added, fonts of every theme"
  )
  func merges() throws {
    let sosh = SnapshotRunResults.Font(
      theme: "sosh", role: "latin-regular", family: "Comic Neue", file: "ComicNeue-Regular.otf",
      sha256: String(repeating: "ef", count: 32), folder: "/usr/share/fonts/opentype/comic-neue")
    let a = SampleResults.results(
      [
        SampleResults.reference("a"),
        SampleResults.reference("c", status: .changed, reason: "3 pixels differ"),
      ],
      shard: try SnapshotShard(index: 1, count: 2), catalogue: 3)
    var b = SampleResults.results(
      [SampleResults.reference("b", "sosh-dark@2x")], shard: try SnapshotShard(index: 2, count: 2),
      catalogue: 3,
      fonts: [sosh])
    b.caseErrors = [
      SnapshotCaseError(
        name: "broken", file: "cases/broken.json", message: "cases/broken.json: malformed")
    ]
    let merged = try SnapshotRunResults.merge([part("two", b), part("one", a)])
    #expect(
      merged.references.map(\.id) == ["a/orange-light@2x", "b/sosh-dark@2x", "c/orange-light@2x"])
    #expect(merged.selection.shard == nil)
    #expect(merged.seconds == 2)
    #expect(merged.caseErrors.map(\.name) == ["broken"])
    #expect(merged.fonts.map(\.theme) == ["orange", "sosh"])
    #expect(
      merged.sources?.hasSuffix(
        "LiberationSans-Regular.ttf in /usr/share/fonts/truetype/liberation2; ComicNeue-Regular.otf in /usr/share/fonts/opentype/comic-neue"
      ) == true)
    // One folder alone is itself.
    let whole = SampleResults.results([SampleResults.reference("a")])
    #expect(try SnapshotRunResults.merge([part("all", whole)]) == whole)
  }

  @Test(
    "refusals name the folders: other font files, an ENVIRONMENT.json, a catalogue, missing references"
  )
  func refusals() throws {
    let one = try SnapshotShard(index: 1, count: 2)
    let two = try SnapshotShard(index: 2, count: 2)
    let a = SampleResults.results([SampleResults.reference("a")], shard: one, catalogue: 2)
    var fonts = SampleResults.results([SampleResults.reference("b")], shard: two, catalogue: 2)
    fonts.fonts[0].sha256 = String(repeating: "00", count: 32)
    #expect(
      throws: SnapshotError.cannotMerge(
        reason: "x/1 and x/2 come from different font files (theme orange)")
    ) {
      try SnapshotRunResults.merge([part("x/1", a), part("x/2", fonts)])
    }
    var recorded = SampleResults.results([SampleResults.reference("b")], shard: two, catalogue: 2)
    recorded.recordedEnvironment = SnapshotEnvironment(renderStack: SampleResults.stack, fonts: [:])
    #expect(
      throws: SnapshotError.cannotMerge(
        reason: "x/1 and x/2 come from different references (their ENVIRONMENT.json differ)")
    ) {
      try SnapshotRunResults.merge([part("x/1", a), part("x/2", recorded)])
    }
    let bigger = SampleResults.results([SampleResults.reference("b")], shard: two, catalogue: 5)
    #expect(
      throws: SnapshotError.cannotMerge(
        reason: "x/1 and x/2 come from different catalogues (2 references in x/1, 5 in x/2)")
    ) {
      try SnapshotRunResults.merge([part("x/1", a), part("x/2", bigger)])
    }
    let short = SampleResults.results([], shard: two, catalogue: 2)
    #expect(
      throws: SnapshotError.cannotMerge(
        reason: "incomplete: x/1, x/2 hold 1 references, the catalogue 2")
    ) {
      try SnapshotRunResults.merge([part("x/1", a), part("x/2", short)])
    }
    // Shards of another run, or of the same run id over another catalogue.
    func identified(_ results: SnapshotRunResults, _ id: String, _ source: String, _ digest: String)
      -> SnapshotRunResults
    {
      var results = results
      results.run = .init(
        id: id, source: source, catalogueSHA256: String(repeating: digest, count: 64))
      return results
    }
    let today = identified(a, "42", "GITHUB_RUN_ID", "1")
    let fresh = SampleResults.results([SampleResults.reference("b")], shard: two, catalogue: 2)
    #expect(
      throws: SnapshotError.cannotMerge(
        reason:
          "x/1 and old/2 come from different runs (run id 42 (GITHUB_RUN_ID) in x/1, 41 (GITHUB_RUN_ID) in old/2)"
      )
    ) {
      try SnapshotRunResults.merge([
        part("x/1", today), part("old/2", identified(fresh, "41", "GITHUB_RUN_ID", "1")),
      ])
    }
    #expect(
      throws: SnapshotError.cannotMerge(
        reason:
          "x/1 and y/2 come from different runs (run id 42 (GITHUB_RUN_ID) in x/1, none in y/2)")
    ) {
      try SnapshotRunResults.merge([part("x/1", today), part("y/2", fresh)])
    }
    #expect(
      throws: SnapshotError.cannotMerge(
        reason:
          "x/1 and y/2 come from different runs (run id 42 (GITHUB_RUN_ID) in x/1, 9f (random) in y/2; give every shard of one run the same --run-id or OUDS_RUN_ID)"
      )
    ) {
      try SnapshotRunResults.merge([
        part("x/1", today), part("y/2", identified(fresh, "9f", "random", "1")),
      ])
    }
    #expect(
      throws: SnapshotError.cannotMerge(
        reason:
          "x/1 and y/2 come from different catalogues (cases, references and themes sha256 111111111111… in x/1, 222222222222… in y/2)"
      )
    ) {
      try SnapshotRunResults.merge([
        part("x/1", today), part("y/2", identified(fresh, "42", "GITHUB_RUN_ID", "2")),
      ])
    }
    let merged = try SnapshotRunResults.merge([
      part("x/1", today), part("y/2", identified(fresh, "42", "GITHUB_RUN_ID", "1")),
    ])
    #expect(merged.run == today.run)
    #expect(merged.references.count == 2)

    let other = SampleResults.results(
      [SampleResults.reference("b")], shard: try SnapshotShard(index: 2, count: 3), catalogue: 2)
    #expect(
      throws: SnapshotError.cannotMerge(
        reason: "x/1 is shard 1/2 and x/3 shard 2/3: shards of different splits overlap")
    ) {
      try SnapshotRunResults.merge([part("x/1", a), part("x/3", other)])
    }
  }
}

@Suite("The Markdown summary for a pull request")
struct MarkdownSummaryTests {
  private let commands = ReviewReport.Commands.cli(extraArguments: "--snapshots 'my snapshots'")

  @Test("everything passed: the line of counts alone")
  func passing() {
    let results = SampleResults.results([
      SampleResults.reference("a"), SampleResults.reference("b"),
    ])
    #expect(MarkdownSummary.document(results, commands: commands) == "2 references: 2 passed\n")
  }

  @Test("hostile text cannot break the table, add markup or leave the code spans")
  func hostileText() {
    let evil = "x | y `z` <script>alert(1)</script> **bold** [link](http://e)\nsecond line"
    let results = SampleResults.results(
      [SampleResults.reference("a", status: .error, reason: evil, message: evil)],
      caseErrors: [SnapshotCaseError(name: "b", file: "cases/b|c.json", message: evil)])
    let document = MarkdownSummary.document(results, commands: commands)
    let rows = document.split(separator: "\n").filter { $0.hasPrefix("| ") }
    #expect(rows.count == 3, "\(document)")
    for row in rows {
      // Four cells: five pipes that are not escaped.
      var unescaped = 0
      var previous: Character = " "
      for character in row {
        if character == "|" && previous != "\\" { unescaped += 1 }
        previous = character
      }
      #expect(unescaped == 5, "\(row)")
    }
    #expect(!document.contains("<script>") && document.contains("&lt;script>alert(1)&lt;/script>"))
    #expect(!document.contains("**bold**") && document.contains("\\*\\*bold\\*\\*"))
    // No link: both brackets behind a backslash; parentheses need nothing.
    #expect(document.contains("\\[link\\](http\\://e)"))
    #expect(document.contains("second line") && !document.contains("\nsecond line"))
    #expect(document.contains("| error | `a/orange-light@2x` | "))
    #expect(
      document.contains(
        "`ouds-render snapshot record --failed --snapshots 'my snapshots' --filter a/orange-light@2x`"
      ))
    #expect(document.contains("fix `Snapshots/cases/b\\|c.json`"))
    #expect(
      document.hasSuffix(
        "```sh\nouds-render snapshot record --failed --snapshots 'my snapshots' --filter 'a/orange-light@2x'\n```\n"
      ))
  }

  @Test("a token difference alone: the headline and the command that records again")
  func tokensOnly() {
    let results = SampleResults.results(
      [SampleResults.reference("a")],
      tokenDifference: "tokens: Themes (--themes) resolve to sha256 1234…")
    let document = MarkdownSummary.document(results, commands: commands)
    #expect(
      document.hasPrefix(
        "**1 reference: 1 passed; failed: the tokens are not the ones the references were recorded with**\n\nenvironment differs: tokens: Themes (--themes) resolve to sha256 1234…\n\n"
      ))
    #expect(
      document.hasSuffix(
        "```sh\nouds-render snapshot record --failed --snapshots 'my snapshots'\n```\n"))
  }
}

@Suite("Paths relative to the repository root")
struct RepositoryRootTests {
  @Test("the root is the git top level above the folder (a .git folder or file), else the folder")
  func find() throws {
    let folder = try temporaryFolder("root")
    defer { try? FileManager.default.removeItem(at: folder) }
    let deep = folder.appendingPathComponent("a/b")
    try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
    #expect(RepositoryRoot.find(from: deep).directory.path == deep.standardizedFileURL.path)
    try Data("gitdir: elsewhere\n".utf8).write(to: folder.appendingPathComponent("a/.git"))
    #expect(
      RepositoryRoot.find(from: deep).directory.path
        == folder.appendingPathComponent("a").standardizedFileURL.path)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("a/.git"))
    #expect(RepositoryRoot.find(from: deep).directory.path == folder.standardizedFileURL.path)
  }

  @Test(
    "paths and texts: inside the root relative, the root '.', outside absolute, look-alikes untouched"
  )
  func relative() {
    let root = RepositoryRoot(directory: URL(fileURLWithPath: "/ci/work/repo"))
    #expect(root.relative("/ci/work/repo/Snapshots/x.png") == "Snapshots/x.png")
    #expect(root.relative("/ci/work/repo") == ".")
    #expect(root.relative("/ci/work/repo/../other/y") == "/ci/work/other/y")
    #expect(root.relative("/usr/share/fonts") == "/usr/share/fonts")
    #expect(
      root.relativized(
        "themes: /ci/work/repo/Themes (--themes), cannot read '/ci/work/repo/a b.svg'; /ci/work/repo2/x; /x/ci/work/repo/y; (/ci/work/repo)"
      )
        == "themes: Themes (--themes), cannot read 'a b.svg'; /ci/work/repo2/x; /x/ci/work/repo/y; (.)"
    )
  }
}

/// `xmllint`, for the schema test of JUnit documents made from data (required under CI).
enum SchemaCheck {
  static let path = ["/usr/bin/xmllint", "/bin/xmllint"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static var testRuns: Bool { path != nil || SnapshotRecordMode.isCI() }
  static let schema = Repo.root.appendingPathComponent("Tests/Resources/junit-10.xsd")
}

@Suite("JUnit of every kind of row")
struct JUnitRowsTests {
  @Test(
    "case errors, a token difference, skipped, errors and failures validate; each message is one line",
    .enabled(
      if: SchemaCheck.testRuns,
      "xmllint is not installed (scripts/setup --with-test-tools installs libxml2-utils)"))
  func everyRow() throws {
    let tool = try #require(
      SchemaCheck.path,
      "CI is set and xmllint is not installed: scripts/setup --with-test-tools installs it")
    var results = SampleResults.results(
      [
        SampleResults.reference("a"),
        SampleResults.reference("b", status: .changed, reason: "3 pixels differ"),
        SampleResults.reference(
          "c", status: .error, reason: "cannot render: line\none",
          message: "cannot render: line\none"),
        SampleResults.reference("d", status: .skipped, reason: "exists, not checked"),
        SampleResults.reference(
          "e", status: .missing, reason: "no reference: e/orange-light@2x.png missing"),
      ],
      caseErrors: [
        SnapshotCaseError(
          name: "f", file: "cases/f.json", message: "cases/f.json: malformed <JSON> & \"more\"")
      ],
      tokenDifference: "tokens: Themes (--themes) resolve to sha256 1234…")
    results.environmentDifferences = ["pango 1.50 in the references, 1.52 here"]
    let document = JUnitXML.document(results) { reference in
      reference.images.keys.isEmpty ? [] : ["out/report/images/\(reference.id)/diff.png"]
    }
    let folder = try temporaryFolder("junit")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("junit.xml")
    try Data(document.utf8).write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["--noout", "--schema", SchemaCheck.schema.path, file.path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let messages = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(messages)\n\(document)")
    #expect(
      document.contains(#"<testsuites name="ouds-snapshots" tests="7" failures="3" errors="2">"#))
    #expect(
      document.contains(
        #"<testcase classname="environment" name="tokens" file="Snapshots/ENVIRONMENT.json">"#))
    #expect(
      document.contains(
        #"<testcase classname="f" name="(case file)" file="Snapshots/cases/f.json">"#))
    #expect(document.contains(#"<error type="render-error" message="cannot render: line\none">"#))
    #expect(document.contains(#"<skipped message="exists, not checked"/>"#))
    #expect(
      document.contains(
        "<system-out>[[ATTACHMENT|out/report/images/b/orange-light@2x/diff.png]]\n</system-out>"))
    #expect(document.contains(#"<testcase classname="f" name="(case file)""#))
    #expect(document.contains(#" time=""#), "each reference's test case carries its time")
    for message in document.matches(of: #/ message="([^"]*)"/#) {
      #expect(!message.1.contains("&#10;"), "\(message.1)")
    }
  }
}
