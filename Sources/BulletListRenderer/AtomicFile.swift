import Foundation

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

  /// One line naming the path and the reason.
  public var description: String { "cannot write \(path): \(reason)" }
}

/// Writes files so that a reader never sees a half-written one: a temporary file beside the
/// target, then a rename.
public enum AtomicFile {
  /// Writes `data` to `path`, creating missing parent folders when `createDirectories` is true.
  /// - Throws: `FileWriteError` naming the path and the reason.
  public static func write(_ data: Data, to path: String, createDirectories: Bool = false)
    throws(FileWriteError)
  {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    if createDirectories {
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      } catch {
        throw FileWriteError(path: directory.path, reason: reason(error))
      }
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw FileWriteError(path: path, reason: "folder \(directory.path) does not exist")
    }
    // Unique per call: two threads (or processes) writing the same file never share a temporary.
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
      throw FileWriteError(
        path: path,
        reason: FileManager.default.isWritableFile(atPath: directory.path) ? "write failed" : "permission denied")
    }
    if rename(temporary.path, url.path) != 0 {
      let message = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw FileWriteError(path: path, reason: message)
    }
  }

  private static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return nsError.localizedDescription
  }
}
