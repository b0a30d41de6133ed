import Foundation
import Primitives
import StrictJSON
import Testing

@testable import Themes

/// Friendlier token editing: a colour by `hex` alone or by `components` alone, the components
/// that match a hex when both disagree, and a warning when two padding levels collapse.
@Suite("Token editing: hex or components, collapsed paddings")
struct TokenEditingTests {
  /// `color.raw.functional.white` as written in core/color.tokens.json.
  static let white =
    "\"colorSpace\": \"srgb\",\n            \"components\": [\n              1,\n              1,\n              1\n            ],\n            \"hex\": \"#FFFFFF\""

  func whiteCopy(_ value: String) throws -> URL {
    try Fixture.modifiedCopy(of: "core/color.tokens.json", replacing: [(Self.white, value)])
  }

  @Test("the white token is where the tests expect it")
  func fixture() throws {
    let text = try String(
      contentsOf: Fixture.themesDirectory.appendingPathComponent("core/color.tokens.json"),
      encoding: .utf8)
    #expect(text.contains(Self.white))
  }

  @Test("hex alone: the components are derived (colorSpace may be left out too)")
  func hexAlone() throws {
    for value in [##""hex": "#F16E00""##, ##""colorSpace": "srgb", "hex": "#f16e00""##] {
      let dir = try whiteCopy(value)
      let library = try ThemeLibrary(directory: dir)
      // Orange light's color.bg.primary aliases color.raw.functional.white.
      #expect(try library.theme(.orange, mode: .light).colors.backgroundPrimary.hex == "#F16E00")
      let token = try #require(
        try library.tokens(.orange, mode: .light).first { $0.path == "color.raw.functional.white" })
      #expect(token.value == .color(RGBAColor(red: 0xF1, green: 0x6E, blue: 0)))
    }
  }

  @Test("components alone: the hex is derived; alpha still applies")
  func componentsAlone() throws {
    let dir = try whiteCopy(
      ##""colorSpace": "srgb", "components": [0.9451, 0.4314, 0], "alpha": 0.5"##)
    let colors = try ThemeLibrary(directory: dir).theme(.orange, mode: .light).colors
    #expect(colors.backgroundPrimary == RGBAColor(red: 0xF1, green: 0x6E, blue: 0, alpha: 0x80))
  }

  @Test(
    "hex and components that disagree: the error names file and token and gives the matching components"
  )
  func disagreement() throws {
    let dir = try whiteCopy(##""colorSpace": "srgb", "components": [1, 1, 1], "hex": "#F16E00""##)
    let error = Fixture.error { () throws(ThemeError) in
      try ThemeLibrary(directory: dir).theme(.sosh, mode: .dark)
    }
    #expect(
      error?.description
        == "core/color.tokens.json: color.raw.functional.white: hex #F16E00 does not match components [1.0, 1.0, 1.0] (#FFFFFF); the components of #F16E00 are [0.9451, 0.4314, 0]"
    )
    // The components the message gives are accepted with that hex.
    let fixed = try whiteCopy(
      ##""colorSpace": "srgb", "components": [0.9451, 0.4314, 0], "hex": "#F16E00""##)
    #expect(
      try ThemeLibrary(directory: fixed).theme(.orange, mode: .light).colors.backgroundPrimary.hex
        == "#F16E00")
  }

  @Test("the components given for a hex give back every byte 0…255")
  func componentsRoundTrip() throws {
    for byte in 0...255 {
      let color = RGBAColor(red: UInt8(byte), green: UInt8(255 - byte), blue: UInt8(byte / 2))
      let text = TokenValueParser.componentsText(of: color)
      let numbers = text.dropFirst().dropLast().split(separator: ", ").compactMap { Double($0) }
      #expect(numbers.count == 3)
      let bytes = numbers.map { UInt8(($0 * 255).rounded()) }
      #expect(bytes == [color.red, color.green, color.blue], "\(text) for \(color.hex)")
    }
  }

  @Test(
    "neither hex nor components, or components without a colour space, is an error naming the token"
  )
  func incomplete() throws {
    let neither = try whiteCopy(##""colorSpace": "srgb""##)
    #expect(
      Fixture.error { () throws(ThemeError) in
        try ThemeLibrary(directory: neither).theme(.orange, mode: .light)
      }?.description
        == "core/color.tokens.json: color.raw.functional.white: a color needs \"hex\" (\"#RRGGBB\") or \"colorSpace\": \"srgb\" with \"components\" (three numbers from 0 to 1)"
    )
    let noSpace = try whiteCopy(##""components": [1, 1, 1]"##)
    #expect(
      Fixture.error { () throws(ThemeError) in
        try ThemeLibrary(directory: noSpace).theme(.orange, mode: .light)
      }?.description
        == "core/color.tokens.json: color.raw.functional.white: a color with \"components\" needs \"colorSpace\": \"srgb\" (or write \"hex\" alone)"
    )
    let short = try whiteCopy(##""hex": "#FFF""##)
    #expect(
      Fixture.error { () throws(ThemeError) in
        try ThemeLibrary(directory: short).theme(.orange, mode: .light)
      }?.description
        == "core/color.tokens.json: color.raw.functional.white: invalid hex \"#FFF\" (expected \"#RRGGBB\")"
    )
  }

  @Test("the shipped paddings grow with the level: no warning")
  func shippedPaddings() throws {
    let library = try Fixture.loadLibrary()
    for name in ThemeName.allCases {
      for mode in ColorMode.allCases { #expect(library.warnings(name, mode: mode).isEmpty) }
    }
  }

  @Test("padding level 1 equal to level 0 is a warning naming both tokens, their values and files")
  func collapsedPadding() throws {
    let dir = try Fixture.modifiedCopy(
      of: "components/bullet-list.tokens.json",
      replacing: [(##""$value": "{dimension.450}""##, ##""$value": "{dimension.50}""##)])
    let library = try ThemeLibrary(directory: dir)
    let theme = try library.theme(.orange, mode: .light)
    #expect(theme.paddingInline[level: 1] == theme.paddingInline[level: 0])
    let expected =
      "components/bullet-list.tokens.json: bullet-list.space.padding-inline.level-1: \(Int(theme.paddingInline[level: 0])) px (from dimension.50 in core/dimension.tokens.json) is the same indent as bullet-list.space.padding-inline.level-0 (\(Int(theme.paddingInline[level: 0])) px in components/bullet-list.tokens.json, from dimension.50 in core/dimension.tokens.json): rows of levels 0 and 1 collapse into one indent"
    for name in ThemeName.allCases {
      for mode in ColorMode.allCases { #expect(library.warnings(name, mode: mode) == [expected]) }
    }
  }

  @Test("padding level 2 below level 1 is a warning too; it names the brand file that sets it")
  func invertedPadding() throws {
    let dir = try Fixture.modifiedCopy(
      of: "brands/sosh/brand.tokens.json",
      replacing: [
        (
          "  \"space\": {",
          "  \"bullet-list\": {\"space\": {\"padding-inline\": {\"level-2\": {\"$type\": \"dimension\", \"$value\": {\"value\": 20, \"unit\": \"px\"}}}}},\n  \"space\": {"
        )
      ])
    let library = try ThemeLibrary(directory: dir)
    let level1 = try library.theme(.sosh, mode: .light).paddingInline[level: 1]
    #expect(level1 > 20)
    #expect(
      library.warnings(.sosh, mode: .dark) == [
        "brands/sosh/brand.tokens.json: bullet-list.space.padding-inline.level-2: 20 px is less than bullet-list.space.padding-inline.level-1 (\(Int(level1)) px in components/bullet-list.tokens.json, from dimension.450 in core/dimension.tokens.json): rows of level 2 start before the rows of level 1 they belong to"
      ])
    #expect(library.warnings(.orange, mode: .light).isEmpty)
  }

  @Test("Themes/README.md's colour example loads: three ways to write one colour")
  func readmeExample() throws {
    let readme = try String(
      contentsOf: Fixture.themesDirectory.appendingPathComponent("README.md"), encoding: .utf8)
    let heading = try #require(readme.range(of: "### Writing a colour"))
    let open = try #require(
      readme.range(of: "```json\n", range: heading.upperBound..<readme.endIndex))
    let close = try #require(readme.range(of: "```", range: open.upperBound..<readme.endIndex))
    let json = try JSONParser.parse(String(readme[open.upperBound..<close.lowerBound]))
    var resolver = TokenResolver(merged: try TokenFileParser.parse(json, file: "README.md"))
    let tokens = try resolver.resolveAll()
    #expect(tokens.map(\.path) == ["color.by-hex", "color.by-components", "color.both"])
    #expect(tokens.allSatisfy { $0.value == .color(RGBAColor(red: 0xF1, green: 0x6E, blue: 0)) })
  }
}
