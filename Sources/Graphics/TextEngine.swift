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
