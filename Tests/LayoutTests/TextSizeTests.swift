import BulletList
import BulletListRenderer
import Foundation
import Layout
import Primitives
import Scene
import Testing
import Themes
import Workbench

/// Android's font scale and iOS Dynamic Type, against the numbers of SPEC §5 and §6b.
/// Whether two numbers agree to 1e-9.
func nearly(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

@Suite("Font scale (Android) and Dynamic Type (iOS)")
struct TextSizeTests {
  let unordered = OUDSBulletList(type: .unordered(asset: .bullet)) {
    OUDSBulletList.Item("Label 1")
  }
  let ordered = OUDSBulletList(type: .ordered) { OUDSBulletList.Item("Label 1") }

  @Test("Android's table: the tabled points, between points, below 8 sp, beyond 100 sp")
  func androidTable() {
    // SPEC §6b, the table's own rows
    #expect(nearly(AndroidFontScale.dp(sp: 14, scale: 2.0), 26))
    #expect(nearly(AndroidFontScale.dp(sp: 30, scale: 1.8), 34.8))
    #expect(nearly(AndroidFontScale.dp(sp: 24, scale: 1.5), 28))
    // between two points of one table: 16 sp is halfway from 14 to 18
    #expect(nearly(AndroidFontScale.dp(sp: 16, scale: 2.0), 28))
    #expect(nearly(AndroidFontScale.dp(sp: 16, scale: 1.5), 23))
    // below the first point, from 0: 0.2 sp of letter spacing at 2.0 is 0.2 × 16 / 8
    #expect(abs(AndroidFontScale.dp(sp: 0.2, scale: 2.0) - 0.4) < 1e-12)
    #expect(abs(AndroidFontScale.dp(sp: -0.2, scale: 1.5) + 0.3) < 1e-12)
    // beyond 100 sp, the last point's ratio (100 → 100)
    #expect(nearly(AndroidFontScale.dp(sp: 120, scale: 2.0), 120))
    // between two tables, each point interpolated: 1.4 is halfway from 1.3 to 1.5
    #expect(abs(AndroidFontScale.dp(sp: 14, scale: 1.4) - (18.8 + 22) / 2) < 1e-9)
    // between 1.0 and the first table, from the identity: 1.04 is 80 % of the way to 1.05
    #expect(abs(AndroidFontScale.dp(sp: 14, scale: 1.04) - (14 + 0.8 * 0.8)) < 1e-9)
    // linear below 1.03 and above 2.0
    #expect(nearly(AndroidFontScale.dp(sp: 16, scale: 0.85), 16 * 0.85))
    #expect(nearly(AndroidFontScale.dp(sp: 16, scale: 1.02), 16 * 1.02))
    #expect(nearly(AndroidFontScale.dp(sp: 16, scale: 3), 48))
    #expect(nearly(AndroidFontScale.dp(sp: 16, scale: 1), 16))
  }

  /// The first row's text size, line height, icon and marker box.
  func firstRow(_ list: OUDSBulletList, _ theme: ThemeName, _ options: LayoutOptions) throws
    -> (fontSize: Double, lineHeight: Double, letterSpacing: Double, row: SceneRow)
  {
    let row = try #require(try layout(list, theme, options: options).rows.first)
    let appearance = row.text.content.appearance
    return (appearance.fontSize, appearance.lineHeight, appearance.letterSpacing, row)
  }

  @Test("Body Large at font scale 2.0 and 1.5: text, line, icon and box (SPEC §5)")
  func androidBodyLarge() throws {
    for (scale, text, line, icon) in [(2.0, 28.0, 36.0, 40.0), (1.5, 23, 28, 30)] {
      let sized = try firstRow(
        unordered, .orange, LayoutOptions(platform: .android, fontScale: scale))
      #expect(nearly(sized.fontSize, text) && nearly(sized.lineHeight, line))
      #expect(abs(sized.letterSpacing - 0.2 * scale) < 1e-9)
      let iconRect = try #require(sized.row.icon)
      #expect(iconRect.width == icon && iconRect.height == icon)
      // the box's minimum width scales (24 dp × s); the padding (6) and gap (8) do not
      #expect(sized.row.marker.rect.width == 24 * scale)
      #expect(sized.row.marker.rect.y == 6)
      #expect(sized.row.label.x == 4 + 24 * scale + 8)
      // the icon outgrows the line: the row is as tall as the icon, the label centred in it
      #expect(sized.row.marker.rect.height == icon)
      #expect(abs(sized.row.label.y - (6 + (icon - line) / 2)) < 0.01)
    }
  }

  @Test("ordered rows under Android's font scale: only the prefix's minimum width scales")
  func androidOrdered() throws {
    let plain = try firstRow(ordered, .sosh, LayoutOptions(platform: .android))
    let sized = try firstRow(ordered, .sosh, LayoutOptions(platform: .android, fontScale: 2))
    #expect(plain.row.marker.rect.width == 24)
    #expect(sized.row.marker.rect.width == 48)
    #expect(sized.row.icon == nil)
    #expect(sized.fontSize == 28 && sized.lineHeight == 36)
    // no icon outgrows the line: the box is the first line
    #expect(sized.row.marker.rect.height == 36)
  }

  @Test("iOS accessibility5: 16 × 53/17 pt text; the ordered box scales, an icon does not")
  func iosAccessibility5() throws {
    let factor = 53.0 / 17
    let sized = try firstRow(unordered, .orange, LayoutOptions(contentSize: .accessibility5))
    #expect(abs(sized.fontSize - 16 * factor) < 1e-9)
    #expect(abs(sized.lineHeight - 24 * factor) < 1e-9)
    #expect(sized.letterSpacing == 0.2)
    #expect(sized.row.icon?.width == 20)
    #expect(sized.row.marker.rect.width == 24)
    let orderedRow = try firstRow(ordered, .orange, LayoutOptions(contentSize: .accessibility5))
    #expect(nearly(orderedRow.row.marker.rect.width, 24 * factor))
    // every category's factor is its body size / 17
    let bodies: [Double] = [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
    #expect(ContentSizeCategory.allCases.map(\.bodyPointSize) == bodies)
    #expect(ContentSizeCategory.large.factor == 1)
  }

  @Test("the default sizes change nothing, on either platform: Body Large stays 16/24")
  func defaultsUnchanged() throws {
    for platform in Platform.allCases {
      let plain = try layout(unordered, .orange, options: LayoutOptions(platform: platform))
      let explicit = try layout(
        unordered, .orange,
        options: LayoutOptions(platform: platform, fontScale: 1, contentSize: .large))
      #expect(plain == explicit)
      // the defaults are the token sizes (SPEC §5: Body Large 16 on a 24 line, 0.2 spacing)…
      let row = try firstRow(unordered, .orange, LayoutOptions(platform: platform))
      #expect(row.fontSize == 16 && row.lineHeight == 24 && row.letterSpacing == 0.2, "\(platform)")
      // …and a size other than the default is not ignored: the same list is laid out larger
      let larger =
        platform == .android
        ? LayoutOptions(platform: platform, fontScale: 2)
        : LayoutOptions(platform: platform, contentSize: .accessibility5)
      let scaled = try firstRow(unordered, .orange, larger)
      #expect(scaled.fontSize > 16 && scaled.lineHeight > 24, "\(platform)")
      #expect(try layout(unordered, .orange, options: larger) != plain, "\(platform)")
    }
  }

  @Test("a size of the other platform, or a scale out of range, is refused with its reason")
  func refused() {
    func refusal(_ options: LayoutOptions) -> String? {
      do {
        _ = try layout(unordered, .orange, options: options)
        return nil
      } catch {
        return "\(error)"
      }
    }
    #expect(
      refusal(LayoutOptions(fontScale: 2))
        == "theme orange (light): font scale 2 is Android's font scale: draw with the Android rules (platform android), or use the content size (Dynamic Type) for iOS"
    )
    #expect(
      refusal(LayoutOptions(platform: .android, contentSize: .accessibility3))
        == "theme orange (light): content size accessibility3 is iOS Dynamic Type: draw with the iOS rules (platform ios), or use the font scale for Android"
    )
    #expect(
      refusal(LayoutOptions(platform: .android, fontScale: 0.5))
        == "theme orange (light): the font scale must be a number from 0.85 to 4, got 0.5")
    #expect(
      LayoutError.invalidFontScale(.nan).description
        == "the font scale must be a number from 0.85 to 4, got nan")
    // on(_:) puts the other platform's size back to its default
    let both = LayoutOptions(fontScale: 2, contentSize: .accessibility1)
    #expect(both.on(.ios).fontScale == 1 && both.on(.ios).contentSize == .accessibility1)
    #expect(both.on(.android).fontScale == 2 && both.on(.android).contentSize == .large)
  }

  @Test("a sheet repeats each platform's columns for each of its sizes, captioned")
  func sheetColumns() throws {
    let scene = try SharedRenderer.shared.with { renderer in
      try renderer.sheetLayout(
        unordered, themes: [.orange], modes: [.light], platforms: [.ios, .android],
        textSizes: SheetTextSizes(fontScales: [1, 1.5, 2], contentSizes: [.accessibility5])
      ).scene
    }
    let captions = scene.panels.compactMap { $0.caption?.content.plainText }
    // An iOS column at a Dynamic Type size: the sheet says first that iOS keeps the marker at
    // its token size (the icons below: 20 pt at accessibility5, as at large).
    #expect(
      captions == [
        AccessibilityAudit.markerSizeNote,
        "Orange · light · iOS · accessibility5", "Orange · light · Android · font scale 1",
        "Orange · light · Android · font scale 1.5", "Orange · light · Android · font scale 2",
      ])
    let width: Double = 16 + 4 * 360 + 3 * 16 + 16
    #expect(scene.width == width)
    let icons: [Double] = scene.rows.compactMap { $0.icon?.width }
    #expect(icons == [20, 20, 30, 40])
  }
}
