import BulletListRenderer
import Foundation
import Layout
import PreviewDocs
import Primitives
import Snapshot
import Testing
import Themes
import Workbench

/// The repository root, found from this file's location.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The docs of a case file of the repository's catalogue, in `combinations` and `platforms`,
/// made as the preview makes them, and the renderer they were made with.
func docs(
  _ caseFile: String, _ combinations: [(ThemeName, ColorMode)], platforms: [Platform] = [.ios]
) throws -> (ListDocs, BulletListRenderer) {
  let renderer = try BulletListRenderer(
    themesDirectory: repositoryRoot.appendingPathComponent("Themes"))
  let path = repositoryRoot.appendingPathComponent("Snapshots/cases/" + caseFile).path
  let file = try CaseListFile.read(file: path, format: nil, reader: renderer.listReader())
  let docs = try ListDocs.make(
    listName: "Snapshots/cases/" + caseFile, file: URL(fileURLWithPath: path),
    format: ListFormat(fileName: caseFile), document: file.document, variants: file.variants,
    variantsDeclared: file.hasVariantsKey, renderer: renderer, combinations: combinations,
    platforms: platforms,
    // the list's own locale, as `preview` (and `render`) take it
    options: LayoutOptions(locale: file.document.locale))
  return (docs, renderer)
}

@Suite("The preview's docs view: source, case variants, tokens, the audit's figures, spoken text")
struct ListDocsTests {
  @Test(
    "onboarding.md in Orange light and dark: its source, 8 variants, the tokens' hex values from Themes/, the branded tick's ratios and both readers' words"
  )
  func onboarding() throws {
    let (docs, renderer) = try docs("onboarding.md", [(.orange, .light), (.orange, .dark)])
    let text = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Snapshots/cases/onboarding.md"),
      encoding: .utf8)
    #expect(docs.format == "Markdown")
    #expect(docs.source + "\n" == text)
    #expect(docs.omittedLines == 0)

    // No variants key: every theme in both modes at scale 2, as the catalogue records it.
    #expect(docs.caseName == "onboarding" && !docs.variantsDeclared)
    #expect(
      docs.variants.map(\.reference) == [
        "onboarding/orange-light@2x.png", "onboarding/orange-dark@2x.png",
        "onboarding/orange-compact-light@2x.png", "onboarding/orange-compact-dark@2x.png",
        "onboarding/sosh-light@2x.png", "onboarding/sosh-dark@2x.png",
        "onboarding/wireframe-light@2x.png", "onboarding/wireframe-dark@2x.png",
      ])
    #expect(
      docs.variants.allSatisfy {
        $0.platform == "iOS" && $0.scale == 2 && $0.width == "360" && $0.textSize == "standard"
          && $0.settings.isEmpty
      })

    // The tokens of Orange, light then dark: Themes/brands/orange/{light,dark}.tokens.json and
    // the raw colours they alias (SNAPSHOTS.md: text #000000/#EEEEEE, brand #F15E00/#FF7900).
    #expect(docs.tokens.map(\.theme) == ["Orange"])
    let table = try #require(docs.tokens.first)
    #expect(table.modes == ["light", "dark"] && table.errors.isEmpty)
    func row(_ path: String) throws -> [ListDocs.TokenValueText] {
      try #require(table.rows.first { $0.path == path }, "\(path)").values
    }
    let text0 = try row("color.content.default")
    #expect(text0.map(\.text) == ["#000000", "#EEEEEE"])
    #expect(text0.map(\.color) == ["#000000", "#EEEEEE"])
    #expect(
      text0.map(\.file) == ["brands/orange/light.tokens.json", "brands/orange/dark.tokens.json"])
    #expect(text0[0].aliases == ["color.raw.functional.black"])
    let brand = try row("color.content.brand-primary")
    #expect(brand.map(\.color) == ["#F15E00", "#FF7900"])
    #expect(
      brand.map(\.aliases) == [["color.raw.orange.orange-550"], ["color.raw.orange.orange-500"]])
    #expect(try row("color.bg.primary").map(\.text) == ["#FFFFFF", "#141414"])
    #expect(try row("bullet-list.space.padding-inline.level-1").map(\.text) == ["36px", "36px"])
    #expect(try row("bullet-list.space.padding-inline.level-1").allSatisfy { $0.color == nil })
    #expect(table.rows.map(\.path) == ThemeLibrary.componentTokenPaths)

    // The audit's figures: the branded tick (orange-550 on white, 3.31:1; orange-500 on
    // #141414, 7.00:1, WCAG 2.2 worked out by hand) passes 3:1 on its 4 rows.
    #expect(docs.audits.map(\.title) == ["Orange · light · iOS", "Orange · dark · iOS"])
    #expect(docs.audits.map(\.background) == ["#FFFFFF", "#141414"])
    func line(_ audit: Int, _ element: String) throws -> ListDocs.Line {
      try #require(docs.audits[audit].lines.first { $0.element == element }, "\(element)")
    }
    let tick = try line(0, "branded tick")
    #expect(tick.ratio == "3.31:1" && tick.needs == "3:1 non-text" && tick.result == "pass")
    #expect(tick.swatches == ["#F15E00"] && tick.usedBy == "4 rows from items[0]")
    #expect(try line(1, "branded tick").ratio == "7.00:1")
    #expect(try line(0, "label").ratio == "21.00:1")
    #expect(try line(1, "label").ratio == "15.87:1")
    // a colour the list does not draw is not checked, never a failure
    #expect(try line(0, "branded bullet").result == "not checked")
    #expect(docs.failures.isEmpty)
    #expect(
      docs.notChecked == docs.audits.flatMap(\.lines).filter { $0.result == "not checked" }.count)

    // The same lines and notes as `audit` prints (one code path, not a copy).
    let report = try renderer.auditReport(
      try CaseListFile.read(
        file: repositoryRoot.appendingPathComponent("Snapshots/cases/onboarding.md").path,
        format: nil, reader: renderer.listReader()
      ).document.list, listName: "onboarding.md", combinations: [(.orange, .light)])
    let printed = report.text
    // each line of the docs' table is a line of the printed table, cell by cell in order
    let printedLines = printed.split(separator: "\n").map(String.init)
    for line in docs.audits[0].lines {
      let cells = [
        line.element, line.colour, line.ratio, line.needs, line.result, line.usedBy, line.token,
      ]
      #expect(
        printedLines.contains { printedLine in
          var rest = Substring(printedLine)
          for cell in cells {
            guard let found = rest.range(of: cell) else { return false }
            rest = rest[found.upperBound...]
          }
          return printedLine.hasPrefix("  " + line.element)
        }, "\(line.element)")
    }
    for note in docs.audits[0].notes { #expect(printed.contains("  " + note + "\n"), "\(note)") }

    // What VoiceOver and TalkBack say (SPEC §8), whatever the platform shown.
    #expect(docs.spoken.map(\.reader) == ["VoiceOver", "TalkBack"])
    #expect(docs.spoken.map(\.platform) == ["iOS", "Android"])
    #expect(docs.spoken.allSatisfy { $0.language == "English" })
    #expect(docs.spoken.allSatisfy { $0.contexts == "every theme and mode" })
    let voiceOver = docs.spoken[0].rows
    let talkBack = docs.spoken[1].rows
    #expect(voiceOver.map(\.row).prefix(3) == ["items[0]", "items[1]", "items[1].items[0]"])
    #expect(voiceOver[0].text == "Create your Orange account in two minutes")
    #expect(voiceOver[1].text == "Choose the plan that suits you, level 1, 2 sub-items")
    #expect(talkBack[0].text == "Create your Orange account in two minutes, Level 1")
    #expect(talkBack[1].text == "Choose the plan that suits you, Level 1, 2 subitems")
    #expect(
      printed.contains("Screen-reader text (VoiceOver's rules, English), every theme and mode"))
    #expect(printed.contains("\"\(voiceOver[1].text)\""))
  }

  @Test(
    "a case file with a variants key: the references the docs list are those the catalogue recorded in Snapshots/"
  )
  func declaredVariants() throws {
    let (docs, _) = try docs("demo-ordered.json", [(.sosh, .dark)], platforms: [.android])
    #expect(docs.variantsDeclared && docs.format == "JSON")
    let folder = repositoryRoot.appendingPathComponent("Snapshots/demo-ordered")
    let recorded = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".png") }.map { "demo-ordered/" + $0 }
    #expect(docs.variants.map(\.reference).sorted() == recorded.sorted())
    let arabic = try #require(docs.variants.first { $0.name == "orange-light-ar@2x" })
    #expect(arabic.settings == ["locale ar"] && arabic.platform == "iOS")
    let scaled = try #require(
      docs.variants.first { $0.name == "sosh-light-font-scale-1.5-android@2x" })
    #expect(scaled.platform == "Android" && scaled.textSize == "font scale 1.5")
    let rtl = try #require(docs.variants.first { $0.name == "sosh-light-rtl-android@2x" })
    #expect(rtl.settings == ["direction rtl"])
    // the platform shown is Android: its audit alone, but both readers' words
    #expect(docs.audits.map(\.title) == ["Sosh · dark · Android"])
    #expect(docs.spoken.map(\.reader) == ["VoiceOver", "TalkBack"])
    #expect(docs.tokens.map(\.modes) == [["dark"]])
  }

  @Test("an Arabic list: both readers speak Arabic, marked as such for the page")
  func arabic() throws {
    let (docs, _) = try docs("arabic-ordered.json", [(.orange, .light)])
    #expect(docs.spoken.map(\.languageCode) == ["ar", "ar"])
    #expect(docs.spoken.map(\.language) == ["Arabic", "Arabic"])
    #expect(docs.spoken[0].rows.first?.text.hasPrefix("1") == true)
    #expect(docs.spoken[0].rows.first?.text.contains("العنصر الأول") == true)
    let recorded = try FileManager.default.contentsOfDirectory(
      atPath: repositoryRoot.appendingPathComponent("Snapshots/arabic-ordered").path
    ).filter { $0.hasSuffix(".png") }.map { "arabic-ordered/" + $0 }
    #expect(docs.variants.map(\.reference).sorted() == recorded.sorted())
  }

  @Test("the document the page reads: one JSON object with every part")
  func json() throws {
    let (docs, _) = try docs("sample-3.json", [(.wireframe, .light)])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(docs.json().utf8)) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "list", "format", "source", "omittedLines", "caseName", "variantsDeclared", "variants",
        "tokens", "audits", "failures", "notChecked", "spoken", "warnings",
      ])
    #expect(object["list"] as? String == "Snapshots/cases/sample-3.json")
    let audits = try #require(object["audits"] as? [[String: Any]])
    #expect(audits.first?["title"] as? String == "Wireframe · light · iOS")
  }
}
