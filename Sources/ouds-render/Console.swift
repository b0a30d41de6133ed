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

/// Standard output could not be written (closed, full disk, broken pipe): exit 1 with this message.
struct OutputWriteError: Error, CustomStringConvertible {
  /// The system's reason, for example `No space left on device`.
  let reason: String
  /// `cannot write to standard output: <reason>`.
  var description: String { "cannot write to standard output: \(reason)" }
}

/// Makes the standard descriptors safe before anything else runs.
///
/// A broken pipe becomes an `EPIPE` error (reported, exit 1) instead of a silent `SIGPIPE` death,
/// and a closed descriptor 0, 1 or 2 is taken by `/dev/null` so that no file opened later lands on
/// it. A closed standard output gets `/dev/null` opened read-only: every write to it fails, and
/// the command reports that it could not write its output.
func prepareStandardDescriptors() {
  signal(SIGPIPE, SIG_IGN)
  for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
    let flags = descriptor == 2 ? O_WRONLY : O_RDONLY
    let opened = open("/dev/null", flags | O_CLOEXEC)
    if opened >= 0, opened != descriptor {
      dup2(opened, descriptor)
      close(opened)
    }
  }
}

/// Writes all of `bytes` to `descriptor`; the system's reason on failure.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
  bytes.withUnsafeBytes { Descriptor.writeAll($0, to: descriptor) }
}

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
  _ = writeAll(Array((text + "\n").utf8), to: 2)
}

/// While watch mode re-renders, the lines ``printError(_:)`` is given, held back in order (it
/// prints a summary instead); nil the rest of the time.
let heldErrorLines = Locked<[String]?>(nil)

/// Writes a block of text (help, usage) to standard error as it is.
func writeErrorText(_ text: String) {
  _ = writeAll(Array(text.utf8), to: 2)
}

/// Writes text to standard output without a trailing newline being added.
/// - Throws: `OutputWriteError` when standard output is closed, full or a broken pipe.
func writeOutput(_ text: String) throws(OutputWriteError) {
  if let reason = writeAll(Array(text.utf8), to: 1) { throw OutputWriteError(reason: reason) }
}

/// Writes the bytes of a text (`layout`'s JSON) to standard output.
/// - Throws: `OutputWriteError` when standard output is closed, full or a broken pipe.
func writeOutput(_ bytes: [UInt8]) throws(OutputWriteError) {
  if let reason = writeAll(bytes, to: 1) { throw OutputWriteError(reason: reason) }
}

/// Writes bytes (a picture for `-o -`) to standard output.
/// - Throws: `OutputWriteError` when standard output is closed, full or a broken pipe.
func writeOutput(_ data: Data) throws(OutputWriteError) {
  let reason = data.withUnsafeBytes { Descriptor.writeAll($0, to: 1) }
  if let reason { throw OutputWriteError(reason: reason) }
}

/// Whether standard output is a terminal (where a PNG or PDF is not written).
var standardOutputIsTerminal: Bool { isatty(1) == 1 }

/// Exit codes of every subcommand.
enum ExitStatus {
  /// Success.
  static let success: Int32 = 0
  /// Bad input, a failed render, or differences found.
  static let failure: Int32 = 1
  /// A usage mistake on the command line.
  static let usage: Int32 = 2
}

/// Runs a command body, mapping errors to messages and exit codes: a ``UsageError`` is followed by
/// a pointer to the command's `--help` and exits 2, any other error exits 1.
func runReportingErrors(command: String, _ body: () throws -> Int32) -> Int32 {
  do {
    return try body()
  } catch let error as UsageError {
    printError("error: \(error)")
    printError("See '\(ParsedArguments.commandLine(command)) --help'.")
    return ExitStatus.usage
  } catch {
    printError("error: \(error)")
    return ExitStatus.failure
  }
}
