import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import PNG
import Primitives
import Scene
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
    let cells = scene.panels.filter { $0.fill != nil }
    let figures = scene.panels.dropFirst(3).filter { $0.fill == nil }
    #expect(cells.count == 8 && figures.count == 8)
    #expect(headingPanels[2].rect.maxY < cells[0].rect.y)
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
      // Under its cell, on the sheet's grey, in black.
      #expect(figure.rect.y == cell.rect.maxY + 10 && figure.rect.x == cell.rect.x)
      #expect(figure.caption?.content.appearance.color == RGBAColor(red: 0, green: 0, blue: 0))
      var darkest = 255
      for y in Int(figure.rect.y)..<Int(figure.rect.maxY) {
        for x in Int(figure.rect.x)..<Int(figure.rect.maxX) {
          darkest = min(darkest, Int(image.pixel(x: x, y: y).red))
        }
      }
      #expect(darkest < 40, "text drawn under cell \(index)")
    }
  }
}
