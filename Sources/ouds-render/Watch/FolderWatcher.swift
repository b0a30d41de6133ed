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
final class FolderWatcher {
  /// The inotify instance.
  let inotify: Inotify
  /// The folders watched, by watch (two paths to one folder share a watch).
  private var folders: [Int32: Set<String>] = [:]
  /// The watch of each watched folder.
  private var watches: [String: Int32] = [:]
  /// What counts as a change.
  private(set) var targets = WatchTargets()

  /// Opens the inotify instance.
  /// - Throws: ``WatchError`` naming the limit reached.
  init() throws(WatchError) {
    inotify = try Inotify()
  }

  /// The number of folders watched.
  var folderCount: Int { watches.count }

  /// Watches what `targets` ask for and nothing else. With `starting`, a required folder that
  /// cannot be watched is an error; later, a folder that went away is skipped (the folder above
  /// it is watched and reports when it comes back).
  /// - Throws: ``WatchError`` for a limit (entries, folders, inotify watches) or, with `starting`,
  ///   a required folder that cannot be watched.
  func update(_ targets: WatchTargets, starting: Bool = false) throws(WatchError) {
    self.targets = targets
    let plan = try targets.plan()
    for (path, watch) in watches where plan[path] == nil {
      forget(path, watch: watch, stop: true)
    }
    for (path, follow) in plan.sorted(by: { $0.key < $1.key }) where watches[path] == nil {
      switch inotify.add(folder: path, follow: follow) {
      case .watching(let watch):
        watches[path] = watch
        folders[watch, default: []].insert(path)
      case .failed(let code):
        if code == ENOSPC || code == ENOMEM || (starting && targets.requiredFolders.contains(path))
        {
          throw WatchError.folder(path, code)
        }
      }
    }
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
  func changes(in events: [FolderEvent]) -> [String] {
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
