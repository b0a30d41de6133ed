import Scene

/// Vertical metrics of a font at a given size, in points.
public struct FontMetrics: Hashable, Sendable {
  /// Distance from the baseline up to the top of the font's line box.
  public var ascent: Double
  /// Distance from the baseline down to the bottom of the font's line box.
  public var descent: Double
  /// Distance from the baseline up to the top of the font's suggested underline (negative: below).
  public var underlinePosition: Double
  /// The font's suggested underline thickness.
  public var underlineThickness: Double

  /// Creates font metrics.
  public init(
    ascent: Double, descent: Double, underlinePosition: Double, underlineThickness: Double
  ) {
    self.ascent = ascent
    self.descent = descent
    self.underlinePosition = underlinePosition
    self.underlineThickness = underlineThickness
  }

  /// The first baseline of a line box `lineHeight` tall under a leading rule: `even` puts half
  /// the extra leading above the ascent, `proportional` the ascent's share of it.
  public func firstBaseline(lineHeight: Double, leading: LeadingDistribution) -> Double {
    switch leading {
    case .even: (lineHeight + ascent - descent) / 2
    case .proportional: ascent + descent > 0 ? lineHeight * ascent / (ascent + descent) : ascent
    }
  }
}
