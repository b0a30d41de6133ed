import Primitives

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

/// What a user file is for, and the largest size accepted for it.
///
/// The limits are far above any real input of the kind and low enough that a hostile file cannot
/// exhaust memory; they are documented in the README ("Limits").
public struct UserFileKind: Hashable, Sendable, CustomStringConvertible {
  /// A few words naming the kind in messages, e.g. `list file`.
  public var name: String
  /// The largest accepted size in bytes.
  public var maximumBytes: Int

  /// Creates a kind.
  public init(name: String, maximumBytes: Int) {
    self.name = name
    self.maximumBytes = maximumBytes
  }

  /// The kind's name.
  public var description: String { name }

  /// A bullet list (JSON): 16 MiB.
  public static let list = UserFileKind(name: "list file", maximumBytes: 16 << 20)
  /// A snapshot case file (JSON): 16 MiB.
  public static let caseFile = UserFileKind(name: "case file", maximumBytes: 16 << 20)
  /// A design-token or resolver file (JSON) of a themes folder: 16 MiB.
  public static let tokens = UserFileKind(name: "token file", maximumBytes: 16 << 20)
  /// A font manifest (JSON): 1 MiB.
  public static let fontManifest = UserFileKind(name: "font manifest", maximumBytes: 1 << 20)
  /// A font file (TTF, OTF, TTC): 256 MiB.
  public static let font = UserFileKind(name: "font file", maximumBytes: 256 << 20)
  /// An icon (SVG or PNG): 8 MiB.
  public static let icon = UserFileKind(name: "icon file", maximumBytes: 8 << 20)
  /// A reference PNG of the snapshots folder: 64 MiB.
  public static let referenceImage = UserFileKind(name: "reference PNG", maximumBytes: 64 << 20)
  /// A reference layout JSON of the snapshots folder: 64 MiB.
  public static let referenceLayout = UserFileKind(
    name: "reference layout JSON", maximumBytes: 64 << 20)
  /// A PNG given to `ouds-render diff`: 64 MiB.
  public static let diffInput = UserFileKind(name: "PNG file", maximumBytes: 64 << 20)
  /// `ENVIRONMENT.json` of a snapshots folder: 1 MiB.
  public static let environment = UserFileKind(name: "environment file", maximumBytes: 1 << 20)
  /// `results.json` of a verify run's results folder, read by `snapshot merge` and `accept`:
  /// 256 MiB. A run whose 10,000 references all fail writes about 90 MB (9 KB an entry, most of
  /// it the layout diff and the pixel regions), so this holds some 28,000 failing references; the
  /// reader also bounds the count of JSON values.
  public static let results = UserFileKind(name: "results file", maximumBytes: 256 << 20)
  /// A picture (expected, actual, diff PNG) of a results folder, read by `snapshot merge`: 64 MiB.
  public static let artifactImage = UserFileKind(name: "artifact PNG", maximumBytes: 64 << 20)
  /// The font hash cache of the user's cache folder: 1 MiB.
  public static let fontHashCache = UserFileKind(name: "font hash cache", maximumBytes: 1 << 20)
  /// The fontconfig folder cache of the user's cache folder (Graphics' `FontconfigFolderCache`):
  /// 256 KiB.
  public static let fontconfigFolderCache = UserFileKind(
    name: "fontconfig folder cache", maximumBytes: 256 << 10)
}

/// A user file that could not be read: one line naming the file (escaped) and the problem.
public struct UserFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why the file was not read.
  public enum Problem: Hashable, Sendable {
    /// Nothing exists at the path.
    case missing
    /// The path names a folder, a FIFO, a device or a socket (the word is in `kind`).
    case notRegular(kind: String)
    /// The file is larger than the kind allows.
    case tooLarge(bytes: Int, limit: Int)
    /// The system refused to open or read it (permission denied, I/O error…).
    case unreadable(reason: String)
  }

  /// The path as given.
  public var path: String
  /// What the file is for.
  public var kind: UserFileKind
  /// What went wrong.
  public var problem: Problem

  /// Creates an error.
  public init(path: String, kind: UserFileKind, problem: Problem) {
    self.path = path
    self.kind = kind
    self.problem = problem
  }

  /// The problem alone, without the path: `no such file`, `is a FIFO, not a regular file`…
  public var reason: String {
    switch problem {
    case .missing: return "no such file"
    case .notRegular(let kind): return "is \(kind), not a regular file"
    case .tooLarge(let bytes, let limit):
      return
        "the \(kind.name) is \(UserFile.describeSize(bytes)), over the limit of \(UserFile.describeSize(limit))"
    case .unreadable(let reason): return "cannot be read: \(reason)"
    }
  }

  /// `<path>: <reason>`, with the path escaped and cut as in ``MessageText/path(_:)``.
  public var description: String { "\(MessageText.path(path)): \(reason)" }
}

/// Reads files a user hands in (lists, case files, tokens, manifests, icons, references, diff
/// inputs) safely: only regular files, never more than the kind's size limit, never blocking.
///
/// The file is opened with `O_NONBLOCK` (a FIFO cannot hang the open), checked with `fstat` on
/// the open descriptor (a folder, FIFO, device or socket is refused), and read with a cap (a file
/// that grows while being read is refused too). Nothing is remembered: the files an output must
/// not replace are handed to the writer explicitly, as ``InputFiles``.
public enum UserFile {
  /// The bytes of the regular file at `path`.
  /// - Throws: `UserFileError` naming the file and the problem.
  public static func read(_ path: String, kind: UserFileKind) throws(UserFileError) -> Data {
    var data = Data()
    try read(path, kind: kind, chunkSize: 1 << 16) { chunk in
      data.append(contentsOf: chunk)
    } reserve: {
      data.reserveCapacity($0)
    }
    return data
  }

  /// Reads the regular file at `path` in pieces of at most `chunkSize` bytes, handing each to
  /// `body` (memory stays bounded whatever the size, e.g. to hash a font file), with the same
  /// checks as ``read(_:kind:)``: only a regular file, never more than the kind's limit, never blocking.
  /// - Returns: the identity of the file read, from the open descriptor (see ``FileIdentity``).
  /// - Throws: `UserFileError` naming the file and the problem.
  @discardableResult
  public static func read(
    _ path: String, kind: UserFileKind, chunkSize: Int, _ body: (UnsafeRawBufferPointer) -> Void
  ) throws(UserFileError) -> FileIdentity {
    try read(path, kind: kind, chunkSize: chunkSize, body) { _ in }
  }

  /// The identity of the file at `path` (symbolic links followed), or nil when nothing readable
  /// is there.
  public static func identity(atPath path: String) -> FileIdentity? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return FileIdentity(status)
  }

  @discardableResult
  private static func read(
    _ path: String, kind: UserFileKind, chunkSize: Int, _ body: (UnsafeRawBufferPointer) -> Void,
    reserve: (Int) -> Void
  ) throws(UserFileError) -> FileIdentity {
    func fail(_ problem: UserFileError.Problem) -> UserFileError {
      UserFileError(path: path, kind: kind, problem: problem)
    }
    FileTrace.note(kind.name, path)
    let descriptor = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { throw fail(.missing) }
      if code == ENXIO { throw fail(.notRegular(kind: "a socket or a device without a reader")) }
      throw fail(.unreadable(reason: String(cString: strerror(code))))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw fail(.unreadable(reason: String(cString: strerror(errno))))
    }
    if let kindName = FileType(mode: status.st_mode).nonRegularName {
      throw fail(.notRegular(kind: kindName))
    }
    let limit = kind.maximumBytes
    let size = Int(status.st_size)
    guard size <= limit else { throw fail(.tooLarge(bytes: size, limit: limit)) }
    reserve(size)
    // Reads until end of file, at most limit + 1 bytes (a file growing past the limit is refused);
    // nothing past the limit reaches `body`.
    var chunk = [UInt8](repeating: 0, count: max(1, min(chunkSize, limit + 1)))
    var total = 0
    while total <= limit {
      let wanted = min(chunk.count, limit + 1 - total)
      let count = chunk.withUnsafeMutableBytes { raw in
        systemRead(descriptor, raw.baseAddress, wanted)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw fail(.unreadable(reason: String(cString: strerror(errno))))
      }
      if count == 0 { break }
      total += count
      guard total <= limit else { break }
      chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }
    guard total <= limit else { throw fail(.tooLarge(bytes: total, limit: limit)) }
    return FileIdentity(status)
  }

  /// The type of the file at `path` without following a final symbolic link, or nil when nothing is there.
  public static func type(atPath path: String) -> FileType? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return FileType(mode: status.st_mode)
  }

  /// `12 MiB`, `512 KiB` or `300 bytes`.
  public static func describeSize(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 20 { return String(cFormat: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    if bytes >= 1 << 10 { return String(cFormat: "%.1f KiB", Double(bytes) / Double(1 << 10)) }
    return "\(bytes) bytes"
  }
}

/// The type of a file system entry, from the `st_mode` of `stat`.
public enum FileType: Hashable, Sendable {
  /// A regular file.
  case regular
  /// A folder.
  case directory
  /// A symbolic link (only from `lstat`).
  case symbolicLink
  /// A named pipe.
  case fifo
  /// A character device such as `/dev/zero`.
  case characterDevice
  /// A block device.
  case blockDevice
  /// A Unix socket.
  case socket
  /// Anything else.
  case other

  /// The type of a `st_mode`.
  public init(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .directory
    case S_IFLNK: self = .symbolicLink
    case S_IFIFO: self = .fifo
    case S_IFCHR: self = .characterDevice
    case S_IFBLK: self = .blockDevice
    case S_IFSOCK: self = .socket
    default: self = .other
    }
  }

  /// `a folder`, `a FIFO`, … for messages; nil for a regular file.
  public var nonRegularName: String? {
    switch self {
    case .regular: return nil
    case .directory: return "a folder"
    case .symbolicLink: return "a symbolic link"
    case .fifo: return "a FIFO (named pipe)"
    case .characterDevice: return "a character device"
    case .blockDevice: return "a block device"
    case .socket: return "a socket"
    case .other: return "a special file"
    }
  }
}

/// The files a run reads as input, which none of its outputs may replace.
///
/// A plain value that whoever writes builds from what it read and hands to the writer
/// (`AtomicFile.write(_:to:createDirectories:protecting:)`); there is no process-wide record.
/// Paths are compared with the target at write time, by device and inode, so a hard link or a
/// symbolic link to an input is recognised too, and an input path that names nothing any more
/// protects nothing (inode numbers are reused once a file is deleted).
public struct InputFiles: Hashable, Sendable {
  /// The input paths, each once, in the order they were added.
  public private(set) var paths: [String] = []
  private var known: Set<String> = []

  /// A set holding `paths`.
  public init(_ paths: some Sequence<String> = [String]()) {
    for path in paths { insert(path) }
  }

  /// Adds the file at `path` (a folder or a missing path is harmless: it never equals a target file).
  public mutating func insert(_ path: String) {
    if known.insert(path).inserted { paths.append(path) }
  }

  /// Adds every path of `other`.
  public mutating func formUnion(_ other: InputFiles) {
    for path in other.paths { insert(path) }
  }

  /// This set with every path of `other` added.
  public func union(_ other: InputFiles) -> InputFiles {
    var result = self
    result.formUnion(other)
    return result
  }

  /// The first input path that names, now, the file `device`/`inode` (symbolic links followed), or nil.
  public func path(naming device: UInt64, inode: UInt64) -> String? {
    for path in paths {
      var status = stat()
      if stat(path, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode {
        return path
      }
    }
    return nil
  }
}

/// `read(2)`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
  #else
    Darwin.read(descriptor, buffer, count)
  #endif
}

/// Writing to an open file descriptor.
public enum Descriptor {
  /// Writes all of `bytes` to `descriptor`, retrying when interrupted and waiting while a
  /// non-blocking descriptor is full; returns nil, or the system's reason for the failure.
  public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(
        descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN {
          var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&poller, 1, 1000)
          continue
        }
        return String(cString: strerror(errno))
      }
      offset += written
    }
    return nil
  }
}

/// `write(2)`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
  #else
    Darwin.write(descriptor, buffer, count)
  #endif
}

/// What says a file is still the one seen before without reading it: its size, its modification
/// and status-change times (nanoseconds), its device and inode.
///
/// The status-change time (`ctime`) moves whenever the file is written or its times are set, and
/// only the system clock sets it: a file rewritten with its size and modification time put back
/// (`touch -d`) still changes identity.
public struct FileIdentity: Hashable, Sendable {
  /// Size in bytes.
  public var size: Int64
  /// Modification time, nanoseconds since 1970.
  public var modified: Int64
  /// Status-change time, nanoseconds since 1970.
  public var changed: Int64
  /// The device that holds the file.
  public var device: UInt64
  /// The inode on that device.
  public var inode: UInt64

  /// Creates an identity.
  public init(size: Int64, modified: Int64, changed: Int64, device: UInt64, inode: UInt64) {
    self.size = size
    self.modified = modified
    self.changed = changed
    self.device = device
    self.inode = inode
  }

  /// The identity in a `stat` result.
  init(_ status: stat) {
    #if canImport(Darwin)
      let modified = status.st_mtimespec
      let changed = status.st_ctimespec
    #else
      let modified = status.st_mtim
      let changed = status.st_ctim
    #endif
    self.init(
      size: Int64(status.st_size),
      modified: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
      changed: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec),
      device: UInt64(truncatingIfNeeded: status.st_dev),
      inode: UInt64(truncatingIfNeeded: status.st_ino))
  }
}

/// With `OUDS_TRACE_FILES=1` in the environment, every user file the tool reads (lists, token
/// files, the spec, marker assets, manifests, icons, the font files it hashes, PNGs, the font hash
/// cache) is named on standard error as it is opened, one line each: `trace: read <kind>: <path>`.
/// A way to see what a command really touches, e.g. that `diff` reads no token and no font.
public enum FileTrace {
  /// The environment variable that turns the trace on (any value but empty or `0`).
  public static let environmentVariable = "OUDS_TRACE_FILES"

  /// Whether the trace is on, read once from the environment.
  public static let isOn: Bool = {
    guard let value = getenv(environmentVariable) else { return false }
    let text = String(cString: value)
    return !text.isEmpty && text != "0"
  }()

  /// Writes `trace: read <kind>: <path>` (control characters escaped) when the trace is on.
  public static func note(_ kind: String, _ path: String) {
    guard isOn else { return }
    let line = Array("trace: read \(kind): \(MessageText.escaped(path))\n".utf8)
    line.withUnsafeBytes { _ = Descriptor.writeAll($0, to: 2) }
  }
}
