import BulletList
import Foundation
import OUDSSnapshotTesting
import Snapshot
import Testing
import Themes

@Suite("Record modes, CI, and assertSnapshot")
struct RecordModeTests {
  @Test("OUDS_SNAPSHOT_RECORD wins; with CI set the default is never; otherwise missing")
  func modeFromEnvironment() throws {
    #expect(try SnapshotRecordMode.fromEnvironment([:]) == .missing)
    #expect(try SnapshotRecordMode.fromEnvironment(["CI": "true"]) == .never)
    #expect(try SnapshotRecordMode.fromEnvironment(["CI": "1"]) == .never)
    #expect(try SnapshotRecordMode.fromEnvironment(["CI": "false"]) == .missing)
    #expect(
      try SnapshotRecordMode.fromEnvironment(["CI": "true", "OUDS_SNAPSHOT_RECORD": "failed"])
        == .failed)
    for mode in SnapshotRecordMode.allCases {
      #expect(
        try SnapshotRecordMode.fromEnvironment(["OUDS_SNAPSHOT_RECORD": mode.rawValue]) == mode)
    }
    #expect(
      throws: SnapshotError.unknownRecordMode(variable: "OUDS_SNAPSHOT_RECORD", value: "sometimes")
    ) {
      try SnapshotRecordMode.fromEnvironment(["OUDS_SNAPSHOT_RECORD": "sometimes"])
    }
    #expect(
      "\(SnapshotError.unknownRecordMode(variable: "OUDS_SNAPSHOT_RECORD", value: "sometimes\n"))"
        == "OUDS_SNAPSHOT_RECORD=sometimes\\n is not a record mode (use all, missing, failed or never)"
    )
  }

  static let list = OUDSBulletList(
    type: .ordered, textStyle: .bodyMedium, isBold: false,
    items: [OUDSBulletList.Item("First"), OUDSBulletList.Item("Second")])

  @Test("under CI a missing reference fails, nothing is written, and the message says why")
  func missingUnderCI() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let message = verifySnapshot(
      of: Self.list, theme: .orange, mode: .light, named: "two-items",
      settings: SnapshotTestSettings(
        directory: folder.appendingPathComponent("refs"),
        artifactsDirectory: folder.appendingPathComponent("artifacts")),
      environment: ["CI": "true"])
    let text = try #require(message)
    // The title names the reference; the reason follows; exactly one command records it (the
    // CLI's `snapshot record` records the catalogue, not a test's own references).
    let refs = folder.appendingPathComponent("refs").path
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "Snapshot missing: two-items/orange-light@2x")
    #expect(
      lines.dropFirst().first
        == "no reference: two-items/orange-light@2x.png and two-items/orange-light.layout.json missing [record mode never because CI is set]"
    )
    #expect(
      lines.filter { $0.contains("OUDS_SNAPSHOT_RECORD=") }
        == [
          "record it, after reviewing actual.png: OUDS_SNAPSHOT_RECORD=missing swift test --filter missingUnderCI, then commit \(refs)"
        ])
    #expect(!text.contains("ouds-render"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path))
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("artifacts/two-items/orange-light@2x/actual.png").path
      ))
  }

  @Test(
    "locally a missing reference is recorded and the test still fails once; then it passes; a change fails with artifacts"
  )
  func recordThenVerify() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let settings = SnapshotTestSettings(
      directory: folder.appendingPathComponent("refs"),
      artifactsDirectory: folder.appendingPathComponent("artifacts"))
    let first = verifySnapshot(
      of: Self.list, theme: .sosh, mode: .dark, named: "two-items", settings: settings,
      environment: [:])
    #expect(
      first?.hasPrefix("Snapshot recorded: two-items/sosh-dark@2x\nrecorded a new reference in ")
        == true)
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("refs/two-items/sosh-dark@2x.png").path))
    #expect(
      verifySnapshot(
        of: Self.list, theme: .sosh, mode: .dark, named: "two-items", settings: settings,
        environment: [:]) == nil)

    var changed = Self.list
    changed.items[1] = OUDSBulletList.Item("Second, changed")
    let failure = try #require(
      verifySnapshot(
        of: changed, theme: .sosh, mode: .dark, named: "two-items", settings: settings,
        environment: ["CI": "1"]))
    #expect(failure.contains("pixels differ"))
    #expect(failure.contains("Second, changed"))
    for name in ["expected.png", "actual.png", "diff.png"] {
      #expect(
        FileManager.default.fileExists(
          atPath: folder.appendingPathComponent("artifacts/two-items/sosh-dark@2x/\(name)").path))
    }
    // record: .failed rewrites it, and says so.
    var recording = settings
    recording.record = .failed
    let rewrote = verifySnapshot(
      of: changed, theme: .sosh, mode: .dark, named: "two-items", settings: recording,
      environment: [:])
    #expect(
      rewrote?.hasPrefix("Snapshot recorded: two-items/sosh-dark@2x\nrewrote the reference in ")
        == true, "\(rewrote ?? "nil")")
    #expect(failure.split(separator: "\n").first == "Snapshot changed: two-items/sosh-dark@2x")
    #expect(
      failure.split(separator: "\n").filter { $0.contains("OUDS_SNAPSHOT_RECORD=") }
        == [
          "accept, after reviewing it: OUDS_SNAPSHOT_RECORD=failed swift test --filter recordThenVerify"
        ])
    #expect(
      verifySnapshot(
        of: changed, theme: .sosh, mode: .dark, named: "two-items", settings: settings,
        environment: ["CI": "1"]) == nil)
  }

  @Test("assertSnapshot finds references in __Snapshots__ beside the test file")
  func assertSnapshotBesideTheFile() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fakeTestFile = folder.appendingPathComponent("ListTests.swift").path
    let message = verifySnapshot(
      of: Self.list, theme: .wireframe, mode: .light, named: "beside",
      settings: SnapshotTestSettings(record: .all),
      filePath: fakeTestFile, environment: [:])
    #expect(message?.contains("recorded") == true)
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(
          "__Snapshots__/ListTests/beside/wireframe-light@2x.png"
        ).path))
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(
          "__Snapshots__/ListTests/beside/wireframe-light.layout.json"
        ).path))
  }

  @Test(
    "assertSnapshot passes silently against a recorded reference and fails against another list's (Swift Testing)"
  )
  func assertSnapshotPasses() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let settings = SnapshotTestSettings(directory: folder, record: .missing)
    _ = verifySnapshot(
      of: Self.list, theme: .orangeCompact, mode: .dark, named: "assert", settings: settings,
      environment: [:])
    assertSnapshot(
      of: Self.list, theme: .orangeCompact, mode: .dark, named: "assert",
      settings: SnapshotTestSettings(directory: folder, record: .never))
    // It compared: the same call against a reference of another list records an issue (so a
    // silent pass above is a match, not an assertSnapshot that checks nothing).
    let other = OUDSBulletList(
      type: .ordered, textStyle: .bodyMedium, isBold: false,
      items: [OUDSBulletList.Item("First"), OUDSBulletList.Item("Changed")])
    _ = verifySnapshot(
      of: other, theme: .orangeCompact, mode: .dark, named: "assert-other",
      settings: settings, environment: [:])
    withKnownIssue("assertSnapshot must fail against another list's reference") {
      assertSnapshot(
        of: Self.list, theme: .orangeCompact, mode: .dark, named: "assert-other",
        settings: SnapshotTestSettings(
          directory: folder, record: .never,
          artifactsDirectory: folder.appendingPathComponent("artifacts")))
    } matching: { issue in
      (issue.error as? SnapshotTestIssue)?.message.hasPrefix(
        "Snapshot changed: assert-other/orange-compact-dark@2x\n") == true
    }
  }

  /// One of the two deliberate expected failures of the suite (with ``assertSnapshotPasses()``):
  /// it checks that `assertSnapshot` fails the calling test. Any other issue, or none, fails it.
  @Test(
    "assertSnapshot records an Issue at the call site, saying what is missing, when there is no reference"
  )
  func assertSnapshotRecordsIssue() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let settings = SnapshotTestSettings(
      directory: folder, record: .never,
      artifactsDirectory: folder.appendingPathComponent("artifacts"))
    let line = #line
    withKnownIssue("assertSnapshot must fail the test that calls it") {
      assertSnapshot(
        of: Self.list, theme: .orange, mode: .dark, named: "never-recorded", settings: settings,
        line: UInt(line))
    } matching: { issue in
      issue.sourceLocation?.fileName == "RecordModeTests.swift"
        && issue.sourceLocation?.line == line
        && (issue.error as? SnapshotTestIssue)?.message.hasPrefix(
          "Snapshot missing: never-recorded/orange-dark@2x\nno reference: never-recorded/orange-dark@2x.png"
        ) == true
    }
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("never-recorded").path),
      "record: .never writes nothing")
  }
}
