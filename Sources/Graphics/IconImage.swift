import CGraphics
import CRsvg
import Foundation
import Primitives
import SafeInput
import Scene

/// A free icon loaded from an SVG or PNG file, drawn as a tinted alpha mask.
///
/// Only the icon's alpha matters (template rendering): its own colours are replaced by the tint.
/// SVG icons stay vectors in SVG and PDF output.
final class IconImage {
  private enum Source {
    case svg(SVGDocument)
    case bitmap(CairoSurface, width: Int, height: Int)
  }

  private let source: Source
  /// The file the icon was loaded from.
  let path: String

  /// Loads an icon; the format is chosen by the file extension (`.svg` or `.png`).
  init(path: String) throws(GraphicsError) {
    self.path = path
    // Only a regular file within the icon size limit; a FIFO or a device never blocks or streams.
    let data: Data
    do {
      data = try UserFile.read(path, kind: .icon)
    } catch {
      if case .missing = error.problem { throw .iconFileMissing(path: path) }
      throw .iconFileUnreadable(path: path, reason: error.reason)
    }
    switch (path as NSString).pathExtension.lowercased() {
    case "svg":
      source = .svg(try SVGDocument(path: path))
    case "png":
      let image: RasterImage
      do {
        image = try PNGCodec.decode(data)
      } catch {
        throw .iconFileUnreadable(path: path, reason: error.description)
      }
      source = .bitmap(try Self.alphaSurface(of: image), width: image.width, height: image.height)
    default:
      throw .iconFormatUnsupported(path: path)
    }
  }

  /// Fills the icon's alpha shape with `tint`, fitted (aspect preserved, centred) into `rect`.
  func draw(on context: CairoContext, in rect: Rect, tint: RGBAColor) throws(GraphicsError) {
    let cr = context.handle
    cairo_save(cr)
    defer { cairo_restore(cr) }
    switch source {
    case .svg(let document):
      cairo_push_group(cr)
      let rendered = document.render(on: cr, in: rect)
      guard let mask = cairo_pop_group(cr) else {
        throw .drawingFailed(stage: "drawing the icon \(path)", reason: "no group to pop")
      }
      defer { cairo_pattern_destroy(mask) }
      if case .failure(let reason) = rendered {
        throw .iconFileUnreadable(path: path, reason: reason.message)
      }
      setSource(cr, tint)
      cairo_mask(cr, mask)
    case .bitmap(let surface, let width, let height):
      let scale = min(rect.width / Double(width), rect.height / Double(height))
      cairo_translate(
        cr, rect.x + (rect.width - Double(width) * scale) / 2,
        rect.y + (rect.height - Double(height) * scale) / 2)
      cairo_scale(cr, scale, scale)
      setSource(cr, tint)
      cairo_mask_surface(cr, surface.handle, 0, 0)
    }
    try context.check(stage: "drawing the icon \(path)")
  }

  /// An A8 surface holding the alpha channel of `image`.
  private static func alphaSurface(of image: RasterImage) throws(GraphicsError) -> CairoSurface {
    let surface = try CairoSurface(
      taking: cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(image.width), Int32(image.height)),
      stage: "creating the icon mask")
    cairo_surface_flush(surface.handle)
    guard let data = cairo_image_surface_get_data(surface.handle) else {
      throw .drawingFailed(stage: "creating the icon mask", reason: "the surface has no pixel data")
    }
    let stride = Int(cairo_image_surface_get_stride(surface.handle))
    image.pixels.withUnsafeBufferPointer { pixels in
      for y in 0..<image.height {
        let row = data + y * stride
        let source = y * image.width * 4 + 3
        for x in 0..<image.width { row[x] = pixels[source + x * 4] }
      }
    }
    cairo_surface_mark_dirty(surface.handle)
    return surface
  }
}

/// An SVG document parsed by librsvg; owned, released in `deinit`.
final class SVGDocument {
  private let handle: UnsafeMutablePointer<RsvgHandle>

  /// Parses the SVG file at `path`.
  init(path: String) throws(GraphicsError) {
    var error: UnsafeMutablePointer<CRsvg.GError>?
    guard let handle = rsvg_handle_new_from_file(path, &error) else {
      throw .iconFileUnreadable(path: path, reason: Self.consume(error))
    }
    self.handle = handle
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(handle))
  }

  /// Renders the whole document fitted into `rect` on a Cairo context.
  func render(on cr: OpaquePointer, in rect: Rect) -> Result<Void, RenderFailure> {
    var viewport = RsvgRectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    var error: UnsafeMutablePointer<CRsvg.GError>?
    guard rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else {
      return .failure(RenderFailure(message: Self.consume(error)))
    }
    return .success(())
  }

  /// A librsvg error message, freeing the GError.
  private static func consume(_ error: UnsafeMutablePointer<CRsvg.GError>?) -> String {
    guard let error else { return "librsvg reported an unknown error" }
    defer { CRsvg.g_error_free(error) }
    guard let message = error.pointee.message else { return "librsvg reported an unknown error" }
    return String(cString: message)
  }
}

/// Why librsvg could not render a document.
struct RenderFailure: Error {
  let message: String
}

/// Sets a straight-alpha colour as the source of a Cairo context.
func setSource(_ cr: OpaquePointer, _ color: RGBAColor) {
  cairo_set_source_rgba(
    cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255,
    Double(color.alpha) / 255)
}
