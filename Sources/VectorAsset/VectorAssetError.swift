/// Why an asset file was refused: one line, with the line of the file when there is one.
///
/// The file's name is not part of the error; whoever read the file adds it (see `ThemeError`).
public struct VectorAssetError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 1-based line of the file at fault, or nil for a problem with the whole file.
  public var line: Int?
  /// What is wrong, in words a person can act on.
  public var message: String

  /// Creates an error.
  public init(line: Int? = nil, message: String) {
    self.line = line
    self.message = message
  }

  /// `line 3: <message>`, or the message alone.
  public var description: String {
    line.map { "line \($0): \(message)" } ?? message
  }
}

/// Echoing text that came from a file inside a one-line message.
enum Echo {
  /// How many characters of an echoed name or value are kept.
  static let limit = 40

  /// `text` cut to ``limit`` characters (then `…`), control characters written as `\u{…}`.
  static func value(_ text: some StringProtocol) -> String {
    var out = ""
    for (count, scalar) in text.unicodeScalars.enumerated() {
      if count == limit { return out + "…" }
      switch scalar.value {
      case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E,
        0x2066...0x2069:
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `"text"`, cut and escaped as by ``value(_:)``.
  static func quoted(_ text: some StringProtocol) -> String { "\"" + value(text) + "\"" }

  /// A number as people write it: no ".0" on whole numbers.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
