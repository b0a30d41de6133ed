import Foundation
import Primitives
import Testing
import Themes

@testable import Fonts
@testable import Graphics

@Suite("Font hashes")
struct FontHashTests {
  @Test(
    "every manifest file is found by name with its manifest's SHA-256, and declares its family",
    arguments: ThemeName.allCases)
  func manifestHashes(theme: ThemeName) throws {
    let manifest = try ThemeLibrary(directory: Fixtures.themesDirectory).fontManifest(for: theme)
    let fonts = try FontSet(sources: Fixtures.sources(manifest))
    #expect(fonts.files.count == manifest.files.count)
    for declared in manifest.files {
      let loaded = try #require(fonts.files.first { $0.fileName == declared.fileName })
      #expect(
        loaded.sha256 == declared.sha256,
        "\(loaded.url.path): run sha256sum and update the manifest")
      #expect(SHA256Digest.hex(ofFileAt: loaded.url) == declared.sha256)
      #expect(loaded.family == declared.family)
    }
  }

  @Test("a file hashed in pieces has the same SHA-256 as its bytes hashed at once")
  func streamedHash() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-hash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // 2.5 MiB crosses the 1 MiB read size twice and ends mid-piece.
    let bytes = Data((0..<(5 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    let file = folder.appendingPathComponent("blob.bin")
    try bytes.write(to: file)
    #expect(SHA256Digest.hex(ofFileAt: file) == SHA256Digest.hex(of: bytes))
    #expect(SHA256Digest.hex(ofFileAt: folder.appendingPathComponent("absent.bin")) == nil)
  }

  @Test("SHA-256 matches the standard test vectors")
  func vectors() {
    #expect(
      SHA256Digest.hex(of: Data())
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256Digest.hex(of: Data("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256Digest.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256Digest.hex(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
