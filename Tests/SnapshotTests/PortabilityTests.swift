import BulletList
import Foundation
import OUDSSnapshotTesting
import PixelDiff
import Snapshot
import SnapshotReports
import Testing
import Themes

/// References must pass in any checkout (CI clones elsewhere), `record --missing` must only add,
/// and the verify table must say what changed in words.
@Suite("Location-independent references, record --missing, the verify table")
struct PortabilityTests {
  /// What depends on where the checkout is: icon files (found relative to the case files) and the
  /// themes folder. So the relocated copy verifies every reference with an icon file, and a sample of
  /// every theme × mode; the whole catalogue is verified in place by `CatalogueVerifyTests`.
  @Test(
    "a copy of Snapshots/ and Themes/ in another folder verifies: every reference with an icon file, and every theme × mode"
  )
  func relocatedCheckoutVerifies() throws {
    let checkout = try temporaryFolder("relocated-checkout")
    defer { try? FileManager.default.removeItem(at: checkout) }
    let snapshots = checkout.appendingPathComponent("Snapshots")
    let themes = checkout.appendingPathComponent("Themes")
    try FileManager.default.copyItem(at: Repo.snapshots, to: snapshots)
    try FileManager.default.copyItem(at: Repo.themes, to: themes)
    let engine = try engine(snapshots: snapshots, themes: themes)
    let all = engine.catalogue.references
    var withIcons = Set<String>()
    for reference in all {
      let layout = try String(
        contentsOf: snapshots.appendingPathComponent(reference.layoutPath), encoding: .utf8)
      if layout.contains(#""imageFile" : ""#) { withIcons.insert(reference.id) }
    }
    let chosen = withIcons.union(controlSample(of: all, excluding: withIcons, perThemeAndMode: 2))
    let slice = all.filter { chosen.contains($0.id) }
    let report = try engine.verify(slice)
    // Plain values only: Swift Testing would describe a whole report (with images) on failure.
    let verified = report.outcomes.map(\.reference.id)
    let failing = report.failures.map(\.reference.id)
    let summary =
      failing.isEmpty
      ? "" : SnapshotSummary.table(report.failures).prefix(20).joined(separator: "\n")
    #expect(!withIcons.isEmpty)
    #expect(
      Set(slice.map { "\($0.variant.theme.rawValue)-\($0.variant.mode.rawValue)" }).count == 8)
    #expect(verified == slice.map(\.id))
    #expect(
      failing.isEmpty, "\(failing.count) references fail in a relocated checkout:\n\(summary)")
  }

  @Test("no stored layout JSON holds an absolute path of this checkout")
  func storedLayoutsHoldNoCheckoutPath() throws {
    let engine = try engine(snapshots: Repo.snapshots)
    var icons = 0
    for path in Set(engine.catalogue.references.map(\.layoutPath)) {
      let text = try String(
        contentsOf: Repo.snapshots.appendingPathComponent(path), encoding: .utf8)
      #expect(!text.contains(Repo.root.path + "/"), "\(path)")
      icons += text.components(separatedBy: #""imageFile" : "cases/heart.svg""#).count - 1
    }
    #expect(icons > 0, "the catalogue has free icons, stored relative to Snapshots/")
  }

  @Test(
    "icon paths: relative to the snapshots folder, else to the source folder, else the file name")
  func portablePaths() throws {
    let root = try temporaryFolder("portable")
    defer { try? FileManager.default.removeItem(at: root) }
    let snapshots = root.appendingPathComponent("Snapshots")
    let tests = root.appendingPathComponent("Tests/Mine")
    func portable(_ file: String, source: URL? = tests) -> String {
      SnapshotLayout.portablePath(of: file, snapshotsDirectory: snapshots, sourceDirectory: source)
    }
    #expect(portable(snapshots.path + "/cases/heart.svg") == "cases/heart.svg")
    #expect(portable(snapshots.path + "/cases/../cases/heart.svg") == "cases/heart.svg")
    #expect(portable(tests.path + "/icons/star.png") == "icons/star.png")
    #expect(portable(tests.path + "/icons/star.png", source: nil) == "star.png")
    #expect(portable("/elsewhere/icons/star.svg") == "star.svg")
    #expect(
      portable(root.path + "/SnapshotsOther/x.svg") == "x.svg", "a name prefix is not a folder")

    // A symbolic link to the snapshots folder is the same folder.
    try FileManager.default.createDirectory(
      at: snapshots.appendingPathComponent("cases"), withIntermediateDirectories: true)
    let link = root.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: snapshots)
    #expect(
      SnapshotLayout.portablePath(
        of: snapshots.path + "/cases/a.svg", snapshotsDirectory: link, sourceDirectory: nil)
        == "cases/a.svg")
  }

  @Test(
    "assertSnapshot stores a free icon relative to the test file's folder, and passes from a moved copy"
  )
  func assertSnapshotIconIsRelative() throws {
    let first = try temporaryFolder("assert-icon")
    let moved = try temporaryFolder("assert-icon-moved")
    defer {
      try? FileManager.default.removeItem(at: first)
      try? FileManager.default.removeItem(at: moved)
    }
    func setUp(_ folder: URL) throws -> (list: OUDSBulletList, testFile: String) {
      let icons = folder.appendingPathComponent("icons")
      try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: Repo.cases.appendingPathComponent("heart.svg"),
        to: icons.appendingPathComponent("heart.svg"))
      let list = OUDSBulletList(
        type: .unordered(
          asset: .icon(OUDSBulletList.Icon(file: icons.appendingPathComponent("heart.svg").path)),
          isBranded: false),
        textStyle: .bodyMedium, isBold: false, items: [OUDSBulletList.Item("Loved")])
      return (list, folder.appendingPathComponent("IconTests.swift").path)
    }
    let (list, testFile) = try setUp(first)
    let recorded = verifySnapshot(
      of: list, theme: .orange, mode: .light, named: "icon",
      settings: SnapshotTestSettings(record: .all),
      filePath: testFile, environment: [:])
    #expect(recorded?.contains("recorded") == true)
    let layout = try String(
      contentsOf: first.appendingPathComponent(
        "__Snapshots__/IconTests/icon/orange-light.layout.json"), encoding: .utf8)
    #expect(layout.contains(#""imageFile" : "icons/heart.svg""#))
    #expect(!layout.contains(first.path))

    let (movedList, movedTestFile) = try setUp(moved)
    try FileManager.default.copyItem(
      at: first.appendingPathComponent("__Snapshots__"),
      to: moved.appendingPathComponent("__Snapshots__"))
    let settings = SnapshotTestSettings(
      record: .never, artifactsDirectory: moved.appendingPathComponent("artifacts"))
    #expect(
      verifySnapshot(
        of: movedList, theme: .orange, mode: .light, named: "icon", settings: settings,
        filePath: movedTestFile, environment: [:])
        == nil)
  }

  @Test(
    "record --missing writes only absent files, does not compare existing references, and succeeds")
  func recordMissingOnlyAdds() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"],
      variants: ["sample-2": #"{ "themes": ["orange", "sosh"], "modes": ["light"] }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    let engine = try engine(snapshots: folder)
    let references = engine.catalogue.references
    #expect(try engine.record(references, mode: .all).succeeded)
    // Reference 0 now differs from a render (a foreign layout); reference 1 has lost its PNG.
    let changedLayout = folder.appendingPathComponent(references[0].layoutPath)
    try "{}\n".write(to: changedLayout, atomically: true, encoding: .utf8)
    let survivingLayout = try Data(
      contentsOf: folder.appendingPathComponent(references[1].layoutPath))
    try FileManager.default.removeItem(at: folder.appendingPathComponent(references[1].imagePath))

    let report = try engine.record(references, mode: .missing)
    #expect(report.succeeded)
    #expect(report.written == [references[1].imagePath])
    #expect(report.outcomes.map(\.status) == [.skipped, .recorded])
    #expect(
      try String(contentsOf: changedLayout, encoding: .utf8) == "{}\n",
      "an existing reference is not rewritten")
    #expect(
      try Data(contentsOf: folder.appendingPathComponent(references[1].layoutPath))
        == survivingLayout)
    let totals = SnapshotSummary.missingTotals(report)
    #expect(
      totals.hasPrefix(
        "record --missing: wrote 1 file for 1 reference; 1 already existed (not checked) in "))
    #expect(SnapshotSummary.totals(report).contains("1 not checked"))

    // The test-suite side: under `missing` an existing, different reference is compared (and fails) …
    var other = RecordModeTests.list
    other.items[0] = OUDSBulletList.Item("Different")
    let refs = folder.appendingPathComponent("refs")
    let settings = SnapshotTestSettings(
      directory: refs, record: .missing,
      artifactsDirectory: folder.appendingPathComponent("artifacts"))
    // … but writing one still fails the test once.
    #expect(
      verifySnapshot(
        of: RecordModeTests.list, theme: .orange, mode: .light, named: "m", settings: settings,
        environment: [:])?.contains("recorded") == true)
    #expect(
      verifySnapshot(
        of: other, theme: .orange, mode: .light, named: "m", settings: settings, environment: [:])?
        .contains("pixels differ") == true)
    #expect(
      verifySnapshot(
        of: RecordModeTests.list, theme: .orange, mode: .light, named: "m", settings: settings,
        environment: [:]) == nil)
    var never = settings
    never.record = .never
    #expect(
      verifySnapshot(
        of: other, theme: .orange, mode: .light, named: "m", settings: never, environment: [:])
        != nil)
  }

  @Test("a layout-only change reads 'layout' with identical pixels, aligned")
  func layoutOnlyTable() throws {
    func outcome(_ caseName: String, _ diff: DiffResult?, layout: [String]) -> SnapshotOutcome {
      SnapshotOutcome(
        reference: SnapshotReference(
          caseName: caseName, variant: SnapshotVariant(theme: .orange, mode: .light),
          list: RecordModeTests.list),
        result: .failed(SnapshotFailure(kind: .changed, diff: diff, layoutDiff: layout)))
    }
    let layoutOnly = outcome("moved", .identical, layout: [" {", #"-  "x" : 96"#, #"+  "x" : 56"#])
    #expect(SnapshotSummary.displayStatus(layoutOnly) == "layout")
    let rows = SnapshotSummary.table([layoutOnly])
    #expect(rows[0].hasPrefix("STATUS  REFERENCE              PIXELS     RATIO  REGIONS  LAYOUT"))
    #expect(rows[1] == "layout  moved/orange-light@2x  identical  -      -        2 lines")
    let text = SnapshotSummary.text(SnapshotRunReport(outcomes: [layoutOnly]))
    #expect(text.contains("LAYOUT  moved/orange-light@2x"))
    #expect(text.contains("        pixels: identical"))
    #expect(!text.contains("PIXELS 0") && !text.contains("changed "))
  }

  @Test(
    "verify's default artifacts folder is .build/snapshot-artifacts beside the snapshots folder")
  func defaultArtifactsFolder() {
    #expect(
      SnapshotArtifacts.defaultDirectory(
        forSnapshots: URL(fileURLWithPath: "/ci/checkout/Snapshots")
      ).path
        == "/ci/checkout/.build/snapshot-artifacts")
    #expect(
      SnapshotArtifacts.defaultDirectory(
        forSnapshots: URL(fileURLWithPath: "/ci/checkout/Snapshots/")
      ).path
        == "/ci/checkout/.build/snapshot-artifacts")
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    #expect(
      SnapshotArtifacts.defaultDirectory(forSnapshots: URL(fileURLWithPath: "Snapshots"))
        .standardizedFileURL.path
        == here.appendingPathComponent(SnapshotArtifacts.defaultDirectory).standardizedFileURL.path,
      "from the repository root: the same folder as before")
  }
}
