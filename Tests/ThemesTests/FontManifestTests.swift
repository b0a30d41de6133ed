import Foundation
import Primitives
import Testing

@testable import Themes

@Suite("Font manifests")
struct FontManifestTests {
  @Test(
    "every manifest file is a file name with a SHA-256 and a Debian package, never a path (GraphicsTests finds and hashes them)",
    arguments: ThemeName.allCases)
  func manifestNamesFiles(name: ThemeName) throws {
    let library = try Fixture.loadLibrary()
    let manifest = try library.fontManifest(for: name)
    #expect(manifest.theme == name)
    #expect(!manifest.files.isEmpty)
    for file in manifest.files {
      #expect(!file.fileName.contains("/") && FontFile.isValidFileName(file.fileName))
      #expect([".ttf", ".otf"].contains { file.fileName.hasSuffix($0) })
      #expect(file.sha256.count == 64 && file.sha256.allSatisfy(\.isHexDigit))
      #expect(file.debianPackage?.hasPrefix("fonts-") == true)
    }
    let text = try String(
      contentsOf: Fixture.themesDirectory.appendingPathComponent(
        ThemeLibrary.fontManifestFileName(for: name)), encoding: .utf8)
    #expect(!text.contains("/usr/"), "no absolute font path in the manifest")
  }

  @Test(
    "a manifest entry with a path, a folder in the file name, or too many files is an error naming it",
    arguments: [
      (
        #""file": "LiberationSans-Regular.ttf""#,
        #""path": "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf""#,
        #"fonts/orange.fonts.json: files[0].path: font files are named by "file" (a file name) and "sha256", not by a path: a path ties the manifest to one machine"#
      ),
      (
        #""file": "LiberationSans-Regular.ttf""#,
        #""file": "../../etc/LiberationSans-Regular.ttf""#,
        #"fonts/orange.fonts.json: files[0].file: expected a file name such as "LiberationSans-Regular.ttf" (no folder)"#
      ),
      (
        #""file": "LiberationSans-Regular.ttf""#, #""file": """#,
        #"fonts/orange.fonts.json: files[0].file: expected a file name such as "LiberationSans-Regular.ttf" (no folder)"#
      ),
    ])
  func badEntry(old: String, new: String, expected: String) throws {
    let copy = try Fixture.modifiedCopy(of: "fonts/orange.fonts.json", replacing: [(old, new)])
    defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
    let library = try ThemeLibrary(directory: copy)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.fontManifest(for: .orange) }?.description
        == expected)
    // The other themes still load.
    #expect(Fixture.error { () throws(ThemeError) in try library.fontManifest(for: .sosh) } == nil)
  }

  @Test("a manifest of more than 64 files is refused")
  func tooManyFiles() throws {
    let entry =
      #"{ "role": "latin-regular", "file": "A.ttf", "sha256": "8d91388f1d3604b3b8ae0e3ee2d140e50cd6122f9214514f4aca772540a4076d" }"#
    let files = Array(repeating: entry, count: 65).joined(separator: ", ")
    let copy = try Fixture.modifiedCopy(
      of: "fonts/orange.fonts.json", replacing: [(#""files": ["#, #""files": [\#(files), "#)])
    defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
    let library = try ThemeLibrary(directory: copy)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.fontManifest(for: .orange) }?.description
        == "fonts/orange.fonts.json: files: 69 font files, more than the 64 a manifest may name")
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
      #expect(
        theme.fontFamilies.dropFirst().contains(family), "\(family) is not a substitute of \(name)")
    }
  }
}
