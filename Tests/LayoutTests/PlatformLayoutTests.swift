import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import Primitives
import Scene
import Testing
import Themes

/// A demo list of `Snapshots/cases/` (the Android previews' lists, SNAPSHOTS.md), read as the
/// catalogue reads it (its `variants` key set aside).
func demoList(_ name: String) throws -> OUDSBulletList {
  try ListReader().read(
    file: repositoryRoot.appendingPathComponent("Snapshots/cases/\(name).json").path,
    settingAside: ["variants"]
  ).document.list
}

/// The metrics of the font a label in `appearance` is set in, read by the real text engine over
/// the font set `theme` draws with on `platform` (Android's fallback for Orange and Orange Compact).
func fontMetrics(
  _ theme: ThemeName, _ appearance: TextAppearance, platform: OUDSBulletList.Platform = .ios
) throws -> FontMetrics {
  try SharedRenderer.shared.with { renderer in
    TextEngine(fonts: try renderer.fontSet(for: theme, platform: platform)).fontMetrics(appearance)
  }
}

/// Whether `theme` draws Android in the same fonts as iOS (no Android fallback in its manifest).
func sameFontsOnBothPlatforms(_ theme: ThemeName) throws -> Bool {
  try SharedRenderer.shared.with { renderer in
    try renderer.fontSetName(for: theme, platform: .android)
      == renderer.fontSetName(for: theme, platform: .ios)
  }
}

@Suite("iOS and Android rules in the layout")
struct PlatformLayoutTests {
  let platforms = OUDSBulletList.Platform.allCases

  @Test("the scene names its platform; iOS is the default")
  func sceneNamesPlatform() throws {
    let list = threeLevelList(.ordered, .bodyLarge)
    #expect(try layout(list, .orange).platforms == [.ios])
    #expect(
      try layout(list, .orange, options: LayoutOptions(platform: .android)).platforms == [.android])
    let json = try SceneJSON.encode(
      try layout(list, .orange, options: LayoutOptions(platform: .android)))
    #expect(json.contains(#""platform" : "android""#))
  }

  @Test(
    "ordered markers per row of the Ordered demo, LTR and RTL, on both platforms",
    arguments: ThemeName.allCases)
  func demoMarkers(theme: ThemeName) throws {
    let list = try demoList("demo-ordered")
    let latin = [
      "1.", "2.", nil, nil, "a.", "b.", "3.", "A.", "B.", nil, nil, "4.", nil, nil, nil, nil,
    ]
    let arabic = [
      "1.", "2.", nil, nil, "(أ).", "(ب).", "3.", "أ.", "ب.", nil, nil, "4.", nil, nil, nil, nil,
    ]
    func markers(_ options: LayoutOptions) throws -> [String?] {
      try layout(list, theme, options: options).rows.map(\.marker.text)
    }
    // iOS: the locale decides, whatever the direction.
    #expect(try markers(LayoutOptions(direction: .ltr)) == latin)
    #expect(try markers(LayoutOptions(direction: .rtl)) == latin)
    #expect(try markers(LayoutOptions(locale: "ar", direction: .ltr)) == arabic)
    // Android: the direction decides, whatever the locale.
    #expect(try markers(LayoutOptions(direction: .ltr, platform: .android)) == latin)
    #expect(try markers(LayoutOptions(direction: .rtl, platform: .android)) == arabic)
    #expect(try markers(LayoutOptions(locale: "ar", direction: .ltr, platform: .android)) == latin)
    #expect(try markers(LayoutOptions(locale: "ar", platform: .android)) == arabic)  // ar → RTL
  }

  @Test(
    "bullet shapes per row of the Ordered demo: Android draws level 0 and 1 where iOS draws 2",
    arguments: ThemeName.allCases)
  func demoBullets(theme: ThemeName) throws {
    let list = try demoList("demo-ordered")
    let ios = try layout(list, theme).rows
    let android = try layout(list, theme, options: LayoutOptions(platform: .android)).rows
    // The glyph each level draws, taken from an unordered list with one row per level.
    let levels = try layout(
      threeLevelList(.unordered(asset: .bullet, isBranded: true), .bodyMedium), theme
    )
    .rows.prefix(3).map(\.glyph)
    let levelOf = { (glyph: SceneGlyph?) in levels.firstIndex(of: glyph) }
    let bulletPaths = [
      "items[2].items[1].items[0]", "items[2].items[1].items[1]",
      "items[3].items[1].items[0]", "items[3].items[1].items[1]",
    ]
    #expect(ios.filter { $0.marker.kind == .bullet }.map(\.path) == bulletPaths)
    #expect(android.filter { $0.marker.kind == .bullet }.map(\.path) == bulletPaths)
    #expect(ios.filter { $0.marker.kind == .bullet }.map { levelOf($0.glyph) } == [2, 2, 2, 2])
    #expect(android.filter { $0.marker.kind == .bullet }.map { levelOf($0.glyph) } == [0, 0, 1, 1])
    // Ticks and hearts are the same on both.
    for (a, i) in zip(android, ios) where a.marker.kind != .bullet {
      #expect(a.glyph == i.glyph && a.marker.kind == i.marker.kind, "\(a.path)")
    }
  }

  @Test(
    "first baseline: (L + ascent − descent) / 2 on iOS, Compose's rule on whole pixels on Android",
    arguments: themeStyles)
  func firstBaseline(theme: ThemeName, style: OUDSBulletList.TextStyle) throws {
    let t = try tokens(theme)
    let typography = t.typography[style]
    for bold in [false, true] {
      let list = OUDSBulletList(type: .bare, textStyle: style, isBold: bold) {
        OUDSBulletList.Item("Hamburgefonstiv")
      }
      let ios = try layout(list, theme).rows[0]
      let android = try layout(list, theme, options: LayoutOptions(platform: .android)).rows[0]
      let font = try fontMetrics(theme, ios.text.content.appearance)
      let (a, d, l) = (font.ascent, font.descent, typography.lineHeight)
      #expect(a > 0.7 * typography.fontSize && a < 1.2 * typography.fontSize, "ascent \(a)")
      #expect(d > 0.1 * typography.fontSize && d < 0.4 * typography.fontSize, "descent \(d)")
      #expect(abs(ios.firstBaseline - (l + a - d) / 2) < 0.01, "\(theme) \(style) iOS")
      // Android (SPEC §6), in Android's own font (Roboto for Orange and Orange Compact), at each
      // pixel scale: ascent and descent rounded to whole pixels, ceil(diff × descent / height)
      // of the extra pixels below the baseline.
      let androidFont = try fontMetrics(
        theme, android.text.content.appearance, platform: .android)
      let (aa, ad) = (androidFont.ascent, androidFont.descent)
      for scale in PixelScale.supported {
        let row = try layout(
          list, theme, options: LayoutOptions(platform: .android, textPixelScale: scale)
        ).rows[0]
        let s = Double(scale)
        // Skia rounds half up: the ascent is negative there, so 46.5 px becomes 46
        let (ascent, descent) = ((aa * s - 0.5).rounded(.up), (ad * s + 0.5).rounded(.down))
        let line = l * s
        let below = ((line - ascent - descent) * descent / (ascent + descent)).rounded(.up)
        #expect(
          abs(row.firstBaseline - (line - descent - below) / s) < 0.01,
          "\(theme) \(style) Android at \(scale)x: \(row.firstBaseline)")
      }
      // Only the baseline and the widths move: same line boxes, same rows.
      #expect(android.label.y == ios.label.y && android.label.height == ios.label.height)
      #expect(android.marker.rect == ios.marker.rect)
      #expect(android.text.content.appearance.leading == .proportional)
      #expect(ios.text.content.appearance.leading == .even)
    }
  }

  @Test(
    "the drawn glyphs sit on the baseline the layout reports, on both platforms",
    arguments: ThemeName.allCases)
  func drawnBaseline(theme: ThemeName) throws {
    let list = OUDSBulletList(type: .bare) { OUDSBulletList.Item("HHHH") }
    let background = try tokens(theme).colors.backgroundPrimary.hex
    var bottoms: [Double] = []
    for platform in platforms {
      let scale = 3
      let (image, scene) = try rasterize(
        list, theme, .light, scale: scale, options: LayoutOptions(platform: platform))
      let row = scene.rows[0]
      // The lowest row of ink under the label: flat-bottomed H ends on the baseline.
      var lowest = -1
      for y in Int(row.label.y * 3)..<Int(row.label.maxY * 3) {
        for x in Int(row.label.x * 3)..<Int(row.label.maxX * 3) {
          let p = image.pixel(x: x, y: y)
          if RGBAColor(red: p.red, green: p.green, blue: p.blue).hex != background {
            lowest = y
            break
          }
        }
      }
      // Cairo puts glyphs on whole pixels vertically, and Comic Neue's letters are uneven.
      let baseline = (row.label.y + row.firstBaseline) * Double(scale)
      #expect(
        abs(Double(lowest + 1) - baseline) <= 1.5,
        "\(platform): ink ends at \(lowest + 1), baseline \(baseline)")
      bottoms.append(Double(lowest + 1) / Double(scale))
    }
    // Android's label sits lower: by the difference of the two rules, within a pixel.
    let ios = try layout(list, theme).rows[0].firstBaseline
    let android = try layout(list, theme, options: LayoutOptions(platform: .android)).rows[0]
      .firstBaseline
    #expect(android > ios)
    #expect(abs((bottoms[1] - bottoms[0]) - (android - ios)) <= 1.0 / 3 + 0.001)
  }

  @Test(
    "a marker taller than the first line: the label stays at the top on iOS, is centred on Android",
    arguments: ThemeName.allCases)
  func tallMarker(theme: ThemeName) throws {
    var t = try tokens(theme)
    let style = OUDSBulletList.TextStyle.bodyMedium
    let lineHeight = t.typography[style].lineHeight
    let padding = t.metrics[style].paddingBlock
    t.metrics[style].iconSize = lineHeight + 10
    let list = OUDSBulletList(type: .unordered(), textStyle: style, isBold: false) {
      OUDSBulletList.Item("One line")
      OUDSBulletList.Item(String(repeating: "Many words on many lines ", count: 12))
    }
    let scenes = try SharedRenderer.shared.with { renderer in
      let engine = TextEngine(fonts: try renderer.fontSet(for: theme))
      return try platforms.map {
        try ListLayout(theme: t, measurer: engine).layout(
          list, options: LayoutOptions(platform: $0)
        ).scene
      }
    }
    let (ios, android) = (scenes[0].rows, scenes[1].rows)
    // iOS: the box is the first line box, the label at the top of the row, the icon overflows.
    #expect(ios[0].marker.rect.height == lineHeight)
    #expect(ios[0].label.y == padding)
    #expect(ios[1].label.y == ios[0].label.maxY + 2 * padding)
    // Android: the box is as tall as the icon and the one-line label is centred on the row.
    #expect(android[0].marker.rect.height == lineHeight + 10)
    #expect(android[0].label.y == padding + 5)
    let icon = try #require(android[0].icon)
    #expect(icon.y == padding && icon.height == lineHeight + 10)
    #expect(abs(android[0].label.midY - icon.midY) < 0.001)
    // A label taller than the marker is not moved: the row is as tall as the label.
    #expect(android[1].lines > 2)
    #expect(android[1].label.y == android[0].label.maxY + 5 + 2 * padding)
    #expect(scenes[1].height - scenes[0].height == 10)
  }

  @Test(
    "left to right, the Android rules change no row height of the demo lists",
    arguments: ThemeName.allCases)
  func demoHeights(theme: ThemeName) throws {
    // SNAPSHOTS.md: Orange Default [2] is 2160 px = 720 pt at 3 px per pt.
    if theme == .orange {
      #expect(
        try layout(demoList("demo-unordered"), .orange, options: LayoutOptions(platform: .android))
          .height == 720)
    }
    // In other fonts (Roboto on Android for Orange and Orange Compact) a line may break
    // elsewhere: the rules alone are compared where both platforms draw the same fonts.
    guard try sameFontsOnBothPlatforms(theme) else { return }
    for name in ["demo-bare", "demo-ordered", "demo-unordered"] {
      let ios = try layout(demoList(name), theme)
      let android = try layout(demoList(name), theme, options: LayoutOptions(platform: .android))
      #expect(android.rows.map(\.label.height) == ios.rows.map(\.label.height), "\(name)")
      #expect(android.rows.map(\.label.y) == ios.rows.map(\.label.y), "\(name)")
      #expect(android.height == ios.height, "\(name)")
    }
  }

  @Test(
    "Android rich text in bold: drawn, links underlined in the link colour; iOS refuses it",
    arguments: themeModes)
  func richTextInBold(theme: ThemeName, mode: ColorMode) throws {
    let t = try tokens(theme, mode)
    let list = OUDSBulletList(type: .bare, isBold: true) {
      OUDSBulletList.Item(
        richText: RichText(runs: [
          .init("Second item with a "), .init("strong", isStrong: true), .init(" text and a "),
          .init("link", link: "https://unified-design-system.orange.com"),
        ]))
    }
    #expect(
      throws: RenderError.list(
        BulletListError(
          path: "items[0]",
          message:
            "rich text is allowed only when the text is not bold (set isBold or subListHasBoldText to false)"
        ))
    ) {
      try layout(list, theme, mode)
    }
    let scale = 3
    let (image, scene) = try rasterize(
      list, theme, mode, scale: scale, options: LayoutOptions(width: 640, platform: .android))
    let row = scene.rows[0]
    let strong = t.typography[.bodyLarge].strongWeight
    #expect(row.lines == 1 && row.text.content.appearance.weight == strong)
    let link = row.text.content.spans[3]
    #expect(link.underline && link.color?.hex == t.colors.linkEnabled.hex && link.weight == strong)
    let columns = try underlineColumns(
      image: image, scale: scale, row: row, before: "Second item with a strong text and a ",
      link: "link",
      theme: theme, bold: true, platform: .android)
    let solid = columns.filter { $0.underlineIsLinkColour }.count
    #expect(
      Double(solid) / Double(columns.count) > 0.95, "underline not in \(t.colors.linkEnabled.hex)")
  }
}
