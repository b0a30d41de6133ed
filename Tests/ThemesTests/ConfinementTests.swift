import Foundation
import Testing

@testable import Themes

/// Every file a themes folder names (resolver `$ref`s, marker assets) and every file the loader
/// reads there must stay inside the folder, also through symbolic links.
@Suite("A themes folder reads only its own files")
struct ConfinementTests {
  @Test(
    "a $ref to an absolute path or climbing out with .. is refused, naming the resolver, the source and the reference",
    arguments: [
      (
        "/etc/passwd",
        #"$ref "/etc/passwd" is an absolute path; a reference is a path relative to the themes folder"#
      ),
      (
        "../outside.tokens.json",
        #"$ref "../outside.tokens.json" leaves the themes folder with '..'; a reference must name a file inside it"#
      ),
      (
        "core/../../outside.tokens.json",
        #"$ref "core/../../outside.tokens.json" leaves the themes folder with '..'; a reference must name a file inside it"#
      ),
    ])
  func refOutside(reference: String, message: String) throws {
    let dir = try Fixture.modifiedCopy(
      of: "themes.resolver.json", replacing: [("\"core/font.tokens.json\"", "\"\(reference)\"")])
    defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
    // The file the reference climbs to exists and is a valid token file: only the rule refuses it.
    try FileManager.default.copyItem(
      at: Fixture.themesDirectory.appendingPathComponent("core/font.tokens.json"),
      to: dir.deletingLastPathComponent().appendingPathComponent("outside.tokens.json"))
    #expect(
      Fixture.error { () throws(ThemeError) in try ThemeLibrary(directory: dir) }?.description
        == "themes.resolver.json: sets.core.sources[1]: \(message)")
  }

  @Test("a $ref with .. that stays inside the folder, and a symbolic link inside it, are read")
  func insideIsFine() throws {
    let dir = try Fixture.modifiedCopy(
      of: "themes.resolver.json",
      replacing: [
        ("\"core/font.tokens.json\"", "\"brands/../core/./font.tokens.json\""),
        ("\"core/color.tokens.json\"", "\"linked.tokens.json\""),
      ])
    defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("linked.tokens.json").path,
      withDestinationPath: "core/color.tokens.json")
    let library = try ThemeLibrary(directory: dir)
    let reference = try Fixture.loadLibrary()
    #expect(try library.theme(.orange, mode: .dark) == reference.theme(.orange, mode: .dark))
  }

  @Test("a token file linked out of the folder is refused, naming where the link leads")
  func tokenFileLinkedOut() throws {
    let dir = try Fixture.modifiedCopy(of: "themes.resolver.json", replacing: [])
    let outside = dir.deletingLastPathComponent().appendingPathComponent("outside.tokens.json")
    defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
    try FileManager.default.moveItem(
      at: dir.appendingPathComponent("core/color.tokens.json"), to: outside)
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("core/color.tokens.json").path,
      withDestinationPath: "../../outside.tokens.json")
    let real = try #require(realpath(outside.path, nil))
    defer { free(real) }
    #expect(
      Fixture.error { () throws(ThemeError) in try ThemeLibrary(directory: dir) }?.description
        == "themes.resolver.json: sets.core.sources[2]: $ref \"core/color.tokens.json\" leads outside the themes folder through a symbolic link (to \(String(cString: real)))"
    )
  }

  @Test("a font manifest or a marker folder linked out of the folder fails its theme only")
  func fixedFilesLinkedOut() throws {
    let dir = try Fixture.modifiedCopy(of: "themes.resolver.json", replacing: [])
    let root = dir.deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: root) }
    let manifest = dir.appendingPathComponent("fonts/sosh.fonts.json")
    try FileManager.default.removeItem(at: manifest)
    try FileManager.default.createSymbolicLink(
      atPath: manifest.path, withDestinationPath: "/etc/passwd")
    try FileManager.default.moveItem(
      at: dir.appendingPathComponent("markers/wireframe"),
      to: root.appendingPathComponent("wireframe-markers"))
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("markers/wireframe").path,
      withDestinationPath: "../../wireframe-markers")
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.fontManifest(for: .sosh) }?.description
        == "fonts/sosh.fonts.json: leads outside the themes folder through a symbolic link (to /etc/passwd)"
    )
    let markerError =
      Fixture.error { () throws(ThemeError) in try library.theme(.wireframe, mode: .light) }?
      .description ?? ""
    #expect(
      markerError.hasPrefix(
        "components/bullet-list.spec.json: themes.wireframe.bullets[0]: asset \"wireframe/"),
      "\(markerError)")
    #expect(
      markerError.contains("\" leads outside the themes folder through a symbolic link (to "),
      "\(markerError)")
    // The other themes are untouched.
    #expect(
      try library.theme(.orange, mode: .light) == Fixture.loadLibrary().theme(.orange, mode: .light)
    )
    #expect(
      try library.fontManifest(for: .orange) == Fixture.loadLibrary().fontManifest(for: .orange))
  }

  @Test(
    "the library lists every file it read: resolver, token files, spec, marker assets, font manifests"
  )
  func filesRead() throws {
    let library = try Fixture.loadLibrary()
    let root = Fixture.themesDirectory.standardizedFileURL.path + "/"
    let relative = library.files.map { String($0.path.dropFirst(root.count)) }
    #expect(library.files.allSatisfy { $0.path.hasPrefix(root) })
    #expect(relative.first == "themes.resolver.json")
    for file in [
      "core/color.tokens.json", "brands/sosh/dark.tokens.json", "components/bullet-list.spec.json",
      "markers/orange/square.svg", "markers/wireframe/tick.svg", "fonts/wireframe.fonts.json",
    ] {
      #expect(relative.contains(file), "\(file) not in \(relative)")
    }
    #expect(Set(relative).count == relative.count)
  }
}
