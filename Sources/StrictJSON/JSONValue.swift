import SafeInput

/// A parsed JSON value that keeps object members in document order and tells booleans from
/// numbers; shared by the list reader, the token loader and the snapshot catalogue.
public enum JSONValue: Sendable, Hashable {
  /// An object, members in document order.
  case object([(key: String, value: JSONValue)])
  /// An array.
  case array([JSONValue])
  /// A string.
  case string(String)
  /// A number.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// Compares two values, objects member by member in order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    case (.array(let a), .array(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.null, .null): true
    default: false
    }
  }

  /// Hashes the value, objects member by member in order.
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

  /// The members of an object, or nil.
  public var members: [(key: String, value: JSONValue)]? {
    if case .object(let m) = self { return m }
    return nil
  }

  /// The value of member `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let m) = self else { return nil }
    return m.first(where: { $0.key == key })?.value
  }

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The number, when this is a number.
  public var numberValue: Double? {
    if case .number(let n) = self { return n }
    return nil
  }

  /// A short name of the JSON kind, for error messages ("a string", "an object"…).
  public var kindName: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}

/// Why a JSON text could not be parsed, with the 1-based line and column.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Line of the problem, from 1.
  public var line: Int
  /// Column of the problem, from 1, counted in characters.
  public var column: Int
  /// What is wrong.
  public var reason: String

  /// Creates a syntax error.
  public init(line: Int, column: Int, reason: String) {
    self.line = line
    self.column = column
    self.reason = reason
  }

  /// `malformed JSON at line L, column C: reason`.
  public var description: String { "malformed JSON at line \(line), column \(column): \(reason)" }
}

/// The line where each member and array element of a JSON document starts, by path: `""` for the
/// root, `key`, `key.inner`, `items[1].label` (the path syntax of list errors).
public struct JSONLineMap: Hashable, Sendable {
  /// The 1-based line of each path.
  public var lines: [String: Int]

  /// Creates a map.
  public init(lines: [String: Int]) {
    self.lines = lines
  }

  /// The line of `path`, else of the nearest enclosing path that has one (`a.b[2]` → `a.b` →
  /// `a` → the root), else nil.
  public func line(of path: String) -> Int? {
    var current = Substring(path)
    while true {
      if let line = lines[String(current)] { return line }
      guard !current.isEmpty else { return nil }
      if current.last == "]", let open = current.lastIndex(of: "[") {
        current = current[..<open]
      } else if let dot = current.lastIndex(of: ".") {
        current = current[..<dot]
      } else {
        current = ""
      }
    }
  }
}

/// A small strict JSON parser (RFC 8259) that reports line numbers and rejects duplicate keys.
public struct JSONParser {
  private let bytes: [UInt8]
  private var index = 0

  /// Parses a complete JSON document given as text.
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  /// Parses a complete JSON document given as UTF-8 bytes (a byte order mark is skipped).
  ///
  /// - Parameter maxValues: the most values (objects, arrays, strings, numbers, literals) the
  ///   document may hold. A parsed value takes some 30 bytes whatever its text, so a large file
  ///   of tiny values (`[0,0,0,…]`) takes about 15 times its size in memory: a reader of large
  ///   files bounds the count, not only the size.
  public static func parse(_ data: [UInt8], maxValues: Int = .max) throws(JSONSyntaxError)
    -> JSONValue
  {
    var parser = JSONParser(bytes: data)
    parser.valueLimit = maxValues
    parser.valuesLeft = maxValues
    if data.starts(with: byteOrderMark) { parser.index = byteOrderMark.count }
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    if parser.index < parser.bytes.count {
      throw parser.error("unexpected text after the JSON value")
    }
    return value
  }

  /// Parses a complete JSON document and notes the line where each member and array element
  /// starts, by path (see ``JSONLineMap``).
  public static func parseWithLines(_ text: String) throws(JSONSyntaxError)
    -> (value: JSONValue, lines: JSONLineMap)
  {
    var parser = JSONParser(bytes: Array(text.utf8))
    parser.lines = [:]
    if parser.bytes.starts(with: byteOrderMark) { parser.index = byteOrderMark.count }
    parser.skipWhitespace()
    parser.note("")
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    if parser.index < parser.bytes.count {
      throw parser.error("unexpected text after the JSON value")
    }
    return (value, JSONLineMap(lines: parser.lines ?? [:]))
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  /// The most values the document may hold (``parse(_:maxValues:)``), and how many more it may.
  private var valueLimit = Int.max
  private var valuesLeft = Int.max

  /// With ``parseWithLines(_:)``: the line of each path noted so far, the path of the value being
  /// parsed, and the line and byte offset reached by the line count.
  private var lines: [String: Int]?
  private var path = ""
  private var countedLine = 1
  private var countedOffset = 0

  /// Notes that the value at `path` starts at byte `offset`, by default the current position
  /// (only with ``parseWithLines(_:)``); a member is noted at its key.
  private mutating func note(_ path: String, at offset: Int? = nil) {
    guard lines != nil else { return }
    // Values are noted in document order, so the line count only moves forward.
    while countedOffset < min(offset ?? index, bytes.count) {
      if bytes[countedOffset] == UInt8(ascii: "\n") { countedLine += 1 }
      countedOffset += 1
    }
    lines?[path] = countedLine
    self.path = path
  }

  /// The UTF-8 byte order mark, skipped at the start of a document.
  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  private func error(_ reason: String, at position: Int? = nil) -> JSONSyntaxError {
    let end = min(position ?? index, bytes.count)
    var line = 1
    var column = 1
    // A byte order mark is invisible in an editor: it is not a column.
    let first = bytes.starts(with: Self.byteOrderMark) ? min(Self.byteOrderMark.count, end) : 0
    for i in first..<end {
      if bytes[i] == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if bytes[i] & 0xC0 != 0x80 {
        column += 1
      }
    }
    return JSONSyntaxError(line: line, column: column, reason: reason)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private func describeCurrent() -> String {
    guard index < bytes.count else { return "end of file" }
    let b = bytes[index]
    if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
    return "byte 0x\(String(b, radix: 16))"
  }

  private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth < 512 else { throw error("nesting deeper than 512 levels") }
    guard valuesLeft > 0 else {
      throw error("more than \(valueLimit) values, the limit for this file")
    }
    valuesLeft -= 1
    guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectWord("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectWord("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectWord("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("expected a value, found \(describeCurrent())")
    }
  }

  private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
    let w = Array(word.utf8)
    guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
      throw error("expected a value, found \(describeCurrent())")
    }
    index += w.count
  }

  private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    var seen = Set<String>()
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a member name in quotes, found \(describeCurrent())")
      }
      let keyStart = index
      let key = try parseString()
      guard seen.insert(key).inserted else {
        throw error("duplicate key \(MessageText.quoted(key))", at: keyStart)
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':' after \(MessageText.quoted(key)), found \(describeCurrent())")
      }
      index += 1
      skipWhitespace()
      let parent = path
      if lines != nil { note(parent.isEmpty ? key : parent + "." + key, at: keyStart) }
      let value = try parseValue(depth: depth + 1)
      path = parent
      members.append((key, value))
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      throw error("expected ',' or '}', found \(describeCurrent())")
    }
  }

  private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    index += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    let parent = path
    while true {
      skipWhitespace()
      if lines != nil { note(parent + "[\(items.count)]") }
      items.append(try parseValue(depth: depth + 1))
      path = parent
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      throw error("expected ',' or ']', found \(describeCurrent())")
    }
  }

  private mutating func parseString() throws(JSONSyntaxError) -> String {
    let start = index
    index += 1
    var out: [UInt8] = []
    while true {
      guard index < bytes.count else { throw error("unterminated string", at: start) }
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        index += 1
        break
      }
      if b < 0x20 { throw error("control character in a string") }
      if b != UInt8(ascii: "\\") {
        out.append(b)
        index += 1
        continue
      }
      index += 1
      guard index < bytes.count else { throw error("unterminated string", at: start) }
      let e = bytes[index]
      index += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        // Errors point at the backslash of the escape.
        let escapeStart = index - 2
        var code = try parseHex4()
        if (0xD800..<0xDC00).contains(code) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else { throw error("unpaired surrogate in \\u escape", at: escapeStart) }
          index += 2
          let low = try parseHex4()
          guard (0xDC00..<0xE000).contains(low) else {
            throw error("unpaired surrogate in \\u escape", at: escapeStart)
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
          throw error("unpaired surrogate in \\u escape", at: escapeStart)
        }
        guard let scalar = UnicodeScalar(code) else {
          throw error("invalid \\u escape", at: escapeStart)
        }
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
      default:
        throw error("invalid escape '\\\(Character(UnicodeScalar(e)))'", at: index - 2)
      }
    }
    guard let s = String(validating: out, as: UTF8.self) else {
      throw error("string is not valid UTF-8", at: start)
    }
    return s
  }

  private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[index]
      let d: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
      default: throw error("invalid hex digit in \\u escape")
      }
      v = v * 16 + d
      index += 1
    }
    return v
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = index
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else {
      throw error("invalid number", at: start)
    }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw error("invalid number", at: start)
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw error("invalid number", at: start)
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text) else { throw error("invalid number", at: start) }
    // Valid JSON, but beyond what a Double holds (about ±1.8e308).
    guard value.isFinite else { throw error("number out of range", at: start) }
    return value
  }
}
