import CLIKit
import Scene
import SnapshotReports

/// `ouds-render layout`: prints the scene as JSON.
enum LayoutCommand {
  /// The command's table.
  static let spec = CommandSpec(
    name: "layout",
    abstract: "Print the laid-out scene as JSON",
    overview: "Print the laid-out scene of a list as JSON (points, 2 decimals).",
    arguments: [ListOptions.listArgument],
    argumentsInWords: "one list file",
    discussion: """
      With --theme all, --mode all or --platform all, prints a JSON array with one scene per
      combination (theme, then mode, then platform). Each scene names its "platform".
      Under the Android rules the layout depends on --scale: glyph advances are whole pixels
      at that scale (a line can break differently at 1x and 3x).
      """,
    options: ListOptions.all + [ListOptions.textScale, ListOptions.verbose.spec],
    footer: ListOptions.sourcesFooter,
    examples: [
      Example(
        command: "layout list.json --theme orange --mode light", explanation: "the scene as JSON"),
      Example(
        command: "layout list.json --platform all --width 320",
        explanation: "the iOS and Android scenes of a 320-point canvas"),
      Example(
        command: "layout list.json --platform android --scale 3",
        explanation: "the Android scene of a PNG at 3 pixels per point"),
    ],
    draws: true,
    run: run)

  /// Lays the list out and prints the scene (or scenes); returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let job = try ListJob(arguments: arguments)
    let sources = try job.sourcesLine()
    var scenes: [Scene] = []
    var warnings: [String] = []
    for (theme, mode) in job.combinations {
      for platform in job.platforms {
        let options = job.options.on(platform)
        let result = try job.attributingErrors {
          try job.renderer.layout(job.document.list, theme: theme, mode: mode, options: options)
        }
        warnings += result.warnings
        scenes.append(result.scene)
      }
    }
    // Written a batch of rows at a time as it is encoded: memory holds the scenes and one
    // batch, not a tree of every value nor the whole text (about 1.3 KB a row). Foundation's
    // encoder fails only on a number that is not finite, which a layout never places.
    let write = { (piece: ArraySlice<UInt8>) throws in try writeOutput(Array(piece)) }
    if job.isMatrix || scenes.count != 1 {
      try SceneJSON.write(scenes, to: write)
    } else {
      try SceneJSON.write(scenes[0], to: write)
    }
    try writeOutput([UInt8(ascii: "\n")])
    printError(sources)
    printWarnings(warnings)
    printNotes(of: job.renderer, arguments)
    return ExitStatus.success
  }
}
