import BulletListRenderer
import Foundation
import RunReports
import SafeInput
import Snapshot
import SnapshotReports
import Testing

@Suite("Hostile snapshots folders: broken cases, bad references, concurrent records")
struct HostileSnapshotTests {
  @Test(
    "a broken case file fails only itself: an error row in the table, the review page and JUnit")
  func brokenCases() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1", "sample-2"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try Data("{\"items\": [\n".utf8).write(to: cases.appendingPathComponent("broken.json"))
    try Data(#"{"items": [{"label": "x"}]}"#.utf8).write(
      to: cases.appendingPathComponent("cases.json"))
    try Data(#"{"items": [{"label": "x"}]}"#.utf8).write(
      to: cases.appendingPathComponent(".hidden.json"))
    try Data(#"{"items": [{"label": "x"}]}"#.utf8).write(
      to: cases.appendingPathComponent("a..b.json"))
    try Data("notes".utf8).write(to: folder.appendingPathComponent("NOTES.txt"))
    try Data(#"{"items": [{"label": "x"}]}"#.utf8).write(
      to: cases.appendingPathComponent("notes.txt.json"))
    #expect(mkfifo(cases.appendingPathComponent("pipe.json").path, 0o644) == 0)

    let recorder = try engine(snapshots: folder)
    let catalogue = recorder.catalogue
    #expect(catalogue.cases.map(\.name) == ["sample-1", "sample-2"])
    #expect(
      catalogue.brokenCases.map(\.message) == [
        "cases/.hidden.json: a case name holds only letters, digits, '.', '_' and '-', and starts with a letter or a digit",
        "cases/a..b.json: a case name may not hold '..'",
        "cases/broken.json: malformed JSON at line 2, column 1: unexpected end of file, expected a value",
        "cases/cases.json: a case may not be named 'cases': its references would go into the case folder",
        "cases/notes.txt.json: the case name collides with the file notes.txt of the snapshots folder",
        "cases/pipe.json: is a FIFO (named pipe), not a regular file",
      ])
    // record writes the good cases and nothing into cases/, and fails.
    let recorded = try recorder.record(
      catalogue.references, mode: .all, caseErrors: catalogue.selectBroken())
    #expect(!recorded.succeeded)
    #expect(recorded.failures.isEmpty)
    #expect(recorded.count(.recorded) == catalogue.references.count)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: cases.path).filter {
        !$0.hasSuffix(".json") && !$0.hasSuffix(".md")
      }.isEmpty)

    let verifier = try engine(snapshots: folder)
    let report = try verifier.verify(
      verifier.catalogue.references, caseErrors: verifier.catalogue.selectBroken())
    #expect(report.count(.passed) == verifier.catalogue.references.count)
    #expect(!report.succeeded)
    let table = SnapshotSummary.text(report)
    let row = table.split(separator: "\n").first {
      $0.hasPrefix("error ") && $0.contains(" broken/(case file) ")
    }
    #expect(
      row?.split(separator: " ") == ["error", "broken/(case", "file)", "-", "-", "-", "-"],
      "\(table)")
    #expect(
      table.contains(
        "ERROR   broken/(case file)\n        cases/broken.json: malformed JSON at line 2, column 1")
    )
    #expect(table.contains(", 6 broken case files in "))
    let junit = JUnitXML.document(report)
    #expect(junit.contains("errors=\"6\""))
    // JUnit names files from the repository root: a snapshots folder outside it, by its absolute path.
    let snapshots = folder.standardizedFileURL.path
    #expect(
      junit.contains(
        #"<testcase classname="broken" name="(case file)" file="\#(snapshots)/cases/broken.json">"#)
    )
    #expect(
      junit.contains(
        #"<error type="case-error" message="cases/pipe.json: is a FIFO (named pipe), not a regular file">"#
      ))
    let page = try ReviewReport.write(report, to: folder.appendingPathComponent("review"))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(
      html.contains(
        #"<li class="case-error" data-id="broken/(case file)"><code>\#(snapshots)/cases/broken.json</code>"#
      ))
    #expect(!html.contains("Every reference matches."))

    // A filter selects broken cases by name; shards report them once, in shard 1.
    #expect(catalogue.selectBroken(filter: try SnapshotFilter("broken")).map(\.name) == ["broken"])
    #expect(catalogue.selectBroken(filter: try SnapshotFilter("sample-*/orange-light*")).isEmpty)
    #expect(catalogue.selectBroken(shard: try SnapshotShard(index: 2, count: 2)).isEmpty)
    #expect(catalogue.selectBroken(shard: try SnapshotShard(index: 1, count: 2)).count == 6)

    // prune refuses: the broken cases' references would look like orphans.
    #expect(throws: SnapshotError.self) { try verifier.prune(dryRun: false) }
  }

  @Test(
    "every file of cases/ is read or named: .markdown is a case; .JSON, a sub-folder's case, another file are error rows"
  )
  func everyCaseFileNamed() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1", "demo-bare"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    let list = Data(
      #"{"items": [{"label": "x"}], "variants": {"themes": ["orange"], "modes": ["light"]}}"#.utf8)
    try Data(
      "---\n{\"variants\": {\"themes\": [\"sosh\"], \"modes\": [\"dark\"]}}\n---\n- One\n".utf8
    )
    .write(to: cases.appendingPathComponent("notes.markdown"))
    try list.write(to: cases.appendingPathComponent("upper.JSON"))
    try list.write(to: cases.appendingPathComponent("upper.Md"))
    try FileManager.default.createDirectory(
      at: cases.appendingPathComponent("sub"), withIntermediateDirectories: false)
    try list.write(to: cases.appendingPathComponent("sub/nested.json"))
    try Data("todo".utf8).write(to: cases.appendingPathComponent("todo.txt"))
    try FileManager.default.createDirectory(
      at: cases.appendingPathComponent("empty"), withIntermediateDirectories: false)

    let verifier = try engine(snapshots: folder)
    let catalogue = verifier.catalogue
    // heart.svg is demo-bare's icon: read, so not named.
    #expect(catalogue.cases.map(\.name) == ["demo-bare", "notes", "sample-1"])
    #expect(catalogue.references.contains { $0.id == "notes/sosh-dark@2x" })
    #expect(
      catalogue.brokenCases.map(\.message) == [
        "cases/sub/nested.json: a case file in a sub-folder is not read; move it into cases/ (no case draws it as an icon either)",
        "cases/todo.txt: not a case file (.json, .md, .markdown) and no case draws it as an icon; remove it or move it out of cases/",
        "cases/upper.JSON: not read as a case file: case files end in .json, .md, .markdown in lower case; rename it upper.json",
        "cases/upper.Md: not read as a case file: case files end in .json, .md, .markdown in lower case; rename it upper.md",
      ])
    #expect(
      catalogue.brokenCases.map(\.id) == [
        "sub/nested.json/(case file)", "todo.txt/(case file)", "upper.JSON/(case file)",
        "upper.Md/(case file)",
      ])
    let recorder = try engine(snapshots: folder)
    _ = try recorder.record(recorder.catalogue.references, mode: .all)
    let report = try verifier.verify(
      catalogue.references, caseErrors: catalogue.selectBroken())
    #expect(report.failures.isEmpty)
    #expect(!report.succeeded)
    #expect(SnapshotSummary.text(report).contains(", 4 broken case files in "))
  }

  @Test(
    "a reference PNG or layout JSON that links out of the references folder is an error row, never read; record replaces the link"
  )
  func referenceLinksOut() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let outside = try temporaryFolder("outside")
    defer { try? FileManager.default.removeItem(at: outside) }
    let recorder = try engine(snapshots: folder)
    #expect(try recorder.record(recorder.catalogue.references, mode: .all).succeeded)
    let sample = folder.appendingPathComponent("sample-1")
    // The outside files hold the very bytes of the references: followed, they would pass.
    for name in ["orange-light@2x.png", "sosh-dark.layout.json"] {
      let target = outside.appendingPathComponent(name)
      try FileManager.default.moveItem(at: sample.appendingPathComponent(name), to: target)
      try FileManager.default.createSymbolicLink(
        atPath: sample.appendingPathComponent(name).path, withDestinationPath: target.path)
    }
    let real = FolderReference.realPath(outside.path) ?? outside.path
    let verifier = try engine(snapshots: folder)
    let report = try verifier.verify(verifier.catalogue.references)
    let errors = Dictionary(
      uniqueKeysWithValues: report.outcomes.filter { $0.status == .error }.map {
        ($0.reference.id, $0)
      })
    #expect(errors.count == 2)
    #expect(
      errors["sample-1/orange-light@2x"]?.reason
        == "sample-1/orange-light@2x.png leads outside the references folder through a symbolic link (to \(real)/orange-light@2x.png); re-record it (recording replaces the link with a file)"
    )
    #expect(
      errors["sample-1/sosh-dark@2x"]?.reason
        == "sample-1/sosh-dark.layout.json leads outside the references folder through a symbolic link (to \(real)/sosh-dark.layout.json); re-record it (recording replaces the link with a file)"
    )
    // Nothing of the outside files reaches the artifacts.
    #expect(errors["sample-1/orange-light@2x"]?.evidence?.expectedPNG == nil)
    let artifacts = folder.appendingPathComponent("artifacts")
    try SnapshotArtifacts.write(report, to: artifacts)
    #expect(
      !FileManager.default.fileExists(
        atPath: artifacts.appendingPathComponent("sample-1/orange-light@2x/expected.png").path))

    // Recording the failures replaces the links with files, and leaves their targets alone.
    let target = try Data(contentsOf: outside.appendingPathComponent("orange-light@2x.png"))
    let rerecorded = try recorder.record(recorder.catalogue.references, mode: .failed)
    #expect(rerecorded.succeeded)
    #expect(
      UserFile.type(atPath: sample.appendingPathComponent("orange-light@2x.png").path) == .regular)
    #expect(
      try Data(contentsOf: outside.appendingPathComponent("orange-light@2x.png")) == target)
    #expect(try verifier.verify(verifier.catalogue.references).succeeded)
  }

  @Test(
    "a token that fails every render of its theme stops verify with one error, before any render")
  func tokenErrorOnce() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    try edit(
      themes.appendingPathComponent("components/bullet-list.tokens.json"),
      replacing: #""$value": "{space.column-gap.small}"\#n        },\#n        "body-medium""#,
      with: #""$value": "{space.column-gap.medium}"\#n        },\#n        "body-medium""#)
    let verifier = try engine(snapshots: folder, themes: themes)
    do {
      let report = try verifier.verify(verifier.catalogue.references)
      Issue.record("verify ran: \(report.failures.count) failures")
    } catch {
      #expect(
        "\(error)"
          == "components/bullet-list.tokens.json: bullet-list.space.column-gap.body-large: alias {space.column-gap.medium} points to no token"
      )
    }
  }

  @Test("an unreadable reference (not a PNG, a FIFO, a folder) fails only its own row")
  func badReferences() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let recorder = try engine(snapshots: folder)
    #expect(try recorder.record(recorder.catalogue.references, mode: .all).succeeded)
    let sample = folder.appendingPathComponent("sample-1")
    try Data("not a PNG".utf8).write(to: sample.appendingPathComponent("orange-light@2x.png"))
    try FileManager.default.removeItem(at: sample.appendingPathComponent("sosh-dark@2x.png"))
    #expect(mkfifo(sample.appendingPathComponent("sosh-dark@2x.png").path, 0o644) == 0)
    try FileManager.default.removeItem(
      at: sample.appendingPathComponent("wireframe-light.layout.json"))
    try FileManager.default.createDirectory(
      at: sample.appendingPathComponent("wireframe-light.layout.json"),
      withIntermediateDirectories: false)

    let verifier = try engine(snapshots: folder)
    let report = try verifier.verify(verifier.catalogue.references)
    let errors = Dictionary(
      uniqueKeysWithValues: report.outcomes.filter { $0.status == .error }.map {
        ($0.reference.id, $0.reason)
      })
    #expect(errors.count == 3)
    #expect(
      errors["sample-1/orange-light@2x"]?.hasPrefix(
        "sample-1/orange-light@2x.png is not a readable PNG (") == true)
    #expect(
      errors["sample-1/sosh-dark@2x"]
        == "sample-1/sosh-dark@2x.png: is a FIFO (named pipe), not a regular file; re-record it")
    #expect(
      errors["sample-1/wireframe-light@2x"]
        == "sample-1/wireframe-light.layout.json: is a folder, not a regular file; re-record it")
    #expect(report.count(.passed) == report.outcomes.count - 3)
    #expect(JUnitXML.document(report).contains("errors=\"3\""))
  }

  @Test(
    "record waits for another run's lock, then fails naming the holder; it works once the lock is free"
  )
  func recordLock() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    var holder: SnapshotLock? = try SnapshotLock.acquire(
      in: folder, timeout: 0, command: "test holder")
    var configuration = SnapshotConfiguration(
      snapshotsDirectory: folder, themesDirectory: Repo.themes)
    configuration.lockTimeout = 0.3
    let second = try SnapshotEngine(configuration: configuration)
    let start = Date()
    do {
      _ = try second.record(second.catalogue.references, mode: .all)
      Issue.record("a second record ran while the lock was held")
    } catch {
      let message = "\(error)"
      #expect(
        message.hasPrefix(
          "\(folder.path)/.record.lock: another run is writing this snapshots folder (held by pid \(getpid()) (test holder) since "
        ), "\(message)")
      #expect(
        message.hasSuffix("); waited 0 s: let it finish or stop it, then run again"), "\(message)")
    }
    #expect(Date().timeIntervalSince(start) >= 0.3)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("sample-1").path))
    #expect(throws: SnapshotError.self) { try second.prune(dryRun: false) }
    holder = nil
    _ = holder
    #expect(try second.record(second.catalogue.references, mode: .all).succeeded)
  }

  @Test(
    "verify shares the lock with other verify runs, waits for a record then fails naming it; a record waits for verify runs"
  )
  func verifyLock() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = SnapshotConfiguration(
      snapshotsDirectory: folder, themesDirectory: Repo.themes)
    configuration.lockTimeout = 0.3
    let engine = try SnapshotEngine(configuration: configuration)
    let references = engine.catalogue.references
    #expect(try engine.record(references, mode: .all).succeeded)

    // A record (another process) is rewriting the references: verify compares nothing half-written.
    var writer: SnapshotLock? = try SnapshotLock.acquire(
      in: folder, timeout: 0, command: "snapshot record")
    let start = Date()
    do {
      _ = try engine.verify(references)
      Issue.record("verify ran while a record held the lock")
    } catch {
      let message = "\(error)"
      #expect(
        message.hasPrefix(
          "\(folder.path)/.record.lock: another run is writing this snapshots folder (held by pid \(getpid()) (snapshot record) since "
        ), "\(message)")
      #expect(
        message.hasSuffix("); waited 0 s: let it finish or stop it, then run again"), "\(message)")
    }
    #expect(Date().timeIntervalSince(start) >= 0.3)
    writer = nil
    _ = writer

    // Another verify (a CI shard of the same checkout) reading at the same time does not block it…
    var reader: SnapshotLock? = try SnapshotLock.acquireShared(in: folder, timeout: 0)
    let shared = try engine.verify(references)
    #expect(shared.succeeded)
    #expect(shared.outcomes.count == references.count)
    // …but a record waits for the readers, then says a verify is reading.
    do {
      _ = try engine.record(references, mode: .all)
      Issue.record("record ran while a verify held the lock")
    } catch {
      #expect(
        "\(error)"
          == "\(folder.path)/.record.lock: another run is reading this snapshots folder (snapshot verify); waited 0 s: let it finish or stop it, then run again"
      )
    }
    reader = nil
    _ = reader
    #expect(try engine.record(references, mode: .all).succeeded)
  }

  @Test(
    "verify of a snapshots folder it cannot write, without a lock file, reads it without a lock")
  func verifyReadOnlyFolder() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1"])
    let engine = try engine(snapshots: folder)
    #expect(try engine.record(engine.catalogue.references, mode: .all).succeeded)
    try FileManager.default.removeItem(at: folder.appendingPathComponent(SnapshotLock.fileName))
    // No file can be created in the folder: by its mode, or for root (who ignores modes), by the
    // immutable attribute.
    let asRoot = geteuid() == 0
    func immutable(_ on: Bool) throws -> Int32 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
      process.arguments = [on ? "+i" : "-i", folder.path]
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    }
    defer {
      if asRoot { _ = try? immutable(false) } else { chmod(folder.path, 0o755) }
      try? FileManager.default.removeItem(at: folder)
    }
    if asRoot { #expect(try immutable(true) == 0) } else { #expect(chmod(folder.path, 0o555) == 0) }
    #expect(open(folder.appendingPathComponent("probe").path, O_WRONLY | O_CREAT, 0o644) < 0)
    #expect(try SnapshotLock.acquireShared(in: folder, timeout: 0) == nil)
    let report = try engine.verify(engine.catalogue.references)
    #expect(report.succeeded)
    #expect(!report.outcomes.isEmpty)
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(SnapshotLock.fileName).path))
  }

  @Test("record removes temporary files an interrupted run left, and only those")
  func staleTemporaryFiles() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let sample = folder.appendingPathComponent("sample-1")
    try FileManager.default.createDirectory(at: sample, withIntermediateDirectories: true)
    let stale = ".orange-light@2x.png.\(UUID().uuidString).tmp"
    let fresh = ".orange-dark@2x.png.\(UUID().uuidString).tmp"
    for name in [stale, fresh, ".notes.tmp", "keep.tmp"] {
      try Data("partial".utf8).write(to: sample.appendingPathComponent(name))
    }
    let hourAgo = Date().addingTimeInterval(-3600)
    for name in [stale, ".notes.tmp", "keep.tmp"] {
      try FileManager.default.setAttributes(
        [.modificationDate: hourAgo], ofItemAtPath: sample.appendingPathComponent(name).path)
    }
    let recorder = try engine(snapshots: folder)
    let report = try recorder.record(recorder.catalogue.references, mode: .all)
    #expect(report.succeeded)
    #expect(report.removedTemporaryFiles == ["sample-1/\(stale)"])
    let left = Set(
      try FileManager.default.contentsOfDirectory(atPath: sample.path).filter {
        $0.hasSuffix(".tmp")
      })
    #expect(left == [fresh, ".notes.tmp", "keep.tmp"])
  }

  @Test("case names: the rules of isValidName")
  func caseNames() {
    for name in ["sample-1", "sample-3.1", "Demo_2", "a"] {
      #expect(SnapshotCatalogue.isValidName(name), "\(name)")
    }
    for name in [
      "", ".", "..", ".hidden", "-dash", "a/b", "a..b", "cases", "CASES", "tab\tname", "é",
      String(repeating: "a", count: 101),
    ] {
      #expect(!SnapshotCatalogue.isValidName(name), "\(name)")
    }
  }
}
