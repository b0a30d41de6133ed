import StrictJSON
import Testing

/// A JSON text the parser must accept, and the value it must give.
struct Accepted: Sendable, CustomTestStringConvertible {
  var name: String
  var input: [UInt8]
  var value: JSONValue
  var testDescription: String { name }

  init(_ name: String, _ text: String, _ value: JSONValue) {
    self.init(name, bytes: Array(text.utf8), value)
  }

  init(_ name: String, bytes: [UInt8], _ value: JSONValue) {
    self.name = name
    input = bytes
    self.value = value
  }
}

/// A JSON text the parser must refuse, with the exact line, column and reason of the error.
struct Rejected: Sendable, CustomTestStringConvertible {
  var name: String
  var input: [UInt8]
  var line: Int
  var column: Int
  var reason: String
  var testDescription: String { name }

  init(_ name: String, _ text: String, line: Int = 1, column: Int, _ reason: String) {
    self.init(name, bytes: Array(text.utf8), line: line, column: column, reason)
  }

  init(_ name: String, bytes: [UInt8], line: Int = 1, column: Int, _ reason: String) {
    self.name = name
    input = bytes
    self.line = line
    self.column = column
    self.reason = reason
  }
}

/// Nests `depth` arrays: `[[[…]]]`.
func nestedArrays(_ depth: Int) -> String {
  String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
}

/// `value` inside `depth` arrays.
func nested(_ value: JSONValue, _ depth: Int) -> JSONValue {
  (0..<depth).reduce(value) { inner, _ in .array([inner]) }
}

@Suite("StrictJSON: RFC 8259, accepted")
struct StrictJSONAcceptTests {
  static let table: [Accepted] = [
    // Numbers: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    Accepted("zero", "0", .number(0)),
    Accepted("minus zero", "-0", .number(-0.0)),
    Accepted("integer", "42", .number(42)),
    Accepted("negative integer", "-17", .number(-17)),
    Accepted("fraction", "0.25", .number(0.25)),
    Accepted("negative fraction", "-1.5", .number(-1.5)),
    Accepted("exponent", "1e2", .number(100)),
    Accepted("capital exponent with sign", "2E+3", .number(2000)),
    Accepted("negative exponent", "25e-2", .number(0.25)),
    Accepted("fraction and exponent", "-1.25e1", .number(-12.5)),
    Accepted("exponent with leading zeros", "1e007", .number(10_000_000)),
    Accepted(
      "integer beyond 2^53 is rounded", "123456789012345678901234567890",
      .number(1.2345678901234568e29)),
    Accepted("largest double", "1.7976931348623157e308", .number(.greatestFiniteMagnitude)),
    Accepted("300 digits", "1" + String(repeating: "0", count: 300), .number(1e300)),
    Accepted("underflow rounds to zero", "1e-400", .number(0)),
    Accepted("smallest subnormal", "5e-324", .number(.leastNonzeroMagnitude)),
    // Literals and whitespace (space, tab, line feed, carriage return only).
    Accepted("true", "true", .bool(true)),
    Accepted("false", "false", .bool(false)),
    Accepted("null", "null", .null),
    Accepted(
      "the four whitespace characters", " \t\r\n[ 1 ,\t2\r\n]\n ", .array([.number(1), .number(2)])),
    // Strings and escapes.
    Accepted("empty string", #""""#, .string("")),
    Accepted(
      "the short escapes", #""\" \\ \/ \b \f \n \r \t""#, .string("\" \\ / \u{8} \u{C} \n \r \t")),
    Accepted("\\u escape", #""\u0041\u00e9\u20AC""#, .string("Aé€")),
    Accepted("\\u0000 is a character", #""a\u0000b""#, .string("a\u{0}b")),
    Accepted("surrogate pair", #""\uD83D\uDE00""#, .string("😀")),
    Accepted("surrogate pair, lowercase hex", #""\ud834\udd1e""#, .string("𝄞")),
    Accepted("UTF-8 as is", #""é 😀 漢""#, .string("é 😀 漢")),
    Accepted("DEL is not a control character for JSON", "\"a\u{7F}b\"", .string("a\u{7F}b")),
    // Structures.
    Accepted("empty object", "{}", .object([])),
    Accepted("empty array", "[ ]", .array([])),
    Accepted(
      "members keep document order", #"{"b": 1, "a": [true, null], "c": {"d": "e"}}"#,
      .object([
        (key: "b", value: .number(1)), (key: "a", value: .array([.bool(true), .null])),
        (key: "c", value: .object([(key: "d", value: .string("e"))])),
      ])),
    Accepted(
      "the same key in two objects", #"[{"a": 1}, {"a": 2}]"#,
      .array([.object([(key: "a", value: .number(1))]), .object([(key: "a", value: .number(2))])])),
    Accepted(
      "a UTF-8 byte order mark is skipped", bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8),
      .object([])),
    Accepted("512 nested arrays (the limit)", nestedArrays(512), nested(.array([]), 511)),
  ]

  @Test("accepted documents give the expected value", arguments: table)
  func accepted(_ row: Accepted) throws {
    let value = try JSONParser.parse(row.input)
    #expect(value == row.value)
  }

  @Test("minus zero keeps its sign")
  func minusZero() throws {
    let value = try #require(try JSONParser.parse("-0").numberValue)
    #expect(value == 0 && value.sign == .minus)
  }

  @Test("the String and the byte entry points agree, byte order mark included")
  func stringEntryPoint() throws {
    #expect(try JSONParser.parse("\u{FEFF}[1]") == .array([.number(1)]))
    #expect(
      try JSONParser.parse(#"{"k": "\u00e9"}"#) == JSONParser.parse(Array(#"{"k": "é"}"#.utf8)))
  }
}

@Suite("StrictJSON: RFC 8259, rejected with line and column")
struct StrictJSONRejectTests {
  static let table: [Rejected] = [
    // Empty input.
    Rejected("empty input", "", column: 1, "unexpected end of file, expected a value"),
    Rejected(
      "only whitespace", "  \n  ", line: 2, column: 3, "unexpected end of file, expected a value"),
    Rejected(
      "only a byte order mark", bytes: [0xEF, 0xBB, 0xBF], column: 1,
      "unexpected end of file, expected a value"),
    Rejected(
      "a byte order mark is not a column", bytes: [0xEF, 0xBB, 0xBF] + Array("[1 2]".utf8),
      column: 4,
      "expected ',' or ']', found '2'"),
    Rejected(
      "a second byte order mark is not whitespace",
      bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8),
      column: 1, "expected a value, found byte 0xef"),
    // Numbers.
    Rejected("leading zero", "01", column: 2, "unexpected text after the JSON value"),
    Rejected("leading zero in an array", "[-012]", column: 4, "expected ',' or ']', found '1'"),
    Rejected("plus sign", "+1", column: 1, "expected a value, found '+'"),
    Rejected("lone minus", "[-]", column: 2, "invalid number"),
    Rejected("minus without digits", "-x", column: 1, "invalid number"),
    Rejected("leading dot", ".5", column: 1, "expected a value, found '.'"),
    Rejected("trailing dot", "[1.]", column: 2, "invalid number"),
    Rejected("dot before exponent", "1.e5", column: 1, "invalid number"),
    Rejected("exponent without digits", "1e", column: 1, "invalid number"),
    Rejected("exponent sign without digits", "1E+", column: 1, "invalid number"),
    Rejected("hexadecimal", "0x1F", column: 2, "unexpected text after the JSON value"),
    Rejected("NaN", "NaN", column: 1, "expected a value, found 'N'"),
    Rejected("Infinity", "[Infinity]", column: 2, "expected a value, found 'I'"),
    Rejected("minus Infinity", "-Infinity", column: 1, "invalid number"),
    Rejected("beyond the largest double", "1.8e308", column: 1, "number out of range"),
    Rejected(
      "400 digits", "[\n  " + "9" + String(repeating: "0", count: 399) + "]", line: 2, column: 3,
      "number out of range"),
    Rejected("huge negative exponent sign", "-1e999", column: 1, "number out of range"),
    // Literals.
    Rejected("truncated literal", "tru", column: 1, "expected a value, found 't'"),
    Rejected("capitalised literal", "True", column: 1, "expected a value, found 'T'"),
    Rejected(
      "literal followed by letters", "nullx", column: 5, "unexpected text after the JSON value"),
    Rejected("single-quoted string", "['a']", column: 2, "expected a value, found '''"),
    // Strings: escapes.
    Rejected("unterminated string", "[\"abc", column: 2, "unterminated string"),
    Rejected("unterminated after a backslash", "\"ab\\", column: 1, "unterminated string"),
    Rejected("unknown escape", #"["a\x"]"#, column: 4, #"invalid escape '\x'"#),
    Rejected("escaped single quote", #""\'""#, column: 2, #"invalid escape '\''"#),
    Rejected("truncated \\u escape", #""\u12"#, column: 4, "truncated \\u escape"),
    Rejected("non-hex digit in \\u", #""\u12G4""#, column: 6, "invalid hex digit in \\u escape"),
    // Strings: surrogates.
    Rejected("lone high surrogate", #"["\uD800"]"#, column: 3, "unpaired surrogate in \\u escape"),
    Rejected(
      "high surrogate then a letter", #""\uD83Dx""#, column: 2, "unpaired surrogate in \\u escape"),
    Rejected(
      "high surrogate then a non-surrogate escape", #""\uD800\u0041""#, column: 2,
      "unpaired surrogate in \\u escape"),
    Rejected(
      "two high surrogates", #""\uD800\uD800""#, column: 2, "unpaired surrogate in \\u escape"),
    Rejected("lone low surrogate", #""ab\uDC00""#, column: 4, "unpaired surrogate in \\u escape"),
    Rejected("reversed pair", #""\uDE00\uD83D""#, column: 2, "unpaired surrogate in \\u escape"),
    // Strings: control characters and bytes that are not UTF-8.
    Rejected(
      "raw line feed in a string", "{\"a\": \"x\ny\"}", column: 9, "control character in a string"),
    Rejected("raw tab in a string", "\"a\tb\"", column: 3, "control character in a string"),
    Rejected(
      "raw NUL in a string", bytes: Array("\"a".utf8) + [0] + Array("\"".utf8), column: 3,
      "control character in a string"),
    Rejected(
      "invalid UTF-8 in a string", bytes: [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], column: 2,
      "string is not valid UTF-8"),
    Rejected(
      "UTF-8-encoded surrogate in a string",
      bytes: Array("\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8), column: 1,
      "string is not valid UTF-8"),
    Rejected(
      "overlong UTF-8 in a string", bytes: [0x22, 0xC0, 0xAF, 0x22], column: 1,
      "string is not valid UTF-8"),
    Rejected(
      "a byte that is not UTF-8 outside strings", bytes: [0x5B, 0xFF, 0x5D], column: 2,
      "expected a value, found byte 0xff"),
    Rejected(
      "a control character outside strings", bytes: [0x5B, 0x01, 0x5D], column: 2,
      "expected a value, found byte 0x1"),
    Rejected(
      "a non-breaking space is not whitespace", "[1,\u{A0}2]", column: 4,
      "expected a value, found byte 0xc2"),
    // Objects and arrays.
    Rejected("trailing comma in an array", "[1, 2,]", column: 7, "expected a value, found ']'"),
    Rejected(
      "trailing comma in an object", "{\n  \"a\": 1,\n}", line: 3, column: 1,
      "expected a member name in quotes, found '}'"),
    Rejected("missing comma", "[1 2]", column: 4, "expected ',' or ']', found '2'"),
    Rejected("missing colon", #"{"a" 1}"#, column: 6, #"expected ':' after "a", found '1'"#),
    Rejected("unquoted key", "{a: 1}", column: 2, "expected a member name in quotes, found 'a'"),
    Rejected("number as key", "{1: 1}", column: 2, "expected a member name in quotes, found '1'"),
    Rejected("unclosed array", "[1, 2", column: 6, "unexpected end of file, expected ',' or ']'"),
    Rejected(
      "unclosed object", #"{"a": 1"#, column: 8, "unexpected end of file, expected ',' or '}'"),
    Rejected("mismatched bracket", "[1}", column: 3, "expected ',' or ']', found '}'"),
    Rejected("two documents", "{} {}", column: 4, "unexpected text after the JSON value"),
    // Duplicate keys, also when spelt differently.
    Rejected("duplicate key", #"{"a": 1, "a": 2}"#, column: 10, #"duplicate key "a""#),
    Rejected(
      "duplicate key on its own line", "{\n  \"id\": 1,\n  \"name\": 2,\n  \"id\": 3\n}", line: 4,
      column: 3, #"duplicate key "id""#),
    Rejected(
      "duplicate key written with an escape", #"{"a": 1, "\u0061": 2}"#, column: 10,
      #"duplicate key "a""#),
    Rejected(
      "duplicate key in a nested object", #"[{"x": {"k": 1, "k": 1}}]"#, column: 17,
      #"duplicate key "k""#),
    // Comments are not JSON.
    Rejected("line comment", "// note\n{}", column: 1, "expected a value, found '/'"),
    Rejected(
      "block comment inside an object", "{\"a\": 1 /* note */}", column: 9,
      "expected ',' or '}', found '/'"),
    Rejected("hash comment", "[1] # note", column: 5, "unexpected text after the JSON value"),
    // Depth.
    Rejected("513 nested arrays", nestedArrays(513), column: 513, "nesting deeper than 512 levels"),
    Rejected(
      "deep objects",
      String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600),
      column: 2561,
      "nesting deeper than 512 levels"),
    // Columns count characters, not bytes; lines count line feeds (CR LF too).
    Rejected(
      "column after multi-byte characters", #"{"é😀漢": 1 x}"#, column: 11,
      "expected ',' or '}', found 'x'"),
    Rejected(
      "CR LF line ends", "{\r\n  \"a\": 1\r\n  \"b\": 2\r\n}", line: 3, column: 3,
      "expected ',' or '}', found '\"'"),
  ]

  @Test("rejected documents name the line, the column and the reason", arguments: table)
  func rejected(_ row: Rejected) {
    #expect(throws: JSONSyntaxError(line: row.line, column: row.column, reason: row.reason)) {
      try JSONParser.parse(row.input)
    }
  }

  @Test("the message is 'malformed JSON at line L, column C: reason'")
  func message() {
    #expect(
      JSONSyntaxError(line: 3, column: 7, reason: "expected ',' or ']', found '{'").description
        == "malformed JSON at line 3, column 7: expected ',' or ']', found '{'")
  }

  @Test("a very deep document fails at the limit, without exhausting the stack")
  func veryDeep() {
    let text = String(repeating: "[", count: 1_000_000)
    #expect(throws: JSONSyntaxError(line: 1, column: 513, reason: "nesting deeper than 512 levels"))
    {
      try JSONParser.parse(text)
    }
  }

  @Test("parseWithLines gives the same value and the line of every member and element, by path")
  func lines() throws {
    let text =
      "{\n  \"a\": 1,\n  \"b\": {\"c\": [\n    true,\n\n    {\"d\": null}]},\n  \"e.f\":\n    2\n}"
    let (value, map) = try JSONParser.parseWithLines(text)
    #expect(value == (try JSONParser.parse(text)))
    #expect(
      map.lines == [
        "": 1, "a": 2, "b": 3, "b.c": 3, "b.c[0]": 4, "b.c[1]": 6, "b.c[1].d": 6, "e.f": 7,
      ])
    #expect(map.line(of: "b.c[1].d.missing") == 6)
    #expect(map.line(of: "b.c[7]") == 3)
    #expect(map.line(of: "zzz") == 1)
    let expected = JSONSyntaxError(line: 2, column: 1, reason: "expected ',' or '}', found '\"'")
    #expect(throws: expected) { try JSONParser.parseWithLines("{\"a\": 1\n\"b\": 2}") }
  }

  @Test("a value budget counts every value, containers too, and refuses the first one over it")
  func valueBudget() throws {
    // the array, 1, the inner array, 2, 3, the object, 4: seven values
    let bytes = Array(#"[1, [2, 3], {"a": 4}]"#.utf8)
    #expect(try JSONParser.parse(bytes, maxValues: 7) == JSONParser.parse(bytes))
    #expect(
      throws: JSONSyntaxError(
        line: 1, column: 19, reason: "more than 6 values, the limit for this file")
    ) {
      try JSONParser.parse(bytes, maxValues: 6)
    }
  }
}
