import Foundation
import Primitives
import Testing

@testable import Themes

/// Token files are hostile input: a deep alias chain or an absurd value is an error naming the
/// file, the token and the limit, never a crash or a garbage drawing.
@Suite("Hostile tokens")
struct HostileTokenTests {
  static let schemaLine = #""$schema": "https://www.designtokens.org/schemas/2025.10/format.json","#

  /// A copy of `Themes/` whose core dimension file starts with a group `chain` of `links` aliases
  /// `chain.t0` → `chain.t1` → … ending in a literal 4 px.
  private func themesWithChain(links: Int) throws -> URL {
    var group = #""chain": { "$type": "dimension", "#
    for index in 0..<links { group += "\"t\(index)\": { \"$value\": \"{chain.t\(index + 1)}\" }, " }
    group += "\"t\(links)\": { \"$value\": { \"value\": 4, \"unit\": \"px\" } } },"
    return try Fixture.modifiedCopy(
      of: "core/dimension.tokens.json", replacing: [(Self.schemaLine, Self.schemaLine + group)])
  }

  @Test(
    "a chain of 15,000 aliases is refused at the limit, naming the file, the token and the limit")
  func longAliasChain() throws {
    let library = try ThemeLibrary(directory: try themesWithChain(links: 15_000))
    for (name, mode) in [(ThemeName.orange, ColorMode.light), (.wireframe, .dark)] {
      let error = Fixture.error { () throws(ThemeError) in try library.theme(name, mode: mode) }
      #expect(
        error?.description
          == "core/dimension.tokens.json: chain.t0: alias chain longer than 64 links (chain.t0 -> chain.t1 -> … -> chain.t65); shorten it"
      )
    }
  }

  @Test("a chain of exactly 64 aliases resolves, every link to the literal's value")
  func chainAtTheLimit() throws {
    let library = try ThemeLibrary(directory: try themesWithChain(links: 64))
    let tokens = try library.tokens(.sosh, mode: .light)
    let first = try #require(tokens.first { $0.path == "chain.t0" })
    #expect(first.value == .dimension(value: 4, unit: "px"))
    #expect(first.aliasChain.count == 64)
    #expect(first.aliasChain.last == "chain.t64")
    #expect(tokens.first { $0.path == "chain.t63" }?.aliasChain == ["chain.t64"])

    let over = try ThemeLibrary(directory: try themesWithChain(links: 65))
    #expect(
      Fixture.error { () throws(ThemeError) in try over.theme(.sosh, mode: .light) }?.description
        == "core/dimension.tokens.json: chain.t0: alias chain longer than 64 links (chain.t0 -> chain.t1 -> … -> chain.t65); shorten it"
    )
  }

  @Test("cycles are still found in long chains, where they close")
  func cycleInLongChain() throws {
    var group = #""chain": { "$type": "dimension", "#
    for index in 0..<40 { group += "\"t\(index)\": { \"$value\": \"{chain.t\(index + 1)}\" }, " }
    group += #""t40": { "$value": "{chain.t30}" } },"#
    let dir = try Fixture.modifiedCopy(
      of: "core/dimension.tokens.json", replacing: [(Self.schemaLine, Self.schemaLine + group)])
    let library = try ThemeLibrary(directory: dir)
    let cycle = (30...40).map { "chain.t\($0)" }.joined(separator: " -> ") + " -> chain.t30"
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.orange, mode: .dark) }?
        .description
        == "core/dimension.tokens.json: chain.t40: alias cycle \(cycle)")
  }

  /// The error of the orange-light theme after replacing `old` by `new` in `file`.
  private func error(in file: String, replacing old: String, with new: String) throws -> String? {
    let library = try ThemeLibrary(
      directory: try Fixture.modifiedCopy(of: file, replacing: [(old, new)]))
    return Fixture.error { () throws(ThemeError) in try library.theme(.orange, mode: .light) }?
      .description
  }

  @Test("values outside the renderer's ranges are refused with the token, the file and the range")
  func outOfRange() throws {
    let typography = "styles/typography.tokens.json"
    let px = { (value: String) in #"{ "value": \#(value), "unit": "px" }"# }
    #expect(
      try error(in: typography, replacing: #""{font.size.body.large}""#, with: px("0"))
        == "styles/typography.tokens.json: typography.body-large.font-size: 0 px is out of range: the renderer needs 1 ≤ value ≤ 200 px"
    )
    #expect(
      try error(in: typography, replacing: #""{font.size.body.large}""#, with: px("1e300"))
        == "styles/typography.tokens.json: typography.body-large.font-size: 1e+300 px is out of range: the renderer needs 1 ≤ value ≤ 200 px"
    )
    #expect(
      try error(in: typography, replacing: #""{font.line-height.body.large}""#, with: px("-24"))
        == "styles/typography.tokens.json: typography.body-large.line-height: -24 px is out of range: the renderer needs 1 ≤ value ≤ 400 px"
    )
    #expect(
      try error(
        in: typography, replacing: #""{font.letter-spacing.body.large}""#, with: px("250.5"))
        == "styles/typography.tokens.json: typography.body-large.letter-spacing: 250.5 px is out of range: the renderer needs -100 ≤ value ≤ 100 px"
    )
    #expect(
      try error(
        in: "components/bullet-list.tokens.json", replacing: #""$value": "{dimension.50}""#,
        with: #""$value": \#(px("-4"))"#)
        == "components/bullet-list.tokens.json: bullet-list.space.padding-inline.level-0: -4 px is out of range: the renderer needs 0 ≤ value ≤ 1000 px"
    )
  }

  @Test(
    "sizes that draw something have a floor of 1 px: a 1e-9 px font, line height, icon or label width is refused"
  )
  func sizeFloors() throws {
    let typography = "styles/typography.tokens.json"
    let px = { (value: String) in #"{ "value": \#(value), "unit": "px" }"# }
    #expect(
      try error(in: typography, replacing: #""{font.size.body.large}""#, with: px("1e-9"))
        == "styles/typography.tokens.json: typography.body-large.font-size: 1e-09 px is out of range: the renderer needs 1 ≤ value ≤ 200 px"
    )
    #expect(
      try error(in: typography, replacing: #""{font.line-height.body.large}""#, with: px("0.5"))
        == "styles/typography.tokens.json: typography.body-large.line-height: 0.5 px is out of range: the renderer needs 1 ≤ value ≤ 400 px"
    )
    let component = "components/bullet-list.tokens.json"
    #expect(
      try error(
        in: component, replacing: #""{size.icon.with-body.large.size-small}""#, with: px("0"))
        == "components/bullet-list.tokens.json: bullet-list.size.icon.body-large: 0 px is out of range: the renderer needs 1 ≤ value ≤ 1000 px"
    )
    #expect(
      try error(in: component, replacing: #""{size.max-width.body.large}""#, with: px("1e-9"))
        == "components/bullet-list.tokens.json: bullet-list.size.label-max-width.body-large: 1e-09 px is out of range: the renderer needs 1 ≤ value ≤ 10000 px"
    )
    // The floors themselves are allowed.
    #expect(
      try error(in: typography, replacing: #""{font.size.body.large}""#, with: px("1")) == nil)
  }

  @Test("an aliased value out of range names the alias and where the value comes from")
  func outOfRangeThroughAlias() throws {
    let message = try error(
      in: "core/dimension.tokens.json", replacing: "\"value\": 4,", with: "\"value\": -4,")
    #expect(
      message
        == "components/bullet-list.tokens.json: bullet-list.space.padding-inline.level-0: -4 px (from dimension.50 in core/dimension.tokens.json) is out of range: the renderer needs 0 ≤ value ≤ 1000 px"
    )
  }

  @Test("infinite numbers and colours outside 0–1 are refused where they are written")
  func notFinite() throws {
    let dir = try Fixture.modifiedCopy(
      of: "styles/typography.tokens.json",
      replacing: [(#""{font.size.body.large}""#, #"{ "value": 1e400, "unit": "px" }"#)])
    let message = Fixture.error { () throws(ThemeError) in try Fixture.readAll(dir) }?.description
    #expect(
      message?.hasPrefix("styles/typography.tokens.json: malformed JSON at line 12, column ")
        == true)
    #expect(message?.hasSuffix(": number out of range") == true)
    #expect(
      try error(
        in: "brands/orange/light.tokens.json", replacing: "\"{color.raw.functional.black}\"",
        with: #"{ "colorSpace": "srgb", "components": [1.5, 0, 0] }"#)
        == "brands/orange/light.tokens.json: color.content.default: a color needs \"components\": three numbers from 0 to 1"
    )
  }

  @Test("every range the README documents is the one the loader applies")
  func documentedRanges() throws {
    let readme = try String(
      contentsOf: Fixture.themesDirectory.appendingPathComponent("README.md"), encoding: .utf8)
    for range in TokenRange.all {
      #expect(readme.contains(range.description), "\(range)")
    }
    #expect(readme.contains("\(TokenResolver.maxAliasDepth) links"))
  }
}
