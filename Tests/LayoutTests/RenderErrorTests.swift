import BulletList
import BulletListRenderer
import Fonts
import Foundation
import Graphics
import Layout
import Scene
import Testing
import Themes

/// A measurer that never runs Pango: every character is 10 points wide, every line 24 tall.
struct FixedMeasurer: TextMeasuring {
  func measure(_ text: StyledText, wrapWidth: Double?) -> TextMetrics {
    TextMetrics(
      width: Double(text.plainText.count) * 10, height: 24, lineCount: 1, firstBaseline: 18)
  }
}

@Suite("The pipeline's one error type")
struct RenderErrorTests {
  static let oneItem = OUDSBulletList(type: .bare, textStyle: .bodyLarge) {
    OUDSBulletList.Item("Label")
  }

  @Test(
    "a canvas width that is not a positive number is a layout error",
    arguments: [0.0, -1, .infinity])
  func invalidWidth(width: Double) throws {
    let orangeLight = RenderError.Context(theme: .orange, mode: .light)
    #expect(throws: RenderError.layout(.invalidWidth(width), orangeLight)) {
      try SharedRenderer.shared.with {
        try $0.layout(
          Self.oneItem, theme: .orange, mode: .light, options: LayoutOptions(width: width))
      }
    }
    #expect(
      "\(RenderError.layout(.invalidWidth(width), orangeLight))"
        == "theme orange (light): the canvas width must be a positive number of points, got \(width)"
    )
    #expect(
      "\(RenderError.layout(.invalidWidth(width), orangeLight).inFile("list.json"))"
        == "list.json: theme orange (light): the canvas width must be a positive number of points, got \(width)"
    )
    let nan = #expect(throws: LayoutError.self) {
      try ListLayout(theme: try tokens(.orange), measurer: FixedMeasurer()).layout(
        Self.oneItem, options: LayoutOptions(width: .nan))
    }
    #expect(nan?.description == "the canvas width must be a positive number of points, got nan")
  }

  @Test("a label left less than one point names the row and the numbers; one point is enough")
  func tooNarrow() throws {
    let t = try tokens(.orange)
    let m = t.metrics[.bodyLarge]
    let start = t.paddingInline[level: 0] + m.bulletBoxWidth + m.columnGap  // 36 in Orange
    let layout = ListLayout(theme: t, measurer: FixedMeasurer())
    #expect(
      throws: LayoutError.canvasTooNarrow(path: "items[0]", width: start + 0.5, labelStart: start)
    ) {
      try layout.layout(Self.oneItem, options: LayoutOptions(width: start + 0.5))
    }
    #expect(
      LayoutError.canvasTooNarrow(path: "items[0]", width: 36.5, labelStart: 36).description
        == "items[0]: the canvas (36.5 pt) is too narrow for a label starting at 36.0 pt")
    let fits = try layout.layout(Self.oneItem, options: LayoutOptions(width: start + 1))
    #expect(fits.scene.rows[0].text.wrapWidth == 1)
    // A nested row indents further: the first row that does not fit is the one named.
    let nested = OUDSBulletList(type: .bare, textStyle: .bodyLarge) {
      OUDSBulletList.Item("A") { OUDSBulletList.Item("B") { OUDSBulletList.Item("C") } }
    }
    let deepStart = t.paddingInline[level: 2] + m.bulletBoxWidth + m.columnGap
    #expect(
      throws: RenderError.layout(
        .canvasTooNarrow(
          path: "items[0].items[0].items[0]", width: deepStart, labelStart: deepStart),
        RenderError.Context(theme: .orange, mode: .light))
    ) {
      try SharedRenderer.shared.with {
        try $0.layout(
          nested, theme: .orange, mode: .light, options: LayoutOptions(width: deepStart))
      }
    }
  }

  @Test("a list the rules refuse is a list error with its item path, also from ListLayout")
  func listErrors() throws {
    let fourLevels = OUDSBulletList {
      OUDSBulletList.Item("1") {
        OUDSBulletList.Item("2") { OUDSBulletList.Item("3") { OUDSBulletList.Item("4") } }
      }
    }
    let expected = BulletListError(
      path: "items[0].items[0].items[0].items[0]",
      message: "a fourth nesting level is forbidden by design (at most 3 levels: 0, 1, 2)")
    #expect(throws: RenderError.list(expected)) {
      try SharedRenderer.shared.with {
        try $0.render(fourLevels, theme: .sosh, mode: .dark, format: .svg)
      }
    }
    #expect("\(RenderError.list(expected))" == expected.description)
    #expect(throws: LayoutError.list(expected)) {
      try ListLayout(theme: try tokens(.sosh), measurer: FixedMeasurer()).layout(fourLevels)
    }
  }

  @Test("a located font file fontconfig cannot load names the manifest and the file")
  func unloadableFont() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-fonts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = try ThemeLibrary(directory: repositoryRoot.appendingPathComponent("Themes"))
    for file in try library.fontManifest(for: .orange).files {
      try Data("not a font".utf8).write(to: folder.appendingPathComponent(file.fileName))
    }
    let renderer = try BulletListRenderer(
      themes: ThemesLocation(directory: library.directory, source: .explicit), library: library,
      fontLocator: FontLocator(folders: [FontFolder(url: folder, origin: .environment)]))
    let first = folder.appendingPathComponent("LiberationSans-Regular.ttf").path
    let unreadable = GraphicsError.font(.fontFileUnreadable(path: first))
    // Setting the fonts up names no picture; laying a picture out names it.
    #expect(throws: RenderError.font(manifest: "fonts/orange.fonts.json", unreadable, nil)) {
      try renderer.prepareFonts(for: [.orange])
    }
    let picture = RenderError.Context(theme: .orange, mode: .dark)
    #expect(throws: RenderError.font(manifest: "fonts/orange.fonts.json", unreadable, picture)) {
      try renderer.layout(Self.oneItem, theme: .orange, mode: .dark)
    }
    #expect(
      "\(RenderError.font(manifest: "fonts/orange.fonts.json", unreadable, picture))"
        == "theme orange (dark): fonts/orange.fonts.json: font file could not be loaded by fontconfig: \(first)"
    )
    #expect(
      "\(RenderError.font(manifest: "fonts/orange.fonts.json", unreadable, nil).inFile("list.json"))"
        == "fonts/orange.fonts.json: font file could not be loaded by fontconfig: \(first)")
  }

  @Test("no themes folder is a theme error; a brand folder that does not exist a graphics error")
  func setUpErrors() throws {
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-empty-\(UUID().uuidString)")
    #expect(
      throws: RenderError.theme(
        ThemeError(
          message: "--themes \(empty.path): not a themes folder (no themes.resolver.json in it)"))
    ) {
      try BulletListRenderer(themesDirectory: empty)
    }
    #expect(
      throws: RenderError.graphics(.font(.fontDirectoryMissing(path: "/nonexistent/brand")), nil)
    ) {
      try BulletListRenderer(
        themesDirectory: repositoryRoot.appendingPathComponent("Themes"),
        brandFontDirectory: URL(fileURLWithPath: "/nonexistent/brand"))
    }
  }
}
