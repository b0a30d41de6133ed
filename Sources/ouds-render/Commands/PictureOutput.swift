import BulletListRenderer
import CLIKit
import Graphics
import SafeInput
import Scene
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the commands that write pictures (`render`, `sheet`, `diff`) put them: the `-o` value.
enum PictureDestination: Equatable {
  /// One file.
  case file(String)
  /// A folder of files `<theme>-<mode>[-<platform>].<ext>` (`render` with `all`).
  case folder(String)
  /// Standard output: `-o -`.
  case standardOutput

  /// The `-o` value that means standard output.
  static let standardOutputName = "-"

  /// Writes one picture here (a file or standard output), never replacing one of `inputs`.
  func write(_ data: Data, protecting inputs: InputFiles) throws {
    switch self {
    case .file(let path), .folder(let path):
      try AtomicFile.write(data, to: path, protecting: inputs)
    case .standardOutput: try writeOutput(data)
    }
  }

  /// Refuses a PNG or PDF for standard output when it is a terminal (SVG is text and may go there).
  static func checkTerminal(for kind: OutputKind) throws(UsageError) {
    if !kind.isText, standardOutputIsTerminal {
      throw UsageError(
        "standard output is a terminal: redirect it (> out.\(kind.rawValue)) or give -o <file> for \(kind.rawValue.uppercased()) data"
      )
    }
  }
}

/// What `render` and `sheet` write: the list job, where, and in which format.
struct PictureJob {
  /// The list, renderer and settings.
  var job: ListJob
  /// Where the picture (or pictures) go.
  var destination: PictureDestination
  /// The output format.
  var format: OutputFormat
  /// The line on stderr that says which themes folder and fonts were used.
  var sources: String

  /// Sets up a picture job; with `matrixWritesFolder` (`render`), `all` makes `-o` a folder.
  init(_ arguments: ParsedArguments, matrixWritesFolder: Bool) throws {
    let output = arguments.text(ListOptions.output) ?? ""
    let isFolder = matrixWritesFolder && ListJob.isMatrix(arguments)
    let kind = try Self.kind(arguments, output: output, isFolder: isFolder)
    if output == PictureDestination.standardOutputName {
      try PictureDestination.checkTerminal(for: kind)
      destination = .standardOutput
    } else {
      destination = isFolder ? .folder(output) : .file(output)
    }
    job = try ListJob(arguments: arguments)
    // Never into the themes folder in use, however it was found, nor into a snapshots folder
    // (a picture over a reference or a case file would make the next verify compare it with itself).
    if destination != .standardOutput {
      let themes = job.renderer.themesLocation.directory
      let places =
        [ProtectedPlace("themes folder", themes.path)]
        + InputFolderGuard.places(around: output, themes: themes)
      try OutputPlace.check(output, option: "-o", against: places)
      WriteFence.protect(places)
    }
    format = kind.format(scale: job.scale(arguments))
    sources = try job.sourcesLine()
  }

  /// The output format's kind: `--format`, else the extension of `-o` (png for `-o -`).
  ///
  /// With `all`, `-o` is a folder (never `-`).
  private static func kind(_ arguments: ParsedArguments, output: String, isFolder: Bool)
    throws(UsageError)
    -> OutputKind
  {
    let requested = arguments[ListOptions.formatOption]
    if output == PictureDestination.standardOutputName {
      if isFolder {
        throw UsageError(
          "-o - writes one picture to standard output, but --theme all, --mode all or --platform all make several: give a folder"
        )
      }
      return requested ?? .png
    }
    let extensionName = URL(fileURLWithPath: output).pathExtension.lowercased()
    let named = OutputKind(rawValue: extensionName)
    if isFolder {
      if named != nil {
        throw UsageError(
          "with --theme all, --mode all or --platform all, -o is a folder, but \(MessageText.path(output)) names a .\(extensionName) file"
        )
      }
      return requested ?? .png
    }
    if let requested {
      if let named, named != requested {
        throw UsageError(
          "-o \(MessageText.path(output)) ends in .\(extensionName) but --format is \(requested.rawValue)"
        )
      }
      return requested
    }
    guard let named else {
      throw UsageError(
        "cannot tell the format of \(MessageText.path(output)): end it in \(Self.extensionsInWords), or give --format"
      )
    }
    return named
  }

  /// `.png, .svg or .pdf`: the file extensions `-o` takes, from ``Graphics/OutputKind``.
  static var extensionsInWords: String {
    HelpText.words(OutputKind.allCases.map { ".\($0.rawValue)" }, joinedBy: "or")
  }
}
