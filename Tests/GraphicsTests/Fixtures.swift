import Fonts
import Foundation
import Graphics
import Primitives
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

  /// The Orange manifest's files, named as the manifest names them (found by `FontLocator`).
  static let manifest = FontSourceList(
    owner: "orange",
    sources: [
      FontSource(
        fileName: "LiberationSans-Regular.ttf",
        sha256: "8d91388f1d3604b3b8ae0e3ee2d140e50cd6122f9214514f4aca772540a4076d",
        role: "latin-regular",
        package: "fonts-liberation2"),
      FontSource(
        fileName: "LiberationSans-Bold.ttf",
        sha256: "ba0e0dc3f7aca5b0afbc31e800531ee43be3aa79ae35b2ef1f6470a9547765c4",
        role: "latin-bold",
        package: "fonts-liberation2"),
      FontSource(
        fileName: "NotoSansArabicUI-Regular.ttf",
        sha256: "43a90e0f0e9ca712ff0588dc2b119823d569367a6d0061eb5f7bfb9bfbe8cecc",
        role: "arabic-regular",
        package: "fonts-noto-ui-core"),
      FontSource(
        fileName: "NotoSansArabicUI-Bold.ttf",
        sha256: "ef5d9ce3d5b20a83bdc156ef48edc1e159322ada95ebacc133476c92f0bd102a",
        role: "arabic-bold",
        package: "fonts-noto-ui-core"),
    ])

  /// A font installed on the machine that no theme uses (fonts-dejavu-core), any version.
  static let dejaVuSans = FontSource(fileName: "DejaVuSans.ttf", sha256: "", role: "other")

  /// A theme manifest's files as the font set takes them.
  static func sources(_ manifest: FontManifest) -> FontSourceList {
    FontSourceList(
      owner: manifest.theme.rawValue,
      sources: manifest.files.map {
        FontSource(
          fileName: $0.fileName, sha256: $0.sha256, role: $0.role, package: $0.debianPackage)
      })
  }

  static let families = ["Helvetica Neue", "Liberation Sans", "Noto Sans Arabic UI"]
  static let black = RGBAColor(red: 0, green: 0, blue: 0)
  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let orange = RGBAColor(red: 0xF1, green: 0x6E, blue: 0x00)

  /// The themes read from the repository, once.
  static let library = Result { () throws(ThemeError) in
    try ThemeLibrary(directory: themesDirectory)
  }

  /// The marker shapes a theme reads from its asset files.
  static func markers(_ theme: ThemeName) throws -> MarkerShapes {
    try library.get().theme(theme, mode: .light).shapes
  }

  /// A marker asset as a scene shape.
  static func shape(_ asset: MarkerAsset) -> MarkerShape {
    asset.shape
  }

  /// Orange's level-0 square, from `Themes/markers/orange/square.svg`.
  static func orangeSquare() throws -> MarkerShape { shape(try markers(.orange).levels[level: 0]) }

  static func engine() throws -> TextEngine {
    TextEngine(fonts: try FontSet(sources: manifest))
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
      width: width, height: height, direction: .ltr, theme: .orange, mode: .light,
      background: background, rows: [row])
  }
}
