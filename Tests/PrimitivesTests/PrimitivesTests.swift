import Foundation
import Primitives
import Testing

@Suite("Colours: the one hex parser and formatter")
struct ColorTests {
  @Test("#RRGGBB and #RRGGBBAA, either case, with or without #")
  func parses() {
    #expect(RGBAColor(hex: "#F16E00") == RGBAColor(red: 0xF1, green: 0x6E, blue: 0x00))
    #expect(RGBAColor(hex: "f16e00") == RGBAColor(red: 0xF1, green: 0x6E, blue: 0x00))
    #expect(RGBAColor(hex: "#000000A3") == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0xA3))
    #expect(RGBAColor(hex: "#ffffffff") == RGBAColor(red: 255, green: 255, blue: 255))
  }

  @Test(
    "malformed hex is nil: lengths, signs, spaces, non-digits",
    arguments: [
      "", "#", "#FFF", "#FFFFF", "#FFFFFFF", "#FFFFFFFFF", "#+FFFFF", "#-FFFFF", "# FFFFF",
      "#GGGGGG",
      "##FFFFFF", "#FFFFFF ", "0xFFFFFF", "#ＦＦＦＦＦＦ",
    ])
  func refuses(_ text: String) {
    #expect(RGBAColor(hex: text) == nil)
  }

  @Test("formatted as upper-case #RRGGBB when opaque, #RRGGBBAA otherwise; JSON is that string")
  func formats() throws {
    #expect(RGBAColor(red: 0xF1, green: 0x6E, blue: 0x00).hex == "#F16E00")
    #expect(RGBAColor(red: 0, green: 0x0A, blue: 0xFF, alpha: 0xA3).hex == "#000AFFA3")
    #expect("\(RGBAColor(red: 1, green: 2, blue: 3))" == "#010203")
    let json = try JSONEncoder().encode([RGBAColor(red: 0xF1, green: 0x6E, blue: 0, alpha: 0x80)])
    #expect(String(decoding: json, as: UTF8.self) == ##"["#F16E0080"]"##)
    #expect(
      try JSONDecoder().decode([RGBAColor].self, from: json) == [
        RGBAColor(red: 0xF1, green: 0x6E, blue: 0, alpha: 0x80)
      ])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([RGBAColor].self, from: Data(##"["#F16E0"]"##.utf8))
    }
  }

  @Test("Hex round-trips bytes; lower case by default (digests), upper on request (colours)")
  func hex() {
    let bytes: [UInt8] = [0x00, 0x0F, 0xA5, 0xFF]
    #expect(Hex.string(bytes) == "000fa5ff")
    #expect(Hex.string(bytes, uppercase: true) == "000FA5FF")
    #expect(Hex.bytes("000fa5FF") == bytes)
    #expect(Hex.bytes("") == [])
    #expect(Hex.bytes("abc") == nil)
    #expect(Hex.bytes("+1") == nil)
    #expect(Hex.bytes("0g") == nil)
  }
}

@Suite("Names: one parser, one leniency rule")
struct NameTests {
  @Test("case, spaces, '-' and '_' do not count")
  func lenient() throws {
    #expect(try ThemeName.parse("orange-compact") == .orangeCompact)
    #expect(try ThemeName.parse("Orange_Compact") == .orangeCompact)
    #expect(try ThemeName.parse(" orange compact ") == .orangeCompact)
    #expect(try ThemeName.parse("ORANGECOMPACT") == .orangeCompact)
    #expect(try ThemeName.parse("Sosh") == .sosh)
    #expect(try ColorMode.parse("Dark") == .dark)
    #expect(try Platform.parse("Android") == .android)
    #expect(try TextStyle.parse("body-medium") == .bodyMedium)
    #expect(try TextStyle.parse("bodyLarge") == .bodyLarge)
    #expect(try LayoutDirection.parse("RTL") == .rtl)
  }

  @Test("an unknown name lists the known ones, escaped and cut to one line")
  func unknown() {
    #expect(throws: UnknownNameError(kind: "theme", name: "foo", known: ThemeName.names)) {
      try ThemeName.parse("foo")
    }
    #expect(
      UnknownNameError(kind: "theme", name: "foo", known: ThemeName.names).description
        == #"unknown theme "foo" (known: orange, orange-compact, sosh, wireframe)"#)
    let dusk = #expect(throws: UnknownNameError.self) { try ColorMode.parse("dusk\u{1B}[31m\nx") }
    #expect(dusk?.description == #"unknown mode "dusk\u{1B}[31m\nx" (known: light, dark)"#)
    let bidi = #expect(throws: UnknownNameError.self) { try ColorMode.parse("a\u{202E}b\u{2028}") }
    #expect(bidi?.description == #"unknown mode "a\u{202E}b\u{2028}" (known: light, dark)"#)
    let long = #expect(throws: UnknownNameError.self) {
      try ColorMode.parse(String(repeating: "é", count: 500))
    }
    #expect(
      long?.description
        == "unknown mode \"\(String(repeating: "é", count: 80))…\" (known: light, dark)")
    #expect(throws: UnknownNameError.self) { try ThemeName.parse("") }
  }

  @Test("the names, their token names and display names")
  func names() {
    #expect(ThemeName.names == ["orange", "orange-compact", "sosh", "wireframe"])
    #expect(ColorMode.names == ["light", "dark"])
    #expect(Platform.names == ["ios", "android"])
    #expect(TextStyle.allCases.map(\.tokenName) == ["body-large", "body-medium"])
    #expect(ThemeName.orangeCompact.displayName == "Orange Compact")
    #expect(Platform.ios.displayName == "iOS")
  }
}

@Suite("Pixel scale and geometry")
struct ScaleAndGeometryTests {
  @Test("one scale range, 1 to 3, in words for messages")
  func scale() {
    #expect(PixelScale.supported == 1...3)
    #expect(PixelScale.choices == "1, 2 or 3")
    #expect(PixelScale.supported.contains(PixelScale.standard))
  }

  @Test("rects and points encode with 2 decimals and never -0")
  func hundredths() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let rect = Rect(x: 1.005_1, y: -0.001, width: 10.126, height: 2)
    #expect(
      String(decoding: try encoder.encode(rect), as: UTF8.self)
        == #"{"height":2,"width":10.13,"x":1.01,"y":0}"#)
    #expect(
      String(decoding: try encoder.encode(Point(x: 0.333, y: 2.5)), as: UTF8.self)
        == #"{"x":0.33,"y":2.5}"#)
    #expect(rect.offsetBy(dx: 1, dy: 2) == Rect(x: 2.005_1, y: 1.999, width: 10.126, height: 2))
    #expect(Rect(x: 10, y: 0, width: 20, height: 5).mirrored(inCanvasWidth: 100).x == 70)
  }

  @Test("a marker shape is its name in JSON; decoded, it has no outline")
  func markerShape() throws {
    let square = MarkerShape(
      name: "orange.square",
      outline: VectorOutline(
        viewBox: Rect(x: 0, y: 0, width: 24, height: 24),
        paths: [
          VectorPath(commands: [
            .move(to: Point(x: 4, y: 4)), .line(to: Point(x: 20, y: 4)), .close,
          ])
        ]))
    let json = try JSONEncoder().encode([square])
    #expect(String(decoding: json, as: UTF8.self) == #"["orange.square"]"#)
    let decoded = try JSONDecoder().decode([MarkerShape].self, from: json)
    #expect(decoded.first?.name == "orange.square" && decoded.first?.outline.paths.isEmpty == true)
  }
}
