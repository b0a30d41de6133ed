import Dispatch
import SafeInput

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What woke a wait on a watcher and the stop signal.
public enum Wakeup: Sendable {
  /// SIGINT or SIGTERM.
  case stop
  /// The watcher has events to read.
  case events
  /// The time ran out, or a signal other than a stop interrupted the wait.
  case timeout
}

extension FolderWatcher {
  /// A burst of changes that never goes quiet ends after 2 s all the same.
  public static let longestBurst: UInt64 = 2_000_000_000

  /// Waits up to `timeout` milliseconds (-1: without limit) for the watcher's events or a stop
  /// signal; the one `poll` of `--watch` and `preview`.
  /// - Throws: ``WatchError`` when the wait itself fails.
  public func wake(_ signals: StopSignals, timeout: Int32) throws(WatchError) -> Wakeup {
    var descriptors = [
      pollfd(fd: inotify.descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
    ]
    if poll(&descriptors, 2, timeout) < 0 {
      if errno == EINTR { return .timeout }
      throw WatchError(reason: "cannot wait for changes: \(WatchError.systemText(errno))")
    }
    if descriptors[1].revents != 0 { return .stop }
    return descriptors[0].revents != 0 ? .events : .timeout
  }
}

extension FolderWatcher {
  /// Waits for changes that count and returns them once the burst is over: `quietPeriod`
  /// nanoseconds without another, or ``longestBurst`` after the first; nil when a stop signal
  /// came.
  /// - Throws: ``WatchError`` when the wait fails.
  public func burst(_ signals: StopSignals, quietPeriod: UInt64) throws(WatchError) -> [String]? {
    var changed: [String] = []
    var first: UInt64?
    var last: UInt64 = 0
    while true {
      if signals.stopRequested { return nil }
      var timeout: Int32 = -1
      if let first {
        let now = DispatchTime.now().uptimeNanoseconds
        let end = min(last + quietPeriod, first + Self.longestBurst)
        if now >= end { return changed }
        timeout = Int32(clamping: (end - now + 999_999) / 1_000_000)
      }
      switch try wake(signals, timeout: timeout) {
      case .stop: return nil
      case .timeout: continue
      case .events: break
      }
      let new = changes(in: inotify.pendingEvents())
      guard !new.isEmpty else { continue }
      for path in new where !changed.contains(path) { changed.append(path) }
      last = DispatchTime.now().uptimeNanoseconds
      if first == nil { first = last }
    }
  }
}

extension WatchTargets {
  /// `list.json, Themes/brands/orange/light.tokens.json and 2 more`: paths relative to the
  /// current folder when inside it.
  ///
  /// Paths that are gone (an editor's temporary file, renamed away) are left out, unless nothing
  /// else changed (a deleted file).
  public static func describe(_ changed: [String]) -> String {
    let here = normalized(FileManager.default.currentDirectoryPath)
    let present = changed.filter { $0 == "*" || UserFile.type(atPath: $0) != nil }
    let names = (present.isEmpty ? changed : present).map { path -> String in
      if path == "*" { return "more files than the kernel could queue" }
      return path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
    }
    let shown = names.prefix(3).joined(separator: ", ")
    return names.count > 3 ? "\(shown) and \(names.count - 3) more" : shown
  }
}
