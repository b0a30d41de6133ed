import CLIKit

/// `ouds-render snapshot prune`: deletes references no case produces any more.
enum SnapshotPruneCommand {
  /// `--dry-run`.
  static let dryRun = FlagOption(
    names: ["--dry-run"], help: "only list the orphans (exit 1 if there are any)")

  /// The command's table.
  ///
  /// `--filter` and `--shard` are parsed (hidden) only to be refused by name.
  static let spec = CommandSpec(
    name: "prune",
    abstract: "List (--dry-run) or delete references that no case produces any more",
    overview: "Find reference files that no case produces any more, and delete them.",
    discussion:
      "Refuses --filter and --shard: a partial catalogue would take live references for orphans.",
    options: [
      dryRun.spec, SnapshotCommand.snapshots.spec, hidden(SnapshotCommand.filter),
      hidden(SnapshotCommand.shard),
    ],
    examples: [
      Example(
        command: "snapshot prune --dry-run", explanation: "the references no case produces any more"
      ),
      Example(command: "snapshot prune", explanation: "delete them"),
    ],
    run: run)

  private static func hidden(_ option: OptionSpec) -> OptionSpec {
    var copy = option
    copy.isHidden = true
    return copy
  }

  /// Lists or deletes the orphans; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    if arguments.isGiven(SnapshotCommand.filter) || arguments.isGiven(SnapshotCommand.shard) {
      throw UsageError("prune needs the whole catalogue: it refuses --filter and --shard")
    }
    let engine = try SnapshotCommand.engine(arguments)
    let isDryRun = arguments.has(dryRun)
    let orphans = try engine.prune(dryRun: isDryRun)
    for path in orphans { try writeOutput((isDryRun ? "orphan " : "deleted ") + path + "\n") }
    let noun = orphans.count == 1 ? "orphan" : "orphans"
    printError(
      isDryRun
        ? "\(orphans.count) \(noun) (run without --dry-run to delete)"
        : "deleted \(orphans.count) \(noun)")
    return isDryRun && !orphans.isEmpty ? ExitStatus.failure : ExitStatus.success
  }
}
