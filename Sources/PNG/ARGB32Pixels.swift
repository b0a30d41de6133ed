/// Premultiplied ARGB32 pixels in memory, native-endian 32-bit words, as Cairo's image surfaces
/// hold them: what the encoder reads straight from a drawing, without an intermediate bitmap.
package struct ARGB32Bitmap {
  /// The first byte of the first row.
  package let data: UnsafeMutablePointer<UInt8>
  /// Pixels per row.
  package let width: Int
  /// Rows.
  package let height: Int
  /// Bytes from one row to the next.
  package let stride: Int

  /// Describes pixel memory that stays valid while it is used.
  package init(data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
    self.data = data
    self.width = width
    self.height = height
    self.stride = stride
  }
}

/// Conversions of premultiplied ARGB32 words to straight RGBA samples.
package enum ARGB32 {
  /// Whether every pixel of the bitmap has alpha 255.
  package static func isOpaque(_ bitmap: ARGB32Bitmap) -> Bool {
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
  package static func unpremultiply(
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
  package static func straightRGBA(_ word: UInt32) -> UInt32 {
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
