import BulletListRenderer
import CLIKit
import Graphics
import PNG
import PixelDiff
import SafeInput
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render diff`: compares two PNG images with ``Snapshot/ImageDiff/compareFiles(_:_:options:makingDiffImage:)``.
///
/// Exit status: 0 identical or within tolerance, 1 different or an input or output error, 2 a
/// usage error.
enum DiffCommand {
  /// `-o, --output <diff.png>`.
  static let output = TypedOption.text(
    names: ["-o", "--output"],
    placeholder: "diff.png", completion: .file(extensions: ["png"]),
    help:
      "write a diff image: expected ghosted in grey (legible in both colour modes), changed pixels red, anti-aliased pixels amber (written atomically); - writes it to standard output and the summary to stderr"
  )
  /// `--max-diff-pixels <n>`.
  static let maxDiffPixelsOption = TypedOption.integer(
    names: ["--max-diff-pixels"], placeholder: "n", range: 0...Int.max,
    help: "pass when at most n pixels changed (turns on perceptual counting)")
  /// `--max-diff-pixels` as the table lists it.
  static let maxDiffPixels = maxDiffPixelsOption.spec
  /// `--max-diff-ratio <r>`.
  static let maxDiffRatioOption = TypedOption.number(
    names: ["--max-diff-ratio"], placeholder: "r", range: 0...1,
    help:
      "pass when at most this share of pixels changed (turns on perceptual counting); with both, the stricter wins"
  )
  /// `--max-diff-ratio` as the table lists it.
  static let maxDiffRatio = maxDiffRatioOption.spec
  /// `--perceptual`.
  static let perceptual = FlagOption(
    names: ["--perceptual"],
    help:
      "count a pixel only when its YIQ colour distance is over the threshold and it is not anti-aliasing (pixelmatch's algorithm)"
  )
  /// `--threshold <t>`.
  static let thresholdOption = TypedOption.number(
    names: ["--threshold"], placeholder: "t", range: 0...1, default: DiffOptions.exact.threshold,
    help: "perceptual threshold; implies --perceptual")
  /// `--threshold` as the table lists it.
  static let threshold = thresholdOption.spec
  /// `--include-aa`.
  static let includeAntiAliasing = FlagOption(
    names: ["--include-aa"], help: "count anti-aliased pixels as changed in perceptual counting")

  /// The command's table.
  static let spec = CommandSpec(
    name: "diff",
    abstract: "Compare two PNG files",
    overview: "Compare two PNG images pixel by pixel.",
    arguments: [
      ArgumentSpec(
        name: "expected.png", help: "the reference image", completion: .file(extensions: ["png"])),
      ArgumentSpec(
        name: "actual.png", help: "the image to check against it",
        completion: .file(extensions: ["png"])),
    ],
    argumentsInWords: "two PNG files",
    options: [
      output.spec, maxDiffPixels, maxDiffRatio, perceptual.spec, threshold,
      includeAntiAliasing.spec,
    ],
    footer: """
      By default the comparison is exact: any byte difference in a pixel counts and no pixel may change.
      Prints one summary line. Exit status: 0 same or within tolerance, 1 different or unreadable
      input, 2 usage error.
      """,
    examples: [
      Example(
        command: "diff a.png b.png -o diff.png", explanation: "exact comparison, with a diff image"),
      Example(
        command: "diff expected.png actual.png --max-diff-ratio 0.001",
        explanation: "pass when at most 0.1% of the pixels changed (perceptually)"),
      Example(
        command: "diff a.png b.png -o - > diff.png",
        explanation: "the diff image to standard output"),
    ],
    run: run)

  /// Compares the two files; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    var options = DiffOptions()
    if let pixels = arguments[maxDiffPixelsOption] { options.maxDiffPixels = pixels }
    if let ratio = arguments[maxDiffRatioOption] { options.maxDiffRatio = ratio }
    if arguments.has(perceptual) { options.mode = .perceptual }
    if arguments.isGiven(threshold) {
      options.threshold = arguments[thresholdOption] ?? options.threshold
      options.mode = .perceptual
    }
    options.includeAntiAliasing = arguments.has(includeAntiAliasing)

    let outputPath = arguments.text(output)
    let destination: PictureDestination? = outputPath.map {
      $0 == PictureDestination.standardOutputName ? .standardOutput : .file($0)
    }
    if destination == .standardOutput { try PictureDestination.checkTerminal(for: .png) }
    if let outputPath, destination != .standardOutput {
      // A diff picture over a reference would make the next verify compare it with itself.
      let places = InputFolderGuard.places(around: outputPath)
      try OutputPlace.check(outputPath, option: "-o", against: places)
      WriteFence.protect(places)
    }
    let paths = arguments.positionals
    let expected = paths.first ?? ""
    let actual = paths.last ?? ""
    let comparison = try ImageDiff.compareFiles(
      expected, actual, options: options, makingDiffImage: destination != nil)
    if let image = comparison.diffImage, let destination, let outputPath {
      try write(
        image, to: destination, path: outputPath, protecting: InputFiles([expected, actual]))
    }
    let summary = comparison.result.summary
    if destination == .standardOutput {
      printError(summary)
    } else {
      try writeOutput(summary + "\n")
    }
    return comparison.result.passes ? ExitStatus.success : ExitStatus.failure
  }

  /// Encodes the diff image and writes it; a failure names the path.
  private static func write(
    _ image: RasterImage, to destination: PictureDestination, path: String,
    protecting inputs: InputFiles
  ) throws {
    let data: Data
    do {
      data = try PNGCodec.encode(image)
    } catch {
      throw DiffOutputError(path: path, reason: error.description)
    }
    do {
      try destination.write(data, protecting: inputs)
    } catch let error as FileWriteError {
      throw DiffOutputError(path: path, reason: error.reason)
    }
  }
}

/// The diff image could not be written: `<path>: cannot be written: <reason>`.
struct DiffOutputError: Error, CustomStringConvertible {
  /// The `-o` path.
  var path: String
  /// Why: for example, `it is the input of this run`.
  var reason: String
  /// `<path>: cannot be written: <reason>`.
  var description: String { "\(MessageText.path(path)): cannot be written: \(reason)" }
}
