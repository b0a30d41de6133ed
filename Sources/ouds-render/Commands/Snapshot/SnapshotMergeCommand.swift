import BulletListRenderer
import SafeInput
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render snapshot merge`: combines the results folders of several `verify --results` runs
/// (the shards of one CI run) into the review page, JUnit file and summary one run would write.
enum SnapshotMergeCommand {
  /// The command's table.
  static let spec = CommandSpec(
    name: "merge",
    abstract:
      "Combine the --results folders of verify shards into one report, JUnit file and summary",
    overview:
      "Combine the results folders written by 'snapshot verify --results' into the review page, JUnit XML and Markdown summary one unsharded verify writes.",
    arguments: [
      ArgumentSpec(
        name: "dir", help: "a folder written by 'snapshot verify --results'",
        completion: .directory,
        isVariadic: true)
    ],
    argumentsInWords: "one or more results folders",
    discussion: """
      Prints the table verify prints (its time is the sum of the shards'). Exit 0 when every
      reference passed; 1 when any failed, or when the folders cannot be merged: results of
      different runs (the run id verify wrote: --run-id, else $OUDS_RUN_ID, $GITHUB_RUN_ID or
      $CI_PIPELINE_ID, else random, so shards run without one never merge) or catalogues (case
      files, references, themes folder), an entry whose status contradicts its pixels or layout
      diff, results from different environments (render stack, font files, token digest,
      themes folder), snapshots folders or --filter; overlapping shards; or an incomplete set
      (a shard of the split missing, or fewer references than the catalogue holds). The report,
      JUnit file and summary are those one unsharded 'snapshot verify' writes.
      Each results.json is read as untrusted input: its size is capped, its schema checked, and the
      pictures it names must be PNG files inside its folder.
      """,
    options: SnapshotVerifyCommand.outputs,
    examples: [
      Example(
        command: "snapshot merge out/shard-* --junit out/junit.xml --summary out/summary.md",
        explanation: "the final CI job: one JUnit file and one summary for every shard"),
      Example(
        command: "snapshot merge out/shard-1 out/shard-2 --report out/report",
        explanation: "one review page (and the table; exit 1 on any failure)"),
    ],
    run: run)

  /// Reads, checks and merges the folders, then writes the outputs; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let outputs = SnapshotVerifyCommand.outputFiles(arguments)
    // Never into a results folder given, nor one output into another.
    try outputs.checkPlaces(
      besides: arguments.positionals.map { ProtectedPlace("results folder", $0) })
    var parts: [SnapshotRunResults.Part] = []
    var folders: [String: URL] = [:]
    var inputs = InputFiles()
    for label in arguments.positionals {
      let folder = URL(fileURLWithPath: label)
      let results = try SnapshotRunResults.read(from: folder)
      parts.append(SnapshotRunResults.Part(label: label, results: results))
      inputs.insert(
        folder.appendingPathComponent(SnapshotRunResults.fileName).standardizedFileURL.path)
      for reference in results.references {
        folders[reference.id] = folder
        for path in reference.artifacts.values {
          inputs.insert(folder.appendingPathComponent(path).standardizedFileURL.path)
        }
      }
    }
    let merged = try SnapshotRunResults.merge(parts)
    // Nor into the snapshots or themes folder the run used (paths relative to the repository).
    let root = RepositoryRoot.find()
    try outputs.checkPlaces(
      besides: arguments.positionals.map { ProtectedPlace("results folder", $0) }
        + [
          merged.snapshots.map { ("snapshots folder", $0) },
          merged.themes.map { ("themes folder", $0.folder) },
        ]
        .compactMap { $0 }.map { what, path in
          ProtectedPlace(
            what, path.hasPrefix("/") ? path : root.directory.appendingPathComponent(path).path)
        })
    let commands = ReviewReport.Commands.cli(
      extraArguments: merged.acceptOptions, filter: merged.selection.filter)
    // Many failures print the table alone, capped; the rest is on the review page and in the folders.
    let elsewhere =
      arguments.text(SnapshotVerifyCommand.report).map {
        "the review page \(URL(fileURLWithPath: $0).appendingPathComponent("index.html").path)"
      } ?? "the artifacts in \(arguments.positionals.joined(separator: ", "))"
    let format = SummaryFormat.compact(
      elsewhere: elsewhere, paint: Terminal.current.painter(for: 1))
    try writeOutput(SnapshotSummary.text(merged, acceptCommand: commands.accept, format: format))
    let page = try outputs.write(
      merged, images: ArtifactImages(folders: folders), root: root,
      protecting: inputs)
    if let page { printError("review page: \(page)") }
    if !merged.succeeded {
      printError("to accept every change: \(commands.acceptAll)")
    }
    return merged.succeeded ? ExitStatus.success : ExitStatus.failure
  }
}
