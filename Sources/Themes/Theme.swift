import Foundation
import VectorAsset

/// One of the four OUDS themes this renderer knows.
public enum ThemeName: String, Codable, Sendable, CaseIterable {
  /// Orange.
  case orange
  /// Orange Compact (denser Orange).
  case orangeCompact = "orange-compact"
  /// Sosh.
  case sosh
  /// Wireframe.
  case wireframe

  /// The name people read, e.g. "Orange Compact".
  public var displayName: String {
    switch self {
    case .orange: "Orange"
    case .orangeCompact: "Orange Compact"
    case .sosh: "Sosh"
    case .wireframe: "Wireframe"
    }
  }
}

/// Light or dark mode.
public enum ColorMode: String, Codable, Sendable, CaseIterable {
  /// Light mode.
  case light
  /// Dark mode.
  case dark
}

/// The two text styles of the bullet list (token names `body-large` and `body-medium`).
public enum TypographyRole: String, Codable, Sendable, CaseIterable {
  /// Body Large.
  case bodyLarge = "body-large"
  /// Body Medium.
  case bodyMedium = "body-medium"
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

/// Colours of one theme in one mode (straight alpha).
public struct ThemeColors: Hashable, Sendable {
  /// `color.content.default`: text, ordered prefixes, unbranded bullets.
  public var contentDefault: RGBA
  /// `color.content.brand-primary`: branded bullets.
  public var contentBrandPrimary: RGBA
  /// `color.bg.primary`: canvas background.
  public var backgroundPrimary: RGBA
  /// Link colour, enabled state.
  public var linkEnabled: RGBA

  /// Creates theme colours.
  public init(contentDefault: RGBA, contentBrandPrimary: RGBA, backgroundPrimary: RGBA, linkEnabled: RGBA) {
    self.contentDefault = contentDefault
    self.contentBrandPrimary = contentBrandPrimary
    self.backgroundPrimary = backgroundPrimary
    self.linkEnabled = linkEnabled
  }
}

/// An sRGB colour as stored in the token files, as `#RRGGBB` or `#RRGGBBAA`.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
  /// `#RRGGBB` (opaque) or `#RRGGBBAA`, upper case.
  public var hex: String

  /// Creates a colour from its hex string (not validated here; the loader validates).
  public init(hex: String) { self.hex = hex }

  /// The hex string.
  public var description: String { hex }
}

/// One marker shape of a theme, read from its asset file under `markers/`.
public struct MarkerAsset: Hashable, Sendable {
  /// The name scenes and the layout JSON use: the folder and the file name without its
  /// extension, joined by a dot (`orange.square` for `orange/square.svg`).
  public var name: String
  /// The file as the spec file names it, relative to `markers/` (e.g. `orange/square.svg`).
  public var file: String
  /// The filled outline read from the file.
  public var outline: VectorOutline

  /// Creates a marker asset.
  public init(name: String, file: String, outline: VectorOutline) {
    self.name = name
    self.file = file
    self.outline = outline
  }
}

/// A theme's marker shapes: the bullets of nesting levels 0, 1 and 2, and the check mark.
public struct MarkerShapes: Hashable, Sendable {
  /// Bullets for levels 0, 1 and 2.
  public var levels: [MarkerAsset]
  /// The check mark.
  public var tick: MarkerAsset

  /// Creates a theme's marker shapes.
  public init(levels: [MarkerAsset], tick: MarkerAsset) {
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
  public var paddingInline: [Double]
  /// Component metrics per text style.
  public var metrics: [TypographyRole: BulletListMetrics]
  /// Typography per text style.
  public var typography: [TypographyRole: Typography]
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
    name: ThemeName, mode: ColorMode, paddingInline: [Double],
    metrics: [TypographyRole: BulletListMetrics], typography: [TypographyRole: Typography],
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
  public init(fileName: String, sha256: String, role: String, family: String? = nil, debianPackage: String? = nil) {
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
  /// The files, in declaration order.
  public var files: [FontFile]

  /// Creates a manifest.
  public init(theme: ThemeName, files: [FontFile]) {
    self.theme = theme
    self.files = files
  }
}
