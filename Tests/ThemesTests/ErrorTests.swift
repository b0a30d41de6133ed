import Foundation
import Testing

@testable import Themes

/// Each test breaks one file of a temporary copy of `Themes/` and checks the exact message.
@Suite("Theme errors name the file, the token and the problem")
struct ErrorTests {
  @Test("malformed JSON fails what reads the file, with the line and column; other themes work")
  func malformedJSON() throws {
    let file = "brands/sosh/light.tokens.json"
    let dir = try Fixture.modifiedCopy(of: file, replacing: [("\"hover\": {", "\"hover\" {")])
    // Where the break is, computed from the edited text.
    let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    let lineIndex = try #require(lines.firstIndex { $0.contains("\"hover\" {") })
    let column =
      try #require(lines[lineIndex].firstIndex(of: "{")).utf16Offset(in: lines[lineIndex]) + 1
    let expected =
      "brands/sosh/light.tokens.json: malformed JSON at line \(lineIndex + 1), column \(column): expected ':' after \"hover\", found '{'"
    #expect(
      Fixture.error { () throws(ThemeError) in try Fixture.readAll(dir) }?.description == expected)
    // The file is read when a theme needs it: Sosh light fails, the other themes do not read it.
    let library = try ThemeLibrary(directory: dir)
    #expect(throws: Never.self) { try library.theme(.orange, mode: .light) }
    #expect(throws: Never.self) { try library.theme(.sosh, mode: .dark) }
    #expect(!library.filesRead.contains(file))
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.sosh, mode: .light) }?
        .description == expected)
    #expect(library.filesRead.contains(file))
  }

  @Test("an alias to a missing token fails its contexts only")
  func brokenAlias() throws {
    let dir = try Fixture.modifiedCopy(
      of: "brands/sosh/light.tokens.json",
      replacing: [
        (
          "\"default\": {\n        \"$value\": \"{color.raw.functional.black}\"",
          "\"default\": {\n        \"$value\": \"{color.raw.nope}\""
        )
      ])
    let library = try ThemeLibrary(directory: dir)
    let error = Fixture.error { () throws(ThemeError) in try library.theme(.sosh, mode: .light) }
    #expect(
      error?.description
        == "brands/sosh/light.tokens.json: color.content.default: alias {color.raw.nope} points to no token"
    )
    #expect(error?.file == "brands/sosh/light.tokens.json")
    #expect(error?.token == "color.content.default")
    #expect(throws: Never.self) { try library.theme(.sosh, mode: .dark) }
    #expect(throws: Never.self) { try library.theme(.orange, mode: .light) }
  }

  @Test("an alias cycle is an error that shows the cycle")
  func cycle() throws {
    let dir = try Fixture.modifiedCopy(
      of: "brands/orange/light.tokens.json",
      replacing: [
        (
          "\"default\": {\n        \"$value\": \"{color.raw.functional.black}\"",
          "\"default\": {\n        \"$value\": \"{color.action.enabled}\""
        ),
        (
          "\"enabled\": {\n        \"$value\": \"{color.raw.functional.black}\"",
          "\"enabled\": {\n        \"$value\": \"{color.content.default}\""
        ),
      ])
    let library = try ThemeLibrary(directory: dir)
    // The merged `color` group keeps its place (core/color.tokens.json comes early), so
    // color.content.default is the first token of the cycle to be resolved.
    let expected =
      "brands/orange/light.tokens.json: color.action.enabled: alias cycle color.content.default -> color.action.enabled -> color.content.default"
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.orange, mode: .light) }?
        .description == expected)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.orangeCompact, mode: .light) }?
        .description == expected)
    #expect(throws: Never.self) { try library.theme(.orange, mode: .dark) }
  }

  @Test("a self-referencing alias is a cycle")
  func selfCycle() throws {
    let dir = try Fixture.modifiedCopy(
      of: "brands/wireframe/dark.tokens.json",
      replacing: [
        (
          "\"$value\": \"{color.raw.wireframe.functional-gray-dark-880}\"",
          "\"$value\": \"{color.bg.primary}\""
        )
      ])
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.wireframe, mode: .dark) }?
        .description
        == "brands/wireframe/dark.tokens.json: color.bg.primary: alias cycle color.bg.primary -> color.bg.primary"
    )
  }

  @Test("a missing required token is named with its context")
  func missingRequiredToken() throws {
    let dir = try Fixture.modifiedCopy(
      of: "brands/sosh/dark.tokens.json",
      replacing: [("\"bg\": {\n      \"primary\": {", "\"bg\": {\n      \"primary-renamed\": {")])
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.sosh, mode: .dark) }?.description
        == "themes.resolver.json: theme sosh-dark lacks required token color.bg.primary (no source of the context defines it)"
    )
    #expect(throws: Never.self) { try library.theme(.sosh, mode: .light) }
  }

  @Test("a token without $type (own, group or alias) is an error")
  func missingType() throws {
    let dir = try Fixture.modifiedCopy(
      of: "core/dimension.tokens.json", replacing: [("\"$type\": \"dimension\",\n", "")])
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.wireframe, mode: .light) }?
        .description
        == "core/dimension.tokens.json: dimension.50: token has no $type (set it on the token or a parent group, or alias a typed token)"
    )
  }

  @Test("an unknown $type is an error")
  func unknownType() throws {
    let dir = try Fixture.modifiedCopy(
      of: "components/bullet-list.tokens.json",
      replacing: [
        ("\"size\": {\n      \"$type\": \"dimension\"", "\"size\": {\n      \"$type\": \"size\"")
      ])
    #expect(
      Fixture.error { () throws(ThemeError) in try Fixture.readAll(dir) }?.description
        == "components/bullet-list.tokens.json: bullet-list.size: unknown $type \"size\" (known: color, dimension, fontFamily, fontWeight, duration, cubicBezier, number, strokeStyle, border, transition, shadow, gradient, typography)"
    )
  }

  @Test("an alias whose target has another type is an error")
  func typeMismatch() throws {
    let dir = try Fixture.modifiedCopy(
      of: "components/bullet-list.tokens.json",
      replacing: [
        (
          "\"level-0\": {\n          \"$value\": \"{dimension.50}\"",
          "\"level-0\": {\n          \"$value\": \"{color.bg.primary}\""
        )
      ])
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.orange, mode: .dark) }?
        .description
        == "components/bullet-list.tokens.json: bullet-list.space.padding-inline.level-0: is a dimension but its alias {color.bg.primary} is a color"
    )
  }

  @Test("JSON Pointer $ref in a value and $extends are rejected")
  func unsupportedReferences() throws {
    let refDir = try Fixture.modifiedCopy(
      of: "core/dimension.tokens.json",
      replacing: [
        (
          "\"$value\": {\n        \"value\": 4,\n        \"unit\": \"px\"\n      }",
          "\"$value\": {\"$ref\": \"#/dimension/100/$value\"}"
        )
      ])
    #expect(
      Fixture.error { () throws(ThemeError) in try Fixture.readAll(refDir) }?.description
        == "core/dimension.tokens.json: dimension.50: JSON Pointer $ref in $value is not supported by this loader (use a curly alias {a.b.c})"
    )
    let extendsDir = try Fixture.modifiedCopy(
      of: "brands/orange-compact/brand.tokens.json",
      replacing: [
        (
          "\"size\": {\n    \"$type\": \"dimension\",",
          "\"size\": {\n    \"$type\": \"dimension\",\n    \"$extends\": \"{size}\","
        )
      ])
    #expect(
      Fixture.error { () throws(ThemeError) in try Fixture.readAll(extendsDir) }?
        .description
        == "brands/orange-compact/brand.tokens.json: size: $extends is not supported by this loader (alias the tokens with {a.b.c} instead)"
    )
  }

  @Test("colour hex must be valid and agree with the components")
  func badColors() throws {
    let invalid = try Fixture.modifiedCopy(
      of: "core/color.tokens.json", replacing: [("\"hex\": \"#FFFFFF\"", "\"hex\": \"#FFFFFG\"")])
    #expect(
      Fixture.error { () throws(ThemeError) in
        try ThemeLibrary(directory: invalid).theme(.orange, mode: .light)
      }?.description
        == "core/color.tokens.json: color.raw.functional.white: invalid hex \"#FFFFFG\" (expected \"#RRGGBB\")"
    )
    let mismatch = try Fixture.modifiedCopy(
      of: "core/color.tokens.json", replacing: [("\"hex\": \"#FFFFFF\"", "\"hex\": \"#FFFFFE\"")])
    #expect(
      Fixture.error { () throws(ThemeError) in
        try ThemeLibrary(directory: mismatch).theme(.orange, mode: .light)
      }?.description
        == "core/color.tokens.json: color.raw.functional.white: hex #FFFFFE does not match components [1.0, 1.0, 1.0] (#FFFFFF); the components of #FFFFFE are [1, 1, 0.9961]"
    )
  }

  @Test("a dimension in rem is refused where the renderer needs px")
  func remRefused() throws {
    let dir = try Fixture.modifiedCopy(
      of: "core/dimension.tokens.json",
      replacing: [
        ("\"value\": 8,\n        \"unit\": \"px\"", "\"value\": 0.5,\n        \"unit\": \"rem\"")
      ])
    #expect(
      Fixture.error { () throws(ThemeError) in
        try ThemeLibrary(directory: dir).theme(.sosh, mode: .light)
      }?.description
        == "components/bullet-list.tokens.json: bullet-list.space.column-gap.body-large: unit \"rem\" (from dimension.100 in core/dimension.tokens.json) is not supported by the renderer (use px)"
    )
  }

  @Test("a resolver source that points to no file is named")
  func missingSourceFile() throws {
    let dir = try Fixture.modifiedCopy(
      of: "themes.resolver.json",
      replacing: [("\"core/font.tokens.json\"", "\"core/fonts.tokens.json\"")])
    #expect(
      Fixture.error { () throws(ThemeError) in try ThemeLibrary(directory: dir) }?.description
        == "themes.resolver.json: sets.core.sources[1]: $ref \"core/fonts.tokens.json\" points to no file"
    )
  }

  @Test("a missing themes directory is reported")
  func missingDirectory() {
    let dir = URL(fileURLWithPath: "/nonexistent/Themes")
    #expect(
      Fixture.error { () throws(ThemeError) in try ThemeLibrary(directory: dir) }?.description
        == "themes.resolver.json: file not found (looked for /nonexistent/Themes/themes.resolver.json)"
    )
  }
}
