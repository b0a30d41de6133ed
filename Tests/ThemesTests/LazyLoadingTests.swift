import Foundation
import Primitives
import Testing

@testable import Themes

/// A library reads its resolver when opened and every other file the first time a theme needs
/// it: one theme never parses another theme's files.
@Suite("Themes are read when needed")
struct LazyLoadingTests {
  /// The files of the core set, read by every theme.
  static let core = [
    "core/dimension.tokens.json", "core/font.tokens.json", "core/color.tokens.json",
    "styles/typography.tokens.json", "components/bullet-list.tokens.json",
    "components/link.tokens.json",
  ]

  @Test("opening reads the resolver alone")
  func openReadsResolver() throws {
    let library = try ThemeLibrary(directory: Fixture.themesDirectory)
    #expect(library.filesRead == ["themes.resolver.json"])
    // listing the inputs an output must not replace reads the spec, no token file
    #expect(library.files.count == 1 + 16 + 1 + 12 + 4)
    #expect(library.filesRead == ["themes.resolver.json", "components/bullet-list.spec.json"])
  }

  @Test(
    "a theme reads the core set, its own brand files, the spec and its marker assets",
    arguments: [
      (
        ThemeName.sosh, ColorMode.light,
        ["brands/sosh/brand.tokens.json", "brands/sosh/light.tokens.json"],
        ["sosh/disc.svg", "sosh/pill.svg", "sosh/small-disc.svg", "sosh/tick.svg"]
      ),
      (
        ThemeName.orangeCompact, ColorMode.dark,
        [
          "brands/orange/brand.tokens.json", "brands/orange-compact/brand.tokens.json",
          "brands/orange/dark.tokens.json",
        ],
        ["orange/square.svg", "orange/bar.svg", "orange/small-square.svg", "orange/tick.svg"]
      ),
    ])
  func oneTheme(name: ThemeName, mode: ColorMode, brand: [String], markers: [String]) throws {
    let library = try ThemeLibrary(directory: Fixture.themesDirectory)
    _ = try library.theme(name, mode: mode)
    #expect(
      library.filesRead
        == ["themes.resolver.json"] + Self.core + brand + ["components/bullet-list.spec.json"]
        + markers.map { "markers/\($0)" })
    // no font manifest until the fonts are asked for, then this theme's alone
    _ = try library.fontManifest(for: name)
    #expect(library.filesRead.last == "fonts/\(name.rawValue).fonts.json")
    #expect(library.filesRead.filter { $0.hasPrefix("fonts/") }.count == 1)
    // the other mode adds its own colour file and nothing else
    let before = library.filesRead
    _ = try library.theme(name, mode: mode == .light ? .dark : .light)
    #expect(library.filesRead.count == before.count + 1)
    #expect(library.filesRead.last?.hasPrefix("brands/") == true)
  }

  @Test("readAll reads every file once, and copies of a library share what was read")
  func everything() throws {
    let library = try ThemeLibrary(directory: Fixture.themesDirectory)
    let copy = library
    try library.readAll()
    #expect(Set(copy.filesRead) == Set(library.files.map { relative($0) }))
    #expect(copy.filesRead.count == library.files.count)
    // the resolved themes are those of a library that read them one by one
    let fresh = try ThemeLibrary(directory: Fixture.themesDirectory)
    for name in ThemeName.allCases {
      for mode in ColorMode.allCases {
        #expect(try copy.theme(name, mode: mode) == fresh.theme(name, mode: mode))
      }
    }
    #expect(copy.canonicalTokenText() == fresh.canonicalTokenText())
  }

  private func relative(_ url: URL) -> String {
    String(url.path.dropFirst(Fixture.themesDirectory.standardizedFileURL.path.count + 1))
  }
}
