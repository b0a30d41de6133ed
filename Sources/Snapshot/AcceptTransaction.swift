import Fonts
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

/// One file that `snapshot accept` puts into a snapshots folder.
public struct AcceptWrite: Sendable, Equatable {
  /// Where a new file's bytes come from.
  public enum Content: Sendable, Equatable {
    /// Bytes made in memory (the environment file).
    case bytes(Data)
    /// A file of the run's results, read only when it is staged, so that an accept of any
    /// number of renders holds one at a time; its SHA-256 is checked again then.
    case file(path: String, kind: UserFileKind, size: Int, sha256: String)
  }

  /// The path relative to the snapshots folder (`sample-3/orange-light@2x.png`).
  public var path: String
  /// The new bytes, or the file that holds them.
  public var content: Content

  /// A file to put at `path` (relative to the snapshots folder) holding `data`.
  public init(path: String, data: Data) {
    self.path = path
    self.content = .bytes(data)
  }

  /// A file to put at `path` (relative to the snapshots folder) holding the bytes of the file
  /// at `source` (read as a `kind`), which must still be `size` bytes with the SHA-256 `sha256`
  /// when it is staged.
  public init(
    path: String, copying source: String, kind: UserFileKind, size: Int, sha256: String
  ) {
    self.path = path
    self.content = .file(path: source, kind: kind, size: size, sha256: sha256)
  }

  /// The new file's size in bytes.
  var size: Int {
    switch content {
    case .bytes(let data): data.count
    case .file(_, _, let size, _): size
    }
  }

  /// The new bytes: read from the run's file, which must not have changed since it was checked.
  func bytes() throws(AcceptTransaction.SystemFailure) -> Data {
    switch content {
    case .bytes(let data):
      return data
    case .file(let source, let kind, let size, let sha256):
      let data: Data
      do {
        data = try UserFile.read(source, kind: kind)
      } catch {
        throw AcceptTransaction.SystemFailure(path: path, reason: "\(error)")
      }
      guard data.count == size, SHA256Digest.hex(of: data) == sha256 else {
        throw AcceptTransaction.SystemFailure(
          path: path,
          reason: "the run's file \(MessageText.path(source)) changed after it was checked")
      }
      return data
    }
  }
}

/// `snapshot accept`'s writes, all or nothing, through a journal in the snapshots folder.
///
/// Every destination is checked before the first write (a regular file or nothing, no link on
/// the way, a folder this user may write, free space for every new file). The new files are
/// then written beside their destinations (`.<name>.accept-new`), each old file is kept by a
/// hard link (`.<name>.accept-old`), and only when all are on disk does the journal
/// (``journalName``) say `ready`; then each new file is renamed over its destination. A failure
/// while renaming puts back what was there. A process killed at any moment leaves the folder as
/// it was, as the run wanted, or with the journal, which ``recover(in:)`` (called by the next
/// `accept`, `record` or `verify`, under the record lock) completes (`ready`) or rolls back
/// (`staging`, `rollback`). A reference's PNG and its layout JSON are therefore never left from
/// two states. The files are hidden (their names start with a dot): the catalogue digest, prune
/// and the review never see them.
///
/// Hand-written rather than a library's: no Debian library makes a set of renames atomic.
public enum AcceptTransaction {
  /// The journal's name inside the snapshots folder.
  public static let journalName = ".accept-journal.json"

  /// The state a journal is in.
  enum State: String, Codable {
    /// New files are being written; nothing is in place yet: roll back.
    case staging
    /// Every new file is on disk: complete.
    case ready
    /// A rename failed: put back what was there.
    case rollback
  }

  /// One file of a journal.
  struct Entry: Codable, Equatable {
    /// The destination, relative to the snapshots folder.
    var path: String
    /// The new file beside it, relative.
    var staged: String
    /// The hard link keeping the old file, relative; nil when there was none.
    var kept: String?
  }

  /// What the journal file holds.
  struct Journal: Codable, Equatable {
    var version = 1
    var run: String
    var state: State
    /// Folders the accept created, relative, parents first: removed again when empty on rollback.
    var folders: [String]
    var files: [Entry]
  }

  /// Writes `writes` into `folder` all or nothing. Call it under the folder's exclusive record
  /// lock (``SnapshotLock``), after ``recover(in:)``.
  /// - Parameter run: the run's id, kept in the journal for the recovery's message.
  /// - Throws: ``SnapshotError/cannotAccept(reason:)`` naming the destination and the problem;
  ///   the folder is then as it was.
  public static func apply(_ writes: [AcceptWrite], in folder: URL, run: String)
    throws(SnapshotError)
  {
    let root = folder.path
    let plan = try check(writes, in: root)
    var journal = Journal(run: run, state: .staging, folders: plan.folders, files: [])
    for write in writes {
      let directory = PathText.deletingLastComponent(write.path)
      let name = PathText.lastComponent(write.path)
      let prefix = directory.isEmpty ? "" : directory + "/"
      journal.files.append(
        Entry(
          path: write.path, staged: prefix + ".\(name).accept-new",
          kept: plan.existing.contains(write.path) ? prefix + ".\(name).accept-old" : nil))
    }
    try save(journal, in: root)
    checkpoint()
    // Stage: nothing of the destinations changes; any failure removes what was staged.
    do throws(SystemFailure) {
      for relative in plan.folders {
        if mkdir(root + "/" + relative, 0o777) != 0 && errno != EEXIST {
          throw SystemFailure(path: relative, reason: systemReason(errno))
        }
      }
      for (entry, write) in zip(journal.files, writes) {
        try stage(write.bytes(), at: root + "/" + entry.staged, name: entry.path)
        if let kept = entry.kept {
          unlink(root + "/" + kept)
          if link(root + "/" + entry.path, root + "/" + kept) != 0 {
            throw SystemFailure(path: entry.path, reason: systemReason(errno))
          }
        }
        checkpoint()
      }
      for relative in Set(journal.files.map { PathText.deletingLastComponent($0.path) }) {
        syncFolder(relative.isEmpty ? root : root + "/" + relative)
      }
    } catch {
      rollBackStaging(journal, in: root)
      throw .cannotAccept(
        reason:
          "\(MessageText.path(root + "/" + error.path)): \(error.reason) while writing the new files beside the references; nothing written"
      )
    }
    journal.state = .ready
    try save(journal, in: root)
    checkpoint()
    // Put in place; a failure puts back what was there.
    for (index, entry) in journal.files.enumerated() {
      if rename(root + "/" + entry.staged, root + "/" + entry.path) != 0 {
        let failure = SystemFailure(path: entry.path, reason: systemReason(errno))
        journal.state = .rollback
        try? save(journal, in: root)
        rollBack(journal, in: root)
        throw .cannotAccept(
          reason:
            "\(MessageText.path(root + "/" + failure.path)): \(failure.reason) while putting the new files in place; the \(index) put in place before it were put back: nothing changed"
        )
      }
      checkpoint()
    }
    finish(journal, in: root)
  }

  /// Completes or rolls back the accept a killed process left in `folder` (its journal), and
  /// says what it did in one line; nil when there was none. Call it under the exclusive lock.
  /// - Throws: ``SnapshotError/cannotAccept(reason:)`` when the journal cannot be read or a
  ///   file cannot be put in place; the journal is then left for the next try.
  public static func recover(in folder: URL) throws(SnapshotError) -> String? {
    let root = folder.path
    let path = root + "/" + journalName
    guard let journal = try read(path) else { return nil }
    let run = MessageText.value(journal.run, limit: 80)
    switch journal.state {
    case .staging:
      rollBackStaging(journal, in: root)
      return
        "note: an interrupted snapshot accept of the run \(run) was rolled back (it was killed before any reference was replaced): \(MessageText.path(root)) is as it was"
    case .rollback:
      rollBack(journal, in: root)
      return
        "note: an interrupted snapshot accept of the run \(run) was rolled back (it was killed while putting back what a failure left): \(MessageText.path(root)) is as it was"
    case .ready:
      for entry in journal.files where exists(root + "/" + entry.staged) {
        if rename(root + "/" + entry.staged, root + "/" + entry.path) != 0 {
          throw .cannotAccept(
            reason:
              "\(MessageText.path(path)): cannot complete the interrupted accept of the run \(run): \(MessageText.path(root + "/" + entry.path)): \(systemReason(errno)); fix it and run the command again"
          )
        }
      }
      finish(journal, in: root)
      return
        "note: an interrupted snapshot accept of the run \(run) was completed: its \(journal.files.count) file\(journal.files.count == 1 ? "" : "s") are in place in \(MessageText.path(root))"
    }
  }

  /// ``recover(in:)``, its line written to standard error (as `verify` and `record` do).
  public static func recoverTelling(in folder: URL) throws(SnapshotError) {
    guard let line = try recover(in: folder) else { return }
    _ = Array((line + "\n").utf8).withUnsafeBytes { Descriptor.writeAll($0, to: 2) }
  }

  /// Whether `folder` holds the journal of an interrupted accept.
  public static func isPending(in folder: URL) -> Bool {
    var status = stat()
    return lstat(folder.appendingPathComponent(journalName).path, &status) == 0
  }

  // MARK: - Checks

  /// What the checks found: folders to create and destinations that exist.
  private struct Plan {
    var folders: [String] = []
    var existing: Set<String> = []
  }

  /// Checks every destination before anything is written.
  private static func check(_ writes: [AcceptWrite], in root: String) throws(SnapshotError)
    -> Plan
  {
    var plan = Plan()
    var checkedFolders: [String: Bool] = ["": true]  // relative folder → exists
    func refuse(_ path: String, _ problem: String) -> SnapshotError {
      .cannotAccept(reason: "\(MessageText.path(root + "/" + path)): \(problem); nothing written")
    }
    if isPending(in: URL(fileURLWithPath: root)) {
      throw refuse(journalName, "an interrupted accept's journal is there")
    }
    var bytes = 0
    for write in writes {
      let parts = write.path.split(separator: "/").map(String.init)
      guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty })
      else { throw refuse(write.path, "not a path inside the snapshots folder") }
      // Each folder on the way: a real folder (not a link), or one to create.
      var relative = ""
      for part in parts.dropLast() {
        relative = relative.isEmpty ? part : relative + "/" + part
        if checkedFolders[relative] != nil { continue }
        var status = stat()
        if lstat(root + "/" + relative, &status) != 0 {
          guard errno == ENOENT else { throw refuse(relative, systemReason(errno)) }
          checkedFolders[relative] = false
          plan.folders.append(relative)
          continue
        }
        let type = FileType(mode: status.st_mode)
        guard type == .directory else {
          throw refuse(
            relative,
            "\(type == .symbolicLink ? "a symbolic link" : type.nonRegularName ?? "a regular file") where a folder of references should be; accept writes only into real folders"
          )
        }
        checkedFolders[relative] = true
      }
      // The folder the file goes into (or its nearest existing parent) must be writable.
      var writable = PathText.deletingLastComponent(write.path)
      while checkedFolders[writable] == false {
        writable = PathText.deletingLastComponent(writable)
      }
      let folderPath = writable.isEmpty ? root : root + "/" + writable
      if access(folderPath, W_OK | X_OK) != 0 {
        throw refuse(
          writable.isEmpty ? "." : writable,
          "this user cannot write in that folder (\(systemReason(errno)))")
      }
      var status = stat()
      if lstat(root + "/" + write.path, &status) == 0 {
        let type = FileType(mode: status.st_mode)
        if type == .symbolicLink {
          let destination =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + write.path))
            .map { " (to \(MessageText.path($0)))" } ?? ""
          throw refuse(
            write.path,
            "a symbolic link\(destination), not a reference file: accept replaces only regular files (replace the link by the file it names)"
          )
        }
        if type != .regular {
          throw refuse(
            write.path, "\(type.nonRegularName ?? "not a regular file"), not a reference file")
        }
        plan.existing.insert(write.path)
      } else if errno != ENOENT {
        throw refuse(write.path, systemReason(errno))
      }
      // Rounded up to blocks, as the file system counts them.
      bytes += (write.size + 4095) / 4096 * 4096
    }
    var space = statvfs()
    if statvfs(root, &space) == 0 {
      let free = Int(space.f_bavail) * Int(space.f_frsize)
      let needed = bytes + 4096 * (plan.folders.count + 2)
      if free < needed {
        throw .cannotAccept(
          reason:
            "\(MessageText.path(root)): \(needed) bytes are needed for the \(writes.count) new files, but the disk has \(free) free; nothing written"
        )
      }
    }
    return plan
  }

  // MARK: - Steps

  /// A failed system call on `path` (relative to the snapshots folder).
  struct SystemFailure: Error {
    var path: String
    var reason: String
  }

  /// Writes `data` into a new file at `path` and flushes it to the disk.
  private static func stage(_ data: Data, at path: String, name: String) throws(SystemFailure) {
    unlink(path)
    let descriptor = path.withCString {
      open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
    }
    guard descriptor >= 0 else { throw SystemFailure(path: name, reason: systemReason(errno)) }
    var failure = data.withUnsafeBytes { Descriptor.writeAll($0, to: descriptor) }
    if failure == nil, fsync(descriptor) != 0 { failure = systemReason(errno) }
    if close(descriptor) != 0, failure == nil { failure = systemReason(errno) }
    if let failure { throw SystemFailure(path: name, reason: failure) }
  }

  /// Writes the journal atomically and durably.
  private static func save(_ journal: Journal, in root: String) throws(SnapshotError) {
    let path = root + "/" + journalName
    let temporary = path + ".new"
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let data = try encoder.encode(journal)
      try stage(data, at: temporary, name: journalName)
      if rename(temporary, path) != 0 {
        throw SystemFailure(path: journalName, reason: systemReason(errno))
      }
      syncFolder(root)
    } catch let failure as SystemFailure {
      unlink(temporary)
      throw .cannotAccept(
        reason:
          "\(MessageText.path(path)): \(failure.reason) while writing the accept's journal; nothing written"
      )
    } catch {
      unlink(temporary)
      throw .cannotAccept(reason: "\(MessageText.path(path)): \(error)")
    }
  }

  /// The journal at `path`, nil when there is none.
  private static func read(_ path: String) throws(SnapshotError) -> Journal? {
    let data: Data
    do {
      data = try UserFile.read(
        path, kind: UserFileKind(name: "accept journal", maximumBytes: 64 << 20))
    } catch {
      if case .missing = error.problem { return nil }
      throw .cannotAccept(
        reason: "\(error); remove it only after restoring the references (git checkout)")
    }
    guard let journal = try? JSONDecoder().decode(Journal.self, from: data), journal.version == 1,
      journal.files.allSatisfy({
        inside($0.path) && inside($0.staged) && ($0.kept.map(inside) ?? true)
      }),
      journal.folders.allSatisfy(inside)
    else {
      throw .cannotAccept(
        reason:
          "\(MessageText.path(path)): not a journal this ouds-render wrote; remove it only after restoring the references (git checkout)"
      )
    }
    return journal
  }

  /// Whether `relative` stays inside the snapshots folder.
  private static func inside(_ relative: String) -> Bool {
    !relative.isEmpty && !relative.hasPrefix("/")
      && !relative.split(separator: "/", omittingEmptySubsequences: false).contains {
        $0 == ".." || $0 == "." || $0.isEmpty
      }
  }

  /// Removes what staging wrote (new files, kept links, created folders) and the journal.
  private static func rollBackStaging(_ journal: Journal, in root: String) {
    for entry in journal.files {
      unlink(root + "/" + entry.staged)
      if let kept = entry.kept { unlink(root + "/" + kept) }
    }
    for relative in journal.folders.reversed() { rmdir(root + "/" + relative) }
    removeJournal(in: root)
  }

  /// Puts back what was there before the renames, then removes the journal.
  private static func rollBack(_ journal: Journal, in root: String) {
    for entry in journal.files {
      let destination = root + "/" + entry.path
      if exists(root + "/" + entry.staged) {
        // Never put in place: the destination is the old file.
        unlink(root + "/" + entry.staged)
        if let kept = entry.kept { unlink(root + "/" + kept) }
      } else if let kept = entry.kept {
        if exists(root + "/" + kept) { rename(root + "/" + kept, destination) }
      } else {
        unlink(destination)
      }
    }
    for relative in journal.folders.reversed() { rmdir(root + "/" + relative) }
    removeJournal(in: root)
  }

  /// Removes the kept old files and the journal once every new file is in place.
  private static func finish(_ journal: Journal, in root: String) {
    for relative in Set(journal.files.map { PathText.deletingLastComponent($0.path) }) {
      syncFolder(relative.isEmpty ? root : root + "/" + relative)
    }
    checkpoint()
    for entry in journal.files {
      if let kept = entry.kept { unlink(root + "/" + kept) }
    }
    removeJournal(in: root)
  }

  private static func removeJournal(in root: String) {
    unlink(root + "/" + journalName)
    syncFolder(root)
  }

  private static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Flushes a folder's entries (a rename or a new name) to the disk.
  private static func syncFolder(_ path: String) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  private static func systemReason(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  // MARK: - Kill points for the tests

  /// The environment variable that makes the process kill itself (`SIGKILL`) at the N-th step
  /// of an accept (1-based), so that a test can stop it at every point in turn. Test only.
  public static let killPointVariable = "OUDS_TEST_ACCEPT_KILL_AT"

  nonisolated(unsafe) private static var steps = 0

  /// Counts a step; kills the process at the step ``killPointVariable`` names.
  private static func checkpoint() {
    steps += 1
    guard let text = getenv(killPointVariable), let at = Int(String(cString: text)), at == steps
    else { return }
    kill(getpid(), SIGKILL)
  }
}
