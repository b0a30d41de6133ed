import BulletList
import BulletListRenderer
import Graphics
import Layout
import PNG
import Primitives
import Scene
import Testing
import Themes

/// What one pixel column under a link holds, read from the bottom up.
struct UnderlineColumn {
  /// The column, in pixels.
  var x: Int
  /// The top pixel row of the underline.
  var underlineTop: Int
  /// The underline's height in pixels (every pixel that is not background).
  var underlineHeight: Int
  /// Whether a pixel of the underline is exactly the link colour.
  var underlineIsLinkColour: Bool
  /// Background pixels between the underline and the glyph ink above it.
  var gap: Int
  /// Whether glyph ink sits above the gap (within 4 pt above the baseline).
  var glyphInkAbove: Bool
}

/// Scans the pixel columns under the link of `row` (its spans: text before, then the link).
///
/// The link's columns are found by measuring, with the real text engine, the spans before it and
/// the link itself (1 pt is left out at each end).
func underlineColumns(
  image: RasterImage, scale: Int, row: SceneRow, before: String, link: String, theme: ThemeName,
  bold: Bool, platform: OUDSBulletList.Platform = .ios
) throws -> [UnderlineColumn] {
  let content = row.text.content
  let spans = content.spans
  let linkIndex = try #require(spans.firstIndex { $0.text == link })
  #expect(spans[..<linkIndex].map(\.text).joined() == before)
  let (beforeWidth, linkWidth) = try SharedRenderer.shared.with { renderer in
    let engine = TextEngine(fonts: try renderer.fontSet(for: theme, platform: platform))
    return (
      engine.measure(
        StyledText(
          spans: Array(spans[..<linkIndex]), appearance: content.appearance, direction: .ltr),
        wrapWidth: nil
      ).width,
      engine.measure(
        StyledText(spans: [spans[linkIndex]], appearance: content.appearance, direction: .ltr),
        wrapWidth: nil
      ).width
    )
  }
  let s = Double(scale)
  let background = image.pixel(x: 0, y: 0)
  let linkColour = try #require(spans[linkIndex].color)
  func isBackground(_ x: Int, _ y: Int) -> Bool {
    let p = image.pixel(x: x, y: y)
    return p.red == background.red && p.green == background.green && p.blue == background.blue
  }
  func isLink(_ x: Int, _ y: Int) -> Bool {
    let p = image.pixel(x: x, y: y)
    return p.red == linkColour.red && p.green == linkColour.green && p.blue == linkColour.blue
  }
  let baseline = row.label.y + row.firstBaseline
  let top = Int((baseline - 4) * s)
  let bottom = min(image.height - 1, Int((baseline + 6) * s))
  var columns: [UnderlineColumn] = []
  for x in Int(
    (row.label.x + beforeWidth + 1) * s)..<Int((row.label.x + beforeWidth + linkWidth - 1) * s)
  {
    var y = bottom
    while y > top, isBackground(x, y) { y -= 1 }
    let underlineBottom = y
    var linkPixel = false
    while y > top, !isBackground(x, y) {
      linkPixel = linkPixel || isLink(x, y)
      y -= 1
    }
    let underlineTop = y + 1
    var gap = 0
    while y > top, isBackground(x, y) {
      gap += 1
      y -= 1
    }
    columns.append(
      UnderlineColumn(
        x: x, underlineTop: underlineTop, underlineHeight: underlineBottom - underlineTop + 1,
        underlineIsLinkColour: linkPixel, gap: gap, glyphInkAbove: y > top))
  }
  return columns
}

@Suite("Link underlines")
struct UnderlineTests {
  static let cases: [(ThemeName, ColorMode, OUDSBulletList.Platform)] = themeModes.flatMap {
    theme, mode in
    OUDSBulletList.Platform.allCases.map { (theme, mode, $0) }
  }

  /// Checks the columns under "documentation" (round letters that overshoot the baseline, no
  /// descender) at scale 3: glyph ink, then at least one pixel row of background wholly below
  /// the baseline, then the underline in the link colour, placed and sized by the font's metrics.
  @Test(
    "the underline never touches the glyphs: ink, ≥ 1 px of background, then the link colour",
    arguments: cases)
  func clearOfGlyphs(theme: ThemeName, mode: ColorMode, platform: OUDSBulletList.Platform) throws {
    let t = try tokens(theme, mode)
    for bold in platform == .android ? [false, true] : [false] {
      let list = OUDSBulletList(type: .bare, isBold: bold) {
        OUDSBulletList.Item(
          richText: RichText(runs: [
            .init("Read the "),
            .init("documentation", link: "https://unified-design-system.orange.com"),
          ]))
      }
      let scale = 3
      let (image, scene) = try rasterize(
        list, theme, mode, scale: scale, options: LayoutOptions(width: 640, platform: platform))
      let row = scene.rows[0]
      let columns = try underlineColumns(
        image: image, scale: scale, row: row, before: "Read the ", link: "documentation",
        theme: theme,
        bold: bold, platform: platform)
      let baseline = (row.label.y + row.firstBaseline) * Double(scale)
      let what = "\(theme) \(mode) \(platform) bold \(bold)"
      #expect(columns.count > 100, "\(what)")
      // Most columns cross a glyph above the underline; every one keeps a clean row below it.
      #expect(
        columns.filter(\.glyphInkAbove).count * 2 > columns.count, "\(what): too little ink found")
      for column in columns {
        #expect(column.gap >= 1, "\(what): x \(column.x): the underline touches the glyph")
        #expect(
          Double(column.underlineTop - 1) >= baseline,
          "\(what): x \(column.x): no clean row below the baseline")
        #expect(
          column.underlineIsLinkColour,
          "\(what): x \(column.x): no pixel of \(t.colors.linkEnabled.hex)")
      }
      // Position and thickness from the font: never above the font's own underline position,
      // on it when that position already clears the glyphs, as thick as the font says.
      let typography = t.typography[.bodyLarge]
      let font = try fontMetrics(
        theme,
        TextAppearance(
          fontFamilies: row.text.content.appearance.fontFamilies, fontSize: typography.fontSize,
          lineHeight: typography.lineHeight,
          letterSpacing: typography.letterSpacing, weight: typography.strongWeight,
          color: RGBAColor(red: 0, green: 0, blue: 0), language: "en"), platform: platform)
      let fontTop = baseline - font.underlinePosition * Double(scale)
      let tops = Set(columns.map(\.underlineTop))
      #expect(tops.count == 1, "\(what): the underline is not straight: \(tops.sorted())")
      let drawnTop = Double(tops.min() ?? 0)
      #expect(drawnTop >= fontTop.rounded(.down), "\(what): above the font's underline position")
      if drawnTop > fontTop.rounded(.up) {
        // Moved down to clear the glyphs, and no further than that.
        #expect(
          columns.filter(\.glyphInkAbove).map(\.gap).min() ?? 0 <= 2, "\(what): lower than needed")
      }
      let thickness = font.underlineThickness * Double(scale)
      for height in Set(columns.map(\.underlineHeight)) {
        #expect(
          Double(height) >= thickness.rounded(.down)
            && Double(height) <= thickness.rounded(.up) + 1,
          "\(what): underline \(height) px, the font says \(thickness): \(columns.filter { $0.underlineHeight == height }.prefix(3))"
        )
      }
    }
  }
}
