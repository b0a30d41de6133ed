import Dispatch
import PNG
import SafeInput
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Two PNG files compared: the result, and the diff picture when one was asked for.
public struct FileComparison: Hashable, Sendable {
  /// What differs, if anything.
  public var result: DiffResult
  /// The diff picture (expected ghosted in grey, changed pixels red, anti-aliased pixels amber),
  /// when asked for.
  public var diffImage: RasterImage?

  /// Creates a comparison.
  public init(result: DiffResult, diffImage: RasterImage?) {
    self.result = result
    self.diffImage = diffImage
  }
}

/// Why two PNG files could not be compared; each description is one line naming the file.
public enum DiffFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file does not exist.
  case missing(path: String)
  /// The file cannot be read (a folder, a FIFO, a device, too large, no permission).
  case unreadable(path: String, reason: String)
  /// The file does not start with the PNG signature.
  case notPNG(path: String)
  /// The file starts like a PNG but cannot be decoded.
  case undecodable(path: String, PNGError)

  /// `<path>: <problem>`.
  public var description: String {
    switch self {
    case .missing(let path): return "\(MessageText.path(path)): no such file"
    case .unreadable(let path, let reason): return "\(MessageText.path(path)): \(reason)"
    case .notPNG(let path): return "\(MessageText.path(path)): not a PNG file"
    case .undecodable(let path, let error): return "\(MessageText.path(path)): \(error.description)"
    }
  }
}

extension ImageDiff {
  /// Compares the PNG files at `expectedPath` and `actualPath` with `options`.
  ///
  /// Files with equal bytes are identical without being decoded. Otherwise both are decoded at
  /// once, one per thread, and rows are compared as soon as both images have them (see
  /// ``compareFiles(_:_:options:makingDiffImage:)``); the result is the one
  /// ``compare(expected:actual:options:)`` gives for the decoded images. Each file is read as a
  /// user file: a regular file of at most 64 MiB.
  public static func compareFiles(
    _ expectedPath: String, _ actualPath: String, options: DiffOptions = .exact
  ) throws(DiffFileError) -> DiffResult {
    try compareFiles(expectedPath, actualPath, options: options, makingDiffImage: false).result
  }

  /// Compares two PNG files as ``compareFiles(_:_:options:)`` does and, with `makingDiffImage`,
  /// also draws the diff picture (for byte-equal files, the expected image ghosted).
  ///
  /// Images of the same size are compared while they decode: the expected image on a thread of
  /// its own, the actual one on this thread, which compares every row both images have (and, in
  /// perceptual counting, the two rows below it, which the anti-aliasing test reads) after each
  /// row it decodes, and paints the diff picture's rows as it goes. The counts, regions and
  /// picture are those of ``compare(expected:actual:options:)`` and
  /// ``diffImage(expected:actual:result:)``, byte for byte. Images of different sizes are decoded
  /// in parallel and compared as before.
  public static func compareFiles(
    _ expectedPath: String, _ actualPath: String, options: DiffOptions = .exact,
    makingDiffImage: Bool
  ) throws(DiffFileError) -> FileComparison {
    let expectedData = try readPNG(expectedPath)
    let actualData = try readPNG(actualPath)
    if expectedData == actualData {
      guard makingDiffImage else { return FileComparison(result: .identical, diffImage: nil) }
      let image = try decode(expectedData, path: expectedPath)
      return FileComparison(
        result: .identical, diffImage: diffImage(expected: image, actual: image, result: .identical)
      )
    }
    let expectedSize = try size(of: expectedData, path: expectedPath)
    let actualSize = try size(of: actualData, path: actualPath)
    if expectedSize == actualSize {
      return try StreamingComparison.run(
        expected: (expectedData, expectedPath), actual: (actualData, actualPath),
        width: expectedSize.width, height: expectedSize.height, options: options,
        makingDiffImage: makingDiffImage)
    }
    let (expectedDecoded, actualDecoded) = decodeInParallel(expectedData, actualData)
    let expected = try expectedDecoded.mapError {
      DiffFileError.undecodable(path: expectedPath, $0)
    }.get()
    let actual = try actualDecoded.mapError { DiffFileError.undecodable(path: actualPath, $0) }
      .get()
    let result = compare(expected: expected, actual: actual, options: options)
    return FileComparison(
      result: result,
      diffImage: makingDiffImage
        ? diffImage(expected: expected, actual: actual, result: result) : nil)
  }

  private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  private static func readPNG(_ path: String) throws(DiffFileError) -> Data {
    let data: Data
    do {
      data = try UserFile.read(path, kind: .diffInput)
    } catch {
      if case .missing = error.problem { throw .missing(path: path) }
      throw .unreadable(path: path, reason: error.reason)
    }
    guard data.count >= pngSignature.count,
      data.prefix(pngSignature.count).elementsEqual(pngSignature)
    else {
      throw .notPNG(path: path)
    }
    return data
  }

  private static func size(of data: Data, path: String) throws(DiffFileError) -> PixelSize {
    do {
      let (width, height) = try PNGCodec.size(of: data)
      return PixelSize(width: width, height: height)
    } catch {
      throw .undecodable(path: path, error)
    }
  }

  private static func decode(_ data: Data, path: String) throws(DiffFileError) -> RasterImage {
    do {
      return try PNGCodec.decode(data)
    } catch {
      throw .undecodable(path: path, error)
    }
  }

  /// Decodes both PNGs at the same time, one per core.
  static func decodeInParallel(
    _ first: Data, _ second: Data
  ) -> (Result<RasterImage, PNGError>, Result<RasterImage, PNGError>) {
    let slots = Locked<[Result<RasterImage, PNGError>?]>([nil, nil])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let data = index == 0 ? first : second
      let decoded = Result { () throws(PNGError) -> RasterImage in try PNGCodec.decode(data) }
      slots.withLock { $0[index] = decoded }
    }
    let missing = Result<RasterImage, PNGError>.failure(
      .decodingFailed(reason: "not decoded"))
    return slots.withLock { ($0[0] ?? missing, $0[1] ?? missing) }
  }
}

/// Two same-size PNGs decoded at once and compared row by row while they decode (see
/// ``ImageDiff/compareFiles(_:_:options:makingDiffImage:)``).
enum StreamingComparison {
  /// How far the expected image's decoding thread has come.
  private final class Progress: @unchecked Sendable {
    private let condition = ConditionLock()
    private var rows = 0
    private var finished = false
    private var error: PNGError?

    /// Rows decoded so far (every row once finished without error).
    var rowsDone: Int {
      condition.lock()
      defer { condition.unlock() }
      return rows
    }

    func publish(rows done: Int) {
      condition.lock()
      rows = done
      condition.unlock()
    }

    func finish(_ failure: PNGError?) {
      condition.lock()
      finished = true
      error = failure
      condition.broadcast()
      condition.unlock()
    }

    /// Waits until decoding has ended; returns its error, if any.
    func waitUntilFinished() -> PNGError? {
      condition.lock()
      defer { condition.unlock() }
      while !finished { condition.wait() }
      return error
    }
  }

  /// A buffer the decoding thread writes and this thread reads, in rows the progress separates.
  private struct SharedBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer
  }

  static func run(
    expected: (data: Data, path: String), actual: (data: Data, path: String), width: Int,
    height: Int, options: DiffOptions, makingDiffImage: Bool
  ) throws(DiffFileError) -> FileComparison {
    let size = width * height * 4
    let rowBytes = width * 4
    let below = PixelScan.rowsBelowNeeded(options)
    guard let expectedBuffer = LargeBuffer(count: size), let actualBuffer = LargeBuffer(count: size)
    else {
      throw .undecodable(
        path: expected.path,
        .decodingFailed(reason: "no memory for two \(width)×\(height) images"))
    }
    defer { withExtendedLifetime((expectedBuffer, actualBuffer)) {} }
    let expectedPixels = expectedBuffer.bytes
    let actualPixels = actualBuffer.bytes
    var diffPixels = makingDiffImage ? [UInt8](repeating: 0, count: size) : []
    let clusters = RegionClusters(width: width, height: height)
    var counts = PixelScan.Counts()
    var differs = false
    var scanned = 0

    // The expected image decodes on a thread of its own; `progress` says how far it is.
    let progress = Progress()
    let shared = SharedBuffer(bytes: expectedPixels)
    let expectedData = expected.data
    let decodeExpected: @Sendable () -> Void = {
      let outcome = Result { () throws(PNGError) in
        try PNGCodec.decode(expectedData, into: shared.bytes) { progress.publish(rows: $0) }
      }
      if case .failure(let error) = outcome {
        progress.finish(error)
      } else {
        progress.finish(nil)
      }
    }
    // Without a thread of its own (the system refused one), it decodes here, before the rest.
    if !startThread(decodeExpected) { decodeExpected() }

    var actualOutcome: Result<Void, PNGError> = .success(())
    diffPixels.withUnsafeMutableBytes { diffBuffer in
      guard let a = UnsafeRawPointer(expectedPixels.baseAddress),
        let b = UnsafeRawPointer(actualPixels.baseAddress)
      else { return }
      let output = makingDiffImage ? diffBuffer.baseAddress : nil
      // Scans the rows both images have, except the last `below`, which the anti-aliasing test
      // of a row above them reads, until both images are complete.
      func scan(upTo ready: Int) {
        let limit = ready >= height ? height : max(0, ready - below)
        guard limit > scanned else { return }
        let rows = scanned..<limit
        if let output {
          PixelScan.paintFaded(
            a + rows.lowerBound * rowBytes, pixelCount: rows.count * width,
            into: output + rows.lowerBound * rowBytes)
        }
        if PixelScan.run(
          a, b, width: width, height: height, rows: rows, options: options, clusters: clusters,
          output: output, counts: &counts)
        {
          differs = true
        }
        scanned = limit
      }
      actualOutcome = Result { () throws(PNGError) in
        try PNGCodec.decode(actual.data, into: actualPixels) { done in
          scan(upTo: min(done, progress.rowsDone))
        }
      }
      if progress.waitUntilFinished() == nil, case .success = actualOutcome {
        scan(upTo: height)
      }
    }
    // The expected image's thread has finished writing (its error, if any, comes first).
    if let error = progress.waitUntilFinished() {
      throw .undecodable(path: expected.path, error)
    }
    if case .failure(let error) = actualOutcome {
      throw .undecodable(path: actual.path, error)
    }
    guard differs else {
      return FileComparison(
        result: .identical,
        diffImage: makingDiffImage
          ? RasterImage(width: width, height: height, pixels: diffPixels) : nil)
    }
    let result = ImageDiff.result(
      counts, clusters: clusters, width: width, height: height, options: options)
    return FileComparison(
      result: result,
      diffImage: makingDiffImage
        ? RasterImage(width: width, height: height, pixels: diffPixels) : nil)
  }
}
