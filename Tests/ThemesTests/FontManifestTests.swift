import Foundation
import Testing

@testable import Themes

@Suite("Font manifests")
struct FontManifestTests {
  @Test("every manifest file exists and its SHA-256 matches the file on disk", arguments: ThemeName.allCases)
  func manifestMatchesDisk(name: ThemeName) throws {
    let library = try Fixture.loadLibrary()
    let manifest = try library.fontManifest(for: name)
    #expect(manifest.theme == name)
    #expect(!manifest.files.isEmpty)
    for file in manifest.files {
      #expect(FileManager.default.fileExists(atPath: file.path), "\(file.path) is missing")
      #expect(try FontDigest.sha256Hex(ofFileAt: file.path) == file.sha256, "\(file.path)")
      #expect(file.debianPackage?.hasPrefix("fonts-") == true)
    }
    #expect(throws: Never.self) { try library.verifyFonts(for: name) }
  }

  @Test("manifests hold the faces their theme uses", arguments: ThemeName.allCases)
  func facesMatchTheme(name: ThemeName) throws {
    let library = try Fixture.loadLibrary()
    let theme = try library.theme(name, mode: .light)
    let manifest = try library.fontManifest(for: name)
    let roles = Set(manifest.files.map(\.role))
    #expect(roles.contains("arabic-regular") && roles.contains("arabic-bold"))
    #expect(roles.contains("latin-bold"))
    #expect(roles.contains(name == .sosh ? "latin-medium" : "latin-regular"))
    #expect(roles.contains { $0.hasSuffix("italic") } == theme.allowsItalic)
    for file in manifest.files {
      let family = try #require(file.family)
      #expect(theme.fontFamilies.dropFirst().contains(family), "\(family) is not a substitute of \(name)")
    }
  }

  @Test("a changed font file is reported with both digests")
  func digestMismatch() throws {
    let lib = try Fixture.loadLibrary()
    let real = try #require(try lib.fontManifest(for: .sosh).files.first)
    let bogus = String(repeating: "0", count: 64)
    let dir = try Fixture.modifiedCopy(of: "fonts/sosh.fonts.json", replacing: [(real.sha256, bogus)])
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.verifyFonts(for: .sosh) }?.description
        == "fonts/sosh.fonts.json: \(real.path): SHA-256 is \(real.sha256) but the manifest says \(bogus) (the package changed; update the manifest)"
    )
  }

  @Test("SHA-256 matches the standard test vectors and sha256sum")
  func sha256() throws {
    #expect(FontDigest.sha256Hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(FontDigest.sha256Hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      FontDigest.sha256Hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      FontDigest.sha256Hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
