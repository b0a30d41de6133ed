import Threads

/// Runs renders one at a time on a thread of its own (the drawing libraries are used from one
/// thread), for requests that arrive on many: at most ``limit`` wait, later ones are refused.
public final class RenderQueue: @unchecked Sendable {
  /// The most requests waiting or rendering at once.
  public let limit: Int
  private let condition = ConditionLock()
  private var jobs: [Job] = []
  private var stopped = false

  private final class Job {
    let body: () -> Any
    var result: Any?
    init(_ body: @escaping () -> Any) { self.body = body }
  }

  /// Starts the render thread.
  public init(limit: Int) {
    self.limit = limit
    _ = startThread { [self] in self.work() }
  }

  /// Runs `body` on the render thread and returns its result, or nil when ``limit`` requests are
  /// already waiting or the queue has stopped.
  public func run<Result>(_ body: @escaping () -> Result) -> Result? {
    let job = Job { body() }
    condition.lock()
    defer { condition.unlock() }
    guard !stopped, jobs.count < limit else { return nil }
    jobs.append(job)
    condition.broadcast()
    while job.result == nil && !stopped { condition.wait() }
    return job.result as? Result
  }

  /// Refuses new renders and lets the waiting requests go (the render in progress ends first).
  public func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  private func work() {
    while true {
      condition.lock()
      while jobs.isEmpty && !stopped { condition.wait() }
      if stopped {
        condition.unlock()
        return
      }
      let job = jobs[0]
      condition.unlock()
      let result = job.body()
      condition.lock()
      jobs.removeFirst()
      job.result = result
      condition.broadcast()
      condition.unlock()
    }
  }
}
