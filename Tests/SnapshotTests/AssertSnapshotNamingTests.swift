import BulletList
import Foundation
import OUDSSnapshotTesting
import Snapshot
import Testing
import Themes
import Threads

@Suite("assertSnapshot names itself, sweeps variants and says how to accept")
struct AssertSnapshotNamingTests {
  static let list = OUDSBulletList(
    type: .ordered, textStyle: .bodyMedium, isBold: false,
    items: [OUDSBulletList.Item("First"), OUDSBulletList.Item("Second")])

  @Test("without named:, the reference is named after the Swift Testing test, else the function")
  func namesItself() async {
    #expect(testSnapshotName(function: "ignored()") == "namesItself")
    // Outside a Swift Testing test (XCTest), the calling function's name.
    let outside = await Task.detached { testSnapshotName(function: "testOnboarding()") }.value
    #expect(outside == "testOnboarding")
    let odd = await Task.detached { testSnapshotName(function: "check(list: with spaces)") }.value
    #expect(odd == "check")
  }

  @Test("one call sweeps themes × modes × platforms and reports every failing variant")
  func sweepReportsEachVariant() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let reported = Locked<[String]>([])
    // Deliberate: the sweep must fail the calling test once per failing variant. The four
    // issues are matched and counted here; any other issue, or a missing one, fails this test.
    withKnownIssue {
      assertSnapshots(
        of: Self.list, themes: [.orange, .sosh], modes: [.light], platforms: [.ios, .android],
        settings: SnapshotTestSettings(
          directory: folder.appendingPathComponent("refs"), record: .never,
          artifactsDirectory: folder.appendingPathComponent("artifacts")))
    } matching: { issue in
      let text = (issue.error as? SnapshotTestIssue)?.message ?? ""
      reported.withLock { $0.append(String(text.prefix { $0 != ":" })) }
      return text.hasPrefix("Snapshot missing: sweepReportsEachVariant/")
    }
    // Four variants, four issues, each its own reference (Android's with the suffix).
    #expect(reported.withLock { $0 } == Array(repeating: "Snapshot missing", count: 4))
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path),
      "record mode never writes nothing")
  }

  @Test("a changed reference is titled, names its pictures and says how to accept it")
  func changedSaysHowToAccept() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let settings = SnapshotTestSettings(
      directory: folder.appendingPathComponent("refs"), record: .missing,
      artifactsDirectory: folder.appendingPathComponent("artifacts"))
    let recorded = verifySnapshot(
      of: Self.list, theme: .orange, mode: .light, named: "accept", settings: settings)
    #expect(recorded?.contains("\nrecorded a new reference in ") == true)
    let other = OUDSBulletList(
      type: .ordered, textStyle: .bodyMedium, isBold: false,
      items: [OUDSBulletList.Item("First"), OUDSBulletList.Item("Third")])
    let message = try #require(
      verifySnapshot(
        of: other, theme: .orange, mode: .light, named: "accept",
        settings: SnapshotTestSettings(
          directory: folder.appendingPathComponent("refs"), record: .never,
          artifactsDirectory: folder.appendingPathComponent("artifacts"))))
    #expect(message.hasPrefix("Snapshot changed: accept/orange-light@2x\n"), "\(message)")
    #expect(
      message.contains(
        "accept, after reviewing it: OUDS_SNAPSHOT_RECORD=failed swift test --filter changedSaysHowToAccept"
      ), "\(message)")
    let artifacts = folder.appendingPathComponent("artifacts/accept/orange-light@2x")
    for picture in ["expected.png", "actual.png", "diff.png"] {
      #expect(
        FileManager.default.fileExists(atPath: artifacts.appendingPathComponent(picture).path),
        "\(picture) is written, and attached to the issue")
    }
  }
}
