import CLIKit
import Dispatch
import FileWatch
import Graphics
import SafeInput
import Threads

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

/// `--watch`: render once, then again whenever a file the render depends on changes, until
/// SIGINT or SIGTERM.
///
/// The loop waits on inotify (no polling): ``FileWatch/FolderWatcher`` watches the folders of the
/// files, ``FileWatch/WatchTargets`` says which of their entries count. A burst of changes (an
/// editor's save is several events) is one re-render once ``quietPeriod`` passes without another,
/// or at most ``FileWatch/FolderWatcher/longestBurst`` after the first. Each re-render prints one
/// line on stderr: what was written, how long it took and what changed; a failed one prints its
/// error and the loop goes on (the output keeps its last good version: writes are atomic).
struct WatchLoop {
  /// The quiet time that ends a burst of changes: 100 ms.
  static let quietPeriod: UInt64 = 100_000_000

  /// What counts as a change, before the render adds the files it read.
  var targets: WatchTargets
  /// The output as given (`-o`), for the re-render lines.
  var outputName: String
  /// What is watched, in words, for the line after the first render.
  var summary: String

  /// The files the running render read (``note(_:)``), or nil when not watching.
  private static let noted = Locked<Set<String>?>(nil)

  /// Notes files a render reads (the list and its icons, case files, font files…), so that watch
  /// mode re-renders when they change; does nothing (nor evaluates `files`) when not watching.
  static func note(_ files: @autoclosure () -> [String]) {
    guard noted.withLock({ $0 != nil }) else { return }
    let paths = files().map(WatchTargets.normalized)
    noted.withLock { $0?.formUnion(paths) }
  }

  /// Renders with `render` (a command's run without watch mode), then watches; returns exit
  /// status 0 once stopped by a signal.
  /// - Throws: a ``UsageError`` of the first render, or a ``WatchError`` (a limit, a folder that
  ///   cannot be watched); render errors are printed, not thrown.
  func run(_ render: () throws -> Int32) throws -> Int32 {
    // the loading of the drawing libraries holds descriptors for a moment: let it end first, so
    // that the watch's own descriptors are counted against the limit alone
    GraphicsLibraries.finishPreloading()
    let signals = try StopSignals()
    let watcher = try FolderWatcher()
    try watcher.update(targets, starting: true)
    var readFiles: Set<String> = []

    // The first render prints as without --watch.
    var warnings: Set<String> = []
    let first = try Self.rendering(render, signals: signals)
    for line in first.lines { printError(line) }
    if case .failure(let error) = first.outcome {
      if error is UsageError { throw error }
      printError("error: \(error)")
    }
    warnings = first.warnings
    readFiles = first.files ?? readFiles
    try watcher.update(targets.adding(files: readFiles))
    if !signals.stopRequested {
      printError(
        "watching \(summary) (\(watcher.folderCount) folder\(watcher.folderCount == 1 ? "" : "s")); Ctrl-C stops"
      )
    }

    var count = 0
    while let changed = try watcher.burst(signals, quietPeriod: Self.quietPeriod) {
      let before = try watcher.update(targets.adding(files: readFiles))
      let start = DispatchTime.now().uptimeNanoseconds
      let result = try Self.rendering(render, signals: signals)
      let milliseconds = (DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
      count += 1
      readFiles = result.files ?? readFiles
      let targetsNow = targets.adding(files: readFiles)
      let folders = before.merged(with: try watcher.update(targetsNow))
      // `; the themes folder Themes was replaced: watching the new one`
      func clause(_ paths: [String], _ one: String, _ several: String) -> String {
        guard !paths.isEmpty else { return "" }
        return "; " + HelpText.words(paths.map(targetsNow.describe(folder:)), joinedBy: "and")
          + (paths.count == 1 ? one : several)
      }
      let replaced =
        clause(
          folders.replaced, " was replaced: watching the new one",
          " were replaced: watching the new ones")
        + clause(folders.back, " is back: watching it again", " are back: watching them again")
      switch result.outcome {
      case .success:
        printError(
          "re-rendered \(outputName) in \(milliseconds) ms (changed: \(WatchTargets.describe(changed))\(replaced))"
        )
        for line in result.lines where line.hasPrefix("error: ") { printError(line) }
        for line in result.lines where line.hasPrefix("warning: ") && !warnings.contains(line) {
          printError(line)
        }
        warnings = result.warnings
      case .failure(let error):
        for line in result.lines where line.hasPrefix("error: ") { printError(line) }
        printError("error: \(error)")
        if !replaced.isEmpty { printError(String(replaced.dropFirst(2))) }
      }
      for folder in folders.gone {
        printError(
          "\(targetsNow.describe(folder: folder)) is gone: waiting for it to come back (Ctrl-C stops)"
        )
      }
      if signals.stopRequested { break }
    }
    let plural = count == 1 ? "" : "s"
    printError(
      "stopped watching (\(signals.firstSignalName ?? "SIGINT")) after \(count) re-render\(plural)")
    return ExitStatus.success
  }

  /// One render: its outcome, the lines it printed (held back), and the files it noted (nil
  /// when it failed before reading its inputs).
  private struct Rendered {
    var outcome: Result<Int32, any Error>
    var lines: [String]
    var files: Set<String>?

    /// The warning lines.
    var warnings: Set<String> { Set(lines.filter { $0.hasPrefix("warning: ") }) }
  }

  private static func rendering(_ render: () throws -> Int32, signals: StopSignals) throws
    -> Rendered
  {
    noted.withLock { $0 = [] }
    heldErrorLines.withLock { $0 = [] }
    let outcome = signals.rendering { Result { try render() } }
    let lines = heldErrorLines.withLock { held in
      defer { held = nil }
      return held ?? []
    }
    let files = noted.withLock { files in
      defer { files = nil }
      return files
    }
    return Rendered(outcome: outcome, lines: lines, files: files?.isEmpty == false ? files : nil)
  }
}
