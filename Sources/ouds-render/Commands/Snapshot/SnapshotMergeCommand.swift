import BulletListRenderer
import CLIKit
import RunReports
import SafeInput
import Snapshot
import SnapshotReports
import Themes

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
    let snapshotsPlace = merged.snapshots.map {
      ProtectedPlace("snapshots folder", root.absolute($0))
    }
    let themesPlace = merged.themes.map {
      ProtectedPlace("themes folder", root.absolute($0.folder))
    }
    let runFolders = [snapshotsPlace, themesPlace].compactMap { $0 }
    try outputs.checkPlaces(
      besides: arguments.positionals.map { ProtectedPlace("results folder", $0) } + runFolders)
    let unchecked = try checkAgainstCheckout(
      merged, snapshots: snapshotsPlace, themes: themesPlace, root: root)
    // Nor through a link below the review page's folder (images/ -> the snapshots folder).
    let outputPaths = [outputs.report, outputs.junit, outputs.summary].compactMap { $0?.path }
    WriteFence.protect(
      runFolders + outputPaths.flatMap { InputFolderGuard.places(around: $0) }
        + arguments.positionals.map { ProtectedPlace("results folder", $0) })
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
    // The shards kept the renders of their failures: accept can take them as they are.
    let page = try outputs.write(
      merged, images: ArtifactImages(folders: folders), root: root, protecting: inputs,
      acceptRun: ReviewReport.Commands.acceptRunCommand)
    if let page { printError("review page: \(page)") }
    try SnapshotVerifyCommand.writeAnnotations(arguments, merged, root: root)
    if arguments.isGiven(SnapshotVerifyCommand.list) { try writeOutput(merged.failureList) }
    if let unchecked { printError(unchecked) }
    // Broken case files alone have nothing to accept: their rows say what to fix.
    if !merged.failures.isEmpty || merged.tokenDifference != nil {
      printError("to accept every change: \(commands.acceptAll)")
    }
    return merged.succeeded ? ExitStatus.success : ExitStatus.failure
  }

  /// Where the run's snapshots folder is here (the merge job runs in the run's checkout), what
  /// the shards say of it is checked against it, so that shards edited consistently with
  /// themselves still cannot pass: the catalogue's digest (case files, references, tokens), the
  /// number of references it holds, the token digest of its themes folder and the one its
  /// `ENVIRONMENT.json` records. Without the folder (results copied elsewhere) only the shards'
  /// own consistency is checked, as the summary says nothing more.
  /// - Returns: a note saying the results were not checked against a catalogue, when the
  ///   checkout is not here (nil when they were checked).
  @discardableResult
  static func checkAgainstCheckout(
    _ merged: SnapshotRunResults, snapshots: ProtectedPlace?, themes: ProtectedPlace?,
    root: RepositoryRoot
  ) throws -> String? {
    guard let snapshots, PathText.isFolder(snapshots.path), let run = merged.run else {
      // A run that names a folder this checkout does not have, where this checkout has its own
      // snapshots folder, is not this checkout's run: a forged name must not turn the checks off.
      let local = root.directory.appendingPathComponent("Snapshots")
      if let snapshots, PathText.isFolder(local.path),
        OutputPlace.realPath(local.path) != OutputPlace.realPath(snapshots.path)
      {
        throw SnapshotError.cannotMerge(
          reason:
            "the results name the snapshots folder \(MessageText.path(snapshots.path)), which is not here, but this checkout has \(MessageText.path(local.path)): merge the results of one verify run of this checkout"
        )
      }
      return
        "note: not checked against a catalogue: the results' snapshots folder \(MessageText.path(snapshots?.path ?? "(none)")) is not here, so only the shards' own consistency was checked"
    }
    let folder = URL(fileURLWithPath: snapshots.path)
    let engine = try SnapshotEngine(
      configuration: SnapshotConfiguration(
        snapshotsDirectory: folder,
        themesDirectory: themes.flatMap {
          PathText.isFolder($0.path) ? URL(fileURLWithPath: $0.path) : nil
        }))
    func refuse(_ what: String) -> SnapshotError {
      .cannotMerge(
        reason:
          "\(what); the shards do not describe the catalogue in \(MessageText.path(snapshots.path)): merge the results of one verify run of this checkout"
      )
    }
    let location = try engine.themesLocation()
    let library = try ThemeLibrary(directory: location.directory)
    let tokens = SnapshotEnvironment.tokenDigest(of: library)
    if let claimed = merged.tokensSHA256, claimed != tokens {
      throw refuse(
        "environment.tokensSHA256 is \(claimed.prefix(12))…, but the themes folder \(MessageText.path(location.directory.path)) resolves to \(tokens.prefix(12))…"
      )
    }
    let recorded = try SnapshotEnvironment.read(from: folder)
    if let recorded, recorded.tokensSHA256 != merged.recordedEnvironment?.tokensSHA256 {
      throw refuse(
        "recordedEnvironment.tokensSHA256 is not what \(SnapshotEnvironment.fileName) records")
    }
    // The causes each explanation names are this checkout's: a forged list could move a
    // regression among the explained failures.
    if let recorded, merged.tokenDifference != nil, let causes = recorded.tokenCauses(in: library),
      causes != merged.tokenCauses
    {
      throw refuse(
        "tokenCauses list \(merged.tokenCauses.count) changed tokens, the themes folder here against \(SnapshotEnvironment.fileName) gives \(causes.count)"
      )
    }
    let digest = CatalogueDigest.sha256(
      snapshots: folder, themes: location.directory, tokensSHA256: tokens,
      references: CatalogueDigest.referencePaths(engine.catalogue))
    if digest != run.catalogueSHA256 {
      throw refuse(
        "run.catalogueSHA256 is \(run.catalogueSHA256.prefix(12))…, the catalogue here \(digest.prefix(12))…"
      )
    }
    // Each reference's bytes, as the shard that compared it recorded them.
    let changed = CatalogueDigest.changedReferences(merged, snapshots: folder)
    if let first = changed.first {
      throw refuse(
        "\(changed.count) reference\(changed.count == 1 ? "" : "s") here differ\(changed.count == 1 ? "s" : "") from what the run compared: \(first)\(changed.count > 1 ? " and \(changed.count - 1) more" : "")"
      )
    }
    let count = engine.catalogue.references.count
    if merged.selection.catalogueReferences != count {
      throw refuse(
        "selection.catalogueReferences is \(merged.selection.catalogueReferences), the catalogue holds \(count) references"
      )
    }
    // Each reference was held to the run's tolerance as its case file replaces it, no looser.
    let variants = Dictionary(
      engine.catalogue.references.map { ($0.id, $0.variant) }, uniquingKeysWith: { a, _ in a })
    for reference in merged.references {
      guard let variant = variants[reference.id] else {
        throw refuse("\(reference.id) is not a reference of the catalogue")
      }
      let expected = merged.tolerance.overridden(by: variant.tolerance)
      if reference.tolerance != expected {
        throw refuse(
          "\(reference.id) says it was held to \(reference.tolerance), the run and its case file give \(expected)"
        )
      }
    }
    return nil
  }
}
