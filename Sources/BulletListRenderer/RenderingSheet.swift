import BulletList
import Foundation
import Graphics
import Layout
import Primitives
import Scene
import Themes

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

  /// Creates the default sheet style.
  public init() {}
}

extension BulletListRenderer {
  /// Lays out `list` for every theme × mode given, side by side, each cell captioned with its
  /// theme and mode and filled with the mode's `bg.primary`.
  ///
  /// Themes are rows and modes are columns; with several `platforms` (nil: `options.platform`
  /// alone), each mode has one column per platform, side by side, and captions name the
  /// platform. `options.background == .none` makes the whole sheet transparent (cells included).
  public func sheetLayout(
    _ list: OUDSBulletList, themes names: [ThemeName] = ThemeName.allCases,
    modes: [ColorMode] = ColorMode.allCases, platforms: [Platform]? = nil,
    options: LayoutOptions = LayoutOptions(), style: RenderingSheetStyle = RenderingSheetStyle()
  ) throws(RenderError) -> LayoutResult {
    let platforms = platforms ?? [options.platform]
    let columns = modes.flatMap { mode in platforms.map { (mode: mode, platform: $0) } }
    let namesPlatform = platforms != [.ios]
    var rows: [SceneRow] = []
    var panels: [ScenePanel] = []
    var warnings: [String] = []
    var y = style.margin
    for name in names {
      var rowHeight = 0.0
      var cells: [(Scene, ScenePanel)] = []
      for (column, cell) in columns.enumerated() {
        let mode = cell.mode
        var cellOptions = options
        cellOptions.background = .none
        cellOptions.platform = cell.platform
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
        let x = style.margin + Double(column) * (options.width + style.gutter)
        let caption = SceneText(
          origin: Point(x: x + indent, y: y + style.captionPadding),
          wrapWidth: options.width - 2 * indent, alignment: .left,
          content: StyledText(
            spans: [
              TextSpan(
                "\(name.displayName) · \(mode.rawValue)"
                  + (namesPlatform ? " · \(cell.platform.displayName)" : ""))
            ],
            appearance: TextAppearance(
              fontFamilies: theme.fontFamilies, fontSize: typography.fontSize,
              lineHeight: typography.lineHeight, letterSpacing: typography.letterSpacing,
              weight: typography.strongWeight, color: theme.colors.contentDefault, language: "en"),
            direction: .ltr))
        let scene = result.scene.translated(dx: x, dy: y + captionHeight)
        rowHeight = max(rowHeight, captionHeight + result.scene.height)
        cells.append(
          (
            scene,
            ScenePanel(
              rect: Rect(x: x, y: y, width: options.width, height: 0),
              fill: options.background == .theme ? theme.colors.backgroundPrimary : nil,
              caption: caption)
          ))
      }
      for (scene, panel) in cells {
        var panel = panel
        panel.rect.height = rowHeight
        panels.append(panel)
        rows += scene.rows
      }
      y += rowHeight + style.gutter
    }
    let width =
      2 * style.margin + Double(columns.count) * options.width
      + Double(max(0, columns.count - 1)) * style.gutter
    let scene = Scene(
      width: width, height: y - style.gutter + style.margin, direction: options.resolvedDirection,
      themes: names, modes: modes, platforms: platforms,
      background: options.background == .theme ? style.sheetBackground : nil, rows: rows,
      panels: panels)
    return LayoutResult(scene: scene, warnings: warnings)
  }

  /// Renders a rendering sheet (see `sheetLayout`) as PNG, SVG or PDF.
  public func renderSheet(
    _ list: OUDSBulletList, themes names: [ThemeName] = ThemeName.allCases,
    modes: [ColorMode] = ColorMode.allCases, platforms: [Platform]? = nil,
    options: LayoutOptions = LayoutOptions(), format: OutputFormat
  ) throws(RenderError) -> (data: Data, scene: Scene, warnings: [String]) {
    // Errors of the sheet as a whole (its fonts, drawing it) name the sheet; a cell's layout
    // errors already name the cell's theme and mode.
    let theme = names.count == 1 ? names.first : nil
    let mode = modes.count == 1 ? modes.first : nil
    let laidOut = try sheetLayout(
      list, themes: names, modes: modes, platforms: platforms, options: options)
    let renderer: SceneRenderer
    do {
      renderer = try self.renderer(forThemes: names)
    } catch {
      throw error.attributed(theme: theme, mode: mode)
    }
    do {
      return (try renderer.render(laidOut.scene, as: format), laidOut.scene, laidOut.warnings)
    } catch {
      throw .graphics(error, RenderError.Context(theme: theme, mode: mode))
    }
  }
}
