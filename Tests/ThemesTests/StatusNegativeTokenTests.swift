import Foundation
import Primitives
import Testing

@testable import Themes

/// `color.content.status.negative`, the colour `sheet --audit` draws a failing figure in: the OUDS
/// value of every theme and mode, read and checked like the other colours, but not required and
/// not part of what the renderer reads.
@Suite("color.content.status.negative")
struct StatusNegativeTokenTests {
  /// The OUDS values, written from the sources (the reference token files do not carry them):
  ///
  /// - Orange (and Orange Compact, which takes Orange's colours): ouds-android
  ///   `theme-orange/src/main/java/com/orange/ouds/theme/orange/tokens/semantic/OrangeColorContentSemanticTokens.kt`
  ///   at 04f2bce1635a6c4218ed0c66b7bafaa94e47c6ba (Orange brand tokens 2.6.0):
  ///   `contentStatusNegativeLight = OudsColorRawTokens.ColorFunctionalScarlet600`,
  ///   `contentStatusNegativeDark = OudsColorRawTokens.ColorFunctionalScarlet300`.
  /// - Sosh: ouds-ios `OUDS/Core/Themes/Sosh/Sources/Values/SemanticTokens/SoshTheme+ColorSemanticTokens.swift`
  ///   at 8a62e3217584b272072faae3ee786b91f80c19c7 (Sosh brand tokens 2.7.0):
  ///   `contentStatusNegativeLight = repositoryNegativeMedium` (`ColorRawTokens.functionalScarlet600`,
  ///   "#DB0002FF"), `contentStatusNegativeDark = repositoryNegativeLow` (`functionalScarlet300`,
  ///   "#FF8081FF").
  /// - Wireframe: ouds-android
  ///   `theme-wireframe/src/main/java/com/orange/ouds/theme/wireframe/tokens/semantic/WireframeColorContentSemanticTokens.kt`
  ///   at 0e53a1239b20b859cd2531c285771162991c2196 (Wireframe brand tokens 2.2.0): Scarlet600 / Scarlet300.
  /// - The raw values: ouds-android `global-raw-tokens/src/main/java/com/orange/ouds/tokens/raw/OudsColorRawTokens.kt`
  ///   at 0e53a1239b20b859cd2531c285771162991c2196 (OUDS core tokens 1.9.0):
  ///   `ColorFunctionalScarlet600 = Color(0xffdb0002)`, `ColorFunctionalScarlet300 = Color(0xffff8081)`.
  static let expected: [ThemeName: (light: String, dark: String)] = [
    .orange: ("#DB0002", "#FF8081"),
    .orangeCompact: ("#DB0002", "#FF8081"),
    .sosh: ("#DB0002", "#FF8081"),
    .wireframe: ("#DB0002", "#FF8081"),
  ]

  static let contexts: [(ThemeName, ColorMode)] = ThemeName.allCases.flatMap { n in
    ColorMode.allCases.map { (n, $0) }
  }

  @Test(
    "every theme and mode has the OUDS value, through the raw scarlet palette", arguments: contexts)
  func ouds(name: ThemeName, mode: ColorMode) throws {
    let library = try Fixture.loadLibrary()
    let want = try #require(Self.expected[name])
    let hex = mode == .light ? want.light : want.dark
    let theme = try library.theme(name, mode: mode)
    #expect(theme.colors.contentStatusNegative?.hex == hex)
    #expect(theme.colors.contentStatusNegative?.alpha == 255)
    let token = try #require(
      try library.tokens(name, mode: mode).first { $0.path == "color.content.status.negative" })
    #expect(token.type == "color")
    let raw =
      mode == .light ? "color.raw.functional.scarlet-600" : "color.raw.functional.scarlet-300"
    #expect(token.aliasChain == [raw])
    let brand = name == .orangeCompact ? "orange" : name.rawValue
    #expect(token.file == "brands/\(brand)/\(mode.rawValue).tokens.json")
  }

  @Test("a review token: not required, not read by the renderer, out of the render token text")
  func reviewOnly() throws {
    #expect(ThemeLibrary.reviewTokenPaths == ["color.content.status.negative"])
    #expect(!ThemeLibrary.componentTokenPaths.contains("color.content.status.negative"))
    let library = try Fixture.loadLibrary()
    #expect(
      library.canonicalTokenText().contains("color.content.status.negative\tcolor\t#DB0002\n"))
    #expect(
      library.canonicalTokenText().contains("color.raw.functional.scarlet-600\tcolor\t#DB0002\n"))
    let render = library.renderTokenText()
    #expect(!render.contains("status.negative") && !render.contains("scarlet"))
    #expect(render.contains("color.content.default\tcolor\t#000000\n"))
    #expect(render.contains("bullet-list.space.padding-inline.level-2\tdimension\t"))
    // Only the tokens the renderer reads: each context lists exactly those.
    let lines = render.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(lines.count == 8 * ThemeLibrary.componentTokenPaths.count)

    // A folder without it (one copied before it existed) still loads: no colour, same render text.
    let without = try Fixture.modifiedCopy(
      of: "brands/orange/light.tokens.json",
      replacing: [
        (
          #""status": {"#, #""status-was": {"#
        )
      ])
    defer { try? FileManager.default.removeItem(at: without.deletingLastPathComponent()) }
    let old = try ThemeLibrary(directory: without)
    #expect(try old.theme(.orange, mode: .light).colors.contentStatusNegative == nil)
    #expect(try old.theme(.orange, mode: .dark).colors.contentStatusNegative?.hex == "#FF8081")
    #expect(old.renderTokenText() == render)
    #expect(old.canonicalTokenText() != library.canonicalTokenText())

    // An edited value changes what a sheet calls "edited", not what the references digest.
    let edited = try Fixture.modifiedCopy(
      of: "brands/sosh/dark.tokens.json",
      replacing: [
        (
          #""$value": "{color.raw.functional.scarlet-300}""#,
          #""$value": "{color.raw.functional.scarlet-600}""#
        )
      ])
    defer { try? FileManager.default.removeItem(at: edited.deletingLastPathComponent()) }
    let redder = try ThemeLibrary(directory: edited)
    #expect(try redder.theme(.sosh, mode: .dark).colors.contentStatusNegative?.hex == "#DB0002")
    #expect(redder.renderTokenText() == render)
    #expect(redder.canonicalTokenText() != library.canonicalTokenText())
  }

  @Test("checked like the other colours: a dimension there fails the theme, naming file and token")
  func wrongType() throws {
    let copy = try Fixture.modifiedCopy(
      of: "brands/wireframe/light.tokens.json",
      replacing: [
        (
          #""$value": "{color.raw.functional.scarlet-600}""#,
          #""$type": "dimension", "$value": "{dimension.50}""#
        )
      ])
    defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
    let library = try ThemeLibrary(directory: copy)
    let error = Fixture.error { () throws(ThemeError) in
      try library.theme(.wireframe, mode: .light)
    }
    #expect(
      error?.description
        == "brands/wireframe/light.tokens.json: color.content.status.negative: is a dimension but sheet --audit needs a color"
    )
    // The other contexts are not affected.
    #expect(
      try library.theme(.wireframe, mode: .dark).colors.contentStatusNegative?.hex == "#FF8081")
  }
}
