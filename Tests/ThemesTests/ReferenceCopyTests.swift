import Foundation
import Testing

@testable import Themes

@Suite("Reference token copy")
struct ReferenceCopyTests {
  @Test("the copy kept with the tests equals ../shared/reference when that is present",
    arguments: ThemeName.allCases)
  func copyIsCurrent(theme: ThemeName) throws {
    let shared = Fixture.sharedReferenceDirectory.appendingPathComponent("\(theme.rawValue).json")
    let copy = Fixture.vendoredReferenceDirectory.appendingPathComponent("\(theme.rawValue).json")
    let copyData = try Data(contentsOf: copy)
    #expect(!copyData.isEmpty)
    guard FileManager.default.fileExists(atPath: shared.path) else { return }  // nothing to compare with
    #expect(try Data(contentsOf: shared) == copyData, "refresh Tests/ThemesTests/ReferenceTokens from \(shared.path)")
  }
}
