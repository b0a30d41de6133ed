import Fonts
import Foundation
import Primitives
import Testing

@testable import Graphics
@testable import Themes

@Suite("Reference token copy")
struct ReferenceCopyTests {
  /// The vendored copy's checksum file, in `sha256sum` format (`<hex>  <file>`).
  static let checksumFile = Fixture.vendoredReferenceDirectory.appendingPathComponent("SHA256SUMS")

  /// `file name → SHA-256` from the checksum file.
  static func checksums() throws -> [String: String] {
    var sums: [String: String] = [:]
    let text = try String(contentsOf: checksumFile, encoding: .utf8)
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      let name =
        parts.count == 2 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " *")) : ""
      try #require(
        parts.count == 2 && parts[0].count == 64 && !name.isEmpty,
        "SHA256SUMS: malformed line \"\(line)\"")
      try #require(
        sums.updateValue(String(parts[0]), forKey: name) == nil, "SHA256SUMS: \(name) listed twice")
    }
    return sums
  }

  @Test(
    "the copy kept with the tests is exactly the one SHA256SUMS records: every theme, no other file, every hash"
  )
  func copyMatchesChecksums() throws {
    let sums = try Self.checksums()
    let files = try FileManager.default.contentsOfDirectory(
      atPath: Fixture.vendoredReferenceDirectory.path
    )
    .filter { $0.hasSuffix(".json") }
    #expect(Set(sums.keys) == Set(ThemeName.allCases.map { "\($0.rawValue).json" }))
    #expect(
      Set(files) == Set(sums.keys), "every vendored file is listed in SHA256SUMS, and only those")
    for (name, expected) in sums.sorted(by: { $0.key < $1.key }) {
      let data = try Data(
        contentsOf: Fixture.vendoredReferenceDirectory.appendingPathComponent(name))
      #expect(
        SHA256Digest.hex(of: data) == expected,
        "\(name) differs from the copy recorded in SHA256SUMS: restore it, or refresh it from ../shared/reference and its line"
      )
    }
  }

  @Test(
    "the copy kept with the tests equals ../shared/reference",
    .enabled(
      if: FileManager.default.fileExists(atPath: Fixture.sharedReferenceDirectory.path),
      "no ../shared/reference/ouds/tokens beside this checkout to compare with"),
    arguments: ThemeName.allCases)
  func copyIsCurrent(theme: ThemeName) throws {
    let shared = Fixture.sharedReferenceDirectory.appendingPathComponent("\(theme.rawValue).json")
    let copy = Fixture.vendoredReferenceDirectory.appendingPathComponent("\(theme.rawValue).json")
    #expect(
      try Data(contentsOf: shared) == Data(contentsOf: copy),
      "refresh Tests/ThemesTests/ReferenceTokens and its SHA256SUMS from \(shared.path)")
  }
}
