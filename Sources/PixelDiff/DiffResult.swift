import Primitives

/// A width and height in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Creates a size from a width and a height in pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The size as `width×height`, e.g. `1080×2160`.
  public var description: String { "\(width)×\(height)" }
}

/// A rectangle that encloses a cluster of changed pixels.
public struct DiffRegion: Hashable, Sendable, CustomStringConvertible {
  /// Left edge in pixels.
  public var x: Int
  /// Top edge in pixels.
  public var y: Int
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// How many changed pixels lie in the rectangle.
  public var changedPixels: Int

  /// Creates a region from its rectangle and its changed-pixel count.
  public init(x: Int, y: Int, width: Int, height: Int, changedPixels: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    self.changedPixels = changedPixels
  }

  /// The rectangle as `width×height at (x,y)`, e.g. `108×36 at (0,144)`.
  public var description: String { "\(width)×\(height) at (\(x),\(y))" }
}

/// The numbers behind a comparison of two same-size images whose pixels are not all equal.
public struct DiffStatistics: PixelCounting {
  /// Size of both images.
  public var size: PixelSize
  /// Pixels counted as changed (see ``DiffOptions`` for what counts).
  public var changedPixels: Int
  /// Pixels over the colour threshold that were detected as anti-aliasing and not counted.
  public var antiAliasedPixels: Int
  /// The largest clusters of changed pixels, at most ``ImageDiff/maxRegions``, top to bottom.
  public var regions: [DiffRegion]
  /// How many further clusters were left out of ``regions``.
  public var omittedRegions: Int
  /// The options the comparison ran with.
  public var options: DiffOptions

  /// Creates statistics; normally made by ``ImageDiff/compare(expected:actual:options:)``.
  public init(
    size: PixelSize, changedPixels: Int, antiAliasedPixels: Int, regions: [DiffRegion],
    omittedRegions: Int, options: DiffOptions
  ) {
    self.size = size
    self.changedPixels = changedPixels
    self.antiAliasedPixels = antiAliasedPixels
    self.regions = regions
    self.omittedRegions = omittedRegions
    self.options = options
  }
}

/// What a pixel comparison counted, whether it just ran (``DiffStatistics``) or was read back
/// from a `results.json` (`PixelCounts` of SnapshotReports).
public protocol PixelCounting: Hashable, Sendable {
  /// Size of both images.
  var size: PixelSize { get }
  /// Pixels counted as changed.
  var changedPixels: Int { get }
  /// Pixels over the colour threshold set apart as anti-aliasing.
  var antiAliasedPixels: Int { get }
  /// The largest clusters of changed pixels, top to bottom.
  var regions: [DiffRegion] { get }
  /// How many further clusters were left out of ``regions``.
  var omittedRegions: Int { get }
}

extension PixelCounting {
  /// Number of pixels in each image.
  public var totalPixels: Int { size.width * size.height }

  /// Changed pixels as a share of all pixels, 0…1.
  public var changedRatio: Double {
    totalPixels == 0 ? 0 : Double(changedPixels) / Double(totalPixels)
  }
}

/// The verdict of a pixel comparison: ``DiffResult`` as it runs, `PixelComparison` (of
/// SnapshotReports) as data.
public enum PixelVerdict<Statistics: PixelCounting>: Hashable, Sendable {
  /// Every pixel byte is equal.
  case identical
  /// Some pixels differ, but no more than the tolerances allow (possibly none over the threshold).
  case withinTolerance(Statistics)
  /// More pixels changed than the tolerances allow.
  case different(Statistics)
  /// The images have different sizes, so no pixel was compared.
  case sizeMismatch(expected: PixelSize, actual: PixelSize)

  /// Whether the comparison passes: identical or within tolerance.
  public var passes: Bool {
    switch self {
    case .identical, .withinTolerance: return true
    case .different, .sizeMismatch: return false
    }
  }

  /// The pixel statistics, for results that compared pixels with at least one unequal byte.
  public var statistics: Statistics? {
    switch self {
    case .withinTolerance(let s), .different(let s): return s
    case .identical, .sizeMismatch: return nil
    }
  }

  /// Pixels counted as changed; 0 when identical or when sizes differ.
  public var changedPixels: Int { statistics?.changedPixels ?? 0 }
  /// Changed pixels as a share of all pixels; 0 when identical or when sizes differ.
  public var changedRatio: Double { statistics?.changedRatio ?? 0 }
  /// Anti-aliased pixels set apart; 0 when identical or when sizes differ.
  public var antiAliasedPixels: Int { statistics?.antiAliasedPixels ?? 0 }
  /// Clusters of changed pixels (capped, see ``PixelCounting/omittedRegions``).
  public var regions: [DiffRegion] { statistics?.regions ?? [] }
  /// How many clusters of changed pixels there are, shown or not.
  public var regionCount: Int { regions.count + (statistics?.omittedRegions ?? 0) }
}

/// The outcome of comparing an expected image with an actual one, with the options it ran with.
public typealias DiffResult = PixelVerdict<DiffStatistics>

extension PixelVerdict: CustomStringConvertible where Statistics == DiffStatistics {
  /// One human-readable line, e.g. `1532 pixels differ (0.066%) in 2 regions: 108×36 at (0,144), 42×24 at (300,720)`.
  public var summary: String {
    switch self {
    case .identical:
      return "images are identical"
    case .sizeMismatch(let expected, let actual):
      return "size differs: expected \(expected), actual \(actual)"
    case .withinTolerance(let s):
      var line = Self.describe(s)
      if s.options.hasTolerance {
        line += ", within tolerance (\(Self.describeTolerance(s)))"
      }
      return line
    case .different(let s):
      var line = Self.describe(s)
      if s.options.hasTolerance {
        line += ", over tolerance (\(Self.describeTolerance(s)))"
      }
      return line
    }
  }

  /// Same as ``summary``.
  public var description: String { summary }

  private static func describe(_ s: DiffStatistics) -> String {
    let verb = s.changedPixels == 1 ? "pixel differs" : "pixels differ"
    var line = "\(s.changedPixels) \(verb) (\(formatPercent(s.changedRatio)))"
    let regionCount = s.regions.count + s.omittedRegions
    if regionCount > 0 {
      line += " in \(regionCount) region\(regionCount == 1 ? "" : "s"): "
      line += s.regions.map(\.description).joined(separator: ", ")
      if s.omittedRegions > 0 { line += " and \(s.omittedRegions) more" }
    }
    if s.antiAliasedPixels > 0 {
      let noun = s.antiAliasedPixels == 1 ? "pixel" : "pixels"
      line += "; \(s.antiAliasedPixels) anti-aliased \(noun) ignored"
    }
    if s.changedPixels == 0 && s.antiAliasedPixels == 0 {
      line += "; bytes differ under the colour threshold \(s.options.threshold)"
    }
    return line
  }

  private static func describeTolerance(_ s: DiffStatistics) -> String {
    var parts: [String] = []
    if s.options.maxDiffPixels > 0 { parts.append("max \(s.options.maxDiffPixels) pixels") }
    if s.options.maxDiffRatio > 0 { parts.append("max \(formatPercent(s.options.maxDiffRatio))") }
    return parts.joined(separator: ", ")
  }

  /// A share as a percentage with three decimals; tiny non-zero shares read `<0.001%`.
  public static func formatPercent(_ ratio: Double) -> String {
    let percent = ratio * 100
    if percent > 0 && percent < 0.0005 { return "<0.001%" }
    return String(cFormat: "%.3f%%", percent)
  }
}
