import CLIKit
import Graphics
import Layout
import Primitives
import Scene
import Workbench

/// The names and ranges the command line shares with lists, the catalogue and the Swift API: the
/// names come from the value types (``Primitives/NamedValue``) and the ranges from
/// ``Primitives/PixelScale`` and ``Primitives/CanvasWidth``, so every option table, help line,
/// completion and message says what the rest of the pipeline accepts.
enum Vocabulary {
  /// The word that selects every theme, mode or platform.
  static let all = Choices.all

  /// `orange`, `orange-compact`, `sosh`, `wireframe`.
  static let themes = Choices(ThemeName.self)
  /// `light`, `dark`.
  static let modes = Choices(ColorMode.self)
  /// `ios`, `android`.
  static let platforms = Choices(Platform.self)
  /// `xSmall` … `accessibility5`.
  static let contentSizes = Choices(ContentSizeCategory.self)
  /// `bodyLarge`, `bodyMedium`.
  static let textStyles = Choices(TextStyle.self)
  /// `ltr`, `rtl`.
  static let directions = Choices(LayoutDirection.self)
  /// `theme`, `none`.
  static let backgrounds = Choices(BackgroundOption.self)
  /// `png`, `svg`, `pdf`.
  static let formats = Choices(OutputKind.self)
  /// `a4`, `16:9`: the paper of a printed document.
  static let pageSizes = Choices(PageSize.self)
  /// `json`, `markdown`: how a list file is written.
  static let listFormats = Choices(ListFormat.self)
  /// The shells `completion` writes scripts for.
  static let shells = Choices(kind: "shell", names: Shell.allCases.map(\.rawValue))

  /// PNG pixels per point: 1, 2 or 3.
  static let pixelScales = PixelScale.supported
  /// The pixel scale used when none is given.
  static let standardPixelScale = PixelScale.standard
  /// Canvas widths in points.
  static let canvasWidths = CanvasWidth.supported
  /// The canvas width used when none is given.
  static let standardCanvasWidth = CanvasWidth.standard
}

extension Choices {
  /// The names of a value type, and what they are called in messages.
  init<Value: NamedValue>(_ type: Value.Type) {
    self.init(kind: Value.kindName, names: Value.names)
  }
}
