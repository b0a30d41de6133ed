import CLIKit
import Dispatch
import Primitives
import SafeInput
import Snapshot
import SnapshotReports
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

/// What the standard streams are connected to, and the manners that follow from it: colour and
/// a progress line only on a terminal that says it can take them.
///
/// A stream gets escape sequences (colour, the progress line's erase) only when it is a terminal
/// and `TERM` names one other than `dumb` (an unset `TERM` counts as dumb, as in cargo and
/// ripgrep). Colour also needs `NO_COLOR` to be unset: any value, even an empty one, turns it off
/// (https://no-color.org). Anything else (a pipe, a file, `/dev/null`) gets plain text only.
struct Terminal: Sendable {
  /// The process's environment.
  var environment: [String: String]
  /// Whether a descriptor is a terminal.
  var isTerminal: @Sendable (Int32) -> Bool

  /// This process: its environment (read once) and `isatty`.
  static let current = Terminal(
    environment: ProcessInfo.processInfo.environment, isTerminal: { isatty($0) == 1 })

  /// Whether `descriptor` is a terminal whose `TERM` is set and not `dumb`.
  func takesEscapes(_ descriptor: Int32) -> Bool {
    guard isTerminal(descriptor), let term = environment["TERM"], !term.isEmpty, term != "dumb"
    else {
      return false
    }
    return true
  }

  /// Whether text written to `descriptor` may be coloured.
  func colours(_ descriptor: Int32) -> Bool {
    environment["NO_COLOR"] == nil && takesEscapes(descriptor)
  }

  /// Whether a progress line may be drawn on standard error (it is rewritten in place).
  var showsProgress: Bool { takesEscapes(2) }

  /// The painter of summaries written to `descriptor`: ANSI colours when it takes them, else none.
  func painter(for descriptor: Int32) -> @Sendable (String, SummaryFormat.Tone) -> String {
    guard colours(descriptor) else { return { text, _ in text } }
    return { text, tone in ANSIColour.paint(text, tone) }
  }
}

/// ANSI SGR colours for the summary's tones.
enum ANSIColour {
  /// `text` in bold red (failure), yellow (warning) or green (success), then reset.
  static func paint(_ text: String, _ tone: SummaryFormat.Tone) -> String {
    let code: String
    switch tone {
    case .failure: code = "1;31"
    case .warning: code = "33"
    case .success: code = "32"
    }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }
}

/// The progress line of a verify or record run on a terminal's standard error:
/// `verify 37/142 · 2 failed · 1.4 s`, rewritten in place with `\r` and erased when the run ends.
///
/// Drawn only when standard error takes escapes (``Terminal/showsProgress``) and the run has at
/// least ``minimumReferences`` references; otherwise nothing at all is written.
final class ProgressLine: @unchecked Sendable {
  /// Runs of fewer references finish too soon for a progress line to help.
  static let minimumReferences = 10
  /// The least time between two redraws, in nanoseconds (a redraw per reference would flicker).
  static let redrawInterval: UInt64 = 100_000_000

  private let lock = ConditionLock()
  private let verb: String
  private let paint: @Sendable (String, SummaryFormat.Tone) -> String
  private let start = DispatchTime.now().uptimeNanoseconds
  private var lastDraw: UInt64 = 0
  /// Whether a drawing has shown a failure yet.
  private var failureShown = false
  private var latest: SnapshotProgress
  private var finished = false

  private init(
    verb: String, total: Int, paint: @escaping @Sendable (String, SummaryFormat.Tone) -> String
  ) {
    self.verb = verb
    self.paint = paint
    self.latest = SnapshotProgress(completed: 0, failed: 0, total: total)
  }

  /// Runs `body` with a progress callback for `total` references (nil when no line is shown), and
  /// erases the line when `body` returns or throws, before anything else is printed.
  static func around<Result>(
    _ verb: String, total: Int, terminal: Terminal = .current,
    _ body: ((@Sendable (SnapshotProgress) -> Void)?) throws -> Result
  ) throws -> Result {
    guard terminal.showsProgress, total >= minimumReferences else { return try body(nil) }
    let line = ProgressLine(verb: verb, total: total, paint: terminal.painter(for: 2))
    line.draw(force: true)
    defer { line.finish() }
    return try body { line.update($0) }
  }

  /// Notes the progress and redraws when the last redraw is old enough, or at once for the first
  /// failure (news that should not wait, even when the run ends within the redraw interval).
  func update(_ progress: SnapshotProgress) {
    lock.lock()
    defer { lock.unlock() }
    // Workers report out of order: keep the furthest.
    if progress.completed >= latest.completed { latest = progress }
    drawLocked(force: latest.failed > 0 && !failureShown)
  }

  private func draw(force: Bool) {
    lock.lock()
    defer { lock.unlock() }
    drawLocked(force: force)
  }

  private func drawLocked(force: Bool) {
    guard !finished else { return }
    let now = DispatchTime.now().uptimeNanoseconds
    guard force || now - lastDraw >= Self.redrawInterval else { return }
    lastDraw = now
    if latest.failed > 0 { failureShown = true }
    let seconds = Double(now - start) / 1e9
    var plain = "\(verb) \(latest.completed)/\(latest.total) · \(latest.failed) failed · "
    plain += String(cFormat: "%.1f s", seconds)
    let width = Self.columns()
    if plain.count >= width { plain = String(plain.prefix(max(0, width - 1))) }
    let failedText = "\(latest.failed) failed"
    let text =
      latest.failed > 0 && plain.contains(failedText)
      ? plain.replacingEvery(failedText, with: paint(failedText, .failure)) : plain
    // Back to the start of the line, the text, then erase what a longer earlier line left.
    writeErrorText("\r" + text + "\u{1B}[K")
  }

  /// Erases the line (once); nothing is drawn after.
  func finish() {
    lock.lock()
    defer { lock.unlock() }
    guard !finished else { return }
    finished = true
    writeErrorText("\r\u{1B}[K")
  }

  /// The width of the terminal on standard error, or 80 when it does not say.
  static func columns() -> Int {
    var size = winsize()
    if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 80
  }
}
