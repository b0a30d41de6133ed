import BulletList
import Foundation
import Scene
import Snapshot
import SnapshotReports
import Testing
import Themes

/// `swift test` runs the same catalogue as `ouds-render snapshot verify`, against `Snapshots/`: the shared
/// run of ``RepositoryRun``, rendered once for the whole test run.
@Suite("The whole catalogue against Snapshots/")
struct CatalogueVerifyTests {
  @Test(
    "every reference of Snapshots/ matches a fresh render (record mode from OUDS_SNAPSHOT_RECORD)")
  func wholeCatalogue() throws {
    let (mode, report) = try RepositoryRun.result.get()
    let references = try engine(snapshots: Repo.snapshots).catalogue.references.map(\.id)
    // Plain values in #expect: describing a report (with its images) on failure takes minutes.
    #expect(report.outcomes.map(\.reference.id) == references, "every reference was rendered once")
    let environment = report.environmentHeadline
    #expect(environment == nil, "the references were recorded in another environment")
    let failing = report.failures.map(\.reference.id)
    var summary = ""
    if !failing.isEmpty {
      let artifacts = Repo.root.appendingPathComponent(SnapshotArtifacts.defaultDirectory)
      try SnapshotArtifacts.write(report, to: artifacts)
      summary = SnapshotSummary.text(report) + "artifacts: \(artifacts.path)"
    }
    #expect(failing.isEmpty, "\(failing.count) of \(references.count) references fail:\n\(summary)")
    let written = report.written
    #expect(
      written.isEmpty,
      "record mode \(mode) wrote \(written.count) files to Snapshots/: \(written.prefix(10).joined(separator: ", ")); re-run to verify"
    )
  }
}

@Suite("Verify and record engines")
struct EngineTests {
  @Test("an identical render passes and writes nothing")
  func identicalPasses() throws {
    let folder = try Baseline.folder.get()
    let before = try snapshotFiles(folder)
    let engine = try engine(snapshots: folder)
    let report = try engine.verify(
      engine.catalogue.select(filter: try SnapshotFilter("sample-3.2,demo-bare")))
    #expect(report.succeeded)
    #expect(report.count(.passed) == report.outcomes.count)
    #expect(
      report.outcomes.allSatisfy {
        $0.diff == .identical && $0.layoutDiff.isEmpty && $0.evidence == nil
      })
    #expect(report.environmentDifferences.isEmpty)
    #expect(try snapshotFiles(folder) == before)
  }

  @Test("a missing reference is a failure, never a pass, and verify writes nothing")
  func missingFails() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let engine = try engine(snapshots: folder)
    let report = try engine.verify(engine.catalogue.references)
    #expect(!report.succeeded)
    #expect(report.failures.count == report.outcomes.count)
    #expect(report.outcomes.allSatisfy { $0.status == .missing })
    #expect(report.failures.first?.reason.contains("no reference: sample-1/") == true)
    // Nothing but the (empty) lock file that verify holds shared while it reads.
    #expect(try snapshotFiles(folder) == [SnapshotLock.fileName: Data()])
  }

  @Test(
    "record --missing writes only what is absent; record --failed rewrites only failures; unchanged files keep their bytes"
  )
  func recordModes() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"],
      variants: ["sample-2": #"{ "themes": ["orange", "sosh"], "modes": ["light"] }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    let engine = try engine(snapshots: folder)
    let references = engine.catalogue.references
    let first = try engine.record([references[0]], mode: .missing)
    #expect(
      Set(first.written) == [
        "sample-2/orange-light@2x.png", "sample-2/orange-light.layout.json", "ENVIRONMENT.json",
      ])
    let png = folder.appendingPathComponent(references[0].imagePath)
    let modified =
      try FileManager.default.attributesOfItem(atPath: png.path)[.modificationDate] as? Date

    let second = try engine.record(references, mode: .missing)
    // ENVIRONMENT.json gains the fonts of sosh, a theme it did not know yet.
    #expect(
      Set(second.written) == [
        "sample-2/sosh-light@2x.png", "sample-2/sosh-light.layout.json", "ENVIRONMENT.json",
      ])
    #expect(
      second.outcomes.first { $0.reference.id == references[0].id }?.status == .skipped,
      "existing: not checked")

    // Corrupt one layout reference: --failed rewrites exactly that file.
    let layout = folder.appendingPathComponent(references[1].layoutPath)
    try "{}\n".write(to: layout, atomically: true, encoding: .utf8)
    let third = try engine.record(references, mode: .failed)
    #expect(third.written == ["sample-2/sosh-light.layout.json"])
    // The files come from the outcome's data, PNG first; the message only shows them.
    let rewritten = try #require(third.outcomes.first { $0.status == .recorded })
    guard case .recorded(let written) = rewritten.result else {
      Issue.record("expected a recorded result, got \(rewritten.result)")
      return
    }
    #expect(written == [references[1].layoutPath])
    #expect(rewritten.message == "wrote sample-2/sosh-light.layout.json")
    #expect(first.outcomes.map(\.written) == [[references[0].imagePath, references[0].layoutPath]])
    let all = try engine.record(references, mode: .all)
    #expect(all.written.isEmpty)
    #expect(
      try FileManager.default.attributesOfItem(atPath: png.path)[.modificationDate] as? Date
        == modified)
    #expect(try engine.verify(references).succeeded)
  }

  @Test("a size change is reported as such, with both sizes")
  func sizeChange() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-3"], variants: ["sample-3": #"{ "themes": ["orange"], "modes": ["light"] }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(
      try engine(snapshots: folder).record(
        try engine(snapshots: folder).catalogue.references, mode: .all
      ).succeeded)
    let file = folder.appendingPathComponent("cases/sample-3.json")
    try edit(
      file, replacing: #"{ "label": "Label 3" }"#,
      with: #"{ "label": "Label 3" }, { "label": "Label 4" }"#)
    let engine = try engine(snapshots: folder)
    let report = try engine.verify(engine.catalogue.references)
    let outcome = try #require(report.failures.first)
    guard case .sizeMismatch(let expected, let actual)? = outcome.diff else {
      Issue.record("expected a size mismatch, got \(String(describing: outcome.diff))")
      return
    }
    #expect(expected.width == actual.width && actual.height > expected.height)
    #expect(outcome.reason.contains("size differs: expected \(expected), actual \(actual)"))
    #expect(
      SnapshotSummary.text(report).contains("size changed: reference \(expected), render \(actual)")
    )
    #expect(outcome.layoutDiff.contains { $0.contains("Label 4") })
  }

  @Test("the environment fingerprint names what differs and the pixel result is still reported")
  func environmentDiffers() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-1"], variants: ["sample-1": #"{ "themes": ["sosh"], "modes": ["light"] }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(
      try engine(snapshots: folder).record(
        try engine(snapshots: folder).catalogue.references, mode: .all
      ).succeeded)
    var recorded = try #require(try SnapshotEnvironment.read(from: folder))
    #expect(
      recorded.fonts["sosh"]?.contains { $0.role == "latin-bold" && $0.file == "Inter-Bold.otf" }
        == true)
    recorded.renderStack.pango = "0.0.1"
    try recorded.write(to: folder)
    let engine = try engine(snapshots: folder)
    let report = try engine.verify(engine.catalogue.references)
    #expect(
      report.environmentHeadline?.hasPrefix("environment differs: pango 0.0.1 in the references")
        == true)
    #expect(report.succeeded, "the pixels still match")
    let lines = SnapshotSummary.text(report).split(separator: "\n")
    #expect(
      lines.first?.hasPrefix("themes: ") == true,
      "the first line says where tokens and fonts came from")
    #expect(lines.dropFirst().first?.hasPrefix("environment differs: pango 0.0.1") == true)
  }

  @Test("prune lists references no case produces, deletes them, and keeps everything else")
  func prune() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"], variants: ["sample-2": #"{ "themes": ["orange"], "modes": ["light"] }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(
      try engine(snapshots: folder).record(
        try engine(snapshots: folder).catalogue.references, mode: .all
      ).succeeded)
    let orphans = [
      "gone-case/orange-light@2x.png", "gone-case/orange-light.layout.json",
      "sample-2/orange-dark@2x.png",
    ]
    for path in orphans {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent(path).deletingLastPathComponent(),
        withIntermediateDirectories: true)
      try Data([1]).write(to: folder.appendingPathComponent(path))
    }
    try Data("notes".utf8).write(to: folder.appendingPathComponent("README.md"))
    let engine = try engine(snapshots: folder)
    #expect(try engine.orphans() == orphans.sorted())
    #expect(try engine.prune(dryRun: true) == orphans.sorted())
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(orphans[0]).path))
    #expect(try engine.prune(dryRun: false) == orphans.sorted())
    #expect(try engine.orphans().isEmpty)
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("gone-case").path))
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path))
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("cases/sample-2.json").path))
    #expect(try engine.verify(engine.catalogue.references).succeeded)
  }

  @Test("the repository's Snapshots/ has no orphans")
  func repositoryHasNoOrphans() throws {
    let engine = try engine(snapshots: Repo.snapshots)
    #expect(try engine.orphans() == [])
  }
}

/// Every file under a snapshots folder except the case files, relative paths.
func snapshotFiles(_ folder: URL) throws -> [String: Data] {
  var files: [String: Data] = [:]
  let enumerator = FileManager.default.enumerator(atPath: folder.path)
  while let path = enumerator?.nextObject() as? String {
    guard !path.hasPrefix("cases") else { continue }
    var isDirectory: ObjCBool = false
    let url = folder.appendingPathComponent(path)
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      files[path] = try Data(contentsOf: url)
    }
  }
  return files
}
