import PNG

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Compares rendered images and draws diff images, in pure Swift.
///
/// Identical images cost about one memory compare; otherwise rows are compared as memory first and
/// only rows that differ are scanned pixel by pixel (see ``DiffOptions`` for what counts).
public enum ImageDiff {
  /// The most regions a result lists; the rest are only counted.
  public static let maxRegions = 10
  /// The width in pixels of the gap between the panels of ``sideBySide(expected:actual:diff:)``.
  public static let panelGap = 16

  /// Compares `actual` with `expected` under `options` (exact, no tolerance, by default).
  public static func compare(
    expected: RasterImage, actual: RasterImage, options: DiffOptions = DiffOptions()
  ) -> DiffResult {
    guard expected.width == actual.width && expected.height == actual.height else {
      return .sizeMismatch(
        expected: PixelSize(width: expected.width, height: expected.height),
        actual: PixelSize(width: actual.width, height: actual.height))
    }
    return expected.pixels.withUnsafeBytes { a in
      actual.pixels.withUnsafeBytes { b in
        guard let pa = a.baseAddress, let pb = b.baseAddress, a.count > 0 else { return .identical }
        if memcmp(pa, pb, a.count) == 0 { return .identical }
        return scan(
          pa, pb, width: expected.width, height: expected.height, options: options, output: nil)
      }
    }
  }

  /// A pixelmatch-style diff image: the expected image ghosted in grey over a neutral base (legible
  /// in both colour modes), changed pixels red,
  /// anti-aliased pixels amber; images of different sizes are padded (transparent) to the larger size
  /// and compared exactly.
  public static func diffImage(expected: RasterImage, actual: RasterImage, result: DiffResult)
    -> RasterImage
  {
    let options = result.statistics?.options ?? DiffOptions()
    guard expected.width == actual.width && expected.height == actual.height else {
      let width = max(expected.width, actual.width)
      let height = max(expected.height, actual.height)
      return diffImage(
        expected: pad(expected, width: width, height: height),
        actual: pad(actual, width: width, height: height),
        options: DiffOptions())
    }
    return diffImage(expected: expected, actual: actual, options: options)
  }

  /// Three panels left to right, expected, actual and diff, top-aligned on opaque mid grey with a
  /// ``panelGap`` between them.
  public static func sideBySide(expected: RasterImage, actual: RasterImage, diff: RasterImage)
    -> RasterImage
  {
    let panels = [expected, actual, diff]
    let width = panels.reduce(0) { $0 + $1.width } + 2 * panelGap
    let height = panels.map(\.height).max() ?? 0
    var pixels = [UInt8](repeating: 128, count: width * height * 4)
    pixels.withUnsafeMutableBytes { out in
      guard let base = out.baseAddress else { return }
      for i in 0..<(width * height) {
        base.storeBytes(of: 255, toByteOffset: i * 4 + 3, as: UInt8.self)
      }
      var left = 0
      for panel in panels {
        panel.pixels.withUnsafeBytes { src in
          guard let from = src.baseAddress else { return }
          let rowBytes = panel.width * 4
          for y in 0..<panel.height {
            (base + (y * width + left) * 4).copyMemory(
              from: from + y * rowBytes, byteCount: rowBytes)
          }
        }
        left += panel.width + panelGap
      }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  private static func diffImage(expected: RasterImage, actual: RasterImage, options: DiffOptions)
    -> RasterImage
  {
    let count = expected.width * expected.height
    var pixels = [UInt8](repeating: 0, count: count * 4)
    pixels.withUnsafeMutableBytes { out in
      expected.pixels.withUnsafeBytes { a in
        actual.pixels.withUnsafeBytes { b in
          guard let po = out.baseAddress, let pa = a.baseAddress, let pb = b.baseAddress else {
            return
          }
          PixelScan.paintFaded(pa, pixelCount: count, into: po)
          _ = PixelScan.run(
            pa, pb, width: expected.width, height: expected.height, options: options,
            clusters: nil, output: po)
        }
      }
    }
    return RasterImage(width: expected.width, height: expected.height, pixels: pixels)
  }

  private static func scan(
    _ a: UnsafeRawPointer, _ b: UnsafeRawPointer, width: Int, height: Int, options: DiffOptions,
    output: UnsafeMutableRawPointer?
  ) -> DiffResult {
    let clusters = RegionClusters(width: width, height: height)
    let counts = PixelScan.run(
      a, b, width: width, height: height, options: options, clusters: clusters, output: output)
    return result(counts, clusters: clusters, width: width, height: height, options: options)
  }

  /// The result of a scan whose pixels were not all equal: its counts and regions, held against
  /// the tolerances of `options`.
  static func result(
    _ counts: PixelScan.Counts, clusters: RegionClusters, width: Int, height: Int,
    options: DiffOptions
  ) -> DiffResult {
    let (regions, omitted) = clusters.regions(limit: maxRegions)
    let statistics = DiffStatistics(
      size: PixelSize(width: width, height: height), changedPixels: counts.changed,
      antiAliasedPixels: counts.antiAliased, regions: regions, omittedRegions: omitted,
      options: options)
    return options.accepts(changedPixels: counts.changed, totalPixels: width * height)
      ? .withinTolerance(statistics) : .different(statistics)
  }

  private static func pad(_ image: RasterImage, width: Int, height: Int) -> RasterImage {
    if image.width == width && image.height == height { return image }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    pixels.withUnsafeMutableBytes { out in
      image.pixels.withUnsafeBytes { src in
        guard let to = out.baseAddress, let from = src.baseAddress else { return }
        let rowBytes = image.width * 4
        for y in 0..<image.height {
          (to + y * width * 4).copyMemory(from: from + y * rowBytes, byteCount: rowBytes)
        }
      }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }
}
