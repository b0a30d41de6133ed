import Dispatch
import FileWatch
import PreviewServer
import SafeInput

/// `preview`'s watch: the list (or folder of lists), the themes folder and the files the pictures
/// were drawn from; each burst of changes starts a new generation and tells the open pages, which
/// fetch their pictures again.
///
/// The same inotify watcher, targets and signal thread as `--watch` (``FileWatch/FolderWatcher``,
/// ``FileWatch/WatchTargets``, ``FileWatch/StopSignals``); the renders themselves happen when
/// the pages ask.
public struct PreviewWatch {
  /// What the pictures are drawn from.
  public let lists: PreviewLists
  /// The events the pages listen to.
  public let events: PreviewEvents

  /// How often the files noted by new pictures are added to the watch: 250 ms.
  public static let notePeriod: Int32 = 250
  /// The quiet time that ends a burst of changes: 50 ms (an editor's save is several events).
  public static let quietPeriod: UInt64 = 50_000_000

  /// A watch that invalidates `lists` and tells `events`.
  public init(lists: PreviewLists, events: PreviewEvents) {
    self.lists = lists
    self.events = events
  }

  /// Watches `targets` (and the files the pictures were drawn from) until SIGINT or SIGTERM;
  /// says `announcement` once watching, and each update, through `log`; returns the number of
  /// updates sent.
  /// - Throws: ``FileWatch/WatchError`` for a limit or a folder that cannot be watched.
  public func run(
    _ targets: WatchTargets, signals: StopSignals, announcement: String,
    log: (String) -> Void
  ) throws(WatchError) -> Int {
    let watcher = try FolderWatcher()
    try watcher.update(targets, starting: true)
    var noted: Set<String> = []
    log(announcement)
    var updates = 0
    var changed: [String] = []
    var first: UInt64?
    var last: UInt64 = 0
    while !signals.stopRequested {
      var timeout = Self.notePeriod
      if let start = first {
        let now = DispatchTime.now().uptimeNanoseconds
        let end = min(last + Self.quietPeriod, start + FolderWatcher.longestBurst)
        if now >= end {
          lists.invalidate()
          updates += 1
          let what = WatchTargets.describe(changed)
          events.publish(PreviewLists.changeData(what))
          log("update \(updates): \(what) changed")
          changed = []
          first = nil
          try watcher.update(targets.adding(files: noted))
          continue
        }
        timeout = Int32(clamping: (end - now + 999_999) / 1_000_000)
      }
      let wakeup = try watcher.wake(signals, timeout: timeout)
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
