import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import Primitives
import Scene
import Testing
import Themes

/// Android's text setting (SPEC §6b): advances on whole device pixels, words shaped one by one,
/// no break after a hyphen; the iOS rules keep fractional positions.
@Suite("Android's text setting")
struct AndroidTextTests {
  /// A theme's Body Large appearance in its regular weight, in Android's setting at
  /// `pixelScale` (nil: the iOS setting), with `letterSpacing` (nil: the theme's).
  func appearance(
    _ theme: ThemeName, pixelScale: Int?, letterSpacing: Double? = nil
  ) throws -> TextAppearance {
    let t = try tokens(theme)
    let typography = t.typography.bodyLarge
    return TextAppearance(
      fontFamilies: t.fontFamilies, fontSize: typography.fontSize,
      lineHeight: typography.lineHeight,
      letterSpacing: letterSpacing ?? typography.letterSpacing,
      weight: typography.regularWeight, color: RGBAColor(red: 0, green: 0, blue: 0),
      language: "en", leading: pixelScale == nil ? .even : .proportional,
      androidPixelScale: pixelScale)
  }

  /// The glyphs of `text` in `appearance`, wrapped at `width`, by the theme's own text engine.
  func glyphs(
    _ text: String, _ theme: ThemeName, _ appearance: TextAppearance, width: Double? = nil
  ) throws -> [ShapedGlyph] {
    try SharedRenderer.shared.with { renderer in
      TextEngine(fonts: try renderer.fontSet(for: theme)).shapedGlyphs(
        StyledText(spans: [TextSpan(text)], appearance: appearance, direction: .ltr),
        wrapWidth: width)
    }
  }

  static let line = "Tap To start. A Tiny TV at Avenue Yard, then Type a Letter"

  @Test(
    "a line's glyph positions: the font's own advances rounded to pixels, plus letter spacing, word by word",
    arguments: [ThemeName.sosh, .orange], [1, 2, 3])
  func wordPositions(theme: ThemeName, scale: Int) throws {
    let android = try appearance(theme, pixelScale: scale)
    let spacing = android.letterSpacing
    let actual = try glyphs(Self.line, theme, android)
    // The font's own advances: each word (and the space) shaped alone with fractional
    // positions and no letter spacing, each advance rounded to whole pixels at the scale.
    let fractional = try appearance(theme, pixelScale: nil, letterSpacing: 0)
    let pixels = Double(scale)
    var expected: [Double] = []
    var pen = 0.0
    let words = Self.line.split(separator: " ", omittingEmptySubsequences: false)
    let space = try glyphs(" ", theme, fractional)
    for (index, word) in words.enumerated() {
      var pieces = try glyphs(String(word), theme, fractional)
      if index < words.count - 1 { pieces += space }
      for glyph in pieces {
        expected.append(pen)
        pen += (glyph.advance * pixels).rounded() / pixels + spacing
      }
    }
    #expect(actual.count == expected.count)
    for (glyph, x) in zip(actual, expected) {
      #expect(
        abs(glyph.x - x) < 0.02,
        "\(theme) at \(scale)x: glyph of byte \(glyph.cluster) at \(glyph.x), expected \(x)")
    }
    #expect(actual.allSatisfy { $0.line == 0 })
  }

  @Test("the fonts kern across a space when the line is shaped whole, which Android does not do")
  func kerningAcrossSpaces() throws {
    // Orange's fonts kern `T`, `A`, `Y` with a space: shaped whole, the fractional line is
    // narrower than its words and spaces shaped apart (what the test above expects of Android).
    let fractional = try appearance(.orange, pixelScale: nil, letterSpacing: 0)
    let whole = try glyphs(Self.line, .orange, fractional).map(\.advance).reduce(0, +)
    var apart = 0.0
    for word in Self.line.split(separator: " ") {
      apart += try glyphs(String(word), .orange, fractional).map(\.advance).reduce(0, +)
    }
    let spaces = Double(Self.line.filter { $0 == " " }.count)
    apart += spaces * (try glyphs(" ", .orange, fractional).map(\.advance).reduce(0, +))
    #expect(apart - whole > 0.5, "kerning across spaces: \(apart - whole) pt")
  }

  /// Whether the glyph right after the first hyphen (U+002D or U+2010) of `text` starts a line.
  func splitsAfterHyphen(_ glyphs: [ShapedGlyph], _ text: String) -> Bool {
    guard let hyphen = text.firstIndex(where: { $0 == "-" || $0 == "\u{2010}" }) else {
      return false
    }
    let start = text.utf8.distance(from: text.utf8.startIndex, to: hyphen)
    let after = start + text[hyphen].utf8.count
    guard let hyphenGlyph = glyphs.first(where: { $0.cluster == start }),
      let next = glyphs.first(where: { $0.cluster == after })
    else { return false }
    return next.line != hyphenGlyph.line
  }

  @Test(
    "\"non-bold,\" is never split after its hyphen under the Android rules, at widths that split it under iOS",
    arguments: ThemeName.allCases)
  func noBreakAfterHyphen(theme: ThemeName) throws {
    let text = "Bold and non-bold, unordered"
    let ios = try appearance(theme, pixelScale: nil)
    let measure = { (string: String) in
      try SharedRenderer.shared.with { renderer in
        TextEngine(fonts: try renderer.fontSet(for: theme)).measure(
          StyledText(spans: [TextSpan(string)], appearance: ios, direction: .ltr), wrapWidth: nil
        ).width
      }
    }
    let from = try measure("Bold and non-")
    let to = try measure("Bold and non-bold,")
    var iosSplits = 0
    var width = from
    while width < to {
      if splitsAfterHyphen(try glyphs(text, theme, ios, width: width), text) { iosSplits += 1 }
      for scale in PixelScale.supported {
        let android = try glyphs(
          text, theme, try appearance(theme, pixelScale: scale), width: width)
        #expect(!splitsAfterHyphen(android, text), "\(theme) at \(scale)x, width \(width)")
        // "non-bold," moves to the next line whole
        #expect(android.contains { $0.line > 0 })
      }
      width += 0.5
    }
    #expect(iosSplits > 0, "iOS splits \"non-|bold,\" at some width between \(from) and \(to)")
  }

  @Test("a hyphen (U+002D, U+2010) stays with the word after it in a list laid out for Android")
  func listKeepsHyphenatedWord() throws {
    for hyphen in ["-", "\u{2010}"] {
      let label = "Bold and non\(hyphen)bold, unordered"
      let list = OUDSBulletList(type: .bare, isBold: false) { OUDSBulletList.Item(label) }
      // A canvas whose label width ends just after "non-" on both platforms: iOS breaks there.
      var before = 0.0
      var whole = Double.infinity
      var start = 0.0
      for platform in Platform.allCases {
        let row = try layout(list, .orange, options: LayoutOptions(platform: platform)).rows[0]
        start = row.label.x
        let measure = { (text: String) in
          try SharedRenderer.shared.with { renderer in
            TextEngine(fonts: try renderer.fontSet(for: .orange)).measure(
              StyledText(
                spans: [TextSpan(text)], appearance: row.text.content.appearance,
                direction: .ltr), wrapWidth: nil
            ).width
          }
        }
        before = max(before, try measure("Bold and non\(hyphen)"))
        whole = min(whole, try measure("Bold and non\(hyphen)bold,"))
      }
      #expect(before + 0.5 < whole)
      for platform in Platform.allCases {
        let row = try layout(
          list, .orange,
          options: LayoutOptions(width: start + before + 0.5, platform: platform)
        ).rows[0]
        // the label as the scene draws it
        let drawn = try SharedRenderer.shared.with { renderer in
          TextEngine(fonts: try renderer.fontSet(for: .orange)).shapedGlyphs(
            row.text.content, wrapWidth: row.text.wrapWidth)
        }
        #expect(
          splitsAfterHyphen(drawn, label) == (platform == .ios),
          "\(platform), \(hyphen): \(drawn.map { "\($0.cluster):\($0.line)" })")
        #expect(row.lines == Set(drawn.map(\.line)).count)
      }
    }
  }

  @Test("Android layouts depend on the pixel scale; iOS layouts do not, and name none")
  func pixelScaleDependence() throws {
    let list = try demoList("demo-unordered")
    var widths: [Int: [Double]] = [:]
    for scale in PixelScale.supported {
      let ios = try layout(list, .sosh, options: LayoutOptions(textPixelScale: scale))
      #expect(ios == (try layout(list, .sosh)))
      #expect(!(try SceneJSON.encode(ios)).contains("androidPixelScale"))
      let android = try layout(
        list, .sosh, options: LayoutOptions(platform: .android, textPixelScale: scale))
      #expect(android.rows.allSatisfy { $0.text.content.appearance.androidPixelScale == scale })
      widths[scale] = android.rows.map(\.label.width)
    }
    #expect(widths[1] != widths[3])
    // nil: the standard scale
    let standard = try layout(list, .sosh, options: LayoutOptions(platform: .android))
    #expect(standard.rows.map(\.label.width) == widths[PixelScale.standard])
    // out of range: refused
    #expect(throws: RenderError.self) {
      try layout(list, .sosh, options: LayoutOptions(platform: .android, textPixelScale: 4))
    }
    #expect(
      LayoutError.invalidTextPixelScale(4).description
        == "the text pixel scale must be 1, 2 or 3, got 4")
  }

  @Test(
    "right-aligned ordered prefixes: whole pixels plus letter spacing, ending at the box's edge",
    arguments: [1, 2, 3])
  func orderedPrefixes(scale: Int) throws {
    let list = try demoList("demo-ordered")
    let scene = try layout(
      list, .orange, options: LayoutOptions(platform: .android, textPixelScale: scale))
    let rows = scene.rows.filter { $0.markerText != nil }
    #expect(rows.count >= 4)
    for row in rows {
      let prefix = try #require(row.markerText)
      let spacing = prefix.content.appearance.letterSpacing
      let glyphs = try SharedRenderer.shared.with { renderer in
        TextEngine(fonts: try renderer.fontSet(for: .orange)).shapedGlyphs(prefix.content)
      }
      // Pango adds letter spacing between glyphs, not before the first nor after the last.
      let width = glyphs.map(\.advance).reduce(0, +)
      let pixels = (width - Double(glyphs.count - 1) * spacing) * Double(scale)
      #expect(abs(pixels - pixels.rounded()) < 0.01, "\(row.path): \(pixels) px")
      // Right-aligned in a paragraph one point wider than the prefix: its end is the box's.
      #expect(abs(prefix.origin.x + prefix.wrapWidth - row.marker.rect.maxX) < 1e-9)
    }
  }
}
