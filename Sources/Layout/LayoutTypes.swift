import BulletList
import Primitives
import Scene
import Themes

/// How the canvas behind the list is filled.
public enum BackgroundOption: String, Sendable, CaseIterable, NamedValue {
  /// `background` in messages.
  public static var kindName: String { "background" }

  /// The theme's `color.bg.primary` for the mode.
  case theme
  /// Transparent.
  case none
}

/// Settings of one layout that do not come from the list or the theme.
public struct LayoutOptions: Hashable, Sendable {
  /// Canvas width in points (default 360, the width of the OUDS previews).
  public var width: Double
  /// Canvas fill.
  public var background: BackgroundOption
  /// Locale tag: selects the accessibility language, the marker alphabet (iOS rules) and, for
  /// Arabic, RTL.
  public var locale: String?
  /// Direction override; nil derives it from the locale (Arabic → RTL, otherwise LTR).
  public var direction: LayoutDirection?
  /// Text style override for the whole list (every level), used by snapshot variants.
  public var textStyleOverride: TextStyle?
  /// Whose rules to follow where iOS and Android differ (see ``Primitives/Platform``).
  public var platform: Platform

  /// Creates options; the defaults draw a 360-pt wide, left-to-right, English list with the
  /// iOS rules.
  public init(
    width: Double = CanvasWidth.standard, background: BackgroundOption = .theme,
    locale: String? = nil,
    direction: LayoutDirection? = nil, textStyleOverride: TextStyle? = nil,
    platform: Platform = .ios
  ) {
    self.width = width
    self.background = background
    self.locale = locale
    self.direction = direction
    self.textStyleOverride = textStyleOverride
    self.platform = platform
  }

  /// The direction in effect: the override, or RTL for an Arabic locale.
  public var resolvedDirection: LayoutDirection {
    direction ?? (MarkerAlphabet.forLocale(locale) == .arabic ? .rtl : .ltr)
  }
}

/// A laid-out list and the warnings the layout produced (e.g. italic drawn upright).
public struct LayoutResult: Sendable {
  /// What to draw where.
  public var scene: Scene
  /// Things a person should know, one line each; the CLI prints them on stderr.
  public var warnings: [String]

  /// Creates a result.
  public init(scene: Scene, warnings: [String]) {
    self.scene = scene
    self.warnings = warnings
  }
}

/// Why a list could not be laid out; the description is one line naming the item involved.
public enum LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The list is not valid for the platform's rules (a fourth level, rich text in bold on iOS).
  case list(BulletListError)
  /// The canvas width is zero, negative or not a number.
  case invalidWidth(Double)
  /// The canvas leaves a row's label less than one point: the row at `path` indents its label
  /// to `labelStart` points on a canvas `width` points wide.
  case canvasTooNarrow(path: String, width: Double, labelStart: Double)
  /// A value of a `Theme` built in code is outside the renderer's range (token files are checked
  /// when loaded): `value` names it (`body-large font size`), `theme` the theme and mode.
  case valueOutOfRange(theme: String, value: String, number: Double, range: TokenRange)

  /// One line: the list error as it is, or what is wrong with the canvas.
  public var description: String {
    switch self {
    case .list(let error):
      return error.description
    case .invalidWidth(let width):
      return "the canvas width must be a positive number of points, got \(width)"
    case .canvasTooNarrow(let path, let width, let labelStart):
      return
        "\(path): the canvas (\(width) pt) is too narrow for a label starting at \(labelStart) pt"
    case .valueOutOfRange(let theme, let value, let number, let range):
      return
        "theme \(theme): \(value) \(TokenRange.format(number)) px is out of range: the renderer needs \(range)"
    }
  }
}
