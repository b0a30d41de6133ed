import BulletList
import Primitives
import Scene
import Themes

/// Places every row of a list for a theme (SPEC §5): model + theme → scene.
///
/// Indents are measured from the list's start edge (left in LTR, right in RTL); the marker box is
/// at least the theme's bullet box width and grows to fit a wider ordered prefix; the icon sits at
/// the end side of the box, centred on the first line; labels wrap at min(available, 640).
/// `LayoutOptions.platform` selects the iOS or Android rules where the two differ: the bullet
/// level, the alphabet of ordered prefixes, rich text in bold text, the leading, and (Android)
/// a label centred on a row whose marker is taller than the label's first line.
///
/// Each row goes through the same steps: its text style (``RowStyle``), its marker column
/// (``MarkerColumn``), its label (``PlacedLabel``), then the placement of both on the canvas.
public struct ListLayout {
  /// The resolved theme.
  public let theme: Theme
  /// The text engine that measures labels exactly as they will be drawn.
  public let measurer: any TextMeasuring

  /// Extra width given to an ordered prefix's paragraph so that it never wraps.
  static let prefixSlack = 1.0

  /// The theme colour of labels and ordered prefixes.
  public static let textColorRole = ThemeColorRole.contentDefault
  /// The theme colour of links.
  public static let linkColorRole = ThemeColorRole.linkEnabled

  /// The theme colour a bullet, tick or icon is tinted with: the brand colour in a branded list.
  public static func markerColorRole(isBranded: Bool) -> ThemeColorRole {
    isBranded ? .contentBrandPrimary : .contentDefault
  }

  /// What marks a link besides its colour.
  public struct LinkCues: Hashable, Sendable {
    /// Links are underlined.
    public var isUnderlined: Bool
    /// Links are drawn in the strong weight.
    public var isStrong: Bool
  }

  /// How links are drawn: underlined and in the strong weight (SPEC §2, rich text: "links are
  /// underlined **and bold**").
  public static let linkCues = LinkCues(isUnderlined: true, isStrong: true)

  /// Creates a layout engine for one theme and mode.
  public init(theme: Theme, measurer: any TextMeasuring) {
    self.theme = theme
    self.measurer = measurer
  }

  /// Lays out `list`.
  /// - Throws: `LayoutError.list` for a list the platform's rules refuse (a fourth level, rich
  ///   text in bold on iOS), `.invalidWidth` or `.canvasTooNarrow` for a canvas that cannot hold it.
  public func layout(_ list: OUDSBulletList, options: LayoutOptions = LayoutOptions())
    throws(LayoutError) -> LayoutResult
  {
    guard options.width.isFinite, options.width > 0 else { throw .invalidWidth(options.width) }
    guard FontScale.supported.contains(options.fontScale) else {
      throw .invalidFontScale(options.fontScale)
    }
    if let scale = options.textPixelScale, !PixelScale.supported.contains(scale) {
      throw .invalidTextPixelScale(scale)
    }
    if options.platform == .ios, options.fontScale != FontScale.standard {
      throw .textSizeForOtherPlatform(
        setting: "font scale \(FontScale.text(options.fontScale))", platform: .ios)
    }
    if options.platform == .android, options.contentSize != .large {
      throw .textSizeForOtherPlatform(
        setting: "content size \(options.contentSize.rawValue)", platform: .android)
    }
    var list = list
    if let override = options.textStyleOverride {
      list = list.overridingTextStyle(override)
    }
    let rows: [ResolvedRow]
    do {
      rows = try list.resolvedRows(platform: options.platform)
    } catch {
      throw .list(error)
    }
    let frame = Frame(options: options)
    var warnings: [String] = []
    var sceneRows: [SceneRow] = []
    sceneRows.reserveCapacity(rows.count)
    var y = 0.0
    var contentWidth = 0.0
    for row in rows {
      try checkRanges(row)
      let style = rowStyle(row, frame: frame)
      let marker = markerColumn(row, style: style, frame: frame)
      let label = try self.label(
        row, marker: marker, style: style, frame: frame, warnings: &warnings)
      let placed = place(row, marker: marker, label: label, style: style, top: y, frame: frame)
      sceneRows.append(placed.row)
      y = placed.bottom
      // A wrapped label takes its whole wrap width (Compose's Text: the width of its constraints
      // once it wraps), a single line its own.
      var labelWidth = label.metrics.lineCount > 1 ? label.wrapWidth : label.metrics.width
      if let pixels = frame.androidPixelScale.map(Double.init) {
        // Compose sizes a Text in whole device pixels, its width rounded up.
        labelWidth = (labelWidth * pixels - 1e-9).rounded(.up) / pixels
      }
      contentWidth = max(
        contentWidth, style.indent + marker.boxWidth, label.start + min(labelWidth, label.wrapWidth)
      )
    }
    var scene = Scene(
      width: options.width, height: y, direction: frame.direction, theme: theme.name,
      mode: theme.mode,
      platform: frame.platform,
      background: options.background == .theme ? theme.colors.backgroundPrimary : nil,
      rows: sceneRows)
    if options.shrink, contentWidth < options.width {
      // Paparazzi's SHRINK: the canvas is cut to the content; a right-to-left list moves left
      // with the canvas's right edge.
      if frame.direction == .rtl {
        scene = scene.translated(dx: contentWidth - options.width, dy: 0)
      }
      scene.width = contentWidth
    }
    if options.accessibilitySnapshot {
      scene = accessibilitySnapshot(of: scene, frame: frame)
    }
    return LayoutResult(scene: scene, warnings: warnings)
  }

  // MARK: - The steps of a row

  /// What every row of one layout shares: the canvas, the direction and the platform's rules.
  struct Frame {
    let width: Double
    let direction: LayoutDirection
    let platform: Platform
    let alphabet: MarkerAlphabet
    let accessibility: AccessibilityText
    let language: String
    let sizing: TextSizing
    /// Android's text setting: the pixels per point glyph advances are rounded to; nil on iOS.
    let androidPixelScale: Int?

    init(options: LayoutOptions) {
      width = options.width
      androidPixelScale = options.androidPixelScale
      direction = options.resolvedDirection
      platform = options.platform
      sizing = TextSizing(
        platform: platform, fontScale: options.fontScale, contentSize: options.contentSize)
      alphabet = MarkerAlphabet.forPlatform(
        platform, locale: options.locale, isRightToLeft: direction == .rtl)
      accessibility = AccessibilityText(
        language: AccessibilityText.Language(locale: options.locale), alphabet: alphabet,
        reader: ScreenReader(platform: platform))
      language = options.locale ?? "en"
    }

    /// The canvas x of a span that starts `logicalX` points from the start edge.
    func x(_ logicalX: Double, width spanWidth: Double) -> Double {
      direction == .ltr ? logicalX : width - logicalX - spanWidth
    }
  }

  /// Refuses token values of a row's text style outside ``TokenRange`` (the theme loader refuses
  /// them in token files; a `Theme` built in code is checked here), before any text size scales
  /// them.
  func checkRanges(_ row: ResolvedRow) throws(LayoutError) {
    let textStyle = row.textStyle
    let (metrics, typography) = (theme.metrics[textStyle], theme.typography[textStyle])
    let values: [(String, Double, TokenRange)] = [
      ("font size", typography.fontSize, .fontSize),
      ("line height", typography.lineHeight, .lineHeight),
      ("letter spacing", typography.letterSpacing, .letterSpacing),
      ("column gap", metrics.columnGap, .spacing),
      ("padding block", metrics.paddingBlock, .spacing),
      ("bullet container", metrics.bulletBoxWidth, .spacing),
      ("icon size", metrics.iconSize, .iconSize),
      ("label max width", metrics.labelMaxWidth, .labelWidth),
      ("padding inline", theme.paddingInline[level: row.level], .spacing),
    ]
    for (name, value, range) in values where !range.contains(value) {
      throw .valueOutOfRange(
        theme: "\(theme.name.rawValue)-\(theme.mode.rawValue)",
        value: "\(textStyle.tokenName) \(name)",
        number: value, range: range)
    }
  }

  /// A row's text style resolved against the theme.
  struct RowStyle {
    let metrics: BulletListMetrics
    let typography: Typography
    let appearance: TextAppearance
    /// The row's offset from the start edge.
    let indent: Double
  }

  /// A row's marker column before placement: what the box shows and how big it is.
  struct MarkerColumn {
    var kind = MarkerKind.none
    /// The ordered prefix (`1.`, `A.`…), nil for other kinds.
    var prefix: String?
    /// The prefix as a paragraph, and its measured width.
    var prefixText: (text: StyledText, width: Double)?
    var glyph: SceneGlyph?
    var boxWidth: Double
    /// The height of what the box shows: the prefix's lines or the icon.
    var contentHeight = 0.0
  }

  /// A row's label: where it starts (from the start edge), where it wraps, and what it measures.
  struct PlacedLabel {
    let start: Double
    let wrapWidth: Double
    let content: StyledText
    let metrics: TextMetrics
  }

  /// Step 1: the theme's metrics, typography and text appearance for the row's text style, at
  /// the text size chosen (``TextSizing``).
  func rowStyle(_ row: ResolvedRow, frame: Frame) -> RowStyle {
    let typography = frame.sizing.typography(theme.typography[row.textStyle])
    let appearance = TextAppearance(
      fontFamilies: theme.fontFamilies, fontSize: typography.fontSize,
      lineHeight: typography.lineHeight, letterSpacing: typography.letterSpacing,
      weight: row.isBold ? typography.strongWeight : typography.regularWeight,
      color: theme.colors[Self.textColorRole], language: frame.language,
      leading: frame.platform == .android ? .proportional : .even,
      androidPixelScale: frame.androidPixelScale)
    return RowStyle(
      metrics: frame.sizing.metrics(theme.metrics[row.textStyle], listType: row.listType),
      typography: typography, appearance: appearance,
      indent: theme.paddingInline[level: row.level])
  }

  /// Step 2: the marker column: an ordered prefix (measured; it may widen the box), a theme
  /// shape or an icon tinted with the brand or content colour, or nothing.
  func markerColumn(_ row: ResolvedRow, style: RowStyle, frame: Frame) -> MarkerColumn {
    var column = MarkerColumn(boxWidth: style.metrics.bulletBoxWidth)
    switch row.listType {
    case .bare:
      column.kind = .none
    case .ordered:
      column.kind = .ordered
      let text = OrderedMarker.prefix(level: row.level, index: row.index, alphabet: frame.alphabet)
      let styled = StyledText(
        spans: [TextSpan(text)], appearance: style.appearance, direction: frame.direction)
      let measured = measurer.measure(styled, wrapWidth: nil)
      column.prefix = text
      column.prefixText = (styled, measured.width)
      column.contentHeight = measured.height
      column.boxWidth = max(column.boxWidth, measured.width)
    case .unordered(let asset, let isBranded):
      let tint = theme.colors[Self.markerColorRole(isBranded: isBranded)]
      column.contentHeight = style.metrics.iconSize
      switch asset {
      case .bullet:
        column.kind = .bullet
        let level = row.bulletAssetLevel(platform: frame.platform)
        column.glyph = SceneGlyph(shape: theme.shapes.levels[level: level].shape, tint: tint)
      case .tick:
        column.kind = .tick
        column.glyph = SceneGlyph(shape: theme.shapes.tick.shape, tint: tint)
      case .icon(let icon):
        column.kind = .icon
        column.glyph = SceneGlyph(imageFile: icon.file, tint: tint)
      }
    }
    return column
  }

  /// Step 3: the label after the marker box and the column gap, wrapped at min(available, the
  /// theme's maximum label width), measured; characters no font has are reported as a warning.
  func label(
    _ row: ResolvedRow, marker: MarkerColumn, style: RowStyle, frame: Frame,
    warnings: inout [String]
  ) throws(LayoutError) -> PlacedLabel {
    let start = style.indent + marker.boxWidth + style.metrics.columnGap
    let available = frame.width - start
    guard available >= 1 else {
      throw .canvasTooNarrow(path: row.path, width: frame.width, labelStart: start)
    }
    let wrapWidth = min(available, style.metrics.labelMaxWidth)
    let content = StyledText(
      spans: spans(
        for: row.label, typography: style.typography, path: row.path, warnings: &warnings),
      appearance: style.appearance, direction: frame.direction)
    let metrics = measurer.measure(content, wrapWidth: wrapWidth)
    if !metrics.missingCharacters.isEmpty {
      let listed = metrics.missingCharacters.prefix(5).map { character in
        let codes = character.unicodeScalars.map {
          "U+" + String($0.value, radix: 16, uppercase: true)
        }
        return "\(character) (\(codes.joined(separator: " ")))"
      }
      warnings.append(
        "\(row.path): no font of the \(theme.name.displayName) theme has \(listed.joined(separator: ", "))\(metrics.missingCharacters.count > 5 ? " and more" : ""); drawn as boxes"
      )
    }
    return PlacedLabel(start: start, wrapWidth: wrapWidth, content: content, metrics: metrics)
  }

  /// Step 4: the row on the canvas, from `top`: padding, then the content; the box is the first
  /// line box. On Android a marker taller than that line makes the box as tall as the marker,
  /// and the label is centred on the row. Returns the row and the bottom of its padding.
  func place(
    _ row: ResolvedRow, marker: MarkerColumn, label: PlacedLabel, style: RowStyle,
    top rowTop: Double,
    frame: Frame
  ) -> (row: SceneRow, bottom: Double) {
    let top = rowTop + style.metrics.paddingBlock
    let measured = label.metrics
    let firstLineHeight = min(measured.height, style.typography.lineHeight)
    let boxHeight =
      frame.platform == .android ? max(firstLineHeight, marker.contentHeight) : firstLineHeight
    let contentHeight = max(measured.height, boxHeight)
    let labelTop = top + (contentHeight - measured.height) / 2

    let markerRect = Rect(
      x: frame.x(style.indent, width: marker.boxWidth), y: top, width: marker.boxWidth,
      height: boxHeight)
    var iconRect: Rect?
    if marker.glyph != nil {
      let size = style.metrics.iconSize
      iconRect = Rect(
        x: frame.x(style.indent + marker.boxWidth - size, width: size),
        y: top + (boxHeight - size) / 2,
        width: size, height: size)
    }
    // The prefix hugs the end side of the box. Its paragraph gets one point of slack so that
    // rounding can never wrap it: right-aligned in LTR, left-aligned in RTL.
    let markerText = marker.prefixText.map { prefix in
      let paragraphWidth = prefix.width + Self.prefixSlack
      return SceneText(
        origin: Point(
          x: frame.direction == .ltr ? markerRect.maxX - paragraphWidth : markerRect.x, y: top),
        wrapWidth: paragraphWidth, alignment: frame.direction == .ltr ? .right : .left,
        content: prefix.text)
    }
    let labelRect = Rect(
      x: frame.x(label.start, width: measured.width), y: labelTop, width: measured.width,
      height: measured.height)
    let text = SceneText(
      origin: Point(x: frame.x(label.start, width: label.wrapWidth), y: labelTop),
      wrapWidth: label.wrapWidth,
      alignment: frame.direction == .ltr ? .left : .right, content: label.content)
    let sceneRow = SceneRow(
      path: row.path, level: row.level,
      marker: SceneMarker(kind: marker.kind, text: marker.prefix, rect: markerRect),
      icon: iconRect, glyph: marker.glyph, markerText: markerText, label: labelRect, text: text,
      lines: measured.lineCount, firstBaseline: measured.firstBaseline,
      accessibilityLabel: frame.accessibility.label(for: row))
    return (sceneRow, top + contentHeight + style.metrics.paddingBlock)
  }

  /// The label's spans: plain text as one span; rich text with strong runs and links in the
  /// strong weight, links underlined in the link colour, emphasis slanted when the brand allows
  /// italic (a warning says so when it does not).
  private func spans(
    for label: OUDSBulletList.Label, typography: Typography, path: String,
    warnings: inout [String]
  ) -> [TextSpan] {
    switch label {
    case .plain(let text):
      return [TextSpan(text)]
    case .rich(let rich):
      if rich.hasEmphasis && !theme.allowsItalic {
        warnings.append(
          "\(path): the \(theme.name.displayName) brand does not allow italic; emphasis is drawn upright"
        )
      }
      let link = theme.colors[Self.linkColorRole]
      return rich.runs.map { run in
        let strong = run.isStrong || (run.link != nil && Self.linkCues.isStrong)
        return TextSpan(
          run.text, weight: strong ? typography.strongWeight : nil,
          italic: run.isEmphasis && theme.allowsItalic,
          underline: run.link != nil && Self.linkCues.isUnderlined,
          color: run.link != nil ? link : nil, link: run.link)
      }
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
