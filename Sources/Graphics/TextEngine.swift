internal import CGraphics
internal import CGraphicsLoader
import Primitives
import Scene

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Lays out and measures paragraphs with Pango, with pinned, device-independent settings.
///
/// Every paragraph goes through the same layout code whether it is measured or drawn, so the
/// figures the layout engine computes from ``measure(_:wrapWidth:)`` are exactly what a render
/// shows. Settings that would make output depend on the target are pinned: no hinting, no metric
/// hinting, grey antialiasing, unrounded glyph positions, absolute pixel sizes and line heights,
/// an explicit base direction and language.
///
/// Paragraphs in Android's text setting (``Scene/TextAppearance/androidPixelScale``) are laid
/// out in device pixels instead, in a second context with metric hinting and rounded glyph
/// positions (Pango then rounds every advance to a whole pixel), and their figures divided back
/// to points: see ``TextLayout``.
///
/// Not thread-safe: a `TextEngine` (and its ``FontSet``) must be used from one thread at a time.
public final class TextEngine: TextMeasuring {
  /// The fonts every layout is shaped with.
  public let fonts: FontSet

  /// The Pango context of fractional positions (the iOS setting); owned, released in `deinit`.
  private let context: OpaquePointer
  /// The Pango context of Android's setting, made on first use: metrics hinted and glyph
  /// positions rounded, in the device pixels its paragraphs are laid out in; owned.
  private var pixelContext: OpaquePointer?

  /// Creates a text engine that shapes with `fonts` only.
  public init(fonts: FontSet) {
    self.fonts = fonts
    // pango_font_map_create_context never returns NULL (GObject allocation aborts on failure).
    context = ouds_pango_font_map_create_context(fonts.fontMap)
    let options = FontOptions(hintMetrics: false)
    ouds_pango_cairo_context_set_font_options(context, options.handle)
    ouds_pango_context_set_round_glyph_positions(context, 0)
  }

  deinit {
    ouds_g_object_unref(UnsafeMutableRawPointer(context))
    if let pixelContext { ouds_g_object_unref(UnsafeMutableRawPointer(pixelContext)) }
  }

  /// The contexts a paragraph is laid out with (see ``TextLayout/Contexts``).
  private var contexts: TextLayout.Contexts {
    let pixels: OpaquePointer
    if let pixelContext {
      pixels = pixelContext
    } else {
      pixels = ouds_pango_font_map_create_context(fonts.fontMap)
      // Hinted metrics make Cairo round advances to whole units of the (unscaled) device space,
      // and Pango rounds each glyph's final advance, kerning included, to whole units: pixels,
      // since these paragraphs are laid out in pixels. Outlines stay unhinted.
      let options = FontOptions(hintMetrics: true)
      ouds_pango_cairo_context_set_font_options(pixels, options.handle)
      ouds_pango_context_set_round_glyph_positions(pixels, 1)
      pixelContext = pixels
    }
    return TextLayout.Contexts(fractional: context, pixels: pixels)
  }

  /// Lays out `text` wrapped at `wrapWidth` points (nil: never wrap) and returns its metrics.
  ///
  /// Text of any length is laid out (see ``TextLayout``); an unwrapped paragraph longer than
  /// ``TextLayout/Limits/maxPieceBytes`` is measured slice by slice, side by side on its line.
  public func measure(_ text: StyledText, wrapWidth: Double?) -> TextMetrics {
    layout(text, wrapWidth: wrapWidth, alignment: .left).metrics
  }

  /// The glyphs HarfBuzz chose for `text` wrapped at `wrapWidth` points (nil: never wrap), line
  /// by line in visual order, with the byte offset of the cluster each belongs to, and where
  /// each is drawn; used to check shaping (joined Arabic letters, ligatures), positions and line
  /// breaks.
  public func shapedGlyphs(_ text: StyledText, wrapWidth: Double? = nil) -> [ShapedGlyph] {
    layout(text, wrapWidth: wrapWidth, alignment: .left).glyphs
  }

  /// The font files Pango really draws `text` with, in the order their runs come, each once: the
  /// face fontconfig chose for every run of the laid-out paragraph (after fallback from the
  /// appearance's families), as the path of the file the font set loaded.
  public func fontFiles(_ text: StyledText) -> [URL] {
    layout(text, wrapWidth: nil, alignment: .left).fontFiles
  }

  /// The vertical metrics of the font a paragraph in `appearance` is set in: the first font of
  /// its families that has a space, at its size and weight, as Pango reads them from the font
  /// (hhea or OS/2 ascent and descent, post underline position and thickness).
  ///
  /// These are the font's own (unhinted) metrics in points, whatever the appearance's text
  /// setting.
  public func fontMetrics(_ appearance: TextAppearance) -> FontMetrics {
    ouds_pango_context_set_base_dir(context, PANGO_DIRECTION_LTR)
    let language = ouds_pango_language_from_string(appearance.language)
    ouds_pango_context_set_language(context, language)
    return TextLayout.baseFontMetrics(context: context, appearance: appearance, language: language)
  }

  /// The paragraph to lay out with Pango; the only place layouts are made (by the paragraph,
  /// piece by piece, each time it is measured or drawn).
  func layout(_ text: StyledText, wrapWidth: Double?, alignment: TextAlignment) -> TextLayout {
    TextLayout(
      contexts: contexts, text: text,
      language: ouds_pango_language_from_string(text.appearance.language),
      wrapWidth: wrapWidth, alignment: alignment, limits: layoutLimits, memo: memo,
      fontMetricsCache: fontMetricsCache)
  }

  /// The last paragraphs laid out in one piece, kept for the next use of the same paragraph
  /// (a label is measured, then drawn with the same width and alignment).
  private let memo = PieceMemo()

  /// The whole-pixel metrics of the fonts Android's line growth has looked up (a family's
  /// metrics come through fontconfig, which costs more than the paragraph's layout).
  private let fontMetricsCache = FontMetricsCache()

  /// How paragraphs are cut into pieces; tests compare with ``TextLayout/Limits/unbounded``.
  var layoutLimits = TextLayout.Limits.standard
}

/// Vertical metrics of a font at a given size, in points.
public struct FontMetrics: Hashable, Sendable {
  /// Distance from the baseline up to the top of the font's line box.
  public var ascent: Double
  /// Distance from the baseline down to the bottom of the font's line box.
  public var descent: Double
  /// Distance from the baseline up to the top of the font's suggested underline (negative: below).
  public var underlinePosition: Double
  /// The font's suggested underline thickness.
  public var underlineThickness: Double

  /// Creates font metrics.
  public init(
    ascent: Double, descent: Double, underlinePosition: Double, underlineThickness: Double
  ) {
    self.ascent = ascent
    self.descent = descent
    self.underlinePosition = underlinePosition
    self.underlineThickness = underlineThickness
  }

  /// The first baseline of a line box `lineHeight` tall under a leading rule: `even` puts half
  /// the extra leading above the ascent, `proportional` the ascent's share of it.
  public func firstBaseline(lineHeight: Double, leading: LeadingDistribution) -> Double {
    switch leading {
    case .even: (lineHeight + ascent - descent) / 2
    case .proportional: ascent + descent > 0 ? lineHeight * ascent / (ascent + descent) : ascent
    }
  }

  /// The first baseline Android puts in a line box `lineHeight` points tall at `pixelScale`
  /// device pixels per point (SPEC §6): Compose's `LineHeightStyleSpan` works on the integer
  /// `FontMetricsInt` (Skia rounds the ascent, a negative number, and the descent half up to
  /// whole pixels) and puts `ceil(diff × descent / (descent − ascent))` of the
  /// `diff = ceil(lineHeight) − (descent − ascent)` pixels below the baseline.
  ///
  /// Roboto 16/24 at 3×: ascent 44.53 → 45 px, descent 11.72 → 12 px, diff 72 − 57 = 15,
  /// 4 px below: the baseline at 72 − 12 − 4 = 56 px, 18.67 pt.
  public func androidFirstBaseline(lineHeight: Double, pixelScale: Int) -> Double {
    let scale = Double(max(1, pixelScale))
    let ascentPixels = -((-ascent * scale) + 0.5).rounded(.down)
    let descentPixels = (descent * scale + 0.5).rounded(.down)
    let height = ascentPixels + descentPixels
    guard height > 0 else { return ascent }
    // Compose takes the ceiling of a line height in pixels that is a whole number but for the
    // rounding of sp × density: do not let that rounding add a pixel.
    let line = (lineHeight * scale - 1e-6).rounded(.up)
    let below = ((line - height) * descentPixels / height).rounded(.up)
    return (line - descentPixels - below) / scale
  }
}

/// One glyph of a shaped paragraph.
public struct ShapedGlyph: Hashable, Sendable {
  /// The glyph index in its font.
  public var glyph: UInt32
  /// UTF-8 byte offset, in the paragraph, of the first character of the glyph's cluster.
  public var cluster: Int
  /// Where the glyph is drawn: its origin's distance from the left edge of the paragraph's box,
  /// in points (letter spacing included: Pango puts half of it before each glyph but the
  /// first of a line).
  public var x: Double = 0
  /// The pen's advance past the glyph, letter spacing included, in points.
  public var advance: Double = 0
  /// The line the glyph is on, from 0.
  public var line: Int = 0
}

/// One paragraph to lay out: one or more PangoLayouts stacked top to bottom, made one at a time
/// and released as soon as measured or drawn, so that memory stays bounded by one piece.
///
/// Pango handles one layout in time and memory that grow faster than its text: a run with no
/// break opportunity is shaped again for every line it wraps onto, many paragraphs in one layout
/// cost quadratic time, and widths and heights are 32-bit in 1/1024 point, so a label of a few
/// hundred thousand characters overflows and comes out as one empty line. So the text is laid
/// out in bounded pieces whose seams fall where the lines of a single layout would break anyway:
/// - at hard line breaks (`\n`, `\r`, `\r\n`, U+2029: Pango's paragraph separators): whole
///   paragraphs, each with its separator, at most ``Limits/maxParagraphsPerPiece`` and
///   ``Limits/maxPieceBytes`` together, which is what Pango does within one layout;
/// - within a paragraph longer than ``Limits/maxPieceBytes``, a slice of that size is laid out, every
///   line but its last is kept, and the next slice starts where that last line started. Pango
///   breaks lines greedily, so the kept lines are those a single layout would make; only the
///   resolution of neutral bidi characters at the start of a seam's line can differ;
/// - within a run of more than ``Limits/seamCharacters`` characters with no line-break
///   opportunity (one very long word), Pango's items are cut every that many characters at a
///   grapheme boundary (a no-op font attribute), so that wrapping it reshapes at most that many
///   characters per line; kerning or a ligature across such a cut is lost, nothing else changes.
/// Ordinary labels are one piece with no cut: exactly one PangoLayout, as before.
struct TextLayout {
  /// The Pango contexts of a text engine: one per text setting.
  struct Contexts {
    /// Fractional positions, sizes in points (the iOS setting).
    let fractional: OpaquePointer
    /// Metrics hinted and glyph positions rounded, sizes in device pixels (Android's setting).
    let pixels: OpaquePointer
  }

  /// A slice of the paragraph laid out by Pango; the layout lives while the piece is visited.
  struct Piece {
    let handle: OpaquePointer
    /// Byte offset of the slice in the paragraph's UTF-8 text.
    let offset: Int
    /// How many of the layout's lines belong to the paragraph (the others are laid out again by
    /// the next piece); equal to `lineCount` when all of them do.
    let keptLines: Int
    let lineCount: Int
    /// Top of the piece below the paragraph's top, and height of its kept lines, in Pango units.
    let top: Int
    let height: Int
    /// Where the next piece starts, in bytes from `offset`: the start of the first line not kept.
    let nextStart: Int
    /// Whether drawing the whole layout draws exactly the kept lines: true when all are kept, or
    /// when the one dropped is the empty line after a paragraph separator.
    let drawsWhole: Bool
    /// For an unwrapped paragraph laid out in slices: how far right of the line's start this
    /// slice begins, in Pango units, and whether its first line continues the previous slice's.
    var x = 0
    var continuesLine = false
  }

  /// The sizes of the pieces.
  struct Limits {
    /// Longest slice of a paragraph given to one PangoLayout, in UTF-8 bytes.
    var maxPieceBytes: Int
    /// Most paragraphs in one PangoLayout (Pango's cost grows faster than their number).
    var maxParagraphsPerPiece: Int
    /// Longest run of characters without a break opportunity that Pango shapes as one item.
    var seamCharacters: Int

    /// 4096 bytes (short enough that a slice's width cannot overflow Pango's 32-bit units at
    /// the largest font size the themes allow, 200 px with letter spacing ±100 px), 64
    /// paragraphs, 256 characters.
    static let standard = Limits(
      maxPieceBytes: 4096, maxParagraphsPerPiece: 64, seamCharacters: 256)
    /// One PangoLayout whatever the text, as Pango alone would do (tests compare with it).
    static let unbounded = Limits(
      maxPieceBytes: Int.max / 2, maxParagraphsPerPiece: Int.max, seamCharacters: Int.max / 2)
  }

  private let bytes: [UInt8]
  private let builder: PieceBuilder
  private let limits: Limits
  /// Where a paragraph laid out in one piece is kept between uses, and its key there.
  private let memo: PieceMemo?
  private let memoKey: PieceMemo.Key
  /// How far every line is moved down from where Pango puts it, in points: 0 for the even
  /// leading Pango applies itself, the difference to the proportional baseline otherwise.
  private let baselineShift: Double

  /// The underlined byte ranges, in order and disjoint, and the colour of each underline.
  private let underlines: [(range: Range<Int>, color: RGBAColor)]
  /// The size of the paragraph's font, in Pango units of the layout.
  private let fontSize: Int32
  /// The layout's units per point: 1 (points) in the iOS setting, the device pixels per point
  /// in Android's, where sizes go to Pango multiplied and every figure comes back divided.
  private let unit: Double

  /// A glyph whose ink reaches deeper than this share of the font size below the baseline has a
  /// descender; the underline may cross descenders (as on Android), never the other glyphs.
  static let descenderDepth = 0.1

  /// The metrics of the paragraph's first font (see ``TextEngine/fontMetrics(_:)``).
  static func baseFontMetrics(
    context: OpaquePointer, appearance: TextAppearance, language: OpaquePointer?
  ) -> FontMetrics {
    guard let description = fontDescription(appearance) else {
      return FontMetrics(ascent: 0, descent: 0, underlinePosition: 0, underlineThickness: 0)
    }
    defer { ouds_pango_font_description_free(description) }
    guard let metrics = ouds_pango_context_get_metrics(context, description, language) else {
      return FontMetrics(ascent: 0, descent: 0, underlinePosition: 0, underlineThickness: 0)
    }
    defer { ouds_pango_font_metrics_unref(metrics) }
    return FontMetrics(
      ascent: points(ouds_pango_font_metrics_get_ascent(metrics)),
      descent: points(ouds_pango_font_metrics_get_descent(metrics)),
      underlinePosition: points(ouds_pango_font_metrics_get_underline_position(metrics)),
      underlineThickness: points(ouds_pango_font_metrics_get_underline_thickness(metrics)))
  }

  /// A new font description for `appearance`, freed by the caller.
  static func fontDescription(_ appearance: TextAppearance) -> OpaquePointer? {
    guard let description = ouds_pango_font_description_new() else { return nil }
    ouds_pango_font_description_set_family(
      description, appearance.fontFamilies.joined(separator: ","))
    ouds_pango_font_description_set_absolute_size(
      description, appearance.fontSize * Double(PANGO_SCALE))
    ouds_pango_font_description_set_weight(
      description, PangoWeight(UInt32(clamping: appearance.weight)))
    return description
  }

  /// Android's line growth under a fallback font (SPEC §6b, "Fallback fonts and line growth"):
  /// a line holding a glyph of a fallback font takes the larger of its own and the fallback's
  /// integer font metrics (`useLineSpacingFromFallbacks`; the font's hhea or typo ascent and
  /// descent at the pixel size, rounded half up as Skia's `FontMetricsInt`), and Compose's
  /// proportional line height only adds leading to it. Compose's `LineHeightStyleSpan` computes
  /// the metrics once, from the paragraph's first line, and gives them to every line.
  ///
  /// Returns, for a first line holding a font whose ascent or descent exceeds the primary
  /// font's: the line height (grown, or the text style's when the larger metrics still fit) and
  /// the first baseline below the line's top, in pixels (`ceil(diff × descent / height)` pixels
  /// below the baseline, as in ``FontMetrics/androidFirstBaseline(lineHeight:pixelScale:)``,
  /// with the larger metrics), and the centre of the tallest font's line box relative to its
  /// baseline, in Pango units of the layout in pixels; nil when the primary font's metrics hold
  /// (the paragraph is set as before). Only text outside ASCII is looked at: every primary font
  /// of the themes covers ASCII.
  ///
  /// Noto Naskh Arabic (1069 / −634 per 1000) in Body Large at 3×, a 48 px font on a 72 px
  /// line: 51 + 30 = 81 px, the line grows by 9 px.
  static func fallbackGrowth(
    builder: PieceBuilder, bytes: [UInt8], limits: Limits, primary: FontMetrics, pixelScale: Int,
    fractional: OpaquePointer, appearance: TextAppearance, language: OpaquePointer?,
    cache: FontMetricsCache, memo: PieceMemo?, memoKey: PieceMemo.Key
  ) -> FontMetricsCache.Growth? {
    guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
    let scale = Double(pixelScale)
    func integer(_ metrics: FontMetrics, scale: Double) -> (ascent: Double, descent: Double) {
      (
        -((-metrics.ascent * scale) + 0.5).rounded(.down),
        (metrics.descent * scale + 0.5).rounded(.down)
      )
    }
    let own = integer(primary, scale: scale)
    // The first line of the paragraph, laid out with the line height of the text style.
    var end = paragraphEnd(in: bytes, from: 0).end
    if end > limits.maxPieceBytes {
      end = characterBoundary(in: bytes, atOrBefore: limits.maxPieceBytes, after: 0)
    }
    ouds_pango_context_set_base_dir(
      builder.context, builder.text.direction == .rtl ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR)
    ouds_pango_context_set_language(builder.context, builder.language)
    let handle = builder.layout(0..<end)
    var keepsProbe = false
    defer { if !keepsProbe { ouds_g_object_unref(UnsafeMutableRawPointer(handle)) } }
    guard let iterator = ouds_pango_layout_get_iter(handle) else { return nil }
    defer { ouds_pango_layout_iter_free(iterator) }
    var (ascent, descent) = own
    var tallest: (height: Double, centre: Int32)?
    var families: [String: (ascent: Double, descent: Double)] = [:]
    while let run = ouds_pango_layout_iter_get_run_readonly(iterator) {
      defer { _ = ouds_pango_layout_iter_next_run(iterator) }
      guard let font = run.pointee.item?.pointee.analysis.font,
        let pattern = ouds_pango_fc_font_get_pattern(
          UnsafeMutableRawPointer(font).assumingMemoryBound(to: PangoFcFont.self))
      else { continue }
      var name: UnsafeMutablePointer<FcChar8>?
      guard ouds_FcPatternGetString(pattern, FC_FAMILY, 0, &name) == FcResultMatch, let name
      else { continue }
      let family = String(cString: name)
      let key = FontMetricsCache.Key(
        family: family, size: appearance.fontSize, weight: appearance.weight)
      let metrics =
        families[family] ?? cache.entries[key]
        ?? {
          var single = appearance
          single.fontFamilies = [family]
          // The font's own (unhinted) metrics at the pixel size: the layout's sizes are pixels.
          return integer(
            baseFontMetrics(context: fractional, appearance: single, language: language),
            scale: 1)
        }()
      families[family] = metrics
      cache.entries[key] = metrics
      var logical = PangoRectangle()
      ouds_pango_layout_iter_get_run_extents(iterator, nil, &logical)
      let baseline = ouds_pango_layout_iter_get_baseline(iterator)
      let centre = logical.y + logical.height / 2 - baseline
      ascent = max(ascent, metrics.ascent)
      descent = max(descent, metrics.descent)
      if metrics.ascent + metrics.descent > tallest?.height ?? -1 {
        tallest = (metrics.ascent + metrics.descent, centre)
      }
    }
    // Compose takes the ceiling of a line height in pixels that is a whole number but for the
    // rounding of sp × density (as in `androidFirstBaseline`).
    let lineHeight = (appearance.lineHeight - 1e-6).rounded(.up)
    let height = ascent + descent
    guard let tallest, height > 0, ascent > own.ascent || descent > own.descent else {
      // The paragraph is set as before: a probe of the whole paragraph is its piece.
      if end == bytes.count, let memo {
        keepsProbe = true
        memo.keep(
          builder.piece(0..<end, top: 0, droppingLast: false, laidOut: handle), for: memoKey,
          droppingLast: false)
      }
      return nil
    }
    // The line's metrics are the larger ones; the leading left, if any, is shared out as in
    // `androidFirstBaseline`: `ceil(diff × descent / height)` pixels below the baseline.
    let line = max(lineHeight, height)
    let below = ((line - height) * descent / height).rounded(.up)
    // The runs of the probe that need a line height of their own: the piece of the same range
    // is laid out once, with them.
    let overrides = builder.runLineHeights(handle, growth: (pangoUnits(line), tallest.centre))
    return FontMetricsCache.Growth(
      line: line, baseline: line - descent - below, centre: tallest.centre, probed: 0..<end,
      overrides: overrides)
  }

  init(
    contexts: Contexts, text: StyledText, language: OpaquePointer?, wrapWidth: Double?,
    alignment: TextAlignment, limits: Limits, memo: PieceMemo? = nil,
    fontMetricsCache: FontMetricsCache = FontMetricsCache()
  ) {
    bytes = Array(text.plainText.utf8)
    self.memo = memo
    memoKey = PieceMemo.Key(text, wrapWidth: wrapWidth, alignment: alignment)
    let appearance = text.appearance
    // Android's setting: the paragraph in device pixels (a scale outside 1…3, from a scene
    // built in code, is brought within it).
    let pixelScale = appearance.androidPixelScale.map {
      min(max($0, PixelScale.supported.lowerBound), PixelScale.supported.upperBound)
    }
    let unit = Double(pixelScale ?? 1)
    self.unit = unit
    var limits = limits
    // A slice of the paragraph, in pixels, must not overflow Pango's 32-bit units either.
    limits.maxPieceBytes = max(1, limits.maxPieceBytes / Int(unit))
    self.limits = limits
    var laidOut = text
    if pixelScale != nil {
      laidOut.appearance.fontSize *= unit
      laidOut.appearance.lineHeight *= unit
      laidOut.appearance.letterSpacing *= unit
    }
    let context = pixelScale == nil ? contexts.fractional : contexts.pixels
    var builder = PieceBuilder(
      context: context, text: laidOut, bytes: bytes, language: language,
      wrapWidth: wrapWidth.map { $0 * unit }, alignment: alignment,
      seamCharacters: limits.seamCharacters, wordByWord: pixelScale != nil)
    fontSize = pangoUnits(laidOut.appearance.fontSize)
    switch (appearance.leading, pixelScale) {
    case (.even, _):
      baselineShift = 0
    case (.proportional, nil):
      let font = Self.baseFontMetrics(context: context, appearance: appearance, language: language)
      baselineShift =
        font.firstBaseline(lineHeight: appearance.lineHeight, leading: .proportional)
        - font.firstBaseline(lineHeight: appearance.lineHeight, leading: .even)
    case (.proportional, let pixelScale?):
      // Android's baseline comes from the font's own metrics; Pango centres the line on the
      // metrics of the hinted context, in pixels.
      let font = Self.baseFontMetrics(
        context: contexts.fractional, appearance: appearance, language: language)
      // A paragraph is laid out for its measure, then again to be drawn: the growth is looked
      // up once.
      let growth: FontMetricsCache.Growth?
      if let known = fontMetricsCache.growths[memoKey] {
        growth = known
      } else {
        growth = Self.fallbackGrowth(
          builder: builder, bytes: bytes, limits: limits, primary: font, pixelScale: pixelScale,
          fractional: contexts.fractional, appearance: laidOut.appearance, language: language,
          cache: fontMetricsCache, memo: memo, memoKey: memoKey)
        fontMetricsCache.keep(growth, for: memoKey)
      }
      if let growth {
        // The first line holds a fallback font of larger metrics: every line takes them, and
        // grows when they exceed the line height.
        builder.growth = (pangoUnits(growth.line), growth.centre)
        builder.probed = (growth.probed, growth.overrides)
        baselineShift =
          (growth.baseline - (growth.line / 2 - Double(growth.centre) / Double(PANGO_SCALE)))
          / unit
      } else {
        let hinted = Self.baseFontMetrics(
          context: context, appearance: laidOut.appearance, language: language)
        baselineShift =
          font.androidFirstBaseline(lineHeight: appearance.lineHeight, pixelScale: pixelScale)
          - hinted.firstBaseline(lineHeight: laidOut.appearance.lineHeight, leading: .even) / unit
      }
    }
    self.builder = builder
    var underlines: [(range: Range<Int>, color: RGBAColor)] = []
    var offset = 0
    for span in text.spans {
      let end = offset + span.text.utf8.count
      if span.underline, end > offset {
        underlines.append((offset..<end, span.color ?? appearance.color))
      }
      offset = end
    }
    self.underlines = underlines
  }

  /// Converts Pango units of the layout to points.
  private func inPoints(_ units: Int32) -> Double {
    Double(units) / (Double(PANGO_SCALE) * unit)
  }

  /// Converts Pango units of the layout to points.
  private func inPoints(_ units: Int) -> Double {
    Double(units) / (Double(PANGO_SCALE) * unit)
  }

  /// Lays out the pieces in order, calling `body` with each; a piece's layout is released when
  /// `body` returns.
  private func forEachPiece(_ body: (Piece) -> Void) {
    // The context is shared by every paragraph of the engine: set its direction and language.
    ouds_pango_context_set_base_dir(
      builder.context, builder.text.direction == .rtl ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR)
    ouds_pango_context_set_language(builder.context, builder.language)
    var top = 0
    func visit(_ piece: Piece) {
      body(piece)
      top += piece.height
      ouds_g_object_unref(UnsafeMutableRawPointer(piece.handle))
    }
    var start = 0
    while true {
      // Whole paragraphs, each with its separator (as inside one layout: the separator changes
      // how the end of a paragraph breaks), as many as fit in one slice; Pango starts an empty
      // line after a final separator, which is dropped.
      var end = start
      var paragraphs = 0
      var endsWithSeparator = false
      var isLast = false
      repeat {
        let next = Self.paragraphEnd(in: bytes, from: end).next
        let candidate = next ?? bytes.count
        if paragraphs > 0, candidate - start > limits.maxPieceBytes { break }
        end = candidate
        paragraphs += 1
        endsWithSeparator = next != nil
        isLast = next == nil
      } while !isLast && paragraphs < limits.maxParagraphsPerPiece
      if end - start > limits.maxPieceBytes, builder.wrapWidth == nil {
        // An unwrapped paragraph longer than a slice (a group of one paragraph): slices side by
        // side on one line.
        var x = 0
        var lineHeight = 0
        var first = true
        while start < end {
          var sliceEnd = end
          if end - start > limits.maxPieceBytes {
            sliceEnd = Self.characterBoundary(
              in: bytes, atOrBefore: start + limits.maxPieceBytes, after: start)
          }
          var piece = builder.piece(
            start..<sliceEnd, top: top, droppingLast: sliceEnd == end && endsWithSeparator)
          piece.x = x
          piece.continuesLine = !first
          first = false
          var widest = PangoRectangle()
          if let line = ouds_pango_layout_get_line_readonly(piece.handle, 0) {
            ouds_pango_layout_line_get_extents(line, nil, &widest)
          }
          x += Int(widest.width)
          lineHeight = max(lineHeight, piece.height)
          start = sliceEnd
          body(piece)
          ouds_g_object_unref(UnsafeMutableRawPointer(piece.handle))
        }
        top += lineHeight
      } else {
        // A paragraph longer than a slice: slices of it, each but its last line kept.
        while end - start > limits.maxPieceBytes {
          let sliceEnd = Self.characterBoundary(
            in: bytes, atOrBefore: start + limits.maxPieceBytes, after: start)
          let piece = builder.piece(start..<sliceEnd, top: top, droppingLast: true)
          start = piece.offset + piece.nextStart
          visit(piece)
        }
        if start == 0, end == bytes.count, let memo {
          // the whole paragraph in one piece: laid out once for all its uses
          let piece =
            memo.take(memoKey, droppingLast: endsWithSeparator)
            ?? builder.piece(start..<end, top: top, droppingLast: endsWithSeparator)
          body(piece)
          memo.keep(piece, for: memoKey, droppingLast: endsWithSeparator)
        } else {
          visit(builder.piece(start..<end, top: top, droppingLast: endsWithSeparator))
        }
      }
      if isLast { break }
      start = end
    }
  }

  /// The end of the paragraph that starts at `start` (its separator excluded) and the start of
  /// the next one, nil for the last paragraph.
  static func paragraphEnd(in bytes: [UInt8], from start: Int) -> (end: Int, next: Int?) {
    var index = start
    while index < bytes.count {
      switch bytes[index] {
      case 0x0A: return (index, index + 1)
      case 0x0D:
        let next = index + 1 < bytes.count && bytes[index + 1] == 0x0A ? index + 2 : index + 1
        return (index, next)
      case 0xE2
      where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xA9:
        return (index, index + 3)
      default: index += 1
      }
    }
    return (bytes.count, nil)
  }

  /// The last UTF-8 character boundary at or before `limit`, and after `start`.
  static func characterBoundary(in bytes: [UInt8], atOrBefore limit: Int, after start: Int) -> Int {
    var index = min(limit, bytes.count)
    while index > start + 1, index < bytes.count, bytes[index] & 0xC0 == 0x80 { index -= 1 }
    return index
  }

  /// Widest logical line, total height, line count and first baseline, in points.
  var metrics: TextMetrics {
    var widest = 0
    var lineCount = 0
    var height = 0
    var baseline: Int32?
    var unknown = Set<Int>()
    forEachPiece { piece in
      forEachKeptLine(of: piece) { line, _ in
        var lineRect = PangoRectangle()
        ouds_pango_layout_line_get_extents(line, nil, &lineRect)
        widest = max(widest, piece.x + Int(lineRect.width))
      }
      lineCount += piece.keptLines - (piece.continuesLine ? 1 : 0)
      height = piece.top + piece.height
      if baseline == nil { baseline = ouds_pango_layout_get_baseline(piece.handle) }
      if ouds_pango_layout_get_unknown_glyphs_count(piece.handle) > 0 {
        for glyph in glyphs(of: piece) where glyph.glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 {
          unknown.insert(glyph.cluster)
        }
      }
    }
    return TextMetrics(
      width: inPoints(widest), height: inPoints(height),
      lineCount: lineCount,
      firstBaseline: inPoints(baseline ?? 0) + baselineShift,
      missingCharacters: characters(at: unknown))
  }

  /// Calls `body` with every run (glyph item) of every kept line of `piece`, in visual order.
  private func forEachKeptRun(
    of piece: Piece, _ body: (UnsafeMutablePointer<PangoGlyphItem>) -> Void
  ) {
    forEachKeptLine(of: piece) { line, _ in
      var node = line.pointee.runs
      while let current = node {
        node = current.pointee.next
        guard let data = current.pointee.data else { continue }
        body(data.assumingMemoryBound(to: PangoGlyphItem.self))
      }
    }
  }

  /// Calls `body` with each kept line of `piece` and its iterator, in order.
  private func forEachKeptLine(
    of piece: Piece, _ body: (UnsafeMutablePointer<PangoLayoutLine>, OpaquePointer) -> Void
  ) {
    guard piece.keptLines > 0, let iterator = ouds_pango_layout_get_iter(piece.handle) else {
      return
    }
    defer { ouds_pango_layout_iter_free(iterator) }
    var index = 0
    repeat {
      guard let line = ouds_pango_layout_iter_get_line_readonly(iterator) else { continue }
      body(line, iterator)
      index += 1
    } while index < piece.keptLines && ouds_pango_layout_iter_next_line(iterator) != 0
  }

  /// The characters that start at the byte offsets `offsets`, in logical order, without repeats.
  private func characters(at offsets: Set<Int>) -> [Character] {
    var found: [Character] = []
    for offset in offsets.sorted() where offset < bytes.count {
      var end = offset + 1
      while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
      if let character = String(decoding: bytes[offset..<end], as: UTF8.self).first,
        !found.contains(character)
      {
        found.append(character)
      }
    }
    return found
  }

  /// The files of the fonts of every run of every kept line, in visual order, each once.
  var fontFiles: [URL] {
    var files: [URL] = []
    forEachPiece { piece in
      forEachKeptRun(of: piece) { run in
        guard let font = run.pointee.item?.pointee.analysis.font else { return }
        // The private font map is a PangoCairoFcFontMap: its fonts are PangoFcFonts.
        guard
          let pattern = ouds_pango_fc_font_get_pattern(
            UnsafeMutableRawPointer(font).assumingMemoryBound(to: PangoFcFont.self))
        else { return }
        var file: UnsafeMutablePointer<FcChar8>?
        guard ouds_FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else {
          return
        }
        let url = URL(fileURLWithPath: String(cString: file))
        if !files.contains(url) { files.append(url) }
      }
    }
    return files
  }

  /// How far below the top of the paragraph's box its drawing can reach, in points: `inkTop`,
  /// the top of its glyphs' ink; `top` and `bottom`, the ink and the line boxes together (a
  /// margin for what a rasterizer adds to the measured ink), and when a span is underlined, half
  /// the font size below the bottom of the line boxes (``draw(on:x:y:color:underlineLimit:)``
  /// tells when an underline goes lower); nil for a paragraph laid out in several pieces, which
  /// is not laid out here to be measured.
  var paintedExtent: (inkTop: Double, top: Double, bottom: Double)? {
    var paragraphs = 0
    var start = 0
    while true {
      paragraphs += 1
      guard let next = Self.paragraphEnd(in: bytes, from: start).next else { break }
      start = next
    }
    guard bytes.count <= limits.maxPieceBytes, paragraphs <= limits.maxParagraphsPerPiece else {
      return nil
    }
    var extent: (inkTop: Double, top: Double, bottom: Double)?
    forEachPiece { piece in
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      ouds_pango_layout_get_extents(piece.handle, &ink, &logical)
      let shift = baselineShift + inPoints(piece.top)
      let inkTop = shift + inPoints(ink.y)
      let top = min(inkTop, shift + inPoints(logical.y))
      var bottom = shift + inPoints(max(ink.y + ink.height, logical.y + logical.height))
      if !underlines.isEmpty {
        bottom = max(bottom, shift + inPoints(logical.y + logical.height) + inPoints(fontSize) / 2)
      }
      extent = (
        min(extent?.inkTop ?? inkTop, inkTop), min(extent?.top ?? top, top),
        max(extent?.bottom ?? bottom, bottom)
      )
    }
    return extent
  }

  /// The shaped glyphs of every run of every line, in visual order within a line; clusters are
  /// byte offsets in the whole paragraph.
  var glyphs: [ShapedGlyph] {
    var result: [ShapedGlyph] = []
    var line = 0
    forEachPiece { piece in
      if piece.continuesLine { line -= 1 }
      result += glyphs(of: piece, firstLine: line)
      line += piece.keptLines
    }
    return result
  }

  /// The shaped glyphs of the kept lines of `piece`.
  private func glyphs(of piece: Piece, firstLine: Int = 0) -> [ShapedGlyph] {
    var result: [ShapedGlyph] = []
    var lineIndex = firstLine
    forEachKeptLine(of: piece) { line, iterator in
      defer { lineIndex += 1 }
      var logical = PangoRectangle()
      ouds_pango_layout_iter_get_line_extents(iterator, nil, &logical)
      var pen = piece.x + Int(logical.x)
      var node = line.pointee.runs
      while let current = node {
        node = current.pointee.next
        guard let data = current.pointee.data else { continue }
        let run = data.assumingMemoryBound(to: PangoGlyphItem.self)
        guard let glyphs = run.pointee.glyphs, let item = run.pointee.item else { continue }
        let offset = piece.offset + Int(item.pointee.offset)
        for index in 0..<Int(glyphs.pointee.num_glyphs) {
          let info = glyphs.pointee.glyphs[index]
          result.append(
            ShapedGlyph(
              glyph: info.glyph, cluster: offset + Int(glyphs.pointee.log_clusters[index]),
              x: inPoints(pen + Int(info.geometry.x_offset)),
              advance: inPoints(info.geometry.width), line: lineIndex))
          pen += Int(info.geometry.width)
        }
      }
    }
    return result
  }

  /// Draws the paragraph with the top-left corner of its wrap box at (`x`, `y`) in user space.
  ///
  /// Spans without their own colour take `color`. Returns whether every underline ended above
  /// `underlineLimit` (user space, in points): a caller that draws only where it expects the
  /// paragraph to reach (``paintedExtent``) learns that it reached further.
  @discardableResult
  func draw(
    on canvas: OpaquePointer, x: Double, y: Double, color: RGBAColor,
    underlineLimit: Double = .infinity
  ) -> Bool {
    var underlinesFit = true
    forEachPiece { piece in
      let top = y + baselineShift + inPoints(piece.top)
      ouds_cairo_save(canvas)
      setSource(canvas, color)
      // A layout in pixels is drawn in a space of pixels with its origin at the piece's, where
      // Pango units convert as they do to points.
      var (originX, originY) = (x, top)
      if unit != 1 {
        ouds_cairo_translate(canvas, x, top)
        ouds_cairo_scale(canvas, 1 / unit, 1 / unit)
        (originX, originY) = (0, 0)
      }
      if piece.drawsWhole {
        ouds_cairo_move_to(canvas, originX + Double(piece.x) / Double(PANGO_SCALE), originY)
        ouds_pango_cairo_show_layout(canvas, piece.handle)
      } else {
        // What pango_cairo_show_layout does, for the kept lines only.
        forEachKeptLine(of: piece) { line, iterator in
          var logical = PangoRectangle()
          ouds_pango_layout_iter_get_line_extents(iterator, nil, &logical)
          let baseline = ouds_pango_layout_iter_get_baseline(iterator)
          ouds_cairo_move_to(canvas, originX + points(logical.x), originY + points(baseline))
          ouds_pango_cairo_show_layout_line(canvas, line)
        }
      }
      ouds_cairo_restore(canvas)
      if !drawUnderlines(of: piece, on: canvas, x: x, y: top, limit: underlineLimit) {
        underlinesFit = false
      }
    }
    return underlinesFit
  }

  /// The underlined span that holds the byte at `offset`, found by bisection (a label may hold
  /// thousands of links).
  private func underline(at offset: Int) -> (range: Range<Int>, color: RGBAColor)? {
    var low = 0
    var high = underlines.count
    while low < high {
      let middle = (low + high) / 2
      if underlines[middle].range.upperBound <= offset {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low < underlines.count, underlines[low].range.contains(offset) else { return nil }
    return underlines[low]
  }

  /// One stretch of underline on a line, in Pango units of the layout.
  private struct UnderlineSegment {
    var start: Int32
    var end: Int32
    var color: RGBAColor
  }

  /// Draws the underline of every underlined span of the kept lines of `piece`, line by line.
  ///
  /// Position and thickness come from the fonts of the underlined runs (Pango's reading of the
  /// post table), one per line: the lowest position and the thickest line of its runs, so a link
  /// that changes font keeps one straight underline. The underline never touches the glyphs that
  /// sit on the baseline (a round letter's overshoot included): see ``UnderlinePlacement``.
  /// Returns whether every underline ends above `limit` (user space, in points).
  private func drawUnderlines(
    of piece: Piece, on canvas: OpaquePointer, x: Double, y: Double, limit: Double
  ) -> Bool {
    guard !underlines.isEmpty, piece.keptLines > 0,
      let iterator = ouds_pango_layout_get_iter(piece.handle)
    else { return true }
    defer { ouds_pango_layout_iter_free(iterator) }
    let bitmap =
      ouds_cairo_surface_get_type(ouds_cairo_get_target(canvas)) == CAIRO_SURFACE_TYPE_IMAGE
    var line: UnsafeMutablePointer<PangoLayoutLine>?
    var baseline: Int32 = 0
    var segments: [UnderlineSegment] = []
    var placement = UnderlinePlacement()
    var lineIndex = -1
    var fits = true

    func flush() {
      if !segments.isEmpty {
        let (top, bottom) = placement.edges(
          baseline: y + inPoints(baseline), on: canvas, snapToPixels: bitmap)
        if bottom > limit { fits = false }
        for segment in segments {
          ouds_cairo_save(canvas)
          ouds_cairo_rectangle(
            canvas, x + inPoints(segment.start), top, inPoints(segment.end - segment.start),
            bottom - top)
          setSource(canvas, segment.color)
          ouds_cairo_fill(canvas)
          ouds_cairo_restore(canvas)
        }
      }
      segments = []
      placement = UnderlinePlacement()
    }

    repeat {
      let current = ouds_pango_layout_iter_get_line_readonly(iterator)
      if current != line {
        flush()
        line = current
        lineIndex += 1
        if lineIndex >= piece.keptLines { break }
        baseline = ouds_pango_layout_iter_get_baseline(iterator)
      }
      guard let run = ouds_pango_layout_iter_get_run_readonly(iterator),
        let glyphs = run.pointee.glyphs,
        let item = run.pointee.item
      else { continue }
      var runRect = PangoRectangle()
      ouds_pango_layout_iter_get_run_extents(iterator, nil, &runRect)
      let font = item.pointee.analysis.font
      let itemOffset = piece.offset + Int(item.pointee.offset)
      var glyphX = runRect.x
      var underlined = false
      for index in 0..<Int(glyphs.pointee.num_glyphs) {
        let info = glyphs.pointee.glyphs[index]
        let width = info.geometry.width
        defer { glyphX += width }
        let cluster = itemOffset + Int(glyphs.pointee.log_clusters[index])
        guard let underline = underline(at: cluster) else { continue }
        underlined = true
        if let last = segments.last, last.end == glyphX, last.color == underline.color {
          segments[segments.count - 1].end = glyphX + width
        } else {
          segments.append(
            UnderlineSegment(start: glyphX, end: glyphX + width, color: underline.color))
        }
        guard let font, info.glyph != PANGO_GLYPH_EMPTY else { continue }
        var ink = PangoRectangle()
        ouds_pango_font_get_glyph_extents(font, info.glyph, &ink, nil)
        let bottom = ink.y + ink.height  // below the baseline when positive
        if Double(bottom) <= Self.descenderDepth * Double(fontSize) {
          placement.overshoot = max(placement.overshoot, inPoints(bottom))
        }
      }
      guard underlined else { continue }
      if let font, let metrics = ouds_pango_font_get_metrics(font, item.pointee.analysis.language) {
        placement.fontDepth = max(
          placement.fontDepth, -inPoints(ouds_pango_font_metrics_get_underline_position(metrics)))
        placement.thickness = max(
          placement.thickness, inPoints(ouds_pango_font_metrics_get_underline_thickness(metrics)))
        ouds_pango_font_metrics_unref(metrics)
      }
      if placement.thickness <= 0 { placement.thickness = inPoints(fontSize) / 16 }
    } while ouds_pango_layout_iter_next_run(iterator) != 0
    flush()
    return fits
  }

  /// Makes the PangoLayout of one slice of a paragraph.
  struct PieceBuilder {
    let context: OpaquePointer
    let text: StyledText
    let bytes: [UInt8]
    let language: OpaquePointer?
    let wrapWidth: Double?
    let alignment: TextAlignment
    /// Byte range of every span with inline styling.
    let styled: [(range: Range<Int>, span: TextSpan)]
    let seamCharacters: Int
    /// Android's setting: each word its own item, and no line break after a hyphen.
    let wordByWord: Bool
    /// Android's line growth under a fallback font (``TextLayout/fallbackGrowth``): the height of
    /// every line and the centre of the tallest font's line box relative to the baseline, in
    /// Pango units; nil when the paragraph keeps its text style's line height.
    var growth: (lineHeight: Int32, centre: Int32)?
    /// The range the growth was looked up on and the line heights its runs need: a piece of
    /// that range is laid out once, with them.
    var probed: (range: Range<Int>, overrides: [(range: Range<Int>, lineHeight: Int32)])?

    init(
      context: OpaquePointer, text: StyledText, bytes: [UInt8], language: OpaquePointer?,
      wrapWidth: Double?, alignment: TextAlignment, seamCharacters: Int, wordByWord: Bool
    ) {
      self.seamCharacters = seamCharacters
      self.wordByWord = wordByWord
      self.context = context
      self.text = text
      self.bytes = bytes
      self.language = language
      self.wrapWidth = wrapWidth
      self.alignment = alignment
      var styled: [(range: Range<Int>, span: TextSpan)] = []
      var start = 0
      for span in text.spans {
        let end = start + span.text.utf8.count
        if end > start, span.weight != nil || span.italic || span.color != nil {
          styled.append((start..<end, span))
        }
        start = end
      }
      self.styled = styled
    }

    /// Lays out `range`; keeps every line, or with `droppingLast` every line but the last (when
    /// there are two or more).
    func piece(
      _ range: Range<Int>, top: Int, droppingLast: Bool, laidOut: OpaquePointer? = nil
    ) -> Piece {
      var handle: OpaquePointer
      if let laidOut {
        handle = laidOut
      } else if growth != nil, let probed, probed.range == range {
        handle = layout(range, runLineHeights: probed.overrides)
      } else {
        handle = layout(range)
      }
      if let growth, probed?.range != range {
        let overrides = runLineHeights(handle, growth: growth)
        if !overrides.isEmpty {
          ouds_g_object_unref(UnsafeMutableRawPointer(handle))
          handle = layout(range, runLineHeights: overrides)
        }
      }
      let lineCount = Int(ouds_pango_layout_get_line_count(handle))
      var logical = PangoRectangle()
      ouds_pango_layout_get_extents(handle, nil, &logical)
      guard droppingLast, lineCount > 1, let iterator = ouds_pango_layout_get_iter(handle) else {
        // All lines: the whole slice (a single line longer than a slice is cut at the slice's end).
        return Piece(
          handle: handle, offset: range.lowerBound, keptLines: lineCount, lineCount: lineCount,
          top: top, height: Int(logical.height), nextStart: range.count, drawsWhole: true)
      }
      defer { ouds_pango_layout_iter_free(iterator) }
      var bottom: Int32 = 0
      for _ in 0..<(lineCount - 1) {
        var y0: Int32 = 0
        ouds_pango_layout_iter_get_line_yrange(iterator, &y0, &bottom)
        _ = ouds_pango_layout_iter_next_line(iterator)
      }
      let last = ouds_pango_layout_iter_get_line_readonly(iterator)
      let lastStart = last.map { Int($0.pointee.start_index) } ?? range.count
      return Piece(
        handle: handle, offset: range.lowerBound, keptLines: lineCount - 1, lineCount: lineCount,
        top: top, height: Int(bottom), nextStart: lastStart, drawsWhole: lastStart == range.count)
    }

    /// Pango gives each run a line box of the absolute line height centred on its own font's
    /// ascent and descent, and a line is the union of its runs' boxes: runs in fonts of another
    /// centre would make a grown line taller than its height. Each such run gets a line height
    /// that keeps its box inside the tallest font's: the byte ranges, relative to the layout's
    /// text, and their line heights in Pango units.
    func runLineHeights(
      _ handle: OpaquePointer, growth: (lineHeight: Int32, centre: Int32)
    ) -> [(range: Range<Int>, lineHeight: Int32)] {
      guard let iterator = ouds_pango_layout_get_iter(handle) else { return [] }
      defer { ouds_pango_layout_iter_free(iterator) }
      var overrides: [(range: Range<Int>, lineHeight: Int32)] = []
      // The runs of the current line: their byte ranges and centres.
      var line: [(range: Range<Int>, centre: Int32)] = []
      func close() {
        // Pango halves the leading in whole units: a unit or two is no other centre. A line
        // without the tallest font keeps its first run's centre (and its full height).
        let reference =
          line.contains { abs($0.centre - growth.centre) <= 2 }
          ? growth.centre : line.first?.centre ?? growth.centre
        for run in line {
          let offset = abs(run.centre - reference)
          guard offset > 2 else { continue }
          overrides.append((run.range, max(1, growth.lineHeight - 2 * offset)))
        }
        line = []
      }
      repeat {
        guard let run = ouds_pango_layout_iter_get_run_readonly(iterator),
          let item = run.pointee.item
        else {
          close()  // the end of a line
          continue
        }
        var logical = PangoRectangle()
        ouds_pango_layout_iter_get_run_extents(iterator, nil, &logical)
        let centre = logical.y + logical.height / 2 - ouds_pango_layout_iter_get_baseline(iterator)
        let start = Int(item.pointee.offset)
        line.append((start..<(start + Int(item.pointee.length)), centre))
      } while ouds_pango_layout_iter_next_run(iterator) != 0
      close()
      return overrides
    }

    /// The PangoLayout of the bytes in `range`, with the paragraph's font, attributes and width;
    /// `runLineHeights` (relative to `range`) replace the line height where they are.
    func layout(
      _ range: Range<Int>, runLineHeights: [(range: Range<Int>, lineHeight: Int32)] = []
    ) -> OpaquePointer {
      // pango_layout_new never returns NULL (GObject allocation aborts on failure).
      let handle: OpaquePointer = ouds_pango_layout_new(context)
      let appearance = text.appearance
      ouds_pango_layout_set_auto_dir(handle, 0)

      // The characters go in as plain UTF-8: never through markup.
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress, !range.isEmpty else {
          ouds_pango_layout_set_text(handle, "", 0)
          return
        }
        UnsafeRawPointer(base + range.lowerBound).withMemoryRebound(
          to: CChar.self, capacity: range.count
        ) {
          ouds_pango_layout_set_text(handle, $0, Int32(range.count))
        }
      }

      if let description = TextLayout.fontDescription(appearance) {
        ouds_pango_layout_set_font_description(handle, description)
        ouds_pango_font_description_free(description)
      }

      if let attributes = ouds_pango_attr_list_new() {
        func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?, from start: Int, to end: Int) {
          guard let attribute else { return }
          attribute.pointee.start_index = guint(start)
          attribute.pointee.end_index = guint(end)
          ouds_pango_attr_list_insert(attributes, attribute)
        }
        let whole = Int(UInt32.max)  // PANGO_ATTR_INDEX_TO_TEXT_END
        add(
          ouds_pango_attr_line_height_new_absolute(
            growth?.lineHeight ?? pangoUnits(appearance.lineHeight)), from: 0,
          to: whole
        )
        for (runRange, lineHeight) in runLineHeights {
          add(
            ouds_pango_attr_line_height_new_absolute(lineHeight), from: runRange.lowerBound,
            to: runRange.upperBound)
        }
        add(
          ouds_pango_attr_letter_spacing_new(pangoUnits(appearance.letterSpacing)), from: 0,
          to: whole)
        if let language { add(ouds_pango_attr_language_new(language), from: 0, to: whole) }
        for (spanRange, span) in styledSpans(overlapping: range) {
          let start = max(spanRange.lowerBound, range.lowerBound) - range.lowerBound
          let end = min(spanRange.upperBound, range.upperBound) - range.lowerBound
          if let weight = span.weight {
            add(
              ouds_pango_attr_weight_new(PangoWeight(UInt32(clamping: weight))), from: start,
              to: end)
          }
          if span.italic {
            add(ouds_pango_attr_style_new(PANGO_STYLE_ITALIC), from: start, to: end)
          }
          // Underlines are drawn by `drawUnderlines`, clear of the glyphs, not by Pango.
          if let color = span.color {
            add(
              ouds_pango_attr_foreground_new(
                guint16(color.red) * 257, guint16(color.green) * 257, guint16(color.blue) * 257),
              from: start, to: end)
            add(
              ouds_pango_attr_foreground_alpha_new(guint16(color.alpha) * 257), from: start, to: end
            )
          }
        }
        // Item cuts in long unbreakable runs: an attribute that changes nothing (font fallback is
        // on by default) on every other stretch between cuts makes each cut an item boundary.
        let cuts = seams(in: range)
        var index = 0
        while index + 1 < cuts.count {
          add(ouds_pango_attr_fallback_new(1), from: cuts[index], to: cuts[index + 1])
          index += 2
        }
        if wordByWord {
          // Android shapes word by word: the same no-op attribute on the spaces makes each word
          // an item of its own, shaped alone (no kerning across a space); the spaces keep their
          // own advance.
          for run in spaceRuns(in: range) {
            add(ouds_pango_attr_fallback_new(1), from: run.lowerBound, to: run.upperBound)
          }
          for kept in hyphenRanges(in: range) {
            add(ouds_pango_attr_allow_breaks_new(0), from: kept.lowerBound, to: kept.upperBound)
          }
        }
        ouds_pango_layout_set_attributes(handle, attributes)
        ouds_pango_attr_list_unref(attributes)
      }

      if let wrapWidth {
        ouds_pango_layout_set_width(handle, pangoUnits(wrapWidth))
        ouds_pango_layout_set_wrap(handle, PANGO_WRAP_WORD_CHAR)
      } else {
        ouds_pango_layout_set_width(handle, -1)
      }
      ouds_pango_layout_set_alignment(
        handle, alignment == .right ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
      return handle
    }

    /// The styled spans that overlap `range` (binary search: spans are in order and disjoint).
    private func styledSpans(overlapping range: Range<Int>) -> ArraySlice<
      (range: Range<Int>, span: TextSpan)
    > {
      var low = 0
      var high = styled.count
      while low < high {
        let middle = (low + high) / 2
        if styled[middle].range.upperBound <= range.lowerBound {
          low = middle + 1
        } else {
          high = middle
        }
      }
      var end = low
      while end < styled.count, styled[end].range.lowerBound < range.upperBound { end += 1 }
      return styled[low..<end]
    }

    /// The length in bytes of the word space (U+0020, U+00A0) at `index`, 0 for another character.
    private func spaceLength(at index: Int, before end: Int) -> Int {
      if bytes[index] == 0x20 { return 1 }
      if bytes[index] == 0xC2, index + 1 < end, bytes[index + 1] == 0xA0 { return 2 }
      return 0
    }

    /// Byte ranges, relative to `range`, of the runs of word spaces (U+0020, U+00A0) in `range`.
    private func spaceRuns(in range: Range<Int>) -> [Range<Int>] {
      var runs: [Range<Int>] = []
      var index = range.lowerBound
      while index < range.upperBound {
        var end = index
        while end < range.upperBound {
          let length = spaceLength(at: end, before: range.upperBound)
          guard length > 0 else { break }
          end += length
        }
        if end > index {
          runs.append((index - range.lowerBound)..<(end - range.lowerBound))
          index = end
        } else {
          index += 1
        }
      }
      return runs
    }

    /// The length in bytes of the hyphen (U+002D, U+2010) at `index`, 0 for another character.
    private func hyphenLength(at index: Int, before end: Int) -> Int {
      if bytes[index] == 0x2D { return 1 }
      if bytes[index] == 0xE2, index + 2 < end, bytes[index + 1] == 0x80, bytes[index + 2] == 0x90 {
        return 3
      }
      return 0
    }

    /// Byte ranges, relative to `range`, where lines must not break, for Android's rule that a
    /// line never breaks after a hyphen (U+002D, U+2010; minikin breaks there only with
    /// hyphenation, which Compose leaves off): each hyphen followed by another character of its
    /// word, with that character. An `allow_breaks` range removes only the opportunities inside
    /// it, so exactly the one after the hyphen; it must start at the hyphen, since Pango keeps
    /// the break after a U+2010 inside a range (not after one that starts it); and it does not cut
    /// Pango's items, so no kerning is lost.
    private func hyphenRanges(in range: Range<Int>) -> [Range<Int>] {
      var ranges: [Range<Int>] = []
      var index = range.lowerBound
      while index < range.upperBound {
        let length = hyphenLength(at: index, before: range.upperBound)
        guard length > 0 else {
          index += 1
          continue
        }
        let next = index + length
        if next < range.upperBound, spaceLength(at: next, before: range.upperBound) == 0,
          hyphenLength(at: next, before: range.upperBound) == 0,
          bytes[next] != 0x0A, bytes[next] != 0x0D
        {
          var end = next + 1
          while end < range.upperBound, bytes[end] & 0xC0 == 0x80 { end += 1 }
          ranges.append((index - range.lowerBound)..<(end - range.lowerBound))
        }
        index = next
      }
      return ranges
    }

    /// Pango's break analysis of the characters of `range`: one entry per character and one for
    /// the end.
    private func logAttributes(in range: Range<Int>) -> [PangoLogAttr] {
      let count = bytes[range].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
      var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: count + 1)
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        UnsafeRawPointer(base + range.lowerBound).withMemoryRebound(
          to: CChar.self, capacity: range.count
        ) {
          ouds_pango_get_log_attrs(
            $0, Int32(range.count), text.direction == .rtl ? 1 : 0, language, &attributes,
            Int32(count + 1))
        }
      }
      return attributes
    }

    /// Byte offsets, relative to `range`, where Pango's items are cut: inside every run of more
    /// than ``TextLayout/seamCharacters`` characters with no line-break opportunity, every
    /// ``TextLayout/seamCharacters`` characters at a grapheme boundary; empty for ordinary text.
    private func seams(in range: Range<Int>) -> [Int] {
      // Cheap test first: a run that long without a space needs the break analysis.
      var run = 0
      var longRun = false
      for index in range {
        let byte = bytes[index]
        run = byte == 0x20 || byte == 0x09 ? 0 : run + 1
        if run > seamCharacters {
          longRun = true
          break
        }
      }
      guard longRun else { return [] }
      let attributes = logAttributes(in: range)
      let count = attributes.count - 1
      var cuts: [Int] = []
      var sinceBreak = 0
      var character = 0
      var offset = 0
      while character < count {
        let attribute = attributes[character]
        if attribute.is_line_break != 0 || attribute.is_mandatory_break != 0 {
          sinceBreak = 0
        } else if sinceBreak >= seamCharacters, attribute.is_cursor_position != 0 {
          cuts.append(offset)
          sinceBreak = 0
        }
        sinceBreak += 1
        character += 1
        offset += 1
        while offset < range.count, bytes[range.lowerBound + offset] & 0xC0 == 0x80 { offset += 1 }
      }
      // Cuts pair up into attribute stretches; an odd last cut runs to the end.
      if cuts.count % 2 == 1 { cuts.append(range.count) }
      return cuts
    }
  }
}
/// Where the underline of one line goes, relative to its baseline.
///
/// The font says where (its underline position) and how thick. The top of the underline is
/// moved down when needed so that it stays clear of the glyphs that sit on the baseline: on a
/// bitmap, at least one whole row of pixels is left between the lowest such glyph (Cairo draws
/// glyphs on whole device pixels vertically) and the underline, whose edges are on whole pixels
/// too, so it is drawn in the solid link colour; in SVG and PDF, at least
/// ``minimumVectorGap`` is left.
struct UnderlinePlacement {
  /// How far below the baseline the fonts put the top of their underline, in points.
  var fontDepth = -Double.infinity
  /// How thick the fonts draw it, in points.
  var thickness = 0.0
  /// How far below the baseline the lowest glyph without a descender reaches, in points.
  var overshoot = 0.0

  /// The gap kept under the glyphs in vector output, in points: one pixel at 3×.
  static let minimumVectorGap = 1.0 / 3

  /// The top and bottom of the underline, in user space, for a line whose baseline is at `baseline`.
  func edges(baseline: Double, on canvas: OpaquePointer, snapToPixels: Bool) -> (Double, Double) {
    let fontDepth = fontDepth.isFinite ? fontDepth : 0
    guard snapToPixels else {
      let top = baseline + max(fontDepth, overshoot + Self.minimumVectorGap)
      return (top, top + thickness)
    }
    // User space → Cairo device space (the CTM) → pixels (the surface's device scale and offset).
    let target = ouds_cairo_get_target(canvas)
    var scaleX = 1.0
    var scaleY = 1.0
    ouds_cairo_surface_get_device_scale(target, &scaleX, &scaleY)
    var offsetX = 0.0
    var offsetY = 0.0
    ouds_cairo_surface_get_device_offset(target, &offsetX, &offsetY)
    var originX = 0.0
    var deviceBaseline = baseline
    ouds_cairo_user_to_device(canvas, &originX, &deviceBaseline)
    var unitX = 0.0
    var unitY = 1.0
    ouds_cairo_user_to_device_distance(canvas, &unitX, &unitY)
    let pixelsPerPoint = max(abs(unitY * scaleY), 1e-6)
    let pixelBaseline = deviceBaseline * scaleY + offsetY
    // Cairo rounds glyph positions to whole pixels vertically: the ink may sit that much lower.
    let glyphBaseline = max(pixelBaseline, (pixelBaseline + 0.5).rounded(.down))
    let clearOfGlyphs = (glyphBaseline + overshoot * pixelsPerPoint).rounded(.up) + 1
    let top = max((pixelBaseline + fontDepth * pixelsPerPoint).rounded(), clearOfGlyphs)
    let bottom = top + max(1, (thickness * pixelsPerPoint).rounded())
    func user(_ pixelY: Double) -> Double {
      var x = originX
      var y = (pixelY - offsetY) / scaleY
      ouds_cairo_device_to_user(canvas, &x, &y)
      return y
    }
    let (topY, bottomY) = (user(top), user(bottom))
    return (topY, bottomY)
  }
}

/// Cairo font options with the pinned settings; owned, released in `deinit`.
private struct FontOptions: ~Copyable {
  let handle: OpaquePointer

  /// Unhinted outlines and grey antialiasing; metrics hinted (rounded to whole device units)
  /// or not.
  init(hintMetrics: Bool) {
    // cairo_font_options_create returns a static "nil" object on allocation failure, never NULL;
    // setters on it are no-ops, which keeps this path total.
    handle = ouds_cairo_font_options_create()
    ouds_cairo_font_options_set_hint_style(handle, CAIRO_HINT_STYLE_NONE)
    ouds_cairo_font_options_set_hint_metrics(
      handle, hintMetrics ? CAIRO_HINT_METRICS_ON : CAIRO_HINT_METRICS_OFF)
    ouds_cairo_font_options_set_antialias(handle, CAIRO_ANTIALIAS_GRAY)
  }

  deinit {
    ouds_cairo_font_options_destroy(handle)
  }
}

/// Converts points to Pango units (1/1024), rounding to the nearest unit and clamping to Int32.
func pangoUnits(_ value: Double) -> Int32 {
  let scaled = (value * Double(PANGO_SCALE)).rounded()
  guard scaled.isFinite else { return scaled > 0 ? Int32.max : 0 }
  return Int32(max(Double(Int32.min), min(Double(Int32.max), scaled)))
}

/// Converts Pango units to points.
func points(_ units: Int32) -> Double {
  Double(units) / Double(PANGO_SCALE)
}

/// Whole-pixel ascent and descent of fonts at a pixel size, by family, size and weight, kept by
/// one ``TextEngine`` for Android's line growth (``TextLayout/fallbackGrowth``).
final class FontMetricsCache {
  /// A font as the growth looks it up.
  struct Key: Hashable {
    var family: String
    var size: Double
    var weight: Int
  }

  /// The metrics looked up so far (a few per theme: its families at its text sizes).
  var entries: [Key: (ascent: Double, descent: Double)] = [:]

  /// What ``TextLayout/fallbackGrowth`` found for a paragraph: the line height and first
  /// baseline in pixels, the centre of the tallest font's box, the range it was looked up on
  /// and the line heights of the runs of other centres there.
  struct Growth {
    var line: Double
    var baseline: Double
    var centre: Int32
    var probed: Range<Int>
    var overrides: [(range: Range<Int>, lineHeight: Int32)]
  }

  /// The growth of the last paragraphs looked up (nil: none), by their layout's key.
  private(set) var growths: [PieceMemo.Key: Growth?] = [:]

  /// The most paragraphs whose growth is kept; all are dropped when full.
  static let capacity = 256

  /// Keeps the growth of the paragraph of `key`.
  func keep(_ growth: Growth?, for key: PieceMemo.Key) {
    if growths.count >= Self.capacity { growths = [:] }
    growths[key] = .some(growth)
  }
}

/// Paragraphs laid out in one piece, kept between their uses by one ``TextEngine`` (measured
/// for the layout, then drawn), so that Pango does not shape them twice; the most recent
/// ``capacity`` only, released when they leave or with the engine. A paragraph is kept with
/// everything its layout depends on (its text and style, wrap width, alignment, whether the
/// empty line after a final separator is dropped); the context's direction and language come
/// from the text, and Pango lays a kept layout out again if the context changed since.
final class PieceMemo {
  /// What a kept layout was made for.
  struct Key: Hashable {
    var text: StyledText
    var wrapWidth: Double?
    var alignment: TextAlignment

    /// The key of `text`'s layout. The paragraph's own colour is not part of it: it is the
    /// source colour when the layout is drawn, not an attribute of the layout (a span's colour
    /// is), so a label keeps its layout from light mode to dark.
    init(_ text: StyledText, wrapWidth: Double?, alignment: TextAlignment) {
      var uncoloured = text
      uncoloured.appearance.color = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
      self.text = uncoloured
      self.wrapWidth = wrapWidth
      self.alignment = alignment
    }
  }

  /// The most paragraphs kept.
  static let capacity = 64

  private var entries: [(key: Key, droppingLast: Bool, piece: TextLayout.Piece)] = []

  /// Takes out the layout kept for `key`, if any (the caller keeps or releases it).
  func take(_ key: Key, droppingLast: Bool) -> TextLayout.Piece? {
    guard let index = entries.lastIndex(where: { $0.key == key && $0.droppingLast == droppingLast })
    else { return nil }
    return entries.remove(at: index).piece
  }

  /// Keeps `piece` (and its reference to the Pango layout), releasing the oldest kept one when
  /// full.
  func keep(_ piece: TextLayout.Piece, for key: Key, droppingLast: Bool) {
    entries.append((key, droppingLast, piece))
    if entries.count > Self.capacity {
      ouds_g_object_unref(UnsafeMutableRawPointer(entries.removeFirst().piece.handle))
    }
  }

  deinit {
    for entry in entries { ouds_g_object_unref(UnsafeMutableRawPointer(entry.piece.handle)) }
  }
}
