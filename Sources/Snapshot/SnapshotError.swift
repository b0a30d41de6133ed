import SafeInput

/// What can go wrong around the references (the catalogue, a selection, the lock, the
/// environment fingerprint, artifacts, pruning): one case per problem, with the file or value it
/// concerns. The description is one line, control characters escaped.
public enum SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The longest run id accepted (`--run-id`, `$OUDS_RUN_ID`…), in characters.
  public static let runIDLimit = 200

  /// A problem with the snapshots folder's lock file (`.record.lock`).
  public enum LockProblem: Hashable, Sendable {
    /// The lock file cannot be opened (the system's reason).
    case cannotOpen(reason: String)
    /// The lock file is a folder, a FIFO, a link…
    case notRegularFile
    /// The system refused the lock (its reason).
    case cannotLock(reason: String)
    /// Another run held the lock for the whole wait: who (as the lock file says), how long.
    case held(by: String, waitedSeconds: Int)
  }

  /// The snapshots folder has no `cases/` folder.
  case noCaseFolder(path: String)
  /// A folder cannot be listed (`cases/`, or the snapshots folder while looking for orphans).
  case folderUnreadable(path: String)
  /// `cases/` holds no case file.
  case noCaseFiles(folder: String)
  /// A case file's `"variants"` is wrong: the case file, the JSON path (`variants[1].themes`) and
  /// the problem.
  case variants(file: String, path: String, problem: String)
  /// `--filter` without a pattern (the text given).
  case emptyFilter(String)
  /// `--shard` that is not written `i/n` (the text given).
  case malformedShard(String)
  /// `--shard i/n` outside 1 ≤ i ≤ n.
  case shardOutOfRange(index: Int, count: Int)
  /// `--filter` that selects no reference and no broken case (the pattern given).
  case nothingMatches(filter: String)
  /// `ENVIRONMENT.json` exists but cannot be read.
  case environmentUnreadable(UserFileError)
  /// `ENVIRONMENT.json` is not an environment fingerprint (its path).
  case environmentInvalid(path: String)
  /// The lock file `path` cannot be taken.
  case lock(path: String, LockProblem)
  /// An artifact (expected/actual/diff…) of the reference `reference` could not be written.
  case artifactsNotWritten(reference: String, reason: String)
  /// An image of the review page for the reference `reference` could not be written.
  case reviewImagesNotWritten(reference: String, reason: String)
  /// The environment variable `variable` names no record mode.
  case unknownRecordMode(variable: String, value: String)
  /// `prune` refuses while a case file is broken (its message, and how many more are broken).
  case pruneWithBrokenCases(first: String, more: Int)
  /// `prune` could not delete an orphan (its path, the system's reason).
  case cannotDelete(path: String, reason: String)
  /// A `results.json` cannot be read (missing, not a regular file, over its limit…).
  case resultsUnreadable(UserFileError)
  /// A `results.json` is not results this tool wrote: the file, and where and what is wrong.
  case resultsInvalid(path: String, reason: String)
  /// A picture of a results folder cannot be read.
  case artifactUnreadable(UserFileError)
  /// A picture of a results folder is not what the results say (the file, the problem).
  case artifactInvalid(path: String, reason: String)
  /// `snapshot merge` refuses to combine these results (why, naming the folders).
  case cannotMerge(reason: String)
  /// `snapshot accept` cannot write a run's renders here (`reason` says why).
  case cannotAccept(reason: String)
  /// A run id (`--run-id` or an environment variable: `source`) a results file cannot hold.
  case invalidRunID(id: String, source: String)
  /// An output folder (`--results`, `--artifacts`, `--report`: the option and the path given) is
  /// inside the snapshots or themes folder (`what`, `folder`), or holds it (`holds`).
  case outputFolderOverlaps(option: String, path: String, what: String, folder: String, holds: Bool)

  /// The problem on one line, naming the file or the value.
  public var description: String {
    MessageText.escaped(text)
  }

  private var text: String {
    switch self {
    case .noCaseFolder(let path):
      return "no case folder \(path) (a snapshots folder holds cases/*.json and cases/*.md)"
    case .folderUnreadable(let path):
      return "cannot list \(path)"
    case .noCaseFiles(let folder):
      return "no case files (*.json, *.md) in \(folder)"
    case .variants(let file, let path, let problem):
      return "\(file): \(path): \(problem)"
    case .emptyFilter(let text):
      return "--filter needs a pattern, got \(MessageText.quoted(text))"
    case .malformedShard(let text):
      return "--shard must be i/n (e.g. 2/4), got \(MessageText.quoted(text))"
    case .shardOutOfRange(let index, let count):
      return "--shard must be i/n with 1 ≤ i ≤ n, got \(index)/\(count)"
    case .nothingMatches(let filter):
      return "no reference matches --filter \(MessageText.quoted(filter))"
    case .environmentUnreadable(let error):
      return error.description
    case .environmentInvalid(let path):
      return "\(path): not a valid environment fingerprint (re-record to rewrite it)"
    case .lock(let path, let problem):
      let file = MessageText.path(path)
      switch problem {
      case .cannotOpen(let reason): return "\(file): cannot open the lock file: \(reason)"
      case .notRegularFile: return "\(file): the lock file is not a regular file"
      case .cannotLock(let reason): return "\(file): cannot lock: \(reason)"
      case .held(let holder, let seconds):
        return
          "\(file): another run is \(holder); waited \(seconds) s: let it finish or stop it, then run again"
      }
    case .artifactsNotWritten(let reference, let reason):
      return "cannot write artifacts: \(reference): \(reason)"
    case .reviewImagesNotWritten(let reference, let reason):
      return "cannot write the review page images: \(reference): \(reason)"
    case .unknownRecordMode(let variable, let value):
      return "\(variable)=\(value) is not a record mode (use all, missing, failed or never)"
    case .pruneWithBrokenCases(let first, let more):
      return
        "cannot look for orphans while a case file is broken (its references would look like orphans): \(first)"
        + (more > 0 ? " (and \(more) more)" : "")
    case .cannotDelete(let path, let reason):
      return "cannot delete \(path): \(reason)"
    case .resultsUnreadable(let error):
      return error.description
    case .resultsInvalid(let path, let reason):
      return "\(MessageText.path(path)): \(reason)"
    case .artifactUnreadable(let error):
      return error.description
    case .artifactInvalid(let path, let reason):
      return "\(MessageText.path(path)): \(reason)"
    case .outputFolderOverlaps(let option, let path, let what, let folder, let holds):
      return
        "\(option) \(MessageText.path(path)): \(holds ? "holds" : "is inside") the \(what) \(MessageText.path(folder)); write results, artifacts and reports outside it"
    case .cannotMerge(let reason):
      return "cannot merge: \(reason)"
    case .cannotAccept(let reason):
      return "cannot accept: \(reason)"
    case .invalidRunID(let id, let source):
      return
        "\(source) \(MessageText.quoted(id)) is not a run id: 1 to \(SnapshotError.runIDLimit) letters, digits and . _ - : + /"
    }
  }
}
