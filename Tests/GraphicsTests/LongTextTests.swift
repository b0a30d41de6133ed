import Foundation
import PNG
import Primitives
import Scene
import Testing

@testable import Graphics

/// Labels of any length are laid out whole, in time that grows linearly: the text engine cuts a
/// paragraph into bounded Pango layouts (see `TextLayout`). Where one Pango layout still works
/// (a few thousand characters), the cut layout must give the same lines, sizes and pixels.
@Suite("Long text")
struct LongTextTests {
  let engine: TextEngine
  /// The same fonts, one Pango layout per paragraph whatever its length.
  let single: TextEngine

  init() throws {
    engine = try Fixtures.engine()
    single = TextEngine(fonts: engine.fonts)
    single.layoutLimits = .unbounded
  }

  /// Sentences with words of every length, deterministic.
  static func prose(bytes: Int, seed: UInt64 = 7) -> String {
    let words = [
      "a", "list", "bullet", "OUDS", "renders", "paragraphs", "with", "wrapping", "of", "labels",
      "internationalization", "x", "theme", "Orange,", "Sosh.", "tokens", "(aliases)", "—", "42",
    ]
    var state = seed
    var out = ""
    while out.utf8.count < bytes {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      out += words[Int(state >> 33) % words.count] + " "
    }
    return out
  }

  static func text(_ string: String, direction: LayoutDirection = .ltr, language: String = "en")
    -> StyledText
  {
    Fixtures.text(string, direction: direction, language: language)
  }

  /// The paragraph drawn alone at (10, 0) on a white canvas.
  private func image(_ engine: TextEngine, _ text: StyledText, wrap: Double, height: Double) throws
    -> RasterImage
  {
    let row = SceneRow(
      path: "items[0]", level: 0,
      marker: SceneMarker(kind: .none, text: nil, rect: Rect(x: 0, y: 0, width: 0, height: 0)),
      icon: nil, glyph: nil, markerText: nil,
      label: Rect(x: 10, y: 0, width: wrap, height: height),
      text: SceneText(
        origin: Point(x: 10, y: 0), wrapWidth: wrap,
        alignment: text.direction == .rtl ? .right : .left, content: text),
      lines: 1, firstBaseline: 0, accessibilityLabel: "")
    let scene = Scene(
      width: wrap + 20, height: height, direction: text.direction, theme: .orange, mode: .light,
      background: Fixtures.white, rows: [row])
    return try SceneRenderer(textEngine: engine).rasterize(scene, scale: 1)
  }

  /// Checks that the cut layout of `text` equals one Pango layout: metrics, glyphs and pixels.
  private func expectSameAsOneLayout(
    _ text: StyledText, wrap: Double, pixels: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let cut = engine.measure(text, wrapWidth: wrap)
    let whole = single.measure(text, wrapWidth: wrap)
    #expect(cut == whole, sourceLocation: sourceLocation)
    #expect(cut.lineCount > 1, sourceLocation: sourceLocation)
    #expect(
      cut.height == Double(cut.lineCount) * text.appearance.lineHeight,
      sourceLocation: sourceLocation)
    #expect(
      engine.shapedGlyphs(text).map(\.cluster).sorted()
        == single.shapedGlyphs(text).map(\.cluster).sorted(),
      sourceLocation: sourceLocation)
    if pixels {
      #expect(
        try image(engine, text, wrap: wrap, height: cut.height)
          == image(single, text, wrap: wrap, height: whole.height), sourceLocation: sourceLocation)
    }
  }

  @Test(
    "a paragraph of 12 KB is cut at line starts: the same lines, sizes and pixels as one layout")
  func longParagraph() throws {
    try expectSameAsOneLayout(Self.text(Self.prose(bytes: 12_000)), wrap: 300)
    try expectSameAsOneLayout(Self.text(Self.prose(bytes: 9_000, seed: 3)), wrap: 97.5)
  }

  @Test("right to left: a 9 KB Arabic paragraph is cut the same way")
  func longArabicParagraph() throws {
    let arabic = String(repeating: "مرحبا بالعالم، هذه قائمة نقطية طويلة جدا ", count: 220)
    try expectSameAsOneLayout(Self.text(arabic, direction: .rtl, language: "ar"), wrap: 280)
  }

  @Test("styled spans crossing the cuts keep their styles")
  func spansAcrossCuts() throws {
    var text = Self.text("")
    let words = Self.prose(bytes: 10_000).split(separator: " ")
    text.spans = words.enumerated().map { index, word in
      switch index % 4 {
      case 0: TextSpan(word + " ", weight: 700)
      case 1:
        TextSpan(word + " ", underline: true, color: Fixtures.orange, link: "https://example.com")
      case 2: TextSpan(word + " ", italic: true)
      default: TextSpan(word + " ")
      }
    }
    try expectSameAsOneLayout(text, wrap: 250)
  }

  @Test(
    "hundreds of paragraphs (LF, CRLF, CR, U+2029, empty ones) are grouped: the same as one layout")
  func manyParagraphs() throws {
    let separators = ["\n", "\r\n", "\r", "\u{2029}", "\n\n", "\u{2028}"]
    var label = ""
    for index in 0..<300 {
      label +=
        Self.prose(bytes: (index * 37) % 160, seed: UInt64(index))
        + separators[index % separators.count]
    }
    try expectSameAsOneLayout(Self.text(label), wrap: 200)
    try expectSameAsOneLayout(Self.text(label + "\n"), wrap: 200)
  }

  @Test("a word of 6,000 characters breaks exactly where one layout breaks it")
  func longWord() throws {
    try expectSameAsOneLayout(Self.text(String(repeating: "x", count: 6_000)), wrap: 300)
    try expectSameAsOneLayout(Self.text(String(repeating: "é", count: 3_000)), wrap: 123)
  }

  /// Every character of an ASCII label got a glyph: the cluster offsets are exactly 0..<count.
  private func expectEveryCharacterShaped(
    _ text: StyledText, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let count = text.plainText.utf8.count
    let clusters = Set(engine.shapedGlyphs(text).map(\.cluster))
    #expect(clusters.count == count, sourceLocation: sourceLocation)
    #expect(clusters.min() == 0 && clusters.max() == count - 1, sourceLocation: sourceLocation)
  }

  @Test("a label of 300,000 characters is laid out whole, not as one empty line")
  func veryLongLabel() throws {
    // One Pango layout overflows its 32-bit widths past about 247,500 characters and gives one
    // line of width 0; the cut layout has every line.
    let text = Self.text(String(repeating: "ab ", count: 100_000))
    let metrics = engine.measure(text, wrapWidth: 300)
    #expect(metrics.lineCount > 5_000)
    #expect(metrics.height == Double(metrics.lineCount) * 24)
    #expect(metrics.width > 250 && metrics.width <= 300)
    expectEveryCharacterShaped(text)
  }

  @Test("1 MB labels (one word, newlines, words) keep every line and every character")
  func megabyteLabels() throws {
    let newlines = Self.text(String(repeating: "\n", count: 1_000_000))
    let lines = engine.measure(newlines, wrapWidth: 300)
    #expect(lines.lineCount == 1_000_001)
    #expect(lines.height == 1_000_001 * 24)

    let word = Self.text(String(repeating: "a", count: 1_000_000))
    let wordMetrics = engine.measure(word, wrapWidth: 300)
    // Every line but the last holds as many "a"s as fit on one line.
    var full = 1
    while engine.measure(Self.text(String(repeating: "a", count: full + 1)), wrapWidth: 300)
      .lineCount == 1
    {
      full += 1
    }
    #expect(full > 20)
    #expect(wordMetrics.lineCount == (1_000_000 + full - 1) / full)
    #expect(wordMetrics.height == Double(wordMetrics.lineCount) * 24)
    expectEveryCharacterShaped(word)

    var spans = Self.text("")
    spans.spans = (0..<100_000).map {
      TextSpan($0 % 2 == 0 ? "bold " : "text ", weight: $0 % 2 == 0 ? 700 : nil)
    }
    let spanMetrics = engine.measure(spans, wrapWidth: 300)
    #expect(spanMetrics.lineCount > 10_000)
    #expect(spanMetrics.height == Double(spanMetrics.lineCount) * 24)
    expectEveryCharacterShaped(spans)
  }

  @Test("unwrapped text over a slice is measured slice by slice on one line, not as an empty line")
  func unwrappedLong() throws {
    let one = engine.measure(Self.text("a"), wrapWidth: nil)
    for count in [4_000, 5_000, 1_000_000] {
      let metrics = engine.measure(Self.text(String(repeating: "a", count: count)), wrapWidth: nil)
      #expect(metrics.lineCount == 1)
      #expect(metrics.height == 24)
      // The advance of "a" times the count (no kerning between identical letters).
      let expected: Double = one.width * Double(count)
      #expect(abs(metrics.width - expected) < 0.01)
    }
    // Short paragraphs around a long one keep their own lines.
    let mixed = Self.text("short\n" + String(repeating: "a", count: 9_000) + "\nend")
    let metrics = engine.measure(mixed, wrapWidth: nil)
    #expect(metrics.lineCount == 3)
    #expect(metrics.height == 72)
    let expected: Double = one.width * 9_000
    #expect(abs(metrics.width - expected) < 0.01)
  }
}
