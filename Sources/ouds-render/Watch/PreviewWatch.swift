import Dispatch
import PreviewServer
import SafeInput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `preview`'s watch: the list (or folder of lists), the themes folder and the files the pictures
/// were drawn from; each burst of changes starts a new generation and tells the open pages, which
/// fetch their pictures again.
///
/// The same inotify watcher, targets and signal thread as `--watch` (``FolderWatcher``,
/// ``WatchTargets``, ``StopSignals``); the renders themselves happen when the pages ask.
struct PreviewWatch {
  /// What the pictures are drawn from.
  let lists: PreviewLists
  /// The events the pages listen to.
  let events: PreviewEvents

  /// How often the files noted by new pictures are added to the watch: 250 ms.
  static let notePeriod: Int32 = 250

  /// Watches until SIGINT or SIGTERM; returns the number of updates sent.
  /// - Throws: ``WatchError`` for a limit or a folder that cannot be watched.
  func run(_ arguments: ParsedArguments, signals: StopSignals, url: String) throws -> Int {
    var targets = WatchTargets()
    if lists.isFolder {
      targets.insert(folder: lists.target)
    } else {
      targets.insert(file: lists.target, required: true)
    }
    WatchOption.addThemes(
      arguments, explicit: ListOptions.themesDirectory, snapshots: nil, to: &targets)
    let watcher = try FolderWatcher()
    try watcher.update(targets, starting: true)
    var noted: Set<String> = []
    printError(
      "preview of \(lists.target) at \(url): drawn again when \(HelpText.words([WatchLoop.describe([lists.target]), "its icons"] + WatchOption.themesSummary(targets), joinedBy: "or")) change; Ctrl-C stops"
    )
    var updates = 0
    var changed: [String] = []
    var first: UInt64?
    var last: UInt64 = 0
    while !signals.stopRequested {
      var timeout = Self.notePeriod
      if let start = first {
        let now = DispatchTime.now().uptimeNanoseconds
        let end = min(last + PreviewCommand.quietPeriod, start + WatchLoop.longestBurst)
        if now >= end {
          lists.invalidate()
          updates += 1
          let what = WatchLoop.describe(changed)
          events.publish(PreviewLists.changeData(what))
          printError("update \(updates): \(what) changed")
          changed = []
          first = nil
          try watcher.update(targets.adding(files: noted))
          continue
        }
        timeout = Int32(clamping: (end - now + 999_999) / 1_000_000)
      }
      let wakeup = try WatchLoop.wake(watcher, signals, timeout: timeout)
      if wakeup == .stop { break }
      let now = lists.noted.withLock { $0 }
      if now != noted {
        noted = now
        try watcher.update(targets.adding(files: noted))
      }
      guard wakeup == .events else { continue }
      let new = watcher.changes(in: watcher.inotify.pendingEvents())
      guard !new.isEmpty else { continue }
      for path in new where !changed.contains(path) { changed.append(path) }
      last = DispatchTime.now().uptimeNanoseconds
      if first == nil { first = last }
    }
    return updates
  }
}
