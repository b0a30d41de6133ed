/// Makes text that came from the input safe to echo in a one-line message.
///
/// Control characters (C0, DEL, C1), line and paragraph separators and bidirectional overrides
/// are written as escapes (`\n`, `\r`, `\t`, else `\u{1B}`), so an input can neither break a
/// message into lines nor drive the terminal. Echoed values are cut to ``valueLimit`` characters
/// (Unicode scalars) and paths to ``pathLimit``, followed by `…`. Backslashes are kept as they
/// are, so escaping twice changes nothing.
public enum MessageText {
  /// How many characters of an echoed value (a JSON value or key, a label, an option value) a
  /// message keeps: 80.
  public static let valueLimit = 80
  /// How many characters of a file path a message keeps: 1024.
  public static let pathLimit = 1024
  /// How many characters of a whole message line are printed: 4096.
  public static let lineLimit = 4096

  /// `text` cut to `limit` characters (then `…`) with its control characters escaped.
  public static func value(_ text: String, limit: Int = valueLimit) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count == limit {
        out += "…"
        return out
      }
      append(scalar, to: &out)
      count += 1
    }
    return out
  }

  /// `"text"`: the value cut and escaped as by ``value(_:limit:)``, in double quotes.
  public static func quoted(_ text: String, limit: Int = valueLimit) -> String {
    "\"" + value(text, limit: limit) + "\""
  }

  /// A file path cut to ``pathLimit`` characters and escaped.
  public static func path(_ path: String) -> String { value(path, limit: pathLimit) }

  /// A whole message line: escaped, and cut to ``lineLimit`` characters.
  public static func line(_ text: String) -> String { value(text, limit: lineLimit) }

  /// `text` with its control characters escaped, not cut.
  public static func escaped(_ text: String) -> String { value(text, limit: Int.max) }

  /// Whether `scalar` is written as an escape.
  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
    case 0x2028, 0x2029: return true  // line and paragraph separators
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional controls
    default: return false
    }
  }

  private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
    guard needsEscape(scalar) else {
      out.unicodeScalars.append(scalar)
      return
    }
    switch scalar {
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
  }
}
