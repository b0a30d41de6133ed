internal import CGraphics
internal import CGraphicsLoader
import Primitives

/// A bitmap's background written without Cairo, on two threads: every pixel gets the word that
/// Cairo's paint of the background writes (`CAIRO_OPERATOR_SOURCE` over the whole surface, which
/// gives every pixel the same value whatever was there), read from a 1×1 surface painted the
/// same way. Filling the rows directly lets the top half and the bottom half be written (and
/// their fresh pages faulted in) at once, by the drawing thread and the PNG encoder's helper,
/// which has nothing to encode before the first row is drawn. The bytes are those of the paint.
struct BackgroundFill: @unchecked Sendable {
  // @unchecked: the two halves are disjoint rows of a bitmap that outlives both fills.
  let bitmap: PixelConversion.ARGB32Bitmap
  /// The pixel word Cairo writes for the background.
  let word: UInt32

  /// The fill of `bitmap` with `color`, as Cairo would paint it.
  /// - Throws: `GraphicsError.drawingFailed` when Cairo cannot make or paint the 1×1 surface.
  init(_ color: RGBAColor, bitmap: PixelConversion.ARGB32Bitmap) throws(GraphicsError) {
    self.bitmap = bitmap
    word = try Self.paintedWord(color)
  }

  /// The first half of the rows (rounded down), for the drawing thread.
  var top: Range<Int> { 0..<(bitmap.height / 2) }
  /// The other half, for the helper.
  var bottom: Range<Int> { (bitmap.height / 2)..<bitmap.height }

  /// Writes the background word into every pixel of rows `rows`.
  func fill(_ rows: Range<Int>) {
    for y in rows {
      let row = UnsafeMutableRawPointer(bitmap.data + y * bitmap.stride)
      row.bindMemory(to: UInt32.self, capacity: bitmap.width)
        .update(repeating: word, count: bitmap.width)
    }
  }

  /// The word of a 1×1 ARGB32 surface after `cairo_paint` of `color` with the source operator.
  static func paintedWord(_ color: RGBAColor) throws(GraphicsError) -> UInt32 {
    let stage = "painting the background"
    let probe = try CairoSurface(
      taking: ouds_cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1), stage: stage)
    let context = try CairoContext(surface: probe)
    ouds_cairo_set_operator(context.handle, CAIRO_OPERATOR_SOURCE)
    setSource(context.handle, color)
    ouds_cairo_paint(context.handle)
    try context.check(stage: stage)
    ouds_cairo_surface_flush(probe.handle)
    guard let data = ouds_cairo_image_surface_get_data(probe.handle) else {
      throw .drawingFailed(stage: stage, reason: "the surface has no pixel data")
    }
    return UnsafeRawPointer(data).load(as: UInt32.self)
  }
}
