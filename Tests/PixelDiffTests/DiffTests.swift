import Foundation
import Graphics
import PNG
import PixelDiff
import Snapshot
import Testing

/// A solid image of `width`×`height` in one RGBA colour.
private func solid(_ width: Int, _ height: Int, _ rgba: [UInt8] = [255, 255, 255, 255])
  -> RasterImage
{
  var pixels = [UInt8]()
  pixels.reserveCapacity(width * height * 4)
  for _ in 0..<(width * height) { pixels += rgba }
  return RasterImage(width: width, height: height, pixels: pixels)
}

/// A copy of `image` with the pixels of a rectangle set to `rgba`.
private func filling(
  _ image: RasterImage, x: Int, y: Int, width: Int, height: Int, _ rgba: [UInt8]
) -> RasterImage {
  var copy = image
  for row in y..<(y + height) {
    for column in x..<(x + width) {
      let i = (row * image.width + column) * 4
      copy.pixels.replaceSubrange(i..<(i + 4), with: rgba)
    }
  }
  return copy
}

/// Tests of the image-diff engine and of comparing PNG files (`ouds-render diff` itself is tested
/// through the binary in CLITests); filter with `--filter DiffTests`.
enum DiffTests {}

extension DiffTests {
  @Suite("Image diff engine")
  struct Engine {
    let base = solid(100, 100)
    let red: [UInt8] = [255, 0, 0, 255]
    let blue: [UInt8] = [0, 0, 255, 255]

    @Test func identicalImagesAreIdentical() {
      let result = ImageDiff.compare(expected: base, actual: base)
      #expect(result == .identical)
      #expect(result.passes)
      #expect(result.summary == "images are identical")
    }

    @Test func oneChangedPixelIsCountedWithItsExactBox() throws {
      let actual = filling(base, x: 37, y: 42, width: 1, height: 1, [254, 255, 255, 255])
      let result = ImageDiff.compare(expected: base, actual: actual)
      guard case .different(let stats) = result else {
        Issue.record("expected .different, got \(result)")
        return
      }
      #expect(stats.changedPixels == 1)
      #expect(stats.regions == [DiffRegion(x: 37, y: 42, width: 1, height: 1, changedPixels: 1)])
      #expect(stats.omittedRegions == 0)
      #expect(result.summary == "1 pixel differs (0.010%) in 1 region: 1×1 at (37,42)")
    }

    @Test func aColouredBlockGivesOneHundredPixelsAndItsBox() {
      let actual = filling(base, x: 20, y: 30, width: 10, height: 10, blue)
      let result = ImageDiff.compare(expected: base, actual: actual)
      #expect(!result.passes)
      #expect(result.changedPixels == 100)
      #expect(result.changedRatio == 0.01)
      #expect(
        result.regions == [DiffRegion(x: 20, y: 30, width: 10, height: 10, changedPixels: 100)])
      #expect(result.summary == "100 pixels differ (1.000%) in 1 region: 10×10 at (20,30)")
    }

    @Test func pixelToleranceIsInclusive() {
      let actual = filling(base, x: 20, y: 30, width: 10, height: 10, blue)
      let pass = ImageDiff.compare(
        expected: base, actual: actual, options: DiffOptions(maxDiffPixels: 100))
      let fail = ImageDiff.compare(
        expected: base, actual: actual, options: DiffOptions(maxDiffPixels: 99))
      guard case .withinTolerance(let stats) = pass else {
        Issue.record("expected .withinTolerance, got \(pass)")
        return
      }
      #expect(stats.changedPixels == 100)
      #expect(pass.summary.hasSuffix(", within tolerance (max 100 pixels)"))
      guard case .different = fail else {
        Issue.record("expected .different, got \(fail)")
        return
      }
      #expect(fail.changedPixels == 100)
      #expect(fail.summary.hasSuffix(", over tolerance (max 99 pixels)"))
    }

    @Test func ratioToleranceIsInclusive() {
      let actual = filling(base, x: 20, y: 30, width: 10, height: 10, blue)
      let pass = ImageDiff.compare(
        expected: base, actual: actual, options: DiffOptions(maxDiffRatio: 0.01))
      let fail = ImageDiff.compare(
        expected: base, actual: actual, options: DiffOptions(maxDiffRatio: 0.0099))
      #expect(pass.passes)
      #expect(!fail.passes)
      #expect(DiffOptions(maxDiffRatio: 0.01).allowedPixels(totalPixels: 10_000) == 100)
    }

    @Test func stricterToleranceWinsWhenBothAreSet() {
      let actual = filling(base, x: 20, y: 30, width: 10, height: 10, blue)
      let options = DiffOptions(maxDiffPixels: 500, maxDiffRatio: 0.005)
      #expect(!ImageDiff.compare(expected: base, actual: actual, options: options).passes)
      #expect(options.allowedPixels(totalPixels: 10_000) == 50)
    }

    @Test func perceptualModeIgnoresAOneLevelChangeThatExactModeCounts() {
      let grey = solid(20, 20, [128, 128, 128, 255])
      let actual = filling(grey, x: 5, y: 6, width: 1, height: 1, [129, 128, 128, 255])
      let exact = ImageDiff.compare(expected: grey, actual: actual)
      #expect(exact.changedPixels == 1)
      #expect(!exact.passes)
      let perceptual = ImageDiff.compare(
        expected: grey, actual: actual, options: DiffOptions(mode: .perceptual))
      guard case .withinTolerance(let stats) = perceptual else {
        Issue.record("expected .withinTolerance, got \(perceptual)")
        return
      }
      #expect(stats.changedPixels == 0)
      #expect(stats.antiAliasedPixels == 0)
      #expect(stats.regions.isEmpty)
      // Threshold 0 makes any visible change count.
      let strict = ImageDiff.compare(
        expected: grey, actual: actual, options: DiffOptions(mode: .perceptual, threshold: 0))
      #expect(strict.changedPixels == 1)
    }

    @Test func aStrongColourChangeCountsInPerceptualMode() {
      let actual = filling(base, x: 20, y: 30, width: 10, height: 10, blue)
      let result = ImageDiff.compare(
        expected: base, actual: actual, options: DiffOptions(mode: .perceptual))
      #expect(result.changedPixels == 100)
      #expect(result.antiAliasedPixels == 0)
      #expect(!result.passes)
    }

    /// A white image with a black band from x = `edge` to the right, whose left edge pixel
    /// (column 3) is grey with the coverage of a sub-pixel edge.
    private func edge(coverage: Double) -> RasterImage {
      var image = solid(12, 8)
      let grey = UInt8((255 * (1 - coverage)).rounded())
      image = filling(image, x: 3, y: 0, width: 1, height: 8, [grey, grey, grey, 255])
      return filling(image, x: 4, y: 0, width: 8, height: 8, [0, 0, 0, 255])
    }

    @Test func anEdgeShiftedByASubPixelIsAntiAliasingInPerceptualMode() {
      let expected = edge(coverage: 0.5)  // edge at x = 3.5
      let actual = edge(coverage: 0.75)  // edge at x = 3.25
      let exact = ImageDiff.compare(expected: expected, actual: actual)
      #expect(exact.changedPixels == 8)
      #expect(exact.regions == [DiffRegion(x: 3, y: 0, width: 1, height: 8, changedPixels: 8)])

      let perceptual = ImageDiff.compare(
        expected: expected, actual: actual, options: DiffOptions(mode: .perceptual))
      guard case .withinTolerance(let stats) = perceptual else {
        Issue.record("expected .withinTolerance, got \(perceptual)")
        return
      }
      #expect(stats.changedPixels == 0)
      #expect(stats.antiAliasedPixels == 8)
      #expect(perceptual.summary == "0 pixels differ (0.000%); 8 anti-aliased pixels ignored")

      let counted = ImageDiff.compare(
        expected: expected, actual: actual,
        options: DiffOptions(mode: .perceptual, includeAntiAliasing: true))
      #expect(counted.changedPixels == 8)
      #expect(counted.antiAliasedPixels == 0)
    }

    @Test func aSolidBlockIsNotMistakenForAntiAliasing() {
      // A grey pixel inside a flat area has equal neighbours: a real change, not anti-aliasing.
      let actual = filling(base, x: 50, y: 50, width: 1, height: 1, [100, 100, 100, 255])
      let result = ImageDiff.compare(
        expected: base, actual: actual, options: DiffOptions(mode: .perceptual))
      #expect(result.changedPixels == 1)
      #expect(result.antiAliasedPixels == 0)
    }

    @Test func differentSizesAreReportedWithBothSizes() {
      let result = ImageDiff.compare(expected: solid(1080, 20), actual: solid(1080, 18))
      #expect(
        result
          == .sizeMismatch(
            expected: PixelSize(width: 1080, height: 20), actual: PixelSize(width: 1080, height: 18)
          ))
      #expect(result.summary == "size differs: expected 1080×20, actual 1080×18")
      #expect(!result.passes)
    }

    @Test func separateChangesGiveSeparateRegionsTopToBottom() {
      var actual = filling(base, x: 70, y: 80, width: 5, height: 2, red)
      actual = filling(actual, x: 2, y: 3, width: 3, height: 4, blue)
      let result = ImageDiff.compare(expected: base, actual: actual)
      #expect(result.changedPixels == 22)
      #expect(
        result.regions == [
          DiffRegion(x: 2, y: 3, width: 3, height: 4, changedPixels: 12),
          DiffRegion(x: 70, y: 80, width: 5, height: 2, changedPixels: 10),
        ])
      #expect(
        result.summary == "22 pixels differ (0.220%) in 2 regions: 3×4 at (2,3), 5×2 at (70,80)")
    }

    @Test func regionsAreCappedAndTheRestCounted() {
      let big = solid(400, 400)
      var actual = big
      for i in 0..<15 {
        actual = filling(actual, x: (i % 5) * 80, y: (i / 5) * 120, width: 1 + i, height: 1, blue)
      }
      let result = ImageDiff.compare(expected: big, actual: actual)
      guard let stats = result.statistics else {
        Issue.record("expected statistics, got \(result)")
        return
      }
      #expect(stats.regions.count == ImageDiff.maxRegions)
      #expect(stats.omittedRegions == 5)
      // The ten largest are kept: widths 6…15.
      #expect(stats.regions.map(\.width).sorted() == Array(6...15))
      #expect(result.summary.hasSuffix(" and 5 more"))
    }

    @Test func diffImageMarksTheChangedPixelRedOnAFadedBase() {
      let actual = filling(base, x: 37, y: 42, width: 1, height: 1, [0, 0, 0, 255])
      let result = ImageDiff.compare(expected: base, actual: actual)
      let diff = ImageDiff.diffImage(expected: base, actual: actual, result: result)
      #expect(diff.width == 100 && diff.height == 100)
      #expect(diff.pixel(x: 37, y: 42) == (255, 0, 0, 255))
      // white is ghosted to the light end of the neutral base: 170 + 60
      #expect(diff.pixel(x: 0, y: 0) == (230, 230, 230, 255))
      let redCount = stride(from: 0, to: diff.pixels.count, by: 4).filter {
        diff.pixels[$0] == 255 && diff.pixels[$0 + 1] == 0 && diff.pixels[$0 + 2] == 0
      }.count
      #expect(redCount == 1)
    }

    @Test func diffImageGhostsBothModesOverANeutralBase() {
      let black = solid(4, 4, [0, 0, 0, 255])
      let diff = ImageDiff.diffImage(expected: black, actual: black, result: .identical)
      // black is the base's dark end: 170
      #expect(diff.pixel(x: 1, y: 1) == (170, 170, 170, 255))
      // a dark-mode picture: white text (255) on #101319 stays 52 greys apart, where fading to
      // 10 % over white left 232 and 255 (text lost)
      let dark = filling(
        solid(4, 4, [0x10, 0x13, 0x19, 255]), x: 0, y: 0, width: 1, height: 1,
        [255, 255, 255, 255])
      let ghost = ImageDiff.diffImage(expected: dark, actual: dark, result: .identical)
      #expect(ghost.pixel(x: 0, y: 0) == (230, 230, 230, 255))
      #expect(ghost.pixel(x: 1, y: 1) == (174, 174, 174, 255))
    }

    @Test func diffImageMarksAntiAliasedPixelsAmber() {
      let expected = edge(coverage: 0.5)
      let actual = edge(coverage: 0.75)
      let result = ImageDiff.compare(
        expected: expected, actual: actual, options: DiffOptions(mode: .perceptual))
      let diff = ImageDiff.diffImage(expected: expected, actual: actual, result: result)
      #expect(diff.pixel(x: 3, y: 4) == (255, 160, 0, 255))
    }

    @Test func diffImageOfDifferentSizesIsPaddedToTheLargerSize() {
      let result = ImageDiff.compare(expected: solid(10, 6), actual: solid(8, 9))
      let diff = ImageDiff.diffImage(expected: solid(10, 6), actual: solid(8, 9), result: result)
      #expect(diff.width == 10 && diff.height == 9)
      #expect(diff.pixel(x: 9, y: 0) == (255, 0, 0, 255))  // only in expected
      #expect(diff.pixel(x: 0, y: 8) == (255, 0, 0, 255))  // only in actual
      #expect(diff.pixel(x: 2, y: 2) == (230, 230, 230, 255))  // white in both, ghosted
    }

    @Test func sideBySideHasThreePanelsAndGaps() {
      let expected = solid(5, 3, red)
      let actual = solid(5, 4, blue)
      let diff = solid(5, 4, [0, 255, 0, 255])
      let sheet = ImageDiff.sideBySide(expected: expected, actual: actual, diff: diff)
      #expect(sheet.width == 15 + 2 * ImageDiff.panelGap)
      #expect(sheet.height == 4)
      #expect(sheet.pixel(x: 0, y: 0) == (255, 0, 0, 255))
      #expect(sheet.pixel(x: 0, y: 3) == (128, 128, 128, 255))
      #expect(sheet.pixel(x: 5, y: 0) == (128, 128, 128, 255))
      #expect(sheet.pixel(x: 5 + ImageDiff.panelGap, y: 3) == (0, 0, 255, 255))
      #expect(sheet.pixel(x: 10 + 2 * ImageDiff.panelGap, y: 0) == (0, 255, 0, 255))
    }
  }

}

extension DiffTests {
  @Suite("Comparing PNG files (ImageDiff.compareFiles)")
  final class Files {
    let folder: URL

    init() throws {
      folder = try temporaryFolder("ouds-diff-tests")
    }

    deinit {
      try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func writePNG(_ image: RasterImage, _ name: String) throws -> String {
      try PNGCodec.encode(image).write(to: folder.appendingPathComponent(name))
      return path(name)
    }

    /// The error `body` throws.
    func failure(_ body: () throws(DiffFileError) -> Void) -> DiffFileError? {
      do {
        try body()
        return nil
      } catch {
        return error
      }
    }

    @Test func identicalFilesAreIdentical() throws {
      let a = try writePNG(solid(30, 20), "a.png")
      let b = try writePNG(solid(30, 20), "b.png")
      #expect(try ImageDiff.compareFiles(a, b) == .identical)
      #expect(try ImageDiff.compareFiles(a, b).summary == "images are identical")
    }

    @Test func byteEqualFilesAreIdenticalWithoutDecoding() throws {
      // A PNG signature followed by garbage: undecodable, so only the byte fast path can answer.
      let bytes = Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64))
      try bytes.write(to: folder.appendingPathComponent("x.png"))
      try bytes.write(to: folder.appendingPathComponent("y.png"))
      #expect(try ImageDiff.compareFiles(path("x.png"), path("y.png")) == .identical)
    }

    @Test func identicalFilesStillGiveADiffImageWhenAsked() throws {
      let a = try writePNG(solid(6, 4, [0, 0, 0, 255]), "a.png")
      let comparison = try ImageDiff.compareFiles(a, a, makingDiffImage: true)
      #expect(comparison.result == .identical)
      let diff = try #require(comparison.diffImage)
      #expect(diff.width == 6 && diff.height == 4)
      #expect(diff.pixel(x: 5, y: 3) == (170, 170, 170, 255))
    }

    @Test func aChangedPixelIsCountedAndDrawnRed() throws {
      let a = try writePNG(solid(30, 20), "a.png")
      let b = try writePNG(
        filling(solid(30, 20), x: 4, y: 5, width: 1, height: 1, [0, 0, 0, 255]), "b.png")
      let comparison = try ImageDiff.compareFiles(a, b, makingDiffImage: true)
      #expect(comparison.result.summary == "1 pixel differs (0.167%) in 1 region: 1×1 at (4,5)")
      #expect(!comparison.result.passes)
      let diff = try #require(comparison.diffImage)
      #expect(diff.pixel(x: 4, y: 5) == (255, 0, 0, 255))
      #expect(diff.pixel(x: 0, y: 0) == (230, 230, 230, 255))
      #expect(try ImageDiff.compareFiles(a, b).changedPixels == 1)
    }

    @Test func noDiffImageUnlessAsked() throws {
      let a = try writePNG(solid(30, 20), "a.png")
      let b = try writePNG(solid(30, 20, [0, 0, 0, 255]), "b.png")
      #expect(try ImageDiff.compareFiles(a, b, makingDiffImage: false).diffImage == nil)
    }

    @Test func optionsDecideWhetherItPasses() throws {
      let a = try writePNG(solid(10, 10), "a.png")
      let b = try writePNG(
        filling(solid(10, 10), x: 0, y: 0, width: 2, height: 2, [0, 0, 255, 255]), "b.png")
      #expect(try ImageDiff.compareFiles(a, b, options: DiffOptions(maxDiffPixels: 4)).passes)
      #expect(try !ImageDiff.compareFiles(a, b, options: DiffOptions(maxDiffPixels: 3)).passes)
      let grey = try writePNG(solid(10, 10, [128, 128, 128, 255]), "grey.png")
      let greyish = try writePNG(solid(10, 10, [129, 128, 128, 255]), "greyish.png")
      #expect(try !ImageDiff.compareFiles(grey, greyish).passes)
      #expect(
        try ImageDiff.compareFiles(grey, greyish, options: DiffOptions(mode: .perceptual)).passes)
    }

    @Test func differentSizesAreReportedWithBothSizes() throws {
      let a = try writePNG(solid(10, 10), "a.png")
      let b = try writePNG(solid(10, 12), "b.png")
      #expect(
        try ImageDiff.compareFiles(a, b).summary == "size differs: expected 10×10, actual 10×12")
    }

    @Test func aMissingFileIsAnErrorNamingIt() throws {
      let a = try writePNG(solid(10, 10), "a.png")
      let error = failure { () throws(DiffFileError) in
        _ = try ImageDiff.compareFiles(a, path("missing.png"))
      }
      #expect(error == .missing(path: path("missing.png")))
      #expect(error?.description == "\(path("missing.png")): no such file")
    }

    @Test func aFileThatIsNotAPNGIsAnError() throws {
      let a = try writePNG(solid(10, 10), "a.png")
      try Data("hello".utf8).write(to: folder.appendingPathComponent("notes.png"))
      let error = failure { () throws(DiffFileError) in
        _ = try ImageDiff.compareFiles(path("notes.png"), a)
      }
      #expect(error?.description == "\(path("notes.png")): not a PNG file")
    }

    @Test func aFolderIsAnErrorNamingIt() throws {
      let a = try writePNG(solid(10, 10), "a.png")
      let error = failure { () throws(DiffFileError) in
        _ = try ImageDiff.compareFiles(folder.path, a)
      }
      guard case .unreadable(let path, _)? = error else {
        Issue.record("expected .unreadable, got \(String(describing: error))")
        return
      }
      #expect(path == folder.path)
    }

    @Test func aTruncatedPNGIsADecodingErrorNamingTheFile() throws {
      let a = try writePNG(solid(10, 10), "a.png")
      let data = try PNGCodec.encode(solid(10, 10, [0, 0, 0, 255]))
      try data.prefix(40).write(to: folder.appendingPathComponent("cut.png"))
      let error = failure { () throws(DiffFileError) in
        _ = try ImageDiff.compareFiles(a, path("cut.png"))
      }
      #expect(error?.description.hasPrefix("\(path("cut.png")): PNG decoding failed") == true)
    }
  }
}
