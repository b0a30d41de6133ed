import BulletList
import Graphics
import Layout
import PNG
import Primitives
import Scene
import Testing
import Themes

let themeModes: [(ThemeName, ColorMode)] = ThemeName.allCases.flatMap { theme in
  ColorMode.allCases.map { (theme, $0) }
}

func rasterize(
  _ list: OUDSBulletList, _ theme: ThemeName, _ mode: ColorMode, scale: Int = 2,
  options: LayoutOptions = LayoutOptions()
) throws -> (RasterImage, Scene) {
  try SharedRenderer.shared.with {
    let result = try $0.rasterize(list, theme: theme, mode: mode, options: options, scale: scale)
    return (result.image, result.scene)
  }
}

func hex(_ image: RasterImage, _ x: Double, _ y: Double, scale: Int) -> String {
  let p = image.pixel(x: Int(x * Double(scale)), y: Int(y * Double(scale)))
  return RGBAColor(red: p.red, green: p.green, blue: p.blue, alpha: p.alpha).hex
}

@Suite("Pixels carry the token colours")
struct PixelTests {
  @Test("bullet centre is the brand colour, background is bg.primary", arguments: themeModes)
  func brandedBullet(theme: ThemeName, mode: ColorMode) throws {
    let t = try tokens(theme, mode)
    let list = OUDSBulletList(type: .unordered(asset: .bullet, isBranded: true)) {
      OUDSBulletList.Item("Label 1")
    }
    let (image, scene) = try rasterize(list, theme, mode)
    let icon = try #require(scene.rows[0].icon)
    #expect(hex(image, icon.midX, icon.midY, scale: 2) == t.colors.contentBrandPrimary.hex)
    #expect(hex(image, 1, 1, scale: 2) == t.colors.backgroundPrimary.hex)
    #expect(hex(image, 359, scene.height - 1, scale: 2) == t.colors.backgroundPrimary.hex)
    #expect(image.width == 720 && image.height == Int(scene.height * 2))
  }

  @Test(
    "an unbranded bullet is content.default; a transparent background has alpha 0",
    arguments: themeModes)
  func unbrandedBullet(theme: ThemeName, mode: ColorMode) throws {
    let t = try tokens(theme, mode)
    let list = OUDSBulletList { OUDSBulletList.Item("Label 1") }
    let (image, scene) = try rasterize(
      list, theme, mode, scale: 3, options: LayoutOptions(background: .none))
    let icon = try #require(scene.rows[0].icon)
    #expect(hex(image, icon.midX, icon.midY, scale: 3) == t.colors.contentDefault.hex)
    #expect(image.pixel(x: 0, y: 0).alpha == 0)
  }

  @Test("the label's ink is content.default", arguments: themeModes)
  func labelInk(theme: ThemeName, mode: ColorMode) throws {
    let t = try tokens(theme, mode)
    let list = OUDSBulletList(type: .bare) { OUDSBulletList.Item("IIIIIIII") }
    let (image, scene) = try rasterize(list, theme, mode, scale: 3)
    // The darkest/lightest pixel in the label box is the text colour itself (solid stems).
    let label = scene.rows[0].label
    var colours = Set<String>()
    for y in stride(from: label.y, to: label.maxY, by: 1.0 / 3) {
      for x in stride(from: label.x, to: label.maxX, by: 1.0 / 3) {
        colours.insert(hex(image, x, y, scale: 3))
      }
    }
    #expect(colours.contains(t.colors.contentDefault.hex))
  }
}
