import CLIKit
import Graphics

/// The whole command line: `ouds-render` and its subcommands.
enum CommandTree {
  /// The version of this tool.
  static let version = "1.0.0"

  /// `--version`.
  static let versionOption = FlagOption(
    names: ["--version"], help: "print the versions of the tool and its render stack")

  /// `ouds-render`.
  static let root = CommandSpec(
    name: "ouds-render",
    abstract: "Render OUDS bullet lists and check them against reference snapshots",
    overview: """
      Render the OUDS bullet list component with Cairo and Pango, and check renders against the \
      reference snapshots.
      """,
    options: [versionOption.spec],
    footer: """
      See 'ouds-render <subcommand> --help' for the options of each, and 'ouds-render --version'
      for the versions of the tool and its render stack.
      """,
    examples: [
      Example(
        command: "render Snapshots/cases/sample-3.1.json -o out.png", explanation: "draw a list"),
      Example(command: "snapshot verify", explanation: "compare every render with Snapshots/"),
      Example(command: "help render", explanation: "the options of render"),
    ],
    subcommands: [
      RenderCommand.spec, SheetCommand.spec, PreviewCommand.spec, GalleryCommand.spec,
      LayoutCommand.spec,
      AuditCommand.spec,
      ThemesCommand.spec,
      SnapshotCommand.spec,
      DiffCommand.spec, CompletionCommand.spec, DocsCommand.spec,
    ],
    run: run)

  /// The words of every command that draws or measures text (``CommandSpec/draws``), without
  /// building the tree: `main` asks ``draws(_:)`` first thing, so that the drawing libraries start
  /// loading before the tree's tables and help texts are made. A test checks it against the tree.
  static let drawingCommands: [[String]] = [
    ["render"], ["sheet"], ["preview"], ["gallery"], ["layout"], ["audit"], ["snapshot", "record"],
    ["snapshot", "verify"],
  ]

  /// Whether `arguments` (those after `ouds-render`) run a command that draws, as the dispatcher
  /// reads them: the leading words name the command, and no `-h` or `--help` follows.
  static func draws(_ arguments: [String]) -> Bool {
    let words = arguments.prefix { !$0.hasPrefix("-") || $0 == "-" }
    guard let path = drawingCommands.first(where: { words.starts(with: $0) }) else { return false }
    return !arguments.dropFirst(path.count).contains { OptionSpec.help.names.contains($0) }
  }

  /// `ouds-render --version`; without it, a missing subcommand.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    guard arguments.has(versionOption) else {
      throw UsageError("missing subcommand")
    }
    // every library the stack names, or one line saying which cannot be loaded
    try GraphicsLibraries.loadSVG()
    let stack = RenderStack.current()
    try writeOutput(
      "ouds-render \(version) (cairo \(stack.cairo), pango \(stack.pango), harfbuzz \(stack.harfbuzz), freetype \(stack.freetype), fontconfig \(stack.fontconfig), librsvg \(stack.librsvg), libspng \(stack.libspng))\n"
    )
    return ExitStatus.success
  }
}
