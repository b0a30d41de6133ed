import BulletListRenderer
import Fonts
import Foundation
import Graphics
import Primitives
import Testing
import Themes

/// Where tokens and fonts come from, on the built binary and through the library API: the order
/// the themes folder is chosen in, the line that says so, portable font sets and their errors.
@Suite("Sources of tokens and fonts", .serialized)
struct SourcesTests {
  static let sample = repositoryRoot.appendingPathComponent("Snapshots/cases/sample-2.json").path
  static let reference = repositoryRoot.appendingPathComponent(
    "Snapshots/sample-2/orange-light@2x.png")

  /// A fontconfig configuration that lists no font folder: fonts then come only from
  /// `--font-dir` and `OUDS_FONT_DIRS`.
  static func noSystemFonts(in folder: URL) throws -> [String: String] {
    let conf = try write(
      #"<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd"><fontconfig></fontconfig>"#,
      "no-fonts.conf", in: folder)
    return ["FONTCONFIG_FILE": conf]
  }

  /// The installed copy of a manifest file, found the way the renderer finds it.
  static func installed(_ fileName: String, theme: ThemeName = .orange) throws -> URL {
    let library = try ThemeLibrary(directory: repositoryRoot.appendingPathComponent("Themes"))
    let file = try #require(
      try library.fontManifest(for: theme).fontSources.sources.first { $0.fileName == fileName })
    let found = try #require(FontLocator(environment: [:]).locate(file))
    #expect(found.matchesManifest)
    return found.url
  }

  static let orangeFiles = [
    "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "NotoSansArabicUI-Regular.ttf",
    "NotoSansArabicUI-Bold.ttf",
  ]

  // MARK: - The themes folder

  @Test(
    "on the binary, each step of the order wins over the next: --themes, OUDS_THEMES_DIR, beside --snapshots, current folder, package"
  )
  func orderOnTheBinary() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let fm = FileManager.default
    for parent in ["explicit", "env", "work", "cwd"] {
      try fm.createDirectory(
        at: root.appendingPathComponent(parent), withIntermediateDirectories: true)
      _ = try copyOfThemes(in: root.appendingPathComponent(parent))
    }
    let case1 =
      #"{ "items": [{ "label": "Label" }], "variants": [{ "themes": ["orange"], "modes": ["light"] }] }"#
    for snapshots in ["work/Snapshots/cases", "other/Snapshots/cases"] {
      try fm.createDirectory(
        at: root.appendingPathComponent(snapshots), withIntermediateDirectories: true)
      try write(case1, "one.json", in: root.appendingPathComponent(snapshots))
    }
    let current = root.appendingPathComponent("cwd/a/b")
    let empty = root.appendingPathComponent("empty")
    for folder in [current, empty] {
      try fm.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let env = [ThemesLocation.environmentVariable: root.appendingPathComponent("env/Themes").path]
    let unset = [ThemesLocation.environmentVariable]

    func verifyLine(
      _ extra: [String], snapshots: String, in folder: URL, environment: [String: String],
      removing: [String] = []
    ) throws -> String {
      let result = try run(
        [
          "snapshot", "verify", "--snapshots", root.appendingPathComponent(snapshots).path,
          "--artifacts", root.appendingPathComponent("artifacts").path,
        ] + extra,
        in: folder, environment: environment, removing: removing)
      #expect(result.status == 1, "no references were recorded: every one is missing")
      return String(result.stdout.split(separator: "\n").first ?? "")
    }
    func prefix(_ folder: String, _ reason: String) -> String {
      "themes: \(root.appendingPathComponent(folder).path) (\(reason)) · fonts: "
    }
    let explicit = try verifyLine(
      ["--themes", root.appendingPathComponent("explicit/Themes").path],
      snapshots: "work/Snapshots", in: current, environment: env)
    #expect(explicit.hasPrefix(prefix("explicit/Themes", "--themes")), "\(explicit)")
    let fromEnvironment = try verifyLine(
      [], snapshots: "work/Snapshots", in: current, environment: env)
    #expect(
      fromEnvironment.hasPrefix(prefix("env/Themes", "OUDS_THEMES_DIR")), "\(fromEnvironment)")
    let beside = try verifyLine(
      [], snapshots: "work/Snapshots", in: current, environment: [:], removing: unset)
    #expect(beside.hasPrefix(prefix("work/Themes", "beside the snapshots folder")), "\(beside)")
    let fromCurrent = try verifyLine(
      [], snapshots: "other/Snapshots", in: current, environment: [:], removing: unset)
    #expect(
      fromCurrent.hasPrefix(prefix("cwd/Themes", "found from the current folder")), "\(fromCurrent)"
    )
    let package = try verifyLine(
      [], snapshots: "other/Snapshots", in: empty, environment: [:], removing: unset)
    #expect(
      package.hasPrefix("themes: ")
        && package.contains(
          "/OUDSBulletListRenderer_ThemesBundle.resources/Themes (the package's copy) · fonts: "),
      "\(package)")
    #expect(
      !package.contains(repositoryRoot.appendingPathComponent("Themes").path + " "),
      "never the source checkout's Themes/")

    // A command that is not a snapshot command skips the "beside" step.
    let list = try write(#"{ "items": [{ "label": "Label" }] }"#, "list.json", in: root)
    func layoutLine(in folder: URL, environment: [String: String], removing: [String] = []) throws
      -> String
    {
      let result = try run(
        ["layout", list], in: folder, environment: environment, removing: removing)
      #expect(result.status == 0)
      return String(result.stderr.split(separator: "\n").first ?? "")
    }
    #expect(
      try layoutLine(in: current, environment: env).hasPrefix(
        prefix("env/Themes", "OUDS_THEMES_DIR")))
    #expect(
      try layoutLine(in: current, environment: [:], removing: unset).hasPrefix(
        prefix("cwd/Themes", "found from the current folder")))
    #expect(
      try layoutLine(in: empty, environment: [:], removing: unset).contains(
        "(the package's copy) · fonts: "))
  }

  @Test(
    "a library user with no Themes/ anywhere renders with the package's copy, pixel for pixel like the references"
  )
  func libraryUserWithoutThemes() throws {
    let empty = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: empty) }
    let location = try ThemesLocation.resolve(environment: [:], currentDirectory: empty)
    #expect(location.source == .package)
    let renderer = try BulletListRenderer(themes: location)
    let list = try renderer.listReader().read(file: Self.sample).list
    let png = try renderer.render(list, theme: .orange, mode: .light, format: .png(scale: 2)).data
    #expect(png == (try Data(contentsOf: Self.reference)))
    // One short line by default: the themes folder, each font set and how many files it has.
    #expect(
      try renderer.sourcesLine(for: [.orange])
        == "themes: \(location.directory.path) (the package's copy) · fonts: orange 4 files")
    let line = try renderer.sourcesLine(for: [.orange], verbose: true)
    #expect(
      line.hasPrefix(
        "themes: \(location.directory.path) (the package's copy) · fonts: LiberationSans-Regular.ttf, LiberationSans-Bold.ttf in "
      ))

    // The same from the binary, run in a folder with no Themes/ above it.
    let result = try run(
      ["render", Self.sample, "-o", "out.png"], in: empty,
      removing: [ThemesLocation.environmentVariable])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "/OUDSBulletListRenderer_ThemesBundle.resources/Themes (the package's copy) · fonts: "))
    #expect(
      FileManager.default.contents(atPath: empty.appendingPathComponent("out.png").path)
        == (try Data(contentsOf: Self.reference)))
  }

  // MARK: - Fonts

  @Test(
    "fonts found through OUDS_FONT_DIRS in a renamed folder, with no fontconfig folder at all: the line names each file and folder, the pixels are the references'"
  )
  func fontsFromRenamedFolder() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let renamed = root.appendingPathComponent("my fonts (renamed)")
    try FileManager.default.createDirectory(at: renamed, withIntermediateDirectories: true)
    for name in Self.orangeFiles {
      try FileManager.default.copyItem(
        at: try Self.installed(name), to: renamed.appendingPathComponent(name))
    }
    var environment = try Self.noSystemFonts(in: root)
    environment[FontLocator.environmentVariable] =
      root.appendingPathComponent("nowhere").path + ":" + renamed.path
    let themes = repositoryRoot.appendingPathComponent("Themes").path
    let result = try run(
      ["render", Self.sample, "--themes", themes, "-o", "out.png"], in: root,
      environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    // One short line (issue 39 point 7); every file and folder under --verbose.
    #expect(result.stderr == "themes: \(themes) (--themes) · fonts: orange 4 files\n")
    let verbose = try run(
      ["render", Self.sample, "--themes", themes, "--verbose", "-o", "verbose.png"], in: root,
      environment: environment)
    #expect(verbose.status == 0, "\(verbose.stderr)")
    #expect(
      verbose.stderr.split(separator: "\n").first
        == "themes: \(themes) (--themes) · fonts: LiberationSans-Regular.ttf, LiberationSans-Bold.ttf, NotoSansArabicUI-Regular.ttf, NotoSansArabicUI-Bold.ttf in \(renamed.path)"
    )
    #expect(
      FileManager.default.contents(atPath: root.appendingPathComponent("out.png").path)
        == (try Data(contentsOf: Self.reference)))

    // `themes` says which file each role uses, and which are missing here (sosh's Inter).
    let listing = try run(["themes", "--themes", themes], in: root, environment: environment)
    #expect(listing.status == 0)
    #expect(listing.stdout.hasPrefix("Themes in \(themes) (--themes):\n"))
    #expect(
      listing.stdout.contains(
        "  font files (fonts/orange.fonts.json):\n    latin-regular: LiberationSans-Regular.ttf in \(renamed.path)\n"
      ))
    #expect(
      listing.stdout.contains("    latin-medium: Inter-Medium.otf MISSING (package fonts-inter)\n"))
  }

  @Test(
    "--font-dir skips a macOS ._ file and a file fontconfig cannot read, one warning each naming the file, not the manifest"
  )
  func hiddenAndBrokenBrandFiles() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let fonts = root.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    // An AppleDouble header, as macOS writes beside a file copied to a FAT or network disk.
    let appleDouble = fonts.appendingPathComponent("._HelveticaNeue.ttf")
    try Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00] + Array("Mac OS X        ".utf8))
      .write(to: appleDouble)
    let broken = fonts.appendingPathComponent("Broken.otf")
    try Data("not a font".utf8).write(to: broken)
    let themes = repositoryRoot.appendingPathComponent("Themes").path
    let result = try run(
      ["render", Self.sample, "--themes", themes, "--font-dir", fonts.path, "-o", "out.png"],
      in: root, removing: [FontLocator.environmentVariable])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.dropFirst()) == [
        "warning: --font-dir: skipped \(appleDouble.path): a hidden file (macOS writes ._ files like it beside the fonts it copies), not a font",
        "warning: --font-dir: skipped \(broken.path): fontconfig cannot read it as a font",
      ])
    #expect(!result.stderr.contains("fonts.json"))
    #expect(
      FileManager.default.contents(atPath: root.appendingPathComponent("out.png").path)
        == (try Data(contentsOf: Self.reference)))
  }

  @Test("a same-named file with another SHA-256 is passed over for the manifest's, and said so")
  func wrongHashPassedOver() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let fonts = root.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    let impostor = fonts.appendingPathComponent("LiberationSans-Regular.ttf")
    let dejaVu = try #require(
      FontLocator(environment: [:]).locate(
        FontSource(fileName: "DejaVuSans.ttf", sha256: "", role: "")))
    try FileManager.default.copyItem(at: dejaVu.url, to: impostor)
    let impostorHash = try #require(SHA256Digest.hex(ofFileAt: impostor))
    let regular = try Self.installed("LiberationSans-Regular.ttf")
    let bold = try Self.installed("LiberationSans-Bold.ttf")
    let arabic = try Self.installed("NotoSansArabicUI-Regular.ttf")
    let themes = repositoryRoot.appendingPathComponent("Themes").path
    let result = try run(
      [
        "render", Self.sample, "--themes", themes, "--font-dir", fonts.path, "--verbose", "-o",
        "out.png",
      ],
      in: root,
      removing: [FontLocator.environmentVariable])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("note: ") || $0.hasPrefix("warning: ") })
    let latin =
      regular.deletingLastPathComponent().path == bold.deletingLastPathComponent().path
      ? "LiberationSans-Regular.ttf, LiberationSans-Bold.ttf in \(regular.deletingLastPathComponent().path)"
      : "LiberationSans-Regular.ttf in \(regular.deletingLastPathComponent().path); LiberationSans-Bold.ttf in \(bold.deletingLastPathComponent().path)"
    #expect(
      lines.first
        == "themes: \(themes) (--themes) · fonts: \(latin); NotoSansArabicUI-Regular.ttf, NotoSansArabicUI-Bold.ttf in \(arabic.deletingLastPathComponent().path)"
    )
    #expect(
      !result.stderr.contains("(brand)"), "a file named like a manifest file is never a brand font")
    #expect(
      lines.last(where: { $0.hasPrefix("warning: ") })
        == "warning: fonts/orange.fonts.json: passed over \(impostor.path) (SHA-256 \(impostorHash.prefix(12))…, not the manifest's 8d91388f1d36…); using \(regular.path)"
    )
    #expect(
      FileManager.default.contents(atPath: root.appendingPathComponent("out.png").path)
        == (try Data(contentsOf: Self.reference)))
  }

  @Test(
    "a machine font passed over for the manifest's file is no warning: said under --verbose and by themes, same pixels"
  )
  func machineFontPassedOverQuietly() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    // The machine's fonts: a folder listed by fontconfig before /usr/share/fonts, holding a
    // same-named file with another hash (as Debian's fonts-liberation 1 beside fonts-liberation2).
    let machine = root.appendingPathComponent("machine fonts")
    try FileManager.default.createDirectory(at: machine, withIntermediateDirectories: true)
    let impostor = machine.appendingPathComponent("LiberationSans-Regular.ttf")
    let dejaVu = try #require(
      FontLocator(environment: [:]).locate(
        FontSource(fileName: "DejaVuSans.ttf", sha256: "", role: "")))
    try FileManager.default.copyItem(at: dejaVu.url, to: impostor)
    let impostorHash = try #require(SHA256Digest.hex(ofFileAt: impostor))
    let conf = try write(
      #"<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd"><fontconfig><dir>"#
        + machine.path + "</dir><dir>/usr/share/fonts</dir></fontconfig>",
      "machine.conf", in: root)
    let regular = try Self.installed("LiberationSans-Regular.ttf")
    let themes = repositoryRoot.appendingPathComponent("Themes").path
    let environment = [
      "FONTCONFIG_FILE": conf, "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
    ]
    let note =
      "note: fonts/orange.fonts.json: passed over \(impostor.path) (SHA-256 \(impostorHash.prefix(12))…, not the manifest's 8d91388f1d36…); using \(regular.path)"

    let quiet = try run(
      ["render", Self.sample, "--themes", themes, "-o", "quiet.png"], in: root,
      environment: environment, removing: [FontLocator.environmentVariable])
    #expect(quiet.status == 0, "\(quiet.stderr)")
    let quietLines = quiet.stderr.split(separator: "\n").map(String.init)
    #expect(quietLines.count == 1, "only the sources line: \(quiet.stderr)")
    #expect(quietLines.first == "themes: \(themes) (--themes) · fonts: orange 4 files")
    #expect(!quiet.stderr.contains("passed over"))

    let verbose = try run(
      ["render", Self.sample, "--themes", themes, "--verbose", "-o", "verbose.png"], in: root,
      environment: environment, removing: [FontLocator.environmentVariable])
    #expect(verbose.status == 0, "\(verbose.stderr)")
    let verboseLines = verbose.stderr.split(separator: "\n").map(String.init)
    // The sources line, then notes only: this one, and any of the machine's own same-named fonts.
    #expect(
      verboseLines.first?.hasPrefix(
        "themes: \(themes) (--themes) · fonts: LiberationSans-Regular.ttf, LiberationSans-Bold.ttf"
      ) == true, "\(verbose.stderr)")
    #expect(verboseLines.contains(note), "\(verbose.stderr)")
    #expect(verboseLines.dropFirst().allSatisfy { $0.hasPrefix("note: ") }, "\(verbose.stderr)")

    for name in ["quiet.png", "verbose.png"] {
      #expect(
        FileManager.default.contents(atPath: root.appendingPathComponent(name).path)
          == (try Data(contentsOf: Self.reference)), "\(name) is the reference's pixels")
    }

    let listing = try run(
      ["themes", "--themes", themes], in: root, environment: environment,
      removing: [FontLocator.environmentVariable])
    #expect(listing.status == 0, "\(listing.stderr)")
    #expect(
      listing.stdout.contains(
        "LiberationSans-Regular.ttf in \(regular.deletingLastPathComponent().path)\n      passed over \(impostor.path) (SHA-256 \(impostorHash.prefix(12))…, not the manifest's)\n"
      ), "\(listing.stdout)")
  }

  @Test(
    "when only a same-named file with another SHA-256 exists, it is used with a warning, and the render shows it"
  )
  func wrongHashOnly() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let good = root.appendingPathComponent("good")
    let bad = root.appendingPathComponent("bad")
    for folder in [good, bad] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for name in Self.orangeFiles where folder == good || name != "LiberationSans-Regular.ttf" {
        try FileManager.default.copyItem(
          at: try Self.installed(name), to: folder.appendingPathComponent(name))
      }
    }
    let dejaVu = try #require(
      FontLocator(environment: [:]).locate(
        FontSource(fileName: "DejaVuSans.ttf", sha256: "", role: "")))
    let impostor = bad.appendingPathComponent("LiberationSans-Regular.ttf")
    try FileManager.default.copyItem(at: dejaVu.url, to: impostor)
    let impostorHash = try #require(SHA256Digest.hex(ofFileAt: impostor))
    // Regular (not bold) text, so the regular face is the one drawn.
    let list = try write(
      #"{ "isBold": false, "items": [{ "label": "Label 1" }] }"#, "regular.json", in: root)
    let themes = repositoryRoot.appendingPathComponent("Themes").path
    var environment = try Self.noSystemFonts(in: root)
    environment[FontLocator.environmentVariable] = good.path
    let expected = try run(
      ["render", list, "--themes", themes, "-o", "good.png"], in: root, environment: environment)
    #expect(expected.status == 0)
    #expect(
      expected.stderr.split(separator: "\n").count == 1, "no warning with the manifest's files")
    environment[FontLocator.environmentVariable] = bad.path
    let result = try run(
      ["render", list, "--themes", themes, "-o", "bad.png"], in: root, environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.split(separator: "\n").last
        == "warning: fonts/orange.fonts.json: LiberationSans-Regular.ttf in \(bad.path) has SHA-256 \(impostorHash.prefix(12))…, the manifest says 8d91388f1d36…, and no other file of that name has it: renders may differ from the references"
    )
    let goodPNG = try #require(
      FileManager.default.contents(atPath: root.appendingPathComponent("good.png").path))
    #expect(
      FileManager.default.contents(atPath: root.appendingPathComponent("bad.png").path) != goodPNG)
  }

  @Test(
    "missing font files are one error listing every file, the theme and the package, on render and on verify"
  )
  func missingFiles() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let environment = try Self.noSystemFonts(in: root)
    let expected =
      "error: missing 12 font files: "
      + "LiberationSans-Regular.ttf (package fonts-liberation2, for orange, orange-compact), "
      + "LiberationSans-Bold.ttf (package fonts-liberation2, for orange, orange-compact), "
      + "NotoSansArabicUI-Regular.ttf (package fonts-noto-ui-core, for orange, orange-compact, sosh, wireframe), "
      + "NotoSansArabicUI-Bold.ttf (package fonts-noto-ui-core, for orange, orange-compact, sosh, wireframe), "
      + "Inter-Medium.otf (package fonts-inter, for sosh), Inter-Bold.otf (package fonts-inter, for sosh), "
      + "Inter-MediumItalic.otf (package fonts-inter, for sosh), Inter-BoldItalic.otf (package fonts-inter, for sosh), "
      + "ComicNeue-Regular.otf (package fonts-comic-neue, for wireframe), ComicNeue-Bold.otf (package fonts-comic-neue, for wireframe), "
      + "ComicNeue-Italic.otf (package fonts-comic-neue, for wireframe), ComicNeue-BoldItalic.otf (package fonts-comic-neue, for wireframe); "
      + "looked in \(root.path)/nowhere (OUDS_FONT_DIRS); "
      + "install the packages (apt-get install fonts-comic-neue fonts-inter fonts-liberation2 fonts-noto-ui-core) "
      + "or put the files in a folder given with --font-dir or OUDS_FONT_DIRS\n"
    var env = environment
    env[FontLocator.environmentVariable] = root.appendingPathComponent("nowhere").path
    let render = try run(
      ["render", Self.sample, "--theme", "all", "--mode", "all", "-o", "out"], in: root,
      environment: env)
    #expect(render.status == 1)
    #expect(render.stderr == expected)
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out").path))
    let verify = try run(
      [
        "snapshot", "verify", "--filter", "sample-1/", "--artifacts",
        root.appendingPathComponent("artifacts").path,
      ], environment: env)
    #expect(verify.status == 1)
    #expect(verify.stderr == expected)
    #expect(verify.stdout.isEmpty, "nothing is compared without the fonts")
  }

  // MARK: - The false pass of issue 8

  @Test(
    "a copy of Snapshots/ with an edited Themes/ beside it, verified from another folder, fails and names the edited folder"
  )
  func falsePassIsCaught() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let copy = root.appendingPathComponent("copy")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots"),
      to: copy.appendingPathComponent("Snapshots"))
    let themes = try copyOfThemes(in: copy)
    let elsewhere = root.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let arguments = [
      "snapshot", "verify", "--snapshots", "../copy/Snapshots", "--filter", "sample-3/",
      "--artifacts", root.appendingPathComponent("artifacts").path,
      "--junit", root.appendingPathComponent("junit.xml").path, "--report",
      root.appendingPathComponent("report").path,
    ]
    let beside = "\(themes.path) (beside the snapshots folder)"

    // Unedited, the copy verifies from elsewhere, and says which folder it read.
    let clean = try run(arguments, in: elsewhere, removing: [ThemesLocation.environmentVariable])
    #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
    #expect(clean.stdout.hasPrefix("themes: \(beside) · fonts: "))

    // Edit one colour token of the copy (sosh dark background).
    let file = themes.appendingPathComponent("brands/sosh/dark.tokens.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    let old = #""$value": "{color.raw.sosh.lochmara-dark-960}""#
    #expect(text.components(separatedBy: old).count == 2)
    try text.replacingOccurrences(
      of: old, with: #""$value": "{color.raw.sosh.functional-gray-light-160}""#
    )
    .write(to: file, atomically: true, encoding: .utf8)

    let edited = try run(arguments, in: elsewhere, removing: [ThemesLocation.environmentVariable])
    #expect(edited.status == 1)
    let lines = edited.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("themes: \(beside) · fonts: ") == true)
    // One environment row naming the changed token, not a digest.
    #expect(
      lines.dropFirst(2).first?.hasPrefix("environment  1 reference: color.") == true, "\(lines)")
    #expect(
      lines.contains(
        "        tokens: \(beside) differ from the values the references were recorded with:"),
      "\(lines)")
    #expect(
      lines.contains {
        $0.hasPrefix("          sosh/dark ") && $0.contains(" → ")
      }, "\(lines)")
    #expect(
      edited.stdout.contains(
        "(sosh; dark): sample-3/sosh-dark@2x"), "\(edited.stdout)")
    #expect(!edited.stdout.contains("accept:"))
    #expect(
      lines.last?.hasPrefix("8 references: 7 passed, 1 failed (1 changed, 0 missing, 0 errors)")
        == true, "\(lines.last ?? "")")
    #expect(
      lines.last?.hasSuffix(
        "; failed: the tokens are not the ones the references were recorded with") == true)
    let junit = try String(contentsOf: root.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains("<property name=\"sources\" value=\"themes: \(beside) · fonts: "))
    #expect(junit.contains("<testcase classname=\"environment\" name=\"tokens\""))
    #expect(junit.contains("failures=\"2\""), "the changed reference and the tokens")
    let html = try String(
      contentsOf: root.appendingPathComponent("report/index.html"), encoding: .utf8)
    #expect(html.contains("<p class=\"sources\" id=\"sources\">themes: \(beside) · fonts: "))
  }
}
