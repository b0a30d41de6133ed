// `MessageText`, the one rule for echoing input in a message, lives in `Primitives` (its name
// errors use it too) and comes with `import SafeInput`.
@_exported import enum Primitives.MessageText

/// Strict decimal numbers for command-line options: digits with an optional `-` and fraction.
///
/// `Double("0x28")` is 40 and `Int("+5")` is 5; here both are refused, as are `1e3`, `inf`,
/// `nan`, spaces and empty text.
public enum DecimalNumber {
  /// The longest text accepted: 40 characters.
  public static let maximumLength = 40

  /// A whole number written `[-]digits`, or nil.
  public static func integer(_ text: String) -> Int? {
    guard isDecimal(text, allowFraction: false) else { return nil }
    return Int(text)
  }

  /// A number written `[-]digits[.digits]`, or nil.
  public static func number(_ text: String) -> Double? {
    guard isDecimal(text, allowFraction: true), let value = Double(text), value.isFinite else {
      return nil
    }
    return value
  }

  private static func isDecimal(_ text: String, allowFraction: Bool) -> Bool {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
    var index = bytes[0] == UInt8(ascii: "-") ? 1 : 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - start
    }
    guard digits() > 0 else { return false }
    if allowFraction, index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return false }
    }
    return index == bytes.count
  }
}
