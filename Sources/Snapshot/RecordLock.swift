import Foundation
import SafeInput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock on a snapshots folder, held while `record` or `prune` writes in it.
///
/// The lock is `flock(2)` on the file `.record.lock` in the snapshots folder; the system releases
/// it when the holder exits, even after `kill -9`, so a stale lock never blocks. The holder
/// writes its process id, command and start time into the file, so that a second run that gives
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
  /// - Parameter command: what the holder is doing, written into the lock file (e.g. `snapshot record`).
  /// - Throws: `SnapshotError` naming the lock file and its holder when the wait times out, or
  ///   when the lock file cannot be opened.
  public static func acquire(in directory: URL, timeout: TimeInterval, command: String) throws(SnapshotError)
    -> SnapshotLock
  {
    let path = directory.appendingPathComponent(fileName).path
    let descriptor = path.withCString { open($0, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644) }
    guard descriptor >= 0 else {
      throw SnapshotError("\(MessageText.path(path)): cannot open the lock file: \(String(cString: strerror(errno)))")
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, FileType(mode: status.st_mode) == .regular else {
      close(descriptor)
      throw SnapshotError("\(MessageText.path(path)): the lock file is not a regular file")
    }
    let deadline = Date().addingTimeInterval(timeout)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw SnapshotError("\(MessageText.path(path)): cannot lock: \(reason)")
      }
      if Date() >= deadline {
        let holder = holderDescription(descriptor)
        close(descriptor)
        throw SnapshotError(
          "\(MessageText.path(path)): another run is writing this snapshots folder (\(holder)); waited \(Int(timeout.rounded())) s: let it finish or stop it, then run again")
      }
      usleep(50_000)
    }
    let note = "pid \(getpid()) (\(command)) since \(ISO8601DateFormatter().string(from: Date()))\n"
    _ = ftruncate(descriptor, 0)
    _ = Array(note.utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    return SnapshotLock(descriptor: descriptor)
  }

  /// What the holder wrote into the lock file, escaped and cut, or `holder unknown`.
  private static func holderDescription(_ descriptor: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return "holder unknown" }
    let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? "holder unknown" : "held by " + MessageText.value(text, limit: 160)
  }
}
