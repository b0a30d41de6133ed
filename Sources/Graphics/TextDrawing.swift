internal import CGraphics
internal import CGraphicsLoader
import Primitives
import Scene

extension TextLayout {
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
  func underline(at offset: Int) -> (range: Range<Int>, color: RGBAColor)? {
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
  struct UnderlineSegment {
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
  func drawUnderlines(
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
