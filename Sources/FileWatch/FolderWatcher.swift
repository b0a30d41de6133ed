#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps one inotify watch on each folder a ``WatchTargets`` plan asks for, and turns the events
/// into the paths that changed.
///
/// One inotify descriptor for the whole run; ``update(_:starting:)`` adds the folders newly asked
/// for and removes the others, so re-renders never add descriptors and watches do not pile up.
public final class FolderWatcher {
  /// The inotify instance.
  public let inotify: Inotify
  /// The folders watched, by watch (two paths to one folder share a watch).
  private var folders: [Int32: Set<String>] = [:]
  /// The watch of each watched folder.
  private var watches: [String: Int32] = [:]
  /// What counts as a change.
  private(set) var targets = WatchTargets()
  /// The device and inode of each named folder (``WatchTargets/namedFolders``) when last seen.
  private var identities: [String: FolderIdentity] = [:]
  /// The named folders found gone (reported once, until they come back).
  private var gone: Set<String> = []

  /// Opens the inotify instance.
  /// - Throws: ``WatchError`` naming the limit reached.
  public init() throws(WatchError) {
    inotify = try Inotify()
  }

  /// The number of folders watched.
  public var folderCount: Int { watches.count }

  /// Watches what `targets` ask for and nothing else, and returns the named folders found
  /// replaced or gone since the last update. With `starting`, a required folder that cannot be
  /// watched is an error; later, a folder that went away is skipped (the folder above it is
  /// watched and reports when it comes back).
  ///
  /// Every folder of the plan is watched again by its path: a folder replaced by another of the
  /// same name (its whole tree moved away and copied back) is then watched, not the old one.
  /// - Throws: ``WatchError`` for a limit (entries, folders, inotify watches) or, with `starting`,
  ///   a required folder that cannot be watched.
  @discardableResult
  public func update(_ targets: WatchTargets, starting: Bool = false) throws(WatchError)
    -> FolderReport
  {
    self.targets = targets
    var report = FolderReport()
    for path in targets.namedFolders.sorted() {
      guard let identity = FolderIdentity(path) else {
        if !starting, gone.insert(path).inserted { report.gone.append(path) }
        continue
      }
      if let known = identities[path], known != identity {
        report.replaced.append(path)
      } else if gone.contains(path) {
        report.back.append(path)
      }
      gone.remove(path)
      identities[path] = identity
    }
    // A folder made while the plan was walked is found by the next walk, once the folder holding
    // it is watched: walk again until every folder of the plan is watched (or cannot be).
    var tried: Set<String> = []
    for _ in 0..<4 {
      let plan = try targets.plan()
      for (path, watch) in watches where plan[path] == nil {
        forget(path, watch: watch, stop: true)
      }
      var added = false
      for (path, follow) in plan.sorted(by: { $0.key < $1.key }) where !tried.contains(path) {
        tried.insert(path)
        added = true
        switch inotify.add(folder: path, follow: follow) {
        case .watching(let watch):
          if let old = watches[path], old != watch { forget(path, watch: old, stop: true) }
          watches[path] = watch
          folders[watch, default: []].insert(path)
        case .failed(let code):
          if let old = watches[path] { forget(path, watch: old, stop: true) }
          if code == ENOSPC || code == ENOMEM
            || (starting && targets.requiredFolders.contains(path))
          {
            throw WatchError.folder(path, code)
          }
        }
      }
      if !added { break }
    }
    return report
  }

  /// Stops watching `path`; the kernel's watch itself is removed when no other path shares it.
  private func forget(_ path: String, watch: Int32, stop: Bool) {
    watches[path] = nil
    folders[watch]?.remove(path)
    if folders[watch]?.isEmpty == true {
      folders[watch] = nil
      if stop { inotify.remove(watch) }
    }
  }

  /// The paths that changed among `events` and count (``WatchTargets/isRelevant(_:)``), in order,
  /// each once; a queue overflow counts as a change of everything (`*`). Watches the kernel ended
  /// (folder deleted) or that no longer name their path (folder moved) are dropped, to be made
  /// again by the next ``update(_:starting:)``.
  public func changes(in events: [FolderEvent]) -> [String] {
    var changed: [String] = []
    func note(_ path: String) {
      if !changed.contains(path) { changed.append(path) }
    }
    for event in events {
      if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
        note("*")
        continue
      }
      guard let paths = folders[event.watch] else { continue }
      if event.mask & UInt32(IN_IGNORED) != 0 {
        for path in paths { forget(path, watch: event.watch, stop: false) }
        continue
      }
      if event.mask & UInt32(IN_MOVE_SELF) != 0 {
        for path in paths { forget(path, watch: event.watch, stop: true) }
        continue
      }
      guard !event.name.isEmpty else { continue }
      for folder in paths {
        let path = folder == "/" ? "/" + event.name : folder + "/" + event.name
        if targets.isRelevant(path) { note(path) }
      }
    }
    return changed
  }
}

/// What an update of the watches found about the named folders (``WatchTargets/namedFolders``).
public struct FolderReport: Equatable {
  /// Folders replaced by another of the same name: the new one is watched.
  public var replaced: [String] = []
  /// Folders back where they were after being gone: watched again.
  public var back: [String] = []
  /// Folders gone: the folder above each is watched for its return.
  public var gone: [String] = []

  /// Both reports, each folder once, and no folder inside another of the same list (the folder
  /// holding it says it all).
  public func merged(with other: FolderReport) -> FolderReport {
    func outermost(_ paths: [String]) -> [String] {
      var result: [String] = []
      for path in paths where !result.contains(path) {
        if !paths.contains(where: { path.hasPrefix($0 + "/") }) { result.append(path) }
      }
      return result
    }
    return FolderReport(
      replaced: outermost(replaced + other.replaced), back: outermost(back + other.back),
      gone: outermost(gone + other.gone))
  }
}

/// The device and inode of a folder: what tells a folder from another made under its name.
struct FolderIdentity: Hashable {
  var device: UInt64
  var inode: UInt64

  /// The identity of the folder at `path` (a symbolic link followed), nil when there is none.
  init?(_ path: String) {
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
  }
}
