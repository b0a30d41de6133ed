import Primitives

/// How the extra leading of a line (line height − the font's ascent − descent) is placed.
public enum LeadingDistribution: String, Codable, Hashable, Sendable {
  /// Half above the line, half below (iOS, and Pango's own line height).
  case even
  /// Above and below in proportion to the font's ascent and descent, first line included
  /// (Android's `LineHeightStyle(Alignment.Proportional, Trim.None)`).
  case proportional
}

/// The typographic settings of a block of text, all sizes in points.
public struct TextAppearance: Codable, Hashable, Sendable {
  /// Font families in preference order: brand family first, then substitutes, then Arabic.
  public var fontFamilies: [String]
  /// Font size (absolute, in points).
  public var fontSize: Double
  /// Line box height (absolute, in points); every line of the block is exactly this tall.
  public var lineHeight: Double
  /// Extra space between letters (absolute, in points).
  public var letterSpacing: Double
  /// OpenType weight (100...1000) of the text that is not marked strong.
  public var weight: Int
  /// Text colour.
  public var color: RGBAColor
  /// BCP 47 language tag given to the shaper (steers font fallback and localized forms).
  public var language: String
  /// Where the extra leading of each line goes (left out of the JSON when `even`).
  @OmittedWhenDefault public var leading: LeadingDistribution
  /// Android's text setting (SPEC §6b) at this many device pixels per point, nil for the iOS
  /// setting (fractional glyph positions, the paragraph shaped whole, breaks wherever the line
  /// breaking rules allow). With a number, every glyph advance is rounded to whole pixels at
  /// that scale and letter spacing added unrounded, each word is shaped on its own (no kerning
  /// across a space), lines never break after U+002D or U+2010, and with the `proportional`
  /// leading the first baseline follows Compose's rule on integer font metrics.
  public var androidPixelScale: Int?

  /// Creates a text appearance.
  public init(
    fontFamilies: [String], fontSize: Double, lineHeight: Double, letterSpacing: Double,
    weight: Int, color: RGBAColor, language: String, leading: LeadingDistribution = .even,
    androidPixelScale: Int? = nil
  ) {
    self.fontFamilies = fontFamilies
    self.fontSize = fontSize
    self.lineHeight = lineHeight
    self.letterSpacing = letterSpacing
    self.weight = weight
    self.color = color
    self.language = language
    self.leading = leading
    self.androidPixelScale = androidPixelScale
  }
}

/// A run of characters that share the same inline styling.
public struct TextSpan: Codable, Hashable, Sendable {
  /// The characters, drawn literally (never interpreted as markup).
  public var text: String
  /// Weight override for this span (for example strong text); nil keeps the block's weight.
  public var weight: Int?
  /// Whether the span is slanted (left out of the JSON when not).
  @OmittedWhenDefault public var italic: Bool
  /// Whether the span is underlined (links; left out of the JSON when not).
  @OmittedWhenDefault public var underline: Bool
  /// Colour override for this span (links); nil keeps the block's colour.
  public var color: RGBAColor?
  /// Target of a link, kept for accessibility and PDF; not drawn.
  public var link: String?

  /// Creates a span; by default it is plain text in the block's style.
  public init(
    _ text: String, weight: Int? = nil, italic: Bool = false, underline: Bool = false,
    color: RGBAColor? = nil, link: String? = nil
  ) {
    self.text = text
    self.weight = weight
    self.italic = italic
    self.underline = underline
    self.color = color
    self.link = link
  }
}

/// Horizontal alignment of lines inside a text box, in visual terms.
public enum TextAlignment: String, Codable, Sendable {
  /// Lines start at the left edge of the box.
  case left
  /// Lines end at the right edge of the box.
  case right
}

/// A paragraph of styled text: what to shape, in which direction, with which style.
public struct StyledText: Codable, Hashable, Sendable {
  /// The inline runs, in logical order.
  public var spans: [TextSpan]
  /// The block's typography.
  public var appearance: TextAppearance
  /// Base direction of the paragraph (the list's direction; never guessed from the text).
  public var direction: LayoutDirection

  /// Creates a paragraph.
  public init(spans: [TextSpan], appearance: TextAppearance, direction: LayoutDirection) {
    self.spans = spans
    self.appearance = appearance
    self.direction = direction
  }

  /// The concatenated characters of every span.
  public var plainText: String { spans.map(\.text).joined() }
}

/// What a text engine reports for a paragraph laid out at a given wrap width.
public struct TextMetrics: Hashable, Sendable {
  /// Width of the widest line's logical box, in points.
  public var width: Double
  /// Height of all line boxes together (line count × line height), in points.
  public var height: Double
  /// Number of lines after wrapping.
  public var lineCount: Int
  /// Distance from the top of the block to the first line's baseline, in points.
  public var firstBaseline: Double
  /// Characters no font of the set could draw (they show as boxes), in order, without repeats.
  public var missingCharacters: [Character]

  /// Creates text metrics.
  public init(
    width: Double, height: Double, lineCount: Int, firstBaseline: Double,
    missingCharacters: [Character] = []
  ) {
    self.width = width
    self.height = height
    self.lineCount = lineCount
    self.firstBaseline = firstBaseline
    self.missingCharacters = missingCharacters
  }
}

/// Measures paragraphs the way they will be drawn; the Graphics target implements it with Pango.
///
/// Measuring cannot fail: a character no font has is measured as the box it is drawn as, and
/// reported in ``TextMetrics/missingCharacters``.
public protocol TextMeasuring {
  /// Lays out `text` wrapped at `wrapWidth` points (nil: never wrap) and returns its metrics.
  func measure(_ text: StyledText, wrapWidth: Double?) -> TextMetrics
}
