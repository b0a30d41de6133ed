internal import CGraphics
internal import CGraphicsLoader
import Primitives
import Scene

// Android's text setting (SPEC §6, §6b), where it differs from iOS's: the first baseline on
// whole pixels of Compose's integer font metrics, and the line growth under a fallback font.
// The layout in device pixels itself is ``TextLayout``'s (its `pixels` context and `unit`).

extension FontMetrics {
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

extension TextLayout {
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
