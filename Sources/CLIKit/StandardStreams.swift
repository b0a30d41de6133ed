import SafeInput

// The C library first (descriptors, signals), then Foundation for `Data`.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Standard output could not be written (closed, full disk, broken pipe): exit 1 with this message.
public struct OutputWriteError: Error, CustomStringConvertible {
  /// The system's reason, for example `No space left on device`.
  public let reason: String
  /// `cannot write to standard output: <reason>`.
  public var description: String { "cannot write to standard output: \(reason)" }
}

/// Makes the standard descriptors safe before anything else runs.
///
/// A broken pipe becomes an `EPIPE` error (reported, exit 1) instead of a silent `SIGPIPE` death,
/// and a closed descriptor 0, 1 or 2 is taken by `/dev/null` so that no file opened later lands on
/// it. A closed standard output gets `/dev/null` opened read-only: every write to it fails, and
/// the command reports that it could not write its output.
public func prepareStandardDescriptors() {
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

/// Writes a block of text (help, usage) to standard error as it is.
public func writeErrorText(_ text: String) {
  _ = writeAll(Array(text.utf8), to: 2)
}

/// Writes text to standard output without a trailing newline being added.
/// - Throws: `OutputWriteError` when standard output is closed, full or a broken pipe.
public func writeOutput(_ text: String) throws(OutputWriteError) {
  if let reason = writeAll(Array(text.utf8), to: 1) { throw OutputWriteError(reason: reason) }
}

/// Writes the bytes of a text (`layout`'s JSON) to standard output.
/// - Throws: `OutputWriteError` when standard output is closed, full or a broken pipe.
public func writeOutput(_ bytes: [UInt8]) throws(OutputWriteError) {
  if let reason = writeAll(bytes, to: 1) { throw OutputWriteError(reason: reason) }
}

/// Writes bytes (a picture for `-o -`) to standard output.
/// - Throws: `OutputWriteError` when standard output is closed, full or a broken pipe.
public func writeOutput(_ data: Data) throws(OutputWriteError) {
  let reason = data.withUnsafeBytes { Descriptor.writeAll($0, to: 1) }
  if let reason { throw OutputWriteError(reason: reason) }
}

/// Whether standard output is a terminal (where a PNG or PDF is not written).
public var standardOutputIsTerminal: Bool { isatty(1) == 1 }
