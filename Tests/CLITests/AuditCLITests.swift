import Foundation
import PNG
import Primitives
import Testing

/// `ouds-render audit` and what sheets say about themselves, on the built binary.
@Suite("audit, sheet --audit and sheet headings on the binary")
struct AuditCLITests {
  static let sample = repositoryRoot.appendingPathComponent("Snapshots/cases/sample-2.json").path
  static let rich = repositoryRoot.appendingPathComponent("Snapshots/cases/rich-text.json").path

  /// Edits `file` of a themes copy, replacing `old` (which must be there) by `new`.
  func edit(_ themes: URL, _ file: String, replacing old: String, with new: String) throws {
    let url = themes.appendingPathComponent(file)
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains(old), "\(old) not in \(file)")
    try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: url)
  }

  /// A themes copy whose Orange light text colour is #999999 (written as hex alone).
  func lowContrastThemes(in folder: URL) throws -> URL {
    let themes = try copyOfThemes(in: folder)
    try edit(
      themes, "brands/orange/light.tokens.json",
      replacing: "\"default\": {\n        \"$value\": \"{color.raw.functional.black}\",",
      with: "\"default\": {\n        \"$value\": {\"hex\": \"#999999\"},")
    return themes
  }

  @Test(
    "text too small to be seen: a 2 px font loads but fails audit --strict naming its token; a 1e-9 px font is refused by render"
  )
  func invisibleText() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    try edit(
      themes, "styles/typography.tokens.json", replacing: "\"{font.size.body.large}\"",
      with: #"{ "value": 2, "unit": "px" }"#)
    let strict = try run([
      "audit", Self.sample, "--themes", themes.path, "--theme", "orange", "--mode", "light",
      "--strict",
    ])
    #expect(strict.status == 1, "\(strict.stderr)")
    #expect(
      strict.stdout.contains(
        "\n  Orange · light · iOS: text typography.body-large.font-size (styles/typography.tokens.json): 2 px, below the 6 px text needs to be seen (items[0], items[1], items[2])\n"
      ), "\(strict.stdout)")
    #expect(
      strict.stdout.contains(
        "  text size: 2 px, FAIL (at least 6 px to be seen), items[0], items[1], items[2], typography.body-large.font-size (styles/typography.tokens.json)\n"
      ))
    #expect(strict.stderr.contains("audit: 1 accessibility check failed (--strict: exit 1)"))
    let json = try run([
      "audit", Self.sample, "--themes", themes.path, "--theme", "orange", "--mode", "light",
      "--json",
    ])
    #expect(json.status == 0)
    #expect(json.stdout.contains("\"fontSize\" : 2,"))
    #expect(json.stdout.contains("\"passed\" : false"))

    // Under the 1 px floor the theme does not load: no picture without its labels, exit 1.
    try edit(
      themes, "styles/typography.tokens.json", replacing: #"{ "value": 2, "unit": "px" }"#,
      with: #"{ "value": 1e-9, "unit": "px" }"#)
    let output = folder.appendingPathComponent("tiny.png")
    let render = try run([
      "render", Self.sample, "--themes", themes.path, "--theme", "orange", "--mode", "light", "-o",
      output.path,
    ])
    #expect(render.status == 1)
    #expect(
      render.stderr.contains(
        "styles/typography.tokens.json: typography.body-large.font-size: 1e-09 px is out of range: the renderer needs 1 ≤ value ≤ 200 px"
      ), "\(render.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test("every theme and mode by default: a table each, the spoken text, no failures, exit 0")
  func defaults() throws {
    let result = try run(["audit", Self.sample])
    #expect(result.status == 0, "\(result.stderr)")
    for theme in ThemeName.allCases {
      for mode in ColorMode.allCases {
        #expect(
          result.stdout.contains("\n\(theme.displayName) · \(mode.rawValue) · iOS: background "))
      }
    }
    #expect(
      result.stdout.contains(
        "Screen-reader text (VoiceOver's rules, English), every theme and mode, in reading order:"))
    #expect(result.stdout.contains("  items[0]  \"Label 1\"\n"))
    #expect(result.stdout.hasSuffix("No failures in 8 audits.\n"))
    #expect(result.stderr.hasPrefix("themes: "))
    #expect(!result.stderr.contains("failed"))
  }

  @Test("a Markdown list is audited like its JSON twin: the spoken text of its items, with links")
  func markdownList() throws {
    let onboarding = repositoryRoot.appendingPathComponent("Snapshots/cases/onboarding.md").path
    let result = try run(["audit", onboarding, "--theme", "sosh", "--mode", "dark"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\nSosh · dark · iOS: background "))
    #expect(result.stdout.contains("\"Create your Orange account in two minutes\""))
    #expect(
      result.stdout.contains(
        "  items[1].items[1]  \"Premium: 5G and roaming in 120 countries, level 2\"\n"))
    #expect(result.stdout.hasSuffix("No failures in 1 audit.\n"))
  }

  @Test(
    "the spoken text is printed whole, as --json has it, however long: only control characters are escaped"
  )
  func spokenTextWhole() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let long = String(repeating: "Unordered third item with a long label that goes on, ", count: 4)
    let list = try write(
      """
      {"type": {"unordered": {"asset": "bullet"}}, "items": [
        {"label": "First, \(long)end"},
        {"label": "\(long)end", "items": [{"label": "tab\\there, \(long)end"}]}
      ]}
      """, "long.json", in: folder)
    for locale in ["en", "fr"] {
      let arguments = ["audit", list, "--theme", "sosh", "--mode", "light", "--locale", locale]
      let text = try run(arguments)
      #expect(text.status == 0, "\(text.stderr)")
      let json = try run(arguments + ["--json"])
      let document = try #require(
        try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
      let spoken = try #require(
        (document["audits"] as? [[String: Any]])?.first?["spoken"] as? [[String: String]])
      #expect(spoken.count == 3)
      for row in spoken {
        let (path, words) = (try #require(row["row"]), try #require(row["text"]))
        #expect(words.count > MessageText.valueLimit)
        // The row's line in the table: the whole text, its tab written \t.
        let escaped = words.replacingOccurrences(of: "\t", with: "\\t")
        #expect(
          text.stdout.split(separator: "\n").contains { line in
            line.hasPrefix("  \(path) ") && line.hasSuffix(" \"\(escaped)\"")
          }, "\(path) \(locale): \(escaped)")
        #expect(words.contains("goes on, end"))  // the label whole
      }
      #expect(!text.stdout.contains("…"))
    }
  }

  @Test(
    "a low-contrast text colour: the audit names the token and its file, fails with --strict, says so without"
  )
  func lowContrast() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try lowContrastThemes(in: folder)
    let grey = RGBAColor(red: 0x99, green: 0x99, blue: 0x99)
    let ratio = WCAGContrast.formatted(
      WCAGContrast.ratio(grey, on: RGBAColor(red: 255, green: 255, blue: 255)))
    #expect(Double(ratio).map { $0 < 3 } == true)

    let strict = try run(["audit", Self.sample, "--themes", themes.path, "--strict"])
    #expect(strict.status == 1)
    let labelLine = try #require(
      strict.stdout.split(separator: "\n").first {
        $0.hasPrefix("  label ") && $0.contains("#999999")
      })
    #expect(labelLine.contains("\(ratio):1"))
    #expect(labelLine.contains("FAIL"))
    #expect(labelLine.hasSuffix("color.content.default (brands/orange/light.tokens.json)"))
    let failure =
      "Orange · light · iOS: label color.content.default (brands/orange/light.tokens.json): #999999 on #FFFFFF is \(ratio):1, below the 4.5:1 WCAG 1.4.3 requires for text"
    #expect(strict.stdout.contains("  " + failure + "\n"))
    // Orange Compact reads the same file; dark mode is untouched. The bare sample draws no
    // bullet: the bullet colour (the same token, 3:1 needed) is not checked, not a failure.
    #expect(
      strict.stdout.contains(
        "Orange Compact · light · iOS: label color.content.default (brands/orange/light.tokens.json)"
      ))
    #expect(
      !strict.stdout.contains(
        "Orange · light · iOS: bullet color.content.default (brands/orange/light.tokens.json)"))
    #expect(
      strict.stdout.split(separator: "\n").contains {
        $0.hasPrefix("  bullet ") && $0.contains(" not checked ")
      })
    #expect(!strict.stdout.contains("Orange · dark · iOS: label"))
    let failures = strict.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  Orange") }
      .count
    #expect(
      strict.stderr.contains("audit: \(failures) accessibility checks failed (--strict: exit 1)"))

    let lenient = try run(["audit", Self.sample, "--themes", themes.path])
    #expect(lenient.status == 0)
    #expect(lenient.stdout == strict.stdout)
    #expect(
      lenient.stderr.contains(
        "audit: \(failures) accessibility checks failed; exit 0 without --strict (add --strict to fail on them)"
      ))

    let json = try run([
      "audit", Self.sample, "--themes", themes.path, "--json", "--strict", "--theme", "orange",
      "--mode", "light",
    ])
    #expect(json.status == 1)
    let document = try #require(
      try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
    #expect(document["passed"] as? Bool == false)
    #expect((document["failures"] as? [String])?.first == failure)
    let audits = try #require(document["audits"] as? [[String: Any]])
    let label = try #require((audits.first?["contrast"] as? [[String: Any]])?.first)
    #expect(label["passes"] as? Bool == false)
    #expect(label["ratio"] as? Double == Double(ratio))
    #expect(
      (label["token"] as? [String: Any])?["file"] as? String == "brands/orange/light.tokens.json")
    #expect((label["token"] as? [String: Any])?["path"] as? String == "color.content.default")
  }

  @Test(
    "a brand colour the list does not draw is 'not checked', never a FAIL, in audit, its counts and sheet --audit"
  )
  func undrawnColourNotChecked() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    // Near-white branded bullets and icons (1.07:1 on white): the bare sample list draws neither.
    try edit(
      themes, "brands/orange/light.tokens.json",
      replacing:
        "\"$value\": \"{color.raw.orange.orange-550}\",\n        \"$description\": \"Branded bullets.\"",
      with: "\"$value\": {\"hex\": \"#F8F8F8\"},\n        \"$description\": \"Branded bullets.\"")
    let strict = try run([
      "audit", Self.sample, "--themes", themes.path, "--theme", "orange", "--mode", "light",
      "--strict",
    ])
    #expect(strict.status == 0, "\(strict.stdout)\(strict.stderr)")
    let branded = try #require(
      strict.stdout.split(separator: "\n").first { $0.hasPrefix("  branded bullet ") })
    #expect(branded.contains(" not checked ") && !branded.contains("FAIL"), "\(branded)")
    #expect(strict.stdout.contains("\nNo failures in 1 audit.\n"), "\(strict.stdout)")
    #expect(
      strict.stdout.contains("Not checked: "), "the report says how many colours it did not judge")
    // The same list with branded bullets draws the colour: now it fails, and is counted.
    let drawn = folder.appendingPathComponent("branded.json")
    try Data(
      #"{"type": {"unordered": {"asset": "bullet", "branded": true}}, "items": [{"label": "One"}]}"#
        .utf8
    ).write(to: drawn)
    let failing = try run([
      "audit", drawn.path, "--themes", themes.path, "--theme", "orange", "--mode", "light",
      "--strict",
    ])
    #expect(failing.status == 1, "\(failing.stderr)")
    #expect(failing.stderr.contains("audit: 1 accessibility check failed (--strict: exit 1)"))
    // sheet --audit: the undrawn colour's figure is not red and not counted.
    let output = folder.appendingPathComponent("sheet.png").path
    let sheet = try run([
      "sheet", Self.sample, "--themes", themes.path, "--audit", "--scale", "1", "-o", output,
    ])
    #expect(sheet.status == 0, "\(sheet.stderr)")
    #expect(!sheet.stderr.contains("accessibility check"), "\(sheet.stderr)")
  }

  @Test(
    "sheet --audit says on stderr how many checks failed, as audit counts them, and exits 0; nothing when all pass"
  )
  func sheetAuditFailures() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try lowContrastThemes(in: folder)
    let audit = try run(["audit", Self.sample, "--themes", themes.path, "--json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: audit.stdoutData) as? [String: Any])
    let failures = try #require(document["failures"] as? [String]).count
    #expect(failures > 1)
    let output = folder.appendingPathComponent("sheet.png").path
    let sheet = try run([
      "sheet", Self.sample, "--themes", themes.path, "--audit", "--scale", "1", "-o", output,
    ])
    #expect(sheet.status == 0, "\(sheet.stderr)")
    #expect(
      sheet.stderr.hasSuffix(
        "\naudit: \(failures) accessibility checks failed; exit 0 (the figures under the cells say which; 'ouds-render audit --strict' fails on them)\n"
      ), "\(sheet.stderr)")
    // The failing figures (Orange and Orange Compact, light) are drawn in their theme's
    // color.content.status.negative of light mode, OUDS Scarlet600; dark mode passes, so no
    // Scarlet300 anywhere.
    func pixels(_ hex: String, in path: String) throws -> Int {
      let image = try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
      var n = 0
      for y in 0..<image.height {
        for x in 0..<image.width {
          let p = image.pixel(x: x, y: y)
          if RGBAColor(red: p.red, green: p.green, blue: p.blue).hex == hex { n += 1 }
        }
      }
      return n
    }
    #expect(try pixels("#DB0002", in: output) > 100)
    #expect(try pixels("#FF8081", in: output) == 0)
    // Without --audit, or when every check passes: not a word, and no red.
    let plain = try run([
      "sheet", Self.sample, "--themes", themes.path, "--scale", "1", "-o", output,
    ])
    #expect(plain.status == 0 && !plain.stderr.contains("failed"))
    let passing = try run(["sheet", Self.sample, "--audit", "--scale", "1", "-o", output])
    #expect(passing.status == 0 && !passing.stderr.contains("failed"), "\(passing.stderr)")
    #expect(try pixels("#DB0002", in: output) == 0)
    #expect(try pixels("#FF8081", in: output) == 0)
  }

  @Test("--json is one stable document: the same bytes twice")
  func stableJSON() throws {
    let first = try run(["audit", Self.rich, "--json", "--platform", "all"])
    let second = try run(["audit", Self.rich, "--json", "--platform", "all"])
    #expect(first.stdoutData == second.stdoutData)
    let document = try #require(
      try JSONSerialization.jsonObject(with: first.stdoutData) as? [String: Any])
    let audits = try #require(document["audits"] as? [[String: Any]])
    #expect(audits.count == 16)
    #expect(audits.prefix(2).map { $0["platform"] as? String } == ["ios", "android"])
    // rich-text.json has emphasis: Orange and Orange Compact forbid italic.
    #expect(document["passed"] as? Bool == false)
    #expect(first.status == 0)
    #expect(first.stderr.contains("exit 0 without --strict"))
  }

  @Test("usage mistakes exit 2")
  func usage() throws {
    let missing = try run(["audit"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("error: missing <list.json|list.md>"))
    let flagValue = try run(["audit", Self.sample, "--strict=yes"])
    #expect(flagValue.status == 2)
    #expect(flagValue.stderr.contains("error: --strict takes no value"))
    let both = try run([
      "sheet", Self.sample, "--audit", "--compare-themes", "Themes", "-o", "x.png",
    ])
    #expect(both.status == 2)
    #expect(
      both.stderr.hasPrefix(
        "error: --audit writes contrast figures under a sheet's cells and --compare-themes draws a token review: give one of them"
      ))
    let help = try run(["audit", "--help"])
    #expect(
      help.status == 0
        && help.stdout.contains("USAGE: ouds-render audit <list.json|list.md> [options]"))
  }

  @Test(
    "padding levels that collapse are a warning naming the tokens; the exit status does not change")
  func collapsedPaddingWarning() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    try edit(
      themes, "components/bullet-list.tokens.json", replacing: #""$value": "{dimension.450}""#,
      with: #""$value": "{dimension.50}""#)
    let output = folder.appendingPathComponent("out.png").path
    let result = try run(["render", Self.sample, "--themes", themes.path, "-o", output])
    #expect(result.status == 0)
    let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(
      warnings == [
        "warning: components/bullet-list.tokens.json: bullet-list.space.padding-inline.level-1: 4 px (from dimension.50 in core/dimension.tokens.json) is the same indent as bullet-list.space.padding-inline.level-0 (4 px in components/bullet-list.tokens.json, from dimension.50 in core/dimension.tokens.json): rows of levels 0 and 1 collapse into one indent"
      ])
    let sheet = try run([
      "sheet", Self.sample, "--themes", themes.path, "-o",
      folder.appendingPathComponent("s.png").path,
    ])
    #expect(sheet.status == 0)
    #expect(sheet.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.count == 1)
  }

  // MARK: - Sheets say what they show

  /// The `<title>` and `<desc>` of an SVG document.
  func heading(_ svg: String) throws -> (title: String, desc: String) {
    func element(_ name: String) throws -> String {
      let start = try #require(svg.range(of: "<\(name)>"))
      let end = try #require(svg.range(of: "</\(name)>"))
      return String(svg[start.upperBound..<end.lowerBound])
    }
    return (try element("title"), try element("desc"))
  }

  @Test(
    "the SVG sheet's title names the list and platform; its description the themes folder and fonts"
  )
  func title() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("sheet.svg")
    let result = try run(["sheet", Self.sample, "--platform", "all", "-o", output.path])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try String(contentsOf: output, encoding: .utf8)
    let (title, desc) = try heading(svg)
    #expect(title == "sample-2.json · iOS and Android")
    // The themes folder relative to the current folder (the repository root), as in any checkout.
    #expect(
      desc == """
        Themes: Themes (found from the current folder), same tokens as the package's copy
        Fonts: Orange (iOS): Liberation Sans, substitute for Helvetica Neue · Orange (Android): Roboto, Arabic in Noto Naskh Arabic, Android's fallback for Helvetica Neue · Orange Compact (iOS): Liberation Sans, substitute for Helvetica Neue · Orange Compact (Android): Roboto, Arabic in Noto Naskh Arabic, Android's fallback for Helvetica Neue · Sosh: Inter, substitute for Sosh · Wireframe: Comic Neue, substitute for Shantell Sans
        """)
    #expect(!svg.contains("edited"))
  }

  @Test("sheets are byte-identical from run to run, in every format")
  func byteIdentical() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    for format in ["svg", "pdf", "png"] {
      var outputs: [Data] = []
      for run_ in 0..<2 {
        let output = folder.appendingPathComponent("sheet-\(run_).\(format)")
        let result = try run(["sheet", Self.rich, "--audit", "--scale", "1", "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        outputs.append(try Data(contentsOf: output))
      }
      #expect(outputs[0] == outputs[1], "\(format)")
    }
  }

  @Test("\"edited\" only when the folder's tokens differ from the package's copy")
  func edited() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let unedited = try copyOfThemes(in: folder)
    let output = folder.appendingPathComponent("sheet.svg")
    let same = try run(["sheet", Self.sample, "--themes", unedited.path, "-o", output.path])
    #expect(same.status == 0)
    let sameDesc = try heading(try String(contentsOf: output, encoding: .utf8)).desc
    #expect(
      sameDesc.hasPrefix(
        "Themes: \(unedited.standardizedFileURL.path) (--themes), same tokens as the package's copy\n"
      ))
    #expect(!sameDesc.contains("edited"))

    let low = folder.appendingPathComponent("low")
    try FileManager.default.createDirectory(at: low, withIntermediateDirectories: true)
    let editedThemes = try lowContrastThemes(in: low)
    let changed = try run(["sheet", Self.sample, "--themes", editedThemes.path, "-o", output.path])
    #expect(changed.status == 0)
    let changedDesc = try heading(try String(contentsOf: output, encoding: .utf8)).desc
    #expect(
      changedDesc.hasPrefix(
        "Themes: \(editedThemes.standardizedFileURL.path) (--themes), edited: its tokens differ from the package's copy\n"
      ))
  }

  @Test(
    "the font legend says when a theme draws its brand font (a brand font folder) or a substitute")
  func brandFontLegend() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Wireframe's brand family becomes Inter, and a brand font folder holds an Inter file.
    let themes = try copyOfThemes(in: folder)
    try edit(
      themes, "brands/wireframe/brand.tokens.json", replacing: #""Shantell Sans","#,
      with: #""Inter","#)
    let brandFolder = folder.appendingPathComponent("brand-fonts")
    try FileManager.default.createDirectory(at: brandFolder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: try SourcesTests.installed("Inter-Medium.otf", theme: .sosh),
      to: brandFolder.appendingPathComponent("BrandInter.otf"))
    let output = folder.appendingPathComponent("sheet.svg")
    let result = try run([
      "sheet", Self.sample, "--themes", themes.path, "--font-dir", brandFolder.path, "--theme",
      "all", "-o", output.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let desc = try heading(try String(contentsOf: output, encoding: .utf8)).desc
    #expect(desc.contains("Wireframe: Inter, the brand font"))
    #expect(desc.contains("Orange: Liberation Sans, substitute for Helvetica Neue"))
    #expect(desc.contains("edited: its tokens differ"))
  }

  @Test("a list file named with XML and control characters stays one escaped line in the SVG title")
  func hostileName() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = folder.appendingPathComponent("a&<b>\u{1}.json")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.sample), to: list)
    let output = folder.appendingPathComponent("sheet.svg")
    let result = try run(["sheet", list.path, "--theme", "sosh", "-o", output.path])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try String(contentsOf: output, encoding: .utf8)
    #expect(try heading(svg).title == "a&amp;&lt;b&gt;\\u{1}.json · iOS")
    #expect(!svg.contains("\u{1}"))
  }
}
