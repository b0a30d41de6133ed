import BulletList
import Primitives
import Themes

extension ListLayout {
  /// The start of the icon size tokens (`bullet-list.size.icon.body-large`): a list reads one
  /// exactly when it draws a marker picture (a bullet, a tick or an icon).
  public static let iconSizeTokenPrefix = "bullet-list.size.icon."

  /// The token paths (of ``Themes/ThemeLibrary/componentTokenPaths``) whose values a layout of
  /// `list` with `options` reads, in any theme: what a changed token must be among to explain a
  /// changed picture of this list (issue 39: a failure is blamed only on what its own list reads).
  ///
  /// It follows ``layout(_:options:)`` step by step: per row, the indent of its level, its text
  /// style's gap, padding, bullet box, maximum label width, font size, line height and letter
  /// spacing, the regular or strong weight its label and prefix are set in (and the strong weight
  /// of strong runs and links), the icon size of a row that draws a glyph, the text colour, the
  /// marker's colour and the link colour; the brand font family; the canvas colour when the
  /// theme's background is drawn; and what the accessibility legend reads. A list the platform's
  /// rules refuse reads nothing (its render is an error, never a changed picture).
  public static func tokenPaths(readBy list: OUDSBulletList, options: LayoutOptions) -> Set<String>
  {
    var list = list
    if let override = options.textStyleOverride { list = list.overridingTextStyle(override) }
    guard let rows = try? list.resolvedRows(platform: options.platform) else { return [] }
    var paths: Set<String> = ["font.family.brand", textColorRole.tokenPath]
    func typography(_ style: TextStyle, _ names: [String]) {
      for name in names { paths.insert("typography.\(style.tokenName).\(name)") }
    }
    for row in rows {
      let style = row.textStyle.tokenName
      paths.insert("bullet-list.space.padding-inline.level-\(row.level)")
      for name in [
        "space.column-gap", "space.padding-block", "size.bullet-container", "size.label-max-width",
      ] {
        paths.insert("bullet-list.\(name).\(style)")
      }
      typography(row.textStyle, ["font-size", "line-height", "letter-spacing"])
      typography(row.textStyle, [row.isBold ? "font-weight-strong" : "font-weight"])
      if case .unordered(_, let isBranded) = row.listType {
        paths.insert(iconSizeTokenPrefix + style)
        paths.insert(markerColorRole(isBranded: isBranded).tokenPath)
      }
      if case .rich(let rich) = row.label {
        if rich.runs.contains(where: { $0.isStrong || ($0.link != nil && linkCues.isStrong) }) {
          typography(row.textStyle, ["font-weight-strong"])
        }
        if rich.runs.contains(where: { $0.link != nil }) {
          paths.insert(linkColorRole.tokenPath)
        }
      }
    }
    if options.background == .theme { paths.insert(ThemeColorRole.backgroundPrimary.tokenPath) }
    if options.accessibilitySnapshot {
      // The legend: Body Medium's size, line height and both weights, in the text colour.
      typography(.bodyMedium, ["font-size", "line-height", "font-weight", "font-weight-strong"])
    }
    return paths
  }
}
