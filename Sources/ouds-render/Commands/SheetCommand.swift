/// `ouds-render sheet`: one list in every theme and mode, side by side, in one picture.
enum SheetCommand {
  /// The command's table.
  static let spec = CommandSpec(
    name: "sheet",
    abstract: "Render one list in every theme and mode, side by side, in one picture",
    overview: """
      Render a theme rendering sheet: one list in every theme (rows) and mode (columns), side by \
      side, each cell captioned and on its mode's background. With --platform all, each mode has \
      an iOS and an Android column side by side.
      """,
    arguments: [ListOptions.listArgument],
    argumentsInWords: "one list file",
    options: [ListOptions.output, ListOptions.format, ListOptions.scale]
      + ListOptions.all.map { option in
        option == ListOptions.theme || option == ListOptions.mode
          ? option.defaulting(to: Vocabulary.all) : option
      },
    footer: ListOptions.sourcesFooter,
    examples: [
      Example(
        command: "sheet list.json -o sheet.pdf",
        explanation: "every theme and mode, side by side, as a PDF"),
      Example(
        command: "sheet list.json --platform all -o sheet.png",
        explanation: "iOS and Android columns side by side"),
      Example(
        command: "sheet list.json --theme sosh --scale 1 -o - > sosh.png",
        explanation: "Sosh light and dark, to standard output"),
    ],
    run: run)

  /// Renders the sheet and writes it; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let picture = try PictureJob(arguments, matrixWritesFolder: false)
    let job = picture.job
    let sheet = try job.attributingErrors {
      try job.renderer.renderSheet(
        job.document.list, themes: job.themes, modes: job.modes, platforms: job.platforms,
        options: job.options, format: picture.format)
    }
    try picture.destination.write(sheet.data, protecting: job.inputFiles)
    printError(picture.sources)
    printWarnings(sheet.warnings)
    return ExitStatus.success
  }
}
