#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Paths written relative to a folder, so that what names them does not depend on where the
/// folder is (another checkout, another machine).
public enum RelativePath {
  /// `path` relative to `folder` when it is inside it (`a/b`; `.` for the folder itself), else
  /// nil. Both are standardized (made absolute against the current folder, `.` and `..` removed)
  /// and compared as they are, then with their symbolic links resolved.
  public static func inside(_ path: URL, folder: URL) -> String? {
    let file = path.standardizedFileURL
    let base = folder.standardizedFileURL
    for (file, folder) in [
      (file, base), (file.resolvingSymlinksInPath(), base.resolvingSymlinksInPath()),
    ] {
      let fileParts = file.pathComponents
      let folderParts = folder.pathComponents
      if fileParts == folderParts { return "." }
      if fileParts.count > folderParts.count,
        Array(fileParts.prefix(folderParts.count)) == folderParts
      {
        return fileParts.dropFirst(folderParts.count).joined(separator: "/")
      }
    }
    return nil
  }
}
