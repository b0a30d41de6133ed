import Foundation

/// A value that several threads share, reached only through ``withLock(_:)``.
///
/// The one lock helper of the package: worker slots, caches and pools are a `Locked` of a plain
/// value rather than a class with a lock and hand-written accessors. (Synchronization's `Mutex`
/// does the same but needs macOS 15; the package supports macOS 14.)
///
/// The lock is not recursive: `body` must not call `withLock` on the same value. A `Locked` is
/// `Sendable` when its value is: the lock orders the accesses, the value's own conformance makes it
/// safe to hand from one thread to the next.
public final class Locked<Value> {
  private let lock = NSLock()
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
