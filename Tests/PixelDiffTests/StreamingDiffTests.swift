import Foundation
import Graphics
import PNG
import PixelDiff
import Snapshot
import Testing

/// `ImageDiff.compareFiles` decodes the two PNGs at once and compares rows while they decode; its
/// results and diff pictures must be exactly those of decoding both first and comparing the
/// images in memory (`ImageDiff.compare` and `ImageDiff.diffImage`), whatever the options and
/// wherever the changes are (first rows, last rows, where the anti-aliasing test reads two rows
/// ahead), for interlaced inputs and for real references.
@Suite("diff: decoding and comparing at once gives the in-memory result")
final class StreamingDiffTests {
  let folder: URL

  init() throws {
    folder = try temporaryFolder("ouds-streaming-diff")
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  static let options: [(String, DiffOptions)] = [
    ("exact", .exact),
    ("perceptual", DiffOptions(mode: .perceptual)),
    (
      "perceptual, anti-aliasing counted", DiffOptions(mode: .perceptual, includeAntiAliasing: true)
    ),
    ("1% tolerance", DiffOptions(maxDiffRatio: 0.01)),
    ("threshold 0", DiffOptions(mode: .perceptual, threshold: 0)),
  ]

  /// 97×61, odd sides: flat areas, a vertical edge with anti-aliased (grey) pixels, a gradient
  /// and a semi-transparent strip. `shift` moves the edge by a fraction of a pixel in `rows`.
  static func picture(shift: Double = 0, rows: Set<Int> = []) -> RasterImage {
    let width = 97
    let height = 61
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        let edge = 33.5 + (rows.contains(y) ? shift : 0)
        let coverage = min(max(Double(x) + 1 - edge, 0), 1)
        let ink = UInt8((255 * (1 - coverage)).rounded())
        if x < 70 {
          pixels.replaceSubrange(i..<i + 4, with: [ink, ink, y < 30 ? ink : 255, 255])
        } else if x < 85 {
          pixels.replaceSubrange(i..<i + 4, with: [UInt8(x * 2), UInt8(y * 4), 90, 255])
        } else {
          pixels.replaceSubrange(i..<i + 4, with: [200, 30, 30, UInt8(y * 4)])
        }
      }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  static func setting(_ image: RasterImage, _ points: [(Int, Int)], _ rgba: [UInt8])
    -> RasterImage
  {
    var copy = image
    for (x, y) in points {
      let i = (y * image.width + x) * 4
      copy.pixels.replaceSubrange(i..<i + 4, with: rgba)
    }
    return copy
  }

  /// The changed pictures, each against ``picture(shift:rows:)`` unshifted.
  static let changes: [(String, RasterImage)] = {
    let base = picture()
    var everyRow = base
    for i in stride(from: 0, to: everyRow.pixels.count, by: 4) {
      everyRow.pixels[i] = everyRow.pixels[i] == 255 ? 254 : everyRow.pixels[i] + 1
    }
    var scattered: [(Int, Int)] = []
    for k in 0..<40 { scattered.append(((k * 37) % 97, (k * 23) % 61)) }
    return [
      ("a pixel in the first row", setting(base, [(5, 0)], [0, 0, 255, 255])),
      ("a pixel in the last row", setting(base, [(90, 60)], [0, 255, 0, 255])),
      ("the edge moved in the last two rows", picture(shift: 0.25, rows: [59, 60])),
      ("the edge moved in the first two rows", picture(shift: 0.25, rows: [0, 1])),
      ("the edge moved in every row", picture(shift: 0.4, rows: Set(0..<61))),
      (
        "40 scattered pixels (more regions than listed)",
        setting(base, scattered, [255, 0, 255, 255])
      ),
      ("one level more red everywhere", everyRow),
      ("a semi-transparent pixel", setting(base, [(88, 30)], [200, 30, 30, 40])),
    ]
  }()

  /// The result and diff picture of decoding both files, then comparing in memory.
  static func inMemory(_ expected: Data, _ actual: Data, _ options: DiffOptions) throws
    -> FileComparison
  {
    let a = try PNGCodec.decode(expected)
    let b = try PNGCodec.decode(actual)
    let result = ImageDiff.compare(expected: a, actual: b, options: options)
    return FileComparison(
      result: result, diffImage: ImageDiff.diffImage(expected: a, actual: b, result: result))
  }

  /// Writes both files, compares them streaming with and without a diff picture, and holds both
  /// against the in-memory comparison, the diff picture as PNG bytes.
  func check(
    _ expected: Data, _ actual: Data, _ options: DiffOptions, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> FileComparison {
    let a = folder.appendingPathComponent("expected.png")
    let b = folder.appendingPathComponent("actual.png")
    try expected.write(to: a)
    try actual.write(to: b)
    let reference = try Self.inMemory(expected, actual, options)
    let streamed = try ImageDiff.compareFiles(
      a.path, b.path, options: options, makingDiffImage: true)
    #expect(streamed.result == reference.result, "\(label)", sourceLocation: sourceLocation)
    let picture = try #require(streamed.diffImage, sourceLocation: sourceLocation)
    let referencePicture = try #require(reference.diffImage, sourceLocation: sourceLocation)
    #expect(
      try PNGCodec.encode(picture) == PNGCodec.encode(referencePicture), "\(label)",
      sourceLocation: sourceLocation)
    #expect(
      try ImageDiff.compareFiles(a.path, b.path, options: options) == reference.result,
      "\(label)", sourceLocation: sourceLocation)
    return streamed
  }

  @Test("synthetic changes, every option: the same counts, regions and diff picture")
  func syntheticPairs() throws {
    let base = try PNGCodec.encode(Self.picture())
    var outcomes: Set<String> = []
    for (change, image) in Self.changes {
      let changed = try PNGCodec.encode(image)
      for (name, options) in Self.options {
        let comparison = try check(base, changed, options, "\(change), \(name)")
        switch comparison.result {
        case .identical: outcomes.insert("identical")
        case .withinTolerance: outcomes.insert("within tolerance")
        case .different: outcomes.insert("different")
        case .sizeMismatch: outcomes.insert("size mismatch")
        }
        _ = try check(changed, base, options, "reversed: \(change), \(name)")
      }
    }
    // The pairs reach every kind of result, anti-aliasing included.
    #expect(outcomes == ["different", "within tolerance"])
    let aliased = try check(
      base, try PNGCodec.encode(Self.changes[2].1), DiffOptions(mode: .perceptual), "edge")
    #expect(aliased.result.antiAliasedPixels > 0)
  }

  @Test("interlaced inputs, and equal pixels in different bytes (identical, faded picture)")
  func interlacedAndEqualPixels() throws {
    let base = Self.picture()
    let interlacedBase = Self.adam7(base)
    #expect(try PNGCodec.decode(interlacedBase) == base)
    let changed = Self.changes[2].1
    for (name, options) in Self.options {
      _ = try check(interlacedBase, try PNGCodec.encode(changed), options, "interlaced, \(name)")
      _ = try check(try PNGCodec.encode(changed), Self.adam7(changed), options, "same, \(name)")
    }
    let same = try check(try PNGCodec.encode(base), interlacedBase, .exact, "equal pixels")
    #expect(same.result == .identical)
  }

  @Test("real references of the same size (iOS against Android rules)")
  func references() throws {
    let pairs = [
      ("demo-ordered/sosh-light@2x.png", "demo-ordered/sosh-light-android@2x.png"),
      ("demo-bare/wireframe-light@2x.png", "demo-bare/wireframe-light-android@2x.png"),
    ]
    for (first, second) in pairs {
      let expected = try Data(contentsOf: Repo.snapshots.appendingPathComponent(first))
      let actual = try Data(contentsOf: Repo.snapshots.appendingPathComponent(second))
      let sizeA = try PNGCodec.size(of: expected)
      let sizeB = try PNGCodec.size(of: actual)
      #expect(sizeA == sizeB, "\(first) and \(second) have the same size")
      for (name, options) in Self.options.prefix(2) {
        let comparison = try check(expected, actual, options, "\(first) vs \(second), \(name)")
        #expect(comparison.result != .identical)
      }
    }
  }

  @Test("a broken expected file is named first, even when the actual one is broken too")
  func errorsNameTheFile() throws {
    let good = try PNGCodec.encode(Self.picture())
    let cut = good.prefix(good.count * 2 / 3)
    let a = folder.appendingPathComponent("a.png")
    let b = folder.appendingPathComponent("b.png")
    try cut.write(to: a)
    try cut.dropLast(5).write(to: b)
    func failure() -> DiffFileError? {
      do {
        _ = try ImageDiff.compareFiles(a.path, b.path, makingDiffImage: true)
        return nil
      } catch {
        return error
      }
    }
    guard case .undecodable(let path, _)? = failure() else {
      Issue.record("expected an undecodable file")
      return
    }
    #expect(path == a.path)
    try good.write(to: a)
    guard case .undecodable(let second, _)? = failure() else {
      Issue.record("expected an undecodable file")
      return
    }
    #expect(second == b.path)
  }

  // MARK: - An interlaced PNG, written by hand

  /// `image` as an 8-bit RGBA Adam7-interlaced PNG in stored (uncompressed) deflate blocks.
  static func adam7(_ image: RasterImage) -> Data {
    let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = [
      (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
      (0, 1, 1, 2),
    ]
    var raw: [UInt8] = []
    for pass in passes {
      guard pass.x0 < image.width, pass.y0 < image.height else { continue }
      for y in stride(from: pass.y0, to: image.height, by: pass.dy) {
        raw.append(0)
        for x in stride(from: pass.x0, to: image.width, by: pass.dx) {
          let i = (y * image.width + x) * 4
          raw += image.pixels[i..<i + 4]
        }
      }
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65535, raw.count - offset)
      zlib += [
        offset + count == raw.count ? 1 : 0, UInt8(count & 0xFF), UInt8(count >> 8),
        UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF),
      ]
      zlib += raw[offset..<offset + count]
      offset += count
    } while offset < raw.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    zlib += bigEndian(b << 16 | a)
    let header =
      bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height)) + [8, 6, 0, 0, 1]
    return Data(
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        + chunk("IDAT", zlib) + chunk("IEND", []))
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in typed {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return bigEndian(UInt32(data.count)) + typed + bigEndian(~crc)
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
      UInt8(value & 0xFF),
    ]
  }
}

/// The buffers `diff` decodes into.
@Suite("LargeBuffer")
struct LargeBufferTests {
  @Test("zero-filled, writable over its whole count; nil for no bytes or a count that overflows")
  func buffer() throws {
    let count = 9 * 1_000_000 + 7
    let buffer = try #require(LargeBuffer(count: count))
    #expect(buffer.bytes.count == count)
    #expect(buffer.bytes.allSatisfy { $0 == 0 })
    buffer.bytes[count - 1] = 0xAB
    buffer.bytes[0] = 0xCD
    #expect(buffer.bytes[count - 1] == 0xAB && buffer.bytes[0] == 0xCD)
    #expect(LargeBuffer(count: 0) == nil)
    #expect(LargeBuffer(count: Int.max) == nil)
  }
}
