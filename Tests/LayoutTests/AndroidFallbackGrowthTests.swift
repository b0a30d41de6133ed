import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import Primitives
import Scene
import Testing
import Themes

/// Android's line growth under a fallback font (SPEC §6b, "Fallback fonts and line growth"):
/// Orange and Orange Compact draw Arabic in Noto Naskh Arabic on Android, and a line holding its
/// glyphs grows to its whole-pixel ascent + descent. Every expected number is worked out from the
/// font file's metrics, read by the text engine, and checked against the spec's figures.
@Suite("Android's line growth under a fallback font")
struct AndroidFallbackGrowthTests {
  /// Three device pixels per point, as ouds-android's Paparazzi images.
  static let scale = 3

  /// Options of an Android layout at 3×, right to left or not.
  static func android(rtl: Bool = true, shrink: Bool = false) -> LayoutOptions {
    LayoutOptions(
      direction: rtl ? .rtl : .ltr, platform: .android, textPixelScale: scale, shrink: shrink)
  }

  /// The growth the rule gives a line of `style` in `theme` holding a glyph of `family`, in
  /// device pixels at 3×: the font's ascent and descent at the pixel size, each rounded half up
  /// (Skia's `FontMetricsInt`), less the line height, when positive.
  static func growth(
    _ theme: ThemeName, _ style: OUDSBulletList.TextStyle, family: String
  ) throws -> Int {
    let typography = try tokens(theme).typography[style]
    let pixels = Double(scale)
    let appearance = TextAppearance(
      fontFamilies: [family], fontSize: typography.fontSize * pixels,
      lineHeight: typography.lineHeight * pixels, letterSpacing: 0,
      weight: typography.regularWeight, color: RGBAColor(red: 0, green: 0, blue: 0),
      language: "ar")
    let metrics = try fontMetrics(theme, appearance, platform: .android)
    let height = Int(metrics.ascent.rounded()) + Int(metrics.descent.rounded())
    return max(0, height - Int((typography.lineHeight * pixels).rounded()))
  }

  /// A list of `style` whose first item has `count` ordered children (Arabic letters right to
  /// left under the Android rules, Latin left to right).
  static func list(_ style: OUDSBulletList.TextStyle, children count: Int) -> OUDSBulletList {
    OUDSBulletList(
      type: .ordered, textStyle: style, isBold: false,
      items: [
        OUDSBulletList.Item(
          label: .plain("Parent"), subListType: nil, subListTextStyle: nil,
          subListHasBoldText: nil,
          subItems: (0..<count).map { OUDSBulletList.Item("Child \($0)") })
      ])
  }

  @Test(
    "Noto Naskh Arabic's whole-pixel metrics: Body Large +9 px, Body Medium +12 px at 3× (Orange)")
  func spectrumFigures() throws {
    // SPEC §6b: 48 px font, round(51.31) + round(30.43) = 81 px against 72; 42 px: 45 + 27 = 72
    // against 60.
    #expect(try Self.growth(.orange, .bodyLarge, family: "Noto Naskh Arabic") == 9)
    #expect(try Self.growth(.orange, .bodyMedium, family: "Noto Naskh Arabic") == 12)
    // Orange Compact's Body Large is 14/20, its Body Medium 13/16: +12 and +19 px.
    #expect(try Self.growth(.orangeCompact, .bodyLarge, family: "Noto Naskh Arabic") == 12)
    #expect(try Self.growth(.orangeCompact, .bodyMedium, family: "Noto Naskh Arabic") == 19)
    // The UI variant's descent (−293) would not grow the line.
    #expect(try Self.growth(.sosh, .bodyLarge, family: "Noto Sans Arabic UI") == 0)
  }

  @Test(
    "a row with an Arabic-letter marker grows by the rule; its label is centred on the row",
    arguments: [OUDSBulletList.TextStyle.bodyLarge, .bodyMedium])
  func markerRow(style: OUDSBulletList.TextStyle) throws {
    let growth = try Self.growth(.orange, style, family: "Noto Naskh Arabic")
    let t = try tokens(.orange)
    let pitch = t.typography[style].lineHeight + 2 * t.metrics[style].paddingBlock
    let scene = try layout(Self.list(style, children: 1), .orange, options: Self.android())
    let child = try #require(scene.rows.last)
    #expect(child.markerText?.content.plainText.unicodeScalars.first?.value == 0x0623)
    // The marker's box is the grown line: line height + growth, in points.
    let grown = t.typography[style].lineHeight + Double(growth) / Double(Self.scale)
    #expect(abs(child.marker.rect.height - grown) < 1e-9)
    #expect(abs(scene.height - (2 * pitch + Double(growth) / Double(Self.scale))) < 1e-9)
    #expect(abs(child.label.midY - child.marker.rect.midY) < 1e-9)
  }

  @Test(
    "a layout's total height with two and four Arabic-letter rows: +18 px Body Large, +48 px Body Medium"
  )
  func totalHeights() throws {
    for (style, count, expected) in [
      (OUDSBulletList.TextStyle.bodyLarge, 2, 18), (.bodyMedium, 4, 48),
    ] {
      let list = Self.list(style, children: count)
      let ltr = try layout(list, .orange, options: Self.android(rtl: false))
      let rtl = try layout(list, .orange, options: Self.android())
      let t = try tokens(.orange)
      let pitch = t.typography[style].lineHeight + 2 * t.metrics[style].paddingBlock
      // Latin markers and labels keep the pitch of the tokens.
      #expect(ltr.height == Double(count + 1) * pitch)
      let growth = try Self.growth(.orange, style, family: "Noto Naskh Arabic")
      #expect(count * growth == expected)
      let grownPixels = (rtl.height - ltr.height) * Double(Self.scale)
      #expect(abs(grownPixels - Double(expected)) < 1e-6, "\(style): \(grownPixels) px")
      // The iOS rules do not grow.
      let ios = try layout(list, .orange, options: LayoutOptions(locale: "ar"))
      #expect(ios.height == ltr.height)
    }
  }

  @Test("an Arabic label grows its row as an Arabic marker does")
  func arabicLabel() throws {
    let list = OUDSBulletList(
      type: .unordered(), textStyle: .bodyLarge, isBold: false,
      items: [OUDSBulletList.Item("عنصر القائمة")])
    let scene = try layout(list, .orange, options: Self.android())
    let row = try #require(scene.rows.first)
    let t = try tokens(.orange)
    #expect(abs(row.label.height * 3 - (t.typography.bodyLarge.lineHeight * 3 + 9)) < 1e-6)
    #expect(abs(scene.height * 3 - (36 * 3 + 9)) < 1e-6)
    // Its baseline is the grown ascent (51 px) below the line's top: no leading is left.
    #expect(abs(row.firstBaseline * 3 - 51) < 0.01)
    // Compose gives every line the first line's metrics: a wrapped label's lines are 81 px each.
    let long = OUDSBulletList(
      type: .unordered(), textStyle: .bodyLarge, isBold: false,
      items: [OUDSBulletList.Item(String(repeating: "عنصر القائمة ", count: 12))])
    let wrapped = try #require(try layout(long, .orange, options: Self.android()).rows.first)
    #expect(wrapped.lines > 2)
    #expect(abs(wrapped.label.height * 3 - Double(wrapped.lines) * 81) < 1e-6)
  }

  /// The rows of the catalogue's Android right-to-left variants (Default's lists, SNAPSHOTS.md
  /// `Rtl[n]`), each next to what the rule gives: lines × line height + 2 × padding, the first
  /// line grown by the fallback's growth when the row's marker or label holds Arabic.
  @Test(
    "the catalogue's Android Rtl rows: each row's height next to Body Large + 9 px / Body Medium + 12 px",
    arguments: ["demo-bare", "demo-ordered", "demo-unordered"])
  func catalogueRows(name: String) throws {
    let list = try demoList(name)
    // Orange and Orange Compact fall back to Noto Naskh Arabic on Android; Sosh and Wireframe
    // keep their own Arabic face, Noto Sans Arabic UI, which does not grow a line.
    for (theme, family) in [
      (ThemeName.orange, "Noto Naskh Arabic"), (.orangeCompact, "Noto Naskh Arabic"),
      (.sosh, "Noto Sans Arabic UI"), (.wireframe, "Noto Sans Arabic UI"),
    ] {
      let scene = try layout(list, theme, options: Self.android())
      let t = try tokens(theme)
      var top = 0.0
      for row in scene.rows {
        let style: OUDSBulletList.TextStyle =
          abs(row.text.content.appearance.fontSize - t.typography.bodyLarge.fontSize) < 1e-9
          ? .bodyLarge : .bodyMedium
        let padding = t.metrics[style].paddingBlock
        let line = t.typography[style].lineHeight
        let arabic = ((row.markerText?.content.plainText ?? "") + row.text.content.plainText)
          .unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) }
        let growth = arabic ? try Self.growth(theme, style, family: family) : 0
        let bottom = max(row.label.maxY, row.marker.rect.maxY) + padding
        let height = (bottom - top) * Double(Self.scale)
        let expected =
          max(Double(row.lines) * line * 3, line * 3 + Double(growth)) + 2 * padding * 3
        print(
          "\(name) \(theme.rawValue) \(row.path): \(height) px; rule: \(style.tokenName) "
            + "\(Int(line * 3)) px × \(row.lines) line(s) + padding\(growth > 0 ? " + \(growth) px" : "")"
            + " = \(expected) px")
        #expect(abs(height - expected) < 1e-6, "\(name) \(theme) \(row.path)")
        top = bottom
      }
    }
  }

  @Test(
    "--shrink: the canvas is as wide as the content; right to left, the list keeps its right edge")
  func shrink() throws {
    let list = Self.list(.bodyLarge, children: 2)
    for platform in [Platform.ios, .android] {
      var options = LayoutOptions(direction: .ltr, platform: platform, textPixelScale: 3)
      let full = try layout(list, .orange, options: options)
      options.shrink = true
      let shrunk = try layout(list, .orange, options: options)
      // The content's own measured width: the widest label's end (single lines); on Android
      // the label's width is rounded up to whole device pixels, as Compose sizes a Text.
      let widest =
        full.rows.map { row in
          platform == .ios
            ? row.label.maxX : row.label.x + (row.label.width * 3 - 1e-9).rounded(.up) / 3
        }.max() ?? 0
      #expect(abs(shrunk.width - widest) < 1e-9)
      #expect(shrunk.width < full.width)
      #expect(shrunk.rows == full.rows)
      options.direction = .rtl
      let rtl = try layout(list, .orange, options: options)
      #expect(abs(rtl.width - shrunk.width) < 1e-9)
      // The level-0 marker keeps its indent from the right edge; the widest label reaches x 0.
      let t = try tokens(.orange)
      let first = try #require(rtl.rows.first)
      #expect(abs(first.marker.rect.maxX - (rtl.width - t.paddingInline[level: 0])) < 1e-9)
      // (on Android within the device pixel its width was rounded up to).
      let left = rtl.rows.map(\.label.x).min() ?? 1
      #expect(left >= -1e-9 && left < (platform == .ios ? 1e-9 : 1.0 / 3))
    }
    // A wrapped label needs its whole wrap width: the canvas stays as wide as --width.
    let long = OUDSBulletList(
      type: .unordered(), textStyle: .bodyLarge, isBold: false,
      items: [OUDSBulletList.Item(String(repeating: "Many words ", count: 20))])
    let wrapped = try layout(long, .orange, options: LayoutOptions(shrink: true))
    #expect(wrapped.rows[0].lines > 1)
    #expect(wrapped.width == CanvasWidth.standard)
  }
}
