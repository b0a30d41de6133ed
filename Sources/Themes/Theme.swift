import Primitives

/// One value per text style of the bullet list (`body-large`, `body-medium`): a theme has both.
public struct PerTextStyle<Value: Hashable & Sendable>: Hashable, Sendable {
  /// The Body Large value.
  public var bodyLarge: Value
  /// The Body Medium value.
  public var bodyMedium: Value

  /// Creates the pair.
  public init(bodyLarge: Value, bodyMedium: Value) {
    self.bodyLarge = bodyLarge
    self.bodyMedium = bodyMedium
  }

  /// The value of `style`.
  public subscript(style: TextStyle) -> Value {
    get {
      switch style {
      case .bodyLarge: bodyLarge
      case .bodyMedium: bodyMedium
      }
    }
    set {
      switch style {
      case .bodyLarge: bodyLarge = newValue
      case .bodyMedium: bodyMedium = newValue
      }
    }
  }
}

/// One value per nesting level of a list, 0, 1 and 2 (a list has at most three levels).
public struct PerLevel<Value: Hashable & Sendable>: Hashable, Sendable {
  /// The values of levels 0, 1 and 2, in order; always three.
  public private(set) var values: [Value]

  /// Creates the three values.
  public init(_ level0: Value, _ level1: Value, _ level2: Value) {
    values = [level0, level1, level2]
  }

  /// The value of `level`; a level outside 0...2 (which no list has) reads the nearest one.
  public subscript(level level: Int) -> Value {
    values[min(max(level, 0), 2)]
  }
}

/// The resolved typography of one text style, in points.
public struct Typography: Hashable, Sendable {
  /// Font size.
  public var fontSize: Double
  /// Absolute line height.
  public var lineHeight: Double
  /// Absolute letter spacing.
  public var letterSpacing: Double
  /// Weight of regular (not bold) text, e.g. 400 (500 in Sosh).
  public var regularWeight: Int
  /// Weight of bold and strong text, e.g. 700.
  public var strongWeight: Int

  /// Creates a typography value.
  public init(
    fontSize: Double, lineHeight: Double, letterSpacing: Double, regularWeight: Int,
    strongWeight: Int
  ) {
    self.fontSize = fontSize
    self.lineHeight = lineHeight
    self.letterSpacing = letterSpacing
    self.regularWeight = regularWeight
    self.strongWeight = strongWeight
  }
}

/// The bullet-list component tokens of one text style, in points.
public struct BulletListMetrics: Hashable, Sendable {
  /// Gap between the bullet box and the label.
  public var columnGap: Double
  /// Padding above and below each row.
  public var paddingBlock: Double
  /// Minimum width of the bullet box (`size.icon.with-body.*.size-medium`).
  public var bulletBoxWidth: Double
  /// Side of the square the bullet, tick or icon is drawn in (`…size-small`).
  public var iconSize: Double
  /// Maximum label width (`size.max-width.body.*`).
  public var labelMaxWidth: Double

  /// Creates bullet-list metrics.
  public init(
    columnGap: Double, paddingBlock: Double, bulletBoxWidth: Double, iconSize: Double,
    labelMaxWidth: Double
  ) {
    self.columnGap = columnGap
    self.paddingBlock = paddingBlock
    self.bulletBoxWidth = bulletBoxWidth
    self.iconSize = iconSize
    self.labelMaxWidth = labelMaxWidth
  }
}

/// Colours of one theme in one mode (straight alpha), resolved from the tokens when the theme loads.
public struct ThemeColors: Hashable, Sendable {
  /// `color.content.default`: text, ordered prefixes, unbranded bullets.
  public var contentDefault: RGBAColor
  /// `color.content.brand-primary`: branded bullets.
  public var contentBrandPrimary: RGBAColor
  /// `color.bg.primary`: canvas background.
  public var backgroundPrimary: RGBAColor
  /// Link colour, enabled state.
  public var linkEnabled: RGBAColor
  /// `color.content.status.negative`: negative (error) content, the colour `sheet --audit` draws
  /// a failing figure in. The component never draws it, so the renderer does not require it: nil
  /// when the themes folder does not define it (a folder copied before it existed).
  public var contentStatusNegative: RGBAColor?

  /// Creates theme colours.
  public init(
    contentDefault: RGBAColor, contentBrandPrimary: RGBAColor, backgroundPrimary: RGBAColor,
    linkEnabled: RGBAColor, contentStatusNegative: RGBAColor? = nil
  ) {
    self.contentDefault = contentDefault
    self.contentBrandPrimary = contentBrandPrimary
    self.backgroundPrimary = backgroundPrimary
    self.linkEnabled = linkEnabled
    self.contentStatusNegative = contentStatusNegative
  }

  /// The colour of `role`.
  public subscript(role: ThemeColorRole) -> RGBAColor {
    switch role {
    case .contentDefault: contentDefault
    case .contentBrandPrimary: contentBrandPrimary
    case .backgroundPrimary: backgroundPrimary
    case .linkEnabled: linkEnabled
    }
  }
}

/// The colours a theme resolves, each named after the token it is read from.
public enum ThemeColorRole: String, CaseIterable, Hashable, Sendable {
  /// `color.content.default`: text, ordered prefixes, unbranded bullets.
  case contentDefault
  /// `color.content.brand-primary`: branded bullets.
  case contentBrandPrimary
  /// `color.bg.primary`: canvas background.
  case backgroundPrimary
  /// `link.color.content.enabled`: links.
  case linkEnabled

  /// The token path the colour is read from.
  public var tokenPath: String {
    switch self {
    case .contentDefault: "color.content.default"
    case .contentBrandPrimary: "color.content.brand-primary"
    case .backgroundPrimary: "color.bg.primary"
    case .linkEnabled: "link.color.content.enabled"
    }
  }
}

/// One marker shape of a theme and the asset file under `markers/` it was read from.
public struct MarkerAsset: Hashable, Sendable {
  /// The shape, named after the file (`orange.square` for `orange/square.svg`).
  public var shape: MarkerShape
  /// The file as the spec file names it, relative to `markers/` (e.g. `orange/square.svg`).
  public var file: String

  /// Creates a marker asset.
  public init(shape: MarkerShape, file: String) {
    self.shape = shape
    self.file = file
  }

  /// The shape's name (`orange.square`).
  public var name: String { shape.name }
  /// The shape's outline.
  public var outline: VectorOutline { shape.outline }
}

/// A theme's marker shapes, read from its asset files when the theme loads: the bullets of
/// nesting levels 0, 1 and 2, and the check mark.
public struct MarkerShapes: Hashable, Sendable {
  /// Bullets for levels 0, 1 and 2.
  public var levels: PerLevel<MarkerAsset>
  /// The check mark.
  public var tick: MarkerAsset

  /// Creates a theme's marker shapes.
  public init(levels: PerLevel<MarkerAsset>, tick: MarkerAsset) {
    self.levels = levels
    self.tick = tick
  }
}

/// A theme resolved for one mode: every number, colour and font the renderer needs.
public struct Theme: Hashable, Sendable {
  /// Which theme.
  public var name: ThemeName
  /// Which mode.
  public var mode: ColorMode
  /// `bullet-list.space.padding-inline.level-{0,1,2}`: row offset from the list's start edge.
  public var paddingInline: PerLevel<Double>
  /// Component metrics per text style.
  public var metrics: PerTextStyle<BulletListMetrics>
  /// Typography per text style.
  public var typography: PerTextStyle<Typography>
  /// Font families in preference order: brand, substitute, Arabic.
  public var fontFamilies: [String]
  /// Colours of this mode.
  public var colors: ThemeColors
  /// Marker shapes per level and the tick, read from the theme's asset files.
  public var shapes: MarkerShapes
  /// Whether the brand allows italic (Orange brands do not).
  public var allowsItalic: Bool

  /// Creates a theme.
  public init(
    name: ThemeName, mode: ColorMode, paddingInline: PerLevel<Double>,
    metrics: PerTextStyle<BulletListMetrics>, typography: PerTextStyle<Typography>,
    fontFamilies: [String], colors: ThemeColors, shapes: MarkerShapes, allowsItalic: Bool
  ) {
    self.name = name
    self.mode = mode
    self.paddingInline = paddingInline
    self.metrics = metrics
    self.typography = typography
    self.fontFamilies = fontFamilies
    self.colors = colors
    self.shapes = shapes
    self.allowsItalic = allowsItalic
  }
}

/// One font file a theme declares: a file name and the SHA-256 of its bytes, never a path.
///
/// The file is looked for by name in the font folders (`--font-dir`, `OUDS_FONT_DIRS`, the folders
/// fontconfig lists) and chosen by its hash, so the same manifest works wherever the fonts live.
public struct FontFile: Hashable, Sendable {
  /// The file name, e.g. `LiberationSans-Regular.ttf` (no folder).
  public var fileName: String
  /// Expected SHA-256 of the file, lower-case hex.
  public var sha256: String
  /// What the file is for, e.g. `latin-regular`, `latin-bold`, `arabic-regular`.
  public var role: String
  /// The family name the file declares, e.g. `Liberation Sans` (informative; fontconfig reads the file).
  public var family: String? = nil
  /// The Debian package that installs the file, e.g. `fonts-liberation2` (named in the missing-file error).
  public var debianPackage: String? = nil

  /// Creates a font file entry.
  public init(
    fileName: String, sha256: String, role: String, family: String? = nil,
    debianPackage: String? = nil
  ) {
    self.fileName = fileName
    self.sha256 = sha256
    self.role = role
    self.family = family
    self.debianPackage = debianPackage
  }

  /// Whether `name` can be a manifest's file name: a plain name (no `/`, not `.` or `..`), printable,
  /// at most 255 bytes.
  public static func isValidFileName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 255 && name != "." && name != ".."
      && !name.unicodeScalars.contains { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F }
  }
}

/// The font files of one theme: exactly what the private font set is built from.
public struct FontManifest: Hashable, Sendable {
  /// The theme the manifest belongs to.
  public var theme: ThemeName
  /// The files, in declaration order: the open substitutes of the brand font (every platform
  /// without a fallback of its own).
  public var files: [FontFile]
  /// What Android draws when the brand font files are unavailable (the manifest's `android`
  /// key), nil when Android draws the same substitutes as iOS.
  public var android: AndroidFallback?

  /// What Android falls back to when the brand font is unavailable, e.g. Roboto for Orange
  /// (Compose's `FontFamily.Default`) and Noto Naskh Arabic for Arabic.
  public struct AndroidFallback: Hashable, Sendable {
    /// The families asked for after the brand family, in order, e.g. `Roboto`, `Noto Naskh Arabic`.
    public var families: [String]
    /// The files of those families, in declaration order.
    public var files: [FontFile]

    /// Creates a fallback.
    public init(families: [String], files: [FontFile]) {
      self.families = families
      self.files = files
    }
  }

  /// Creates a manifest.
  public init(theme: ThemeName, files: [FontFile], android: AndroidFallback? = nil) {
    self.theme = theme
    self.files = files
    self.android = android
  }

  /// Whether `platform` draws this theme with a font set of its own (Android with an `android` key).
  public func hasOwnFonts(on platform: Platform) -> Bool {
    platform == .android && android != nil
  }

  /// The font files `platform` draws with: the `android` fallback's on Android when there is
  /// one, else ``files``.
  public func files(on platform: Platform) -> [FontFile] {
    hasOwnFonts(on: platform) ? android?.files ?? files : files
  }

  /// The name of the font set `platform` draws with: the theme's name, e.g. `orange`, or
  /// `orange/android` for the `android` fallback. It names the set in the fingerprint
  /// (`Snapshots/ENVIRONMENT.json`).
  public func fontSetName(on platform: Platform) -> String {
    hasOwnFonts(on: platform) ? "\(theme.rawValue)/\(platform.rawValue)" : theme.rawValue
  }

  /// The families a label asks for on `platform`, given the theme's `font.family.brand` list:
  /// that list, or on Android with a fallback the brand family (its first) then the fallback's
  /// families, so brand fonts given with `--font-dir` still win.
  public func fontFamilies(on platform: Platform, brandFamilies: [String]) -> [String] {
    guard hasOwnFonts(on: platform), let android else { return brandFamilies }
    return Array(brandFamilies.prefix(1)) + android.families.filter { $0 != brandFamilies.first }
  }
}
