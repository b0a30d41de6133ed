/// A parsed JSON value that keeps object keys in document order and tells booleans from numbers.
public enum JSONValue: Hashable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, keys in document order.
  case object([(key: String, value: JSONValue)])

  /// The name of the value's kind, for error messages ("a string", "an object"…).
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The value for `key` when this is an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// Compares two values, objects member by member in order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  /// Hashes the value.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .number(let n): hasher.combine(n)
    case .string(let s): hasher.combine(s)
    case .array(let a): hasher.combine(a)
    case .object(let members):
      for member in members {
        hasher.combine(member.key)
        hasher.combine(member.value)
      }
    }
  }
}

/// A strict JSON (RFC 8259) parser that reports the line and column of the first error.
public struct JSONParser {
  private let bytes: [UInt8]
  private var position = 0

  /// Parses a whole document.
  /// - Throws: `BulletListError` with the message "malformed JSON at line L, column C: …".
  public static func parse(_ text: String) throws(BulletListError) -> JSONValue {
    var parser = JSONParser(bytes: Array(text.utf8))
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    guard parser.position == parser.bytes.count else {
      throw parser.error("unexpected text after the end of the document")
    }
    return value
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private func error(_ message: String) -> BulletListError {
    var line = 1
    var column = 1
    for byte in bytes[0..<min(position, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return BulletListError(path: "", message: "malformed JSON at line \(line), column \(column): \(message)")
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private mutating func parseValue(depth: Int) throws(BulletListError) -> JSONValue {
    guard depth < 512 else { throw error("nesting is too deep") }
    guard position < bytes.count else { throw error("unexpected end of the document") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
    case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
    case UInt8(ascii: "n"): try expectLiteral("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[position])))'")
    }
  }

  private mutating func expectLiteral(_ literal: String) throws(BulletListError) {
    let utf8 = Array(literal.utf8)
    guard position + utf8.count <= bytes.count,
      Array(bytes[position..<position + utf8.count]) == utf8
    else { throw error("invalid literal, expected \(literal)") }
    position += utf8.count
  }

  private mutating func parseObject(depth: Int) throws(BulletListError) -> JSONValue {
    position += 1
    var members: [(key: String, value: JSONValue)] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw error("expected a quoted key")
      }
      let keyStart = position
      let key = try parseString()
      if members.contains(where: { $0.key == key }) {
        position = keyStart
        throw error("duplicate key \"\(key)\"")
      }
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
        throw error("expected ':' after key \"\(key)\"")
      }
      position += 1
      skipWhitespace()
      members.append((key, try parseValue(depth: depth + 1)))
      skipWhitespace()
      guard position < bytes.count else { throw error("unexpected end of the document in an object") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      } else {
        throw error("expected ',' or '}' in an object")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(BulletListError) -> JSONValue {
    position += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      guard position < bytes.count else { throw error("unexpected end of the document in an array") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(elements)
      } else {
        throw error("expected ',' or ']' in an array")
      }
    }
  }

  private mutating func parseString() throws(BulletListError) -> String {
    position += 1
    var scalars = String.UnicodeScalarView()
    var runStart = position
    func flush(_ parser: JSONParser, _ scalars: inout String.UnicodeScalarView, upTo end: Int) {
      if end > runStart {
        scalars.append(contentsOf: String(decoding: parser.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
      }
    }
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        flush(self, &scalars, upTo: position)
        position += 1
        return String(scalars)
      }
      if byte < 0x20 { throw error("control character in a string") }
      if byte == UInt8(ascii: "\\") {
        flush(self, &scalars, upTo: position)
        position += 1
        guard position < bytes.count else { break }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try parseHex4()
          if (0xD800...0xDBFF).contains(code) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate in a \\u escape") }
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
          scalars.append(scalar)
        default: throw error("invalid escape sequence")
        }
        runStart = position
        continue
      }
      position += 1
    }
    throw error("unterminated string")
  }

  private mutating func parseHex4() throws(BulletListError) -> UInt32 {
    guard position + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
    else { throw error("invalid \\u escape") }
    position += 4
    return value
  }

  private mutating func parseNumber() throws(BulletListError) -> Double {
    let start = position
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    func digits(_ p: inout JSONParser) -> Int {
      let s = p.position
      while p.position < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.position]) {
        p.position += 1
      }
      return p.position - s
    }
    guard digits(&self) > 0 else { throw error("invalid number") }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits(&self) > 0 else { throw error("invalid number") }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard digits(&self) > 0 else { throw error("invalid number") }
    }
    guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
      throw error("invalid number")
    }
    return value
  }
}
