import BulletList
import Foundation
import OUDSSnapshotTesting
import XCTest

/// `assertSnapshot` from an XCTest test case: a recorded reference passes without a failure.
final class XCTestAssertSnapshotTests: XCTestCase {
  func testAssertSnapshotPassesInXCTest() throws {
    let folder = try temporaryFolder("xctest")
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = OUDSBulletList(
      type: .unordered(asset: .tick, isBranded: false), items: [OUDSBulletList.Item("Only item")])
    let recorded = verifySnapshot(
      of: list, theme: .sosh, mode: .light, named: "xctest",
      settings: SnapshotTestSettings(directory: folder, record: .missing),
      environment: [:])
    XCTAssertEqual(recorded?.contains("recorded a new reference"), true)
    assertSnapshot(
      of: list, theme: .sosh, mode: .light, named: "xctest",
      settings: SnapshotTestSettings(directory: folder, record: .never))
    XCTAssertNil(
      verifySnapshot(
        of: list, theme: .sosh, mode: .light, named: "xctest",
        settings: SnapshotTestSettings(directory: folder, record: .never)))
  }
}
