import BulletList
import BulletListRenderer
import Graphics
import Layout
import Primitives
import Scene
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The layout of a rendering sheet: one list in every theme (rows) and mode (columns).
public struct RenderingSheetStyle: Hashable, Sendable {
  /// Space around the grid, in points.
  public var margin: Double = 16
  /// Space between cells, in points.
  public var gutter: Double = 16
  /// Space above and below a cell's caption, in points.
  public var captionPadding: Double = 10
  /// Colour behind the cells; nil leaves it transparent.
  public var sheetBackground: RGBAColor? = RGBAColor(red: 0xD6, green: 0xD6, blue: 0xD6)
  /// Colour of the text drawn on the sheet's background: the heading, the audit legend, and the
  /// audit figures of a transparent sheet.
  public var sheetText = RGBAColor(red: 0, green: 0, blue: 0)

  /// The background and text colour of the figures `sheet --audit` writes under a cell of `mode`:
  /// white and black under a light cell, black and white under a dark one. The sheet's own, never
  /// the tokens under review, so that a broken text or background token cannot hide its figures;
  /// OUDS's negative colours are made for these surfaces (light mode's on white, dark mode's on
  /// black).
  public func figureColors(_ mode: ColorMode) -> (background: RGBAColor, text: RGBAColor) {
    let white = RGBAColor(red: 255, green: 255, blue: 255)
    let black = RGBAColor(red: 0, green: 0, blue: 0)
    return mode == .light ? (white, black) : (black, white)
  }

  /// Creates the default sheet style.
  public init() {}
}

/// The text sizes a sheet shows side by side: each platform's columns repeat for each size of
/// that platform (`sheet --font-scale 1,1.5,2`, `--content-size large,accessibility5`).
public struct SheetTextSizes: Hashable, Sendable {
  /// Android's font scales; nil: the options' alone.
  public var fontScales: [Double]?
  /// iOS content sizes; nil: the options' alone.
  public var contentSizes: [ContentSizeCategory]?

  /// Creates the sizes of a sheet; nil for a platform keeps the options' size.
  public init(fontScales: [Double]? = nil, contentSizes: [ContentSizeCategory]? = nil) {
    self.fontScales = fontScales
    self.contentSizes = contentSizes
  }

  /// One set of options per size of `options.platform`.
  func options(_ options: LayoutOptions) -> [LayoutOptions] {
    switch options.platform {
    case .android:
      return (fontScales ?? [options.fontScale]).map { scale in
        var sized = options
        sized.fontScale = scale
        return sized
      }
    case .ios:
      return (contentSizes ?? [options.contentSize]).map { size in
        var sized = options
        sized.contentSize = size
        return sized
      }
    }
  }

  /// What a cell's caption says about its size: `font scale 1.5`, `accessibility5`; nil at the
  /// default size when the sheet shows no other size for that platform.
  func caption(_ options: LayoutOptions) -> String? {
    switch options.platform {
    case .android:
      let several = (fontScales?.count ?? 0) > 1
      return several || options.fontScale != FontScale.standard
        ? "font scale \(FontScale.text(options.fontScale))" : nil
    case .ios:
      let several = (contentSizes?.count ?? 0) > 1
      return several || options.contentSize != .large ? options.contentSize.rawValue : nil
    }
  }
}

extension BulletListRenderer {
  /// Lays out `list` for every theme × mode given, side by side, each cell captioned with its
  /// theme and mode and filled with the mode's `bg.primary`.
  ///
  /// Themes are rows and modes are columns; with several `platforms` (nil: `options.platform`
  /// alone), each mode has one column per platform, side by side, and captions name the
  /// platform. `options.background == .none` makes the whole sheet transparent (cells included).
  /// A `heading` is drawn above the grid; with `audit`, ``auditLegend`` follows it and each
  /// cell's WCAG contrast figures (``auditFigures(_:)``) are written under it, a failing figure in
  /// its theme's `color.content.status.negative` of its mode.
  public func sheetLayout(
    _ list: OUDSBulletList, themes names: [ThemeName] = ThemeName.allCases,
    modes: [ColorMode] = ColorMode.allCases, platforms: [Platform]? = nil,
    options: LayoutOptions = LayoutOptions(), textSizes: SheetTextSizes = SheetTextSizes(),
    style: RenderingSheetStyle = RenderingSheetStyle(),
    heading: SheetHeading? = nil, audit: Bool = false
  ) throws(RenderError) -> LayoutResult {
    try auditedSheetLayout(
      list, themes: names, modes: modes, platforms: platforms, options: options,
      textSizes: textSizes, style: style, heading: heading, audit: audit
    ).layout
  }

  /// ``sheetLayout(_:themes:modes:platforms:options:textSizes:style:heading:audit:)`` and, with
  /// `audit`, the audit of each cell (rows, then columns).
  func auditedSheetLayout(
    _ list: OUDSBulletList, themes names: [ThemeName], modes: [ColorMode], platforms: [Platform]?,
    options: LayoutOptions, textSizes: SheetTextSizes, style: RenderingSheetStyle,
    heading: SheetHeading?, audit: Bool
  ) throws(RenderError) -> (layout: LayoutResult, audits: [AccessibilityAudit]) {
    var audits: [AccessibilityAudit] = []
    let platforms = platforms ?? [options.platform]
    let columns = modes.flatMap { mode in
      platforms.flatMap { platform in
        textSizes.options(options.on(platform)).map { (mode: mode, options: $0) }
      }
    }
    try checkSheetSize(list, cells: names.count * columns.count)
    let namesPlatform = platforms != [.ios]
    // An accessibility snapshot is wider than the list by its legend.
    var cellWidth =
      options.width + (options.accessibilitySnapshot ? AccessibilitySnapshot.extraWidth : 0)
    /// A cell's caption: theme, mode, and the platform and text size when they vary.
    func captionText(_ name: ThemeName, _ cell: (mode: ColorMode, options: LayoutOptions)) -> String
    {
      "\(name.displayName) · \(cell.mode.rawValue)"
        + (namesPlatform ? " · \(cell.options.platform.displayName)" : "")
        + (textSizes.caption(cell.options).map { " · \($0)" } ?? "")
    }
    /// The style of a cell's caption, in `theme`.
    func captionAppearance(_ theme: Theme) -> TextAppearance {
      let typography = theme.typography.bodyMedium
      return TextAppearance(
        fontFamilies: theme.fontFamilies, fontSize: typography.fontSize,
        lineHeight: typography.lineHeight, letterSpacing: typography.letterSpacing,
        weight: typography.strongWeight, color: theme.colors.contentDefault, language: "en")
    }
    if options.shrink {
      // --shrink: every column as wide as the widest cell's content, or its caption on one
      // line (each laid out once more here).
      var widest = 0.0
      for name in names {
        let theme: Theme
        do {
          theme = try themes.theme(name, mode: .light)
        } catch {
          throw .theme(error)
        }
        for cell in columns {
          let scene = try layout(list, theme: name, mode: cell.mode, options: cell.options).scene
          let caption = try textEngine(for: name).measure(
            StyledText(
              spans: [TextSpan(captionText(name, cell))], appearance: captionAppearance(theme),
              direction: .ltr), wrapWidth: nil)
          widest = max(
            widest, scene.width, caption.width + 2 * theme.paddingInline[level: 0] + 1)
        }
      }
      cellWidth = min(cellWidth, widest)
    }
    var rows: [SceneRow] = []
    var panels: [ScenePanel] = []
    var warnings: [String] = []
    var y = style.margin
    let sheetWidth =
      2 * style.margin + Double(columns.count) * cellWidth
      + Double(max(0, columns.count - 1)) * style.gutter
    if let heading, let first = names.first {
      let lines = [(heading.title, true)] + heading.lines.map { ($0, false) }
      for (line, isTitle) in lines {
        let placed = try sheetText(
          line, theme: first, bold: isTitle, at: Point(x: style.margin, y: y),
          width: sheetWidth - 2 * style.margin, color: style.sheetText)
        panels.append(placed)
        y += placed.rect.height
      }
      y += style.gutter
    }
    if audit, let first = names.first {
      let placed = try sheetText(
        Self.auditLegend, theme: first, bold: false, at: Point(x: style.margin, y: y),
        width: sheetWidth - 2 * style.margin, color: style.sheetText)
      panels.append(placed)
      y += placed.rect.height + style.gutter
    }
    // An iOS column at a Dynamic Type size draws its markers at their token size: say so, so
    // that a tick smaller than its text is not read as a bug.
    if let first = names.first,
      columns.contains(where: { $0.options.platform == .ios && $0.options.contentSize != .large })
    {
      let placed = try sheetText(
        AccessibilityAudit.markerSizeNote, theme: first, bold: false,
        at: Point(x: style.margin, y: y), width: sheetWidth - 2 * style.margin,
        color: style.sheetText)
      panels.append(placed)
      y += placed.rect.height + style.gutter
    }
    for name in names {
      var rowHeight = 0.0
      var auditHeight = 0.0
      var cells: [(Scene, ScenePanel, ScenePanel?)] = []
      for (column, cell) in columns.enumerated() {
        let mode = cell.mode
        var cellOptions = cell.options
        cellOptions.background = .none
        let theme: Theme
        do {
          theme = try themes.theme(name, mode: mode)
        } catch {
          throw .theme(error)
        }
        let result = try layout(list, theme: name, mode: mode, options: cellOptions)
        warnings += result.warnings.filter { !warnings.contains($0) }
        let typography = theme.typography.bodyMedium
        let indent = theme.paddingInline[level: 0]
        let captionHeight = typography.lineHeight + 2 * style.captionPadding
        let x = style.margin + Double(column) * (cellWidth + style.gutter)
        let caption = SceneText(
          origin: Point(x: x + indent, y: y + style.captionPadding),
          wrapWidth: cellWidth - 2 * indent, alignment: .left,
          content: StyledText(
            spans: [TextSpan(captionText(name, cell))], appearance: captionAppearance(theme),
            direction: .ltr))
        // A shrunk right-to-left cell narrower than its column keeps its right edge on the
        // column's.
        let inset =
          options.shrink && result.scene.direction == .rtl
          ? max(0, cellWidth - result.scene.width) : 0
        let scene = result.scene.translated(dx: x + inset, dy: y + captionHeight)
        rowHeight = max(rowHeight, captionHeight + result.scene.height)
        var figures: ScenePanel?
        if audit {
          let audited = try self.audit(list, theme: name, mode: mode, options: cellOptions).audit
          audits.append(audited)
          let placed = try auditFigures(
            audited, theme: theme, at: Point(x: x, y: 0), width: cellWidth,
            filled: options.background == .theme, style: style)
          auditHeight = max(auditHeight, placed.rect.height)
          figures = placed
        }
        cells.append(
          (
            scene,
            ScenePanel(
              rect: Rect(x: x, y: y, width: cellWidth, height: 0),
              fill: options.background == .theme ? theme.colors.backgroundPrimary : nil,
              caption: caption), figures
          ))
      }
      for (scene, panel, figures) in cells {
        var panel = panel
        panel.rect.height = rowHeight
        panels.append(panel)
        // the cell's own panels (an accessibility snapshot's frames and legend), over its fill
        panels += scene.panels
        if let figures {
          // Under the cell, on the sheet's background.
          panels.append(figures.translated(dx: 0, dy: y + rowHeight + style.captionPadding))
        }
        rows += scene.rows
      }
      y += rowHeight + (audit ? style.captionPadding + auditHeight : 0) + style.gutter
    }
    var scene = Scene(
      width: sheetWidth, height: y - style.gutter + style.margin,
      direction: options.resolvedDirection,
      themes: names, modes: modes, platforms: platforms,
      background: options.background == .theme ? style.sheetBackground : nil, rows: rows,
      panels: panels)
    scene.title = heading?.title
    scene.notes = heading?.lines ?? []
    return (LayoutResult(scene: scene, warnings: warnings), audits)
  }

  /// The most rows (items × cells) a sheet lays out: 100,000. A row takes about 7 KB while the
  /// sheet is laid out and drawn, so a sheet stays under about 700 MB; a larger one is refused
  /// before anything is laid out.
  public static let maximumSheetRows = 100_000

  /// Refuses a sheet of `cells` cells of `list` over ``maximumSheetRows``.
  func checkSheetSize(_ list: OUDSBulletList, cells: Int) throws(RenderError) {
    func count(_ items: [OUDSBulletList.Item]) -> Int {
      items.reduce(items.count) { $0 + count($1.subItems) }
    }
    let items = count(list.items)
    let (rows, overflow) = items.multipliedReportingOverflow(by: max(1, cells))
    guard overflow || rows > Self.maximumSheetRows else { return }
    throw .sheetTooLarge(
      reason:
        "\(items) items in \(cells) cells make \(overflow ? "too many" : "\(rows)") rows, over the \(Self.maximumSheetRows) a sheet lays out (about 7 KB of memory each): choose fewer themes, modes, platforms or text sizes, or split the list",
      RenderError.Context(theme: nil, mode: nil))
  }

  /// One paragraph of left-to-right text on the sheet's background, in the body-medium style
  /// of `theme` (the sheet's font set holds every theme's fonts), wrapped at `width`: a panel
  /// without fill whose rect is the measured paragraph.
  private func sheetText(
    _ text: String, theme name: ThemeName, bold: Bool, at origin: Point, width: Double,
    color: RGBAColor
  ) throws(RenderError) -> ScenePanel {
    let theme: Theme
    do {
      theme = try themes.theme(name, mode: .light)
    } catch {
      throw .theme(error)
    }
    let typography = theme.typography.bodyMedium
    let content = StyledText(
      spans: [TextSpan(text)],
      appearance: TextAppearance(
        fontFamilies: theme.fontFamilies, fontSize: typography.fontSize,
        lineHeight: typography.lineHeight,
        letterSpacing: typography.letterSpacing,
        weight: bold ? typography.strongWeight : typography.regularWeight,
        color: color, language: "en"),
      direction: .ltr)
    let height = try textEngine(for: name).measure(content, wrapWidth: width).height
    return ScenePanel(
      rect: Rect(x: origin.x, y: origin.y, width: width, height: height), fill: nil,
      caption: SceneText(origin: origin, wrapWidth: width, alignment: .left, content: content))
  }

  /// What `sheet --audit` writes above the grid to explain the figures under the cells.
  public static let auditLegend =
    "Under each cell: the WCAG 2.2 contrast of each colour the list draws against the cell's"
    + " color.bg.primary. A figure in the cell's color.content.status.negative (red) fails"
    + " WCAG: text below 4.5:1 (1.4.3; large"
    + " text 3:1), bullets and icons below 3:1 (1.4.11), links below 3:1 against the text when"
    + " colour is their only cue (1.4.1), italic the brand forbids. A colour the list does not"
    + " draw is not checked, never a failure. The other figures pass."

  /// One figure of a cell's audit: its words, and whether it fails.
  public struct AuditFigure: Hashable, Sendable {
    /// `label 21.00:1 pass`, `label 1.07:1 FAIL (needs 4.5)`, `italic FAIL 1`.
    public var text: String
    /// Whether the figure is a failure (drawn in `color.content.status.negative`).
    public var fails: Bool
  }

  /// The figures `sheet --audit` writes under a cell, in order: the contrast of each colour the
  /// list draws (`label 21.00:1 pass`), any colour of the theme that fails although the list does
  /// not draw it, the link rule, and italic the brand forbids.
  public static func auditFigures(_ audit: AccessibilityAudit) -> [AuditFigure] {
    var figures: [AuditFigure] = []
    for check in audit.contrast where !check.rows.isEmpty || !check.passes {
      var part = "\(check.element.words) \(WCAGContrast.formatted(check.ratio)):1 "
      // A colour the list does not draw is not judged: never a FAIL, whatever its ratio.
      if check.rows.isEmpty {
        part += "not checked (not in this list)"
        figures.append(AuditFigure(text: part, fails: false))
        continue
      }
      part += check.passes ? "pass" : "FAIL (needs \(check.requirement.minimumText))"
      figures.append(AuditFigure(text: part, fails: !check.passes))
    }
    let link = audit.linkDistinction
    if !link.rows.isEmpty {
      figures.append(
        AuditFigure(
          text: "link vs text \(WCAGContrast.formatted(link.ratio)):1 "
            + (link.requiresRatio
              ? (link.passes ? "pass" : "FAIL (needs 3)")
              : "(\(AuditReport.cues(link)): not needed)"),
          fails: !link.passes))
    }
    for finding in audit.italic {
      figures.append(AuditFigure(text: "italic FAIL \(finding.row)", fails: true))
    }
    return figures
  }

  /// The text of the figures under a cell (``auditFigures(_:)``):
  /// `WCAG contrast on #FFFFFF: label 21.00:1 pass · branded bullet 3.27:1 pass`.
  public static func auditSummary(_ audit: AccessibilityAudit) -> String {
    auditPrefix(audit) + auditFigures(audit).map(\.text).joined(separator: auditSeparator)
  }

  private static func auditPrefix(_ audit: AccessibilityAudit) -> String {
    "WCAG contrast on \(audit.background.hex): "
  }

  private static let auditSeparator = " · "

  /// The figures under a cell as one paragraph in the body-medium style of the cell's theme:
  /// passing figures in the text colour of ``RenderingSheetStyle/figureColors(_:)`` on its
  /// background (`filled`; else in the sheet's text colour on the sheet), failing ones in the
  /// theme's `color.content.status.negative` of the cell's mode.
  /// - Throws: `RenderError.theme` when the theme does not define that colour.
  private func auditFigures(
    _ audit: AccessibilityAudit, theme: Theme, at origin: Point, width: Double, filled: Bool,
    style: RenderingSheetStyle
  ) throws(RenderError) -> ScenePanel {
    let figures = Self.auditFigures(audit)
    guard let negative = theme.colors.contentStatusNegative else {
      let context = ThemeLibrary.contextName(theme.name, theme.mode)
      throw .theme(
        ThemeError(
          file: ThemeLibrary.resolverFileName,
          message:
            "theme \(context) lacks \(ThemeLibrary.reviewTokenPaths[0]), the colour sheet --audit draws a failing figure in (add it to the brand's \(theme.mode.rawValue).tokens.json, as Themes/README.md shows)"
        ))
    }
    var spans = [TextSpan(Self.auditPrefix(audit))]
    for (index, figure) in figures.enumerated() {
      if index > 0 { spans.append(TextSpan(Self.auditSeparator)) }
      spans.append(TextSpan(figure.text, color: figure.fails ? negative : nil))
    }
    let typography = theme.typography.bodyMedium
    let content = StyledText(
      spans: spans,
      appearance: TextAppearance(
        fontFamilies: theme.fontFamilies, fontSize: typography.fontSize,
        lineHeight: typography.lineHeight, letterSpacing: typography.letterSpacing,
        weight: typography.regularWeight,
        color: filled ? style.figureColors(theme.mode).text : style.sheetText, language: "en"),
      direction: .ltr)
    let inset = filled ? theme.paddingInline[level: 0] : 0
    let padding = filled ? style.captionPadding / 2 : 0
    let height = try textEngine(for: theme.name).measure(content, wrapWidth: width - 2 * inset)
      .height
    return ScenePanel(
      rect: Rect(x: origin.x, y: origin.y, width: width, height: height + 2 * padding),
      fill: filled ? style.figureColors(theme.mode).background : nil,
      caption: SceneText(
        origin: Point(x: origin.x + inset, y: origin.y + padding), wrapWidth: width - 2 * inset,
        alignment: .left, content: content))
  }

  /// Renders a rendering sheet (see `sheetLayout`) as PNG, SVG or PDF; with `audit`, also
  /// returns the audit of each cell whose figures it writes.
  ///
  /// A PDF is paged as `ouds-render sheet -o x.pdf` pages it (``sheetDocument(_:themes:modes:platforms:options:textSizes:heading:audit:pageSize:)``):
  /// one page of `pageSize` per theme × mode, titled with `heading` (nil: the list named "list"
  /// with the themes folder and fonts used), and its `scene` is the first page. PNG and SVG are
  /// one picture of every cell, `scene` that picture's.
  public func renderSheet(
    _ list: OUDSBulletList, themes names: [ThemeName] = ThemeName.allCases,
    modes: [ColorMode] = ColorMode.allCases, platforms: [Platform]? = nil,
    options: LayoutOptions = LayoutOptions(), textSizes: SheetTextSizes = SheetTextSizes(),
    format: OutputFormat, heading: SheetHeading? = nil, audit: Bool = false,
    pageSize: PageSize = .standard
  ) throws(RenderError) -> (
    data: Data, scene: Scene, warnings: [String], audits: [AccessibilityAudit]
  ) {
    if format == .pdf {
      let platforms = platforms ?? [options.platform]
      let titled: SheetHeading
      if let heading {
        titled = heading
      } else {
        titled = try sheetHeading(listName: "list", themes: names, platforms: platforms)
      }
      let document = try sheetDocument(
        list, themes: names, modes: modes, platforms: platforms, options: options,
        textSizes: textSizes, heading: titled, audit: audit, pageSize: pageSize)
      let data = try renderPages(document.pages, format: .pdf, platforms: platforms)
      return (
        data,
        document.pages.first
          ?? Scene(
            width: 0, height: 0, direction: .ltr, themes: names, modes: modes,
            platforms: platforms, background: nil, rows: []),
        document.warnings, document.audits
      )
    }
    // Errors of the sheet as a whole (its fonts, drawing it) name the sheet; a cell's layout
    // errors already name the cell's theme and mode.
    let theme = names.count == 1 ? names.first : nil
    let mode = modes.count == 1 ? modes.first : nil
    // A PNG's pixels are the grid of Android's text in every cell.
    let (laidOut, audits) = try auditedSheetLayout(
      list, themes: names, modes: modes, platforms: platforms,
      options: Self.options(options, for: format),
      textSizes: textSizes, style: RenderingSheetStyle(), heading: heading, audit: audit)
    let renderer: SceneRenderer
    do {
      renderer = try self.renderer(
        forThemes: names, platforms: platforms ?? [options.platform])
    } catch {
      throw error.attributed(theme: theme, mode: mode)
    }
    do {
      return (
        try renderer.render(laidOut.scene, as: format), laidOut.scene, laidOut.warnings, audits
      )
    } catch {
      throw .graphics(error, RenderError.Context(theme: theme, mode: mode))
    }
  }
}
