import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import PNG
import Primitives
import Scene
import TestSupport
import Testing
import Themes
import Workbench

@Suite("Rendering sheets")
struct SheetTests {
  @Test("every theme is a row, every mode a column, each cell on its own bg.primary")
  func grid() throws {
    let list = OUDSBulletList(type: .unordered()) { OUDSBulletList.Item("Label 1") }
    let (image, scene) = try SharedRenderer.shared.with { renderer -> (RasterImage, Scene) in
      let sheet = try renderer.renderSheet(list, format: .png(scale: 1))
      return (try PNGCodec.decode(sheet.data), sheet.scene)
    }
    #expect(scene.width == 16 + 360 + 16 + 360 + 16)
    #expect(scene.panels.count == 8)
    #expect(scene.rows.count == 8)
    #expect(image.width == 768 && image.height == Int(scene.height))
    func hexAt(_ x: Double, _ y: Double) -> String {
      let p = image.pixel(x: Int(x), y: Int(y))
      return RGBAColor(red: p.red, green: p.green, blue: p.blue).hex
    }
    #expect(hexAt(2, 2) == "#D6D6D6")
    for (index, panel) in scene.panels.enumerated() {
      let theme = ThemeName.allCases[index / 2]
      let mode = ColorMode.allCases[index % 2]
      let t = try tokens(theme, mode)
      #expect(hexAt(panel.rect.maxX - 2, panel.rect.maxY - 2) == t.colors.backgroundPrimary.hex)
      #expect(panel.caption?.content.plainText == "\(theme.displayName) · \(mode.rawValue)")
      let icon = try #require(scene.rows[index].icon)
      #expect(hexAt(icon.midX, icon.midY) == t.colors.contentBrandPrimary.hex)
    }
  }

  @Test("with both platforms each mode has an iOS and an Android column, captioned")
  func platformColumns() throws {
    let list = OUDSBulletList(type: .ordered) {
      OUDSBulletList.Item("Label 1") { OUDSBulletList.Item("Label 2") }
    }
    let scene = try SharedRenderer.shared.with { renderer in
      try renderer.sheetLayout(
        list, themes: [.orange, .sosh], modes: ColorMode.allCases, platforms: [.ios, .android],
        options: LayoutOptions(direction: .rtl)
      ).scene
    }
    let width: Double = 16 + 4 * 360 + 3 * 16 + 16
    #expect(scene.width == width)
    #expect(scene.platforms == [.ios, .android])
    #expect(scene.themes == [.orange, .sosh] && scene.modes == [.light, .dark])
    let json = try SceneJSON.encode(scene)
    #expect(
      json.contains(#""platform" : "ios,android""#) && json.contains(#""mode" : "light,dark""#))
    #expect(
      try JSONDecoder().decode(Scene.self, from: Data(json.utf8)).platforms == [.ios, .android])
    #expect(
      scene.panels.prefix(4).map { $0.caption?.content.plainText } == [
        "Orange · light · iOS", "Orange · light · Android", "Orange · dark · iOS",
        "Orange · dark · Android",
      ])
    let columnsX: [Double] = [16, 392, 768, 1144]
    #expect(scene.panels.prefix(4).map(\.rect.x) == columnsX)
    // Each cell follows its column's rules: in RTL, Latin letters on iOS, Arabic on Android.
    let letters: [String?] = scene.rows.filter { $0.level == 1 }.map(\.marker.text)
    let pair: [String?] = ["A.", "\u{0623}."]
    #expect(letters == pair + pair + pair + pair)
  }

  @Test(
    "a heading above the grid; with audit, each cell's contrast figures under it, from the tokens")
  func headingAndAudit() throws {
    let list = OUDSBulletList(type: .unordered(asset: .bullet, isBranded: true), isBold: false) {
      OUDSBulletList.Item("Label 1")
    }
    let heading = SheetHeading(
      title: "list.json · iOS", lines: ["Themes: somewhere", "Fonts: some"])
    let (scene, image, audits) = try SharedRenderer.shared.with { renderer in
      let sheet = try renderer.renderSheet(
        list, format: .png(scale: 1), heading: heading, audit: true)
      var audits: [AccessibilityAudit] = []
      for theme in ThemeName.allCases {
        for mode in ColorMode.allCases {
          audits.append(try renderer.audit(list, theme: theme, mode: mode).audit)
        }
      }
      return (sheet.scene, try PNGCodec.decode(sheet.data), audits)
    }
    #expect(scene.title == "list.json · iOS")
    #expect(scene.notes == ["Themes: somewhere", "Fonts: some"])
    let headingPanels = Array(scene.panels.prefix(3))
    #expect(
      headingPanels.map { $0.caption?.content.plainText } == [
        "list.json · iOS", "Themes: somewhere", "Fonts: some",
      ])
    #expect(headingPanels.allSatisfy { $0.fill == nil })
    let weights = headingPanels.map { $0.caption?.content.appearance.weight ?? 0 }
    #expect(weights[0] > weights[1])
    #expect(zip(headingPanels, headingPanels.dropFirst()).allSatisfy { $0.rect.maxY <= $1.rect.y })
    // The legend follows the heading, on the sheet's grey.
    let legend = scene.panels[3]
    #expect(legend.caption?.content.plainText == BulletListRenderer.auditLegend)
    #expect(legend.fill == nil && headingPanels[2].rect.maxY <= legend.rect.y)
    let figures = scene.panels.filter {
      $0.caption?.content.plainText.hasPrefix("WCAG contrast on ") == true
    }
    let cells = scene.panels.filter {
      $0.fill != nil && $0.caption?.content.plainText.hasPrefix("WCAG") == false
    }
    #expect(cells.count == 8 && figures.count == 8)
    #expect(legend.rect.maxY < cells[0].rect.y)
    for (index, (cell, figure)) in zip(cells, figures).enumerated() {
      let audit = audits[index]
      let text = try #require(figure.caption?.content.plainText)
      #expect(text == BulletListRenderer.auditSummary(audit))
      // The figures come from the tokens: text and branded bullets against bg.primary.
      let t = try tokens(audit.theme, audit.mode)
      let label = WCAGContrast.formatted(
        WCAGContrast.ratio(t.colors.contentDefault, on: t.colors.backgroundPrimary))
      let brand = WCAGContrast.formatted(
        WCAGContrast.ratio(t.colors.contentBrandPrimary, on: t.colors.backgroundPrimary))
      #expect(
        text.hasPrefix(
          "WCAG contrast on \(t.colors.backgroundPrimary.hex): label \(label):1 pass · branded bullet \(brand):1 pass"
        ))
      // Under its cell, black on white under a light cell, white on black under a dark one;
      // every figure passes, so no span has a colour of its own and no pixel is the negative one.
      let white = RGBAColor(red: 255, green: 255, blue: 255)
      let black = RGBAColor(red: 0, green: 0, blue: 0)
      let (surface, ink) = audit.mode == .light ? (white, black) : (black, white)
      #expect(figure.rect.y == cell.rect.maxY + 10 && figure.rect.x == cell.rect.x)
      #expect(figure.fill == surface)
      #expect(figure.caption?.content.appearance.color == ink)
      #expect(figure.caption?.content.spans.allSatisfy { $0.color == nil } == true)
      let negative = try #require(t.colors.contentStatusNegative)
      var farthest = 0
      var negatives = 0
      for y in Int(figure.rect.y)..<Int(figure.rect.maxY) {
        for x in Int(figure.rect.x)..<Int(figure.rect.maxX) {
          let p = image.pixel(x: x, y: y)
          farthest = max(farthest, abs(Int(p.red) - Int(surface.red)))
          if RGBAColor(red: p.red, green: p.green, blue: p.blue) == negative { negatives += 1 }
        }
      }
      #expect(farthest > 150, "text drawn under cell \(index)")
      #expect(negatives == 0, "no failing figure under cell \(index)")
    }
  }

  /// A new temporary folder holding a copy of the repository's Themes folder, to edit.
  static func themesCopy() throws -> (folder: URL, themes: URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-sheet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let themes = folder.appendingPathComponent("Themes")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Themes"), to: themes)
    return (folder, themes)
  }

  @Test(
    "sheet --audit: a failing figure in the negative status colour of its cell's theme and mode, passing ones in the text colour"
  )
  func failingFigures() throws {
    // Orange's text colour made light grey in both modes: 1.16:1 on white fails in light mode,
    // 16.6:1 on #141414 passes in dark mode.
    let (folder, themes) = try Self.themesCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = themes.appendingPathComponent("brands/orange/light.tokens.json")
    let old = #""default": {\#n        "$value": "{color.raw.functional.black}""#
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.components(separatedBy: old).count == 2)
    try text.replacingOccurrences(
      of: old, with: #""default": {\#n        "$value": "{color.raw.functional.gray-light-160}""#
    ).write(to: file, atomically: true, encoding: .utf8)
    let renderer = try BulletListRenderer(themesDirectory: themes)
    let list = OUDSBulletList(type: .unordered(asset: .bullet, isBranded: true), isBold: false) {
      OUDSBulletList.Item("Label 1")
    }
    let sheet = try renderer.renderSheet(
      list, themes: [.orange], modes: [.light, .dark], format: .png(scale: 1), audit: true)
    let image = try PNGCodec.decode(sheet.data)
    let figures = sheet.scene.panels.filter {
      $0.caption?.content.plainText.hasPrefix("WCAG contrast on ") == true
    }
    #expect(figures.count == 2)
    let light = try renderer.themes.theme(.orange, mode: .light)
    let dark = try renderer.themes.theme(.orange, mode: .dark)
    // From the OUDS tokens (see StatusNegativeTokenTests): Scarlet600 light, Scarlet300 dark.
    #expect(light.colors.contentStatusNegative?.hex == "#DB0002")
    #expect(dark.colors.contentStatusNegative?.hex == "#FF8081")
    #expect(light.colors.contentDefault.hex == "#EEEEEE")

    /// Pixels of `color` in the rows `rows` of `panel`.
    func count(_ color: RGBAColor, in panel: ScenePanel, rows: Range<Int>? = nil) -> Int {
      var n = 0
      for y in rows ?? Int(panel.rect.y)..<Int(panel.rect.maxY) {
        for x in Int(panel.rect.x)..<Int(panel.rect.maxX) {
          let p = image.pixel(x: x, y: y)
          if RGBAColor(red: p.red, green: p.green, blue: p.blue) == color { n += 1 }
        }
      }
      return n
    }
    // Light: the label figure fails and is the one span in #DB0002; the bullet figure passes.
    let failing = try #require(figures.first?.caption?.content)
    let label = WCAGContrast.formatted(
      WCAGContrast.ratio(light.colors.contentDefault, on: light.colors.backgroundPrimary))
    let brand = WCAGContrast.formatted(
      WCAGContrast.ratio(light.colors.contentBrandPrimary, on: light.colors.backgroundPrimary))
    #expect(label == "1.16")
    let audit = try renderer.audit(list, theme: .orange, mode: .light).audit
    #expect(failing.plainText == BulletListRenderer.auditSummary(audit))
    #expect(
      failing.plainText.hasPrefix("WCAG contrast on #FFFFFF: label \(label):1 FAIL (needs 4.5) · "))
    #expect(failing.plainText.contains(" · branded bullet \(brand):1 pass"))
    // One span per figure, the failing ones (the label, and the colours of this theme the list
    // does not draw: content.default also tints unbranded bullets) in #DB0002.
    let expected: [String?] =
      [nil]
      + BulletListRenderer.auditFigures(audit).enumerated().flatMap { index, figure in
        (index > 0 ? [nil] : []) + [figure.fails ? "#DB0002" : nil]
      }
    #expect(failing.spans.map { $0.color?.hex } == expected)
    #expect(failing.spans[1].text.hasPrefix("label ") && failing.spans[1].color != nil)
    #expect(failing.spans.contains { $0.text.hasPrefix("branded bullet ") && $0.color == nil })
    // The other figures in black on white, whatever the edited text colour: it cannot hide them.
    #expect(failing.appearance.color == RGBAColor(red: 0, green: 0, blue: 0))
    #expect(figures[0].fill == RGBAColor(red: 255, green: 255, blue: 255))
    #expect(count(RGBAColor(red: 0, green: 0, blue: 0), in: figures[0]) > 20)
    // The red pixels: in the first line, where the label figure is drawn (measured).
    let engine = try renderer.textEngine(for: .orange)
    var prefix = failing
    prefix.spans = [failing.spans[0]]
    var throughLabel = failing
    throughLabel.spans = Array(failing.spans.prefix(2))
    let origin = try #require(figures[0].caption?.origin)
    let start = Int(origin.x + engine.measure(prefix, wrapWidth: nil).width)
    let end = Int(origin.x + engine.measure(throughLabel, wrapWidth: nil).width)
    let negative = try #require(light.colors.contentStatusNegative)
    var redInLabel = 0
    for y in Int(origin.y)..<Int(origin.y + failing.appearance.lineHeight) {
      for x in start..<end {
        let p = image.pixel(x: x, y: y)
        if RGBAColor(red: p.red, green: p.green, blue: p.blue) == negative { redInLabel += 1 }
      }
    }
    #expect(redInLabel > 20, "the label figure is drawn in #DB0002 (\(redInLabel) pixels)")
    // Before it, the prefix is in the text colour: no red.
    var redInPrefix = 0
    for y in Int(origin.y)..<Int(origin.y + failing.appearance.lineHeight) {
      for x in Int(origin.x)..<start {
        let p = image.pixel(x: x, y: y)
        if RGBAColor(red: p.red, green: p.green, blue: p.blue) == negative { redInPrefix += 1 }
      }
    }
    #expect(redInPrefix == 0)
    #expect(count(negative, in: figures[0]) >= redInLabel)
    // Dark: everything passes, so no pixel in either negative colour.
    let passing = try #require(figures.last?.caption?.content)
    #expect(passing.spans.allSatisfy { $0.color == nil })
    #expect(count(try #require(dark.colors.contentStatusNegative), in: figures[1]) == 0)
    #expect(count(try #require(light.colors.contentStatusNegative), in: figures[1]) == 0)
    // The legend says what the colour means.
    #expect(
      sheet.scene.panels.contains {
        $0.caption?.content.plainText == BulletListRenderer.auditLegend
      })
    #expect(
      BulletListRenderer.auditLegend.contains(
        "A figure in the cell's color.content.status.negative (red) fails WCAG: text below 4.5:1"))
  }

  @Test(
    "a themes folder without color.content.status.negative renders, but sheet --audit names the theme that lacks it"
  )
  func auditNeedsNegativeColour() throws {
    let (folder, themes) = try Self.themesCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = themes.appendingPathComponent("brands/sosh/dark.tokens.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.components(separatedBy: #""status": {"#).count == 2)
    try text.replacingOccurrences(of: #""status": {"#, with: #""was-status": {"#)
      .write(to: file, atomically: true, encoding: .utf8)
    let renderer = try BulletListRenderer(themesDirectory: themes)
    let list = OUDSBulletList(type: .unordered()) { OUDSBulletList.Item("Label 1") }
    _ = try renderer.renderSheet(list, themes: [.sosh], format: .png(scale: 1))
    #expect(
      throws: RenderError.theme(
        ThemeError(
          file: "themes.resolver.json",
          message:
            "theme sosh-dark lacks color.content.status.negative, the colour sheet --audit draws a failing figure in (add it to the brand's dark.tokens.json, as Themes/README.md shows)"
        ))
    ) {
      try renderer.renderSheet(list, themes: [.sosh], format: .png(scale: 1), audit: true)
    }
  }
}

@Suite("A rendering sheet as PDF from code")
struct SheetPDFTests {
  @Test("renderSheet(format: .pdf) is paged as `sheet -o x.pdf`: one A4 page per theme × mode")
  func pagedLikeTheCommand() throws {
    let list = OUDSBulletList(type: .unordered()) {
      OUDSBulletList.Item("Label 1")
      OUDSBulletList.Item("Label 2")
    }
    let (pdf, first) = try SharedRenderer.shared.with { renderer -> (Data, Scene) in
      let sheet = try renderer.renderSheet(list, format: .pdf)
      return (sheet.data, sheet.scene)
    }
    let text = String(decoding: pdf, as: UTF8.self)
    // Cairo writes each page's dictionary uncompressed: its /MediaBox is the page's size.
    let boxes = text.matches(of: /\/MediaBox \[ ?0 0 ([0-9.]+) ([0-9.]+) ?\]/).map {
      (Double($0.1) ?? 0, Double($0.2) ?? 0)
    }
    #expect(boxes.count == 8, "4 themes × 2 modes, one page each")
    for (width, height) in boxes {
      // A4 (595.28 × 841.89 pt), portrait or landscape, never one tall page of every cell
      #expect(
        Set([width.rounded(), height.rounded()]) == [595, 842], "\(width) × \(height)")
    }
    #expect(first.title?.hasPrefix("list · ") == true, "\(first.title ?? "nil")")
    #expect(first.width.rounded() == boxes.first.map { $0.0.rounded() })
    // PNG stays one picture of every cell.
    let png = try SharedRenderer.shared.with { try $0.renderSheet(list, format: .png(scale: 1)) }
    #expect(png.scene.panels.count == 8)
  }
}

/// The sheet's legend names the fonts of the platform and theme each cell is drawn in.
@Suite("Font legends name what was drawn")
struct FontLegendTests {
  @Test("an Android sheet of Orange names Roboto and Noto Naskh Arabic, not Liberation Sans")
  func androidLegend() throws {
    let entries = try SharedRenderer.shared.with {
      try $0.fontLegend(for: [.orange, .sosh], platforms: [.android])
    }
    #expect(
      entries.map(\.description) == [
        "Orange: Roboto, Arabic in Noto Naskh Arabic, Android's fallback for Helvetica Neue",
        "Sosh: Inter, substitute for Sosh",
      ])
    let both = try SharedRenderer.shared.with {
      try $0.fontLegend(for: [.orange, .sosh], platforms: [.ios, .android])
    }
    #expect(
      both.map(\.description) == [
        "Orange (iOS): Liberation Sans, substitute for Helvetica Neue",
        "Orange (Android): Roboto, Arabic in Noto Naskh Arabic, Android's fallback for Helvetica Neue",
        "Sosh: Inter, substitute for Sosh",
      ])
  }

  @Test("a page lists only the themes it shows")
  func pageLines() throws {
    let heading = try SharedRenderer.shared.with {
      try $0.sheetHeading(
        listName: "list.json", themes: ThemeName.allCases, platforms: [.android])
    }
    #expect(heading.lines.count == 2)
    #expect(
      heading.lines(showing: [.sosh]) == [
        heading.lines[0], "Fonts: Sosh: Inter, substitute for Sosh",
      ])
    #expect(heading.lines[1].contains("Wireframe: Comic Neue"))
  }
}
