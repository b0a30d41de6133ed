internal import CGraphics
internal import CGraphicsLoader
import PNG

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Cairo's image surfaces as pixels: their memory for the encoder, copies to and from
/// ``RasterImage`` (the conversions themselves are PNG's ``ARGB32``).
enum PixelConversion {
  /// Flushes `surface` and returns its pixel memory; valid while the surface lives.
  static func bitmap(of surface: CairoSurface) throws(GraphicsError) -> ARGB32Bitmap {
    ouds_cairo_surface_flush(surface.handle)
    try surface.check(stage: "reading the bitmap")
    guard let data = ouds_cairo_image_surface_get_data(surface.handle) else {
      throw .drawingFailed(stage: "reading the bitmap", reason: "the surface has no pixel data")
    }
    return ARGB32Bitmap(
      data: data, width: Int(ouds_cairo_image_surface_get_width(surface.handle)),
      height: Int(ouds_cairo_image_surface_get_height(surface.handle)),
      stride: Int(ouds_cairo_image_surface_get_stride(surface.handle)))
  }

  /// Copies a flushed ARGB32 image surface into a straight-alpha `RasterImage`.
  static func rasterImage(fromARGB32 surface: CairoSurface) throws(GraphicsError) -> RasterImage {
    let bitmap = try bitmap(of: surface)
    let (data, width, height, stride) = (bitmap.data, bitmap.width, bitmap.height, bitmap.stride)
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
      guard let out = buffer.baseAddress else {
        count = 0
        return
      }
      for y in 0..<height {
        let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
        ARGB32.unpremultiply(row: row, count: width, into: out + y * width * 4)
      }
      count = width * height * 4
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  /// A new ARGB32 image surface (premultiplied) holding the straight-alpha pixels of `image`.
  static func argb32Surface(of image: RasterImage, stage: String) throws(GraphicsError)
    -> CairoSurface
  {
    let surface = try CairoSurface.bitmap(width: image.width, height: image.height, stage: stage)
    ouds_cairo_surface_flush(surface.handle)
    guard let data = ouds_cairo_image_surface_get_data(surface.handle) else {
      throw .drawingFailed(stage: stage, reason: "the surface has no pixel data")
    }
    let stride = Int(ouds_cairo_image_surface_get_stride(surface.handle))
    image.pixels.withUnsafeBufferPointer { pixels in
      for y in 0..<image.height {
        let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<image.width {
          let i = (y * image.width + x) * 4
          let alpha = UInt32(pixels[i + 3])
          func premultiplied(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 127) / 255 }
          row[x] =
            alpha << 24 | premultiplied(pixels[i]) << 16 | premultiplied(pixels[i + 1]) << 8
            | premultiplied(pixels[i + 2])
        }
      }
    }
    ouds_cairo_surface_mark_dirty(surface.handle)
    return surface
  }
}

extension PNGCodec {
  /// Encodes a flushed Cairo ARGB32 image surface.
  ///
  /// Premultiplied pixels are converted to straight RGBA as they are coded (no full-size
  /// intermediate bitmap). A fully opaque surface (a render on the theme background) is written
  /// as 8-bit RGB: a quarter less data to compress, and the decoded pixels are the same.
  static func encode(surface: CairoSurface) throws(GraphicsError) -> Data {
    let bitmap = try PixelConversion.bitmap(of: surface)
    do {
      return try PNGCodec.encode(argb32: bitmap)
    } catch {
      throw .png(error)
    }
  }
}
