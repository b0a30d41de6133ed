import CLIKit
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

/// Writes one line to standard error, escaped and cut as by ``MessageText/line(_:)``.
///
/// A message that cannot be written (standard error closed or full) is dropped: there is nowhere
/// left to report it.
///
/// On a terminal that takes colour (``Terminal/colours(_:)``), a leading `error:` is painted red
/// and `warning:` yellow; the message itself is never coloured.
func printError(_ line: String) {
  if heldErrorLines.withLock({ held in
    held?.append(line)
    return held != nil
  }) {
    return
  }
  var text = MessageText.line(line)
  if Terminal.current.colours(2) {
    for (prefix, tone) in [("error:", SummaryFormat.Tone.failure), ("warning:", .warning)]
    where text.hasPrefix(prefix + " ") {
      text = ANSIColour.paint(prefix, tone) + text.dropFirst(prefix.count)
      break
    }
  }
  _ = Array((text + "\n").utf8).withUnsafeBytes { Descriptor.writeAll($0, to: 2) }
}

/// While watch mode re-renders, the lines ``printError(_:)`` is given, held back in order (it
/// prints a summary instead); nil the rest of the time.
let heldErrorLines = Locked<[String]?>(nil)
