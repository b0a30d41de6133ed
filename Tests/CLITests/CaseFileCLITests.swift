import Foundation
import Testing

/// The note a command prints once for a case file drawn without `--variant`.
private func variantsNote(_ name: String, count: Int) -> String {
  "note: \(name) is a catalogue case: its list is drawn with the options given, not its \(count) variants (--variant 1 to \(count) draws one)"
}

@Suite("A catalogue case file is a list for render, sheet, layout and audit")
struct CaseFileCLITests {
  /// The repository's first case file, with its `variants` key.
  static let sample = "Snapshots/cases/sample-1.json"

  @Test(
    "render, sheet, layout and audit draw a case file's list and say once that its variants are not applied"
  )
  func caseFileWithoutVariant() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let case1 = repositoryRoot.appendingPathComponent(Self.sample).path
    let note = variantsNote("sample-1.json", count: 10)
    let commands: [[String]] = [
      ["render", case1, "-o", folder.appendingPathComponent("out.png").path],
      ["sheet", case1, "--theme", "sosh", "-o", folder.appendingPathComponent("sheet.png").path],
      ["layout", case1],
      ["audit", case1, "--theme", "orange", "--mode", "light"],
    ]
    for arguments in commands {
      let result = try run(arguments)
      #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
      let lines = result.stderr.split(separator: "\n").map(String.init)
      #expect(lines.filter { $0 == note }.count == 1, "\(arguments[0]): \(result.stderr)")
    }
    // The picture is the plain list's: the same file without its variants draws the same bytes.
    let text = try String(contentsOfFile: case1, encoding: .utf8)
    let variantsKey = try #require(text.range(of: ",\n  \"variants\""))
    let plain = try write(
      String(text[..<variantsKey.lowerBound]) + "\n}\n", "plain.json", in: folder)
    let plainRun = try run(["render", plain, "-o", folder.appendingPathComponent("plain.png").path])
    #expect(plainRun.status == 0, "\(plainRun.stderr)")
    #expect(!plainRun.stderr.contains("note:"))
    #expect(
      try Data(contentsOf: folder.appendingPathComponent("out.png"))
        == Data(contentsOf: folder.appendingPathComponent("plain.png")))
    // A Markdown case file too.
    let markdown = repositoryRoot.appendingPathComponent("Snapshots/cases/markdown-ordered.md").path
    let layout = try run(["layout", markdown])
    #expect(layout.status == 0, "\(layout.stderr)")
    #expect(layout.stderr.contains(variantsNote("markdown-ordered.md", count: 10)))
  }

  @Test(
    "--variant n applies that variant's theme, mode, scale and layout settings; options given win"
  )
  func variant() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let items = #""items": [{"label": "Un"}, {"label": "Deux", "items": [{"label": "Trois"}]}]"#
    let caseFile = try write(
      #"{"type": "ordered", \#(items), "variants": [{}, {"themes": ["sosh"], "modes": ["dark"], "scale": 3, "width": 200, "locale": "ar", "textStyle": "bodyMedium", "background": "none", "platform": "android"}]}"#,
      "case.json", in: folder)
    let plain = try write(#"{"type": "ordered", \#(items)}"#, "plain.json", in: folder)
    let settings = [
      "--theme", "sosh", "--mode", "dark", "--width", "200", "--locale", "ar", "--text-style",
      "bodyMedium", "--background", "none", "--platform", "android",
    ]
    // Variant 9 is the second group's (the first group is 4 themes × 2 modes).
    for chosen in ["9", "sosh-dark-w200-ar-body-medium-transparent-android@3x"] {
      let layout = try run(["layout", caseFile, "--variant", chosen], in: folder)
      #expect(layout.status == 0, "\(layout.stderr)")
      #expect(!layout.stderr.contains("note:"))
      // the variant's scale is the pixel grid of its Android text
      let expected = try run(["layout", plain, "--scale", "3"] + settings, in: folder)
      #expect(layout.stdout == expected.stdout, "--variant \(chosen)")
    }
    // The variant's scale: 3 pixels a point of its 200-point width.
    let render = try run(["render", caseFile, "--variant", "9", "-o", "v.png"], in: folder)
    #expect(render.status == 0, "\(render.stderr)")
    let expected = try run(
      ["render", plain, "--scale", "3", "-o", "p.png"] + settings, in: folder)
    #expect(expected.status == 0, "\(expected.stderr)")
    let picture = try Data(contentsOf: folder.appendingPathComponent("v.png"))
    #expect(picture == (try Data(contentsOf: folder.appendingPathComponent("p.png"))))
    #expect(picture.count > 24)
    let width = picture[16..<20].reduce(0) { $0 << 8 | Int($1) }
    #expect(width == 600)
    // An option given wins over the variant's.
    let light = try run(["layout", caseFile, "--variant", "9", "--mode", "light"], in: folder)
    let lightPlain = try run(
      ["layout", plain, "--scale", "3"] + settings.map { $0 == "dark" ? "light" : $0 },
      in: folder)
    #expect(light.status == 0, "\(light.stderr)")
    #expect(light.stdout == lightPlain.stdout)
  }

  @Test("--variant beyond the case's variants, and a bad variants key, are one-line errors")
  func errors() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let caseFile = try write(
      #"{"items": [{"label": "x"}], "variants": {"themes": ["sosh"], "modes": ["dark"]}}"#,
      "case.json", in: folder)
    let beyond = try run(["render", caseFile, "--variant", "3", "-o", "out.png"], in: folder)
    #expect(beyond.status == 2)
    #expect(
      beyond.stderr.hasPrefix(
        #"error: --variant "3": case.json has no such variant; it has 1: 1 sosh-dark@2x"#),
      "\(beyond.stderr)")
    let bad = try write(
      #"{"items": [{"label": "x"}], "variants": {"themes": ["pink"]}}"#, "bad.json", in: folder)
    let badRun = try run(["layout", bad], in: folder)
    #expect(badRun.status == 1)
    #expect(
      badRun.stderr
        == #"error: \#(bad): variants.themes: unknown theme "pink" (known: orange, orange-compact, sosh, wireframe)"#
        + "\n")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }
}
