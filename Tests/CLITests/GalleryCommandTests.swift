import Foundation
import Graphics
import PNG
import Testing
import Themes

/// `ouds-render gallery` and `sheet --compare-themes`, run as a binary.
@Suite("ouds-render gallery and --compare-themes, run as a binary", .serialized)
final class GalleryCommandTests {
  let folder: URL
  /// The repository's themes with `color.content.brand-primary` of Orange light set to #FF00FF and
  /// Sosh's `bullet-list.space.padding-inline.level-1` set to 48 px.
  let edited: URL
  let list: String

  init() throws {
    folder = try temporaryFolder()
    edited = try copyOfThemes(in: folder)
    try Self.replace(
      in: edited.appendingPathComponent("brands/orange/light.tokens.json"),
      "\"brand-primary\": {\n        \"$value\": \"{color.raw.orange.orange-550}\"",
      "\"brand-primary\": {\n        \"$value\": {\"hex\": \"#FF00FF\", \"colorSpace\": \"srgb\", \"components\": [1, 0, 1]}"
    )
    let description =
      "\"$description\": \"Sosh: brand raw palette, font family and semantic typography, spacing and sizes (mode-independent).\","
    try Self.replace(
      in: edited.appendingPathComponent("brands/sosh/brand.tokens.json"), description,
      description
        + "\n  \"bullet-list\": { \"space\": { \"padding-inline\": { \"level-1\": { \"$type\": \"dimension\", \"$value\": {\"value\": 48, \"unit\": \"px\"} } } } },"
    )
    list = try write(
      """
      { "type": { "unordered": { "asset": "bullet", "branded": true } },
        "items": [ { "label": "One", "items": [ { "label": "One.one" } ] }, { "label": "Two" } ] }
      """, "list.json", in: folder)
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  static func replace(in file: URL, _ old: String, _ new: String) throws {
    let text = try String(contentsOf: file, encoding: .utf8)
    guard text.components(separatedBy: old).count == 2 else {
      throw CLIError("\(file.path): \(old) is not there once")
    }
    try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file)
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// The four lines the edit gives, with the repository's old colour.
  func expectedLines() throws -> [String] {
    let old = try ThemeLibrary(directory: repositoryRoot.appendingPathComponent("Themes"))
      .theme(.orange, mode: .light).colors.contentBrandPrimary.hex
    return [
      "orange/light color.content.brand-primary: \(old) → #FF00FF (brands/orange/light.tokens.json)",
      "orange-compact/light color.content.brand-primary: \(old) → #FF00FF (brands/orange/light.tokens.json)",
      "sosh/light bullet-list.space.padding-inline.level-1: 36px → 48px (brands/sosh/brand.tokens.json)",
      "sosh/dark bullet-list.space.padding-inline.level-1: 36px → 48px (brands/sosh/brand.tokens.json)",
    ]
  }

  @Test(
    "sheet --compare-themes: exit 0, one line per changed token on stdout, the review picture written"
  )
  func sheetReview() throws {
    let result = try run(
      [
        "sheet", list, "--themes", edited.path, "--compare-themes", "Themes", "-o",
        path("review.png"),
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == (try expectedLines()).map { $0 + "\n" }.joined())
    #expect(
      result.stderr.hasPrefix("themes: \(edited.standardizedFileURL.path) (--themes) · fonts: "))
    let picture = try PNGCodec.decode(Data(contentsOf: URL(fileURLWithPath: path("review.png"))))
    #expect(picture.width > 3 * 360 * 2 && picture.height > 0)

    let pdf = try run(
      [
        "sheet", list, "--themes", edited.path, "--compare-themes", "Themes", "--theme",
        "wireframe", "-o", path("review.pdf"),
      ])
    #expect(pdf.status == 0, "\(pdf.stderr)")
    #expect(
      pdf.stdout
        == "no token changed in Wireframe light and dark: Themes (--compare-themes) and \(edited.standardizedFileURL.path) (--themes) resolve to the same values\n",
      "nothing of Wireframe changed")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: path("review.pdf"))).starts(
        with: Data("%PDF-".utf8)))
  }

  @Test(
    "sheet --compare-themes -o X.pdf: a summary page with the first changed theme × mode, then one A4 landscape page per other, titled, numbered, its tokens and pictures on it"
  )
  func sheetReviewPages() throws {
    let pdf = path("review-pages.pdf")
    let result = try run(
      ["sheet", list, "--themes", edited.path, "--compare-themes", "Themes", "-o", pdf])
    #expect(result.status == 0, "\(result.stderr)")
    let changed = [
      ("Orange · light", "color.content.brand-primary"),
      ("Orange Compact · light", "color.content.brand-primary"),
      ("Sosh · light", "bullet-list.space.padding-inline.level-1"),
      ("Sosh · dark", "bullet-list.space.padding-inline.level-1"),
    ]
    let sizes = try Poppler.pageSizes(pdf)
    #expect(
      sizes.count == changed.count,
      "the summary with the first changed combination on the cover, then one page per other")
    #expect(sizes.allSatisfy { $0 == (841.89, 595.28) }, "A4 landscape: \(sizes)")
    let summary = try Poppler.text(pdf, page: 1)
    #expect(summary.hasPrefix("Token review: list.json\n"), "\(summary)")
    #expect(summary.contains("4 of 8 theme and mode combinations changed; 4 changed token values"))
    for unchanged in [
      "Orange · dark", "Orange Compact · dark", "Wireframe · light", "Wireframe · dark",
    ] {
      #expect(summary.contains("\(unchanged): unchanged (no token, row or pixel differs)"))
    }
    #expect(summary.contains("\n1 / 4\n"))
    for (index, (title, token)) in changed.enumerated() {
      let page = index + 1
      let text = try Poppler.text(pdf, page: page)
      #expect(
        index == 0
          ? text.contains("\nToken review: list.json — \(title)\n")
          : text.hasPrefix("Token review: list.json — \(title)\n"), "\(text)")
      // The legend (the folders, the fonts of its theme, the diff's key) may wrap.
      #expect(
        text.replacingOccurrences(of: "\n", with: " ").contains(
          "diff: unchanged pixels ghosted in grey"), "the legend")
      #expect(text.contains(token), "its changed token")
      #expect(
        try Poppler.captionLine(pdf, page: page) == 1, "before, after and diff side by side")
      #expect(text.contains("\n\(page) / 4\n"), "\(text)")
    }
  }

  @Test(
    "gallery --pdf: numbered A4 landscape pages, none nearly empty, a long case file folded with the count of lines left out"
  )
  func galleryPages() throws {
    let snapshots = try snapshots()
    let pdf = path("pages/gallery.pdf")
    let result = try run(
      [
        "gallery", "--snapshots", snapshots.path, "--themes", "Themes", "-o", path("pages/g"),
        "--pdf", pdf,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let sizes = try Poppler.pageSizes(pdf)
    #expect(sizes.count >= 3 && sizes.allSatisfy { $0 == (841.89, 595.28) }, "\(sizes)")
    var folds: [Int] = []
    for page in 1...sizes.count {
      let text = try Poppler.text(pdf, page: page)
      #expect(text.contains("\n\(page) / \(sizes.count)\n"), "page \(page)")
      // every page says what it shows: the gallery, or the case it begins or continues (at its
      // foot, beside the number)
      let titles = text.matches(of: /[\w-]+ \(cases\/[\w.-]+\)/).map { String($0.0) }
      #expect(
        text.contains("OUDS bullet list gallery") || !titles.isEmpty,
        "page \(page) names neither the gallery nor a case: \(text)")

      folds += text.matches(of: /… (\d+) more lines/).compactMap { Int($0.1) }
    }
    // demo-unordered's file is longer than the 30 % of a page a case's file may take; sample-3's is not.
    let lines = try String(
      contentsOf: snapshots.appendingPathComponent("cases/demo-unordered.json"), encoding: .utf8
    ).split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(folds.count == 1, "\(folds)")
    let shown = lines - (folds.first ?? lines)
    // 30 % of the 520 pt a numbered page holds, in 12 pt lines, the fold line included.
    #expect(shown > 5 && shown <= 13, "\(shown) of \(lines) lines shown")
    let used = try Poppler.usedHeights(pdf, footer: 28 + 19)
    #expect(used.count == sizes.count)
    #expect(used.allSatisfy { $0 >= 0.15 }, "no nearly empty page: \(used)")
  }

  @Test(
    "--compare-themes against an identical folder: one stdout line naming both folders, exit 0")
  func identicalFolders() throws {
    _ = try snapshots()
    let same = folder.appendingPathComponent("same-Themes")
    try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Themes"), to: same)
    let sheet = try run(
      [
        "sheet", "list.json", "--themes", "same-Themes", "--compare-themes",
        repositoryRoot.appendingPathComponent("Themes").path, "-o", "same.png",
      ], in: folder)
    #expect(sheet.status == 0, "\(sheet.stderr)")
    #expect(
      sheet.stdout
        == "no token changed: \(repositoryRoot.appendingPathComponent("Themes").standardizedFileURL.path) (--compare-themes) and same-Themes (--themes) resolve to the same values\n"
    )
    let gallery = try run(
      [
        "gallery", "--snapshots", "Snapshots", "--themes", "same-Themes", "--compare-themes",
        "same-Themes", "-o", "same-gallery",
      ], in: folder)
    #expect(gallery.status == 0, "\(gallery.stderr)")
    #expect(
      gallery.stdout
        == "no token changed: same-Themes (--compare-themes) and same-Themes (--themes) resolve to the same values\n"
    )
  }

  @Test("sheet --compare-themes: -o - and a folder that holds no themes are refused, naming them")
  func sheetReviewErrors() throws {
    let dash = try run(["sheet", list, "--compare-themes", "Themes", "-o", "-"])
    #expect(dash.status == 2)
    #expect(
      dash.stderr.hasPrefix(
        "error: --compare-themes prints the changed tokens on standard output: give -o a file for the picture\n"
      ))
    #expect(dash.stdout.isEmpty)
    let missing = try run(["sheet", list, "--compare-themes", path("nowhere"), "-o", path("r.png")])
    #expect(missing.status == 1)
    #expect(
      missing.stderr
        == "error: --compare-themes \(path("nowhere")): not a themes folder (no themes.resolver.json in it)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: path("r.png")))
  }

  /// A snapshots folder with `sample-3` in Sosh dark and `demo-unordered` in Orange and Wireframe light.
  func snapshots() throws -> URL {
    let snapshots = folder.appendingPathComponent("Snapshots")
    let cases = snapshots.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    let source = repositoryRoot.appendingPathComponent("Snapshots/cases")
    for (name, variants) in [
      ("sample-3", #"{ "themes": ["sosh"], "modes": ["dark"] }"#),
      ("demo-unordered", #"{ "themes": ["orange", "wireframe"], "modes": ["light"] }"#),
    ] {
      var text = try String(
        contentsOf: source.appendingPathComponent("\(name).json"), encoding: .utf8)
      if let range = text.range(of: ",\n  \"variants\"") {
        text = String(text[..<range.lowerBound]) + "\n}\n"
      }
      text = text.trimmingCharacters(in: .whitespacesAndNewlines)
      text.removeLast()
      text =
        text.trimmingCharacters(in: .whitespacesAndNewlines) + ",\n  \"variants\": \(variants)\n}\n"
      try Data(text.utf8).write(to: cases.appendingPathComponent("\(name).json"))
    }
    try FileManager.default.copyItem(
      at: source.appendingPathComponent("heart.svg"), to: cases.appendingPathComponent("heart.svg"))
    return snapshots
  }

  @Test("gallery: writes index.html, images/ and the PDF, prints where; stdout stays empty")
  func gallery() throws {
    let snapshots = try snapshots()
    let out = path("out/gallery")
    let result = try run(
      [
        "gallery", "--snapshots", snapshots.path, "--themes", "Themes", "-o", out, "--pdf",
        path("out/gallery.pdf"),
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.contains("\ngallery: \(out)/index.html; PDF: \(path("out/gallery.pdf"))\n"))
    let html = try String(contentsOf: URL(fileURLWithPath: out + "/index.html"), encoding: .utf8)
    for image in [
      "sample-3/sosh-dark", "demo-unordered/orange-light", "demo-unordered/wireframe-light",
    ] {
      #expect(html.contains("src=\"images/\(image).png\""), "\(image)")
      #expect(FileManager.default.fileExists(atPath: "\(out)/images/\(image).png"))
    }
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: path("out/gallery.pdf"))).starts(
        with: Data("%PDF-".utf8)))

    // Again into the same folder: the images of the first run are replaced, nothing is left over.
    let again = try run(["gallery", "--snapshots", snapshots.path, "--themes", "Themes", "-o", out])
    #expect(again.status == 0, "\(again.stderr)")
    let names = try FileManager.default.subpathsOfDirectory(atPath: out + "/images").filter {
      $0.hasSuffix(".png")
    }.sorted()
    #expect(
      names == [
        "demo-unordered/orange-light.png", "demo-unordered/wireframe-light.png",
        "sample-3/sosh-dark.png",
      ])
  }

  @Test(
    "gallery: each warning once per case and theme, naming the case and variants; paths as the user gave them"
  )
  func galleryWarnings() throws {
    _ = try snapshots()
    try write(
      """
      {"type": "bare", "isBold": false,
       "items": [{"markdown": "An *emphasis*"}, {"markdown": "Another *one*"}],
       "variants": {"themes": ["orange", "orange-compact", "sosh"], "modes": ["light", "dark"]}}
      """, "Snapshots/cases/italic.json", in: folder)
    let result = try run(
      ["gallery", "--snapshots", "Snapshots", "-o", "out/relative", "--pdf", "out/relative.pdf"],
      in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("\ngallery: out/relative/index.html; PDF: out/relative.pdf\n"))
    let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(
      warnings == [
        "warning: italic (orange-light, orange-dark): items[0]: the Orange brand does not allow italic; emphasis is drawn upright",
        "warning: italic (orange-light, orange-dark): items[1]: the Orange brand does not allow italic; emphasis is drawn upright",
        "warning: italic (orange-compact-light, orange-compact-dark): items[0]: the Orange Compact brand does not allow italic; emphasis is drawn upright",
        "warning: italic (orange-compact-light, orange-compact-dark): items[1]: the Orange Compact brand does not allow italic; emphasis is drawn upright",
      ])
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("out/relative/index.html").path))
  }

  @Test("gallery --compare-themes: the changed tokens on stdout, exit 0")
  func galleryReview() throws {
    let snapshots = try snapshots()
    let result = try run(
      [
        "gallery", "--snapshots", snapshots.path, "--themes", edited.path, "--compare-themes",
        "Themes", "-o", path("review"),
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == (try expectedLines()).map { $0 + "\n" }.joined())
    let html = try String(
      contentsOf: URL(fileURLWithPath: path("review/index.html")), encoding: .utf8)
    #expect(html.contains(#"data-variant="orange-light" data-changed="changed""#))
    #expect(html.contains(#"data-variant="wireframe-light" data-changed="unchanged""#))
  }

  @Test(
    "gallery: a broken case file or an -o that is a file fails, naming it; an input is never replaced"
  )
  func galleryErrors() throws {
    let snapshots = try snapshots()
    try Data("{ \"items\": [ ".utf8).write(
      to: snapshots.appendingPathComponent("cases/broken.json"))
    let broken = try run([
      "gallery", "--snapshots", snapshots.path, "--themes", "Themes", "-o", path("b"),
    ])
    #expect(broken.status == 1)
    #expect(broken.stderr.contains("\nerror: cases/broken.json:"), "\(broken.stderr)")
    #expect(
      try String(contentsOf: URL(fileURLWithPath: path("b/index.html")), encoding: .utf8).contains(
        "cases/broken.json"))
    try FileManager.default.removeItem(at: snapshots.appendingPathComponent("cases/broken.json"))

    try write("not a folder", "file", in: folder)
    let file = try run(["gallery", "--snapshots", snapshots.path, "-o", path("file")])
    #expect(file.status == 2)
    #expect(
      file.stderr.hasPrefix(
        "error: -o \(path("file")) is not a folder: the gallery is a folder (index.html and images/)\n"
      ))

    let caseFile = snapshots.appendingPathComponent("cases/sample-3.json")
    let before = try Data(contentsOf: caseFile)
    let overwrite = try run(
      [
        "gallery", "--snapshots", snapshots.path, "--themes", "Themes", "-o", path("c"), "--pdf",
        caseFile.path,
      ])
    #expect(overwrite.status == 1)
    #expect(
      overwrite.stderr
        == "error: --pdf \(caseFile.path): is inside the snapshots folder \(snapshots.path); give the PDF a path outside them\n"
    )
    #expect(try Data(contentsOf: caseFile) == before)
  }

  @Test(
    "no command writes into the snapshots folder, the themes folder in use (beside the snapshots, OUDS_THEMES_DIR) or its own outputs: one line, exit 1, nothing written"
  )
  func outputsOutsideInputs() throws {
    let snapshots = try snapshots()
    let themes = edited.path  // the Themes/ beside the snapshots folder
    func refused(
      _ arguments: [String], _ message: String, environment: [String: String] = [:],
      _ sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let result = try run(
        arguments, environment: environment,
        removing: environment.isEmpty ? ["OUDS_THEMES_DIR"] : [])
      #expect(result.status == 1, "\(result.stderr)", sourceLocation: sourceLocation)
      #expect(result.stderr == "error: \(message)\n", sourceLocation: sourceLocation)
    }
    let other = path("other-themes")
    try FileManager.default.copyItem(atPath: themes, toPath: other)
    defer { try? FileManager.default.removeItem(atPath: other) }
    let listing = try ShardRun.files(under: folder)
    try refused(
      ["gallery", "--snapshots", snapshots.path, "-o", snapshots.path],
      "-o \(snapshots.path): is the snapshots folder \(snapshots.path); write outputs outside it")
    try refused(
      ["gallery", "--snapshots", snapshots.path, "-o", path("Themes/g")],
      "-o \(path("Themes/g")): is inside the themes folder \(themes); write outputs outside it")
    try refused(
      ["snapshot", "verify", "--snapshots", snapshots.path, "--report", path("Themes/r")],
      "--report \(path("Themes/r")): is inside the themes folder \(themes); write results, artifacts and reports outside it"
    )
    try refused(
      ["snapshot", "verify", "--snapshots", snapshots.path, "--results", other + "/r"],
      "--results \(other)/r: is inside the themes folder \(other); write results, artifacts and reports outside it",
      environment: ["OUDS_THEMES_DIR": other])
    try refused(
      ["sheet", list, "-o", other + "/sheet.png"],
      "-o \(other)/sheet.png: is inside the themes folder \(other); write outputs outside it",
      environment: ["OUDS_THEMES_DIR": other])
    try refused(
      ["render", list, "-o", path("Themes/list.png"), "--themes", themes],
      "-o \(path("Themes/list.png")): is inside the themes folder \(themes); write outputs outside it"
    )
    #expect(try ShardRun.files(under: folder).keys.sorted() == listing.keys.sorted())

    // The gallery's own page and images are not a place for its PDF.
    let written = try run(["gallery", "--snapshots", snapshots.path, "-o", path("g")])
    #expect(written.status == 0, "\(written.stderr)")
    let page = try Data(contentsOf: URL(fileURLWithPath: path("g/index.html")))
    try refused(
      ["gallery", "--snapshots", snapshots.path, "-o", path("g"), "--pdf", path("g/index.html")],
      "--pdf \(path("g/index.html")): is the gallery page \(path("g/index.html")); give the PDF a path outside them"
    )
    try refused(
      [
        "gallery", "--snapshots", snapshots.path, "-o", path("g"), "--pdf",
        path("g/images/sample-3/sosh-dark.png"),
      ],
      "--pdf \(path("g/images/sample-3/sosh-dark.png")): is inside the gallery's images folder \(path("g/images")); give the PDF a path outside them"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: path("g/index.html"))) == page)
  }
}
