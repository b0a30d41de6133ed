import Foundation
import Primitives
import Testing

@testable import Themes

/// Where tokens come from: `--themes`, then `OUDS_THEMES_DIR`, then the `Themes/` beside the
/// snapshots folder, then a `Themes/` in the current folder or its parents, then the package's copy.
@Suite("The themes folder is found in a fixed, printed order")
struct ThemesLocationTests {
  /// A scratch tree holding one themes folder for each step of the order.
  struct Tree {
    let root: URL
    var explicit: URL { root.appendingPathComponent("explicit/Themes") }
    var environment: URL { root.appendingPathComponent("env/Themes") }
    var snapshots: URL { root.appendingPathComponent("work/Snapshots") }
    var beside: URL { root.appendingPathComponent("work/Themes") }
    /// The current folder, two levels below the `Themes/` found by walking up.
    var current: URL { root.appendingPathComponent("cwd/a/b") }
    var currentThemes: URL { root.appendingPathComponent("cwd/Themes") }
    var empty: URL { root.appendingPathComponent("empty") }
    var bundle: URL {
      root.appendingPathComponent("bin/OUDSBulletListRenderer_ThemesBundle.resources")
    }

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "ouds-location-\(UUID().uuidString)")
      for folder in [
        explicit, environment, beside, currentThemes, bundle.appendingPathComponent("Themes"),
      ] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent(ThemeLibrary.resolverFileName))
      }
      for folder in [snapshots, current, empty] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  @Test("each step wins over the next")
  func order() throws {
    let tree = try Tree()
    defer { tree.remove() }
    let env = [ThemesLocation.environmentVariable: tree.environment.path]
    func resolve(explicit: URL?, environment: [String: String], snapshots: URL?, current: URL)
      throws -> ThemesLocation
    {
      try ThemesLocation.resolve(
        explicit: explicit, snapshotsDirectory: snapshots, environment: environment,
        currentDirectory: current,
        packageCopyCandidates: [tree.bundle])
    }
    let steps: [(ThemesLocation, URL, ThemesLocation.Source)] = [
      (
        try resolve(
          explicit: tree.explicit, environment: env, snapshots: tree.snapshots,
          current: tree.current),
        tree.explicit, .explicit
      ),
      (
        try resolve(
          explicit: nil, environment: env, snapshots: tree.snapshots, current: tree.current),
        tree.environment, .environment
      ),
      (
        try resolve(
          explicit: nil, environment: [:], snapshots: tree.snapshots, current: tree.current),
        tree.beside, .besideSnapshots
      ),
      (
        try resolve(explicit: nil, environment: [:], snapshots: nil, current: tree.current),
        tree.currentThemes, .currentFolder
      ),
      (
        try resolve(
          explicit: nil, environment: [:],
          snapshots: tree.empty.appendingPathComponent("Snapshots"), current: tree.empty),
        tree.bundle.appendingPathComponent("Themes"), .package
      ),
    ]
    for (found, folder, source) in steps {
      #expect(found.directory.path == folder.standardizedFileURL.path)
      #expect(found.source == source)
    }
    #expect(steps[0].0.description == "\(tree.explicit.path) (--themes)")
    #expect(steps[1].0.description == "\(tree.environment.path) (OUDS_THEMES_DIR)")
    #expect(steps[2].0.description == "\(tree.beside.path) (beside the snapshots folder)")
    #expect(steps[3].0.description == "\(tree.currentThemes.path) (found from the current folder)")
    #expect(steps[4].0.description == "\(tree.bundle.path)/Themes (the package's copy)")
    // An empty OUDS_THEMES_DIR counts as unset.
    let unset = try resolve(
      explicit: nil, environment: [ThemesLocation.environmentVariable: ""], snapshots: nil,
      current: tree.current)
    #expect(unset.source == .currentFolder)
  }

  @Test(
    "the search from the current folder passes over a Themes/ others may write or another user owns; --themes and OUDS_THEMES_DIR still take it"
  )
  func strangersThemes() throws {
    let tree = try Tree()
    defer { tree.remove() }
    func resolve(explicit: URL? = nil, environment: [String: String] = [:]) throws
      -> ThemesLocation
    {
      try ThemesLocation.resolve(
        explicit: explicit, environment: environment, currentDirectory: tree.current,
        packageCopyCandidates: [tree.bundle])
    }
    #expect(ThemesLocation.stranger(tree.currentThemes) == nil)
    #expect(try resolve().source == .currentFolder)
    // Writable by every user: /tmp/Themes made by anyone.
    #expect(chmod(tree.currentThemes.path, 0o777) == 0)
    #expect(ThemesLocation.stranger(tree.currentThemes) == "it is writable by every user")
    #expect(try resolve().source == .package)
    #expect(try resolve(explicit: tree.currentThemes).source == .explicit)
    #expect(
      try resolve(environment: [ThemesLocation.environmentVariable: tree.currentThemes.path])
        .source == .environment)
    // Its resolver file alone writable by others.
    #expect(chmod(tree.currentThemes.path, 0o755) == 0)
    let resolver = tree.currentThemes.appendingPathComponent(ThemeLibrary.resolverFileName)
    #expect(chmod(resolver.path, 0o666) == 0)
    #expect(
      ThemesLocation.stranger(tree.currentThemes)
        == "themes.resolver.json is writable by every user")
    #expect(chmod(resolver.path, 0o644) == 0)
    // Owned by another user (root can give it away).
    if getuid() == 0 {
      #expect(chown(tree.currentThemes.path, 65534, 65534) == 0)
      #expect(
        ThemesLocation.stranger(tree.currentThemes)
          == "it is owned by user id 65534, not by you (0) or root")
      #expect(try resolve().source == .package)
    }
  }

  @Test(
    "a folder named explicitly or by OUDS_THEMES_DIR that is not a themes folder is an error, not a fallback"
  )
  func badNamedFolder() throws {
    let tree = try Tree()
    defer { tree.remove() }
    #expect(
      throws: ThemeError(
        message: "--themes \(tree.empty.path): not a themes folder (no themes.resolver.json in it)")
    ) {
      try ThemesLocation.resolve(
        explicit: tree.empty, environment: [:], currentDirectory: tree.current)
    }
    #expect(
      throws: ThemeError(
        message:
          "OUDS_THEMES_DIR=\(tree.empty.path): not a themes folder (no themes.resolver.json in it)")
    ) {
      try ThemesLocation.resolve(
        environment: [ThemesLocation.environmentVariable: tree.empty.path],
        currentDirectory: tree.current)
    }
  }

  @Test("when no step finds a folder, the error says everything that was tried")
  func nothingFound() throws {
    let tree = try Tree()
    defer { tree.remove() }
    let snapshots = tree.empty.appendingPathComponent("Snapshots")
    let missingBundle = tree.empty.appendingPathComponent(
      "OUDSBulletListRenderer_ThemesBundle.resources")
    #expect(
      throws: ThemeError(
        message:
          "cannot find a themes folder: no --themes; OUDS_THEMES_DIR is not set; no \(tree.empty.path)/Themes; "
          + "no Themes/ in \(tree.empty.path) or its parents; the package's copy is not installed beside the executable "
          + "(looked for \(missingBundle.path)). Pass --themes <dir> (themesDirectory: in Swift) or set OUDS_THEMES_DIR"
      )
    ) {
      try ThemesLocation.resolve(
        snapshotsDirectory: snapshots, environment: [:], currentDirectory: tree.empty,
        packageCopyCandidates: [missingBundle])
    }
  }

  @Test(
    "the package's copy is the SwiftPM resource bundle beside the executable, and equals Themes/ file for file"
  )
  func packageCopy() throws {
    let candidates = ThemesLocation.defaultPackageCopyCandidates()
    #expect(candidates.first?.lastPathComponent == "OUDSBulletListRenderer_ThemesBundle.resources")
    #expect(
      candidates.allSatisfy { !$0.path.contains("/Sources/") },
      "never a path into the source checkout")
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-nothemes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: empty) }
    let found = try ThemesLocation.resolve(environment: [:], currentDirectory: empty)
    #expect(found.source == .package)
    #expect(found.directory.path.hasSuffix("OUDSBulletListRenderer_ThemesBundle.resources/Themes"))
    // Same files, same bytes as the repository's Themes/ (the bundle is refreshed on every build).
    let repository = Fixture.themesDirectory
    let files = try FileManager.default.subpathsOfDirectory(atPath: repository.path).sorted()
    let copied = try FileManager.default.subpathsOfDirectory(atPath: found.directory.path).sorted()
    #expect(files == copied)
    for file in files {
      let a = FileManager.default.contents(atPath: repository.appendingPathComponent(file).path)
      let b = FileManager.default.contents(
        atPath: found.directory.appendingPathComponent(file).path)
      #expect(a == b, "\(file) differs in the package's copy")
    }
    // It loads, with every theme.
    let library = try ThemeLibrary(directory: found.directory)
    for name in ThemeName.allCases { _ = try library.theme(name, mode: .dark) }
  }

  @Test("the canonical token text covers every theme × mode and changes with one token value only")
  func canonicalTokens() throws {
    let library = try Fixture.loadLibrary()
    let text = library.canonicalTokenText()
    for name in ThemeName.allCases {
      for mode in ColorMode.allCases {
        #expect(text.contains("# \(ThemeLibrary.contextName(name, mode))\n"))
      }
    }
    #expect(text.contains("bullet-list.space.padding-inline.level-2\tdimension\t"))
    // A re-formatted copy gives the same text; a changed value does not.
    let reformatted = try Fixture.modifiedCopy(
      of: "components/bullet-list.tokens.json",
      replacing: [(#""$value": "{dimension.850}""#, #""$value"  :   "{dimension.850}""#)])
    defer { try? FileManager.default.removeItem(at: reformatted.deletingLastPathComponent()) }
    #expect(try ThemeLibrary(directory: reformatted).canonicalTokenText() == text)
    let changed = try Fixture.modifiedCopy(
      of: "components/bullet-list.tokens.json",
      replacing: [(#""$value": "{dimension.850}""#, #""$value": "{dimension.350}""#)])
    defer { try? FileManager.default.removeItem(at: changed.deletingLastPathComponent()) }
    let changedText = try ThemeLibrary(directory: changed).canonicalTokenText()
    #expect(changedText != text)
    let differing = zip(text.split(separator: "\n"), changedText.split(separator: "\n")).filter {
      $0 != $1
    }
    #expect(differing.count == 8, "one token, in each of the 8 contexts")
    #expect(differing.allSatisfy { $0.0.hasPrefix("bullet-list.space.padding-inline.level-2\t") })
  }
}
