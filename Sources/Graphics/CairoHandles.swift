internal import CGraphics
internal import CGraphicsLoader
import PNG

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A Cairo surface (image, SVG or PDF); owned, destroyed in `deinit`.
final class CairoSurface {
  let handle: OpaquePointer

  /// Takes ownership of a freshly created surface, checking its status first.
  init(taking handle: OpaquePointer?, stage: String) throws(GraphicsError) {
    guard let handle else { throw .drawingFailed(stage: stage, reason: "Cairo returned NULL") }
    let status = ouds_cairo_surface_status(handle)
    guard status == CAIRO_STATUS_SUCCESS else {
      ouds_cairo_surface_destroy(handle)
      throw .drawingFailed(stage: stage, reason: cairoMessage(status))
    }
    self.handle = handle
  }

  /// A new ARGB32 bitmap of `width`×`height` pixels, transparent, in Cairo's own memory;
  /// `stage` names the step in an error (default: creating a bitmap of that size).
  static func bitmap(width: Int, height: Int, stage: String? = nil) throws(GraphicsError)
    -> CairoSurface
  {
    try CairoSurface(
      taking: ouds_cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, Int32(clamping: width), Int32(clamping: height)),
      stage: stage ?? "creating a \(width)×\(height) bitmap")
  }

  deinit {
    ouds_cairo_surface_destroy(handle)
  }

  /// Finishes the surface (flushes vector output to its stream) and checks the status.
  func finish(stage: String) throws(GraphicsError) {
    ouds_cairo_surface_finish(handle)
    try check(stage: stage)
  }

  /// Throws when the surface is in an error state.
  func check(stage: String) throws(GraphicsError) {
    let status = ouds_cairo_surface_status(handle)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw .drawingFailed(stage: stage, reason: cairoMessage(status))
    }
  }
}

/// A Cairo drawing context on a surface; owned, destroyed in `deinit`.
final class CairoContext {
  let handle: OpaquePointer
  /// Keeps the target alive as long as the context.
  let surface: CairoSurface

  /// Creates a drawing context on `surface`, checking its status.
  init(surface: CairoSurface) throws(GraphicsError) {
    guard let handle = ouds_cairo_create(surface.handle) else {
      throw .drawingFailed(stage: "creating the drawing context", reason: "Cairo returned NULL")
    }
    let status = ouds_cairo_status(handle)
    guard status == CAIRO_STATUS_SUCCESS else {
      ouds_cairo_destroy(handle)
      throw .drawingFailed(stage: "creating the drawing context", reason: cairoMessage(status))
    }
    self.handle = handle
    self.surface = surface
  }

  deinit {
    ouds_cairo_destroy(handle)
  }

  /// Throws when drawing put the context in an error state.
  func check(stage: String) throws(GraphicsError) {
    let status = ouds_cairo_status(handle)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw .drawingFailed(stage: stage, reason: cairoMessage(status))
    }
  }
}

/// Collects the bytes a vector surface writes to its stream.
final class ByteSink {
  var data = Data()

  /// The `cairo_write_func_t` that appends to the sink passed as its closure pointer.
  static let write: cairo_write_func_t = { closure, bytes, length in
    guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
    let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
    if let bytes, length > 0 { sink.data.append(bytes, count: Int(length)) }
    return CAIRO_STATUS_SUCCESS
  }

  /// The pointer Cairo hands back to `write`; valid while the sink is alive.
  var closure: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// Cairo's text for a status code.
func cairoMessage(_ status: cairo_status_t) -> String {
  guard let text = ouds_cairo_status_to_string(status) else { return "status \(status.rawValue)" }
  return String(cString: text)
}
