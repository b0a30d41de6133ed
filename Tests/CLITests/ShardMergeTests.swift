import Dispatch
import Foundation
import Testing

/// One CI run, twice: `snapshot verify` over the fixture's whole catalogue, and four `verify
/// --shard i/4 --results` processes merged by `snapshot merge`, in a copy of the repository's
/// snapshots (kept to the three cases below, 62 references: the merge is tested, not the
/// catalogue, which the shared run of SnapshotTests renders once per `swift test`) and themes
/// under a temporary folder (no git above it, so the folder is the repository root) where four
/// references were changed on purpose:
/// - `sample-3/orange-light@2x.png` holds Sosh's picture (same size: changed pixels);
/// - `sample-3/sosh-dark@2x.png` holds a picture of another size;
/// - `sample-1/orange-dark@2x.png` is deleted (missing);
/// - `demo-bare/orange-light.layout.json` has one coordinate changed (the layout alone differs).
enum ShardRun {
  struct Fixture {
    /// The temporary folder the commands ran in: the repository root for them.
    var root: URL
    var single: RunResult
    var shards: [RunResult]
    var merge: RunResult
  }

  static let changed = [
    "demo-bare/orange-light@2x", "sample-1/orange-dark@2x", "sample-3/orange-light@2x",
    "sample-3/sosh-dark@2x",
  ]
  static let shardFolders = (1...4).map { "out/shard-\($0)" }
  /// The run id every shard of the fixture is given.
  static let runID = "ci-run-7"
  /// The cases of the fixture's catalogue: those the four changes are in.
  static let cases = ["demo-bare", "sample-1", "sample-3"]

  static let fixture: Result<Fixture, any Error> = Result {
    let root = try temporaryFolder()
    let snapshots = root.appendingPathComponent("Snapshots")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots"), to: snapshots)
    try PipelineFixture.keepOnly(cases, in: snapshots)
    _ = try copyOfThemes(in: root)
    func file(_ path: String) -> URL { snapshots.appendingPathComponent(path) }
    try FileManager.default.removeItem(at: file("sample-3/orange-light@2x.png"))
    try FileManager.default.copyItem(
      at: file("sample-3/sosh-light@2x.png"), to: file("sample-3/orange-light@2x.png"))
    try FileManager.default.removeItem(at: file("sample-3/sosh-dark@2x.png"))
    try FileManager.default.copyItem(
      at: file("demo-bare/orange-light@2x.png"), to: file("sample-3/sosh-dark@2x.png"))
    try FileManager.default.removeItem(at: file("sample-1/orange-dark@2x.png"))
    let layout = file("demo-bare/orange-light.layout.json")
    let text = try String(contentsOf: layout, encoding: .utf8)
    guard let range = text.range(of: #""x" : [0-9.]+"#, options: .regularExpression) else {
      throw CLIError("no \"x\" in \(layout.path)")
    }
    try text.replacingCharacters(in: range, with: #""x" : 999"#).write(
      to: layout, atomically: true, encoding: .utf8)

    let single = try run(
      [
        "snapshot", "verify", "--report", "single/report", "--junit", "single/junit.xml",
        "--summary",
        "single/summary.md", "--results", "single/results",
      ], in: root)
    // Four CI jobs at once, each its own process.
    let shards = ParallelRuns(count: 4)
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      shards.set(
        index,
        Result {
          try run(
            [
              "snapshot", "verify", "--shard", "\(index + 1)/4", "--results", shardFolders[index],
              "--run-id", runID,
            ],
            in: root)
        })
    }
    let merge = try run(
      ["snapshot", "merge"] + shardFolders + [
        "--report", "merged/report", "--junit", "merged/junit.xml", "--summary",
        "merged/summary.md",
      ], in: root)
    return Fixture(root: root, single: single, shards: try shards.results(), merge: merge)
  }

  /// The bytes of every file under `folder`, by path relative to it.
  static func files(under folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return files }
    while let path = enumerator.nextObject() as? String {
      var isFolder: ObjCBool = false
      let url = folder.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        files[path] = try Data(contentsOf: url)
      }
    }
    return files
  }

  /// The SHA-256 of `data`, lower-case hex (the coreutils tool, as a reviewer would check it).
  static func sha256(of data: Data) -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-sha-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    guard (try? data.write(to: file)) != nil else { return "" }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return "" }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(String(decoding: output, as: UTF8.self).prefix(64))
  }
  /// `text` with the durations of the totals line (`in 7.28 s`) taken out.
  static func withoutTime(_ text: String) -> String {
    text.replacingOccurrences(of: #" in [0-9]+\.[0-9]+ s"#, with: "", options: .regularExpression)
  }
}

/// Results of processes run on several threads.
final class ParallelRuns: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Result<RunResult, any Error>?]

  init(count: Int) { items = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ result: Result<RunResult, any Error>) {
    lock.lock()
    items[index] = result
    lock.unlock()
  }

  func results() throws -> [RunResult] {
    lock.lock()
    defer { lock.unlock() }
    return try items.map { item in
      guard let item else { throw CLIError("a run did not finish") }
      return try item.get()
    }
  }
}

@Suite(
  "snapshot verify --shard --results, snapshot merge: the merge of the shards is the single run")
struct ShardMergeTests {
  @Test(
    "four shards merged write the single run's review page, images, JUnit file and summary, byte for byte"
  )
  func mergeEqualsSingleRun() throws {
    let fixture = try ShardRun.fixture.get()
    #expect(fixture.single.status == 1, "\(fixture.single.stderr)")
    #expect(fixture.merge.status == 1, "\(fixture.merge.stderr)")
    for (index, shard) in fixture.shards.enumerated() {
      #expect(shard.status == 0 || shard.status == 1, "shard \(index + 1): \(shard.stderr)")
    }
    let single = fixture.root.appendingPathComponent("single")
    let merged = fixture.root.appendingPathComponent("merged")
    let summary = try String(
      contentsOf: merged.appendingPathComponent("summary.md"), encoding: .utf8)
    #expect(
      try String(contentsOf: single.appendingPathComponent("summary.md"), encoding: .utf8)
        == summary)
    let page = try Data(contentsOf: merged.appendingPathComponent("report/index.html"))
    // Byte for byte but the times each reference took, which each run measures for itself.
    func withoutTimes(_ data: Data) -> String {
      String(decoding: data, as: UTF8.self).replacing(
        #/<span class="time">[0-9.]+ s</span>/#, with: "<span class=\"time\"></span>")
    }
    #expect(
      withoutTimes(try Data(contentsOf: single.appendingPathComponent("report/index.html")))
        == withoutTimes(page))
    let singleImages = try ShardRun.files(under: single.appendingPathComponent("report/images"))
    let mergedImages = try ShardRun.files(under: merged.appendingPathComponent("report/images"))
    #expect(singleImages.keys.sorted() == mergedImages.keys.sorted())
    #expect(singleImages == mergedImages)
    // Expected, actual and diff of the two pixel changes; expected and actual of the layout
    // change; the render of the missing reference: 9 pictures, stored once each by their SHA-256
    // (issue 39 point 3). The layout change's expected and actual are one picture, and it is
    // also sample-3/sosh-dark's expected (the fixture copied demo-bare's PNG there): 7 files.
    let stored = mergedImages.keys.filter { $0.hasSuffix(".png") }
    #expect(stored.count == 7, "\(mergedImages.keys.sorted())")
    for name in stored {
      let digest = String(name.dropLast(".png".count))
      #expect(digest.count == 64 && !name.contains("/"), "\(name)")
      #expect(
        mergedImages[name].map { ShardRun.sha256(of: $0) } == digest, "\(name) is not its content")
    }
    // JUnit attaches the pictures of the review page each run wrote: the paths are the only difference.
    let singleJUnit = try String(
      contentsOf: single.appendingPathComponent("junit.xml"), encoding: .utf8)
    let mergedJUnit = try String(
      contentsOf: merged.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(singleJUnit.contains("[[ATTACHMENT|single/report/images/"))
    // And the times: each test case carries its own (the shards' times, not the single run's).
    func timeless(_ text: String) -> String {
      text.replacing(#/ time="[0-9.]+"/#, with: "")
    }
    #expect(mergedJUnit.contains(#" time=""#))
    #expect(
      timeless(singleJUnit.replacingOccurrences(of: "|single/report/", with: "|merged/report/"))
        == timeless(mergedJUnit))
    // The table on standard output: the same failures and counts (verify prints the folders as given).
    let singleLines = ShardRun.withoutTime(fixture.single.stdout).split(separator: "\n").dropFirst()
    let mergedLines = ShardRun.withoutTime(fixture.merge.stdout).split(separator: "\n").dropFirst()
    #expect(Array(singleLines) == Array(mergedLines))
    #expect(
      fixture.merge.stdout.hasPrefix("themes: Themes (beside the snapshots folder) · fonts: "))
  }

  @Test(
    "the summary: the counts, one row per failure with its reason and accept command, one command for all"
  )
  func summaryContent() throws {
    let fixture = try ShardRun.fixture.get()
    let summary = try String(
      contentsOf: fixture.root.appendingPathComponent("merged/summary.md"), encoding: .utf8)
    let total = try #require(fixture.merge.stdout.split(separator: "\n").last.map(String.init))
    let lines = summary.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Parentheses are not markup: they stay as they are (plain in a GitLab log too).
    #expect(lines.first == "**" + ShardRun.withoutTime(total) + "**")
    #expect(
      total.contains(" references: ")
        && total.contains(", 4 failed (3 changed, 1 missing, 0 errors)"))
    #expect(lines.contains("| Status | Reference | Reason | Accept |"))
    let rows = lines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Status") }
    #expect(
      rows.map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) } == [
        "layout", "missing", "changed", "changed",
      ])
    #expect(
      rows[0]
        == "| layout | `demo-bare/orange-light@2x` | layout JSON: 2 lines differ; pixels identical | `ouds-render snapshot record --failed --filter demo-bare/orange-light@2x` |"
    )
    #expect(
      rows[1].contains(
        "| `ouds-render snapshot record --missing --filter sample-1/orange-dark@2x` |"))
    #expect(rows[2].contains(" pixels differ (") && !summary.contains("\\("))
    #expect(
      rows[3].contains("size differs: expected ") && rows[3].contains(", actual 720×216 |"),
      "\(rows[3])")
    #expect(
      lines.contains(
        "ouds-render snapshot record --failed --filter '\(ShardRun.changed.joined(separator: ","))'"
      ))
  }

  @Test("a passing run's summary is its line of counts and nothing else")
  func passingSummary() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try run(
      [
        "snapshot", "verify", "--filter", "sample-3/", "--summary",
        folder.appendingPathComponent("summary.md").path,
      ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let summary = try String(
      contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
    #expect(summary == "8 references: 8 passed\n")
  }

  @Test(
    "the summary's command accepts exactly the failures: run from the root, the next verify passes")
  func acceptCommandWorks() throws {
    let fixture = try ShardRun.fixture.get()
    let copy = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: copy) }
    for name in ["Snapshots", "Themes"] {
      try FileManager.default.copyItem(
        at: fixture.root.appendingPathComponent(name), to: copy.appendingPathComponent(name))
    }
    let summary = try String(
      contentsOf: fixture.root.appendingPathComponent("merged/summary.md"), encoding: .utf8)
    let command = try #require(
      summary.split(separator: "\n").first { $0.hasPrefix("ouds-render snapshot record") })
    let prefix = "ouds-render snapshot record --failed --filter '"
    #expect(command.hasPrefix(prefix) && command.hasSuffix("'"))
    let filter = String(command.dropFirst(prefix.count).dropLast())
    let record = try run(["snapshot", "record", "--failed", "--filter", filter], in: copy)
    #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
    let wrote = record.stdout.split(separator: "\n").filter { $0.hasPrefix("wrote ") }.map {
      String($0.dropFirst(6))
    }
    #expect(
      Set(wrote)
        == [
          "demo-bare/orange-light.layout.json", "sample-1/orange-dark@2x.png",
          "sample-3/orange-light@2x.png",
          "sample-3/sosh-dark@2x.png",
        ], "\(record.stdout)")
    let verify = try run(["snapshot", "verify"], in: copy)
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
  }

  @Test("no file the runs wrote names the folder they ran in")
  func noAbsolutePaths() throws {
    let fixture = try ShardRun.fixture.get()
    let here = [fixture.root.path, fixture.root.resolvingSymlinksInPath().path]
    var checked = 0
    for folder in ["single", "merged", "out", ".build/snapshot-artifacts"] {
      for (path, data) in try ShardRun.files(under: fixture.root.appendingPathComponent(folder)) {
        checked += 1
        for root in here {
          #expect(data.range(of: Data(root.utf8)) == nil, "\(folder)/\(path) holds \(root)")
        }
      }
    }
    #expect(checked > 30)
    #expect(!fixture.merge.stdout.contains(fixture.root.path))
  }

  @Test(
    "results.json: schema, shard, catalogue total, environment, one entry per reference, artifact paths inside its folder"
  )
  func resultsFiles() throws {
    let fixture = try ShardRun.fixture.get()
    let list = try run(["snapshot", "list"], in: fixture.root)
    let catalogue = list.stdout.split(separator: "\n").count
    var ids: [String] = []
    for (index, folder) in ShardRun.shardFolders.enumerated() {
      let results = fixture.root.appendingPathComponent(folder)
      let json = try #require(
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: results.appendingPathComponent("results.json")))
          as? [String: Any])
      #expect(json["schema"] as? String == "ouds-render snapshot results")
      #expect(json["schemaVersion"] as? Int == 4)
      #expect(json["snapshots"] as? String == "Snapshots")
      let selection = try #require(json["selection"] as? [String: Any])
      #expect(selection["catalogueReferences"] as? Int == catalogue)
      let shard = try #require(selection["shard"] as? [String: Int])
      #expect(shard == ["index": index + 1, "count": 4])
      #expect(
        (json["themes"] as? [String: String]) == [
          "folder": "Themes", "reason": "beside the snapshots folder",
        ])
      let environment = try #require(json["environment"] as? [String: Any])
      #expect((environment["tokensSHA256"] as? String)?.count == 64)
      let references = try #require(json["references"] as? [[String: Any]])
      #expect(selection["references"] as? Int == references.count)
      for reference in references {
        let id = try #require(reference["id"] as? String)
        ids.append(id)
        #expect(
          id == "\(reference["case"] as? String ?? "")/\(reference["variant"] as? String ?? "")")
        for (_, path) in reference["artifacts"] as? [String: String] ?? [:] {
          #expect(!path.hasPrefix("/") && !path.contains(".."), "\(path)")
          #expect(
            FileManager.default.fileExists(atPath: results.appendingPathComponent(path).path),
            "\(folder)/\(path)")
        }
      }
      let failing = references.filter {
        ["changed", "missing", "error"].contains($0["status"] as? String)
      }
      for reference in failing where reference["id"] as? String == "sample-3/orange-light@2x" {
        let pixels = try #require(reference["pixels"] as? [String: Any])
        #expect(pixels["result"] as? String == "different")
        #expect((pixels["changedPixels"] as? Int ?? 0) > 0)
        #expect((pixels["regions"] as? [Any])?.isEmpty == false)
        #expect(
          Set((reference["artifacts"] as? [String: String] ?? [:]).keys).isSuperset(of: [
            "expected.png", "actual.png", "diff.png",
          ]))
      }
    }
    #expect(ids.count == catalogue)
    #expect(Set(ids).count == catalogue, "each reference in exactly one shard")
    #expect(Set(ShardRun.changed).isSubset(of: Set(ids)))
  }

  // MARK: - Refusals

  /// A copy of shard folder `index` (1-based) named `name`, its results.json edited by `edit`.
  private func copy(
    _ fixture: ShardRun.Fixture, shard index: Int, to name: String,
    edit: (String) -> String = { $0 }
  ) throws {
    let target = fixture.root.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: target)
    try FileManager.default.createDirectory(
      at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: fixture.root.appendingPathComponent(ShardRun.shardFolders[index - 1]), to: target)
    let file = target.appendingPathComponent("results.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    let edited = edit(text)
    try edited.write(to: file, atomically: true, encoding: .utf8)
  }

  private func merge(_ fixture: ShardRun.Fixture, _ folders: [String]) throws -> RunResult {
    try run(["snapshot", "merge"] + folders, in: fixture.root)
  }

  @Test(
    "a shard folder left from yesterday's green run is refused beside today's shards: by its run id, and by its catalogue when the id is reused"
  )
  func staleShard() throws {
    let fixture = try ShardRun.fixture.get()
    // Yesterday: the catalogue before today's four changes, in another checkout.
    let yesterday = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: yesterday) }
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots"),
      to: yesterday.appendingPathComponent("Snapshots"))
    try PipelineFixture.keepOnly(ShardRun.cases, in: yesterday.appendingPathComponent("Snapshots"))
    _ = try copyOfThemes(in: yesterday)
    for (folder, id) in [("stale/shard-3", "ci-run-6"), ("reused/shard-3", ShardRun.runID)] {
      let green = try run(
        ["snapshot", "verify", "--shard", "3/4", "--results", folder, "--run-id", id],
        in: yesterday, removing: ["OUDS_RUN_ID"])
      #expect(green.status == 0, "\(green.stderr)")
      try FileManager.default.createDirectory(
        at: fixture.root.appendingPathComponent(folder).deletingLastPathComponent(),
        withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: yesterday.appendingPathComponent(folder),
        to: fixture.root.appendingPathComponent(folder))
    }
    // Today's shard 3 holds two of today's failures: merged over it, they would vanish.
    let stale = try merge(fixture, ["out/shard-1", "out/shard-2", "stale/shard-3", "out/shard-4"])
    #expect(stale.status == 1)
    #expect(
      stale.stderr
        == "error: cannot merge: out/shard-1 and stale/shard-3 come from different runs (run id ci-run-7 (--run-id) in out/shard-1, ci-run-6 (--run-id) in stale/shard-3)\n"
    )
    #expect(stale.stdout.isEmpty)
    let reused = try merge(
      fixture, ["out/shard-1", "out/shard-2", "reused/shard-3", "out/shard-4"])
    #expect(reused.status == 1)
    #expect(
      reused.stderr.hasPrefix(
        "error: cannot merge: out/shard-1 and reused/shard-3 come from different catalogues (cases, references and themes sha256 "
      ), "\(reused.stderr)")
    #expect(reused.stderr.hasSuffix("… in reused/shard-3)\n"), "\(reused.stderr)")
    // Today's shards alone still merge (the refusals are not the merge failing on its own).
    #expect(fixture.merge.stderr.contains("cannot merge") == false, "\(fixture.merge.stderr)")
  }

  @Test("merge refuses an incomplete set of shards, naming the missing shard and the folders given")
  func incomplete() throws {
    let fixture = try ShardRun.fixture.get()
    let result = try merge(fixture, Array(ShardRun.shardFolders.prefix(3)))
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "error: cannot merge: incomplete: shard 4/4 missing (given: out/shard-1, out/shard-2, out/shard-3)\n"
    )
    #expect(result.stdout.isEmpty)
  }

  @Test(
    "merge refuses overlapping results: one shard twice, a shard beside a whole run, a reference in two folders"
  )
  func overlapping() throws {
    let fixture = try ShardRun.fixture.get()
    try copy(fixture, shard: 2, to: "twice/shard-2")
    let twice = try merge(fixture, ShardRun.shardFolders + ["twice/shard-2"])
    #expect(twice.status == 1)
    #expect(
      twice.stderr == "error: cannot merge: out/shard-2 and twice/shard-2 are both shard 2/4\n")

    try copy(fixture, shard: 1, to: "whole/all") {
      $0.replacingOccurrences(
        of: "\"shard\": {\n      \"index\": 1,\n      \"count\": 4\n    }", with: "\"shard\": null")
    }
    let whole = try merge(fixture, ["whole/all", "out/shard-2"])
    #expect(
      whole.stderr
        == "error: cannot merge: whole/all covers the whole selection (no --shard) and out/shard-2 is shard 2/4: they overlap\n"
    )

    // Shard 2's references under shard 3's number.
    try copy(fixture, shard: 2, to: "fake/shard-3") {
      $0.replacingOccurrences(of: "\"index\": 2,", with: "\"index\": 3,")
    }
    let fake = try merge(fixture, ["out/shard-1", "out/shard-2", "fake/shard-3", "out/shard-4"])
    #expect(fake.status == 1)
    #expect(fake.stderr.hasPrefix("error: cannot merge: "), "\(fake.stderr)")
    #expect(
      fake.stderr.hasSuffix(" is in both out/shard-2 and fake/shard-3: they overlap\n"),
      "\(fake.stderr)")
  }

  @Test("merge refuses results of other environments: render stack, tokens, themes folder, filter")
  func otherEnvironment() throws {
    let fixture = try ShardRun.fixture.get()
    let text = try String(
      contentsOf: fixture.root.appendingPathComponent("out/shard-4/results.json"), encoding: .utf8)
    let pango = try #require(text.firstMatch(of: /"pango": "([^"]+)"/)?.1).description
    try copy(fixture, shard: 4, to: "stack/shard-4") {
      $0.replacingOccurrences(of: "\"pango\": \"\(pango)\"", with: "\"pango\": \"9.9.9\"")
    }
    let stack = try merge(fixture, Array(ShardRun.shardFolders.prefix(3)) + ["stack/shard-4"])
    #expect(stack.status == 1)
    #expect(
      stack.stderr
        == "error: cannot merge: out/shard-1 and stack/shard-4 come from different render stacks (pango \(pango) in out/shard-1, 9.9.9 in stack/shard-4)\n"
    )

    let digest = try #require(text.firstMatch(of: /"tokensSHA256": "([0-9a-f]{64})"/)?.1)
      .description
    try copy(fixture, shard: 4, to: "tokens/shard-4") {
      $0.replacingOccurrences(of: digest, with: String(repeating: "0", count: 64))
    }
    let tokens = try merge(fixture, Array(ShardRun.shardFolders.prefix(3)) + ["tokens/shard-4"])
    #expect(
      tokens.stderr
        == "error: cannot merge: out/shard-1 and tokens/shard-4 come from different tokens (sha256 \(digest.prefix(12))… in out/shard-1, 000000000000… in tokens/shard-4)\n"
    )

    try copy(fixture, shard: 4, to: "themes/shard-4") {
      $0.replacingOccurrences(of: "\"folder\": \"Themes\"", with: "\"folder\": \"other/Themes\"")
    }
    let themes = try merge(fixture, Array(ShardRun.shardFolders.prefix(3)) + ["themes/shard-4"])
    #expect(
      themes.stderr
        == "error: cannot merge: out/shard-1 and themes/shard-4 come from different themes folders (Themes (beside the snapshots folder) in out/shard-1, other/Themes (beside the snapshots folder) in themes/shard-4)\n"
    )

    try copy(fixture, shard: 4, to: "filter/shard-4") {
      $0.replacingOccurrences(of: "\"filter\": null", with: "\"filter\": \"sample\"")
    }
    let filter = try merge(fixture, Array(ShardRun.shardFolders.prefix(3)) + ["filter/shard-4"])
    #expect(
      filter.stderr
        == "error: cannot merge: out/shard-1 and filter/shard-4 come from different selections (--filter none in out/shard-1, \"sample\" in filter/shard-4)\n"
    )
  }

  @Test(
    "no output over another: --summary the --junit file, --junit or --report inside a results folder; one line, exit 1, before anything is read"
  )
  func outputsApart() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let shard = folder.appendingPathComponent("shard-1").path
    let file = folder.appendingPathComponent("out/a.xml").path
    let same = try run(["snapshot", "merge", shard, "--junit", file, "--summary", file])
    #expect(same.status == 1)
    #expect(
      same.stderr
        == "error: --summary \(file): is the --junit file \(file); write outputs outside it\n")
    let inside = try run(["snapshot", "merge", shard, "--junit", shard + "/junit.xml"])
    #expect(
      inside.stderr
        == "error: --junit \(shard)/junit.xml: is inside the results folder \(shard); write outputs outside it\n"
    )
    let page = try run(["snapshot", "merge", shard, "--report", shard + "/report"])
    #expect(
      page.stderr
        == "error: --report \(shard)/report: is inside the results folder \(shard); write outputs outside it\n"
    )
    let verify = try run([
      "snapshot", "verify", "--results", shard, "--summary", shard + "/summary.md",
    ])
    #expect(verify.status == 1)
    #expect(
      verify.stderr
        == "error: --summary \(shard)/summary.md: is inside the --results folder \(shard); write outputs outside it\n"
    )
    #expect(!FileManager.default.fileExists(atPath: shard))
  }

  @Test("usage: merge needs a folder; --results and --artifacts together are refused")
  func usage() throws {
    let none = try run(["snapshot", "merge"])
    #expect(none.status == 2)
    #expect(
      none.stderr.hasPrefix("error: missing <dir> (one or more results folders)\n"),
      "\(none.stderr)")
    let both = try run(["snapshot", "verify", "--results", "/tmp/x", "--artifacts", "/tmp/y"])
    #expect(both.status == 2)
    #expect(
      both.stderr.hasPrefix(
        "error: --results writes the artifacts into its folder: give --results or --artifacts, not both\n"
      ))
  }
}

/// `xmllint` (Debian's libxml2-utils), which validates JUnit files against the schema; installed
/// by `scripts/setup --with-test-tools`, and required under CI.
enum XMLLint {
  static let path = Shells.path("xmllint")
  static var testRuns: Bool { Shells.testRuns("xmllint") }
  /// The schema of Jenkins' JUnit conventions the files are validated against.
  static let schema = repositoryRoot.appendingPathComponent("Tests/Resources/junit-10.xsd")

  /// Validates `file`; the exit status and xmllint's messages.
  static func validate(_ file: URL) throws -> (status: Int32, messages: String) {
    let tool = try #require(
      path,
      "CI is set and xmllint is not installed: scripts/setup --with-test-tools installs libxml2-utils"
    )
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["--noout", "--schema", schema.path, file.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let messages = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, messages)
  }
}

@Suite("JUnit XML that CI servers show well")
struct JUnitTests {
  @Test(
    "the JUnit files of verify, of a shard and of the merge validate against Jenkins' junit-10.xsd conventions",
    .enabled(
      if: XMLLint.testRuns,
      "xmllint is not installed (scripts/setup --with-test-tools installs libxml2-utils)"))
  func validates() throws {
    let fixture = try ShardRun.fixture.get()
    for file in [
      "single/junit.xml", "merged/junit.xml", "out/shard-2/junit.xml",
      "single/results/junit.xml",
    ] {
      let result = try XMLLint.validate(fixture.root.appendingPathComponent(file))
      #expect(result.status == 0, "\(file): \(result.messages)")
    }
    // The schema is strict: an attribute it does not declare fails.
    let text = try String(
      contentsOf: fixture.root.appendingPathComponent("merged/junit.xml"), encoding: .utf8)
    let bad = fixture.root.appendingPathComponent("bad-junit.xml")
    try text.replacingOccurrences(of: "<testcase ", with: "<testcase line=\"1\" ").write(
      to: bad, atomically: true, encoding: .utf8)
    let refused = try XMLLint.validate(bad)
    #expect(refused.status != 0)
    #expect(refused.messages.contains("The attribute 'line' is not allowed"), "\(refused.messages)")
  }

  @Test(
    "one testcase per reference (classname = case, name = variant, file from the root), one-line messages, the pictures attached"
  )
  func testcases() throws {
    let fixture = try ShardRun.fixture.get()
    let text = try String(
      contentsOf: fixture.root.appendingPathComponent("merged/junit.xml"), encoding: .utf8)
    let list = try run(["snapshot", "list"], in: fixture.root).stdout.split(separator: "\n")
    let cases = text.matches(of: /<testcase classname="([^"]*)" name="([^"]*)" file="([^"]*)"/)
    #expect(cases.count == list.count)
    for match in cases {
      #expect(match.3 == "Snapshots/\(match.1)/\(match.2).png")
      let exists = FileManager.default.fileExists(
        atPath: fixture.root.appendingPathComponent(String(match.3)).path)
      #expect(exists || "\(match.1)/\(match.2)" == "sample-1/orange-dark@2x", "\(match.3)")
    }
    #expect(cases.map { "\($0.1)/\($0.2)" } == list.map(String.init))
    let messages = text.matches(of: /<(failure|error) type="[^"]*" message="([^"]*)">/)
    #expect(messages.count == 4)
    for message in messages {
      #expect(!message.2.contains("&#10;") && !message.2.contains("\n"))
    }
    #expect(
      text.contains(
        "<failure type=\"snapshot-changed\" message=\"layout JSON: 2 lines differ; pixels identical\">"
      ))
    #expect(
      text.contains(
        "<failure type=\"missing-reference\" message=\"no reference: sample-1/orange-dark@2x.png missing"
      ))
    // The pictures: diff, actual and expected, each a file under the root.
    let attachments = text.matches(of: /\[\[ATTACHMENT\|([^\]]+)\]\]/).map { String($0.1) }
    #expect(attachments.count == 3 + 3 + 2 + 1)
    for path in attachments {
      #expect(!path.hasPrefix("/"))
      #expect(
        FileManager.default.fileExists(atPath: fixture.root.appendingPathComponent(path).path),
        "\(path)")
    }
    // Each picture stored once by its SHA-256: two of the nine are the same picture as another.
    #expect(Set(attachments).count == 7)
    // The test case's element, whatever its time: `file="…" time="0.042">`.
    let named = try #require(text.range(of: "file=\"Snapshots/sample-3/orange-light@2x.png\""))
    let start = try #require(text.range(of: ">", range: named.upperBound..<text.endIndex))
    let end = try #require(text.range(of: "</testcase>", range: start.upperBound..<text.endIndex))
    let block = String(text[start.upperBound..<end.lowerBound])
    let attached = block.matches(of: /\[\[ATTACHMENT\|([^\]]+)\]\]/).map { String($0.1) }
    // Diff, actual and expected, each the bytes of the artifact file its shard wrote.
    let shardFolder = try #require(
      ShardRun.shardFolders.first {
        FileManager.default.fileExists(
          atPath: fixture.root.appendingPathComponent("\($0)/sample-3/orange-light@2x/diff.png")
            .path)
      })
    #expect(attached.count == 3)
    for (path, name) in zip(attached, ["diff.png", "actual.png", "expected.png"]) {
      #expect(path.hasPrefix("merged/report/images/") && path.hasSuffix(".png"), "\(path)")
      #expect(
        try Data(contentsOf: fixture.root.appendingPathComponent(path))
          == Data(
            contentsOf: fixture.root.appendingPathComponent(
              "\(shardFolder)/sample-3/orange-light@2x/\(name)")), "\(name)")
    }
    // A shard's own JUnit attaches its artifact files.
    let shard = try String(
      contentsOf: fixture.root.appendingPathComponent("out/shard-2/junit.xml"), encoding: .utf8)
    for path in shard.matches(of: /\[\[ATTACHMENT\|([^\]]+)\]\]/).map({ String($0.1) }) {
      #expect(path.hasPrefix("out/shard-2/"), "\(path)")
      #expect(
        FileManager.default.fileExists(atPath: fixture.root.appendingPathComponent(path).path),
        "\(path)")
    }
  }
}
