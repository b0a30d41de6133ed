import SafeInput
import Threads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT, SIGTERM, SIGHUP (a closed terminal) and SIGQUIT while watching: taken by one thread (`sigwait`), never by a handler, and
/// passed to the watch loop through a pipe it polls beside the inotify descriptor.
///
/// A signal never cuts a render short: the loop stops once the render in progress is written
/// (so no temporary file is left behind), and says so at once. A second signal during that
/// render stops the process at once, with exit status 130.
public final class StopSignals: @unchecked Sendable {
  /// The end the watch loop polls: readable once a signal came.
  public let readEnd: Int32
  private let writeEnd: Int32
  private let state = Locked(State())

  private struct State {
    var received: [Int32] = []
    var rendering = false
  }

  /// Blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT in this thread (and so in every thread started after) and starts
  /// the thread that waits for them.
  /// - Throws: ``WatchError`` when the pipe cannot be made.
  public init() throws(WatchError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw WatchError.system(errno, "cannot wait for signals")
    }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
    var set = Self.signalSet()
    pthread_sigmask(SIG_BLOCK, &set, nil)
    startThread { [self] in
      self.waitForSignals()
    }
  }

  private static func signalSet() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGHUP)
    sigaddset(&set, SIGQUIT)
    return set
  }

  /// The name of the first signal received (`SIGINT`), or nil.
  public var firstSignalName: String? {
    state.withLock { $0.received.first }.map { Self.names[$0] ?? "signal \($0)" }
  }

  /// The names of the signals that stop a watch.
  private static let names: [Int32: String] = [
    SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT",
  ]

  /// Whether a stop was asked for.
  public var stopRequested: Bool { state.withLock { !$0.received.isEmpty } }

  /// Runs `body` as a render: a signal meanwhile waits for it to end.
  public func rendering<T>(_ body: () throws -> T) rethrows -> T {
    state.withLock { $0.rendering = true }
    defer { state.withLock { $0.rendering = false } }
    return try body()
  }

  /// Writes `text` to standard error as it is (from the signal thread, which holds no lock).
  private static func writeError(_ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { Descriptor.writeAll($0, to: 2) }
  }

  private func waitForSignals() {
    var set = Self.signalSet()
    while true {
      var number: Int32 = 0
      guard sigwait(&set, &number) == 0 else { continue }
      let (count, rendering) = state.withLock { state -> (Int, Bool) in
        state.received.append(number)
        return (state.received.count, state.rendering)
      }
      if rendering {
        if count == 1 {
          Self.writeError(
            "stopping once this render is written (interrupt again to stop at once)\n")
        } else {
          Self.writeError(
            "stopped at once during a render (exit 130): a temporary file .<name>.<id>.tmp may be left beside the output\n"
          )
          _exit(130)
        }
      }
      var byte: UInt8 = 1
      _ = write(writeEnd, &byte, 1)
    }
  }
}
