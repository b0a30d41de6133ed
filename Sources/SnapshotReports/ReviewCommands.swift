import SafeInput
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HTML review page: one self-contained `index.html` (inline CSS and JS, no network) with the images beside it.
///
/// For each failure it shows expected, actual and diff side by side, a slider and a toggle between
/// expected and actual, the numbers (changed pixels, ratio, regions, sizes, layout JSON diff), and
/// the exact command that accepts it. A sticky tool bar filters the failures (free text over case,
/// theme, mode, variant and status, plus status chips) and says how many are shown; check boxes
/// build one command that accepts the selection. Each failure's view controls stay in view while a
/// tall picture scrolls, and pictures are fitted to the window height unless "actual size" is on.
///
/// The page reads its starting state from the URL fragment and keeps it there, so a link can share
/// a view: `index.html#filter=sosh%20dark&status=changed,missing&select=<id>,<id>&view=slider&zoom=actual&go=<id>`.
public enum ReviewReport {
  /// How the page words its accept commands.
  public struct Commands: Sendable {
    /// The command for one failure, e.g. `ouds-render snapshot record --failed --filter sample-3/orange-light@2x`.
    public var accept: @Sendable (ReferenceResult) -> String
    /// The command without `--filter`, to which the page appends `--filter '<id>,<id>'` for a selection.
    ///
    /// Each id is a whole id, which `--filter` takes as that reference only (``SnapshotFilter/isWholeID(_:)``).
    public var acceptSelectedPrefix: String
    /// The command that accepts every failure of the run.
    public var acceptAll: String
    /// The command that accepts the run's own renders from its results folders, as the CI
    /// templates lay them out (`snapshot accept out/shard-*`), when the run kept them (verify
    /// with `--results`, merge); nil otherwise. The same for one run and the merge of its shards.
    public var acceptRun: String?

    /// ``acceptRun``'s value.
    public static let acceptRunCommand = "ouds-render snapshot accept out/shard-*"

    /// Creates the commands.
    public init(
      accept: @escaping @Sendable (ReferenceResult) -> String, acceptSelectedPrefix: String,
      acceptAll: String
    ) {
      self.accept = accept
      self.acceptSelectedPrefix = acceptSelectedPrefix
      self.acceptAll = acceptAll
    }

    /// Commands for the CLI with `extraArguments` (e.g. `--snapshots X --themes Y`), already shell-quoted.
    public static func cli(extraArguments: String = "", filter: String? = nil) -> Commands {
      let extra = extraArguments.isEmpty ? "" : " " + extraArguments
      let base = "ouds-render snapshot record"
      return Commands(
        accept: { reference in
          let mode = reference.status == .missing ? "--missing" : "--failed"
          return "\(base) \(mode)\(extra) --filter \(shellQuote(reference.id))"
        },
        acceptSelectedPrefix: "\(base) --failed\(extra)",
        acceptAll: "\(base) --failed\(extra)" + (filter.map { " --filter \(shellQuote($0))" } ?? "")
      )
    }
  }
}
