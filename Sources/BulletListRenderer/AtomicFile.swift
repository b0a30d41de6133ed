import Foundation
import Layout

/// Writes files so that a reader never sees a half-written one: a temporary file beside the
/// target, then a rename.
public enum AtomicFile {
  /// Writes `data` to `path`, creating missing parent folders when `createDirectories` is true.
  /// - Throws: `LayoutError` with one line naming the path and the reason.
  public static func write(_ data: Data, to path: String, createDirectories: Bool = false) throws {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    if createDirectories {
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      } catch {
        throw LayoutError("cannot create folder \(directory.path): \(reason(error))")
      }
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw LayoutError("cannot write \(path): folder \(directory.path) does not exist")
    }
    // Unique per call: two threads (or processes) writing the same file never share a temporary.
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
      throw LayoutError("cannot write \(path): \(FileManager.default.isWritableFile(atPath: directory.path) ? "write failed" : "permission denied")")
    }
    if rename(temporary.path, url.path) != 0 {
      let message = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw LayoutError("cannot write \(path): \(message)")
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
