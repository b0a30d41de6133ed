import CLIKit
import Primitives

/// The ranges and words the command line shares with lists, the catalogue and the Swift API: the
/// ranges come from ``Primitives/PixelScale`` and ``Primitives/CanvasWidth`` (an option of names
/// takes them from its value type, `TypedOption.choice`), so every option table, help line, completion and message says what the rest of the pipeline
/// accepts.
enum Vocabulary {
  /// The word that selects every theme, mode or platform.
  static let all = Choices.all

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
