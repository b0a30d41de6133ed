import Foundation
import Testing

@testable import Themes

@Suite("Font manifests")
struct FontManifestTests {
  @Test("every manifest file exists (its SHA-256 is checked in GraphicsTests, where fonts are hashed)",
    arguments: ThemeName.allCases)
  func manifestMatchesDisk(name: ThemeName) throws {
    let library = try Fixture.loadLibrary()
    let manifest = try library.fontManifest(for: name)
    #expect(manifest.theme == name)
    #expect(!manifest.files.isEmpty)
    for file in manifest.files {
      #expect(FileManager.default.fileExists(atPath: file.path), "\(file.path) is missing")
      #expect(file.sha256.count == 64 && file.sha256.allSatisfy(\.isHexDigit))
      #expect(file.debianPackage?.hasPrefix("fonts-") == true)
    }
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
}
