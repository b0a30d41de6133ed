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

/// A file reference written inside a file of a folder (a `$ref` of a resolver, an asset named by
/// a spec), confined to that folder.
///
/// A reference must be a relative path that stays inside the folder: an absolute path, a `..`
/// that climbs above the folder, or a symbolic link (anywhere on the way) that leads outside it
/// is refused, so a crafted folder cannot make the tool read other files of the machine.
/// Symbolic links that stay inside the folder are followed.
public enum FolderReference {
  /// Why a reference was refused.
  public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reference is an absolute path.
    case absolute
    /// The reference climbs above the folder with `..`.
    case climbsOut
    /// The reference resolves, through symbolic links, to this path outside the folder.
    case linksOutside(String)

    /// The problem in words, naming the folder as `folder` (e.g. `the themes folder`).
    public func message(folder: String) -> String {
      switch self {
      case .absolute: return "is an absolute path; a reference is a path relative to \(folder)"
      case .climbsOut: return "leaves \(folder) with '..'; a reference must name a file inside it"
      case .linksOutside(let target):
        return "leads outside \(folder) through a symbolic link (to \(MessageText.path(target)))"
      }
    }

    /// The problem in words, e.g. `is an absolute path; a reference is a path relative to the folder`.
    public var description: String { message(folder: "the folder") }
  }

  /// The path of `reference` inside `folder`; a missing file is not an error here (reading it reports it).
  ///
  /// The check is lexical first (`/…`, `..` above the folder), then on the real paths: the
  /// folder's and, when the file exists, the file's, both with every symbolic link resolved.
  public static func resolve(_ reference: String, inside folder: URL) -> Result<String, Problem> {
    if reference.hasPrefix("/") { return .failure(.absolute) }
    var parts: [Substring] = []
    for part in reference.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..":
        guard !parts.isEmpty else { return .failure(.climbsOut) }
        parts.removeLast()
      default: parts.append(part)
      }
    }
    let base = folder.standardizedFileURL.path
    let path = ([base == "/" ? "" : base] + parts.map(String.init)).joined(separator: "/")
    guard let realFolder = realFolderPath(base) else { return .success(path) }
    // Only an existing file has a real path; a missing one is reported when it is read.
    guard let realFile = realFilePath(path) else { return .success(path) }
    let prefix = realFolder.hasSuffix("/") ? realFolder : realFolder + "/"
    guard realFile == realFolder || realFile.hasPrefix(prefix) else {
      return .failure(.linksOutside(realFile))
    }
    return .success(path)
  }

  /// Whether the file at the absolute `path` lies inside `folder`, both as written and once every
  /// symbolic link is resolved.
  /// - Returns: nil when it does; else where it really is (its real path when it exists).
  public static func outside(_ path: String, folder: URL) -> String? {
    let base = folder.standardizedFileURL.path
    let file = URL(fileURLWithPath: path).standardizedFileURL.path
    let prefix = base.hasSuffix("/") ? base : base + "/"
    guard file.hasPrefix(prefix) else { return realPath(file) ?? file }
    guard let realFolder = realPath(base), let realFile = realPath(file) else { return nil }
    let realPrefix = realFolder.hasSuffix("/") ? realFolder : realFolder + "/"
    return realFile.hasPrefix(realPrefix) ? nil : realFile
  }

  /// The real path of a folder, resolved once per process: a themes folder's files all sit in a
  /// few folders, and `realpath` reads every component of a path again (a render resolved some
  /// 1,100 symbolic links that were none).
  static func realFolderPath(_ folder: String) -> String? {
    if let known = realFolders.withLock({ $0[folder] }) { return known }
    guard let real = realPath(folder) else { return nil }
    realFolders.withLock { known in
      if known.count >= 1024 { known.removeAll() }
      known[folder] = real
    }
    return real
  }

  private static let realFolders = Locked<[String: String]>([:])

  /// The real path of the file at the absolute, lexically clean `path`: its folder's real path
  /// (``realFolderPath(_:)``) and its name, or when the file itself is a symbolic link, the real
  /// path of its target; nil when nothing is there.
  static func realFilePath(_ path: String) -> String? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    let slash = path.lastIndex(of: "/")
    guard (status.st_mode & S_IFMT) != S_IFLNK, let slash, slash != path.startIndex else {
      return realPath(path)
    }
    let name = path[path.index(after: slash)...]
    guard !name.isEmpty, name != ".", name != "..",
      let folder = realFolderPath(String(path[..<slash]))
    else { return realPath(path) }
    return folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// `realpath(3)`: the absolute path with every symbolic link, `.` and `..` resolved; nil when
  /// the path does not exist or cannot be resolved.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
