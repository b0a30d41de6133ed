/// An element of a document read by ``StrictXML``.
struct XMLElement: Sendable {
  /// The name as written, prefix included (`android:pathData` style names are kept whole).
  var name: String
  /// The attributes in document order, values with their references replaced.
  var attributes: [XMLAttribute]
  /// The child elements in document order.
  var children: [XMLElement]
  /// The 1-based line of the element's `<`.
  var line: Int
  /// The first text (not white space) directly inside the element, with its line; the asset
  /// readers refuse it, after they have checked the element itself.
  var text: (line: Int, excerpt: String)? = nil
}

/// An attribute of an ``XMLElement``.
struct XMLAttribute: Sendable {
  /// The name as written, prefix included.
  var name: String
  /// The value, references replaced and white space normalised as XML 1.0 does.
  var value: String
  /// The 1-based line the attribute's name is on.
  var line: Int
}

/// A small, strict reader for the XML of asset files: elements, attributes, comments and white
/// space, nothing else.
///
/// Refused, each with the line: a DOCTYPE (so no DTD and no entity can be declared), entity
/// references other than the five predefined ones, CDATA sections, processing instructions other
/// than the leading XML declaration, text, an encoding other than UTF-8, control characters,
/// elements nested deeper than ``maximumDepth``. Namespaces are not resolved: names keep their
/// prefix, and the asset readers check the `xmlns` declarations themselves.
struct StrictXML {
  /// The deepest element nesting accepted.
  static let maximumDepth = 16

  private let bytes: [UInt8]
  private var index = 0
  /// Offsets of every line feed, for turning an offset into a line number.
  private let newlines: [Int]

  private init(bytes: [UInt8]) {
    self.bytes = bytes
    var newlines: [Int] = []
    for (offset, byte) in bytes.enumerated() where byte == 0x0A { newlines.append(offset) }
    self.newlines = newlines
  }

  /// Reads a whole document and returns its root element.
  static func parse(_ bytes: [UInt8]) throws(VectorAssetError) -> XMLElement {
    var reader = StrictXML(bytes: bytes)
    return try reader.document()
  }

  // MARK: Document

  private mutating func document() throws(VectorAssetError) -> XMLElement {
    try checkCharacters()
    if starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
    if starts(with: "<?xml") && index + 5 < bytes.count && isSpace(bytes[index + 5]) {
      try declaration()
    }
    var root: XMLElement?
    while true {
      skipSpace()
      guard index < bytes.count else { break }
      if try miscellany() { continue }
      guard starts(with: "<") else {
        throw textError()
      }
      guard root == nil else { throw fail("a second root element; an asset file has one root") }
      root = try element(depth: 1)
    }
    guard let root else { throw fail("no root element", at: bytes.count) }
    return root
  }

  /// Every byte sequence is UTF-8 and every character is one XML 1.0 allows.
  private func checkCharacters() throws(VectorAssetError) {
    guard String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes) else {
      throw VectorAssetError(message: "is not UTF-8 text")
    }
    for (offset, byte) in bytes.enumerated()
    where byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
      throw fail(
        "control character \\u{\(String(byte, radix: 16, uppercase: true))} is not allowed in XML",
        at: offset)
    }
  }

  /// `<?xml version="1.0" encoding="UTF-8" standalone="…"?>`.
  private mutating func declaration() throws(VectorAssetError) {
    index += 5
    while true {
      skipSpace()
      if starts(with: "?>") {
        index += 2
        return
      }
      let attribute = try self.attribute()
      switch attribute.name {
      case "version":
        guard attribute.value == "1.0" else {
          throw fail(
            "XML version \(Echo.quoted(attribute.value)) is not supported (use 1.0)",
            line: attribute.line)
        }
      case "encoding":
        guard attribute.value.lowercased() == "utf-8" else {
          throw fail(
            "encoding \(Echo.quoted(attribute.value)) is not supported (use UTF-8)",
            line: attribute.line)
        }
      case "standalone":
        break
      default:
        throw fail(
          "unknown XML declaration attribute \(Echo.value(attribute.name))", line: attribute.line)
      }
    }
  }

  /// Skips a comment, or refuses a DOCTYPE, CDATA section, processing instruction or other
  /// markup declaration; returns false when the next thing is none of these.
  private mutating func miscellany() throws(VectorAssetError) -> Bool {
    if starts(with: "<!--") {
      try comment()
      return true
    }
    if starts(with: "<!DOCTYPE") {
      throw fail("<!DOCTYPE> is not allowed (no DTD, no entities in an asset file)")
    }
    if starts(with: "<![CDATA[") {
      throw fail("CDATA section is not allowed (an asset file has no text)")
    }
    if starts(with: "<!") {
      throw fail("markup declaration <!…> is not allowed (no DTD, no entities in an asset file)")
    }
    if starts(with: "<?") {
      index += 2
      let target = (try? name()) ?? ""
      throw fail("processing instruction <?\(Echo.value(target))?> is not allowed")
    }
    return false
  }

  private mutating func comment() throws(VectorAssetError) {
    let start = index
    index += 4
    while index < bytes.count {
      if starts(with: "--") {
        guard starts(with: "-->") else {
          throw fail("\"--\" inside a comment is not allowed in XML")
        }
        index += 3
        return
      }
      index += 1
    }
    throw fail("comment is not closed", at: start)
  }

  // MARK: Elements

  private mutating func element(depth: Int) throws(VectorAssetError) -> XMLElement {
    let start = index
    index += 1
    let name = try self.name()
    guard depth <= Self.maximumDepth else {
      throw fail("elements are nested deeper than \(Self.maximumDepth) levels", at: start)
    }
    var element = XMLElement(name: name, attributes: [], children: [], line: line(at: start))
    while true {
      let spaced = skipSpace()
      if starts(with: "/>") {
        index += 2
        return element
      }
      if starts(with: ">") {
        index += 1
        break
      }
      guard spaced else { throw expected("white space, '>' or '/>' after <\(Echo.value(name))") }
      let attribute = try self.attribute()
      if element.attributes.contains(where: { $0.name == attribute.name }) {
        throw fail(
          "attribute \(Echo.value(attribute.name)) appears twice on <\(Echo.value(name))>",
          line: attribute.line)
      }
      element.attributes.append(attribute)
    }
    while true {
      guard index < bytes.count else {
        throw fail("element <\(Echo.value(name))> is not closed", at: start)
      }
      if starts(with: "</") {
        index += 2
        let closing = try self.name()
        guard closing == name else {
          throw fail(
            "</\(Echo.value(closing))> closes <\(Echo.value(name))> (line \(element.line))")
        }
        skipSpace()
        guard starts(with: ">") else { throw expected("'>' after </\(Echo.value(closing))") }
        index += 1
        return element
      }
      if try miscellany() { continue }
      if starts(with: "<") {
        element.children.append(try self.element(depth: depth + 1))
      } else if isSpace(bytes[index]) {
        index += 1
      } else if bytes[index] == 0x26 {
        let start = index
        let character = try reference()
        if !character.unicodeScalars.allSatisfy({
          $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r"
        }),
          element.text == nil
        {
          element.text = (line(at: start), excerpt(from: start))
        }
      } else {
        if element.text == nil { element.text = (line(at: index), excerpt(from: index)) }
        while index < bytes.count, bytes[index] != 0x3C, bytes[index] != 0x26 { index += 1 }
      }
    }
  }

  private mutating func attribute() throws(VectorAssetError) -> XMLAttribute {
    let line = line(at: index)
    let name = try self.name()
    skipSpace()
    guard starts(with: "=") else { throw expected("'=' after the attribute \(Echo.value(name))") }
    index += 1
    skipSpace()
    guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else {
      throw expected("a quoted value for the attribute \(Echo.value(name))")
    }
    let quote = bytes[index]
    index += 1
    var value: [UInt8] = []
    while true {
      guard index < bytes.count else {
        throw fail("the value of \(Echo.value(name)) is not closed", line: line)
      }
      let byte = bytes[index]
      if byte == quote {
        index += 1
        break
      }
      switch byte {
      case 0x3C: throw fail("'<' inside the value of \(Echo.value(name))")
      case 0x26: value += Array(try reference().utf8)
      case 0x09, 0x0A, 0x0D:
        value.append(0x20)
        index += 1
      default:
        value.append(byte)
        index += 1
      }
    }
    return XMLAttribute(name: name, value: String(decoding: value, as: UTF8.self), line: line)
  }

  /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#N;` `&#xN;`; any other entity is refused.
  private mutating func reference() throws(VectorAssetError) -> String {
    let start = index
    index += 1
    var body: [UInt8] = []
    while index < bytes.count, bytes[index] != 0x3B, body.count <= 12 {
      body.append(bytes[index])
      index += 1
    }
    let text = String(decoding: body, as: UTF8.self)
    guard index < bytes.count, bytes[index] == 0x3B else {
      throw fail("'&' must start a reference such as &amp;", at: start)
    }
    index += 1
    switch text {
    case "lt": return "<"
    case "gt": return ">"
    case "amp": return "&"
    case "quot": return "\""
    case "apos": return "'"
    default: break
    }
    if text.hasPrefix("#") {
      let hex = text.hasPrefix("#x")
      let digits = text.dropFirst(hex ? 2 : 1)
      if let code = UInt32(digits, radix: hex ? 16 : 10), !digits.isEmpty,
        digits.allSatisfy({ $0.isHexDigit }), let scalar = Unicode.Scalar(code),
        code == 0x09 || code == 0x0A || code == 0x0D || code >= 0x20, code != 0xFFFE, code != 0xFFFF
      {
        return String(Character(scalar))
      }
      throw fail(
        "character reference &\(Echo.value(text)); is not a valid XML character", at: start)
    }
    throw fail(
      "entity reference &\(Echo.value(text)); is not allowed (only &lt; &gt; &amp; &quot; &apos; and &#…; character references)",
      at: start)
  }

  /// An XML name in ASCII: a letter, `_` or `:`, then letters, digits, `_`, `:`, `.` or `-`.
  private mutating func name() throws(VectorAssetError) -> String {
    let start = index
    while index < bytes.count {
      let b = bytes[index]
      let letter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x3A
      let other = (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x2D
      guard letter || (other && index > start) else { break }
      index += 1
    }
    guard index > start else { throw expected("a name") }
    guard index - start <= 200 else { throw fail("a name longer than 200 characters", at: start) }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  // MARK: Helpers

  @discardableResult
  private mutating func skipSpace() -> Bool {
    let start = index
    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    return index > start
  }

  private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private func starts(with prefix: String) -> Bool { starts(with: Array(prefix.utf8)) }

  private func starts(with prefix: [UInt8]) -> Bool {
    guard index + prefix.count <= bytes.count else { return false }
    for (offset, byte) in prefix.enumerated() where bytes[index + offset] != byte { return false }
    return true
  }

  /// The 1-based line of a byte offset.
  private func line(at offset: Int) -> Int {
    var low = 0
    var high = newlines.count
    while low < high {
      let mid = (low + high) / 2
      if newlines[mid] < offset { low = mid + 1 } else { high = mid }
    }
    return low + 1
  }

  private func fail(_ message: String, at offset: Int? = nil) -> VectorAssetError {
    VectorAssetError(line: line(at: offset ?? index), message: message)
  }

  private func fail(_ message: String, line: Int) -> VectorAssetError {
    VectorAssetError(line: line, message: message)
  }

  /// Text where only markup may be (outside the root element).
  private func textError() -> VectorAssetError {
    fail(
      "text \(Echo.quoted(excerpt(from: index))) is not allowed (an asset file holds only elements)"
    )
  }

  /// The text from `offset` up to the next `<`, trailing white space removed (at most 200 bytes).
  private func excerpt(from offset: Int) -> String {
    var end = offset
    while end < bytes.count, bytes[end] != 0x3C, end - offset < 200 { end += 1 }
    var slice = bytes[offset..<end]
    while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
    return String(decoding: slice, as: UTF8.self)
  }

  private func expected(_ what: String) -> VectorAssetError {
    let found: String
    if index >= bytes.count {
      found = "the end of the file"
    } else {
      let end = min(bytes.count, index + 4)
      let character =
        String(decoding: bytes[index..<end], as: UTF8.self).first.map { String($0) } ?? "?"
      found = "'\(Echo.value(character))'"
    }
    return fail("malformed XML: expected \(what), found \(found)")
  }
}
