import Foundation
import Graphics
import SafeInput

/// `ouds-render`: render OUDS bullet lists, and keep their snapshots in check.
let topLevelHelp = """
  OVERVIEW: Render the OUDS bullet list component with Cairo and Pango, and check renders
  against the reference snapshots.

  USAGE: ouds-render <subcommand> [options]

  SUBCOMMANDS:
    render      Render a list (JSON) to PNG, SVG or PDF, for one or every theme and mode
    sheet       Render one list in every theme and mode, side by side, in one picture
    layout      Print the laid-out scene as JSON
    themes      List the themes, their tokens and fonts
    snapshot    Verify, record or prune the reference snapshots
    diff        Compare two PNG files

  See 'ouds-render <subcommand> --help' for the options of each, and 'ouds-render --version'
  for the versions of the tool and its render stack.

  """

// A closed descriptor or a broken pipe must not turn into a lost message or a signal.
prepareStandardDescriptors()

// Large bitmaps reuse heap memory instead of page-faulting fresh maps (no output change).
MemoryTuning.keepLargeBuffersOnHeap()

/// The version of this tool.
let toolVersion = "1.0.0"

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "render": status = RenderCommand.run(Array(arguments.dropFirst()))
case "sheet": status = SheetCommand.run(Array(arguments.dropFirst()))
case "layout": status = LayoutCommand.run(Array(arguments.dropFirst()))
case "themes": status = ThemesCommand.run(Array(arguments.dropFirst()))
case "snapshot": status = SnapshotCommand.run(Array(arguments.dropFirst()))
case "diff": status = DiffCommand.run(Array(arguments.dropFirst()))
case "--version":
  status = runReportingErrors(command: "--version") {
    let stack = RenderStack.current()
    try writeOutput(
      "ouds-render \(toolVersion) (cairo \(stack.cairo), pango \(stack.pango), harfbuzz \(stack.harfbuzz), freetype \(stack.freetype), fontconfig \(stack.fontconfig), librsvg \(stack.librsvg), libspng \(stack.libspng))\n")
    return ExitStatus.success
  }
case "-h", "--help", "help":
  status = runReportingErrors(command: "--help") {
    try writeOutput(topLevelHelp)
    return ExitStatus.success
  }
case nil:
  printError("error: missing subcommand")
  writeErrorText(topLevelHelp)
  status = ExitStatus.usage
case let other?:
  printError("error: unknown subcommand '\(MessageText.value(other))'")
  printError("See 'ouds-render --help'.")
  status = ExitStatus.usage
}
exit(status)
