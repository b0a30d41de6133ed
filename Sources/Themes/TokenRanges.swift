/// The values the renderer accepts for the px tokens it reads; anything else is refused when
/// the theme is loaded, with an error naming the token and the file.
///
/// The limits keep every drawing sane and every computation in range (a font size of 0 or a
/// negative line height draws nothing useful; a 10⁹ px font overflows Pango's 32-bit units).
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

  /// `typography.*.font-size`: 0 < size ≤ 200 px.
  public static let fontSize = TokenRange(lower: 0, lowerIsExclusive: true, upper: 200)
  /// `typography.*.line-height`: 0 < height ≤ 400 px.
  public static let lineHeight = TokenRange(lower: 0, lowerIsExclusive: true, upper: 400)
  /// `typography.*.letter-spacing`: −100 … 100 px.
  public static let letterSpacing = TokenRange(lower: -100, lowerIsExclusive: false, upper: 100)
  /// Paddings, gaps, the bullet box and the icon: 0 … 1000 px.
  public static let spacing = TokenRange(lower: 0, lowerIsExclusive: false, upper: 1000)
  /// `bullet-list.size.label-max-width.*`: 0 < width ≤ 10000 px.
  public static let labelWidth = TokenRange(lower: 0, lowerIsExclusive: true, upper: 10000)

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
