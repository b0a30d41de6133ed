import Primitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Makes Cairo's SVG output independent of how many surfaces the process created before.
///
/// Cairo names surfaces and embedded images after process-wide counters (`id="surface42"`,
/// `xlink:href="#surface42"`, `id="image7"`); the same scene would give different bytes in
/// different runs. Each such name is renumbered 1, 2, 3… in order of first appearance.
public enum SVGNormalizer {
  /// The document with `<title>` and `<desc>` elements first inside its root `<svg>` (what the
  /// picture shows, in words: read by screen readers and found by a text search, since Cairo
  /// writes glyphs as outlines); the document as it is without a title or notes.
  public static func describing(_ data: Data, title: String?, notes: [String]) -> Data {
    guard title != nil || !notes.isEmpty else { return data }
    let bytes = [UInt8](data)
    let open = Array("<svg".utf8)
    guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: open) }),
      let end = bytes[start...].firstIndex(of: UInt8(ascii: ">"))
    else { return data }
    var inserted = ""
    if let title { inserted += "\n<title>\(xmlText(title))</title>" }
    if !notes.isEmpty { inserted += "\n<desc>\(notes.map(xmlText).joined(separator: "\n"))</desc>" }
    return Data(bytes[...end] + Array(inserted.utf8) + bytes[(end + 1)...])
  }

  /// `text` as XML character data: `&`, `<`, `>` as entities, control characters (which XML 1.0
  /// does not allow) as `\u{…}` escapes.
  static func xmlText(_ text: String) -> String {
    var out = ""
    for character in ControlCharacters.escaped(text) {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.append(character)
      }
    }
    return out
  }

  /// The prefixes whose numbers come from process-wide counters.
  static let counterPrefixes = ["surface", "image"]

  /// The document with its counter-based ids renumbered.
  public static func normalize(_ data: Data) -> Data {
    var output = [UInt8]()
    output.reserveCapacity(data.count)
    let prefixes = counterPrefixes.map { Array($0.utf8) }
    var numbering: [[UInt8]: [UInt64: Int]] = [:]
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let bytes = raw.bindMemory(to: UInt8.self)
      var index = 0
      let count = bytes.count
      func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
      func isNameByte(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 95
      }
      scan: while index < count {
        let byte = bytes[index]
        // A counter name starts after a quote, '#' or '(', e.g. id="surface5", href="#surface5", url(#surface5).
        if byte == 34 || byte == 35 || byte == 40 {
          output.append(byte)
          index += 1
          for prefix in prefixes where index + prefix.count < count {
            var matches = true
            for (offset, p) in prefix.enumerated() where bytes[index + offset] != p {
              matches = false
              break
            }
            guard matches else { continue }
            var end = index + prefix.count
            var value: UInt64 = 0
            while end < count, isDigit(bytes[end]), value < UInt64.max / 10 {
              value = value * 10 + UInt64(bytes[end] - 48)
              end += 1
            }
            guard end > index + prefix.count, end >= count || !isNameByte(bytes[end]) else {
              continue
            }
            var map = numbering[prefix, default: [:]]
            let number = map[value] ?? (map.count + 1)
            map[value] = number
            numbering[prefix] = map
            output.append(contentsOf: prefix)
            output.append(contentsOf: String(number).utf8)
            index = end
            continue scan
          }
          continue
        }
        output.append(byte)
        index += 1
      }
    }
    return Data(output)
  }
}
