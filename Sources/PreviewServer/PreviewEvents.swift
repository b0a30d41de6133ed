#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The changes the open pages hear about: a generation number that grows with each, and one line
/// of data (JSON) saying what changed. Connections wait on it (``wait(after:seconds:)``) and send
/// each new generation as a server-sent event.
public final class PreviewEvents: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var generation = 0
  private var data: String
  private var stopped = false

  /// What a wait ended with.
  public enum Outcome: Equatable, Sendable {
    /// A newer generation and its data.
    case event(Int, String)
    /// Nothing new in the time given.
    case quiet
    /// The events stopped (the server is stopping).
    case stopped
  }

  /// Starts at generation 0 with `data`.
  public init(data: String) {
    self.data = data
    pthread_mutex_init(&mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    #if os(Linux)
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    #endif
    pthread_cond_init(&condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(&condition)
    pthread_mutex_destroy(&mutex)
  }

  /// The current generation and its data.
  public var latest: (Int, String) {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return (generation, data)
  }

  /// Starts a new generation with `data` and wakes every waiting connection; returns its number.
  @discardableResult
  public func publish(_ data: String) -> Int {
    pthread_mutex_lock(&mutex)
    generation += 1
    self.data = data
    let number = generation
    pthread_cond_broadcast(&condition)
    pthread_mutex_unlock(&mutex)
    return number
  }

  /// Ends every wait, now and later.
  public func stop() {
    pthread_mutex_lock(&mutex)
    stopped = true
    pthread_cond_broadcast(&condition)
    pthread_mutex_unlock(&mutex)
  }

  /// Waits until a generation after `seen` is published, the events stop, or `seconds` pass.
  public func wait(after seen: Int, seconds: Int) -> Outcome {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    var deadline = timespec()
    #if os(Linux)
      clock_gettime(CLOCK_MONOTONIC, &deadline)
    #else
      clock_gettime(CLOCK_REALTIME, &deadline)
    #endif
    deadline.tv_sec += seconds
    while !stopped && generation <= seen {
      if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT { break }
    }
    if stopped { return .stopped }
    return generation > seen ? .event(generation, data) : .quiet
  }
}
