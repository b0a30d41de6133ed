/// The values the renderer accepts for the px tokens it reads; anything else is refused when
/// the theme is loaded, with an error naming the token and the file.
///
/// The limits keep every drawing sane and every computation in range (a font size of 0 or a
/// negative line height draws nothing useful; a 10⁹ px font overflows Pango's 32-bit units).
/// Whatever draws something has a floor of 1 px, one device pixel at scale 1: a 10⁻⁹ px font,
/// line height, icon or label width would pass a positivity check and draw nothing that can be
/// seen. Text that loads but is too small to be seen (under 6 px) is a failure of the
/// accessibility audit (`AccessibilityAudit.minimumFontSize` in `Layout`).
/// `Themes/README.md` lists them.
public struct TokenRange: Hashable, Sendable, CustomStringConvertible {
  /// The smallest value, allowed unless `lowerIsExclusive`.
  public var lower: Double
  /// Whether `lower` itself is refused (sizes that must be positive).
  public var lowerIsExclusive: Bool
  /// The largest value allowed.
  public var upper: Double

  /// Creates a range.
  public init(lower: Double, lowerIsExclusive: Bool, upper: Double) {
    self.lower = lower
    self.lowerIsExclusive = lowerIsExclusive
    self.upper = upper
  }

  /// `typography.*.font-size`: 1 ≤ size ≤ 200 px.
  public static let fontSize = TokenRange(lower: 1, lowerIsExclusive: false, upper: 200)
  /// `typography.*.line-height`: 1 ≤ height ≤ 400 px.
  public static let lineHeight = TokenRange(lower: 1, lowerIsExclusive: false, upper: 400)
  /// `typography.*.letter-spacing`: −100 … 100 px.
  public static let letterSpacing = TokenRange(lower: -100, lowerIsExclusive: false, upper: 100)
  /// Paddings, gaps and the bullet box: 0 … 1000 px.
  public static let spacing = TokenRange(lower: 0, lowerIsExclusive: false, upper: 1000)
  /// `bullet-list.size.icon.*` (bullets, ticks and icons are drawn in this square): 1 … 1000 px.
  public static let iconSize = TokenRange(lower: 1, lowerIsExclusive: false, upper: 1000)
  /// `bullet-list.size.label-max-width.*`: 1 ≤ width ≤ 10000 px.
  public static let labelWidth = TokenRange(lower: 1, lowerIsExclusive: false, upper: 10000)

  /// Every range, for documentation and tests.
  public static let all: [TokenRange] = [
    .fontSize, .lineHeight, .letterSpacing, .spacing, .iconSize, .labelWidth,
  ]

  /// Whether `value` is allowed (never NaN or infinite).
  public func contains(_ value: Double) -> Bool {
    value.isFinite && (lowerIsExclusive ? value > lower : value >= lower) && value <= upper
  }

  /// The range as people write it, e.g. `0 < value ≤ 200 px`.
  public var description: String {
    "\(Self.format(lower)) \(lowerIsExclusive ? "<" : "≤") value ≤ \(Self.format(upper)) px"
  }

  /// A number as people write it: no ".0" on whole numbers.
  public static func format(_ value: Double) -> String {
    value.isFinite && value == value.rounded() && abs(value) < 1e15
      ? String(Int(value)) : String(value)
  }
}
