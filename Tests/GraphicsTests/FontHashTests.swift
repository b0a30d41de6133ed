import Foundation
import Testing
import Themes

@testable import Graphics

@Suite("Font hashes")
struct FontHashTests {
  @Test("the SHA-256 of every loaded font equals its manifest's", arguments: ThemeName.allCases)
  func manifestHashes(theme: ThemeName) throws {
    let manifest = try ThemeLibrary(directory: Fixtures.themesDirectory).fontManifest(for: theme)
    let fonts = try FontSet(manifest: manifest)
    #expect(fonts.files.count == manifest.files.count)
    for declared in manifest.files {
      let loaded = try #require(fonts.files.first { $0.path == declared.path })
      #expect(loaded.sha256 == declared.sha256, "\(declared.path): run sha256sum and update the manifest")
      #expect(loaded.family == declared.family)
    }
  }

  @Test("SHA-256 matches the standard test vectors")
  func vectors() {
    #expect(SHA256Digest.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256Digest.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256Digest.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256Digest.hex(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
