import BulletListRenderer
import Foundation
import SafeInput
import Snapshot

/// `ouds-render snapshot`: verify, record, prune and list the reference snapshots.
enum SnapshotCommand {
  static let help = """
    OVERVIEW: Check renders against the reference snapshots in Snapshots/, record them, prune them.

    USAGE: ouds-render snapshot <verify|record|prune|list> [options]

    SUBCOMMANDS:
      verify      Render every case and compare with the references (exit 1 on any difference)
      record      Write references (all, --missing or --failed)
      prune       List (--dry-run) or delete references that no case produces any more
      list        Print the reference ids the catalogue produces (after --filter and --shard)

    See 'ouds-render snapshot <subcommand> --help' for the options of each.

    """

  static let commonHelp = """
      --snapshots <dir>       the snapshots folder (default: ./Snapshots)
      --themes <dir>          a Themes/ folder to read tokens from (default: $OUDS_THEMES_DIR, else
                              the Themes/ beside the snapshots folder, else one in the current
                              folder or its parents, else the package's copy)
      --font-dir <dir>        a folder searched first for the manifests' font files; its other
                              fonts are licensed brand fonts used instead of the open substitutes
    """

  static let selectionHelp = """
      --filter <patterns>     comma-separated; a whole id <case>/<theme>-<mode>[-<variant>]@<scale>x
                              selects that reference only, a glob (*, ?, [..]) matches the whole
                              id, any other pattern a substring of the id
      --shard <i>/<n>         only shard i of n (round-robin over the ids sorted; the n shards
                              together cover every reference exactly once)
      --jobs <n>              worker threads, each with its own renderer (default: cores)
    """

  static let verifyHelp = """
    OVERVIEW: Render the catalogue in process and compare with the references; writes nothing when all match.

    USAGE: ouds-render snapshot verify [options]

    Exit 0 when every reference matches; 1 with a table (status, reference, changed pixels, ratio,
    changed regions, layout JSON diff lines) when any differs or is missing, or when the tokens are
    not the ones ENVIRONMENT.json says the references were recorded with; 2 on a usage error.
    The first line says which themes folder was read (and why) and which font files were used.
    Status 'layout' with PIXELS 'identical' means only the layout JSON differs.
    Failures write expected.png, actual.png, diff.png, side-by-side.png, the layout JSON diff and
    junit.xml to the artifacts folder.

    OPTIONS:
    \(commonHelp)
    \(selectionHelp)
      --artifacts <dir>       where failures are written (default: .build/snapshot-artifacts
                              beside the --snapshots folder, i.e. <snapshots>/../.build/…)
      --report <dir>          write a self-contained HTML review page (index.html + images)
      --junit <file>          also write JUnit XML here, even when everything passes
      -h, --help              show this help

    """

  static let recordHelp = """
    OVERVIEW: Write reference PNGs and layout JSON atomically; unchanged files are not rewritten.

    USAGE: ouds-render snapshot record [--missing | --failed] [options]

    Without a mode flag, every selected reference is rendered and written when it differs.
    --missing renders only references whose PNG or layout JSON is absent, writes the absent files,
    and does not compare the others; it exits 0 unless rendering or writing fails.
    Snapshots/ENVIRONMENT.json is updated with this machine's render stack when anything is written.
    One record (or prune) at a time: a second run waits up to 10 s for the lock file
    <snapshots>/.record.lock, then fails naming the process that holds it. Temporary files
    (.<name>.<UUID>.tmp) left by an interrupted run are removed first.

    OPTIONS:
      --missing               only write references that do not exist yet (existing ones are not checked)
      --failed                verify, then rewrite only the references that fail or are missing
    \(commonHelp)
    \(selectionHelp)
      -h, --help              show this help

    """

  static let pruneHelp = """
    OVERVIEW: Find reference files that no case produces any more, and delete them.

    USAGE: ouds-render snapshot prune [--dry-run] [--snapshots <dir>]

    Refuses --filter and --shard: a partial catalogue would take live references for orphans.

    OPTIONS:
      --dry-run               only list the orphans (exit 1 if there are any)
      --snapshots <dir>       the snapshots folder (default: ./Snapshots)
      -h, --help              show this help

    """

  static let listHelp = """
    OVERVIEW: Print the reference ids the catalogue produces, one per line.

    USAGE: ouds-render snapshot list [--filter <patterns>] [--shard <i>/<n>] [--snapshots <dir>] [--paths]

    OPTIONS:
      --paths                 print the PNG and layout JSON paths instead of the ids
      --snapshots <dir>       the snapshots folder (default: ./Snapshots)
      --filter <patterns>     see 'verify --help'
      --shard <i>/<n>         see 'verify --help'
      -h, --help              show this help

    """

  /// Runs `ouds-render snapshot …` and returns the exit code.
  static func run(_ arguments: [String]) -> Int32 {
    guard let subcommand = arguments.first else {
      printError("error: missing subcommand (verify, record, prune or list)")
      writeErrorText(help)
      return ExitStatus.usage
    }
    let rest = Array(arguments.dropFirst())
    switch subcommand {
    case "verify": return verify(rest)
    case "record": return record(rest)
    case "prune": return prune(rest)
    case "list": return list(rest)
    case "-h", "--help", "help":
      return runReportingErrors(command: "snapshot") {
        try writeOutput(help)
        return ExitStatus.success
      }
    default:
      printError("error: unknown snapshot subcommand '\(MessageText.value(subcommand))' (expected verify, record, prune or list)")
      printError("See 'ouds-render snapshot --help'.")
      return ExitStatus.usage
    }
  }

  static let commonValued: Set<String> = ["--snapshots", "--themes", "--font-dir"]
  static let selectionValued: Set<String> = ["--filter", "--shard", "--jobs"]

  /// The engine for the parsed common options.
  static func engine(_ arguments: ParsedArguments) throws -> SnapshotEngine {
    let snapshots = URL(fileURLWithPath: arguments.value("--snapshots") ?? "Snapshots")
    let jobs = try arguments.integer("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256)
    return try SnapshotEngine(
      configuration: SnapshotConfiguration(
        snapshotsDirectory: snapshots,
        themesDirectory: arguments.value("--themes").map { URL(fileURLWithPath: $0) },
        brandFontDirectory: arguments.value("--font-dir").map { URL(fileURLWithPath: $0) },
        jobs: jobs))
  }

  /// The broken case files the selection reports (see ``SnapshotCatalogue/selectBroken(filter:shard:)``).
  static func brokenCases(_ arguments: ParsedArguments, engine: SnapshotEngine) -> [SnapshotCaseError] {
    let filter = arguments.value("--filter").flatMap { try? SnapshotFilter($0) }
    let shard = arguments.value("--shard").flatMap { try? SnapshotShard(parsing: $0) }
    return engine.catalogue.selectBroken(filter: filter, shard: shard)
  }

  /// The selected references, or a usage error for a bad filter or shard, or a failure when nothing matches.
  static func selection(_ arguments: ParsedArguments, engine: SnapshotEngine) throws -> [SnapshotReference] {
    let filter: SnapshotFilter?
    let shard: SnapshotShard?
    do {
      filter = try arguments.value("--filter").map { text throws(SnapshotError) in try SnapshotFilter(text) }
      shard = try arguments.value("--shard").map { text throws(SnapshotError) in try SnapshotShard(parsing: text) }
    } catch {
      throw UsageError("\(error)")
    }
    let selected = engine.catalogue.select(filter: filter, shard: shard)
    if selected.isEmpty && filter != nil && engine.catalogue.selectBroken(filter: filter, shard: shard).isEmpty {
      throw SnapshotError.nothingMatches(filter: arguments.value("--filter") ?? "")
    }
    return selected
  }

  /// The options a follow-up command must repeat (`--snapshots`, `--themes`, `--font-dir`), shell-quoted.
  static func repeatedOptions(_ arguments: ParsedArguments) -> String {
    ["--snapshots", "--themes", "--font-dir"].compactMap { name in
      arguments.value(name).map { "\(name) \(shellQuote($0))" }
    }.joined(separator: " ")
  }

  static func parse(_ raw: [String], _ command: String, valued: Set<String>, flags: Set<String>) throws -> ParsedArguments {
    let arguments = try ParsedArguments(raw, command: command, valued: valued, flags: flags.union(["-h", "--help"]))
    if let extra = arguments.positionals.first {
      throw UsageError("unexpected argument '\(MessageText.value(extra))'")
    }
    return arguments
  }

  static func verify(_ raw: [String]) -> Int32 {
    runReportingErrors(command: "snapshot verify") {
      let arguments = try parse(
        raw, "snapshot verify", valued: commonValued.union(selectionValued).union(["--artifacts", "--report", "--junit"]),
        flags: [])
      if arguments.has("-h") || arguments.has("--help") {
        try writeOutput(verifyHelp)
        return ExitStatus.success
      }
      let engine = try engine(arguments)
      let references = try selection(arguments, engine: engine)
      let report = try engine.verify(references, caseErrors: brokenCases(arguments, engine: engine))
      let commands = ReviewReport.Commands.cli(extraArguments: repeatedOptions(arguments), filter: arguments.value("--filter"))
      // The table goes to stdout; it starts with the environment line when the machine differs.
      try writeOutput(SnapshotSummary.text(report, acceptCommand: commands.accept))
      if !report.succeeded {
        let artifacts =
          arguments.value("--artifacts").map { URL(fileURLWithPath: $0) }
          ?? SnapshotArtifacts.defaultDirectory(forSnapshots: engine.configuration.snapshotsDirectory)
        try SnapshotArtifacts.write(report, to: artifacts, acceptCommand: commands.accept)
        printError("artifacts: \(artifacts.path) (expected.png, actual.png, diff.png per failure; junit.xml)")
      }
      if let junit = arguments.value("--junit") {
        try AtomicFile.write(
          Data(JUnitXML.document(report).utf8), to: junit, createDirectories: true, protecting: report.inputFiles)
      }
      if let reportDirectory = arguments.value("--report") {
        let path = try ReviewReport.write(report, to: URL(fileURLWithPath: reportDirectory), commands: commands)
        printError("review page: \(path)")
      }
      if !report.succeeded {
        printError("to accept every change: \(commands.acceptAll)")
      }
      return report.succeeded ? ExitStatus.success : ExitStatus.failure
    }
  }

  static func record(_ raw: [String]) -> Int32 {
    runReportingErrors(command: "snapshot record") {
      let arguments = try parse(
        raw, "snapshot record", valued: commonValued.union(selectionValued), flags: ["--missing", "--failed"])
      if arguments.has("-h") || arguments.has("--help") {
        try writeOutput(recordHelp)
        return ExitStatus.success
      }
      if arguments.has("--missing") && arguments.has("--failed") {
        throw UsageError("--missing and --failed cannot be combined")
      }
      let mode: SnapshotRecordMode = arguments.has("--missing") ? .missing : arguments.has("--failed") ? .failed : .all
      let engine = try engine(arguments)
      let references = try selection(arguments, engine: engine)
      let report = try engine.record(references, mode: mode, caseErrors: brokenCases(arguments, engine: engine))
      if let sources = report.sources { printError(sources) }
      if let headline = report.environmentHeadline, mode != .all {
        printError(headline)
      }
      if !report.removedTemporaryFiles.isEmpty {
        let count = report.removedTemporaryFiles.count
        printError("removed \(count) temporary file\(count == 1 ? "" : "s") left by an interrupted run: \(report.removedTemporaryFiles.joined(separator: ", "))")
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
        try writeOutput(SnapshotSummary.totals(report) + " (record \(mode))\n")
      }
      return report.succeeded ? ExitStatus.success : ExitStatus.failure
    }
  }

  static func prune(_ raw: [String]) -> Int32 {
    runReportingErrors(command: "snapshot prune") {
      let arguments = try ParsedArguments(
        raw, command: "snapshot prune", valued: ["--snapshots", "--filter", "--shard"],
        flags: ["--dry-run", "-h", "--help"])
      if arguments.has("-h") || arguments.has("--help") {
        try writeOutput(pruneHelp)
        return ExitStatus.success
      }
      if arguments.value("--filter") != nil || arguments.value("--shard") != nil {
        throw UsageError("prune needs the whole catalogue: it refuses --filter and --shard")
      }
      if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(MessageText.value(extra))'") }
      let engine = try engine(arguments)
      let dryRun = arguments.has("--dry-run")
      let orphans = try engine.prune(dryRun: dryRun)
      for path in orphans { try writeOutput((dryRun ? "orphan " : "deleted ") + path + "\n") }
      let noun = orphans.count == 1 ? "orphan" : "orphans"
      printError(dryRun ? "\(orphans.count) \(noun) (run without --dry-run to delete)" : "deleted \(orphans.count) \(noun)")
      return dryRun && !orphans.isEmpty ? ExitStatus.failure : ExitStatus.success
    }
  }

  static func list(_ raw: [String]) -> Int32 {
    runReportingErrors(command: "snapshot list") {
      let arguments = try parse(
        raw, "snapshot list", valued: ["--snapshots", "--filter", "--shard"], flags: ["--paths"])
      if arguments.has("-h") || arguments.has("--help") {
        try writeOutput(listHelp)
        return ExitStatus.success
      }
      let engine = try engine(arguments)
      let references = try selection(arguments, engine: engine)
      var text = ""
      for reference in references {
        text += arguments.has("--paths") ? "\(reference.imagePath)\n\(reference.layoutPath)\n" : "\(reference.id)\n"
      }
      try writeOutput(text)
      let broken = brokenCases(arguments, engine: engine)
      for caseError in broken { printError("error: \(caseError.message)") }
      return broken.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
  }
}
