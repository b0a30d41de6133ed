import SafeInput
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

/// The SHA-256 of font files, remembered between runs in a file of the user's cache folder, so
/// that a run hashes a font file only when it changed.
///
/// An entry is keyed by the file's path and trusted only while the file's ``SafeInput/FileIdentity``
/// (size, modification and status-change times in nanoseconds, device, inode) is the one it was
/// hashed with, and only when the file had not changed for ``racyWindow`` when it was hashed (a
/// file written again within the file system's clock tick could otherwise keep its times). Any
/// other file is hashed, and the result recorded when the file did not change while it was read.
///
/// The file is `$XDG_CACHE_HOME/ouds-render/font-hashes` (an absolute `XDG_CACHE_HOME`), else
/// `~/.cache/ouds-render/font-hashes`. It is a user input like any other: read as a regular file
/// of at most 1 MiB (a FIFO, a device or a larger file is ignored), and a file that does not parse
/// line for line is ignored whole. It is rewritten atomically after a hash is recorded (never
/// through a symbolic link, never over anything but a regular file), and a cache that cannot be
/// read or written only costs the hashing (``unwritable`` says why it could not be written). What it cannot see: a font rewritten with its size,
/// both times, device and inode unchanged, which takes setting the system clock back or writing
/// the disk device; deleting the file makes every font be hashed again.
///
/// Thread-safe.
public final class FontHashCache: Sendable {
  /// The folder under the cache home.
  public static let folderName = "ouds-render"
  /// The cache file's name.
  public static let fileName = "font-hashes"
  /// The most entries kept; the oldest recorded go first.
  public static let maxEntries = 4096
  /// The first line of the file (its format).
  static let header = "ouds-render font hashes 1"

  /// The cache file; nil keeps hashes for this process only.
  public let file: URL?
  /// How long, in nanoseconds, a file must have been unchanged when hashed for the hash to be
  /// trusted later (2 s: far above any file system's clock tick).
  let racyWindow: Int64

  private struct Entry: Hashable, Sendable {
    var sha256: String
    var identity: FileIdentity
    /// When the file was hashed, nanoseconds since 1970.
    var recorded: Int64
  }

  private struct State: Sendable {
    var entries: [String: Entry] = [:]
    var loaded = false
    var hashed: [String] = []
    /// Why the file could not be written, the first time.
    var unwritable: String?
  }

  private let state = Locked(State())
  /// Reads a font file and gives its SHA-256 (lower-case hex) and the identity of the file read:
  /// GLib's digest (``SHA256Digest``), handed in by `FontHashCache(file:)`.
  private let hashing: @Sendable (String) throws -> (sha256: String, identity: FileIdentity)

  /// A cache kept in `file` (nil: in this process only) that hashes files with `hashing`; a hash
  /// is trusted only for a file unchanged `racyWindow` nanoseconds before it was hashed.
  public init(
    file: URL?, racyWindow: Int64 = 2_000_000_000,
    hashing: @escaping @Sendable (String) throws -> (sha256: String, identity: FileIdentity)
  ) {
    self.file = file
    self.racyWindow = racyWindow
    self.hashing = hashing
  }

  /// `$XDG_CACHE_HOME/ouds-render/font-hashes` when `XDG_CACHE_HOME` is an absolute path, else
  /// `$HOME/.cache/ouds-render/font-hashes`; nil when neither is set to an absolute path.
  public static func defaultFile(environment: [String: String]) -> URL? {
    let home: URL
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
      home = URL(fileURLWithPath: cache)
    } else if let user = environment["HOME"], user.hasPrefix("/") {
      home = URL(fileURLWithPath: user).appendingPathComponent(".cache")
    } else {
      return nil
    }
    return home.appendingPathComponent(folderName).appendingPathComponent(fileName)
  }

  /// Why the cache file could not be written (`cannot write ~/.cache/ouds-render/font-hashes:
  /// …`, a read-only home folder), the first time it could not; nil while it can be or was never
  /// written. The cache then keeps its hashes for this process only and tries no more, so a run
  /// says it once (``BulletListRenderer`` ends its sources line with it).
  public var unwritable: String? { state.withLock { $0.unwritable } }

  /// The paths hashed by this process (cache misses), in order: what a test or a trace checks.
  public var hashedPaths: [String] { state.withLock { $0.hashed } }

  /// The SHA-256 of the font file at `url`: the cached one when the file's identity is the one it
  /// was hashed with, else computed (and recorded, the cache file rewritten). Nil for anything
  /// but a readable regular file within the font size limit.
  public func sha256(of url: URL) -> String? {
    let path = url.path
    guard let before = UserFile.identity(atPath: path) else { return nil }
    let cached: Entry? = state.withLock { state in
      if !state.loaded {
        state.entries = load()
        state.loaded = true
      }
      return state.entries[path]
    }
    if let cached, cached.identity == before, cached.recorded - before.changed >= racyWindow,
      cached.recorded - before.modified >= racyWindow
    {
      return cached.sha256
    }
    guard let (sha, identity) = try? hashing(path)
    else { return nil }
    let recorded = Self.now()
    let unchanged = identity == before && UserFile.identity(atPath: path) == identity
    let snapshot: [String: Entry]? = state.withLock { state in
      state.hashed.append(path)
      guard unchanged, Self.isStorable(path) else { return nil }
      state.entries[path] = Entry(sha256: sha, identity: identity, recorded: recorded)
      return state.entries
    }
    if let snapshot { save(snapshot) }
    return sha
  }

  /// A path the file format can hold: absolute, no control characters (tab and newline included).
  private static func isStorable(_ path: String) -> Bool {
    path.hasPrefix("/") && !path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
  }

  private static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }

  /// The entries of the cache file; none when it is missing, unreadable, over 1 MiB, not a
  /// regular file, or not exactly in the format (one bad line discards the file).
  private func load() -> [String: Entry] {
    guard let file, let data = try? UserFile.read(file.path, kind: .fontHashCache),
      var lines = TabSeparatedText.lines(data), lines.first == [Self.header]
    else { return [:] }
    lines.removeFirst()
    guard lines.count <= Self.maxEntries else { return [:] }
    var entries: [String: Entry] = [:]
    for fields in lines {
      guard fields.count == 8,
        fields[0].utf8.count == 64,
        fields[0].utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }),
        let size = Self.number(fields[1]), let modified = Self.number(fields[2]),
        let changed = Self.number(fields[3]), let device = UInt64(fields[4]),
        let inode = UInt64(fields[5]), let recorded = Self.number(fields[6])
      else { return [:] }
      let path = fields[7]
      guard Self.isStorable(path) else { return [:] }
      entries[path] = Entry(
        sha256: fields[0],
        identity: FileIdentity(
          size: size, modified: modified, changed: changed, device: device, inode: inode),
        recorded: recorded)
    }
    return entries
  }

  /// A decimal number of at most 19 digits, optionally negative.
  private static func number(_ text: String) -> Int64? {
    let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.count <= 19, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
    else { return nil }
    return Int64(text)
  }

  /// Writes `entries` to the cache file atomically, dropping those whose file changed or is gone
  /// and, over ``maxEntries``, the oldest; a failure is remembered in ``unwritable`` and ends the
  /// writing (the cache only saves time).
  private func save(_ entries: [String: Entry]) {
    guard let file, state.withLock({ $0.unwritable == nil }) else { return }
    let kept =
      entries
      .filter { UserFile.identity(atPath: $0.key) == $0.value.identity }
      .sorted { ($0.value.recorded, $0.key) > ($1.value.recorded, $1.key) }
      .prefix(Self.maxEntries)
      .sorted { $0.key < $1.key }
    var text = Self.header + "\n"
    for (path, entry) in kept {
      let id = entry.identity
      text +=
        "\(entry.sha256)\t\(id.size)\t\(id.modified)\t\(id.changed)\t\(id.device)\t\(id.inode)\t\(entry.recorded)\t\(path)\n"
    }
    do {
      try AtomicFile.write(
        Data(text.utf8), to: file.path, createDirectories: true, protecting: InputFiles())
    } catch {
      state.withLock { $0.unwritable = $0.unwritable ?? error.description }
    }
  }
}
