/// JSON string literals, written the one way the package writes them.
public enum JSONStringLiteral {
  /// `text` as a JSON string: quotes and backslashes escaped, `\n`, `\r` and `\t` by name, other
  /// control characters, DEL and the line and paragraph separators as `\u00XX`. With `forHTML`,
  /// `<` is written `\u003c` too, so the text can sit inside a page's `<script>`.
  public static func quoted(_ text: String, forHTML: Bool = false) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "<" where forHTML: out += "\\u003c"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}"
          || scalar == "\u{2029}"
        {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
