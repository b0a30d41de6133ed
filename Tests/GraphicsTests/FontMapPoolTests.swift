import Foundation
import Testing

@testable import Fonts
@testable import Graphics

/// Font maps are lent, not remade: a process that renders again and again (`--watch`, gallery
/// workers) would otherwise keep fontconfig's and Pango's memory of every map it ever made.
@Suite("Font map pool")
struct FontMapPoolTests {
  @Test(
    "a released font set's map serves the next set of the same files, with the same measures; a changed file gets a map of its own"
  )
  func pooled() throws {
    let folder = try Fixtures.temporaryFolder("ouds-pool")
    defer { try? FileManager.default.removeItem(at: folder) }
    let brand = folder.appendingPathComponent("Brand.ttf")
    try FileManager.default.copyItem(
      at: try #require(FontLocator().locate(Fixtures.dejaVuSans)).url, to: brand)
    var brandFirst = Fixtures.text("Label")
    brandFirst.appearance.fontFamilies = ["DejaVu Sans", "Liberation Sans"] + Fixtures.families

    var first: FontSet? = try FontSet(sources: Fixtures.manifest, brandFontDirectory: folder)
    let map = try #require(first).fontMap
    let width = TextEngine(fonts: try #require(first)).measure(brandFirst, wrapWidth: nil).width
    first = nil
    let second = try FontSet(sources: Fixtures.manifest, brandFontDirectory: folder)
    #expect(second.fontMap == map)
    #expect(LoadedFontMap.made.withLock { $0[second.loaded.key] } == 1)
    #expect(second.files.first?.family == "DejaVu Sans")
    #expect(TextEngine(fonts: second).measure(brandFirst, wrapWidth: nil).width == width)

    // The brand file replaced by another font: new bytes, new hash, so not the pooled map.
    try FileManager.default.removeItem(at: brand)
    try FileManager.default.copyItem(
      at: try #require(FontLocator().locate(Fixtures.manifest.sources[0])).url, to: brand)
    let third = try FontSet(sources: Fixtures.manifest, brandFontDirectory: folder)
    #expect(third.fontMap != second.fontMap)
    #expect(third.files.first?.family == "Liberation Sans")
  }

  @Test("sets made one after the other from the same files make one map, not one each")
  func noGrowth() throws {
    let folder = try Fixtures.temporaryFolder("ouds-pool-loop")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      at: try #require(FontLocator().locate(Fixtures.dejaVuSans)).url,
      to: folder.appendingPathComponent("Brand.ttf"))
    var key: [String] = []
    for _ in 0..<50 {
      let fonts = try FontSet(sources: Fixtures.manifest, brandFontDirectory: folder)
      key = fonts.loaded.key
    }
    #expect(key.first?.hasSuffix(" brand \(folder.path)/Brand.ttf") == true)
    #expect(LoadedFontMap.made.withLock { $0[key] } == 1)
  }
}
