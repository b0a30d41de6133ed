/// How two images are compared and how many changed pixels are acceptable.
///
/// Semantics, in the order they apply:
/// 1. Images of different sizes are never compared pixel by pixel; they give `.sizeMismatch`.
/// 2. Images whose pixel bytes are all equal give `.identical`, whatever the options.
/// 3. What counts as a *changed pixel* depends on ``countsPerceptually``:
///    - exact counting (the default): a pixel whose four RGBA bytes differ in any way;
///    - perceptual counting (``Mode/perceptual``, or any tolerance above zero, as in Playwright):
///      a pixel whose YIQ colour distance exceeds `35215 · threshold²` (pixelmatch's metric,
///      with semi-transparent pixels blended over a fixed background pattern), unless it is detected
///      as anti-aliasing in either image and ``includeAntiAliasing`` is false; such pixels are
///      counted apart as anti-aliased pixels.
/// 4. The changed-pixel count is then held against the tolerances: a tolerance of zero is unset;
///    when both are set the stricter one wins; with none set, one changed pixel is a difference.
public struct DiffOptions: Sendable, Hashable {
  /// What makes a pixel count as changed.
  public enum Mode: Sendable, Hashable {
    /// Any byte difference in a pixel counts; the renderer is deterministic, so this is the default.
    case exact
    /// YIQ colour distance above ``DiffOptions/threshold``, anti-aliased pixels set apart.
    case perceptual
  }

  /// What makes a pixel count as changed; tolerances above zero switch counting to perceptual.
  public var mode: Mode
  /// Perceptual matching threshold from 0 (any visible change) to 1 (nothing counts); 0.1 as in pixelmatch.
  public var threshold: Double
  /// Whether anti-aliased pixels count as changed in perceptual counting (false: detected and set apart).
  public var includeAntiAliasing: Bool
  /// The largest number of changed pixels that still passes; 0 leaves this tolerance unset.
  public var maxDiffPixels: Int
  /// The largest share of changed pixels (0…1) that still passes; 0 leaves this tolerance unset.
  public var maxDiffRatio: Double

  /// Creates options; the defaults compare exactly and allow no changed pixel.
  public init(
    mode: Mode = .exact, threshold: Double = 0.1, includeAntiAliasing: Bool = false,
    maxDiffPixels: Int = 0, maxDiffRatio: Double = 0
  ) {
    self.mode = mode
    self.threshold = threshold
    self.includeAntiAliasing = includeAntiAliasing
    self.maxDiffPixels = maxDiffPixels
    self.maxDiffRatio = maxDiffRatio
  }

  /// Exact comparison with no tolerance: any byte difference is a failure.
  public static let exact = DiffOptions()

  /// Whether a pixel-count or ratio tolerance is set.
  public var hasTolerance: Bool { maxDiffPixels > 0 || maxDiffRatio > 0 }

  /// Whether changed pixels are counted with the YIQ metric and anti-aliasing detection.
  public var countsPerceptually: Bool { mode == .perceptual || hasTolerance }

  /// The largest acceptable YIQ squared distance, `35215 · threshold²`, threshold clamped to 0…1.
  var maxColorDelta: Double {
    let t = min(max(threshold.isNaN ? 0 : threshold, 0), 1)
    return 35215 * t * t
  }

  /// Whether `changed` changed pixels out of `total` pass the tolerances.
  public func accepts(changedPixels changed: Int, totalPixels total: Int) -> Bool {
    if changed <= 0 { return true }
    guard hasTolerance else { return false }
    if maxDiffPixels > 0 && changed > maxDiffPixels { return false }
    if maxDiffRatio > 0 {
      guard total > 0 else { return false }
      if Double(changed) / Double(total) > maxDiffRatio { return false }
    }
    return true
  }

  /// The number of changed pixels the tolerances allow for an image of `total` pixels.
  public func allowedPixels(totalPixels total: Int) -> Int {
    var allowed: Int? = nil
    if maxDiffPixels > 0 { allowed = maxDiffPixels }
    if maxDiffRatio > 0 {
      let byRatio = Int((min(maxDiffRatio, 1) * Double(total) + 1e-9).rounded(.down))
      allowed = min(allowed ?? byRatio, byRatio)
    }
    return allowed ?? 0
  }
}
