import SafeInput
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The folder that paths in the files a run writes for people and CI servers (the review page,
/// JUnit, the Markdown summary, `results.json`) are relative to, so they never hold the absolute
/// paths of the machine that ran them.
///
/// It is the top level of the git work tree that holds the current folder (the nearest folder
/// upwards with a `.git` folder or file), else the current folder itself. A path inside it is
/// written relative to it (`Snapshots/sample-3/orange-light@2x.png`, `.` for the root itself); a
/// path outside it (a system font folder) is written as the absolute path it is.
public struct RepositoryRoot: Hashable, Sendable, CustomStringConvertible {
  /// The folder, absolute and standardized.
  public var directory: URL

  /// The root at `directory` (made absolute against the current folder and standardized).
  public init(directory: URL) {
    self.directory = directory.standardizedFileURL
  }

  /// The git top level above `folder` (the current folder by default), else `folder`.
  public static func find(
    from folder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  )
    -> RepositoryRoot
  {
    let start = folder.standardizedFileURL
    var candidate = start
    while true {
      if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(".git").path) {
        return RepositoryRoot(directory: candidate)
      }
      let parent = candidate.deletingLastPathComponent()
      if parent.path == candidate.path { return RepositoryRoot(directory: start) }
      candidate = parent
    }
  }

  /// A path as results files write it (relative to the root, or absolute) as an absolute path.
  public func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : directory.appendingPathComponent(path).path
  }

  /// The root's path.
  public var description: String { directory.path }

  /// `path` (absolute, or relative to the current folder) relative to the root when it is inside
  /// it (`.` for the root itself), else the absolute, standardized path.
  public func relative(_ path: String) -> String {
    let url = URL(fileURLWithPath: path).standardizedFileURL
    return RelativePath.inside(url, folder: directory) ?? url.path
  }

  /// `text` (a message, a line that names folders) with every absolute path inside the root
  /// rewritten relative to it: `<root>/x/y` becomes `x/y`, the root alone `.`.
  ///
  /// A root path counts only where a path can start (at the start of the text or after a
  /// character that cannot be part of a path, such as a space, a quote or a parenthesis) and
  /// where it ends (before `/` or such a character), so `/tmp/ab` is not rewritten inside
  /// `/tmp/abc` or `/x/tmp/ab`.
  public func relativized(_ text: String) -> String {
    var result = text
    let roots = Set([directory.path, directory.resolvingSymlinksInPath().path]).filter { $0 != "/" }
    for root in roots.sorted(by: { $0.count > $1.count }) {
      result = Self.rewrite(result, root: root)
    }
    return result
  }

  private static func rewrite(_ text: String, root: String) -> String {
    guard text.contains(root) else { return text }
    var out = ""
    var rest = Substring(text)
    while let range = rest.firstRange(of: root) {
      let before = rest[..<range.lowerBound]
      let previous = before.last ?? out.last
      let next = rest[range.upperBound...].first
      let startsPath = previous.map { !isPathCharacter($0) } ?? true
      out += before
      if startsPath, next == "/" {
        rest = rest[rest.index(after: range.upperBound)...]
      } else if startsPath, next.map({ !isPathCharacter($0) }) ?? true {
        out += "."
        rest = rest[range.upperBound...]
      } else {
        out += rest[range]
        rest = rest[range.upperBound...]
      }
    }
    return out + rest
  }

  /// Whether `character` can be part of a path next to the root's (letters, digits, `/`, `.`,
  /// `_`, `-`, `@`, `+`, `~`).
  private static func isPathCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || "/._-@+~".contains(character)
  }
}
