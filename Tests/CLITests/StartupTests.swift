import Fonts
import Foundation
import Graphics
import Testing
import Themes

/// What a command reads before it works, seen through `OUDS_TRACE_FILES=1` (one
/// `trace: read <kind>: <path>` line on stderr per user file opened): `diff` reads its two PNGs
/// and nothing else; `render` of one theme reads the core token files and that theme's own, its
/// manifest, and hashes its fonts only while the font hash cache does not know them.
@Suite("Start-up: a command reads what it uses")
struct StartupTests {
  static let sample = repositoryRoot.appendingPathComponent("Snapshots/cases/sample-2.json").path

  /// The `trace: read <kind>: <path>` lines of `stderr`, as (kind, path).
  static func reads(_ stderr: String) -> [(kind: String, path: String)] {
    stderr.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("trace: read ") else { return nil }
      let rest = line.dropFirst("trace: read ".count)
      guard let colon = rest.range(of: ": ") else { return nil }
      return (String(rest[..<colon.lowerBound]), String(rest[colon.upperBound...]))
    }
  }

  /// stderr without the trace lines.
  static func untraced(_ stderr: String) -> String {
    stderr.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("trace: ") }.joined(separator: "\n")
  }

  @Test("ouds-render links no Foundation: neither its module nor CoreFoundation's initialiser")
  func noFoundation() throws {
    // Foundation's start-up (CoreFoundation's initialiser, relocating its data) cost every run
    // about 2.5 ms; the product uses FoundationEssentials, Glibc and its own helpers instead.
    let binary = try BuiltBinary.url.get()
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let listing = folder.appendingPathComponent("symbols.txt")
    let nm = Process()
    nm.executableURL = URL(fileURLWithPath: "/bin/sh")
    nm.arguments = ["-c", "nm --defined-only \"$0\" > \"$1\"", binary.path, listing.path]
    try nm.run()
    nm.waitUntilExit()
    #expect(nm.terminationStatus == 0, "nm (binutils) lists the symbols of \(binary.path)")
    let symbols = try String(contentsOf: listing, encoding: .utf8)
    #expect(symbols.contains("ouds_render_main"))
    let foundation = symbols.split(separator: "\n").filter {
      $0.contains(" $s10Foundation") || $0.hasSuffix(" __CFInitialize")
        || $0.contains(" $s31FoundationInternationalization")
    }
    #expect(foundation.isEmpty, "Foundation symbols in ouds-render: \(foundation.prefix(5))")
  }

  /// The sonames of the libraries `CGraphicsLoader` loads on first use.
  static let drawingLibraries = [
    "libpangocairo-1.0.so.0", "libpangoft2-1.0.so.0", "libpango-1.0.so.0", "libcairo.so.2",
    "libharfbuzz.so.0", "libfontconfig.so.1", "libfreetype.so.6", "libgobject-2.0.so.0",
    "libglib-2.0.so.0", "librsvg-2.so.2", "libgio-2.0.so.0",
  ]

  /// The shared objects whose initialisers the dynamic loader ran in a process, from its
  /// `LD_DEBUG=libs` lines (`calling init: /lib/…/libcairo.so.2`), by file name.
  static func initialised(_ stderr: String) -> Set<String> {
    Set(
      stderr.split(separator: "\n").compactMap { line in
        guard let range = line.range(of: "calling init: ") else { return nil }
        return URL(fileURLWithPath: String(line[range.upperBound...])).lastPathComponent
      })
  }

  #if os(Linux)
    @Test("ouds-render does not link the drawing libraries: none is among the libraries it needs")
    func drawingLibrariesAreNotLinked() throws {
      // Mapping Cairo, Pango, librsvg and the 40 libraries under them was most of a process's
      // start-up; they are loaded by the first call that needs them (CGraphicsLoader).
      let binary = try BuiltBinary.url.get()
      let readelf = Process()
      let output = Pipe()
      readelf.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
      readelf.arguments = ["--dynamic", binary.path]
      readelf.standardOutput = output
      try readelf.run()
      let listing = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      readelf.waitUntilExit()
      #expect(readelf.terminationStatus == 0, "readelf (binutils) reads \(binary.path)")
      let needed = listing.split(separator: "\n").filter { $0.contains("(NEEDED)") }
      #expect(needed.contains { $0.contains("[libspng.so.0]") }, "\(needed)")
      for library in Self.drawingLibraries + ["libmicrohttpd.so.12"] {
        #expect(!needed.contains { $0.contains("[\(library)]") }, "\(library) is linked")
      }
    }

    @Test(
      "libmicrohttpd (and GnuTLS under it) is loaded by preview alone: not by --version or render")
    func serverLibraryLoadsForPreviewAlone() throws {
      let folder = try temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let environment = ["LD_DEBUG": "libs", "XDG_CACHE_HOME": folder.path]
      let version = try run(["--version"], environment: environment)
      #expect(version.status == 0)
      let render = try run(
        ["render", Self.sample, "-o", folder.appendingPathComponent("plain.png").path],
        environment: environment)
      #expect(render.status == 0)
      for result in [version, render] {
        let loaded = Self.initialised(result.stderr)
        #expect(loaded.contains("libspng.so.0"), "LD_DEBUG=libs works here")
        #expect(!loaded.contains("libmicrohttpd.so.12"))
        #expect(!loaded.contains { $0.hasPrefix("libgnutls") })
      }
      try write("- a\n", "list.md", in: folder)
      let preview = try PreviewProcess(
        ["preview", "list.md", "--port", "0"], in: folder, environment: ["LD_DEBUG": "libs"])
      _ = try preview.port()
      #expect(preview.stop() == 0)
      #expect(Self.initialised(preview.stderr).contains("libmicrohttpd.so.12"))
    }

    @Test(
      "diff loads no drawing library; render loads them, and librsvg only for SVG icons it does not fill itself"
    )
    func librariesLoadWhenNeeded() throws {
      let folder = try temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let environment = ["LD_DEBUG": "libs", "XDG_CACHE_HOME": folder.path]
      let reference = repositoryRoot.appendingPathComponent(
        "Snapshots/sample-2/orange-light@2x.png")
      let diff = try run(["diff", reference.path, reference.path], environment: environment)
      #expect(diff.status == 0)
      #expect(Self.initialised(diff.stderr).contains("libspng.so.0"), "LD_DEBUG=libs works here")
      #expect(Self.initialised(diff.stderr).isDisjoint(with: Self.drawingLibraries))

      // sample-2 has bullets, demo-unordered an SVG icon
      let plain = try run(
        ["render", Self.sample, "-o", folder.appendingPathComponent("plain.png").path],
        environment: environment)
      #expect(plain.status == 0)
      #expect(
        Self.initialised(plain.stderr).isSuperset(of: ["libcairo.so.2", "libpango-1.0.so.0"]))
      #expect(!Self.initialised(plain.stderr).contains("librsvg-2.so.2"))
      // a list of one icon, and its render to `output` with LD_DEBUG=libs
      func iconList(_ icon: String, _ name: String) throws -> String {
        try write(
          #"{"type": {"unordered": {"asset": {"icon": "\#(icon)"}}}, "items": [{"label": "Loved"}]}"#,
          "\(name).json", in: folder)
      }
      func render(_ list: String, _ output: String) throws -> RunResult {
        try run(
          ["render", list, "-o", folder.appendingPathComponent(output).path],
          environment: environment)
      }
      let heartList = try iconList(
        repositoryRoot.appendingPathComponent("Snapshots/cases/heart.svg").path, "icon")
      // the heart is filled paths: a PNG draws it without librsvg, a vector output with it
      let withIcon = try render(heartList, "icon.png")
      #expect(withIcon.status == 0)
      #expect(!Self.initialised(withIcon.stderr).contains("librsvg-2.so.2"))
      let vector = try render(heartList, "icon.svg")
      #expect(vector.status == 0)
      #expect(Self.initialised(vector.stderr).contains("librsvg-2.so.2"))
      // a stroked icon is librsvg's to draw, in a PNG too
      let stroked = try write(
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M4 4 H20 V20 H4 Z" fill="none" stroke="#000" stroke-width="2"/></svg>"##,
        "stroked.svg", in: folder)
      let withStroke = try render(try iconList(stroked, "stroked"), "stroked.png")
      #expect(withStroke.status == 0, "\(withStroke.stderr)")
      #expect(Self.initialised(withStroke.stderr).contains("librsvg-2.so.2"))
      // an icon the policy refuses is refused in a PNG too, with the same line, though its
      // filled paths alone would draw: every format accepts the same icons
      let refused = try write(
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><!-- href="x.svg" --><path d="M4 4 H20 V20 H4 Z"/></svg>"##,
        "refused.svg", in: folder)
      let refusedList = try iconList(refused, "refused")
      var lines: [String] = []
      for output in ["refused.png", "refused.svg"] {
        // without LD_DEBUG, whose lines would come first on standard error
        let result = try run(
          ["render", refusedList, "-o", folder.appendingPathComponent(output).path])
        #expect(result.status == 1, "\(output)")
        lines.append(result.stderr.split(separator: "\n").first.map(String.init) ?? "")
      }
      #expect(lines[0] == lines[1])
      #expect(
        lines[0].contains("icon file could not be read: \(refused): contains "), "\(lines[0])")
    }

    @Test("a drawing library that cannot be loaded is one line naming it and its package, exit 1")
    func missingLibrary() throws {
      // a file of that soname that is not a library, found first through LD_LIBRARY_PATH
      let folder = try temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let broken = try write("not a library", "libpangocairo-1.0.so.0", in: folder)
      let environment = ["LD_LIBRARY_PATH": folder.path, "XDG_CACHE_HOME": folder.path]
      // render needs pangocairo first; --version librsvg first, which needs pangocairo
      for (arguments, library) in [
        (
          ["render", Self.sample, "-o", folder.appendingPathComponent("x.png").path],
          "libpangocairo-1.0.so.0 (Debian package libpangocairo-1.0-0)"
        ),
        (["--version"], "librsvg-2.so.2 (Debian package librsvg2-2)"),
      ] {
        let result = try run(arguments, environment: environment)
        #expect(result.status == 1, "\(arguments)")
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n")
        #expect(
          lines.count == 1 && lines[0].hasPrefix("error: cannot load \(library): \(broken): "),
          "\(result.stderr)")
      }
      // diff needs none of them
      let reference = repositoryRoot.appendingPathComponent(
        "Snapshots/sample-2/orange-light@2x.png")
      let diff = try run(["diff", reference.path, reference.path], environment: environment)
      #expect(diff.status == 0)
    }
  #endif

  @Test(
    "render leaves fontconfig's default configuration empty: no system font is scanned or cached")
  func noDefaultFontconfigScan() throws {
    // With no current configuration, Pango's FcInit thread would load the machine's (here: this
    // one's) and scan its folders, writing a cache for each into <cachedir>; the render waited.
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = folder.appendingPathComponent("fontconfig-cache")
    let config = try write(
      """
      <?xml version="1.0"?>
      <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
      <fontconfig>
        <dir>/usr/share/fonts/truetype/liberation2</dir>
        <dir>/usr/share/fonts/truetype/noto</dir>
        <cachedir>\(cache.path)</cachedir>
      </fontconfig>
      """, "fonts.conf", in: folder)
    let output = folder.appendingPathComponent("sample.png")
    let result = try run(
      ["render", Self.sample, "--verbose", "-o", output.path],
      environment: ["FONTCONFIG_FILE": config, "XDG_CACHE_HOME": folder.path])
    #expect(result.status == 0, "\(result.stderr)")
    // the fonts were found in the configuration's folders (its <dir>s are still searched)…
    #expect(
      result.stderr.contains(
        "LiberationSans-Regular.ttf, LiberationSans-Bold.ttf in /usr/share/fonts/truetype/liberation2"
      ))
    // …and pixel for pixel the reference, but nothing scanned them into a cache
    let reference = repositoryRoot.appendingPathComponent("Snapshots/sample-2/orange-light@2x.png")
    let diff = try run(["diff", reference.path, output.path])
    #expect(diff.stdout == "images are identical\n")
    #expect(!FileManager.default.fileExists(atPath: cache.path), "fontconfig wrote \(cache.path)")
  }

  @Test("diff reads its two PNGs alone: it works with a broken themes folder and no fonts at all")
  func diffTouchesNoTokensNorFonts() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // a themes folder whose resolver is not JSON, no font folder, no system fonts, a fresh cache
    let themes = folder.appendingPathComponent("Themes")
    try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
    try write("{ not json", ThemeLibrary.resolverFileName, in: themes)
    let noFonts = try write(
      #"<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd"><fontconfig></fontconfig>"#,
      "no-fonts.conf", in: folder)
    let cache = folder.appendingPathComponent("cache")
    let environment = [
      ThemesLocation.environmentVariable: themes.path, FontLocator.environmentVariable: "",
      "FONTCONFIG_FILE": noFonts, "XDG_CACHE_HOME": cache.path, "OUDS_TRACE_FILES": "1",
    ]
    // the same environment stops a render: it really is broken
    let render = try run(
      ["render", Self.sample, "-o", folder.appendingPathComponent("x.png").path],
      environment: environment)
    #expect(render.status == 1)
    #expect(render.stderr.contains("themes.resolver.json: malformed JSON"))

    let reference = repositoryRoot.appendingPathComponent("Snapshots/sample-2/orange-light@2x.png")
    let other = repositoryRoot.appendingPathComponent("Snapshots/sample-2/orange-dark@2x.png")
    let copy = folder.appendingPathComponent("copy.png")
    try FileManager.default.copyItem(at: reference, to: copy)
    let identical = try run(["diff", reference.path, copy.path], environment: environment)
    #expect(identical.status == 0)
    #expect(identical.stdout == "images are identical\n")
    let changed = try run(
      ["diff", reference.path, other.path, "-o", folder.appendingPathComponent("d.png").path],
      environment: environment)
    #expect(changed.status == 1)
    #expect(changed.stdout.contains(" pixels differ ("))
    for result in [identical, changed] {
      #expect(Self.reads(result.stderr).map(\.kind) == ["PNG file", "PNG file"])
      #expect(Self.untraced(result.stderr).trimmingCharacters(in: .whitespacesAndNewlines) == "")
    }
    #expect(Self.reads(identical.stderr).map(\.path) == [reference.path, copy.path])
    #expect(!FileManager.default.fileExists(atPath: cache.path), "no font hash cache written")
  }

  @Test(
    "render of one theme reads the core and its own token files, and hashes its fonts once across runs"
  )
  func renderReadsOneTheme() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = folder.appendingPathComponent("cache")
    let environment = ["XDG_CACHE_HOME": cache.path, "OUDS_TRACE_FILES": "1"]
    let themes = repositoryRoot.appendingPathComponent("Themes").path
    let render = [
      "render", Self.sample, "--themes", themes, "--theme", "sosh", "--mode", "light", "--verbose",
    ]
    let first = try run(render + ["-o", "one.png"], in: folder, environment: environment)
    #expect(first.status == 0, "\(first.stderr)")
    let reads = Self.reads(first.stderr)
    let tokenFiles = reads.filter { $0.kind == "token file" }.map(\.path)
    let themesFolder = themes + "/"
    #expect(
      tokenFiles.map { $0.replacingOccurrences(of: themesFolder, with: "") } == [
        "themes.resolver.json", "core/dimension.tokens.json", "core/font.tokens.json",
        "core/color.tokens.json", "styles/typography.tokens.json",
        "components/bullet-list.tokens.json", "components/link.tokens.json",
        "brands/sosh/brand.tokens.json", "brands/sosh/light.tokens.json",
        "components/bullet-list.spec.json",
      ])
    #expect(
      reads.filter { $0.kind == "marker asset" }.allSatisfy { $0.path.contains("/markers/sosh/") })
    #expect(
      reads.filter { $0.kind == "font manifest" }.map(\.path)
        == [themesFolder + "fonts/sosh.fonts.json"])
    // every font the theme uses is hashed once, and no other
    let manifest = try ThemeLibrary(directory: URL(fileURLWithPath: themes)).fontManifest(
      for: .sosh)
    let hashed = reads.filter { $0.kind == "font file" }.map {
      URL(fileURLWithPath: $0.path).lastPathComponent
    }
    #expect(hashed.sorted() == manifest.files.map(\.fileName).sorted())
    let cacheFile = cache.appendingPathComponent("ouds-render/font-hashes")
    #expect(FileManager.default.fileExists(atPath: cacheFile.path))

    // the next run finds every hash in the cache: no font is read, the same line, the same PNG
    let second = try run(render + ["-o", "two.png"], in: folder, environment: environment)
    #expect(second.status == 0)
    #expect(Self.reads(second.stderr).filter { $0.kind == "font file" }.isEmpty)
    #expect(Self.reads(second.stderr).contains { $0.kind == "font hash cache" })
    #expect(Self.untraced(second.stderr) == Self.untraced(first.stderr))
    let line = Self.untraced(second.stderr)
    #expect(line.contains("themes: "))
    for file in manifest.files { #expect(line.contains(file.fileName), "\(file.fileName)") }
    #expect(
      try Data(contentsOf: folder.appendingPathComponent("one.png"))
        == Data(contentsOf: folder.appendingPathComponent("two.png")))

    // a corrupt cache costs the hashing again, never the result
    try Data("ouds-render font hashes 1\nnonsense\n".utf8).write(to: cacheFile)
    let third = try run(render + ["-o", "three.png"], in: folder, environment: environment)
    #expect(third.status == 0)
    #expect(Self.reads(third.stderr).filter { $0.kind == "font file" }.count == hashed.count)
    #expect(
      try Data(contentsOf: folder.appendingPathComponent("three.png"))
        == Data(contentsOf: folder.appendingPathComponent("one.png")))
  }

  @Test("without OUDS_TRACE_FILES nothing is traced")
  func quietByDefault() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try run(
      ["render", Self.sample, "--theme", "sosh", "--mode", "light", "-o", "one.png"], in: folder,
      environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path],
      removing: ["OUDS_TRACE_FILES"])
    #expect(result.status == 0)
    #expect(!result.stderr.contains("trace:"))
  }
}
