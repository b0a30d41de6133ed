/// A bitmap with 8-bit straight-alpha RGBA pixels, rows top to bottom, no padding.
public struct RasterImage: Hashable, Sendable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// `width * height * 4` bytes: R, G, B, A for each pixel.
  public var pixels: [UInt8]

  /// Creates an image from its pixels; `pixels.count` must equal `width * height * 4`.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 4, "pixel buffer does not match the size")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The RGBA components of the pixel at column `x`, row `y`.
  public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
    let i = (y * width + x) * 4
    return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
  }
}
