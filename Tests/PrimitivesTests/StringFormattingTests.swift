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

  @Test("String(cFormat:) writes 0.5, not 0,5, on a thread whose locale is French")
  func cFormatIgnoresTheThreadLocale() throws {
    // Build fr_FR.UTF-8 (decimal comma) from the locale sources into a temporary folder.
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("cformat-locale-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let localedef = Process()
    localedef.executableURL = URL(fileURLWithPath: "/usr/bin/localedef")
    localedef.arguments = ["-i", "fr_FR", "-f", "UTF-8", folder.appendingPathComponent("fr").path]
    try localedef.run()
    localedef.waitUntilExit()
    try #require(localedef.terminationStatus == 0, "localedef (libc-bin, sources from locales)")
    // glibc finds a locale by name in LOCPATH (read when a locale is loaded)
    let saved = getenv("LOCPATH").map { String(cString: $0) }
    setenv("LOCPATH", folder.path, 1)
    let loaded = newlocale(1 << LC_NUMERIC, "fr", nil)
    if let saved { setenv("LOCPATH", saved, 1) } else { unsetenv("LOCPATH") }
    let french = try #require(loaded, "the fr locale built in \(folder.path)")
    defer { freelocale(french) }
    let previous = uselocale(french)
    defer { uselocale(previous) }
    // the thread's locale really writes a comma…
    var buffer = [CChar](repeating: 0, count: 16)
    _ = withVaList([0.5]) { vsnprintf(&buffer, buffer.count, "%.1f", $0) }
    let written = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    #expect(String(decoding: written, as: UTF8.self) == "0,5")
    // …and the formatter does not
    #expect(String(cFormat: "%.1f MiB", 0.5) == "0.5 MiB")
    #expect(String(cFormat: "rgba(0, 0, 0, %.3f)", 0.25) == "rgba(0, 0, 0, 0.250)")
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
