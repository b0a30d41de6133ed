import Primitives

/// Quotes `text` for a POSIX shell when it holds anything but safe characters.
public func shellQuote(_ text: String) -> String {
  let safe = text.unicodeScalars.allSatisfy {
    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
      || "@%+=:,./-_".unicodeScalars.contains($0)
  }
  if safe && !text.isEmpty { return text }
  return "'" + text.replacingEvery("'", with: "'\\''") + "'"
}
