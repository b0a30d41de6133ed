import Foundation
import Testing

/// Files people share (sheets, token reviews, gallery pages and PDFs) name the folders they were
/// made from as the user sees them, not as absolute paths of one machine: the same inputs in two
/// checkouts give the same bytes.
@Suite("shared artifacts do not depend on where the checkout is")
struct SharedArtifactTests {
  /// A checkout-like folder: `Themes/`, an edited copy `edited-Themes/`, a `fonts/` brand font
  /// folder holding Orange's regular face, `Snapshots/cases/` with two cases and a list.
  func checkout(in root: URL, named name: String) throws -> URL {
    let folder = root.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    _ = try copyOfThemes(in: folder)
    let edited = folder.appendingPathComponent("edited-Themes")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Themes"), to: edited)
    let light = edited.appendingPathComponent("brands/sosh/light.tokens.json")
    let text = try String(contentsOf: light, encoding: .utf8)
    let old = "\"default\": {\n        \"$value\": \"{color.raw.functional.black}\","
    #expect(text.contains(old))
    try Data(
      text.replacingOccurrences(
        of: old, with: "\"default\": {\n        \"$value\": {\"hex\": \"#333333\"},"
      ).utf8
    ).write(to: light)
    let fonts = folder.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: try SourcesTests.installed("LiberationSans-Regular.ttf"),
      to: fonts.appendingPathComponent("LiberationSans-Regular.ttf"))
    let cases = folder.appendingPathComponent("Snapshots/cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    for file in ["sample-2.json", "onboarding.md"] {
      try FileManager.default.copyItem(
        at: repositoryRoot.appendingPathComponent("Snapshots/cases/\(file)"),
        to: cases.appendingPathComponent(file))
    }
    try write(
      #"{"type": "unordered", "items": [{"label": "One", "items": [{"label": "Two"}]}]}"#,
      "list.json", in: folder)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
    return folder
  }

  /// What each command writes, read back: name → bytes.
  func artifacts(in folder: URL) throws -> [String: Data] {
    let runs: [[String]] = [
      ["sheet", "list.json", "--font-dir", "fonts", "-o", "out/sheet.svg"],
      ["sheet", "list.json", "--font-dir", "fonts", "-o", "out/sheet.pdf"],
      ["sheet", "list.json", "--audit", "--theme", "sosh", "-o", "out/audit.svg"],
      [
        "sheet", "list.json", "--themes", "edited-Themes", "--compare-themes", "Themes",
        "--theme", "sosh", "-o", "out/review.pdf",
      ],
      [
        "sheet", "list.json", "--themes", "edited-Themes", "--compare-themes", "Themes",
        "--theme", "sosh", "--mode", "light", "-o", "out/review.svg",
      ],
      [
        "gallery", "--snapshots", "Snapshots", "--font-dir", "fonts", "-o", "out/gallery",
        "--pdf", "out/gallery.pdf",
      ],
      [
        "gallery", "--snapshots", "Snapshots", "--themes", "edited-Themes", "--compare-themes",
        "Themes", "-o", "out/review-gallery",
      ],
    ]
    for arguments in runs {
      let result = try run(arguments, in: folder)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
    var files: [String: Data] = [:]
    for name in [
      "sheet.svg", "sheet.pdf", "audit.svg", "review.pdf", "review.svg", "gallery/index.html",
      "gallery.pdf", "review-gallery/index.html",
    ] {
      files[name] = try Data(contentsOf: folder.appendingPathComponent("out/\(name)"))
    }
    return files
  }

  @Test(
    "sheets, token reviews and gallery pages are byte-identical from two checkouts in different folders"
  )
  func twoCheckouts() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = try checkout(in: root, named: "one")
    let second = try checkout(in: root, named: "second-checkout/deeper")
    let a = try artifacts(in: first)
    let b = try artifacts(in: second)
    for (name, data) in a.sorted(by: { $0.key < $1.key }) {
      #expect(data == b[name], "\(name) differs between \(first.path) and \(second.path)")
      let text = String(decoding: data, as: UTF8.self)
      #expect(!text.contains(root.path), "\(name) names \(root.path)")
      #expect(!text.contains(repositoryRoot.path), "\(name) names \(repositoryRoot.path)")
    }
    // The folders are named as the user sees them from the checkout.
    let sheet = String(decoding: try #require(a["sheet.svg"]), as: UTF8.self)
    #expect(
      sheet.contains(
        "<desc>Themes: Themes (found from the current folder), same tokens as the package's copy\n")
    )
    let gallery = String(decoding: try #require(a["gallery/index.html"]), as: UTF8.self)
    #expect(gallery.contains("themes: Themes (beside the snapshots folder) · fonts: "))
    #expect(gallery.contains("LiberationSans-Regular.ttf in fonts;"))
    #expect(gallery.contains(" in <code>fonts</code>"))
    let reviewGallery = String(
      decoding: try #require(a["review-gallery/index.html"]), as: UTF8.self)
    #expect(reviewGallery.contains("Compared with the tokens of <code>Themes</code>"))
  }

  @Test("a folder outside the current one stays absolute; the package's copy has a name")
  func outsideAndPackage() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = try checkout(in: root, named: "work")
    let elsewhere = root.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let outside = try run(
      [
        "sheet", folder.appendingPathComponent("list.json").path, "--themes",
        folder.appendingPathComponent("edited-Themes").path, "--theme", "sosh", "-o", "s.svg",
      ], in: elsewhere)
    #expect(outside.status == 0, "\(outside.stderr)")
    let svg = try String(contentsOf: elsewhere.appendingPathComponent("s.svg"), encoding: .utf8)
    let editedPath = folder.appendingPathComponent("edited-Themes").standardizedFileURL.path
    #expect(
      svg.contains(
        "<desc>Themes: \(editedPath) (--themes), edited: its tokens differ from the package's copy")
    )
    // The terminal line stays absolute.
    #expect(outside.stderr.hasPrefix("themes: \(editedPath) (--themes) · fonts: "))

    // No Themes/ above this folder: the package's own copy.
    let bare = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-bare-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: bare) }
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("Snapshots"), to: bare.appendingPathComponent("cases-root"))
    let packaged = try run(
      ["gallery", "--snapshots", "cases-root", "-o", "g"], in: bare,
      removing: ["OUDS_THEMES_DIR"])
    #expect(packaged.status == 0, "\(packaged.stderr)")
    let html = try String(
      contentsOf: bare.appendingPathComponent("g/index.html"), encoding: .utf8)
    #expect(html.contains("themes: the package&apos;s own copy · fonts: "), "\(html.prefix(3000))")
    #expect(!html.contains(".build/"))
  }
}
