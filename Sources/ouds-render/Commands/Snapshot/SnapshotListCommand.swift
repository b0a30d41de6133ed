import CLIKit

/// `ouds-render snapshot list`: prints the reference ids the catalogue produces.
enum SnapshotListCommand {
  /// `--paths`.
  static let paths = FlagOption(
    names: ["--paths"], help: "print the PNG and layout JSON paths instead of the ids"
  )

  /// The command's table.
  static let spec = CommandSpec(
    name: "list",
    abstract: "Print the reference ids the catalogue produces (after --filter and --shard)",
    overview: "Print the reference ids the catalogue produces, one per line.",
    options: [
      paths.spec, SnapshotCommand.snapshots.spec, SnapshotCommand.filter, SnapshotCommand.shard,
    ],
    examples: [
      Example(
        command: "snapshot list --filter 'demo-*/sosh-*'",
        explanation: "the Sosh references of the demo cases"),
      Example(
        command: "snapshot list --shard 1/4 --paths", explanation: "the files of the first quarter"),
    ],
    run: run)

  /// Prints the selected ids (or paths); returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let engine = try SnapshotCommand.engine(arguments)
    let references = try SnapshotCommand.selection(arguments, engine: engine)
    var text = ""
    for reference in references {
      text +=
        arguments.has(paths)
        ? "\(reference.imagePath)\n\(reference.layoutPath)\n" : "\(reference.id)\n"
    }
    try writeOutput(text)
    let broken = SnapshotCommand.brokenCases(arguments, engine: engine)
    for caseError in broken { printError("error: \(caseError.message)") }
    return broken.isEmpty ? ExitStatus.success : ExitStatus.failure
  }
}
