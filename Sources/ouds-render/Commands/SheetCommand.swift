import CLIKit
import Graphics
import Scene
import Snapshot
import Workbench

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render sheet`: one list in every theme and mode, side by side, in one picture.
enum SheetCommand {
  /// `--audit`: each cell's WCAG contrast figures under it.
  static let audit = FlagOption(
    names: ["--audit"],
    help: "write each cell's WCAG contrast figures under it (see 'ouds-render audit')")

  /// `--page a4|16:9`: the paper of a PDF sheet.
  static let pageOption = TypedOption.choice(
    PageSize.self, names: ["--page"], default: .standard,
    help:
      "the paper of a PDF: one page per theme and mode, the cells scaled to fit (A4 turns landscape when that draws them larger; 16:9 is a 960x540 pt slide)"
  )
  /// `--page` as the table lists it.
  static let page = pageOption.spec

  /// The command's table.
  static let spec = CommandSpec(
    name: "sheet",
    abstract: "Render one list in every theme and mode, side by side, in one picture",
    overview: """
      Render a theme rendering sheet: one list in every theme (rows) and mode (columns), side by \
      side, each cell captioned and on its mode's background. With --platform all, each mode has \
      an iOS and an Android column side by side. A PDF has one page per theme and mode instead.
      """,
    arguments: [ListOptions.listArgument],
    argumentsInWords: "one list file",
    discussion: """
      Above the grid the sheet says what it shows: the list's file name and the platform, the
      themes folder (with "edited" when its tokens differ from the package's copy) and each
      theme's font (the brand font or the substitute drawn). The SVG has them as <title> and
      <desc>, the PDF as its title and subject. Nothing depends on the date: the same inputs
      give the same bytes.

      A PDF is a document of pages of --page (A4 by default): one per theme and mode, titled
      with the list, theme, mode and platforms, the themes folder and fonts as legend, the cells
      scaled to fit the page (still vector) and "N / M" at the foot. A theme and mode too tall
      for a page even at 60 % of the scale that fits its width goes on several pages, cut
      between rows. With --compare-themes, each changed theme and mode has a page of its own
      (its changed tokens, before, after and diff), the unchanged ones share the first page.
      PNG and SVG stay one picture.
      """,
    options: [ListOptions.output.spec, ListOptions.format, ListOptions.scale, page, audit.spec]
      + ListOptions.all.map { option in
        option == ListOptions.theme || option == ListOptions.mode
          ? option.defaulting(to: Vocabulary.all) : option
      } + [ListOptions.verbose.spec, CompareThemes.option.spec, WatchOption.list.spec],
    footer: ListOptions.sourcesFooter,
    examples: [
      Example(
        command: "sheet list.json -o sheet.pdf",
        explanation: "an A4 page per theme and mode, titled and numbered"),
      Example(
        command: "sheet list.json --platform all --page 16:9 -o slides.pdf",
        explanation: "a 16:9 slide per theme and mode, iOS and Android side by side"),
      Example(
        command: "sheet list.json --platform all -o sheet.png",
        explanation: "iOS and Android columns side by side"),
      Example(
        command: "sheet list.json --theme sosh --scale 1 -o - > sosh.png",
        explanation: "Sosh light and dark, to standard output"),
      Example(
        command: "sheet list.json --themes edited-Themes --compare-themes Themes -o review.pdf",
        explanation: "before, after and diff of a token change; the changed tokens on stdout"),
      Example(
        command: "sheet list.json --themes my-themes --audit -o review.png",
        explanation: "an edited themes folder, with each cell's contrast figures"),
      Example(
        command: "sheet list.json -o sheet.png --watch",
        explanation: "render again on every save of the list, an icon or a token file"),
    ],
    draws: true,
    run: run)

  /// Renders the sheet and writes it (again on every change with `--watch`); returns the exit
  /// status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    try WatchOption.runList(arguments) { try renderOnce(arguments) }
  }

  /// Renders the sheet and writes it once; returns the exit status.
  static func renderOnce(_ arguments: ParsedArguments) throws -> Int32 {
    if let old = arguments.text(CompareThemes.option) { return try review(arguments, against: old) }
    let picture = try PictureJob(arguments, matrixWritesFolder: false)
    let pageSize = try Self.pageSize(arguments, format: picture.format)
    let job = picture.job
    let sheet = try job.attributingErrors {
      let heading = try job.renderer.sheetHeading(
        listName: URL(fileURLWithPath: job.listPath).lastPathComponent, themes: job.themes,
        platforms: job.platforms)
      let drawn = try job.renderer.renderSheet(
        job.document.list, themes: job.themes, modes: job.modes, platforms: job.platforms,
        options: job.options, textSizes: job.textSizes, format: picture.format, heading: heading,
        audit: arguments.has(audit), pageSize: pageSize ?? .standard)
      return (data: drawn.data, warnings: drawn.warnings, audits: drawn.audits)
    }
    try picture.destination.write(sheet.data, protecting: job.inputFiles)
    printError(picture.sources)
    printWarnings(sheet.warnings)
    printNotes(of: job.renderer, arguments)
    let failures = sheet.audits.reduce(0) { $0 + $1.failures.count }
    if failures > 0 {
      printError(
        "audit: \(AuditCommand.counted(failures)); exit 0 (the figures under the cells say which; 'ouds-render audit --strict' fails on them)"
      )
    }
    return ExitStatus.success
  }

  /// The paper of a PDF (`--page`, else A4); nil for PNG and SVG, which refuse `--page`.
  static func pageSize(_ arguments: ParsedArguments, format: OutputFormat) throws -> PageSize? {
    guard format == .pdf else {
      if arguments.isGiven(page) {
        throw UsageError(
          "--page sets the paper of a PDF; a \(format.fileExtension.uppercased()) sheet is one picture: give -o <file>.pdf or leave --page out"
        )
      }
      return nil
    }
    return arguments[pageOption] ?? .standard
  }

  /// `--compare-themes`: the review of the token change as one picture, the changed tokens on
  /// standard output; exit 0.
  static func review(_ arguments: ParsedArguments, against old: String) throws -> Int32 {
    if arguments.has(audit) {
      throw UsageError(
        "--audit writes contrast figures under a sheet's cells and --compare-themes draws a token review: give one of them"
      )
    }
    if arguments.text(ListOptions.output) == PictureDestination.standardOutputName {
      throw UsageError(
        "--compare-themes prints the changed tokens on standard output: give -o a file for the picture"
      )
    }
    let picture = try PictureJob(arguments, matrixWritesFolder: false)
    let pageSize = try Self.pageSize(arguments, format: picture.format)
    let job = picture.job
    let before = try CompareThemes.renderer(old, like: job.renderer)
    var scale = 2
    if case .png(let pixels) = picture.format { scale = pixels }
    let review = try job.attributingErrors {
      try TokenReview.compare(
        job.document.list, before: before, after: job.renderer, themes: job.themes,
        modes: job.modes,
        platforms: job.platforms, options: job.options, scale: scale)
    }
    let data = try job.attributingErrors {
      let pages = try TokenReviewSheet.pages(
        review, listName: URL(fileURLWithPath: job.listPath).lastPathComponent,
        renderer: job.renderer, pageSize: pageSize)
      return try job.renderer.renderPages(pages, format: picture.format)
    }
    let inputs = job.inputFiles.union(before.inputFiles(for: job.document.list, themes: job.themes))
    try picture.destination.write(data, protecting: inputs)
    try CompareThemes.printTokenLines(
      review.tokenLines, old: review.oldThemes.directory, new: review.newThemes,
      themes: job.themes, modes: job.modes)
    printError(picture.sources)
    printWarnings(review.combinations.flatMap { $0.pictures.flatMap(\.warnings) })
    printNotes(of: job.renderer, arguments)
    return ExitStatus.success
  }
}
