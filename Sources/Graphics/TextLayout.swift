internal import CGraphics
internal import CGraphicsLoader
import Primitives
import Scene

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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

  let bytes: [UInt8]
  let builder: PieceBuilder
  let limits: Limits
  /// Where a paragraph laid out in one piece is kept between uses, and its key there.
  let memo: PieceMemo?
  let memoKey: PieceMemo.Key
  /// How far every line is moved down from where Pango puts it, in points: 0 for the even
  /// leading Pango applies itself, the difference to the proportional baseline otherwise.
  let baselineShift: Double

  /// The underlined byte ranges, in order and disjoint, and the colour of each underline.
  let underlines: [(range: Range<Int>, color: RGBAColor)]
  /// The size of the paragraph's font, in Pango units of the layout.
  let fontSize: Int32
  /// The layout's units per point: 1 (points) in the iOS setting, the device pixels per point
  /// in Android's, where sizes go to Pango multiplied and every figure comes back divided.
  let unit: Double

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
  func inPoints(_ units: Int32) -> Double {
    Double(units) / (Double(PANGO_SCALE) * unit)
  }

  /// Converts Pango units of the layout to points.
  func inPoints(_ units: Int) -> Double {
    Double(units) / (Double(PANGO_SCALE) * unit)
  }

  /// Lays out the pieces in order, calling `body` with each; a piece's layout is released when
  /// `body` returns.
  func forEachPiece(_ body: (Piece) -> Void) {
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
  func forEachKeptRun(
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
  func forEachKeptLine(
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
  func characters(at offsets: Set<Int>) -> [Character] {
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
  func glyphs(of piece: Piece, firstLine: Int = 0) -> [ShapedGlyph] {
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
