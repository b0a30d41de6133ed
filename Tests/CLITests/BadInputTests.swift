import Fonts
import Foundation
import Graphics
import Testing
import Themes

@Suite("Bad input: one clear line, exit 1, no file", .serialized)
struct BadInputTests {
  func expectFailure(
    _ arguments: [String], in folder: URL, stderr expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try run(arguments, in: folder)
    #expect(result.status == 1, sourceLocation: sourceLocation)
    #expect(result.stderr == expected + "\n", sourceLocation: sourceLocation)
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path),
      sourceLocation: sourceLocation)
  }

  @Test("malformed JSON names the file, line and column")
  func malformed() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      "{\"items\": [\n  {\"label\": \"x\"}\n  {\"label\": \"y\"}\n]}", "list.json", in: folder)
    try expectFailure(
      ["render", list, "-o", "out.png"], in: folder,
      stderr: "error: \(list): malformed JSON at line 3, column 3: expected ',' or ']', found '{'")
  }

  @Test(
    "a list file with the snapshot catalogue's 'variants' key is a case file: drawn, with one note"
  )
  func variantsKey() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      #"{"items": [{"label": "x"}], "variants": {"themes": ["sosh"]}}"#, "list.json", in: folder)
    let result = try run(["render", list, "-o", "out.png"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.hasPrefix(
        "note: list.json is a catalogue case: its list is drawn with the options given, not its 2 variants (--variant 1 to 2 draws one)\n"
      ), "\(result.stderr)")
  }

  @Test("a fourth nesting level names the item path")
  func fourthLevel() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      #"{"items": [{"label": "a", "items": [{"label": "b", "items": [{"label": "c"}, {"label": "d", "items": [{"label": "e"}]}]}]}]}"#,
      "list.json", in: folder)
    try expectFailure(
      ["render", list, "-o", "out.png"], in: folder,
      stderr:
        "error: \(list): items[0].items[0].items[1].items[0]: a fourth nesting level is forbidden by design (at most 3 levels: 0, 1, 2)"
    )
  }

  @Test("a missing icon file names the file")
  func missingIcon() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      #"{"type": {"unordered": {"asset": {"icon": "star.svg"}}}, "items": [{"label": "a"}]}"#,
      "list.json", in: folder)
    try expectFailure(
      ["render", list, "-o", "out.png"], in: folder,
      stderr:
        "error: \(list): type.unordered.asset.icon: icon file not found: \(folder.path)/star.svg")
  }

  @Test("a broken icon file is an error, not a crash")
  func brokenIcon() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try write("this is not an svg", "star.svg", in: folder)
    let list = try write(
      #"{"type": {"unordered": {"asset": {"icon": "star.svg"}}}, "items": [{"label": "a"}]}"#,
      "list.json", in: folder)
    let result = try run(["render", list, "-o", "out.png"], in: folder)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: "))
    #expect(result.stderr.contains("\(folder.path)/star.svg"))
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }

  @Test("a missing font file names the file and its package")
  func missingFont() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    let manifests = try FileManager.default.contentsOfDirectory(atPath: themes.path + "/fonts")
      .filter { $0.hasPrefix("orange.") }
    let manifest = themes.path + "/fonts/" + (try #require(manifests.first))
    let text = try String(contentsOfFile: manifest, encoding: .utf8)
    try text.replacingOccurrences(of: "LiberationSans-Regular.ttf", with: "Missing-Regular.ttf")
      .write(toFile: manifest, atomically: true, encoding: .utf8)
    let result = try run(
      [
        "render", repositoryRoot.path + "/Snapshots/cases/sample-2.json", "--themes", themes.path,
        "-o", "out.png",
      ], in: folder)
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix(
        "error: missing font file: Missing-Regular.ttf (package fonts-liberation2, for orange); looked in "
      ))
    #expect(
      result.stderr.hasSuffix(
        "; install the package (apt-get install fonts-liberation2) or put the files in a folder given with --font-dir or OUDS_FONT_DIRS\n"
      ))
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }

  @Test(
    "an unwritable output path is an error and leaves nothing behind (also when the tests run as root)"
  )
  func unwritable() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = repositoryRoot.path + "/Snapshots/cases/sample-2.json"
    let result = try run(["render", list, "-o", "/nonexistent-folder/out.png"], in: folder)
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "error: cannot write /nonexistent-folder/out.png: folder /nonexistent-folder does not exist\n"
    )

    // A "folder" that is a regular file: refused whoever runs the tool.
    let plain = try write("not a folder", "plain", in: folder)
    let underFile = try run(["render", list, "-o", plain + "/out.png"], in: folder)
    #expect(underFile.status == 1)
    #expect(underFile.stderr.hasPrefix("error: cannot write \(plain)/out.png: "))
    #expect(underFile.stderr.split(separator: "\n").count == 1)
    #expect(try String(contentsOfFile: plain, encoding: .utf8) == "not a folder")

    // A read-only folder: permission denied. Root ignores permission bits, so as root the tool runs as nobody.
    let readOnly = folder.appendingPathComponent("ro")
    try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
    defer {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: readOnly.path)
    }
    // nobody may not reach the checkout (a clone in a root-only folder), so the list and the
    // tokens it reads are copies in the test's folder
    let themes = try copyOfThemes(in: folder)
    let listCopy = folder.appendingPathComponent("sample-2.json").path
    try FileManager.default.copyItem(atPath: list, toPath: listCopy)
    let denied = try run(
      ["render", listCopy, "--themes", themes.path, "-o", readOnly.path + "/out.png"],
      in: folder, unprivileged: true)
    #expect(denied.status == 1)
    #expect(denied.stderr == "error: cannot write \(readOnly.path)/out.png: permission denied\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: readOnly.path).isEmpty)
  }

  @Test("a malformed token file names the file")
  func brokenTheme() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    try "{ not json".write(
      toFile: themes.path + "/themes.resolver.json", atomically: true, encoding: .utf8)
    let result = try run(
      [
        "render", repositoryRoot.path + "/Snapshots/cases/sample-2.json", "--themes", themes.path,
        "-o", "out.png",
      ], in: folder)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: "))
    #expect(result.stderr.contains("themes.resolver.json"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test("a rich-text label in a bold list names the file and the item")
  func richTextInBold() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      #"{"items": [{"label": "a"}, {"markdown": "b **c**"}]}"#, "list.json", in: folder)
    try expectFailure(
      ["render", list, "-o", "out.png"], in: folder,
      stderr:
        "error: \(list): items[1]: rich text is allowed only when the text is not bold (set isBold or subListHasBoldText to false)"
    )
    let heading = try write(
      ##"{"isBold": false, "items": [{"markdown": "# b"}]}"##, "heading.json", in: folder)
    try expectFailure(
      ["render", heading, "-o", "out.png"], in: folder,
      stderr:
        "error: \(heading): items[0].markdown: a heading is not allowed in a label (only **strong**, *emphasis* and [links](url))"
    )
  }

  @Test("a missing list file and a missing font folder")
  func missingInputs() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try expectFailure(
      ["render", "nope.json", "-o", "out.png"], in: folder, stderr: "error: nope.json: no such file"
    )
    try expectFailure(
      [
        "render", repositoryRoot.path + "/Snapshots/cases/sample-2.json", "--font-dir", "/no/fonts",
        "-o", "out.png",
      ],
      in: folder, stderr: "error: brand font folder not found: /no/fonts")
  }
}

@Suite("Output names and warnings", .serialized)
struct OutputAndWarningTests {
  let list = repositoryRoot.path + "/Snapshots/cases/sample-2.json"

  @Test(
    "-o must agree with the format and with 'all'",
    arguments: [
      (
        ["--theme", "all", "-o", "out.svg"],
        "error: with --theme all, --mode all or --platform all, -o is a folder, but out.svg names a .svg file"
      ),
      (["--format", "pdf", "-o", "out.png"], "error: -o out.png ends in .png but --format is pdf"),
      (
        ["-o", "out.jpg"],
        "error: cannot tell the format of out.jpg: end it in .png, .svg or .pdf, or give --format"
      ),
      (
        ["--locale", "xx-!!", "-o", "out.png"],
        "error: --locale \"xx-!!\" is not a language tag such as en, fr-FR or ar-MA"
      ),
      (
        ["--width", "20", "-o", "out.png"],
        "error: --width must be a number from 40 to 10000, got \"20\""
      ),
      (
        ["--platform", "web", "-o", "out.png"],
        "error: unknown platform \"web\" (known: ios, android)"
      ),
      (
        ["--platform", "all", "-o", "out.png"],
        "error: with --theme all, --mode all or --platform all, -o is a folder, but out.png names a .png file"
      ),
    ])
  func usage(arguments: [String], message: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try run(["render", list] + arguments, in: folder)
    #expect(result.status == 2)
    #expect(result.stderr == message + "\nSee 'ouds-render render --help'.\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("characters no theme font has are named in a warning")
  func missingGlyphs() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tofu = try write(#"{"items": [{"label": "Emoji 😀 and 漢"}]}"#, "tofu.json", in: folder)
    let result = try run(["render", tofu, "-o", "out.png"], in: folder)
    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix("themes: ") == true)
    #expect(
      lines.last
        == "warning: items[0]: no font of the Orange theme has 😀 (U+1F600), 漢 (U+6F22); drawn as boxes"
    )
  }

  @Test(
    "a font file that differs from its manifest's SHA-256, with no other file of that name, is a warning"
  )
  func fontHashMismatch() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    let manifest = themes.path + "/fonts/sosh.fonts.json"
    let text = try String(contentsOfFile: manifest, encoding: .utf8)
    let bold = "1e9dfd6a6e33ac63a8fe3b4ed7ae0df9eac2d0b25e444e8e7daef4ac77943fc1"
    #expect(text.contains(bold))
    try text.replacingOccurrences(of: bold, with: String(repeating: "0", count: 64))
      .write(toFile: manifest, atomically: true, encoding: .utf8)
    let result = try run(
      ["render", list, "--theme", "sosh", "--themes", themes.path, "-o", "out.png"], in: folder)
    #expect(result.status == 0)
    let installed = try #require(
      FontLocator().locate(FontSource(fileName: "Inter-Bold.otf", sha256: bold, role: "latin-bold"))
    )
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix("themes: \(themes.path) (--themes) · fonts: ") == true)
    #expect(
      lines.last
        == "warning: fonts/sosh.fonts.json: Inter-Bold.otf in \(installed.url.deletingLastPathComponent().path) has SHA-256 1e9dfd6a6e33…, the manifest says 000000000000…, and no other file of that name has it: renders may differ from the references"
    )
  }

  @Test("--version names the tool and its render stack")
  func version() throws {
    let result = try run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("ouds-render 1.0.0 (cairo "))
    #expect(result.stdout.contains("pango "))
  }
}
