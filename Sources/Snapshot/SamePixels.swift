import PNG

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// References are kept by pixels, not bytes: two PNGs that decode to the same pixels are the same
/// reference, whatever their encoder made of them (igzip's bytes may differ between CPUs).
public enum SamePixels {
  /// Whether `first` and `second` are PNGs of the same size whose decoded 8-bit RGBA pixels are
  /// equal; false when either is not a PNG this tool decodes.
  public static func equal(_ first: Data, _ second: Data) -> Bool {
    if first == second { return true }
    guard let a = try? PNGCodec.decode(first), let b = try? PNGCodec.decode(second) else {
      return false
    }
    return a.width == b.width && a.height == b.height && a.pixels == b.pixels
  }
}
