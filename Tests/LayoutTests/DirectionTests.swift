import BulletList
import Layout
import Primitives
import Scene
import Testing
import Themes

@Suite("Right-to-left layout")
struct DirectionTests {
  func mirrored(_ rect: Rect, _ width: Double) -> Rect { rect.mirrored(inCanvasWidth: width) }

  func close(_ a: Rect?, _ b: Rect?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a.x - b.x) < 0.01 && abs(a.y - b.y) < 0.01 && abs(a.width - b.width) < 0.01
      && abs(a.height - b.height) < 0.01
  }

  @Test(
    "every RTL rect is the LTR rect mirrored, for single-line Latin labels",
    arguments: ThemeName.allCases)
  func mirroring(theme: ThemeName) throws {
    let lists = [
      threeLevelList(.unordered(asset: .bullet, isBranded: true), .bodyLarge),
      threeLevelList(.ordered, .bodyMedium),
      threeLevelList(.unordered(asset: .tick, isBranded: false), .bodyMedium),
      threeLevelList(.bare, .bodyLarge),
    ]
    for list in lists {
      let ltr = try layout(list, theme, options: LayoutOptions(direction: .ltr))
      let rtl = try layout(list, theme, options: LayoutOptions(direction: .rtl))
      #expect(rtl.direction == .rtl && ltr.direction == .ltr)
      #expect(rtl.height == ltr.height)
      for (l, r) in zip(ltr.rows, rtl.rows) {
        #expect(close(r.label, mirrored(l.label, 360)), "\(r.path) label")
        #expect(close(r.marker.rect, mirrored(l.marker.rect, 360)), "\(r.path) marker")
        #expect(close(r.icon, l.icon.map { mirrored($0, 360) }), "\(r.path) icon")
        #expect(r.text.alignment == .right && l.text.alignment == .left)
      }
    }
  }

  @Test(
    "an Arabic locale selects RTL and Arabic letters; --direction overrides the direction alone")
  func localeAndDirection() throws {
    let list = threeLevelList(.ordered, .bodyLarge)
    let arabic = try layout(list, .orange, options: LayoutOptions(locale: "ar-MA"))
    #expect(arabic.direction == .rtl)
    #expect(
      arabic.rows.map { $0.marker.text } == ["1.", "\u{0623}.", "(\u{0623}).", "(\u{0628}).", "2."])
    let arabicLTR = try layout(list, .orange, options: LayoutOptions(locale: "ar", direction: .ltr))
    #expect(arabicLTR.direction == .ltr)
    #expect(arabicLTR.rows[1].marker.text == "\u{0623}.")
    let latinRTL = try layout(list, .orange, options: LayoutOptions(locale: "en", direction: .rtl))
    #expect(latinRTL.direction == .rtl)
    #expect(latinRTL.rows[1].marker.text == "A.")
  }

  @Test(
    "in RTL the marker's ink lies to the right of the label's ink", arguments: ThemeName.allCases)
  func markerInkOnTheRight(theme: ThemeName) throws {
    let list = OUDSBulletList(type: .ordered) { OUDSBulletList.Item("العنصر الأول") }
    let (image, scene) = try rasterize(
      list, theme, .light, scale: 2, options: LayoutOptions(locale: "ar"))
    let row = scene.rows[0]
    let background = try tokens(theme).colors.backgroundPrimary.hex
    func inkColumns(in rect: Rect) -> [Int] {
      var columns: [Int] = []
      for x in Int(rect.x * 2)..<Int(rect.maxX * 2) {
        for y in Int(rect.y * 2)..<Int(rect.maxY * 2) {
          let p = image.pixel(x: x, y: y)
          if RGBAColor(red: p.red, green: p.green, blue: p.blue).hex != background {
            columns.append(x)
            break
          }
        }
      }
      return columns
    }
    let markerInk = inkColumns(in: row.marker.rect)
    let labelInk = inkColumns(in: row.label)
    #expect(!markerInk.isEmpty && !labelInk.isEmpty)
    #expect((markerInk.min() ?? 0) > (labelInk.max() ?? .max))
  }
}
