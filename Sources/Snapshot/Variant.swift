import Layout
import PixelDiff
import Primitives

/// One way to render a case: a theme, a mode, a scale and the layout settings, with a readable name.
public struct SnapshotVariant: Hashable, Sendable {
  /// The theme.
  public var theme: ThemeName
  /// Light or dark.
  public var mode: ColorMode
  /// PNG pixels per point.
  public var scale: Int
  /// The suffix that tells this variant from the plain one (e.g. `body-medium`, `ar`, `android`); nil for the plain one.
  public var suffix: String?
  /// Width, background, locale, direction, text-style override and platform of the render.
  public var options: LayoutOptions
  /// The case file's own tolerance for this variant (`maxDiffPixels`, `maxDiffRatio`), which
  /// replaces the run's for the keys it gives; nil: the run's (exact by default).
  public var tolerance: SnapshotTolerance?

  /// Creates a variant.
  public init(
    theme: ThemeName, mode: ColorMode, scale: Int = 2, suffix: String? = nil,
    options: LayoutOptions = LayoutOptions(), tolerance: SnapshotTolerance? = nil
  ) {
    self.theme = theme
    self.mode = mode
    self.scale = scale
    self.suffix = suffix
    self.options = options
    self.tolerance = tolerance
  }

  /// `<theme>-<mode>[-<suffix>]`, the file name of the reference without scale and extension.
  public var stem: String {
    "\(theme.rawValue)-\(mode.rawValue)" + (suffix.map { "-\($0)" } ?? "")
  }

  /// `<theme>-<mode>[-<suffix>]@<scale>x`, the variant part of a reference id.
  public var name: String { "\(stem)@\(scale)x" }
}

/// How many changed pixels a reference may have and still pass: `verify --max-diff-pixels` and
/// `--max-diff-ratio`, or a case file's `maxDiffPixels` and `maxDiffRatio`. Nil keys are unset;
/// with neither set the comparison is exact.
public struct SnapshotTolerance: Hashable, Sendable, CustomStringConvertible {
  /// The most changed pixels that pass.
  public var maxDiffPixels: Int?
  /// The largest share of changed pixels (0…1) that passes.
  public var maxDiffRatio: Double?

  /// Creates a tolerance.
  public init(maxDiffPixels: Int? = nil, maxDiffRatio: Double? = nil) {
    self.maxDiffPixels = maxDiffPixels
    self.maxDiffRatio = maxDiffRatio
  }

  /// The tolerance `options` hold (their 0s read as unset: exact).
  public init(_ options: DiffOptions) {
    self.init(
      maxDiffPixels: options.maxDiffPixels > 0 ? options.maxDiffPixels : nil,
      maxDiffRatio: options.maxDiffRatio > 0 ? options.maxDiffRatio : nil)
  }

  /// The largest pixel count a tolerance may name: more than any bitmap this tool draws.
  public static let largestPixelCount = 1 << 30

  /// Whether the comparison is exact: neither key set, or one set to 0 (with both, the stricter
  /// wins, and none is stricter than 0).
  public var isExact: Bool {
    maxDiffPixels == 0 || maxDiffRatio == 0 || (maxDiffPixels == nil && maxDiffRatio == nil)
  }

  /// `self`, with the keys `specific` sets replacing this one's.
  public func overridden(by specific: SnapshotTolerance?) -> SnapshotTolerance {
    guard let specific else { return self }
    return SnapshotTolerance(
      maxDiffPixels: specific.maxDiffPixels ?? maxDiffPixels,
      maxDiffRatio: specific.maxDiffRatio ?? maxDiffRatio)
  }

  /// `options` with this tolerance's keys (unset keys are 0, which the diff reads as unset); an
  /// exact tolerance (``isExact``) gives exact options.
  public func applied(to options: DiffOptions) -> DiffOptions {
    var options = options
    guard !isExact else {
      options.maxDiffPixels = 0
      options.maxDiffRatio = 0
      return options
    }
    options.maxDiffPixels = maxDiffPixels ?? 0
    options.maxDiffRatio = maxDiffRatio ?? 0
    return options
  }

  /// `exact`, or `at most 20 pixels`, `at most 0.1 % of the pixels`, or both.
  public var description: String {
    var parts: [String] = []
    if let pixels = maxDiffPixels, pixels > 0 { parts.append("at most \(pixels) pixels") }
    if let ratio = maxDiffRatio, ratio > 0 {
      parts.append("at most \(PixelVerdict<DiffStatistics>.formatPercent(ratio)) of the pixels")
    }
    return isExact || parts.isEmpty ? "exact" : parts.joined(separator: " and ")
  }
}
