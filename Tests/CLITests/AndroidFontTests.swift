import BulletListRenderer
import Fonts
import Foundation
import Graphics
import Primitives
import Testing
import Themes

/// Android's fallback font (issue 26, point 2): with `--platform android`, Orange and Orange
/// Compact draw in what Android draws without the brand font (Roboto, Noto Naskh Arabic), as
/// their font manifests state; brand fonts given with `--font-dir` still win; iOS is unchanged.
@Suite("Android's fallback font", .serialized)
struct AndroidFontTests {
  static let sample = repositoryRoot.appendingPathComponent("Snapshots/cases/sample-2.json").path
  static let androidFiles = [
    "Roboto-Regular.ttf", "Roboto-Bold.ttf", "NotoNaskhArabic-Regular.ttf",
    "NotoNaskhArabic-Bold.ttf",
  ]

  /// A copy of `Themes/` in `folder` whose `theme` manifest has no `android` key: Android then
  /// draws the iOS substitute, as before the fallback existed.
  static func themesWithoutFallback(in folder: URL, theme: ThemeName = .orange) throws -> URL {
    let themes = try copyOfThemes(in: folder)
    let manifest = themes.appendingPathComponent(ThemeLibrary.fontManifestFileName(for: theme))
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
    #expect(json.removeValue(forKey: "android") != nil)
    try JSONSerialization.data(withJSONObject: json).write(to: manifest)
    return themes
  }

  /// The first label's width in the layout JSON of `sample-2` (Orange, light, `platform`).
  static func labelWidth(themes: URL, platform: Platform, extra: [String] = []) throws -> Double {
    let result = try run(
      [
        "layout", sample, "--themes", themes.path, "--theme", "orange", "--mode", "light",
        "--platform", platform.rawValue,
      ] + extra)
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    let rows = try #require(json["rows"] as? [[String: Any]])
    let label = try #require(rows.first?["label"] as? [String: Any])
    return try #require(label["width"] as? Double)
  }

  @Test(
    "Orange on Android without brand fonts draws in Roboto: the sources line says so, the label is narrower than in the iOS substitute and the pixels differ"
  )
  func orangeAndroidDrawsRoboto() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = repositoryRoot.appendingPathComponent("Themes")
    let result = try run(
      [
        "render", Self.sample, "--themes", themes.path, "--theme", "orange", "--mode", "light",
        "--platform", "android", "--verbose", "-o", "android.png",
      ], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let sources = String(result.stderr.split(separator: "\n").first ?? "")
    #expect(sources.contains(" · fonts: Roboto-Regular.ttf, Roboto-Bold.ttf in "), "\(sources)")
    #expect(sources.contains("NotoNaskhArabic-Regular.ttf, NotoNaskhArabic-Bold.ttf in "))
    #expect(
      sources.hasSuffix(" · android without brand font: orange → Roboto, Noto Naskh Arabic"))
    #expect(!sources.contains("Liberation"), "the iOS substitute is not loaded: \(sources)")

    // The same render with the manifest's android key removed draws Liberation Sans, as iOS does.
    let before = try Self.themesWithoutFallback(in: folder.appendingPathComponent("before"))
    let old = try run(
      [
        "render", Self.sample, "--themes", before.path, "--theme", "orange", "--mode", "light",
        "--platform", "android", "--verbose", "-o", "substitute.png",
      ], in: folder)
    #expect(old.status == 0, "\(old.stderr)")
    #expect(old.stderr.contains("LiberationSans-Bold.ttf") && !old.stderr.contains("Roboto"))
    #expect(!old.stderr.contains("android without brand font"))
    let roboto = try Data(contentsOf: folder.appendingPathComponent("android.png"))
    let liberation = try Data(contentsOf: folder.appendingPathComponent("substitute.png"))
    #expect(roboto != liberation)

    // "Label 1" in Body Large bold: Roboto Bold is narrower than Liberation Sans Bold (Arial's metrics).
    let robotoWidth = try Self.labelWidth(themes: themes, platform: .android)
    let liberationWidth = try Self.labelWidth(themes: before, platform: .android)
    #expect(liberationWidth - robotoWidth >= 2, "\(robotoWidth) vs \(liberationWidth)")

    // The faces Pango really chose, through the library: Roboto for Latin, Naskh for Arabic.
    let renderer = try BulletListRenderer(themesDirectory: themes)
    for use in try renderer.fontsUsed(by: .orange, platform: .android) {
      let names = Set(use.files.map(\.fileName))
      let bold = use.text.hasSuffix("700")
      let expected =
        use.text.hasPrefix("Latin")
        ? (bold ? "Roboto-Bold.ttf" : "Roboto-Regular.ttf")
        : (bold ? "NotoNaskhArabic-Bold.ttf" : "NotoNaskhArabic-Regular.ttf")
      #expect(names == [expected], "\(use.text): \(names)")
    }
    #expect(try renderer.fontSetName(for: .orange, platform: .android) == "orange/android")
    #expect(
      try renderer.fontSetName(for: .orangeCompact, platform: .android) == "orange-compact/android")
    #expect(try renderer.fontSetName(for: .sosh, platform: .android) == "sosh")
    #expect(
      try renderer.fontSet(for: .orange, platform: .android).files.map(\.fileName)
        == Self.androidFiles)
  }

  @Test(
    "iOS keeps its substitutes: the Orange reference is drawn byte for byte, and the line names no Android rule"
  )
  func iosUnchanged() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try run(
      [
        "render", Self.sample, "--theme", "orange", "--mode", "light", "--platform", "ios",
        "--verbose", "-o", folder.appendingPathComponent("ios.png").path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      !result.stderr.contains("Roboto") && !result.stderr.contains("android without brand font"))
    #expect(result.stderr.contains("LiberationSans-Regular.ttf, LiberationSans-Bold.ttf in "))
    #expect(
      (try Data(contentsOf: folder.appendingPathComponent("ios.png")))
        == (try Data(contentsOf: SourcesTests.reference)))
    let renderer = try BulletListRenderer()
    for use in try renderer.fontsUsed(by: .orange, platform: .ios) {
      #expect(
        use.files.allSatisfy { !$0.fileName.hasPrefix("Roboto") && !$0.fileName.contains("Naskh") })
    }
    // Both platforms at once: each set's files, the rule once.
    let both = try run(
      [
        "render", Self.sample, "--theme", "all", "--mode", "light", "--platform",
        "all", "--verbose", "-o", folder.appendingPathComponent("all").path,
      ])
    #expect(both.status == 0, "\(both.stderr)")
    let line = String(both.stderr.split(separator: "\n").first { $0.hasPrefix("themes: ") } ?? "")
    #expect(line.contains("LiberationSans-Regular.ttf") && line.contains("Roboto-Regular.ttf"))
    #expect(
      line.hasSuffix(
        " · android without brand font: orange, orange-compact → Roboto, Noto Naskh Arabic"))
  }

  @Test(
    "brand fonts given with --font-dir still win on Android: the same pixels as without the fallback"
  )
  func brandFontWins() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Orange's brand family becomes Inter, and a brand font folder holds an Inter file.
    let brandFamily = (#""Helvetica Neue","#, #""Inter","#)
    let themes = try copyOfThemes(in: folder)
    let without = try Self.themesWithoutFallback(in: folder.appendingPathComponent("without"))
    for copy in [themes, without] {
      let tokens = copy.appendingPathComponent("brands/orange/brand.tokens.json")
      let text = try String(contentsOf: tokens, encoding: .utf8)
      #expect(text.contains(brandFamily.0))
      try Data(text.replacingOccurrences(of: brandFamily.0, with: brandFamily.1).utf8).write(
        to: tokens)
    }
    let brandFolder = folder.appendingPathComponent("brand-fonts")
    try FileManager.default.createDirectory(at: brandFolder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: try SourcesTests.installed("Inter-Medium.otf", theme: .sosh),
      to: brandFolder.appendingPathComponent("BrandInter.otf"))
    func render(_ themes: URL, _ output: String, brand: Bool) throws -> (Data, String) {
      let result = try run(
        [
          "render", Self.sample, "--themes", themes.path, "--theme", "orange", "--mode", "light",
          "--platform", "android", "--verbose", "-o", output,
        ] + (brand ? ["--font-dir", brandFolder.path] : []), in: folder)
      #expect(result.status == 0, "\(result.stderr)")
      return (
        try Data(contentsOf: folder.appendingPathComponent(output)),
        String(result.stderr.split(separator: "\n").first ?? "")
      )
    }
    let (brandAndroid, line) = try render(themes, "brand.png", brand: true)
    #expect(line.contains("BrandInter.otf (brand) in "), "\(line)")
    #expect(line.contains("Roboto-Regular.ttf"), "the fallback stays loaded behind the brand font")
    let (brandSubstitute, _) = try render(without, "brand-substitute.png", brand: true)
    #expect(
      brandAndroid == brandSubstitute, "the brand font draws, whichever fallback is behind it")
    let (fallback, _) = try render(themes, "fallback.png", brand: false)
    #expect(brandAndroid != fallback)
    let brandWidth = try Self.labelWidth(
      themes: themes, platform: .android, extra: ["--font-dir", brandFolder.path])
    let robotoWidth = try Self.labelWidth(themes: themes, platform: .android)
    #expect(abs(brandWidth - robotoWidth) >= 1, "\(brandWidth) vs \(robotoWidth)")
  }

  @Test(
    "a manifest key the loader does not know is refused in one line naming the file and the key",
    arguments: [
      (
        #""android": {"#, #""androidd": {"#,
        #"error: fonts/orange.fonts.json: androidd: unknown key "androidd"; a font manifest knows $comment, theme, version, files, android"#
      ),
      (
        #""families": ["Roboto", "Noto Naskh Arabic"],"#,
        #""families": ["Roboto", "Noto Naskh Arabic"], "familes": [],"#,
        #"error: fonts/orange.fonts.json: android.familes: unknown key "familes"; a font manifest knows $comment, families, files"#
      ),
      (
        #""file": "Roboto-Regular.ttf","#, #""file": "Roboto-Regular.ttf", "sha265": "","#,
        #"error: fonts/orange.fonts.json: android.files[0].sha265: unknown key "sha265"; a font manifest knows $comment, role, family, file, sha256, package"#
      ),
      (
        #""families": ["Roboto", "Noto Naskh Arabic"],"#, #""families": [],"#,
        #"error: fonts/orange.fonts.json: android.families: expected an array of 1 to 8 family names, such as ["Roboto"]"#
      ),
    ])
  func unknownKey(old: String, new: String, expected: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    let manifest = themes.appendingPathComponent("fonts/orange.fonts.json")
    let text = try String(contentsOf: manifest, encoding: .utf8)
    #expect(text.contains(old))
    try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: manifest)
    let result = try run(
      [
        "render", Self.sample, "--themes", themes.path, "--theme", "orange", "--platform", "ios",
        "-o", "out.png",
      ], in: folder)
    #expect(result.status == 1)
    #expect(result.stderr == expected + "\n")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }

  @Test("a machine without Roboto is told which package to install, for which font set")
  func robotoMissing() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Only the iOS set's files are found: fontconfig lists no folder, OUDS_FONT_DIRS holds them.
    let fonts = folder.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    for name in SourcesTests.orangeFiles {
      try FileManager.default.copyItem(
        at: try SourcesTests.installed(name), to: fonts.appendingPathComponent(name))
    }
    var environment = try SourcesTests.noSystemFonts(in: folder)
    environment[FontLocator.environmentVariable] = fonts.path
    let ios = try run(
      ["render", Self.sample, "--theme", "orange", "--platform", "ios", "-o", "ios.png"],
      in: folder,
      environment: environment)
    #expect(ios.status == 0, "\(ios.stderr)")
    let android = try run(
      ["render", Self.sample, "--theme", "orange", "--platform", "android", "-o", "android.png"],
      in: folder, environment: environment)
    #expect(android.status == 1)
    #expect(
      android.stderr
        == "error: missing 4 font files: Roboto-Regular.ttf (package fonts-roboto-unhinted, for orange/android), Roboto-Bold.ttf (package fonts-roboto-unhinted, for orange/android), NotoNaskhArabic-Regular.ttf (package fonts-noto-core, for orange/android), NotoNaskhArabic-Bold.ttf (package fonts-noto-core, for orange/android); looked in \(fonts.path) (OUDS_FONT_DIRS); install the packages (apt-get install fonts-noto-core fonts-roboto-unhinted) or put the files in a folder given with --font-dir or OUDS_FONT_DIRS\n"
    )
    #expect(android.stderr.split(separator: "\n").count == 1)
  }

  @Test(
    "the fallback's files are named by file name, hash and package, and are the families it asks for"
  )
  func manifestFallback() throws {
    let library = try ThemeLibrary(directory: repositoryRoot.appendingPathComponent("Themes"))
    for name in ThemeName.allCases {
      let manifest = try library.fontManifest(for: name)
      guard [.orange, .orangeCompact].contains(name) else {
        #expect(manifest.android == nil, "\(name) draws its own fonts on Android")
        continue
      }
      let android = try #require(manifest.android)
      #expect(android.families == ["Roboto", "Noto Naskh Arabic"])
      #expect(android.files.map(\.fileName) == Self.androidFiles)
      #expect(Set(android.files.compactMap(\.family)) == Set(android.families))
      #expect(
        android.files.map(\.debianPackage) == [
          "fonts-roboto-unhinted", "fonts-roboto-unhinted", "fonts-noto-core", "fonts-noto-core",
        ])
      let brand = try library.theme(name, mode: .light).fontFamilies
      #expect(
        manifest.fontFamilies(on: .android, brandFamilies: brand)
          == ["Helvetica Neue", "Roboto", "Noto Naskh Arabic"])
      #expect(manifest.fontFamilies(on: .ios, brandFamilies: brand) == brand)
      for file in manifest.fontSources(on: .android).sources {
        let found = try #require(FontLocator(environment: [:]).locate(file), "\(file.fileName)")
        #expect(found.matchesManifest, "\(file.fileName) has the manifest's SHA-256")
      }
    }
  }

  @Test(
    "verify and merge name the Android sets: the sources line states the rule, results.json fingerprints orange/android"
  )
  func resultsNameTheSets() throws {
    let fixture = try ShardRun.fixture.get()
    let rule =
      " · android without brand font: orange, orange-compact → Roboto, Noto Naskh Arabic"
    let singleLine = String(fixture.single.stdout.split(separator: "\n").first ?? "")
    let mergedLine = String(fixture.merge.stdout.split(separator: "\n").first ?? "")
    #expect(singleLine.hasSuffix(rule), "\(singleLine)")
    // The same fonts and rule, merged from the shards' results (the themes folder is written
    // relative to the repository there).
    func fontsPart(_ line: String) -> String.SubSequence? {
      line.range(of: " · fonts: ").map { line[$0.lowerBound...] }
    }
    #expect(fontsPart(mergedLine) != nil && fontsPart(mergedLine) == fontsPart(singleLine))
    let results = try String(
      contentsOf: fixture.root.appendingPathComponent("single/results/results.json"),
      encoding: .utf8)
    for set in ["orange/android", "orange-compact/android"] {
      #expect(results.contains("\"theme\": \"\(set)\""), "\(set) in results.json")
    }
    let listing = try run(["themes"])
    #expect(
      listing.stdout.contains(
        "  fonts on android without the brand font: Helvetica Neue, Roboto, Noto Naskh Arabic\n"
          + "  android font files (\"android\" in fonts/orange.fonts.json):\n"
          + "    latin-regular: Roboto-Regular.ttf in "))
    #expect(!listing.stdout.contains("android font files (\"android\" in fonts/sosh.fonts.json)"))
  }
}
