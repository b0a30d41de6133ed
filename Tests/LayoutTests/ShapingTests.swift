import Graphics
import Primitives
import Scene
import Testing
import Themes

@Suite("Arabic shaping")
struct ShapingTests {
  func glyphs(_ text: String, _ theme: ThemeName) throws -> [ShapedGlyph] {
    try SharedRenderer.shared.with { renderer in
      let t = try renderer.themes.theme(theme, mode: .light)
      let engine = TextEngine(fonts: try renderer.fontSet(for: theme))
      let appearance = TextAppearance(
        fontFamilies: t.fontFamilies, fontSize: 16, lineHeight: 24, letterSpacing: 0, weight: 400,
        color: RGBAColor(red: 0, green: 0, blue: 0), language: "ar")
      return engine.shapedGlyphs(
        StyledText(spans: [TextSpan(text)], appearance: appearance, direction: .rtl))
    }
  }

  @Test(
    "an Arabic word has fewer glyph clusters than letters (lam-alef ligature)",
    arguments: ThemeName.allCases)
  func ligature(theme: ThemeName) throws {
    let word = "السلام"  // alef, lam, sin, lam, alef, mim
    let shaped = try glyphs(word, theme)
    let clusters = Set(shaped.map(\.cluster))
    #expect(word.unicodeScalars.count == 6)
    #expect(clusters.count < 6)
    #expect(shaped.allSatisfy { $0.glyph != 0 })  // no missing-glyph boxes: the Arabic font is used
  }

  @Test("letters take their joining forms inside a word", arguments: ThemeName.allCases)
  func joiningForms(theme: ThemeName) throws {
    let isolated = try glyphs("ب", theme)
    let joined = try glyphs("ببب", theme)
    #expect(isolated.count == 1 && joined.count == 3)
    // Initial, medial and final forms differ from each other and from the isolated form.
    #expect(Set(joined.map(\.glyph) + isolated.map(\.glyph)).count == 4)
  }
}
