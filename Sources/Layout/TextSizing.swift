import BulletList
import Primitives
import Themes

/// Android's non-linear font scaling (SPEC §6b): how a size in sp becomes dp at a font scale,
/// as `android.content.res.FontScaleConverterFactory` (and Compose's copy of it) converts it.
///
/// Written here because no library of this stack knows Android's tables.
public enum AndroidFontScale {
  /// The sp sizes of every table.
  static let spPoints: [Double] = [8, 10, 12, 14, 18, 20, 24, 30, 100]

  /// The platform's tables: the scale, then the dp of each of ``spPoints``.
  static let tables: [(scale: Double, dp: [Double])] = [
    (1.05, [8.4, 10.5, 12.6, 14.8, 18.6, 20.6, 24.4, 30, 100]),
    (1.1, [8.8, 11, 13.2, 15.6, 19.2, 21.2, 24.8, 30, 100]),
    (1.15, [9.2, 11.5, 13.8, 16.4, 19.8, 21.8, 25.2, 30, 100]),
    (1.2, [9.6, 12, 14.4, 17.2, 20.4, 22.4, 25.6, 30, 100]),
    (1.3, [10.4, 13, 15.6, 18.8, 21.6, 23.6, 26.4, 30, 100]),
    (1.5, [12, 15, 18, 22, 24, 26, 28, 30, 100]),
    (1.8, [14.4, 18, 21.6, 24.4, 27.6, 30.8, 32.8, 34.8, 100]),
    (2.0, [16, 20, 24, 26, 30, 34, 36, 38, 100]),
  ]

  /// Below this scale Android scales linearly (`MIN_SCALE_FOR_NON_LINEAR_SCALING`).
  static let nonLinearFrom = 1.03

  /// The dp of `sp` at font scale `scale`:
  /// - below 1.03, and above the largest table (2.0), `sp × scale`;
  /// - at a tabled scale, that table; between two, a table whose every point is interpolated
  ///   linearly between theirs (between 1.0 and the first table, from the identity);
  /// - within a table, linear between its points, from 0 below 8 sp, and beyond 100 sp at the
  ///   last point's ratio (1).
  ///
  /// Negative sizes (letter spacing) convert as their magnitude, with their sign.
  public static func dp(sp: Double, scale: Double) -> Double {
    guard scale >= nonLinearFrom, let last = tables.last, scale <= last.scale else {
      return sp * scale
    }
    var lower = (scale: 1.0, dp: spPoints)
    var table = spPoints
    for candidate in tables {
      if candidate.scale == scale {
        table = candidate.dp
        break
      }
      if candidate.scale > scale {
        let t = (scale - lower.scale) / (candidate.scale - lower.scale)
        table = zip(lower.dp, candidate.dp).map { $0 + ($1 - $0) * t }
        break
      }
      lower = candidate
    }
    let magnitude = abs(sp)
    let sign: Double = sp < 0 ? -1 : 1
    guard let lastSp = spPoints.last, let lastDp = table.last else { return sp * scale }
    if magnitude >= lastSp { return sp * lastDp / lastSp }
    var (fromSp, fromDp) = (0.0, 0.0)
    for (pointSp, pointDp) in zip(spPoints, table) {
      if magnitude <= pointSp {
        return sign * (fromDp + (pointDp - fromDp) * (magnitude - fromSp) / (pointSp - fromSp))
      }
      (fromSp, fromDp) = (pointSp, pointDp)
    }
    return sp * lastDp / lastSp
  }
}

/// How the text size a person chose (Android's font scale, iOS Dynamic Type) changes a row's
/// text and marker box (SPEC §5, §6b). At the default size it changes nothing.
struct TextSizing {
  let platform: Platform
  let fontScale: Double
  let contentSize: ContentSizeCategory

  /// The typography of a row: Android converts sizes in sp through ``AndroidFontScale`` (letter
  /// spacing too); iOS multiplies font size and line height by the category's factor, as
  /// SwiftUI scales `Font.custom(_:size:)` and the line spacing, and keeps the letter spacing.
  func typography(_ typography: Typography) -> Typography {
    var scaled = typography
    switch platform {
    case .android:
      guard fontScale != FontScale.standard else { return typography }
      scaled.fontSize = AndroidFontScale.dp(sp: typography.fontSize, scale: fontScale)
      scaled.lineHeight = AndroidFontScale.dp(sp: typography.lineHeight, scale: fontScale)
      scaled.letterSpacing = AndroidFontScale.dp(sp: typography.letterSpacing, scale: fontScale)
    case .ios:
      let factor = contentSize.factor
      scaled.fontSize = typography.fontSize * factor
      scaled.lineHeight = typography.lineHeight * factor
    }
    return scaled
  }

  /// The marker box of a row: Android multiplies the box's minimum width by the font scale,
  /// and for unordered and bare rows the icon too (dp, linear); iOS multiplies the ordered box's
  /// width by the category's factor. Paddings, gaps, indents and the label's maximum width stay.
  func metrics(_ metrics: BulletListMetrics, listType: OUDSBulletList.ListType)
    -> BulletListMetrics
  {
    var scaled = metrics
    switch platform {
    case .android:
      scaled.bulletBoxWidth = metrics.bulletBoxWidth * fontScale
      if listType != .ordered { scaled.iconSize = metrics.iconSize * fontScale }
    case .ios:
      if listType == .ordered {
        scaled.bulletBoxWidth = metrics.bulletBoxWidth * contentSize.factor
      }
    }
    return scaled
  }
}
