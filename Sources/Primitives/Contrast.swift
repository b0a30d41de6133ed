#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// WCAG 2.2 colour contrast: relative luminance, alpha compositing and the contrast ratio.
///
/// Definitions from WCAG 2.2 ("relative luminance", "contrast ratio"): each sRGB component
/// `c = v / 255` is linearised as `c / 12.92` when `c ≤ 0.04045`, else `((c + 0.055) / 1.055)^2.4`;
/// `L = 0.2126 R + 0.7152 G + 0.0722 B`; the ratio of two luminances is
/// `(L_lighter + 0.05) / (L_darker + 0.05)`, from 1 to 21. A translucent colour is first
/// composited over what is behind it, in sRGB, the way Cairo draws it.
public enum WCAGContrast {
  /// The relative luminance (0 black … 1 white) of the opaque colour made of `color`'s red,
  /// green and blue (alpha is ignored: composite first, see ``composited(_:over:)``).
  public static func relativeLuminance(_ color: RGBAColor) -> Double {
    func linear(_ value: UInt8) -> Double {
      let c = Double(value) / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
  }

  /// `color` drawn over `background` (straight alpha, sRGB "over", rounded to 8 bits per component
  /// as in the picture): opaque. A translucent background is first composited over white.
  public static func composited(_ color: RGBAColor, over background: RGBAColor) -> RGBAColor {
    let base = background.alpha == 255 ? background : composited(background, over: white)
    let alpha = Double(color.alpha) / 255
    func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
      UInt8((Double(top) * alpha + Double(bottom) * (1 - alpha)).rounded())
    }
    return RGBAColor(
      red: mix(color.red, base.red), green: mix(color.green, base.green),
      blue: mix(color.blue, base.blue))
  }

  /// The contrast ratio of `color` (composited over `background`) against `background`
  /// (composited over white when translucent), from 1 to 21.
  public static func ratio(_ color: RGBAColor, on background: RGBAColor) -> Double {
    let base = background.alpha == 255 ? background : composited(background, over: white)
    return ratio(
      luminance: relativeLuminance(composited(color, over: base)), relativeLuminance(base))
  }

  /// The contrast ratio of two relative luminances, in either order.
  public static func ratio(luminance first: Double, _ second: Double) -> Double {
    (max(first, second) + 0.05) / (min(first, second) + 0.05)
  }

  /// A ratio as WCAG figures are shown: two decimals, rounded down, so that a ratio shown as
  /// 4.50 never fails a 4.5:1 threshold (4.4999 shows as 4.49).
  public static func formatted(_ ratio: Double) -> String {
    let hundredths = Int((ratio * 100 + 1e-9).rounded(.down))
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  private static let white = RGBAColor(red: 255, green: 255, blue: 255)
}
