import Dispatch
import Foundation
import Graphics
import SafeInput

/// Two PNG files compared: the result, and the diff picture when one was asked for.
public struct FileComparison: Hashable, Sendable {
  /// What differs, if anything.
  public var result: DiffResult
  /// The diff picture (expected faded to grey, changed pixels red, anti-aliased pixels yellow),
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
  case undecodable(path: String, GraphicsError)

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
  /// Files with equal bytes are identical without being decoded; otherwise both are decoded once,
  /// in parallel, and compared with ``compare(expected:actual:options:)``. Each file is read as a
  /// user file: a regular file of at most 64 MiB.
  public static func compareFiles(
    _ expectedPath: String, _ actualPath: String, options: DiffOptions = .exact
  ) throws(DiffFileError) -> DiffResult {
    try compareFiles(expectedPath, actualPath, options: options, makingDiffImage: false).result
  }

  /// Compares two PNG files as ``compareFiles(_:_:options:)`` does and, with `makingDiffImage`,
  /// also draws the diff picture (for byte-equal files, the expected image faded).
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
  ) -> (Result<RasterImage, GraphicsError>, Result<RasterImage, GraphicsError>) {
    let slots = Locked<[Result<RasterImage, GraphicsError>?]>([nil, nil])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let data = index == 0 ? first : second
      let decoded = Result { () throws(GraphicsError) -> RasterImage in try PNGCodec.decode(data) }
      slots.withLock { $0[index] = decoded }
    }
    let missing = Result<RasterImage, GraphicsError>.failure(
      .pngDecodingFailed(reason: "not decoded"))
    return slots.withLock { ($0[0] ?? missing, $0[1] ?? missing) }
  }
}
