import Foundation
import Primitives
import Testing

@Suite("WCAG 2.2 contrast: relative luminance, compositing, ratio")
struct ContrastTests {
  func color(_ hex: String) -> RGBAColor {
    RGBAColor(hex: hex) ?? RGBAColor(red: 1, green: 2, blue: 3)
  }

  @Test(
    "known pairs: black on white 21:1, #767676 on white 4.54:1, white on white 1:1, in either order"
  )
  func knownPairs() {
    #expect(WCAGContrast.ratio(color("#000000"), on: color("#FFFFFF")) == 21)
    #expect(
      WCAGContrast.formatted(WCAGContrast.ratio(color("#000000"), on: color("#FFFFFF"))) == "21.00")
    let grey = WCAGContrast.ratio(color("#767676"), on: color("#FFFFFF"))
    #expect(grey > 4.54 && grey < 4.55)
    #expect(WCAGContrast.formatted(grey) == "4.54")
    #expect(WCAGContrast.ratio(color("#FFFFFF"), on: color("#767676")) == grey)
    #expect(WCAGContrast.ratio(color("#FFFFFF"), on: color("#FFFFFF")) == 1)
    // #777777 is the classic just-failing grey: 4.47:1.
    #expect(
      WCAGContrast.formatted(WCAGContrast.ratio(color("#777777"), on: color("#FFFFFF"))) == "4.47")
  }

  @Test("relative luminance follows WCAG 2.2's sRGB curve (threshold 0.04045)")
  func luminance() {
    #expect(WCAGContrast.relativeLuminance(color("#000000")) == 0)
    #expect(WCAGContrast.relativeLuminance(color("#FFFFFF")) == 1)
    // 10/255 = 0.0392 is below the threshold: linear part.
    #expect(abs(WCAGContrast.relativeLuminance(color("#0A0A0A")) - (10.0 / 255 / 12.92)) < 1e-12)
    // Pure green weighs 0.7152.
    #expect(abs(WCAGContrast.relativeLuminance(color("#00FF00")) - 0.7152) < 1e-12)
  }

  @Test("a translucent colour is composited over the background first, in sRGB, to 8 bits")
  func compositing() {
    // #000000 at alpha 0x80 (128/255) over white: 255 × (1 − 128/255) = 127.
    #expect(WCAGContrast.composited(color("#00000080"), over: color("#FFFFFF")) == color("#7F7F7F"))
    #expect(
      WCAGContrast.ratio(color("#00000080"), on: color("#FFFFFF"))
        == WCAGContrast.ratio(color("#7F7F7F"), on: color("#FFFFFF")))
    // Opaque colours are unchanged; transparent ones vanish into the background.
    #expect(WCAGContrast.composited(color("#F16E00"), over: color("#141414")) == color("#F16E00"))
    #expect(WCAGContrast.composited(color("#F16E0000"), over: color("#141414")) == color("#141414"))
    // Orange's dark-mode focus colour #FFFFFFA3 over #141414.
    let blended = WCAGContrast.composited(color("#FFFFFFA3"), over: color("#141414"))
    let alpha: Double = 163.0 / 255
    let mixed: Double = 255 * alpha + 20 * (1 - alpha)
    let expected = UInt8(mixed.rounded())
    #expect(blended == RGBAColor(red: expected, green: expected, blue: expected))
    // A translucent background is itself laid on white.
    #expect(WCAGContrast.ratio(color("#000000"), on: color("#00000000")) == 21)
  }

  @Test("figures are shown rounded down, so a shown 4.50 never fails 4.5:1")
  func formatting() {
    #expect(WCAGContrast.formatted(4.4999) == "4.49")
    #expect(WCAGContrast.formatted(4.5) == "4.50")
    #expect(WCAGContrast.formatted(3.0) == "3.00")
    #expect(WCAGContrast.formatted(15.8712) == "15.87")
    #expect(WCAGContrast.formatted(1.05) == "1.05")
  }
}
