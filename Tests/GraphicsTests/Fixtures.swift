import Foundation
import Graphics
import Scene
import Themes

/// Fonts, scenes and folders shared by the Graphics tests.
enum Fixtures {
  /// The package root: …/Tests/GraphicsTests/Fixtures.swift → …
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  /// The repository's `Themes/`.
  static let themesDirectory = repositoryRoot.appendingPathComponent("Themes")

  /// A fresh temporary folder, removed by the caller.
  static func temporaryFolder(_ label: String = "ouds-graphics") throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  static let liberationRegular = "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"
  static let liberationBold = "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf"
  static let arabicRegular = "/usr/share/fonts/truetype/noto/NotoSansArabicUI-Regular.ttf"
  static let arabicBold = "/usr/share/fonts/truetype/noto/NotoSansArabicUI-Bold.ttf"

  static let manifest = FontManifest(
    theme: .orange,
    files: [
      FontFile(path: liberationRegular, sha256: "", role: "latin-regular"),
      FontFile(path: liberationBold, sha256: "", role: "latin-bold"),
      FontFile(path: arabicRegular, sha256: "", role: "arabic-regular"),
      FontFile(path: arabicBold, sha256: "", role: "arabic-bold"),
    ])

  static let families = ["Helvetica Neue", "Liberation Sans", "Noto Sans Arabic UI"]
  static let black = RGBAColor(red: 0, green: 0, blue: 0)
  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let orange = RGBAColor(red: 0xF1, green: 0x6E, blue: 0x00)

  static func engine() throws -> TextEngine {
    TextEngine(fonts: try FontSet(manifest: manifest))
  }

  static func text(
    _ string: String, size: Double = 16, lineHeight: Double = 24, weight: Int = 400,
    direction: LayoutDirection = .ltr, language: String = "en", letterSpacing: Double = 0
  ) -> StyledText {
    StyledText(
      spans: [TextSpan(string)],
      appearance: TextAppearance(
        fontFamilies: families, fontSize: size, lineHeight: lineHeight,
        letterSpacing: letterSpacing, weight: weight, color: black, language: language),
      direction: direction)
  }

  /// A 360-point-wide scene of one row: `glyph` in a 20-point square at (10, 8), a label at x 40.
  static func scene(
    glyph: SceneGlyph?, label: String = "Label", background: RGBAColor? = white,
    width: Double = 360, height: Double = 36
  ) -> Scene {
    let icon = Rect(x: 10, y: 8, width: 20, height: 20)
    let row = SceneRow(
      path: "items[0]", level: 0,
      marker: SceneMarker(kind: glyph == nil ? .none : .bullet, text: nil, rect: icon),
      icon: glyph == nil ? nil : icon, glyph: glyph, markerText: nil,
      label: Rect(x: 40, y: 6, width: 300, height: 24),
      text: SceneText(
        origin: Point(x: 40, y: 6), wrapWidth: 300, alignment: .left, content: text(label)),
      lines: 1, firstBaseline: 17.55, accessibilityLabel: label)
    return Scene(
      width: width, height: height, direction: .ltr, theme: "orange", mode: "light",
      background: background, rows: [row])
  }
}
