import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import Primitives
import Scene
import Testing
import Themes

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
}
