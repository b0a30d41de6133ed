import CGraphics
import Primitives
import Scene

/// Lays out and measures paragraphs with Pango, with pinned, device-independent settings.
///
/// Every paragraph goes through the same layout code whether it is measured or drawn, so the
/// figures the layout engine computes from ``measure(_:wrapWidth:)`` are exactly what a render
/// shows. Settings that would make output depend on the target are pinned: no hinting, no metric
/// hinting, grey antialiasing, unrounded glyph positions, absolute pixel sizes and line heights,
/// an explicit base direction and language.
///
/// Not thread-safe: a `TextEngine` (and its ``FontSet``) must be used from one thread at a time.
public final class TextEngine: TextMeasuring {
  /// The fonts every layout is shaped with.
  public let fonts: FontSet

  /// The one Pango context; owned, released in `deinit`.
  private let context: OpaquePointer

  /// Creates a text engine that shapes with `fonts` only.
  public init(fonts: FontSet) {
    self.fonts = fonts
    // pango_font_map_create_context never returns NULL (GObject allocation aborts on failure).
    context = pango_font_map_create_context(fonts.fontMap)
    let options = FontOptions()
    pango_cairo_context_set_font_options(context, options.handle)
    pango_context_set_round_glyph_positions(context, 0)
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(context))
  }

  /// Lays out `text` wrapped at `wrapWidth` points (nil: never wrap) and returns its metrics.
  public func measure(_ text: StyledText, wrapWidth: Double?) -> TextMetrics {
    layout(text, wrapWidth: wrapWidth, alignment: .left).metrics
  }

  /// The glyphs HarfBuzz chose for `text`, in visual order, with the byte offset of the cluster
  /// each belongs to; used to check shaping (joined Arabic letters, ligatures).
  public func shapedGlyphs(_ text: StyledText) -> [ShapedGlyph] {
    layout(text, wrapWidth: nil, alignment: .left).glyphs
  }

  /// The vertical metrics of the font a paragraph in `appearance` is set in: the first font of
  /// its families that has a space, at its size and weight, as Pango reads them from the font
  /// (hhea or OS/2 ascent and descent, post underline position and thickness).
  public func fontMetrics(_ appearance: TextAppearance) -> FontMetrics {
    pango_context_set_base_dir(context, PANGO_DIRECTION_LTR)
    let language = pango_language_from_string(appearance.language)
    pango_context_set_language(context, language)
    return TextLayout.baseFontMetrics(context: context, appearance: appearance, language: language)
  }

  /// Builds the Pango layout of a paragraph; the only place layouts are made.
  func layout(_ text: StyledText, wrapWidth: Double?, alignment: TextAlignment) -> TextLayout {
    pango_context_set_base_dir(
      context, text.direction == .rtl ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR)
    let language = pango_language_from_string(text.appearance.language)
    pango_context_set_language(context, language)
    return TextLayout(
      context: context, text: text, language: language, wrapWidth: wrapWidth,
      alignment: alignment)
  }
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
  public init(ascent: Double, descent: Double, underlinePosition: Double, underlineThickness: Double) {
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
}

/// One glyph of a shaped paragraph.
public struct ShapedGlyph: Hashable, Sendable {
  /// The glyph index in its font.
  public var glyph: UInt32
  /// UTF-8 byte offset, in the paragraph, of the first character of the glyph's cluster.
  public var cluster: Int
}

/// One laid-out paragraph (a PangoLayout); owned, released in `deinit`.
final class TextLayout {
  private let handle: OpaquePointer
  /// How far every line is moved down from where Pango puts it, in points: 0 for the even
  /// leading Pango applies itself, the difference to the proportional baseline otherwise.
  private let baselineShift: Double

  /// The underlined byte ranges, in order and disjoint, and the colour of each underline.
  private let underlines: [(range: Range<Int>, color: RGBAColor)]
  /// The size of the paragraph's font, in Pango units.
  private let fontSize: Int32

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
    defer { pango_font_description_free(description) }
    guard let metrics = pango_context_get_metrics(context, description, language) else {
      return FontMetrics(ascent: 0, descent: 0, underlinePosition: 0, underlineThickness: 0)
    }
    defer { pango_font_metrics_unref(metrics) }
    return FontMetrics(
      ascent: points(pango_font_metrics_get_ascent(metrics)),
      descent: points(pango_font_metrics_get_descent(metrics)),
      underlinePosition: points(pango_font_metrics_get_underline_position(metrics)),
      underlineThickness: points(pango_font_metrics_get_underline_thickness(metrics)))
  }

  /// A new font description for `appearance`, freed by the caller.
  static func fontDescription(_ appearance: TextAppearance) -> OpaquePointer? {
    guard let description = pango_font_description_new() else { return nil }
    pango_font_description_set_family(description, appearance.fontFamilies.joined(separator: ","))
    pango_font_description_set_absolute_size(
      description, appearance.fontSize * Double(PANGO_SCALE))
    pango_font_description_set_weight(
      description, PangoWeight(UInt32(clamping: appearance.weight)))
    return description
  }

  init(
    context: OpaquePointer, text: StyledText, language: OpaquePointer?, wrapWidth: Double?,
    alignment: TextAlignment
  ) {
    handle = pango_layout_new(context)
    let appearance = text.appearance
    fontSize = pangoUnits(appearance.fontSize)
    switch appearance.leading {
    case .even:
      baselineShift = 0
    case .proportional:
      let font = Self.baseFontMetrics(context: context, appearance: appearance, language: language)
      baselineShift =
        font.firstBaseline(lineHeight: appearance.lineHeight, leading: .proportional)
        - font.firstBaseline(lineHeight: appearance.lineHeight, leading: .even)
    }
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
    pango_layout_set_auto_dir(handle, 0)

    // The characters go in as plain UTF-8: never through markup.
    let plain = text.plainText
    plain.withCString { pango_layout_set_text(handle, $0, Int32(plain.utf8.count)) }

    if let description = Self.fontDescription(appearance) {
      pango_layout_set_font_description(handle, description)
      pango_font_description_free(description)
    }

    if let attributes = pango_attr_list_new() {
      func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?, from start: Int, to end: Int) {
        guard let attribute else { return }
        attribute.pointee.start_index = guint(start)
        attribute.pointee.end_index = guint(end)
        pango_attr_list_insert(attributes, attribute)
      }
      let whole = Int(UInt32.max)  // PANGO_ATTR_INDEX_TO_TEXT_END
      add(
        pango_attr_line_height_new_absolute(pangoUnits(appearance.lineHeight)), from: 0, to: whole)
      add(pango_attr_letter_spacing_new(pangoUnits(appearance.letterSpacing)), from: 0, to: whole)
      if let language { add(pango_attr_language_new(language), from: 0, to: whole) }
      var start = 0
      for span in text.spans {
        let end = start + span.text.utf8.count
        defer { start = end }
        guard end > start else { continue }
        if let weight = span.weight {
          add(pango_attr_weight_new(PangoWeight(UInt32(clamping: weight))), from: start, to: end)
        }
        if span.italic { add(pango_attr_style_new(PANGO_STYLE_ITALIC), from: start, to: end) }
        // Underlines are drawn by `drawUnderlines`, clear of the glyphs, not by Pango.
        if let color = span.color {
          add(
            pango_attr_foreground_new(
              guint16(color.red) * 257, guint16(color.green) * 257, guint16(color.blue) * 257),
            from: start, to: end)
          add(pango_attr_foreground_alpha_new(guint16(color.alpha) * 257), from: start, to: end)
        }
      }
      pango_layout_set_attributes(handle, attributes)
      pango_attr_list_unref(attributes)
    }

    if let wrapWidth {
      pango_layout_set_width(handle, pangoUnits(wrapWidth))
      pango_layout_set_wrap(handle, PANGO_WRAP_WORD_CHAR)
    } else {
      pango_layout_set_width(handle, -1)
    }
    pango_layout_set_alignment(handle, alignment == .right ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(handle))
  }

  /// Widest logical line, total height, line count and first baseline, in points.
  var metrics: TextMetrics {
    var logical = PangoRectangle()
    pango_layout_get_extents(handle, nil, &logical)
    let lineCount = Int(pango_layout_get_line_count(handle))
    var widest: Int32 = 0
    for index in 0..<lineCount {
      guard let line = pango_layout_get_line_readonly(handle, Int32(index)) else { continue }
      var lineRect = PangoRectangle()
      pango_layout_line_get_extents(line, nil, &lineRect)
      widest = max(widest, lineRect.width)
    }
    return TextMetrics(
      width: points(widest), height: points(logical.height), lineCount: lineCount,
      firstBaseline: points(pango_layout_get_baseline(handle)) + baselineShift,
      missingCharacters: pango_layout_get_unknown_glyphs_count(handle) > 0 ? missingCharacters : [])
  }

  /// The characters drawn with Pango's "unknown glyph" box, in logical order, without repeats.
  private var missingCharacters: [Character] {
    guard let text = pango_layout_get_text(handle) else { return [] }
    let bytes = Array(String(cString: text).utf8)
    var offsets = Set<Int>()
    for glyph in glyphs where glyph.glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 {
      offsets.insert(glyph.cluster)
    }
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

  /// The shaped glyphs of every run, in visual order.
  var glyphs: [ShapedGlyph] {
    var result: [ShapedGlyph] = []
    guard let iterator = pango_layout_get_iter(handle) else { return result }
    defer { pango_layout_iter_free(iterator) }
    repeat {
      guard let run = pango_layout_iter_get_run_readonly(iterator), let glyphs = run.pointee.glyphs,
        let item = run.pointee.item
      else { continue }
      let offset = Int(item.pointee.offset)
      for index in 0..<Int(glyphs.pointee.num_glyphs) {
        result.append(
          ShapedGlyph(
            glyph: glyphs.pointee.glyphs[index].glyph,
            cluster: offset + Int(glyphs.pointee.log_clusters[index])))
      }
    } while pango_layout_iter_next_run(iterator) != 0
    return result
  }

  /// Draws the paragraph with the top-left corner of its wrap box at (`x`, `y`) in user space.
  ///
  /// Spans without their own colour take `color`.
  func draw(on canvas: OpaquePointer, x: Double, y: Double, color: RGBAColor) {
    cairo_save(canvas)
    setSource(canvas, color)
    cairo_move_to(canvas, x, y + baselineShift)
    pango_cairo_show_layout(canvas, handle)
    cairo_restore(canvas)
    drawUnderlines(on: canvas, x: x, y: y + baselineShift)
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

  /// Draws the underline of every underlined span, line by line.
  ///
  /// Position and thickness come from the fonts of the underlined runs (Pango's reading of the
  /// post table), one per line: the lowest position and the thickest line of its runs, so a link
  /// that changes font keeps one straight underline. The underline never touches the glyphs that
  /// sit on the baseline (a round letter's overshoot included): see ``UnderlinePlacement``.
  private func drawUnderlines(on canvas: OpaquePointer, x: Double, y: Double) {
    guard !underlines.isEmpty, let iterator = pango_layout_get_iter(handle) else { return }
    defer { pango_layout_iter_free(iterator) }
    let bitmap = cairo_surface_get_type(cairo_get_target(canvas)) == CAIRO_SURFACE_TYPE_IMAGE
    var line: UnsafeMutablePointer<PangoLayoutLine>?
    var baseline: Int32 = 0
    var segments: [UnderlineSegment] = []
    var placement = UnderlinePlacement()

    func flush() {
      if !segments.isEmpty {
        let (top, bottom) = placement.edges(
          baseline: y + points(baseline), on: canvas, snapToPixels: bitmap)
        for segment in segments {
          cairo_save(canvas)
          cairo_rectangle(
            canvas, x + points(segment.start), top, points(segment.end - segment.start), bottom - top)
          setSource(canvas, segment.color)
          cairo_fill(canvas)
          cairo_restore(canvas)
        }
      }
      segments = []
      placement = UnderlinePlacement()
    }

    repeat {
      let current = pango_layout_iter_get_line_readonly(iterator)
      if current != line {
        flush()
        line = current
        baseline = pango_layout_iter_get_baseline(iterator)
      }
      guard let run = pango_layout_iter_get_run_readonly(iterator), let glyphs = run.pointee.glyphs,
        let item = run.pointee.item
      else { continue }
      var runRect = PangoRectangle()
      pango_layout_iter_get_run_extents(iterator, nil, &runRect)
      let font = item.pointee.analysis.font
      let itemOffset = Int(item.pointee.offset)
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
          segments.append(UnderlineSegment(start: glyphX, end: glyphX + width, color: underline.color))
        }
        guard let font, info.glyph != PANGO_GLYPH_EMPTY else { continue }
        var ink = PangoRectangle()
        pango_font_get_glyph_extents(font, info.glyph, &ink, nil)
        let bottom = ink.y + ink.height  // below the baseline when positive
        if Double(bottom) <= Self.descenderDepth * Double(fontSize) {
          placement.overshoot = max(placement.overshoot, points(bottom))
        }
      }
      guard underlined else { continue }
      if let font, let metrics = pango_font_get_metrics(font, item.pointee.analysis.language) {
        placement.fontDepth = max(
          placement.fontDepth, -points(pango_font_metrics_get_underline_position(metrics)))
        placement.thickness = max(
          placement.thickness, points(pango_font_metrics_get_underline_thickness(metrics)))
        pango_font_metrics_unref(metrics)
      }
      if placement.thickness <= 0 { placement.thickness = points(fontSize) / 16 }
    } while pango_layout_iter_next_run(iterator) != 0
    flush()
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
    let target = cairo_get_target(canvas)
    var scaleX = 1.0
    var scaleY = 1.0
    cairo_surface_get_device_scale(target, &scaleX, &scaleY)
    var offsetX = 0.0
    var offsetY = 0.0
    cairo_surface_get_device_offset(target, &offsetX, &offsetY)
    var originX = 0.0
    var deviceBaseline = baseline
    cairo_user_to_device(canvas, &originX, &deviceBaseline)
    var unitX = 0.0
    var unitY = 1.0
    cairo_user_to_device_distance(canvas, &unitX, &unitY)
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
      cairo_device_to_user(canvas, &x, &y)
      return y
    }
    let (topY, bottomY) = (user(top), user(bottom))
    return (topY, bottomY)
  }
}

/// Cairo font options with the pinned settings; owned, released in `deinit`.
private struct FontOptions: ~Copyable {
  let handle: OpaquePointer

  init() {
    // cairo_font_options_create returns a static "nil" object on allocation failure, never NULL;
    // setters on it are no-ops, which keeps this path total.
    handle = cairo_font_options_create()
    cairo_font_options_set_hint_style(handle, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_hint_metrics(handle, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_antialias(handle, CAIRO_ANTIALIAS_GRAY)
  }

  deinit {
    cairo_font_options_destroy(handle)
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
