import BulletListRenderer
import CLIKit
import Primitives
import RunReports
import SafeInput
import Snapshot
import SnapshotReports

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render snapshot verify`: renders the catalogue and compares it with the references.
enum SnapshotVerifyCommand {
  /// `--artifacts <dir>`.
  static let artifacts = TypedOption.text(
    names: ["--artifacts"], placeholder: "dir", completion: .directory,
    help: "where failures are written",
    defaultDescription:
      ".build/snapshot-artifacts beside the --snapshots folder, i.e. <snapshots>/../.build/…")
  /// `--results <dir>`.
  static let results = TypedOption.text(
    names: ["--results"], placeholder: "dir", completion: .directory,
    help:
      "write the results as data (results.json) and the artifacts of the failures here, for 'snapshot merge'; replaces --artifacts"
  )
  /// `--report <dir>`.
  static let report = TypedOption.text(
    names: ["--report"], placeholder: "dir", completion: .directory,
    help: "write a self-contained HTML review page (index.html + images)")
  /// `--junit <file>`.
  static let junit = TypedOption.text(
    names: ["--junit"], placeholder: "file", completion: .file(extensions: ["xml"]),
    help: "also write JUnit XML here, even when everything passes")
  /// `--summary <file>`.
  static let summary = TypedOption.text(
    names: ["--summary"], placeholder: "file", completion: .file(extensions: ["md"]),
    help:
      "also write a Markdown summary here (counts; failures with their accept commands), e.g. for $GITHUB_STEP_SUMMARY"
  )

  /// `--list`: every failing id after the table.
  static let list = FlagOption(
    names: ["--list"],
    help:
      "after the table, print every failing reference id, one a line (unexplained first; an explained one names its causes)"
  )

  /// The outputs `verify` and `merge` share.
  static let outputs = [report.spec, junit.spec, summary.spec, annotations, list.spec]

  /// `--annotations github`: workflow commands for the pull request.
  static let annotationsOption = TypedOption.choice(
    AnnotationFormat.self, names: ["--annotations"],
    help:
      "also print a GitHub Actions ::error line per failure, on its case file, so the pull request shows it (GitLab shows the --junit report instead)"
  )
  /// `--annotations` as the tables list it.
  static let annotations = annotationsOption.spec

  /// `--max-diff-pixels <n>`: the run's pixel tolerance.
  static let maxDiffPixelsOption = TypedOption.integer(
    names: ["--max-diff-pixels"], placeholder: "n", range: 0...SnapshotTolerance.largestPixelCount,
    help:
      "a reference passes with at most n changed pixels, counted perceptually (as diff and Playwright count them); 0 is exact; a case file's maxDiffPixels wins for its variants",
    defaultDescription: "exact: one changed byte fails")
  /// `--max-diff-pixels` as the tables list it.
  static let maxDiffPixels = maxDiffPixelsOption.spec
  /// `--max-diff-ratio <r>`: the run's share tolerance.
  static let maxDiffRatioOption = TypedOption.number(
    names: ["--max-diff-ratio"], placeholder: "r", range: 0...1,
    help:
      "a reference passes with at most this share of its pixels changed (0.001 is 0.1 %); 0 is exact; with both, the stricter wins; a case file's maxDiffRatio wins for its variants",
    defaultDescription: "exact")
  /// `--max-diff-ratio` as the tables list it.
  static let maxDiffRatio = maxDiffRatioOption.spec

  /// The command's table.
  static let spec = CommandSpec(
    name: "verify",
    abstract: "Render every case and compare with the references (exit 1 on any difference)",
    overview:
      "Render the catalogue in process and compare with the references; writes nothing when all match.",
    discussion: """
      Exit 0 when every reference matches; 1 with a table (status, reference, changed pixels, ratio,
      changed regions, layout JSON diff lines) when any differs or is missing, or when the tokens are
      not the ones ENVIRONMENT.json says the references were recorded with; 2 on a usage error.
      The first line says which themes folder was read (and why) and which font files were used.
      Status 'layout' with PIXELS 'identical' means only the layout JSON differs.
      Failures write expected.png, actual.png, diff.png, side-by-side.png, the layout JSON diff and
      junit.xml to the artifacts folder. --results writes them, and results.json, to its folder:
      'snapshot merge' combines the folders of several shards into one report, JUnit file and summary.
      results.json names its run: --run-id (else $OUDS_RUN_ID, $GITHUB_RUN_ID or $CI_PIPELINE_ID, the
      same in every job of a CI run; else a random id) and a digest of the catalogue (case files,
      references, themes folder, token values). Give every shard of one run the same id.
      Paths in the report, JUnit, the summary and results.json are relative to the repository root
      (the git top level of the current folder, else the current folder).
      A failure is blamed on a token, font or render-stack difference only when its own list reads a
      token changed in its theme and mode, or its own font set or the stack differ (explainedBy);
      such failures are one row per cause, every other failure keeps its own row and accept command.
      With more than \(SummaryFormat.terminalDetailLimit) rows, the table is printed alone, at most \(SummaryFormat.terminalRowLimit)
      rows: the details are in the artifacts and the review page; --list prints every failing id.
      On a terminal, a progress line (done/total, failures so far, elapsed) runs on stderr and the
      table is coloured; never with NO_COLOR set or TERM=dumb, nor when the output is not a terminal.
      """,
    options: SnapshotCommand.common + SnapshotCommand.selection + [
      maxDiffPixels, maxDiffRatio, artifacts.spec, results.spec, RunIDOption.option.spec,
      ListOptions.verbose.spec,
    ] + outputs,
    examples: [
      Example(
        command: "snapshot verify", explanation: "exit 0, or 1 with a table of what differs and why"
      ),
      Example(
        command: "snapshot verify --filter sample-3 --report out/report",
        explanation: "one case, with a review page"),
      Example(
        command: "snapshot verify --shard 2/4 --results out/shard-2",
        explanation: "CI: the second quarter, its results kept for 'snapshot merge'"),
      Example(
        command: "snapshot verify --junit out/junit.xml --summary out/summary.md",
        explanation: "JUnit for the CI server, Markdown for the pull request"),
    ],
    draws: true,
    run: run)

  /// Verifies the selected references; returns the exit status.
  ///
  /// On a terminal, a progress line runs on stderr meanwhile and the table is coloured; a run
  /// with many failures prints the table alone, capped (``SummaryFormat/compact(elsewhere:paint:)``):
  /// the details are in the artifacts and the report.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    if arguments.isGiven(results) && arguments.isGiven(artifacts) {
      throw UsageError(
        "--results writes the artifacts into its folder: give --results or --artifacts, not both")
    }
    let runID = try RunIDOption.resolve(arguments)
    let engine = try SnapshotCommand.engine(arguments)
    // The themes folder in use, however it was found (--themes, OUDS_THEMES_DIR, beside the
    // snapshots folder, the current folder).
    let themesFolder = try? engine.themesLocation().directory
    for option in [results, artifacts, report] {
      guard let path = arguments.text(option) else { continue }
      try SnapshotArtifacts.checkOutputFolder(
        path, option: option.key, snapshots: engine.configuration.snapshotsDirectory,
        themes: themesFolder)
    }
    // Nor the JUnit file, the summary or the page into the catalogue or the tokens.
    try outputFiles(arguments).checkPlaces(
      besides: [results, artifacts].compactMap { option in
        arguments.text(option).map { ProtectedPlace("\(option.key) folder", $0) }
      } + [ProtectedPlace("snapshots folder", engine.configuration.snapshotsDirectory.path)]
        + (themesFolder.map { [ProtectedPlace("themes folder", $0.path)] } ?? []))
    // Nor through a link below an output folder (report/images -> the snapshots folder).
    WriteFence.protect(
      [ProtectedPlace("snapshots folder", engine.configuration.snapshotsDirectory.path)]
        + (themesFolder.map { [ProtectedPlace("themes folder", $0.path)] } ?? []))
    let references = try SnapshotCommand.selection(arguments, engine: engine)
    let caseErrors = SnapshotCommand.brokenCases(arguments, engine: engine)
    let resultsFolder = arguments.text(results).map { URL(fileURLWithPath: $0) }
    let folder =
      resultsFolder ?? arguments.text(artifacts).map { URL(fileURLWithPath: $0) }
      ?? SnapshotArtifacts.defaultDirectory(forSnapshots: engine.configuration.snapshotsDirectory)
    // Each failure's pictures go to disk as they are made: memory does not grow with failures.
    let streamed = StreamingArtifacts(directory: folder)
    let result = try ProgressLine.around("verify", total: references.count) { progress in
      try engine.verify(
        references, caseErrors: caseErrors, progress: progress, evidence: streamed.sink)
    }
    let commands = ReviewReport.Commands.cli(
      extraArguments: SnapshotCommand.repeatedOptions(arguments),
      filter: arguments.givenText(SnapshotCommand.filter))
    let root = RepositoryRoot.find()
    var elsewhere = "the artifacts in \(folder.path)"
    if let page = arguments.text(report) {
      elsewhere +=
        " and the review page \(URL(fileURLWithPath: page).appendingPathComponent("index.html").path)"
    }
    // Files are read from the repository root: their commands name paths relative to it.
    let rootOptions = SnapshotCommand.rootOptions(arguments, root: root)
    let selection = try SnapshotCommand.resultsSelection(arguments, engine: engine)
    let rootCommands = ReviewReport.Commands.cli(
      extraArguments: rootOptions, filter: selection.filter)
    var written = SnapshotArtifacts.Written()
    if !result.succeeded || resultsFolder != nil {
      written = try SnapshotArtifacts.write(
        result, to: folder, acceptCommand: rootCommands.accept, root: root, streamed: streamed)
    }
    // The table goes to stdout; it starts with the environment line when the machine differs.
    // Printed once the pictures are written: failures show one change only when their diff
    // pictures have one SHA-256.
    let format = SummaryFormat.compact(
      elsewhere: elsewhere, paint: Terminal.current.painter(for: 1))
    try writeOutput(
      SnapshotSummary.text(
        SnapshotRunResults(result, root: nil, artifactDigests: written.digests),
        acceptCommand: commands.accept, acceptAll: commands.acceptAll, format: format))
    if !result.succeeded {
      printError(
        "artifacts: \(folder.path) (expected.png, actual.png, diff.png per failure; junit.xml)")
    }
    var data = SnapshotRunResults(
      result, root: root, selection: selection, acceptOptions: rootOptions,
      artifacts: written.byReference, artifactDigests: written.digests)
    if let resultsFolder {
      data.run = RunIDOption.identity(runID, report: result, catalogue: engine.catalogue)
      let path = try data.write(to: resultsFolder, protecting: result.inputFiles)
      printError("results: \(path)")
    }
    // With --results, the run kept its renders: accept can take them (as from merged shards).
    let page = try outputFiles(arguments).write(
      data, images: ArtifactImages(folder: folder), root: root, protecting: result.inputFiles,
      acceptRun: resultsFolder == nil ? nil : ReviewReport.Commands.acceptRunCommand)
    if let page { printError("review page: \(page)") }
    try writeAnnotations(arguments, data, root: root)
    if arguments.isGiven(list) { try writeOutput(data.failureList) }
    // The table's short sources line names each font set; --verbose lists every file.
    if arguments.has(ListOptions.verbose), let sources = result.sources { printError(sources) }
    // Broken case files alone have nothing to accept: their rows say what to fix.
    if !result.failures.isEmpty || result.tokenDifference != nil {
      printError("to accept every change: \(commands.acceptAll)")
    }
    return result.succeeded ? ExitStatus.success : ExitStatus.failure
  }

  /// Prints the annotations `--annotations` asks for, after the table (stdout, where a GitHub
  /// Actions step's workflow commands are read).
  static func writeAnnotations(
    _ arguments: ParsedArguments, _ results: SnapshotRunResults, root: RepositoryRoot
  ) throws {
    guard arguments[annotationsOption] == .github else { return }
    try writeOutput(GitHubAnnotations.text(results, root: root))
  }

  /// The review page, JUnit file and summary the options ask for.
  static func outputFiles(_ arguments: ParsedArguments) -> RunOutputs {
    RunOutputs(
      report: arguments.text(report).map { URL(fileURLWithPath: $0) },
      junit: arguments.text(junit).map { URL(fileURLWithPath: $0) },
      summary: arguments.text(summary).map { URL(fileURLWithPath: $0) })
  }
}

/// The formats of `--annotations`.
enum AnnotationFormat: String, CaseIterable, NamedValue {
  /// GitHub Actions workflow commands (`::error file=…::…`).
  case github

  /// `annotation format` in messages.
  static var kindName: String { "annotation format" }
}
