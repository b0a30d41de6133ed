import BulletListRenderer
import Dispatch
import Foundation
import Graphics
import SafeInput

#if canImport(Glibc)
  import Glibc
#endif

/// The `ouds-render diff` command as a library function, so it can be tested in process.
///
/// Files with equal bytes are reported identical without being decoded; otherwise both are
/// decoded once, in parallel, and compared with ``ImageDiff``. Exit codes: 0 identical or within tolerance, 1 different or an input/output error, 2 usage error.
public enum DiffTool {
  /// Exit code when the images match (identical or within tolerance).
  public static let exitSame: Int32 = 0
  /// Exit code when the images differ, or a file cannot be read, decoded or written.
  public static let exitDifferent: Int32 = 1
  /// Exit code for a usage error.
  public static let exitUsage: Int32 = 2

  /// The text printed by `ouds-render diff --help`.
  public static let help = """
    OVERVIEW: Compare two PNG images pixel by pixel.

    USAGE: ouds-render diff <expected.png> <actual.png> [-o <diff.png>] [options]

    ARGUMENTS:
      <expected.png>            The reference image.
      <actual.png>              The image to check against it.

    OPTIONS:
      -o, --output <diff.png>   Write a diff image: expected faded to grey, changed pixels red,
                                anti-aliased pixels yellow (written atomically).
      --max-diff-pixels <n>     Pass when at most n pixels changed (turns on perceptual counting).
      --max-diff-ratio <r>      Pass when at most this share (0…1) of pixels changed
                                (turns on perceptual counting). With both, the stricter wins.
      --perceptual              Count a pixel only when its YIQ colour distance is over the threshold
                                and it is not anti-aliasing (pixelmatch's algorithm).
      --threshold <t>           Perceptual threshold, 0…1 (default 0.1); implies --perceptual.
      --include-aa              Count anti-aliased pixels as changed in perceptual counting.
      -h, --help                Show this help.

    By default the comparison is exact: any byte difference in a pixel counts and no pixel may change.
    Prints one summary line. Exit status: 0 same or within tolerance, 1 different or unreadable
    input, 2 usage error.
    """

  /// Runs the command with its arguments (after `diff`), writing the summary line through
  /// `standardOutput` and `error: …` lines through `standardError`; returns the exit code.
  /// An error thrown by `standardOutput` (a closed or full standard output) is reported through
  /// `standardError` and exits 1.
  public static func run(
    _ arguments: [String], standardOutput: (String) throws -> Void, standardError: (String) -> Void
  ) -> Int32 {
    do {
      return try runThrowingOutput(arguments, standardOutput: standardOutput, standardError: standardError)
    } catch {
      standardError("error: \(error)")
      return exitDifferent
    }
  }

  private static func runThrowingOutput(
    _ arguments: [String], standardOutput: (String) throws -> Void, standardError: (String) -> Void
  ) throws -> Int32 {
    let invocation: Invocation
    switch parse(arguments) {
    case .success(let parsed): invocation = parsed
    case .failure(let problem):
      standardError("error: \(problem.message) (see 'ouds-render diff --help')")
      return exitUsage
    }
    if invocation.showHelp {
      try standardOutput(help)
      return exitSame
    }
    let result: DiffResult
    do throws(DiffToolError) {
      result = try compareFiles(invocation)
    } catch {
      standardError("error: \(error.description)")
      return exitDifferent
    }
    try standardOutput(result.summary)
    return result.passes ? exitSame : exitDifferent
  }

  // MARK: - Comparing files

  private static func compareFiles(_ invocation: Invocation) throws(DiffToolError) -> DiffResult {
    let expectedPath = invocation.expectedPath
    let actualPath = invocation.actualPath
    let expectedData = try readPNG(expectedPath)
    let actualData = try readPNG(actualPath)
    let inputs = InputFiles([expectedPath, actualPath])

    if expectedData == actualData {
      if let output = invocation.outputPath {
        let image = try decode(expectedData, path: expectedPath)
        try write(ImageDiff.diffImage(expected: image, actual: image, result: .identical), to: output, protecting: inputs)
      }
      return .identical
    }

    let (expectedDecoded, actualDecoded) = decodeInParallel(expectedData, actualData)
    let expected = try expectedDecoded.mapError { DiffToolError.undecodable(path: expectedPath, $0) }.get()
    let actual = try actualDecoded.mapError { DiffToolError.undecodable(path: actualPath, $0) }.get()
    let result = ImageDiff.compare(expected: expected, actual: actual, options: invocation.options)
    if let output = invocation.outputPath {
      try write(ImageDiff.diffImage(expected: expected, actual: actual, result: result), to: output, protecting: inputs)
    }
    return result
  }

  private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  private static func readPNG(_ path: String) throws(DiffToolError) -> Data {
    let data: Data
    do {
      data = try UserFile.read(path, kind: .diffInput)
    } catch {
      if case .missing = error.problem { throw .missing(path: path) }
      throw .unreadable(path: path, reason: error.reason)
    }
    guard data.count >= pngSignature.count, data.prefix(pngSignature.count).elementsEqual(pngSignature) else {
      throw .notPNG(path: path)
    }
    return data
  }

  private static func decode(_ data: Data, path: String) throws(DiffToolError) -> RasterImage {
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
    let slots = DecodeSlots()
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let data = index == 0 ? first : second
      let decoded = Result { () throws(GraphicsError) -> RasterImage in try PNGCodec.decode(data) }
      slots.store(decoded, at: index)
    }
    return slots.results()
  }

  private static func write(_ image: RasterImage, to path: String, protecting inputs: InputFiles) throws(DiffToolError) {
    let data: Data
    do {
      data = try PNGCodec.encode(image)
    } catch {
      throw .unwritable(path: path, reason: error.description)
    }
    do {
      try AtomicFile.write(data, to: path, protecting: inputs)
    } catch {
      throw .unwritable(path: path, reason: error.reason)
    }
  }

  // MARK: - Arguments

  struct Invocation {
    var expectedPath = ""
    var actualPath = ""
    var outputPath: String?
    var options = DiffOptions()
    var showHelp = false
  }

  struct UsageProblem: Error {
    var message: String
  }

  static func parse(_ arguments: [String]) -> Result<Invocation, UsageProblem> {
    var invocation = Invocation()
    var positionals: [String] = []
    var index = 0
    var optionsEnded = false

    func value(for name: String, inline: String?) -> Result<String, UsageProblem> {
      if let inline { return .success(inline) }
      index += 1
      guard index < arguments.count else { return .failure(UsageProblem(message: "missing value for '\(name)'")) }
      return .success(arguments[index])
    }

    while index < arguments.count {
      let argument = arguments[index]
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        index += 1
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      switch name {
      case "--":
        optionsEnded = true
      case "-h", "--help":
        invocation.showHelp = true
      case "-o", "--output":
        switch value(for: name, inline: inline) {
        case .success(let path) where !path.isEmpty: invocation.outputPath = path
        case .success: return .failure(UsageProblem(message: "empty path for '\(name)'"))
        case .failure(let problem): return .failure(problem)
        }
      case "--max-diff-pixels":
        switch value(for: name, inline: inline) {
        case .success(let text):
          guard let number = DecimalNumber.integer(text), number >= 0 else {
            return .failure(UsageProblem(message: "'\(name)' needs a whole number ≥ 0, got '\(MessageText.value(text))'"))
          }
          invocation.options.maxDiffPixels = number
        case .failure(let problem): return .failure(problem)
        }
      case "--max-diff-ratio", "--threshold":
        switch value(for: name, inline: inline) {
        case .success(let text):
          guard let number = DecimalNumber.number(text), (0...1).contains(number) else {
            return .failure(UsageProblem(message: "'\(name)' needs a number from 0 to 1, got '\(MessageText.value(text))'"))
          }
          if name == "--threshold" {
            invocation.options.threshold = number
            invocation.options.mode = .perceptual
          } else {
            invocation.options.maxDiffRatio = number
          }
        case .failure(let problem): return .failure(problem)
        }
      case "--perceptual":
        invocation.options.mode = .perceptual
      case "--include-aa":
        invocation.options.includeAntiAliasing = true
      default:
        return .failure(UsageProblem(message: "unknown option '\(MessageText.value(argument))'"))
      }
      if inline != nil && ["--help", "--perceptual", "--include-aa", "--"].contains(name) {
        return .failure(UsageProblem(message: "'\(name)' takes no value"))
      }
      index += 1
    }
    if invocation.showHelp { return .success(invocation) }
    guard positionals.count == 2 else {
      let message =
        positionals.count < 2
        ? "expected two PNG files, got \(positionals.count)"
        : "expected two PNG files, got \(positionals.count): unexpected '\(MessageText.value(positionals[2]))'"
      return .failure(UsageProblem(message: message))
    }
    invocation.expectedPath = positionals[0]
    invocation.actualPath = positionals[1]
    return .success(invocation)
  }
}

/// Why `ouds-render diff` could not compare two files; each description is one line naming the file.
enum DiffToolError: Error, CustomStringConvertible {
  case missing(path: String)
  case unreadable(path: String, reason: String)
  case notPNG(path: String)
  case undecodable(path: String, GraphicsError)
  case unwritable(path: String, reason: String)

  var description: String {
    switch self {
    case .missing(let path): return "\(MessageText.path(path)): no such file"
    case .unreadable(let path, let reason): return "\(MessageText.path(path)): \(reason)"
    case .notPNG(let path): return "\(MessageText.path(path)): not a PNG file"
    case .undecodable(let path, let error): return "\(MessageText.path(path)): \(error.description)"
    case .unwritable(let path, let reason): return "\(MessageText.path(path)): cannot be written: \(reason)"
    }
  }
}

/// Two result slots filled from two threads.
private final class DecodeSlots: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [Result<RasterImage, GraphicsError>?] = [nil, nil]

  func store(_ result: Result<RasterImage, GraphicsError>, at index: Int) {
    lock.lock()
    slots[index] = result
    lock.unlock()
  }

  func results() -> (Result<RasterImage, GraphicsError>, Result<RasterImage, GraphicsError>) {
    lock.lock()
    defer { lock.unlock() }
    let missing = Result<RasterImage, GraphicsError>.failure(.pngDecodingFailed(reason: "not decoded"))
    return (slots[0] ?? missing, slots[1] ?? missing)
  }
}
