#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that several threads share, reached only through ``withLock(_:)``.
///
/// The one lock helper of the package: worker slots, caches and pools are a `Locked` of a plain
/// value rather than a class with a lock and hand-written accessors. (Synchronization's `Mutex`
/// does the same but needs macOS 15; the package supports macOS 14. Foundation's `NSLock` is not
/// used: linking Foundation costs every run of the command-line tool about 2.5 ms at start-up.)
///
/// The lock is not recursive: `body` must not call `withLock` on the same value. A `Locked` is
/// `Sendable` when its value is: the lock orders the accesses, the value's own conformance makes it
/// safe to hand from one thread to the next.
public final class Locked<Value> {
  private let lock = ConditionLock()
  private var value: Value

  /// Wraps `value`.
  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value while holding the lock, and returns what it returns.
  public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
    throws(Failure)
    -> Result
  {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

extension Locked: @unchecked Sendable where Value: Sendable {}

/// A POSIX mutex with one condition variable: ``lock()``, ``unlock()``, and ``wait()`` /
/// ``broadcast()`` for a thread that waits on what another publishes.
public final class ConditionLock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  /// A new, unlocked lock.
  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Takes the lock, waiting while another thread holds it.
  public func lock() {
    pthread_mutex_lock(mutex)
  }

  /// Releases the lock.
  public func unlock() {
    pthread_mutex_unlock(mutex)
  }

  /// Releases the lock until ``broadcast()`` is called (or spuriously), then takes it again;
  /// call it while holding the lock, in a loop that checks what is waited for.
  public func wait() {
    pthread_cond_wait(condition, mutex)
  }

  /// Wakes every thread in ``wait()``.
  public func broadcast() {
    pthread_cond_broadcast(condition)
  }
}

/// Starts `body` on a new POSIX thread of its own (not a Dispatch worker, so it runs even while
/// every worker waits for it); false when the system refuses a thread, and then `body` never runs.
@discardableResult
public func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
  let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  var thread = pthread_t()
  let started = pthread_create(&thread, nil, runThreadBody, context)
  guard started == 0 else {
    Unmanaged<ThreadBody>.fromOpaque(context).release()
    return false
  }
  pthread_detach(thread)
  return true
}

/// Work started on POSIX threads of its own (``startThread(_:)``: no Dispatch, so no descriptor
/// of Dispatch's event loop is opened), and a wait for all of it to end.
public final class ThreadGroup: @unchecked Sendable {
  private let condition = ConditionLock()
  private var running = 0

  /// An empty group.
  public init() {}

  /// Runs `body` on a new thread of the group; on this thread, before returning, when the
  /// system refuses a thread.
  public func start(_ body: @escaping @Sendable () -> Void) {
    condition.lock()
    running += 1
    condition.unlock()
    let started = startThread { [self] in
      body()
      finished()
    }
    if !started {
      body()
      finished()
    }
  }

  /// Counts one more piece of work that another thread runs; that thread calls ``leave()`` when
  /// it is done.
  public func enter() {
    condition.lock()
    running += 1
    condition.unlock()
  }

  /// Ends a piece of work counted by ``enter()``.
  public func leave() {
    finished()
  }

  /// Returns once every body started so far has returned.
  public func wait() {
    condition.lock()
    while running > 0 { condition.wait() }
    condition.unlock()
  }

  private func finished() {
    condition.lock()
    running -= 1
    condition.broadcast()
    condition.unlock()
  }
}

/// The closure a thread of ``startThread(_:)`` runs.
private final class ThreadBody {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The C entry point of a thread of ``startThread(_:)``: runs and releases its ``ThreadBody``.
private func runThreadBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let context else { return nil }
  Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
  return nil
}
