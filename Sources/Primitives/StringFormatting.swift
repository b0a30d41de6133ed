#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The "C" locale, made once; nil if the system could not make it (then the thread's own is used).
private nonisolated(unsafe) let cLocale: locale_t? = newlocale(1 << LC_NUMERIC, "C", nil)

extension String {
  /// `format` filled in by C's `vsnprintf`: numbers as `printf` writes them in the C locale
  /// (`%.3f` → `0.125`, `%04x` → `00e9`), the same text as Foundation's `String(format:)` for the
  /// numeric conversions this package uses, without linking Foundation (its start-up alone costs
  /// a command-line run about 2.5 ms).
  ///
  /// Only C conversions (`%d`, `%f`, `%x`, …) with C-compatible arguments (`Int`, `Int32`, `UInt32`,
  /// `Double`) are meant: there is no `%@`. Numbers are written in the C locale (`0.5`) even when
  /// the host program set another one with `setlocale`.
  public init(cFormat format: String, _ arguments: any CVarArg...) {
    // The C locale on this thread while formatting, whatever `setlocale` a host program called:
    // a French locale would write `0,5`, in a CSS colour or a report.
    let previous = cLocale.map { uselocale($0) }
    defer { if let previous { uselocale(previous) } }
    let size = withVaList(arguments) { vsnprintf(nil, 0, format, $0) }
    guard size > 0 else {
      self = ""
      return
    }
    var buffer = [CChar](repeating: 0, count: Int(size) + 1)
    _ = buffer.withUnsafeMutableBufferPointer { out in
      withVaList(arguments) { vsnprintf(out.baseAddress, out.count, format, $0) }
    }
    self = String(decoding: buffer.prefix(Int(size)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (Unicode space separators and U+0009:
  /// Foundation's `trimmingCharacters(in: .whitespaces)`).
  public func trimmingWhitespace() -> String {
    trimming(where: { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator })
  }

  /// The text without leading and trailing white space and line breaks (Foundation's
  /// `trimmingCharacters(in: .whitespacesAndNewlines)`).
  public func trimmingWhitespaceAndNewlines() -> String {
    trimming(where: {
      $0 == "\t" || $0.properties.generalCategory == .spaceSeparator
        || ("\u{0A}"..."\u{0D}").contains($0) || $0 == "\u{85}" || $0 == "\u{2028}"
        || $0 == "\u{2029}"
    })
  }

  private func trimming(where drop: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !drop($0) }),
      let last = scalars.lastIndex(where: { !drop($0) })
    else { return "" }
    return String(String.UnicodeScalarView(scalars[first...last]))
  }
}

extension StringProtocol {
  /// The text with every occurrence of `target` replaced by `replacement`, matched literally on
  /// Unicode scalars from left to right.
  ///
  /// Foundation's `replacingOccurrences(of:with:)` (6.3) and the standard library's
  /// `replacing(_:with:)` match whole characters: they leave a `<` followed by a combining mark in
  /// text escaped for HTML or XML. This does not.
  public func replacingEvery(_ target: String, with replacement: String) -> String {
    let needle = Array(target.utf8)
    guard !needle.isEmpty else { return String(self) }
    let bytes = Array(utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == needle[0], bytes.count - index >= needle.count,
        bytes[index..<index + needle.count].elementsEqual(needle)
      {
        out.append(contentsOf: replacement.utf8)
        index += needle.count
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}

extension StringProtocol {
  /// The text made exactly `length` UTF-16 units long: spaces added at the end, or the end cut
  /// off, as Foundation's `padding(toLength:withPad: " ", startingAt: 0)` does.
  public func padded(toLength length: Int) -> String {
    let units = utf16.count
    if units >= length {
      return units == length ? String(self) : String(decoding: utf16.prefix(length), as: UTF16.self)
    }
    return String(self) + String(repeating: " ", count: length - units)
  }
}
