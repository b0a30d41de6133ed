internal import CGraphics
internal import CGraphicsLoader

/// Conversions between Cairo's premultiplied ARGB32 pixels and straight RGBA bytes.
enum PixelConversion {
  /// The pixel memory of an ARGB32 image surface, flushed and checked.
  struct ARGB32Bitmap {
    let data: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let stride: Int
  }

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
        unpremultiply(row: row, count: width, into: out + y * width * 4)
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

  /// Whether every pixel of the bitmap has alpha 255.
  static func isOpaque(_ bitmap: ARGB32Bitmap) -> Bool {
    for y in 0..<bitmap.height {
      let row = UnsafeRawPointer(bitmap.data + y * bitmap.stride).assumingMemoryBound(
        to: UInt32.self)
      var all: UInt32 = 0xFF00_0000
      for x in 0..<bitmap.width { all &= row[x] }
      if all & 0xFF00_0000 != 0xFF00_0000 { return false }
    }
    return true
  }

  /// Converts one row of native-endian premultiplied ARGB words to straight R, G, B, A bytes.
  @inline(__always)
  static func unpremultiply(
    row: UnsafePointer<UInt32>, count: Int, into out: UnsafeMutablePointer<UInt8>
  ) {
    for x in 0..<count {
      let samples = straightRGBA(row[x])
      let o = out + x * 4
      o[0] = UInt8(truncatingIfNeeded: samples)
      o[1] = UInt8(truncatingIfNeeded: samples >> 8)
      o[2] = UInt8(truncatingIfNeeded: samples >> 16)
      o[3] = UInt8(truncatingIfNeeded: samples >> 24)
    }
  }

  /// The straight R, G, B, A of a native-endian premultiplied ARGB word, R in the low byte.
  @inline(__always)
  static func straightRGBA(_ word: UInt32) -> UInt32 {
    let alpha = word >> 24
    if alpha == 255 {
      return (word >> 16 & 0xFF) | (word & 0xFF00) | (word & 0xFF) << 16 | 0xFF00_0000
    }
    if alpha == 0 { return 0 }
    let half = alpha / 2
    let red = min(255, ((word >> 16 & 0xFF) * 255 + half) / alpha)
    let green = min(255, ((word >> 8 & 0xFF) * 255 + half) / alpha)
    let blue = min(255, ((word & 0xFF) * 255 + half) / alpha)
    return red | green << 8 | blue << 16 | alpha << 24
  }
}
