import BulletList
import Scene
import Themes

/// How the canvas behind the list is filled.
public enum BackgroundOption: String, Sendable, CaseIterable {
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
  public var textStyleOverride: OUDSBulletList.TextStyle?
  /// Whose rules to follow where iOS and Android differ (see ``OUDSBulletList/Platform``).
  public var platform: OUDSBulletList.Platform

  /// Creates options; the defaults draw a 360-pt wide, left-to-right, English list with the
  /// iOS rules.
  public init(
    width: Double = 360, background: BackgroundOption = .theme, locale: String? = nil,
    direction: LayoutDirection? = nil, textStyleOverride: OUDSBulletList.TextStyle? = nil,
    platform: OUDSBulletList.Platform = .ios
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

/// A layout failure, one line naming the item or token involved.
public struct LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The message.
  public var description: String

  /// Creates an error.
  public init(_ description: String) {
    self.description = description
  }
}

/// Places every row of a list for a theme (SPEC §5): model + theme → scene.
///
/// Indents are measured from the list's start edge (left in LTR, right in RTL); the marker box is
/// at least the theme's bullet box width and grows to fit a wider ordered prefix; the icon sits at
/// the end side of the box, centred on the first line; labels wrap at min(available, 640).
/// `LayoutOptions.platform` selects the iOS or Android rules where the two differ: the bullet
/// level, the alphabet of ordered prefixes, rich text in bold text, the leading, and (Android)
/// a label centred on a row whose marker is taller than the label's first line.
public struct ListLayout {
  /// The resolved theme.
  public let theme: Theme
  /// The text engine that measures labels exactly as they will be drawn.
  public let measurer: any TextMeasuring

  /// Extra width given to an ordered prefix's paragraph so that it never wraps.
  static let prefixSlack = 1.0

  /// Creates a layout engine for one theme and mode.
  public init(theme: Theme, measurer: any TextMeasuring) {
    self.theme = theme
    self.measurer = measurer
  }

  /// Lays out `list`.
  /// - Throws: `BulletListError` for an invalid list (a fourth level, rich text in bold on iOS),
  ///   `LayoutError` for a theme that lacks a value or a text that cannot be measured.
  public func layout(_ list: OUDSBulletList, options: LayoutOptions = LayoutOptions()) throws
    -> LayoutResult
  {
    guard options.width.isFinite, options.width > 0 else {
      throw LayoutError("the canvas width must be a positive number of points, got \(options.width)")
    }
    var list = list
    if let override = options.textStyleOverride {
      list = list.overridingTextStyle(override)
    }
    let platform = options.platform
    let rows = try list.resolvedRows(platform: platform)
    let direction = options.resolvedDirection
    let alphabet = MarkerAlphabet.forPlatform(
      platform, locale: options.locale, isRightToLeft: direction == .rtl)
    let accessibility = AccessibilityText(
      language: AccessibilityText.Language(locale: options.locale), alphabet: alphabet)
    let language = options.locale ?? "en"
    var warnings: [String] = []
    var sceneRows: [SceneRow] = []
    var y = 0.0

    for row in rows {
      let role = row.textStyle.typographyRole
      guard let metrics = theme.metrics[role], let typography = theme.typography[role] else {
        throw LayoutError("theme \(theme.name.rawValue) has no bullet-list tokens for \(role.rawValue)")
      }
      guard row.level < theme.paddingInline.count else {
        throw LayoutError("theme \(theme.name.rawValue) has no padding-inline token for level \(row.level)")
      }
      let appearance = TextAppearance(
        fontFamilies: theme.fontFamilies, fontSize: typography.fontSize,
        lineHeight: typography.lineHeight, letterSpacing: typography.letterSpacing,
        weight: row.isBold ? typography.strongWeight : typography.regularWeight,
        color: try color(theme.colors.contentDefault, "color.content.default"),
        language: language, leading: platform == .android ? .proportional : .even)
      let indent = theme.paddingInline[row.level]
      let lineHeight = typography.lineHeight

      // Marker column.
      var kind = MarkerKind.none
      var prefix: String?
      var glyph: SceneGlyph?
      var boxWidth = metrics.bulletBoxWidth
      var prefixText: StyledText?
      var prefixWidth = 0.0
      var markerHeight = 0.0  // the height of what the box shows: prefix lines or icon
      switch row.listType {
      case .bare:
        kind = .none
      case .ordered:
        kind = .ordered
        let text = OrderedMarker.prefix(level: row.level, index: row.index, alphabet: alphabet)
        prefix = text
        let styled = StyledText(spans: [TextSpan(text)], appearance: appearance, direction: direction)
        let measured = try measure(styled, wrapWidth: nil, path: row.path)
        prefixWidth = measured.width
        markerHeight = measured.height
        boxWidth = max(boxWidth, measured.width)
        prefixText = styled
      case .unordered(let asset, let isBranded):
        let tint = try isBranded
          ? color(theme.colors.contentBrandPrimary, "color.content.brand-primary")
          : color(theme.colors.contentDefault, "color.content.default")
        markerHeight = metrics.iconSize
        switch asset {
        case .bullet:
          kind = .bullet
          let level = row.bulletAssetLevel(platform: platform)
          glyph = SceneGlyph(shape: try shape(theme.shapes.levels[safe: level], level: level), tint: tint)
        case .tick:
          kind = .tick
          glyph = SceneGlyph(shape: try shape(theme.shapes.tick, level: nil), tint: tint)
        case .icon(let icon):
          kind = .icon
          glyph = SceneGlyph(imageFile: icon.file, tint: tint)
        }
      }

      // Label.
      let labelStart = indent + boxWidth + metrics.columnGap
      let available = options.width - labelStart
      guard available >= 1 else {
        throw LayoutError(
          "\(row.path): the canvas (\(options.width) pt) is too narrow for a label starting at \(labelStart) pt")
      }
      let wrapWidth = min(available, metrics.labelMaxWidth)
      let content = StyledText(
        spans: try spans(for: row.label, typography: typography, path: row.path, warnings: &warnings),
        appearance: appearance, direction: direction)
      let label = try measure(content, wrapWidth: wrapWidth, path: row.path)
      if !label.missingCharacters.isEmpty {
        let listed = label.missingCharacters.prefix(5).map { character in
          let codes = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
          return "\(character) (\(codes.joined(separator: " ")))"
        }
        warnings.append(
          "\(row.path): no font of the \(theme.name.displayName) theme has \(listed.joined(separator: ", "))\(label.missingCharacters.count > 5 ? " and more" : ""); drawn as boxes")
      }

      // Vertical placement: padding, then the content; the box is the first line box. On
      // Android a marker taller than that line makes the box as tall as the marker, and the
      // label is centred on the row.
      let top = y + metrics.paddingBlock
      let firstLineHeight = min(label.height, lineHeight)
      let boxHeight =
        platform == .android ? max(firstLineHeight, markerHeight) : firstLineHeight
      let contentHeight = max(label.height, boxHeight)
      let labelTop = top + (contentHeight - label.height) / 2

      func place(_ logicalX: Double, _ width: Double) -> Double {
        direction == .ltr ? logicalX : options.width - logicalX - width
      }
      let markerRect = Rect(x: place(indent, boxWidth), y: top, width: boxWidth, height: boxHeight)
      var iconRect: Rect?
      if glyph != nil {
        let size = metrics.iconSize
        iconRect = Rect(
          x: place(indent + boxWidth - size, size), y: top + (boxHeight - size) / 2,
          width: size, height: size)
      }
      // The prefix hugs the end side of the box. Its paragraph gets one point of slack so that
      // rounding can never wrap it: right-aligned in LTR, left-aligned in RTL.
      let markerText = prefixText.map { styled in
        let paragraphWidth = prefixWidth + Self.prefixSlack
        return SceneText(
          origin: Point(
            x: direction == .ltr ? markerRect.maxX - paragraphWidth : markerRect.x, y: top),
          wrapWidth: paragraphWidth, alignment: direction == .ltr ? .right : .left,
          content: styled)
      }
      let labelRect = Rect(
        x: place(labelStart, label.width), y: labelTop, width: label.width, height: label.height)
      let text = SceneText(
        origin: Point(x: place(labelStart, wrapWidth), y: labelTop), wrapWidth: wrapWidth,
        alignment: direction == .ltr ? .left : .right, content: content)

      sceneRows.append(
        SceneRow(
          path: row.path, level: row.level,
          marker: SceneMarker(kind: kind, text: prefix, rect: markerRect),
          icon: iconRect, glyph: glyph, markerText: markerText, label: labelRect, text: text,
          lines: label.lineCount, firstBaseline: label.firstBaseline,
          accessibilityLabel: accessibility.label(for: row)))
      y = top + contentHeight + metrics.paddingBlock
    }

    let background: RGBAColor? =
      options.background == .theme ? try color(theme.colors.backgroundPrimary, "color.bg.primary") : nil
    let scene = Scene(
      width: options.width, height: y, direction: direction, theme: theme.name.rawValue,
      mode: theme.mode.rawValue, platform: platform.rawValue, background: background,
      rows: sceneRows)
    return LayoutResult(scene: scene, warnings: warnings)
  }

  private func measure(_ text: StyledText, wrapWidth: Double?, path: String) throws -> TextMetrics {
    do {
      return try measurer.measure(text, wrapWidth: wrapWidth)
    } catch {
      throw LayoutError("\(path): cannot lay out the text: \(error)")
    }
  }

  private func color(_ value: RGBA, _ token: String) throws -> RGBAColor {
    guard let color = RGBAColor(hex: value.hex) else {
      throw LayoutError("theme \(theme.name.rawValue)-\(theme.mode.rawValue): \(token) is not a colour: \(value.hex)")
    }
    return color
  }

  /// The scene shape of a theme marker asset.
  private func shape(_ asset: MarkerAsset?, level: Int?) throws -> SceneShape {
    guard let asset else {
      throw LayoutError("theme \(theme.name.rawValue) has no \(level.map { "bullet shape for level \($0)" } ?? "tick shape")")
    }
    return SceneShape(name: asset.name, outline: asset.outline)
  }

  private func spans(
    for label: OUDSBulletList.Label, typography: Typography, path: String,
    warnings: inout [String]
  ) throws -> [TextSpan] {
    switch label {
    case .plain(let text):
      return [TextSpan(text)]
    case .rich(let rich):
      if rich.hasEmphasis && !theme.allowsItalic {
        warnings.append(
          "\(path): the \(theme.name.displayName) brand does not allow italic; emphasis is drawn upright")
      }
      let link = try color(theme.colors.linkEnabled, "link colour")
      return rich.runs.map { run in
        let strong = run.isStrong || run.link != nil
        return TextSpan(
          run.text, weight: strong ? typography.strongWeight : nil,
          italic: run.isEmphasis && theme.allowsItalic, underline: run.link != nil,
          color: run.link != nil ? link : nil, link: run.link)
      }
    }
  }
}

extension OUDSBulletList.TextStyle {
  /// The token role of the style.
  public var typographyRole: TypographyRole {
    switch self {
    case .bodyLarge: .bodyLarge
    case .bodyMedium: .bodyMedium
    }
  }
}

extension OUDSBulletList {
  /// The same list with every level in `style`.
  func overridingTextStyle(_ style: TextStyle) -> OUDSBulletList {
    func override(_ items: [Item]) -> [Item] {
      items.map { item in
        var item = item
        item.subListTextStyle = item.subListTextStyle == nil ? nil : style
        item.subItems = override(item.subItems)
        return item
      }
    }
    return OUDSBulletList(type: type, textStyle: style, isBold: isBold, items: override(items))
  }
}

extension Array {
  subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
