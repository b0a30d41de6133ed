import BulletListRenderer
import Foundation
import SafeInput
import Snapshot

/// `ouds-render snapshot verify`: renders the catalogue and compares it with the references.
enum SnapshotVerifyCommand {
  /// `--artifacts <dir>`.
  static let artifacts = OptionSpec(
    names: ["--artifacts"], value: .text(placeholder: "dir", completion: .directory),
    help: "where failures are written",
    defaultDescription:
      ".build/snapshot-artifacts beside the --snapshots folder, i.e. <snapshots>/../.build/…")
  /// `--report <dir>`.
  static let report = OptionSpec(
    names: ["--report"], value: .text(placeholder: "dir", completion: .directory),
    help: "write a self-contained HTML review page (index.html + images)")
  /// `--junit <file>`.
  static let junit = OptionSpec(
    names: ["--junit"], value: .text(placeholder: "file", completion: .file(extensions: ["xml"])),
    help: "also write JUnit XML here, even when everything passes")

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
      junit.xml to the artifacts folder.
      """,
    options: SnapshotCommand.common + SnapshotCommand.selection + [artifacts, report, junit],
    examples: [
      Example(
        command: "snapshot verify", explanation: "exit 0, or 1 with a table of what differs and why"
      ),
      Example(
        command: "snapshot verify --filter sample-3 --report out/report",
        explanation: "one case, with a review page"),
      Example(
        command: "snapshot verify --shard 2/4 --jobs 2",
        explanation: "the second quarter, on two threads"),
    ],
    run: run)

  /// Verifies the selected references; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let engine = try SnapshotCommand.engine(arguments)
    let references = try SnapshotCommand.selection(arguments, engine: engine)
    let result = try engine.verify(
      references, caseErrors: SnapshotCommand.brokenCases(arguments, engine: engine))
    let commands = ReviewReport.Commands.cli(
      extraArguments: SnapshotCommand.repeatedOptions(arguments),
      filter: arguments.text(SnapshotCommand.filter))
    // The table goes to stdout; it starts with the environment line when the machine differs.
    try writeOutput(SnapshotSummary.text(result, acceptCommand: commands.accept))
    if !result.succeeded {
      let folder =
        arguments.text(artifacts).map { URL(fileURLWithPath: $0) }
        ?? SnapshotArtifacts.defaultDirectory(forSnapshots: engine.configuration.snapshotsDirectory)
      try SnapshotArtifacts.write(result, to: folder, acceptCommand: commands.accept)
      printError(
        "artifacts: \(folder.path) (expected.png, actual.png, diff.png per failure; junit.xml)")
    }
    if let path = arguments.text(junit) {
      try AtomicFile.write(
        Data(JUnitXML.document(result).utf8), to: path, createDirectories: true,
        protecting: result.inputFiles)
    }
    if let folder = arguments.text(report) {
      let page = try ReviewReport.write(
        result, to: URL(fileURLWithPath: folder), commands: commands)
      printError("review page: \(page)")
    }
    if !result.succeeded {
      printError("to accept every change: \(commands.acceptAll)")
    }
    return result.succeeded ? ExitStatus.success : ExitStatus.failure
  }
}
