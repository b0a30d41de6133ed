import CLIKit
import SafeInput
import Snapshot
import SnapshotReports

/// `ouds-render snapshot record`: writes references.
enum SnapshotRecordCommand {
  /// `--missing`.
  static let missing = FlagOption(
    names: ["--missing"],
    help: "only write references that do not exist yet (existing ones are not checked)")
  /// `--failed`.
  static let failed = FlagOption(
    names: ["--failed"], help: "verify, then rewrite only the references that fail or are missing")

  /// The command's table.
  static let spec = CommandSpec(
    name: "record",
    abstract: "Write references (all, --missing or --failed)",
    overview: "Write reference PNGs and layout JSON atomically; unchanged files are not rewritten.",
    discussion: """
      Without a mode flag, every selected reference is rendered and written when it differs.
      --missing renders only references whose PNG or layout JSON is absent, writes the absent files,
      and does not compare the others; it exits 0 unless rendering or writing fails.
      Snapshots/ENVIRONMENT.json is updated with this machine's render stack when anything is written.
      One record (or prune) at a time: a second run waits up to 10 s for the lock file
      <snapshots>/.record.lock, then fails naming the process that holds it. Temporary files
      (.<name>.<UUID>.tmp) left by an interrupted run are removed first.
      On a terminal, a progress line (done/total, failures so far, elapsed) runs on stderr.
      """,
    options: [missing.spec, failed.spec] + SnapshotCommand.common + SnapshotCommand.selection + [
      ListOptions.verbose.spec
    ],
    examples: [
      Example(command: "snapshot record", explanation: "render everything, write what differs"),
      Example(
        command: "snapshot record --missing",
        explanation: "write only references that do not exist yet"),
      Example(
        command: "snapshot record --failed --filter 'sample-3/*'",
        explanation: "accept the changes of one case"),
    ],
    draws: true,
    run: run)

  /// Records the selected references; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    if arguments.has(missing) && arguments.has(failed) {
      throw UsageError("--missing and --failed cannot be combined")
    }
    let mode: SnapshotRecordMode =
      arguments.has(missing) ? .missing : arguments.has(failed) ? .failed : .all
    let engine = try SnapshotCommand.engine(arguments)
    // References, ENVIRONMENT.json and the lock go into the snapshots folder: never into the
    // themes folder in use, however it was found.
    if let themes = try? engine.themesLocation().directory {
      try OutputPlace.check(
        engine.configuration.snapshotsDirectory.path, option: "--snapshots",
        against: [ProtectedPlace("themes folder", themes.path)],
        advice: "record references outside it")
    }
    let references = try SnapshotCommand.selection(arguments, engine: engine)
    let caseErrors = SnapshotCommand.brokenCases(arguments, engine: engine)
    let report = try ProgressLine.around("record", total: references.count) { progress in
      try engine.record(references, mode: mode, caseErrors: caseErrors, progress: progress)
    }
    // One short line (the themes folder, each font set and its file count); every file with
    // --verbose.
    if let sources = arguments.has(ListOptions.verbose)
      ? report.sources : SnapshotRunResults(report, root: nil).sourcesSummary ?? report.sources
    {
      printError(sources)
    }
    if let headline = report.environmentHeadline, mode != .all {
      printError(headline)
    }
    if !report.removedTemporaryFiles.isEmpty {
      let count = report.removedTemporaryFiles.count
      printError(
        "removed \(count) temporary file\(count == 1 ? "" : "s") left by an interrupted run: \(report.removedTemporaryFiles.joined(separator: ", "))"
      )
    }
    for path in report.written { try writeOutput("wrote \(path)\n") }
    for caseError in report.caseErrors {
      printError("error: \(caseError.message)")
    }
    for outcome in report.failures {
      printError("error: \(outcome.reference.id): \(outcome.reason)")
    }
    if mode == .missing {
      try writeOutput(SnapshotSummary.missingTotals(report) + "\n")
    } else {
      let format = SummaryFormat(paint: Terminal.current.painter(for: 1))
      try writeOutput(SnapshotSummary.totals(report, format: format) + " (record \(mode))\n")
    }
    return report.succeeded ? ExitStatus.success : ExitStatus.failure
  }
}
