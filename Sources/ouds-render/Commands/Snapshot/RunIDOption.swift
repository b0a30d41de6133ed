import CLIKit
import Snapshot
import SnapshotReports

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `verify --run-id <id>`: the id that ties the `results.json` of the shards of one CI run
/// together, so `snapshot merge` refuses a folder left from another run.
enum RunIDOption {
  /// `--run-id <id>`.
  static let option = TypedOption.text(
    names: ["--run-id"], placeholder: "id",
    help:
      "the id of this CI run, written to results.json: 'snapshot merge' merges only shards with the same id",
    defaultDescription:
      "$OUDS_RUN_ID, else $GITHUB_RUN_ID (GitHub Actions), else $CI_PIPELINE_ID (GitLab), else a random id (such shards merge with no other)"
  )

  /// The run id and its source, from the option or the environment (see
  /// ``SnapshotRunResults/RunIdentity/resolve(given:environment:)``); a usage error for a bad id.
  static func resolve(_ arguments: ParsedArguments) throws -> (id: String, source: String) {
    do {
      return try SnapshotRunResults.RunIdentity.resolve(
        given: arguments.text(option), environment: ProcessInfo.processInfo.environment)
    } catch {
      throw UsageError("\(error)")
    }
  }

  /// The identity of a verify run: `run`, and the digest of the catalogue it compared against.
  static func identity(
    _ run: (id: String, source: String), report: SnapshotRunReport, catalogue: SnapshotCatalogue
  ) -> SnapshotRunResults.RunIdentity {
    let snapshots = report.snapshotsDirectory ?? URL(fileURLWithPath: "Snapshots")
    return SnapshotRunResults.RunIdentity(
      id: run.id, source: run.source,
      catalogueSHA256: CatalogueDigest.sha256(
        snapshots: snapshots, themes: report.themesLocation?.directory,
        tokensSHA256: report.environment?.tokensSHA256,
        references: CatalogueDigest.referencePaths(catalogue)))
  }
}
