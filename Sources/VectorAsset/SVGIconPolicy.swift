#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What an SVG icon may contain, checked on its bytes before librsvg parses them.
///
/// An icon is a shape: it may reference its own elements (`href="#id"`, `url(#id)`) and nothing
/// else. Refused, with the first offending construct named:
/// - entity declarations and DOCTYPE internal subsets (billion laughs, hidden references);
/// - any `href` (`xlink:href`, `<xi:include href>`, `<?xml-stylesheet href?>`…) and any CSS
///   `url(…)` that is not a `#fragment`, which also refuses `data:` URLs (an embedded bitmap
///   or document of any size, or a nested document with its own entities);
/// - CSS `@import`, and backslashes (CSS escapes could spell `url` or `data:` in disguise);
/// - text (`<text>`, `<tspan>`, `<textPath>`, with any namespace prefix): it would be drawn with
///   whatever font the machine has, found by accident and in no fingerprint (`ouds-render` gives
///   fontconfig's default configuration no font at all; see `FontSet`).
///
/// Values are checked after XML character references (`&#100;`, `&amp;`…) are decoded, as the
/// XML parser will decode them. This is a second wall: librsvg is also given the bytes with no
/// base location, so even a reference that got through could load no file. An icon drawn without
/// librsvg (its outline filled) passes the same check first, so that every output format accepts
/// and refuses the same icons.
public enum SVGIconPolicy {
  /// What an icon may hold, ending the message of a construct it may not.
  static let structureAdvice =
    "an SVG icon may declare no entities, refer only to its own elements (#id) and hold no text (convert it to outlines)"

  /// Longest excerpt of an offending value quoted in an error.
  static let quotedLength = 40

  /// The first construct `data` may not contain, described for an error message (what it is,
  /// then what an icon may hold), nil when the document is acceptable.
  public static func violation(in data: Data) -> String? {
    let bytes = [UInt8](data)
    if let declaration = forbiddenDeclaration(in: bytes) {
      return declaration + "; " + structureAdvice
    }
    let (text, origins) = decodedLowercase(bytes)
    func excerpt(from index: Int) -> String { Self.excerpt(bytes, from: Int(origins[index])) }
    if text.contains(UInt8(ascii: "\\")) {
      return "a backslash (CSS escapes are not allowed in icons); " + structureAdvice
    }
    if let index = find(Array("@import".utf8), in: text, from: 0) {
      return "a CSS @import (\(excerpt(from: index))); " + structureAdvice
    }
    var from = 0
    while let index = find(Array("href".utf8), in: text, from: from) {
      from = index + 4
      var cursor = skipSpace(text, from)
      guard cursor < text.count, text[cursor] == UInt8(ascii: "=") else { continue }
      cursor = skipSpace(text, cursor + 1)
      guard cursor < text.count,
        text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'")
      else { continue }
      let value = skipSpace(text, cursor + 1)
      if value >= text.count || text[value] != UInt8(ascii: "#") {
        return "a reference to something outside the icon (\(excerpt(from: index))); "
          + structureAdvice
      }
    }
    from = 0
    while let index = find(Array("url(".utf8), in: text, from: from) {
      from = index + 4
      var cursor = skipSpace(text, from)
      if cursor < text.count,
        text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'")
      {
        cursor = skipSpace(text, cursor + 1)
      }
      if cursor >= text.count || text[cursor] != UInt8(ascii: "#") {
        return "a reference to something outside the icon (\(excerpt(from: index))); "
          + structureAdvice
      }
    }
    if let element = textElement(in: bytes) {
      return "SVG text (<\(element)>), which no font of the theme would draw; " + structureAdvice
    }
    let segments = pathSegments(in: text)
    if segments.largest > maximumPathSegments {
      return
        "a path of \(segments.largest) segments (at most \(maximumPathSegments) a path, \(maximumIconSegments) an icon); simplify the icon"
    }
    if segments.total > maximumIconSegments {
      return
        "paths of \(segments.total) segments in all (at most \(maximumPathSegments) a path, \(maximumIconSegments) an icon); simplify the icon"
    }
    if let index = farCoordinate(in: text) {
      return
        "a coordinate beyond ±1,000,000 (\(excerpt(from: index))), which Cairo's fixed point cannot hold; scale the icon's drawing into its view box"
    }
    return nil
  }

  /// The largest magnitude a number of an icon's geometry may have, as for marker outlines:
  /// Cairo holds coordinates in 24.8 fixed point, so a path at 10³⁰ wraps or makes its fill
  /// work through the whole range.
  public static let maximumCoordinate = 1_000_000.0

  /// The attributes whose numbers are geometry (lower case, as ``decodedLowercase(_:)`` gives).
  private static let geometryAttributes: [[UInt8]] = [
    "d", "points", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width",
    "height", "viewbox", "transform", "stroke-width", "font-size",
  ].map { Array($0.utf8) }

  /// Where the first number beyond ±``maximumCoordinate`` (or not finite) starts in a geometry
  /// attribute's value of `text` (decoded, lower case); nil when there is none.
  static func farCoordinate(in text: [UInt8]) -> Int? {
    var index = 1
    while index < text.count {
      defer { index += 1 }
      guard [9, 10, 13, 32].contains(text[index - 1]),
        let name = geometryAttributes.first(where: { matches($0, in: text, at: index) })
      else { continue }
      var cursor = skipSpace(text, index + name.count)
      guard cursor < text.count, text[cursor] == UInt8(ascii: "=") else { continue }
      cursor = skipSpace(text, cursor + 1)
      guard cursor < text.count else { return nil }
      let quote = text[cursor]
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
      var end = cursor + 1
      while end < text.count, text[end] != quote { end += 1 }
      if let far = farNumber(in: text, from: cursor + 1, to: end) { return far }
      index = end
    }
    return nil
  }

  /// Where the first number of `text[start..<end]` beyond ±``maximumCoordinate`` starts.
  private static func farNumber(in text: [UInt8], from start: Int, to end: Int) -> Int? {
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    var cursor = start
    while cursor < end {
      let first = cursor
      var position = cursor
      if text[position] == UInt8(ascii: "-") || text[position] == UInt8(ascii: "+") {
        position += 1
      }
      let mantissa = position
      while position < end, isDigit(text[position]) { position += 1 }
      if position < end, text[position] == UInt8(ascii: ".") {
        position += 1
        while position < end, isDigit(text[position]) { position += 1 }
      }
      guard position > mantissa, text[mantissa..<position].contains(where: isDigit) else {
        cursor = max(first + 1, position)
        continue
      }
      if position < end, text[position] == UInt8(ascii: "e") {
        var exponent = position + 1
        if exponent < end,
          text[exponent] == UInt8(ascii: "-") || text[exponent] == UInt8(ascii: "+")
        {
          exponent += 1
        }
        let digits = exponent
        while exponent < end, isDigit(text[exponent]) { exponent += 1 }
        if exponent > digits { position = exponent }
      }
      let written = String(decoding: text[first..<position], as: UTF8.self)
      if let value = Double(written), !value.isFinite || abs(value) > maximumCoordinate {
        return first
      }
      cursor = position
    }
    return nil
  }

  /// The most segments one path of an icon may have (`d`, or `points` of a polygon or polyline).
  /// Cairo's fill of a path whose segments cross one another takes time that grows with the
  /// square of its length (one self-crossing path of 50,000 segments: 28 s, of 200,000: 7 min).
  public static let maximumPathSegments = 4_096
  /// The most segments all the paths of an icon may have together.
  public static let maximumIconSegments = 100_000

  /// The segments of the largest path and of all paths in `text` (decoded, lower case; see
  /// ``decodedLowercase(_:)``): the values of every `d` and `points` attribute, a command's
  /// numbers divided by its arity (`z` one segment), a `points` list's pairs.
  static func pathSegments(in text: [UInt8]) -> (largest: Int, total: Int) {
    var largest = 0
    var total = 0
    var index = 0
    while index < text.count {
      defer { index += 1 }
      let isD = text[index] == UInt8(ascii: "d")
      let isPoints = !isD && matches(Array("points".utf8), in: text, at: index)
      guard isD || isPoints, index > 0, [9, 10, 13, 32].contains(text[index - 1]) else {
        continue
      }
      var cursor = skipSpace(text, index + (isD ? 1 : 6))
      guard cursor < text.count, text[cursor] == UInt8(ascii: "=") else { continue }
      cursor = skipSpace(text, cursor + 1)
      guard cursor < text.count else { break }
      let quote = text[cursor]
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
      var end = cursor + 1
      while end < text.count, text[end] != quote { end += 1 }
      let count = segments(text[(cursor + 1)..<end], points: isPoints)
      largest = max(largest, count)
      total += count
      index = end
    }
    return (largest, total)
  }

  /// The segments of one path data or points value.
  private static func segments(_ value: ArraySlice<UInt8>, points: Bool) -> Int {
    var total = 0
    var arity = points ? 2 : 0
    var numbers = 0
    func flush() {
      if arity > 0 { total += max(1, (numbers + arity - 1) / arity) }
      numbers = 0
    }
    var inNumber = false
    var seenDot = false
    var seenExponent = false
    var previous: UInt8 = 0
    for byte in value {
      let isDigit = byte >= 0x30 && byte <= 0x39
      if inNumber {
        if isDigit
          || (byte == UInt8(ascii: ".") && !seenDot && !seenExponent)
          || (byte == UInt8(ascii: "e") && !seenExponent)
          || ((byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+"))
            && previous == UInt8(ascii: "e"))
        {
          if byte == UInt8(ascii: ".") { seenDot = true }
          if byte == UInt8(ascii: "e") { seenExponent = true }
          previous = byte
          continue
        }
        inNumber = false
      }
      previous = byte
      if isDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: "+")
      {
        inNumber = true
        seenDot = byte == UInt8(ascii: ".")
        seenExponent = false
        numbers += 1
        continue
      }
      guard !points else { continue }
      switch byte {
      case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "t"):
        flush()
        arity = 2
      case UInt8(ascii: "h"), UInt8(ascii: "v"):
        flush()
        arity = 1
      case UInt8(ascii: "c"):
        flush()
        arity = 6
      case UInt8(ascii: "s"), UInt8(ascii: "q"):
        flush()
        arity = 4
      case UInt8(ascii: "a"):
        flush()
        arity = 7
      case UInt8(ascii: "z"):
        flush()
        arity = 0
        total += 1
      default: break
      }
    }
    flush()
    return total
  }

  private static func matches(_ word: [UInt8], in text: [UInt8], at index: Int) -> Bool {
    guard index + word.count <= text.count else { return false }
    for offset in 0..<word.count where text[index + offset] != word[offset] { return false }
    return true
  }

  /// The name of the first text element (`text`, `tspan`, `textPath`, with or without a namespace
  /// prefix, any case) as written, cut to ``quotedLength``; nil when there is none. Element
  /// names are read from the raw bytes: XML decodes no character reference inside a name.
  static func textElement(in bytes: [UInt8]) -> String? {
    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x30 && byte <= 0x39)
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: ":") || byte >= 0x80
    }
    var index = 0
    while index < bytes.count {
      defer { index += 1 }
      guard bytes[index] == UInt8(ascii: "<") else { continue }
      var end = index + 1
      while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
      let name = bytes[(index + 1)..<end]
      let local =
        name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).last ?? []
      let lowered = String(decoding: local.map(lower), as: UTF8.self)
      if ["text", "tspan", "textpath"].contains(lowered) {
        return String(String(decoding: name, as: UTF8.self).prefix(quotedLength))
      }
    }
    return nil
  }

  /// The first entity or internal-subset declaration (`<!ENTITY`, `<!DOCTYPE … [`), nil when
  /// there is none. A plain `<!DOCTYPE svg PUBLIC …>` is allowed: librsvg never loads external DTDs.
  static func forbiddenDeclaration(in bytes: [UInt8]) -> String? {
    let entity = Array("<!entity".utf8)
    let doctype = Array("<!doctype".utf8)
    func matches(_ word: [UInt8], at index: Int) -> Bool {
      guard index + word.count <= bytes.count else { return false }
      for (offset, letter) in word.enumerated() where lower(bytes[index + offset]) != letter {
        return false
      }
      return true
    }
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "<") {
        if matches(entity, at: index) { return "an entity declaration (<!ENTITY)" }
        if matches(doctype, at: index) {
          var end = index + doctype.count
          while end < bytes.count, bytes[end] != UInt8(ascii: ">") {
            if bytes[end] == UInt8(ascii: "[") {
              return "a DOCTYPE internal subset (<!DOCTYPE … [)"
            }
            end += 1
          }
          index = end
        }
      }
      index += 1
    }
    return nil
  }

  /// The document with character references (`&#100;`, `&#x64;`) and the five predefined
  /// entities decoded once, as XML does, and ASCII letters in lower case; other non-ASCII
  /// characters become 0x80. `origins[i]` is the offset in `bytes` that output byte `i` comes from.
  static func decodedLowercase(_ bytes: [UInt8]) -> (text: [UInt8], origins: [UInt32]) {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var origins: [UInt32] = []
    origins.reserveCapacity(bytes.count)
    let named: [[UInt8]: UInt8] = [
      Array("lt".utf8): UInt8(ascii: "<"), Array("gt".utf8): UInt8(ascii: ">"),
      Array("amp".utf8): UInt8(ascii: "&"), Array("quot".utf8): UInt8(ascii: "\""),
      Array("apos".utf8): UInt8(ascii: "'"),
    ]
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "&"),
        let semicolon = bytes[(index + 1)..<min(bytes.count, index + 12)].firstIndex(
          of: UInt8(ascii: ";"))
      else {
        out.append(byte < 0x80 ? lower(byte) : 0x80)
        origins.append(UInt32(truncatingIfNeeded: index))
        index += 1
        continue
      }
      let name = Array(bytes[(index + 1)..<semicolon])
      var decoded: UInt8?
      if name.first == UInt8(ascii: "#") {
        let isHex = name.count > 1 && lower(name[1]) == UInt8(ascii: "x")
        let digits = String(decoding: name.dropFirst(isHex ? 2 : 1), as: UTF8.self)
        if let value = UInt32(digits, radix: isHex ? 16 : 10) {
          decoded = value < 0x80 ? lower(UInt8(value)) : 0x80
        }
      } else {
        decoded = named[name]
      }
      origins.append(UInt32(truncatingIfNeeded: index))
      if let decoded {
        out.append(decoded)
        index = semicolon + 1
      } else {
        out.append(byte)
        index += 1
      }
    }
    return (out, origins)
  }

  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= 65 && byte <= 90 ? byte + 32 : byte
  }

  private static func skipSpace(_ text: [UInt8], _ start: Int) -> Int {
    var index = start
    while index < text.count, [9, 10, 13, 32].contains(text[index]) { index += 1 }
    return index
  }

  private static func find(_ word: [UInt8], in text: [UInt8], from start: Int) -> Int? {
    guard !word.isEmpty, text.count >= word.count else { return nil }
    var index = start
    let last = text.count - word.count
    while index <= last {
      if text[index] == word[0] {
        var offset = 1
        while offset < word.count, text[index + offset] == word[offset] { offset += 1 }
        if offset == word.count { return index }
      }
      index += 1
    }
    return nil
  }

  /// Up to ``quotedLength`` bytes of the document from `index`, as written; anything but
  /// printable ASCII shown as `?`.
  private static func excerpt(_ bytes: [UInt8], from index: Int) -> String {
    let end = min(bytes.count, index + quotedLength)
    let shown = bytes[index..<end].map {
      $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "?"
    }
    return String(shown) + (end < bytes.count ? "…" : "")
  }
}
