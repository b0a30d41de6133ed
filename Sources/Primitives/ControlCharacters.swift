/// Keeps text from files, folders and the environment on one line when it is printed.
public enum ControlCharacters {
  /// `text` with C0 and C1 control characters and DEL written as `\u{…}` escapes.
  public static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
        out += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
