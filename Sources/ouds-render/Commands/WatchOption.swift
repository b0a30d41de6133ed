import CLIKit
import FileWatch
import SafeInput
import Snapshot
import Themes
import Workbench

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `--watch` of `render`, `sheet` and `gallery`: what each watches, and the checks before.
enum WatchOption {
  /// `--watch`, saying what re-renders (`the list, one of its icons`).
  static func option(on inputs: String) -> FlagOption {
    FlagOption(
      names: ["--watch"],
      help:
        "keep running: render again whenever \(inputs) or a file of the themes folder changes, one line on stderr each (errors too, and watching goes on), until Ctrl-C (exit 0)"
    )
  }

  /// `--watch` of `render` and `sheet`.
  static let list = option(on: "the list, one of its icons")
  /// `--watch` of `gallery`.
  static let gallery = option(on: "a case file, one of their icons")

  /// Runs `render` once, or in watch mode when `--watch` is given, watching the list, its
  /// icons, the themes folder and the `--compare-themes` folder.
  static func runList(_ arguments: ParsedArguments, _ render: () throws -> Int32) throws -> Int32 {
    guard arguments.has(list) else { return try render() }
    let output = try checkedOutput(arguments, ListOptions.output)
    let listPath = arguments.positionals.first ?? ""
    var targets = WatchTargets()
    targets.insert(file: listPath, required: true)
    addThemes(arguments, explicit: ListOptions.themesDirectory, snapshots: nil, to: &targets)
    targets.insert(output: output)
    let loop = WatchLoop(
      targets: targets, outputName: output,
      summary: HelpText.words([listPath, "its icons"] + themesSummary(targets), joinedBy: "and"))
    return try loop.run(render)
  }

  /// Runs `render` once, or in watch mode when `--watch` is given, watching the case files, their
  /// icons, the themes folder and the `--compare-themes` folder.
  static func runGallery(_ arguments: ParsedArguments, _ render: () throws -> Int32) throws
    -> Int32
  {
    guard arguments.has(gallery) else { return try render() }
    let output = try checkedOutput(arguments, GalleryCommand.output)
    let snapshots = arguments.text(SnapshotCommand.snapshots) ?? "Snapshots"
    let cases = URL(fileURLWithPath: snapshots).appendingPathComponent(
      SnapshotCatalogue.casesFolderName
    ).path
    var targets = WatchTargets()
    targets.insert(folder: cases)
    addThemes(
      arguments, explicit: SnapshotCommand.themes, snapshots: URL(fileURLWithPath: snapshots),
      to: &targets)
    targets.insert(output: output)
    if let pdf = arguments.text(GalleryCommand.pdf) { targets.insert(output: pdf) }
    let loop = WatchLoop(
      targets: targets, outputName: output,
      summary: HelpText.words(
        [WatchTargets.describe([cases]), "the icons of the cases"] + themesSummary(targets),
        joinedBy: "and"))
    return try loop.run(render)
  }

  /// The `-o` value; `-` (standard output) is refused: a stream cannot be rewritten on each change.
  private static func checkedOutput(_ arguments: ParsedArguments, _ option: TypedOption<String>)
    throws(UsageError) -> String
  {
    let output = arguments.text(option) ?? ""
    if output == PictureDestination.standardOutputName {
      throw UsageError(
        "--watch rewrites its output on every change: give -o a file or folder, not - (standard output)"
      )
    }
    return output
  }

  /// Adds the themes folder the render will use (found as the render finds it; the folder given
  /// when it is not a themes folder yet) and the `--compare-themes` folder.
  static func addThemes(
    _ arguments: ParsedArguments, explicit option: TypedOption<String>, snapshots: URL?,
    to targets: inout WatchTargets
  ) {
    let explicit = arguments.text(option).map { URL(fileURLWithPath: $0) }
    if let location = try? ThemesLocation.resolve(explicit: explicit, snapshotsDirectory: snapshots)
    {
      targets.insert(tree: location.directory.path, what: "the themes folder")
    } else if let explicit {
      targets.insert(tree: explicit.path, what: "the themes folder")
    }
    if let old = arguments.text(CompareThemes.option) {
      targets.insert(tree: old, what: "the --compare-themes folder")
    }
  }

  /// `the themes folder Themes` (relative to the current folder when inside it), and the
  /// `--compare-themes` folder.
  static func themesSummary(_ targets: WatchTargets) -> [String] {
    targets.trees.sorted { $0.key < $1.key }.map { root, what in
      "\(what) \(WatchTargets.describe([root]))"
    }
  }
}
