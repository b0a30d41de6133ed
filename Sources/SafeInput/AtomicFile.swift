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

/// A file that could not be written: `cannot write <path>: <reason>`.
public struct FileWriteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file (or folder) that could not be written.
  public var path: String
  /// Why, in a few words.
  public var reason: String

  /// Creates an error.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// One line naming the path (escaped) and the reason.
  public var description: String { "cannot write \(MessageText.path(path)): \(reason)" }
}

/// Writes files so that a reader never sees a half-written one: a temporary file beside the
/// target, then a rename.
///
/// An output never replaces one of the input files the caller hands in (``SafeInput/InputFiles``,
/// compared by device and inode at write time, so also through hard links), nor anything but a
/// regular file: a folder, a symbolic link (such as `/dev/stdout` or `/proc/self/fd/N`), a FIFO,
/// a device or a socket is refused. The temporary file is named `.<name>.<UUID>.tmp` and is
/// removed when the write fails.
///
/// Every file the package writes goes through ``write(_:to:createDirectories:protecting:)``.
/// Foundation's `Data.write(to:options: .atomic)` does not fit: its temporary file has a private
/// name (`.dat.nosync…`), so the leftovers of a killed run could not be told from a user's files
/// and removed (``removeStaleTemporaryFiles(under:olderThan:)``), and on some errors (`EBUSY`) it
/// falls back to writing the target in place.
public enum AtomicFile {
  /// Writes `data` to `path`, creating missing parent folders when `createDirectories` is true;
  /// refuses when `path` names one of `inputs` (the files the run read).
  /// - Throws: `FileWriteError` naming the path and the reason.
  public static func write(
    _ data: Data, to path: String, createDirectories: Bool = false, protecting inputs: InputFiles
  ) throws(FileWriteError) {
    try write(to: path, createDirectories: createDirectories, protecting: inputs) {
      (stream: Stream) throws(FileWriteError) in
      try stream.write(data)
    }
  }

  /// Writes the text `body` hands to its ``Stream`` piece by piece, with the same checks and the
  /// same all-or-nothing rename as ``write(_:to:createDirectories:protecting:)``: a large document
  /// (a run's `results.json` or JUnit file) is never held whole in memory. When `body` throws, the
  /// temporary file is removed and the target is left as it was.
  /// - Throws: `FileWriteError` naming the path and the reason.
  public static func write(
    to path: String, createDirectories: Bool = false, protecting inputs: InputFiles,
    body: (Stream) throws(FileWriteError) -> Void
  ) throws(FileWriteError) {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    // A file (or FIFO, device…) where a folder of the path should be is named as such.
    if let blocker = nonFolderAncestor(of: directory.path) {
      throw FileWriteError(
        path: path,
        reason:
          "\(MessageText.path(blocker.path)) is \(blocker.type.nonRegularName ?? "a regular file"), not a folder"
      )
    }
    // Never into a fenced folder (the snapshots or themes folder a command read), whatever
    // links lead there; checked before any folder is created.
    try WriteFence.check(path, directory: directory.path)
    if createDirectories {
      if let failure = createFolders(directory.path) {
        throw FileWriteError(path: directory.path, reason: failure)
      }
    }
    guard PathText.isFolder(directory.path) else {
      throw FileWriteError(
        path: path, reason: "folder \(MessageText.path(directory.path)) does not exist")
    }
    try checkTarget(path, inputs: inputs)
    // Unique per call: two threads (or processes) writing the same file never share a temporary.
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString).tmp"
    ).path
    let descriptor = temporary.withCString {
      open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
    }
    guard descriptor >= 0 else {
      throw FileWriteError(path: path, reason: systemReason(errno))
    }
    let stream = Stream(descriptor: descriptor, path: path)
    var failure: String?
    do {
      try body(stream)
      try stream.flush()
    } catch {
      failure = error.reason
    }
    if close(descriptor) != 0, failure == nil { failure = systemReason(errno) }
    if failure == nil, rename(temporary, url.path) != 0 { failure = systemReason(errno) }
    if let failure {
      unlink(temporary)
      throw FileWriteError(path: path, reason: failure)
    }
  }

  /// The open temporary file of a streamed ``write(to:createDirectories:protecting:body:)``:
  /// text and bytes go through a 256 KiB buffer, so a document is written in large pieces
  /// without being held whole.
  public final class Stream {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private static let capacity = 256 * 1024

    fileprivate init(descriptor: Int32, path: String) {
      self.descriptor = descriptor
      self.path = path
      buffer.reserveCapacity(Self.capacity)
    }

    /// Appends `text` as UTF-8.
    public func write(_ text: String) throws(FileWriteError) {
      buffer.append(contentsOf: text.utf8)
      if buffer.count >= Self.capacity { try flush() }
    }

    /// Appends `data`.
    public func write(_ data: Data) throws(FileWriteError) {
      if data.count >= Self.capacity {
        try flush()
        if let failure = data.withUnsafeBytes({ Descriptor.writeAll($0, to: descriptor) }) {
          throw FileWriteError(path: path, reason: failure)
        }
        return
      }
      buffer.append(contentsOf: data)
      if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes out what the buffer holds.
    fileprivate func flush() throws(FileWriteError) {
      guard !buffer.isEmpty else { return }
      let failure = buffer.withUnsafeBytes { Descriptor.writeAll($0, to: descriptor) }
      buffer.removeAll(keepingCapacity: true)
      if let failure { throw FileWriteError(path: path, reason: failure) }
    }
  }

  /// Refuses a target that is one of `inputs` or not a regular file.
  private static func checkTarget(_ path: String, inputs: InputFiles) throws(FileWriteError) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }  // nothing there yet
    let type = FileType(mode: status.st_mode)
    if type == .symbolicLink {
      let destination =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
          " (to \(MessageText.path($0)))"
        } ?? ""
      throw FileWriteError(
        path: path,
        reason:
          "it is a symbolic link\(destination), which would be replaced; give the path of a regular file"
      )
    }
    if let name = type.nonRegularName {
      throw FileWriteError(
        path: path,
        reason: "it is \(name), not a regular file; give the path of a file to create or replace")
    }
    if let input = inputs.path(naming: UInt64(status.st_dev), inode: UInt64(status.st_ino)) {
      let same = input == path ? "" : " \(MessageText.path(input))"
      throw FileWriteError(
        path: path,
        reason:
          "it is the input\(same) of this run, which would be replaced; choose another output file")
    }
  }

  /// Whether `name` is the name of a temporary file of ``write(_:to:createDirectories:protecting:)``:
  /// `.<name>.<UUID>.tmp`.
  public static func isTemporaryFileName(_ name: String) -> Bool {
    guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
    let stem = name.dropLast(4)
    guard let dot = stem.lastIndex(of: "."), dot > stem.index(after: stem.startIndex) else {
      return false
    }
    let uuid = stem[stem.index(after: dot)...]
    return uuid.count == 36 && UUID(uuidString: String(uuid)) != nil
  }

  /// Deletes the temporary files of interrupted writes (``isTemporaryFileName(_:)``) anywhere under
  /// `directory` that were last modified more than `age` seconds ago; returns their paths relative to `directory`.
  ///
  /// Symbolic links are not followed. Use it only while no other process writes in `directory`
  /// (for snapshots, under the record lock).
  @discardableResult
  public static func removeStaleTemporaryFiles(under directory: URL, olderThan age: TimeInterval)
    -> [String]
  {
    guard let entries = PathText.entries(under: directory.path) else { return [] }
    var removed: [String] = []
    let now = Date()
    for relative in entries {
      let name = PathText.lastComponent(relative)
      guard isTemporaryFileName(name) else { continue }
      let full = directory.appendingPathComponent(relative).path
      var status = stat()
      guard lstat(full, &status) == 0, FileType(mode: status.st_mode) == .regular else { continue }
      #if os(Linux)
        let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))
      #else
        let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtimespec.tv_sec))
      #endif
      guard now.timeIntervalSince(modified) > age else { continue }
      if unlink(full) == 0 { removed.append(relative) }
    }
    return removed.sorted()
  }

  /// The nearest existing ancestor of `folder` (itself included) when it is not a folder (after
  /// links), with its type; nil when it is one.
  private static func nonFolderAncestor(of folder: String) -> (path: String, type: FileType)? {
    var url = URL(fileURLWithPath: folder).standardizedFileURL
    while true {
      var status = stat()
      if stat(url.path, &status) == 0 {
        let type = FileType(mode: status.st_mode)
        return type == .directory ? nil : (url.path, type)
      }
      if url.path == "/" { return nil }
      url = url.deletingLastPathComponent()
    }
  }

  /// Creates `path` and its missing parents like `mkdir -p` (mode 0777 less the umask); nil, or
  /// the system's reason (`Permission denied`) when a folder cannot be made.
  private static func createFolders(_ path: String) -> String? {
    var current = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
      if mkdir(current, 0o777) != 0 && errno != EEXIST {
        return String(cString: strerror(errno))
      }
    }
    return nil
  }
}

/// The system's text for `code`, starting lower-case like the rest of a message (`permission denied`).
private func systemReason(_ code: Int32) -> String {
  let text = String(cString: strerror(code))
  return text.prefix(1).lowercased() + text.dropFirst()
}
