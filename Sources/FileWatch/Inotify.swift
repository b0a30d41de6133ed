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

/// One change the kernel reported in a watched folder.
public struct FolderEvent: Hashable, Sendable {
  /// The watch the event belongs to; -1 for a queue overflow.
  public var watch: Int32
  /// The inotify mask (`IN_CREATE`, `IN_MOVED_TO`…).
  public var mask: UInt32
  /// The entry of the folder it concerns; empty for the folder itself.
  public var name: String
}

/// Why watch mode cannot (or can no longer) watch: one line naming the folder or the limit, exit 1.
public struct WatchError: Error, CustomStringConvertible, Equatable {
  /// The message, after `--watch: `.
  public var reason: String

  /// `--watch: <reason>`.
  public var description: String { "--watch: \(reason)" }

  /// The error of `reason`.
  public init(reason: String) { self.reason = reason }

  /// A system limit named by its setting and value: `fs.inotify.max_user_watches = 8192`.
  public static func setting(_ name: String) -> String {
    let file = "/proc/sys/" + name.replacingEvery(".", with: "/")
    let value = (try? String(contentsOfFile: file, encoding: .utf8))?
      .trimmingWhitespaceAndNewlines()
    return "\(name) = \(value.flatMap { Int($0) }.map(String.init) ?? "unknown")"
  }

  /// `ulimit -n = 1024`: the soft limit of open descriptors of this process.
  public static var openFileLimit: String {
    "ulimit -n = \(openFileSoftLimit().map(String.init) ?? "unlimited")"
  }

  /// `inotify_init1` failed with `code`.
  public static func instance(_ code: Int32) -> WatchError {
    // EMFILE is the code of two limits: this process's descriptors, or the user's inotify
    // instances. Listing /proc/self/fd needs a descriptor too: when even that fails, they are
    // used up.
    if code == EMFILE, openFileSoftLimit().map({ (openDescriptorCount() ?? $0) + 1 < $0 }) ?? true {
      return WatchError(
        reason:
          "cannot start watching: the limit of inotify instances per user is reached (\(setting("fs.inotify.max_user_instances"))); close other watchers or raise it"
      )
    }
    return system(code, "cannot start watching")
  }

  /// `what` failed with `code`; the limit reached when it is one of open files.
  public static func system(_ code: Int32, _ what: String) -> WatchError {
    switch code {
    case EMFILE:
      return WatchError(
        reason: "\(what): the limit of open files of this process is reached (\(openFileLimit))")
    case ENFILE:
      return WatchError(
        reason: "\(what): the system's limit of open files is reached (\(setting("fs.file-max")))")
    default:
      return WatchError(reason: "\(what): \(systemText(code))")
    }
  }

  /// `inotify_add_watch` failed with `code` for a folder that had to be watched.
  public static func folder(_ path: String, _ code: Int32) -> WatchError {
    switch code {
    case ENOSPC:
      return WatchError(
        reason:
          "the limit of inotify watches per user is reached (\(setting("fs.inotify.max_user_watches"))) while adding \(MessageText.path(path)); raise it (sysctl) or watch a smaller themes folder"
      )
    case ENOMEM:
      return WatchError(
        reason:
          "the kernel has no memory left for another inotify watch (adding \(MessageText.path(path)))"
      )
    default:
      return system(code, "cannot watch folder \(MessageText.path(path))")
    }
  }

  /// The system's text for `code`, lower-case first: `no such file or directory`.
  public static func systemText(_ code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }

  /// The number of descriptors this process has open, or nil when they cannot be listed.
  private static func openDescriptorCount() -> Int? {
    try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
  }

  /// The soft limit of open descriptors of this process; nil when unlimited or unknown.
  private static func openFileSoftLimit() -> Int? {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
    else { return nil }
    return Int(clamping: limit.rlim_cur)
  }
}

/// What adding a watch gave.
enum WatchAddition {
  /// The watch (the same for two paths of one folder).
  case watching(Int32)
  /// The system's error code.
  case failed(Int32)
}

#if os(Linux)
  /// One inotify instance: a descriptor the kernel queues folder events on.
  ///
  /// Folders, not files, are watched: an editor that saves by writing a temporary file and renaming
  /// it over the original replaces the file's inode, which would end a watch on the file, while the
  /// folder's watch reports the rename (`IN_MOVED_TO`) and lives on.
  public final class Inotify {
    /// The events every folder is watched for: entries created, written, renamed in or out,
    /// deleted or touched, and the folder itself deleted or moved.
    static let folderMask =
      UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE)
      | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF)
      | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR) | UInt32(IN_EXCL_UNLINK)

    /// The descriptor to poll; closed with the instance.
    public let descriptor: Int32
    /// Where read events are put together (inotify hands out whole events only).
    private let buffer: UnsafeMutableRawPointer
    private static let bufferSize = 64 * 1024

    /// Opens an instance (non-blocking, closed on exec).
    /// - Throws: ``WatchError`` naming the limit reached.
    public init() throws(WatchError) {
      let opened = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
      guard opened >= 0 else { throw WatchError.instance(errno) }
      descriptor = opened
      buffer = UnsafeMutableRawPointer.allocate(
        byteCount: Self.bufferSize, alignment: MemoryLayout<UInt32>.alignment)
    }

    deinit {
      close(descriptor)
      buffer.deallocate()
    }

    /// Watches the folder `path` (not following it when it is a symbolic link and `follow` is
    /// false); returns the watch, or the system's error code.
    func add(folder path: String, follow: Bool) -> WatchAddition {
      var mask = Self.folderMask
      if !follow { mask |= UInt32(IN_DONT_FOLLOW) }
      let watch = inotify_add_watch(descriptor, path, mask)
      return watch >= 0 ? .watching(watch) : .failed(errno)
    }

    /// Stops the watch `watch` (the kernel then queues an `IN_IGNORED` event for it).
    func remove(_ watch: Int32) {
      _ = inotify_rm_watch(descriptor, watch)
    }

    /// The events queued now, without waiting (empty when there are none).
    public func pendingEvents() -> [FolderEvent] {
      var events: [FolderEvent] = []
      while true {
        let count = read(descriptor, buffer, Self.bufferSize)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        var offset = 0
        // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len] (NUL-padded).
        while offset + 16 <= count {
          let watch = buffer.load(fromByteOffset: offset, as: Int32.self)
          let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
          let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
          let start = offset + 16
          guard start + length <= count else { break }
          let bytes = UnsafeRawBufferPointer(start: buffer + start, count: length)
          let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
          events.append(FolderEvent(watch: watch, mask: mask, name: name))
          offset = start + length
        }
      }
      return events
    }
  }
#else
  /// Watch mode needs Linux's inotify; elsewhere it is refused with this message.
  public final class Inotify {
    /// Never used.
    public let descriptor: Int32 = -1
    /// Refuses: no inotify on this system.
    public init() throws(WatchError) {
      throw WatchError(
        reason: "watch mode needs Linux (inotify); it is not available on this system")
    }
    /// Never used.
    func add(folder path: String, follow: Bool) -> WatchAddition { .failed(ENOSYS) }
    /// Never used.
    func remove(_ watch: Int32) {}
    /// Never used.
    public func pendingEvents() -> [FolderEvent] { [] }
  }
#endif
