import Fonts
import Foundation
import Graphics
import Scene
import Testing
import Themes

@Suite("TextEngine")
struct TextEngineTests {
  let engine: TextEngine

  init() throws {
    engine = try Fixtures.engine()
  }

  @Test("one line of 16 px text in a 24 px line box: height 24, baseline 17.55")
  func singleLineMetrics() throws {
    let metrics = engine.measure(Fixtures.text("Label"), wrapWidth: nil)
    #expect(metrics.lineCount == 1)
    #expect(metrics.height == 24)
    // (24 − 17.87) / 2 + 14.48 with Liberation Sans 2 at 16 px (research/rendering.md §1.2).
    #expect(abs(metrics.firstBaseline - 17.55) < 0.01)
    #expect(metrics.width > 30 && metrics.width < 45)
  }

  @Test("a long label wraps into N lines of exactly the line height, none wider than the box")
  func wrapping() throws {
    let label = "Unordered subitem with an ordered sublist that goes on and on"
    let wrap = 120.0
    let metrics = engine.measure(Fixtures.text(label), wrapWidth: wrap)
    let unwrapped = engine.measure(Fixtures.text(label), wrapWidth: nil)
    #expect(metrics.lineCount >= 3)
    #expect(metrics.height == Double(metrics.lineCount) * 24)
    #expect(metrics.width <= wrap)
    #expect(unwrapped.lineCount == 1)
    #expect(unwrapped.width > wrap * 2)

    let medium = engine.measure(Fixtures.text(label, size: 14, lineHeight: 20), wrapWidth: wrap)
    #expect(medium.height == Double(medium.lineCount) * 20)
  }

  @Test("markup characters are drawn literally, never parsed")
  func noMarkup() throws {
    let literal = engine.measure(Fixtures.text("<b>&amp;"), wrapWidth: nil)
    let ampersand = engine.measure(Fixtures.text("&"), wrapWidth: nil)
    #expect(literal.lineCount == 1)
    #expect(literal.width > ampersand.width * 4)
    // Splitting the same characters into spans changes nothing.
    var split = Fixtures.text("")
    split.spans = [TextSpan("<b>"), TextSpan("&amp;")]
    #expect(engine.measure(split, wrapWidth: nil).width == literal.width)
    // Measuring the pieces separately adds up (no character was swallowed as markup).
    let pieces = ["<", "b", ">", "&", "a", "m", "p", ";"].map {
      engine.measure(Fixtures.text($0), wrapWidth: nil).width
    }
    #expect(abs(pieces.reduce(0, +) - literal.width) < 0.5)
  }

  @Test("a strong span is wider than regular text, and span ranges are UTF-8 byte ranges")
  func spansUseByteRanges() throws {
    var mixed = Fixtures.text("")
    mixed.spans = [TextSpan("éèçàù "), TextSpan("Label", weight: 700)]
    let prefix = engine.measure(Fixtures.text("éèçàù "), wrapWidth: nil).width
    let bold = engine.measure(Fixtures.text("Label", weight: 700), wrapWidth: nil).width
    let regular = engine.measure(Fixtures.text("Label"), wrapWidth: nil).width
    let total = engine.measure(mixed, wrapWidth: nil).width
    #expect(bold > regular + 1)
    // Character offsets instead of byte offsets would embolden "èçàù " and leave "Label" half regular.
    #expect(abs(total - (prefix + bold)) < 0.3)
  }

  @Test("letter spacing widens the gap between letters by the token value")
  func letterSpacing() throws {
    let plain = engine.measure(Fixtures.text("Label"), wrapWidth: nil).width
    let spaced = engine.measure(Fixtures.text("Label", letterSpacing: 1), wrapWidth: nil).width
    // 1 pt between each of the 5 letters of "Label" (Pango trims it at the ends of the line);
    // a value passed in points instead of Pango units would add ~0.004 pt.
    #expect(abs(spaced - plain - 4) < 0.05, "widened by \(spaced - plain)")
  }

  @Test("Arabic text is shaped with the manifest's Arabic font in a right-to-left paragraph")
  func arabic() throws {
    let arabic = Fixtures.text("عنصر فرعي", direction: .rtl, language: "ar")
    let metrics = engine.measure(arabic, wrapWidth: nil)
    #expect(metrics.lineCount == 1)
    #expect(metrics.height == 24)
    #expect(metrics.width > 40)
  }

  @Test("the font set holds exactly the manifest's files, with their families and hashes")
  func loadedFonts() throws {
    let files = engine.fonts.files
    #expect(files.map(\.fileName) == Fixtures.manifest.sources.map(\.fileName))
    #expect(
      files.map(\.family) == [
        "Liberation Sans", "Liberation Sans", "Noto Sans Arabic UI", "Noto Sans Arabic UI",
      ])
    #expect(files[0].sha256.hasPrefix("8d91388f"))
    #expect(files[2].sha256.hasPrefix("43a90e0f"))
    #expect(files.allSatisfy { $0.sha256.count == 64 })
  }

  @Test("a family that is not in the manifest falls back to the manifest's fonts, not the system's")
  func hermetic() throws {
    var text = Fixtures.text("Label")
    text.appearance.fontFamilies = ["DejaVu Sans"]  // installed on the system, absent from the set
    let fallback = engine.measure(text, wrapWidth: nil).width
    let liberation = engine.measure(Fixtures.text("Label"), wrapWidth: nil).width
    #expect(fallback == liberation)
    // …and the font both fell back to is Liberation Sans, not a font of the machine: its
    // advances are Arial's (L, a, b, e 1139 and l 455 units of 2048), DejaVu Sans's are wider.
    #expect(abs(liberation - 16 * Double(4 * 1139 + 455) / 2048) < 1, "\(liberation)")
    let dejaVu = TextEngine(
      fonts: try FontSet(sources: FontSourceList(owner: "test", sources: [Fixtures.dejaVuSans])))
    let dejaVuWidth = dejaVu.measure(text, wrapWidth: nil).width
    #expect(abs(dejaVuWidth - liberation) > 2, "DejaVu \(dejaVuWidth), Liberation \(liberation)")
  }

  @Test("a missing font file names the file, its Debian package and the folders searched")
  func missingFontFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-fonts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let manifest = FontSourceList(
      owner: "orange",
      sources: [
        FontSource(
          fileName: "LiberationSans-Missing.ttf", sha256: String(repeating: "0", count: 64),
          role: "latin-regular", package: "fonts-liberation2")
      ])
    let locator = FontLocator(folders: [FontFolder(url: folder, origin: .environment)])
    #expect {
      _ = try FontSet(sources: manifest, locator: locator)
    } throws: { error in
      "\(error)"
        == "missing font file: LiberationSans-Missing.ttf (package fonts-liberation2, for orange); looked in \(folder.path) (OUDS_FONT_DIRS); install the package (apt-get install fonts-liberation2) or put the files in a folder given with --font-dir or OUDS_FONT_DIRS"
    }
  }

  @Test("a brand font folder that does not exist is an error")
  func missingBrandFolder() {
    #expect {
      _ = try FontSet(
        sources: Fixtures.manifest, brandFontDirectory: URL(fileURLWithPath: "/nonexistent/brand"))
    } throws: { error in
      "\(error)" == "brand font folder not found: /nonexistent/brand"
    }
  }

  @Test("brand fonts from a folder are loaded first and win when their family is named first")
  func brandFolder() throws {
    let folder = try Fixtures.temporaryFolder("ouds-brand")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      at: try #require(FontLocator().locate(Fixtures.dejaVuSans)).url,
      to: folder.appendingPathComponent("Brand.ttf"))
    let fonts = try FontSet(sources: Fixtures.manifest, brandFontDirectory: folder)
    #expect(fonts.files.first?.family == "DejaVu Sans")
    #expect(fonts.files.first?.role == "brand")
    let engine = TextEngine(fonts: fonts)
    var brandFirst = Fixtures.text("Label")
    brandFirst.appearance.fontFamilies = ["DejaVu Sans"] + Fixtures.families
    let brand = engine.measure(brandFirst, wrapWidth: nil).width
    let substitute = engine.measure(Fixtures.text("Label"), wrapWidth: nil).width
    #expect(brand != substitute)
  }
}

@Suite("Android's baseline on whole pixels")
struct AndroidBaselineTests {
  @Test(
    "Roboto at 3x: 16/24 → 18.67 pt, 14/20 → 15.67 pt, 13/16 → 12.33 pt (SPEC §6), a float split 0.33 pt lower"
  )
  func robotoBaselines() throws {
    let roboto = FontSource(fileName: "Roboto-Regular.ttf", sha256: "", role: "latin-regular")
    let engine = TextEngine(
      fonts: try FontSet(sources: FontSourceList(owner: "test", sources: [roboto])))
    for (size, line, expected) in [(16.0, 24.0, 56.0 / 3), (14, 20, 47.0 / 3), (13, 16, 37.0 / 3)] {
      var text = Fixtures.text("Hamburgefonstiv", size: size, lineHeight: line)
      text.appearance.fontFamilies = ["Roboto"]
      text.appearance.leading = .proportional
      text.appearance.androidPixelScale = 3
      let measured = engine.measure(text, wrapWidth: nil).firstBaseline
      #expect(abs(measured - expected) < 1e-3, "\(size)/\(line): \(measured)")
      #expect(engine.fontFiles(text).map(\.lastPathComponent) == ["Roboto-Regular.ttf"])
      // The float split of the same font sits a pixel lower at 16/24.
      text.appearance.androidPixelScale = nil
      let float = engine.measure(text, wrapWidth: nil).firstBaseline
      if size == 16 { #expect(float - expected > 0.2, "\(size)/\(line): float \(float)") }
    }
  }
}
