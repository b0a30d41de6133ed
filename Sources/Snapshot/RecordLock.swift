import Primitives
import SafeInput

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

/// A lock on a snapshots folder: exclusive while `record` or `prune` writes in it, shared while
/// `verify` reads it.
///
/// The lock is `flock(2)` on the file `.record.lock` in the snapshots folder; the system releases
/// it when the holder exits, even after `kill -9`, so a stale lock never blocks. Any number of
/// verify runs (CI shards of one checkout) read at once; a record waits for them, and they wait
/// for a record, so a verify never compares against half-rewritten references. The exclusive
/// holder writes its process id, command and start time into the file, so that a run that gives
/// up waiting can say who holds the lock.
public final class SnapshotLock {
  /// The lock file's name inside the snapshots folder.
  public static let fileName = ".record.lock"

  private let descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// Takes the lock of `directory`, waiting up to `timeout` seconds while another process holds it.
  /// - Parameters:
  ///   - command: what the holder is doing, written into the lock file (e.g. `snapshot record`).
  ///   - waiting: called once, with who holds the lock, when the lock is not free at once.
  /// - Throws: `SnapshotError` naming the lock file and its holder when the wait times out, or
  ///   when the lock file cannot be opened.
  public static func acquire(
    in directory: URL, timeout: TimeInterval, command: String,
    waiting: ((String) -> Void)? = nil
  )
    throws(SnapshotError)
    -> SnapshotLock
  {
    let path = directory.appendingPathComponent(fileName).path
    let descriptor = path.withCString {
      open($0, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
    }
    guard descriptor >= 0 else {
      throw .lock(path: path, .cannotOpen(reason: String(cString: strerror(errno))))
    }
    try wait(descriptor, path: path, operation: LOCK_EX, timeout: timeout, waiting: waiting)
    let note = "pid \(getpid()) (\(command)) since \(utcTimestamp())\n"
    _ = ftruncate(descriptor, 0)
    _ = Array(note.utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    return SnapshotLock(descriptor: descriptor)
  }

  /// Takes the lock of `directory` shared (for reading, as `verify` does), waiting up to `timeout`
  /// seconds while a `record` or `prune` holds it; other shared holders do not block it.
  ///
  /// Returns nil, reading without a lock, when the folder is read-only and holds no lock file
  /// (then no run can be writing it either).
  /// - Throws: `SnapshotError` naming the lock file and its holder when the wait times out, or
  ///   when the lock file is not a regular file.
  public static func acquireShared(in directory: URL, timeout: TimeInterval) throws(SnapshotError)
    -> SnapshotLock?
  {
    let path = directory.appendingPathComponent(fileName).path
    var descriptor = path.withCString {
      open($0, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
    }
    if descriptor < 0 && (errno == EACCES || errno == EROFS || errno == EPERM) {
      // A folder this user cannot write: a lock file someone else made can still be locked shared.
      descriptor = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
      if descriptor < 0 && errno == ENOENT { return nil }
    }
    guard descriptor >= 0 else {
      throw .lock(path: path, .cannotOpen(reason: String(cString: strerror(errno))))
    }
    try wait(descriptor, path: path, operation: LOCK_SH, timeout: timeout)
    return SnapshotLock(descriptor: descriptor)
  }

  /// Locks `descriptor` with `operation` (`LOCK_EX`, `LOCK_SH`), polling until `timeout`; closes
  /// the descriptor and throws when the file is not a regular file or the wait times out.
  private static func wait(
    _ descriptor: Int32, path: String, operation: Int32, timeout: TimeInterval,
    waiting: ((String) -> Void)? = nil
  )
    throws(SnapshotError)
  {
    var status = stat()
    guard fstat(descriptor, &status) == 0, FileType(mode: status.st_mode) == .regular else {
      close(descriptor)
      throw .lock(path: path, .notRegularFile)
    }
    let deadline = Date().addingTimeInterval(timeout)
    var told = false
    while flock(descriptor, operation | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw .lock(path: path, .cannotLock(reason: reason))
      }
      if Date() >= deadline {
        let holder = holderDescription(descriptor, wantsExclusive: operation == LOCK_EX)
        close(descriptor)
        throw .lock(path: path, .held(by: holder, waitedSeconds: Int(timeout.rounded())))
      }
      if !told, let waiting {
        told = true
        waiting(holderDescription(descriptor, wantsExclusive: operation == LOCK_EX))
      }
      usleep(50_000)
    }
  }

  /// Who blocks: `reading this snapshots folder (snapshot verify)` when only shared holders do,
  /// else `writing this snapshots folder (held by <what the holder wrote>)`, escaped and cut.
  private static func holderDescription(_ descriptor: Int32, wantsExclusive: Bool) -> String {
    // Blocked from an exclusive lock but granted a shared one: the holders are readers.
    if wantsExclusive, flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
      flock(descriptor, LOCK_UN)
      return "reading this snapshots folder (snapshot verify)"
    }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    let text =
      count > 0
      ? String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespaceAndNewlines() : ""
    let holder = text.isEmpty ? "holder unknown" : "held by " + MessageText.value(text, limit: 160)
    return "writing this snapshots folder (\(holder))"
  }
}

/// The current time in UTC as ISO 8601 to the second: `2026-12-01T10:45:07Z`.
private func utcTimestamp() -> String {
  var now = time(nil)
  var parts = tm()
  var buffer = [CChar](repeating: 0, count: 32)
  guard gmtime_r(&now, &parts) != nil,
    strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts) > 0
  else { return "unknown time" }
  return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
