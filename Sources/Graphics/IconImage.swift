internal import CGraphics
internal import CGraphicsLoader
internal import CRsvg
import PNG
import Primitives
import SafeInput
import Scene
import VectorAsset

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A free icon loaded from an SVG or PNG file, drawn as a tinted alpha mask.
///
/// Only the icon's alpha matters (template rendering): its own colours are replaced by the tint.
/// SVG icons stay vectors in SVG and PDF output.
///
/// Icons are hostile input like any other file: the file must be a regular file within
/// `UserFileKind.icon`'s size limit. An SVG icon must pass ``SVGIconPolicy`` (no entity declarations, no
/// reference to anything but its own elements), then is parsed by librsvg from those bytes with
/// no base location, so it can load no other file even if a reference got through (without a
/// base librsvg refuses every URL but `data:`). A PNG icon is decoded within
/// ``PNGDecodeLimits/icon``.
/// An icon is parsed once per render and drawn once per size (for bitmaps, once per size and
/// position within a pixel, at most 41 per size), and every row that uses it paints that same
/// mask.
final class IconImage {
  private enum Source {
    case svg(SVGDocument)
    case bitmap(CairoSurface, width: Int, height: Int)
  }

  private let source: Source
  /// The file the icon was loaded from.
  let path: String

  /// Loads an icon; the format is chosen by the file extension (`.svg` or `.png`).
  ///
  /// `enforcingPolicy` is false only in tests that check the second wall (no base location)
  /// on its own.
  init(path: String, enforcingPolicy: Bool = true) throws(GraphicsError) {
    self.path = path
    // Only a regular file within the icon size limit; a FIFO or a device never blocks or streams.
    let data: Data
    do {
      data = try UserFile.read(path, kind: .icon)
    } catch {
      if case .missing = error.problem { throw .iconFileMissing(path: path) }
      throw .iconFileUnreadable(path: path, reason: error.reason)
    }
    switch PathText.pathExtension(path).lowercased() {
    case "svg":
      if enforcingPolicy, let violation = SVGIconPolicy.violation(in: data) {
        throw .iconFileUnreadable(path: path, reason: "contains \(violation)")
      }
      source = .svg(try SVGDocument(data: data, path: path))
    case "png":
      let image: RasterImage
      do {
        image = try PNGCodec.decode(data, limits: .icon)
      } catch {
        throw .iconFileUnreadable(path: path, reason: error.description)
      }
      source = .bitmap(try Self.alphaSurface(of: image), width: image.width, height: image.height)
    default:
      throw .iconFormatUnsupported(path: path)
    }
  }

  /// An SVG icon whose outline was read beforehand (`VectorAssetReader.iconOutline(of:)`,
  /// from the file at `path`): drawn by filling it, without librsvg, for bitmaps only (vector
  /// output keeps librsvg's drawing).
  init(path: String, outline: VectorOutline) {
    self.path = path
    source = .svg(SVGDocument(outline: outline, path: path))
  }

  /// Whether the icon is a bitmap file, drawn scaled (its pixels are sampled, and where they
  /// land may depend on the device's origin), rather than an SVG drawn at a whole pixel.
  var isBitmap: Bool {
    if case .bitmap = source { return true }
    return false
  }

  /// Fills the icon's alpha shape with `tint`, fitted (aspect preserved, centred) into `rect`.
  ///
  /// `pixelsPerPoint` is the device scale of a bitmap target, nil for vector output.
  func draw(on context: CairoContext, in rect: Rect, tint: RGBAColor, pixelsPerPoint: Int?)
    throws(GraphicsError)
  {
    let cr = context.handle
    ouds_cairo_save(cr)
    defer { ouds_cairo_restore(cr) }
    switch source {
    case .svg(let document):
      if let scale = pixelsPerPoint {
        // Device pixel of the icon's corner, split into a whole part and a phase (the fraction):
        // the icon is rasterized once per phase and copied pixel for pixel.
        // cairo_user_to_device leaves out the surface's device scale: it is applied here.
        var x = rect.x
        var y = rect.y
        ouds_cairo_user_to_device(cr, &x, &y)
        let (wholeX, phaseX) = Self.split(x * Double(scale))
        let (wholeY, phaseY) = Self.split(y * Double(scale))
        let mask = try document.raster(
          width: rect.width, height: rect.height, pixelsPerPoint: scale,
          phase: SVGDocument.Phase(x: phaseX, y: phaseY))
        ouds_cairo_identity_matrix(cr)
        setSource(cr, tint)
        ouds_cairo_mask_surface(cr, mask.handle, wholeX / Double(scale), wholeY / Double(scale))
      } else {
        let mask = try document.recording(width: rect.width, height: rect.height)
        ouds_cairo_translate(cr, rect.x, rect.y)
        setSource(cr, tint)
        ouds_cairo_mask_surface(cr, mask.handle, 0, 0)
      }
    case .bitmap(let surface, let width, let height):
      let scale = min(rect.width / Double(width), rect.height / Double(height))
      ouds_cairo_translate(
        cr, rect.x + (rect.width - Double(width) * scale) / 2,
        rect.y + (rect.height - Double(height) * scale) / 2)
      ouds_cairo_scale(cr, scale, scale)
      setSource(cr, tint)
      ouds_cairo_mask_surface(cr, surface.handle, 0, 0)
    }
    try context.check(stage: "drawing the icon \(path)")
  }

  /// A device coordinate as a whole number of pixels and the fraction of a pixel past it.
  private static func split(_ device: Double) -> (whole: Double, phase: Double) {
    let whole = device.rounded(.down)
    return (whole, device - whole)
  }

  /// An A8 surface holding the alpha channel of `image`.
  private static func alphaSurface(of image: RasterImage) throws(GraphicsError) -> CairoSurface {
    let surface = try CairoSurface(
      taking: ouds_cairo_image_surface_create(
        CAIRO_FORMAT_A8, Int32(image.width), Int32(image.height)),
      stage: "creating the icon mask")
    ouds_cairo_surface_flush(surface.handle)
    guard let data = ouds_cairo_image_surface_get_data(surface.handle) else {
      throw .drawingFailed(stage: "creating the icon mask", reason: "the surface has no pixel data")
    }
    let stride = Int(ouds_cairo_image_surface_get_stride(surface.handle))
    image.pixels.withUnsafeBufferPointer { pixels in
      for y in 0..<image.height {
        let row = data + y * stride
        let source = y * image.width * 4 + 3
        for x in 0..<image.width { row[x] = pixels[source + x * 4] }
      }
    }
    ouds_cairo_surface_mark_dirty(surface.handle)
    return surface
  }
}

/// An SVG document, drawn by librsvg from its bytes (owned, released in `deinit`), or, when its
/// outline is known to draw the same pixels (`VectorAssetReader.iconOutline(of:)`),
/// filled by Cairo without librsvg.
final class SVGDocument {
  private enum Drawing {
    case librsvg(UnsafeMutablePointer<RsvgHandle>)
    case outline(VectorOutline)
  }

  private let drawing: Drawing
  /// The file the bytes came from, for messages only: it is never handed to librsvg.
  private let path: String
  /// The document recorded once per size, for vector output.
  private var recordings: [SizeKey: CairoSurface] = [:]
  /// The document rasterized once per size and phase, for bitmaps.
  private var rasters: [SizeKey: [Phase: CairoSurface]] = [:]

  /// Parses SVG bytes with no base location: librsvg then loads nothing but `data:` URLs.
  ///
  /// `path` only names the file in errors.
  init(data: Data, path: String) throws(GraphicsError) {
    self.path = path
    try GraphicsLibraries.loadSVG()
    let bytes = data.withUnsafeBytes { raw in ouds_g_bytes_new(raw.baseAddress, gsize(raw.count)) }
    defer { ouds_g_bytes_unref(bytes) }
    let stream = ouds_g_memory_input_stream_new_from_bytes(bytes)
    defer { ouds_g_object_unref(UnsafeMutableRawPointer(stream)) }
    var error: UnsafeMutablePointer<CRsvg.GError>?
    // No base file, and no RSVG_HANDLE_FLAG_UNLIMITED: libxml2 keeps its safety limits.
    guard
      let handle = ouds_rsvg_handle_new_from_stream_sync(
        stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
    else {
      throw .iconFileUnreadable(path: path, reason: Self.consume(error))
    }
    drawing = .librsvg(handle)
    try checkInkExtents(handle)
  }

  /// The side of the box the ink extents are measured in: larger than any icon box drawn (a few
  /// dozen points at 3 pixels a point).
  static let measuringBox = 256.0

  /// Refuses a document whose drawing, fitted into a ``measuringBox`` box, reaches past
  /// ±``SVGIconPolicy/maximumCoordinate``: what the policy cannot see in the text (relative path
  /// steps that add up, transforms that scale, a CSS stroke width) but Cairo's 24.8 fixed point
  /// would wrap, drawing part of the icon, none of it, or the whole box.
  private func checkInkExtents(_ handle: UnsafeMutablePointer<RsvgHandle>) throws(GraphicsError) {
    var viewport = RsvgRectangle(x: 0, y: 0, width: Self.measuringBox, height: Self.measuringBox)
    var ink = RsvgRectangle()
    var logical = RsvgRectangle()
    var error: UnsafeMutablePointer<CRsvg.GError>?
    guard
      ouds_rsvg_handle_get_geometry_for_layer(handle, nil, &viewport, &ink, &logical, &error) != 0
    else {
      throw .iconFileUnreadable(path: path, reason: Self.consume(error))
    }
    let limit = SVGIconPolicy.maximumCoordinate
    for rect in [ink, logical] {
      let values = [rect.x, rect.y, rect.x + rect.width, rect.y + rect.height]
      guard values.allSatisfy({ $0.isFinite && abs($0) <= limit }) else {
        throw .iconFileUnreadable(
          path: path,
          reason:
            "its drawing reaches beyond ±1,000,000 units when fitted into a \(Int(Self.measuringBox))-unit box (relative steps, a transform or a stroke width), which Cairo's fixed point cannot hold; scale the icon's drawing into its view box"
        )
      }
    }
  }

  /// A document drawn by filling `outline`: librsvg is not loaded.
  init(outline: VectorOutline, path: String) {
    self.path = path
    drawing = .outline(outline)
  }

  deinit {
    if case .librsvg(let handle) = drawing { ouds_g_object_unref(UnsafeMutableRawPointer(handle)) }
  }

  /// The whole document fitted into a `width`×`height` box at the origin, as a recording
  /// (vector) surface: drawn by librsvg once per size, then painted by every row that uses it
  /// (one shared object in PDF and SVG output, not one copy per row).
  func recording(width: Double, height: Double) throws(GraphicsError) -> CairoSurface {
    let key = SizeKey(width: width, height: height, pixelsPerPoint: 0)
    if let mask = recordings[key] { return mask }
    let stage = "drawing the icon \(path)"
    // Bounded: Cairo then knows the mask's extents without replaying it at every use.
    var extents = cairo_rectangle_t(x: 0, y: 0, width: width, height: height)
    let surface = try CairoSurface(
      taking: ouds_cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents), stage: stage
    )
    let context = try CairoContext(surface: surface)
    try render(on: context, in: RsvgRectangle(x: 0, y: 0, width: width, height: height))
    recordings[key] = surface
    return surface
  }

  /// The whole document fitted into a `width`×`height`-point box whose corner lies `phase`
  /// into the bitmap's first pixel, rasterized at `pixelsPerPoint`: the same pixels as drawing
  /// the document straight onto a target at that position. One bitmap per size and phase,
  /// however many rows use it. Past ``Phase/maxExact`` phases of one size, phases are rounded to
  /// a quarter of a pixel (at most 25 more bitmaps, an icon moved by at most 1/8 pixel), so a
  /// hostile list cannot make an icon be drawn once per row.
  func raster(width: Double, height: Double, pixelsPerPoint: Int, phase wanted: Phase)
    throws(GraphicsError) -> CairoSurface
  {
    let size = SizeKey(width: width, height: height, pixelsPerPoint: pixelsPerPoint)
    var phases = rasters[size, default: [:]]
    if let mask = phases[wanted] { return mask }
    var phase = wanted
    if phases.count >= Phase.maxExact {
      phase = Phase(x: (wanted.x * 4).rounded() / 4, y: (wanted.y * 4).rounded() / 4)
      if let mask = phases[phase] { return mask }
    }
    let stage = "drawing the icon \(path)"
    let scale = Double(pixelsPerPoint)
    let offsetX = phase.x
    let offsetY = phase.y
    let pixelWidth = Int((offsetX + width * scale).rounded(.up)) + 1
    let pixelHeight = Int((offsetY + height * scale).rounded(.up)) + 1
    let surface = try CairoSurface.bitmap(width: pixelWidth, height: pixelHeight, stage: stage)
    ouds_cairo_surface_set_device_scale(surface.handle, scale, scale)
    let context = try CairoContext(surface: surface)
    try render(
      on: context,
      in: RsvgRectangle(x: offsetX / scale, y: offsetY / scale, width: width, height: height))
    ouds_cairo_surface_flush(surface.handle)
    phases[phase] = surface
    rasters[size] = phases
    return surface
  }

  /// A position inside a pixel, in pixels (0 ≤ x, y ≤ 1).
  struct Phase: Hashable {
    var x: Double
    var y: Double

    /// The most phases of one icon size drawn exactly; then they are rounded to a quarter pixel.
    static let maxExact = 16
  }

  private struct SizeKey: Hashable {
    var width: Double
    var height: Double
    var pixelsPerPoint: Int
  }

  private func render(on context: CairoContext, in box: RsvgRectangle) throws(GraphicsError) {
    switch drawing {
    case .librsvg(let handle):
      var viewport = box
      var error: UnsafeMutablePointer<CRsvg.GError>?
      guard ouds_rsvg_handle_render_document(handle, context.handle, &viewport, &error) != 0 else {
        throw .iconFileUnreadable(path: path, reason: Self.consume(error))
      }
    case .outline(let outline):
      ouds_cairo_set_source_rgba(context.handle, 0, 0, 0, 1)
      fillOutline(
        outline, in: Rect(x: box.x, y: box.y, width: box.width, height: box.height),
        on: context.handle)
    }
    try context.check(stage: "drawing the icon \(path)")
  }

  /// A librsvg error message, freeing the GError.
  private static func consume(_ error: UnsafeMutablePointer<CRsvg.GError>?) -> String {
    guard let error else { return "librsvg reported an unknown error" }
    defer { ouds_g_error_free(error) }
    guard let message = error.pointee.message else { return "librsvg reported an unknown error" }
    return String(cString: message)
  }
}

/// Sets a straight-alpha colour as the source of a Cairo context.
func setSource(_ cr: OpaquePointer, _ color: RGBAColor) {
  ouds_cairo_set_source_rgba(
    cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255,
    Double(color.alpha) / 255)
}
