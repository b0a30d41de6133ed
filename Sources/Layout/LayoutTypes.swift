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
  /// Android's font scale (``Primitives/FontScale``), for the Android rules only: 1 is the
  /// default; text sizes follow Android's non-linear tables, marker boxes and icons the scale.
  public var fontScale: Double
  /// iOS Dynamic Type (``Primitives/ContentSizeCategory``), for the iOS rules only: `large` is
  /// the default; font sizes, line heights and the ordered box scale by body size / 17.
  public var contentSize: ContentSizeCategory
  /// Whether to draw the accessibility snapshot: each spoken element's frame tinted, and a
  /// legend of what the platform's screen reader says, in reading order, beside the list (see
  /// ``AccessibilitySnapshot``).
  public var accessibilitySnapshot: Bool
  /// The device pixels per point Android's text is set on (``Primitives/PixelScale``, 1–3), for
  /// the Android rules only: glyph advances are rounded to whole pixels at this scale, so lines
  /// can break differently at 1×, 2× and 3× (SPEC §6b). nil: ``Primitives/PixelScale/standard``.
  /// A PNG drawn by `BulletListRenderer` replaces it with its own scale; SVG, PDF and the layout
  /// JSON use it as given. The iOS rules keep fractional positions and ignore it.
  public var textPixelScale: Int?
  /// Whether the canvas is only as wide as the widest row needs, at most ``width`` (Paparazzi's
  /// `RenderingMode.SHRINK`, swift-snapshot-testing's `.sizeThatFits`): rows are laid out, and
  /// wrap, as on the full width; a wrapped label needs its whole wrap width, as a Compose `Text`
  /// does. A right-to-left list keeps its right edge on the canvas's.
  public var shrink: Bool

  /// Creates options; the defaults draw a 360-pt wide, left-to-right, English list with the
  /// iOS rules.
  public init(
    width: Double = CanvasWidth.standard, background: BackgroundOption = .theme,
    locale: String? = nil,
    direction: LayoutDirection? = nil, textStyleOverride: TextStyle? = nil,
    platform: Platform = .ios, fontScale: Double = FontScale.standard,
    contentSize: ContentSizeCategory = .large, accessibilitySnapshot: Bool = false,
    textPixelScale: Int? = nil, shrink: Bool = false
  ) {
    self.width = width
    self.background = background
    self.locale = locale
    self.direction = direction
    self.textStyleOverride = textStyleOverride
    self.platform = platform
    self.fontScale = fontScale
    self.contentSize = contentSize
    self.accessibilitySnapshot = accessibilitySnapshot
    self.textPixelScale = textPixelScale
    self.shrink = shrink
  }

  /// These options with text set on `scale` pixels per point: what a bitmap drawn at `scale`
  /// needs (Android's glyph advances are whole pixels of that bitmap).
  public func drawn(atPixelScale scale: Int) -> LayoutOptions {
    var options = self
    options.textPixelScale = scale
    return options
  }

  /// The pixel grid of Android's text setting under these options: nil under the iOS rules,
  /// else ``textPixelScale`` or the standard scale.
  public var androidPixelScale: Int? {
    platform == .android ? textPixelScale ?? PixelScale.standard : nil
  }

  /// These options under `platform`'s rules, the other platform's text size back to its
  /// default: a font scale means nothing to iOS, a content size nothing to Android, so one set of
  /// options can draw both platforms (`--platform all`).
  public func on(_ platform: Platform) -> LayoutOptions {
    var options = self
    options.platform = platform
    switch platform {
    case .ios: options.fontScale = FontScale.standard
    case .android: options.contentSize = .large
    }
    return options
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
  /// The font scale is not a number within ``Primitives/FontScale/supported``.
  case invalidFontScale(Double)
  /// The text pixel scale is not one of ``Primitives/PixelScale/supported``.
  case invalidTextPixelScale(Int)
  /// A text size setting of the other platform: a font scale under the iOS rules, or a content
  /// size under the Android rules (`setting` says which).
  case textSizeForOtherPlatform(setting: String, platform: Platform)

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
    case .invalidFontScale(let scale):
      let range = FontScale.supported
      return
        "the font scale must be a number from \(FontScale.text(range.lowerBound)) to \(FontScale.text(range.upperBound)), got \(scale)"
    case .invalidTextPixelScale(let scale):
      return "the text pixel scale must be \(PixelScale.choices), got \(scale)"
    case .textSizeForOtherPlatform(let setting, let platform):
      return platform == .ios
        ? "\(setting) is Android's font scale: draw with the Android rules (platform android), or use the content size (Dynamic Type) for iOS"
        : "\(setting) is iOS Dynamic Type: draw with the iOS rules (platform ios), or use the font scale for Android"
    }
  }
}
