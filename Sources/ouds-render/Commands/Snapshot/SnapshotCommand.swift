import BulletListRenderer
import CLIKit
import PixelDiff
import SafeInput
import Snapshot
import SnapshotReports

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render snapshot`: verify, record, prune and list the reference snapshots.
///
/// This file holds the group and what its subcommands share: options and the selection of
/// references.
enum SnapshotCommand {
  /// The group's table.
  static let spec = CommandSpec(
    name: "snapshot",
    abstract: "Verify, record or prune the reference snapshots",
    overview:
      "Check renders against the reference snapshots in Snapshots/, record them, prune them, merge the results of verify shards.",
    examples: [
      Example(command: "snapshot verify", explanation: "CI: compare with Snapshots/"),
      Example(command: "snapshot record --failed", explanation: "accept every change"),
      Example(
        command: "snapshot merge out/shard-* --summary out/summary.md",
        explanation: "CI: combine the results of verify shards"),
    ],
    subcommands: [
      SnapshotVerifyCommand.spec, SnapshotRecordCommand.spec, SnapshotPruneCommand.spec,
      SnapshotListCommand.spec, SnapshotMergeCommand.spec, SnapshotAcceptCommand.spec,
      SnapshotReviewCommand.spec,
    ])

  // MARK: - Options the subcommands share

  /// `--snapshots <dir>`.
  static let snapshots = TypedOption.text(
    names: ["--snapshots"], placeholder: "dir", completion: .directory,
    help: "the snapshots folder", defaultDescription: "./Snapshots")
  /// `--themes <dir>`, found from the snapshots folder when not given.
  static let themes = ListOptions.themesDirectory.defaulting(
    to:
      "$OUDS_THEMES_DIR, else the Themes/ beside the snapshots folder, else one in the current folder or its parents, else the package's copy"
  )
  /// `--font-dir <dir>`.
  static let fontDirectory = ListOptions.fontDirectory.describing(
    "dir",
    help:
      "a folder searched first for the manifests' font files; its other fonts are licensed brand fonts used instead of the open substitutes"
  )
  /// `--filter <patterns>`, parsed when the arguments are: a bad filter is a usage error.
  static let filterOption = TypedOption<SnapshotFilter>(
    names: ["--filter"], placeholder: "patterns",
    help:
      "comma-separated; a whole id <case>/<theme>-<mode>[-<variant>]@<scale>x selects that reference only, a glob (*, ?, [..]) matches the whole id, any other pattern a substring of the id"
  ) { text throws(UsageError) in
    do { return try SnapshotFilter(text) } catch { throw UsageError("\(error)") }
  }
  /// `--filter` as the tables list it.
  static let filter = filterOption.spec
  /// `--shard <i>/<n>`, parsed when the arguments are: a bad shard is a usage error.
  static let shardOption = TypedOption<SnapshotShard>(
    names: ["--shard"], placeholder: "i/n",
    help:
      "only shard i of n (round-robin over the ids sorted; the n shards together cover every reference exactly once)"
  ) { text throws(UsageError) in
    do { return try SnapshotShard(parsing: text) } catch { throw UsageError("\(error)") }
  }
  /// `--shard` as the tables list it.
  static let shard = shardOption.spec
  /// `--jobs <n>`.
  static let jobsOption = TypedOption.integer(
    names: ["--jobs"], placeholder: "n", range: 1...256,
    help: "worker threads, each with its own renderer", defaultDescription: "the number of cores")
  /// `--jobs` as the tables list it.
  static let jobs = jobsOption.spec

  /// The folder, tokens and fonts options of `verify` and `record`.
  static let common = [snapshots.spec, themes.spec, fontDirectory.spec]
  /// The options that choose references.
  static let selection = [filter, shard, jobs]

  // MARK: - Shared steps

  /// The engine for the parsed common options.
  static func engine(_ arguments: ParsedArguments) throws -> SnapshotEngine {
    let folder = URL(fileURLWithPath: arguments.text(snapshots) ?? "Snapshots")
    return try SnapshotEngine(
      configuration: SnapshotConfiguration(
        snapshotsDirectory: folder,
        themesDirectory: arguments.text(themes).map { URL(fileURLWithPath: $0) },
        brandFontDirectory: arguments.text(fontDirectory).map { URL(fileURLWithPath: $0) },
        jobs: arguments[jobsOption] ?? ProcessInfo.processInfo.activeProcessorCount,
        diffOptions: SnapshotTolerance(
          maxDiffPixels: arguments[SnapshotVerifyCommand.maxDiffPixelsOption],
          maxDiffRatio: arguments[SnapshotVerifyCommand.maxDiffRatioOption]
        ).applied(to: DiffOptions())))
  }

  /// The broken case files the selection reports (see ``SnapshotCatalogue/selectBroken(filter:shard:)``).
  static func brokenCases(_ arguments: ParsedArguments, engine: SnapshotEngine)
    -> [SnapshotCaseError]
  {
    engine.catalogue.selectBroken(filter: arguments[filterOption], shard: arguments[shardOption])
  }

  /// The selected references, or a failure when nothing matches (a bad filter or shard was a
  /// usage error when the arguments were parsed).
  static func selection(_ arguments: ParsedArguments, engine: SnapshotEngine) throws
    -> [SnapshotReference]
  {
    let selectedFilter = arguments[filterOption]
    let selectedShard = arguments[shardOption]
    let selected = engine.catalogue.select(filter: selectedFilter, shard: selectedShard)
    if selected.isEmpty && selectedFilter != nil
      && engine.catalogue.selectBroken(filter: selectedFilter, shard: selectedShard).isEmpty
    {
      throw SnapshotError.nothingMatches(filter: arguments.givenText(filter) ?? "")
    }
    return selected
  }

  /// The part of the catalogue the options select, for the results (the filter as parsed).
  static func resultsSelection(_ arguments: ParsedArguments, engine: SnapshotEngine) throws
    -> SnapshotRunResults.Selection
  {
    SnapshotRunResults.Selection(
      filter: arguments[filterOption]?.description,
      shard: arguments[shardOption],
      catalogueReferences: engine.catalogue.references.count)
  }

  /// The options an accept command repeats for a command run from the repository root
  /// (`--snapshots`, `--themes`, `--font-dir`), their paths relative to it, shell-quoted.
  ///
  /// `--snapshots` is left out when it is `Snapshots` of the root, the default there.
  static func rootOptions(_ arguments: ParsedArguments, root: RepositoryRoot) -> String {
    var words: [String] = []
    let folder = root.relative(arguments.text(snapshots) ?? "Snapshots")
    if folder != "Snapshots" { words.append("\(snapshots.key) \(shellQuote(folder))") }
    for option in [themes, fontDirectory] {
      if let value = arguments.text(option) {
        words.append("\(option.key) \(shellQuote(root.relative(value)))")
      }
    }
    return words.joined(separator: " ")
  }

  /// The options a follow-up command must repeat (`--snapshots`, `--themes`, `--font-dir`), shell-quoted.
  static func repeatedOptions(_ arguments: ParsedArguments) -> String {
    common.compactMap { option in
      arguments.givenText(option).map { "\(option.key) \(shellQuote($0))" }
    }.joined(separator: " ")
  }
}
