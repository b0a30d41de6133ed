import Foundation
import Primitives
import Testing

/// The package's Foundation-free string helpers give Foundation's text (but for a `<` before a
/// combining mark, which `replacingEvery` replaces and Foundation misses), checked against
/// Foundation itself (test targets link it; the product does not).
@Suite("String helpers without Foundation: the same text as Foundation's")
struct StringFormattingTests {
  static let samples = [
    "", " ", "plain", "  two  words  ", "\t tab\t", "\u{A0}no-break\u{2003}", "line\n", "\r\n x \n",
    "\u{2028}sep\u{85}", "café", "a<\u{338}b", "مرحبا  ", "😀 x 😀", "é\u{301} ", "\u{1B}[31m ",
  ]

  @Test("String(cFormat:) writes the numbers String(format:) writes")
  func cFormat() {
    let values: [Double] = [0, 0.5, 0.125, 1.0 / 3, 2.675, 99.9999, 12_345.678, -0.0004, 1e-9]
    for value in values {
      for format in ["%.1f", "%.2f", "%.3f", "%.5f", "%.3f%%", " in %.2f s", "%.1f MiB"] {
        #expect(String(cFormat: format, value) == String(format: format, value))
      }
    }
    for scalar in [UInt32(0), 0x1F, 0xE9, 0x202E, 0xFFFF] {
      #expect(String(cFormat: "\\u%04x", scalar) == String(format: "\\u%04x", scalar))
    }
    #expect(String(cFormat: "%.3f", 0.0625) == "0.062")
  }

  @Test("trimmingWhitespace and trimmingWhitespaceAndNewlines trim what CharacterSet trims")
  func trimming() {
    for sample in Self.samples {
      #expect(sample.trimmingWhitespace() == sample.trimmingCharacters(in: .whitespaces))
      #expect(
        sample.trimmingWhitespaceAndNewlines()
          == sample.trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }

  @Test("replacingEvery replaces as replacingOccurrences does, and also before a combining mark")
  func replacing() {
    let pairs = [
      ("<", "&lt;"), ("\r\n", "\n"), ("\r", "\n"), ("\t", "    "), ("ab", "b"), ("x", ""),
    ]
    let plain = Self.samples.filter {
      !$0.unicodeScalars.contains { $0.value == 0x301 || $0.value == 0x338 }
    }
    for sample in plain + ["ababab", "\r\r\n\n"] {
      for (target, replacement) in pairs {
        #expect(
          sample.replacingEvery(target, with: replacement)
            == sample.replacingOccurrences(of: target, with: replacement))
      }
    }
    // Foundation (6.3) and the standard library's replacing(_:with:) match whole characters and
    // leave this `<` (followed by a combining long solidus, drawn `≮`) in text escaped for HTML
    #expect("a<\u{338}b".replacingOccurrences(of: "<", with: "&lt;") == "a<\u{338}b")
    #expect("a<\u{338}b".replacingEvery("<", with: "&lt;") == "a&lt;\u{338}b")
    #expect("e\u{301}e".replacingEvery("e", with: "E") == "E\u{301}E")
  }

  @Test("padded(toLength:) pads and cuts as padding(toLength:withPad:startingAt:) does")
  func padding() {
    for sample in Self.samples {
      for length in [0, 1, 3, 7, 12, 20] {
        #expect(
          sample.padded(toLength: length)
            == sample.padding(toLength: length, withPad: " ", startingAt: 0))
      }
    }
  }
}
