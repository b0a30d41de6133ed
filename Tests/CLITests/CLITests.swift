import BulletListRenderer
import Foundation
import Testing

@Suite("ouds-render command line", .serialized)
struct CLITests {
  @Test("render writes a PNG whose size follows --scale and --width")
  func renderPNG() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out.png").path
    let result = try run([
      "render", "Snapshots/cases/sample-3.1.json", "--theme", "sosh", "--mode", "dark", "--scale",
      "3", "-o", out,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let data = try Data(contentsOf: URL(fileURLWithPath: out))
    #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    // IHDR width/height, big endian, at bytes 16…23.
    let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
    let height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
    #expect(width == 1080)
    #expect(height == 3 * (6 * 36))  // six single-line Body Large rows, 36 pt each
  }

  @Test("the same input gives byte-identical PNGs from two processes")
  func deterministic() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a.png").path
    let b = folder.appendingPathComponent("b.png").path
    #expect(
      try run(["render", "Snapshots/cases/arabic-mixed.json", "--theme", "wireframe", "-o", a])
        .status == 0)
    #expect(
      try run(["render", "Snapshots/cases/arabic-mixed.json", "--theme", "wireframe", "-o", b])
        .status == 0)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
  }

  @Test("--theme all --mode all --format svg writes the 8 files <theme>-<mode>.svg in px")
  func allCombinations() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out").path
    let result = try run([
      "render", "Snapshots/cases/sample-2.json", "--theme", "all", "--mode", "all", "--format",
      "svg", "-o", out,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(
      files == [
        "orange-compact-dark.svg", "orange-compact-light.svg", "orange-dark.svg",
        "orange-light.svg",
        "sosh-dark.svg", "sosh-light.svg", "wireframe-dark.svg", "wireframe-light.svg",
      ])
    let svg = try String(contentsOfFile: out + "/orange-light.svg", encoding: .utf8)
    #expect(svg.contains("width=\"360px\""))
  }

  @Test("the PDF output is a PDF")
  func pdf() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("list.pdf").path
    #expect(try run(["render", "Snapshots/cases/sample-2.json", "-o", out]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)).prefix(5) == Data("%PDF-".utf8))
  }

  @Test("layout prints the scene with the documented keys")
  func layoutJSON() throws {
    let result = try run([
      "layout", "Snapshots/cases/sample-3.1.json", "--theme", "orange", "--mode", "light",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    #expect(json["width"] as? Double == 360)
    #expect(json["height"] as? Double == 216)
    #expect(json["direction"] as? String == "ltr")
    let rows = try #require(json["rows"] as? [[String: Any]])
    #expect(
      rows.map { $0["path"] as? String } == [
        "items[0]", "items[0].items[0]", "items[0].items[0].items[0]", "items[0].items[0].items[1]",
        "items[1]", "items[2]",
      ])
    let marker = try #require(rows[1]["marker"] as? [String: Any])
    #expect(marker["kind"] as? String == "ordered")
    #expect(marker["text"] as? String == "A.")
    #expect(rows[3]["level"] as? Int == 2)
    #expect((rows[3]["marker"] as? [String: Any])?["text"] as? String == "b.")
    #expect(rows[0]["icon"] is NSNull)
    let label = try #require(rows[2]["label"] as? [String: Any])
    #expect(label["x"] as? Double == 100)
    #expect(rows[0]["lines"] as? Int == 1)
    #expect(rows[0]["firstBaseline"] as? Double != nil)
  }

  @Test(
    "--theme and --mode names follow the one leniency rule: case, spaces, '-' and '_' do not count")
  func lenientNames() throws {
    let result = try run([
      "layout", "Snapshots/cases/sample-3.1.json", "--theme", "Orange_Compact", "--mode", "Dark",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    #expect(json["theme"] as? String == "orange-compact")
    #expect(json["mode"] as? String == "dark")
  }

  @Test("themes lists the four themes")
  func themes() throws {
    let result = try run(["themes"])
    #expect(result.status == 0)
    for name in [
      "orange (Orange)", "orange-compact (Orange Compact)", "sosh (Sosh)", "wireframe (Wireframe)",
    ] {
      #expect(result.stdout.contains(name))
    }
  }

  @Test("--help on each subcommand", arguments: ["render", "layout", "themes", "snapshot", "diff"])
  func help(subcommand: String) throws {
    let result = try run([subcommand, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("USAGE: ouds-render \(subcommand)"))
  }

  @Test("usage errors exit 2 with a pointer to --help")
  func usageErrors() throws {
    let unknownOption = try run([
      "render", "Snapshots/cases/sample-2.json", "--colour", "red", "-o", "/tmp/x.png",
    ])
    #expect(unknownOption.status == 2)
    #expect(
      unknownOption.stderr
        == "error: unknown option --colour for 'ouds-render render'\nSee 'ouds-render render --help'.\n"
    )
    let unknownTheme = try run([
      "render", "Snapshots/cases/sample-2.json", "--theme", "pink", "-o", "/tmp/x.png",
    ])
    #expect(unknownTheme.status == 2)
    #expect(
      unknownTheme.stderr.hasPrefix(
        "error: unknown theme \"pink\" (known: orange, orange-compact, sosh, wireframe)"))
    let unknownMode = try run([
      "render", "Snapshots/cases/sample-2.json", "--mode", "dusk", "-o", "/tmp/x.png",
    ])
    #expect(unknownMode.status == 2)
    #expect(
      unknownMode.stderr
        == "error: unknown mode \"dusk\" (known: light, dark)\nSee 'ouds-render render --help'.\n")
    let badScale = try run([
      "render", "Snapshots/cases/sample-2.json", "--scale", "4", "-o", "/tmp/x.png",
    ])
    #expect(badScale.status == 2)
    #expect(badScale.stderr.hasPrefix("error: --scale must be 1, 2 or 3, got \"4\""))
    #expect(try run(["paint"]).status == 2)
    #expect(try run([]).status == 2)
  }
}

@Suite("ouds-render sheet")
struct SheetCommandTests {
  @Test("sheet writes one picture in the format of -o")
  func sheet() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let svg = folder.appendingPathComponent("sheet.svg").path
    let result = try run(["sheet", "Snapshots/cases/sample-2.json", "-o", svg])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(text.contains("width=\"768px\""))
    #expect(try run(["sheet", "--help"]).stdout.contains("USAGE: ouds-render sheet"))
  }
}
