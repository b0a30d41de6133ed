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

/// What a command in watch mode re-renders for: files by exact path, every entry of some
/// folders, every entry below some folders (the themes folder), and outputs that never count.
///
/// Paths are absolute and standardized (see ``normalized(_:)``).
public struct WatchTargets: Sendable, Equatable {
  /// Files that count by exact path: the list, its icons, the font files, case files…
  public var files: Set<String> = []
  /// Folders whose every entry counts (not below): the snapshots folder's `cases/`.
  public var folders: Set<String> = []
  /// Folders whose every entry at any depth counts (the themes folders), with what each is in
  /// words (`the themes folder`).
  public var trees: [String: String] = [:]
  /// Folders that must be watchable when watching starts (the list's, the case folder, the themes
  /// folder): without one of them, watch mode would wait for nothing.
  public var requiredFolders: Set<String> = []
  /// Paths the command writes (a file, or a folder and all below it): never a change.
  public var outputs: Set<String> = []

  /// The most entries walked below one tree (files and folders): a bigger themes folder is refused.
  public static let maximumTreeEntries = 4096
  /// The most folders watched at once.
  public static let maximumFolders = 512

  /// Nothing to watch yet.
  public init() {}

  /// `path` made absolute (against the current folder) and standardized: `..` and `.` removed.
  public static func normalized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// Adds the file at `path`, and the file a symbolic link there points to (its edits happen
  /// there); with `required`, its folder must be watchable.
  public mutating func insert(file path: String, required: Bool = false) {
    let file = Self.normalized(path)
    files.insert(file)
    if required { requiredFolders.insert(PathText.deletingLastComponent(file)) }
    let target = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
    if target != file { files.insert(target) }
  }

  /// Adds the tree rooted at `path`, which is `what` in messages (`the themes folder`).
  public mutating func insert(tree path: String, what: String) {
    let root = Self.normalized(path)
    trees[root] = what
    requiredFolders.insert(root)
  }

  /// Adds the folder at `path`, which must be watchable.
  public mutating func insert(folder path: String) {
    let folder = Self.normalized(path)
    folders.insert(folder)
    requiredFolders.insert(folder)
  }

  /// Adds an output path.
  public mutating func insert(output path: String) {
    outputs.insert(Self.normalized(path))
  }

  /// These targets with the files of `other` added.
  public func adding(files other: Set<String>) -> WatchTargets {
    var copy = self
    copy.files.formUnion(other)
    return copy
  }

  /// The folders the command depends on as a whole: every tree's root, every folder, and the
  /// folder of every file outside the trees. When one is replaced (moved away and made again, as a
  /// branch switch or a sync tool does), the new one is watched; when one is gone, watch mode says
  /// so.
  public var namedFolders: Set<String> {
    let roots = trees.keys
    let fileFolders = files.map(PathText.deletingLastComponent).filter { folder in
      !roots.contains { folder == $0 || folder.hasPrefix($0 + "/") }
    }
    return Set(roots).union(folders).union(fileFolders)
  }

  /// `the themes folder Themes`, `the folder icons`: a named folder in words.
  public func describe(folder path: String) -> String {
    "\(trees[path] ?? "the folder") \(Self.describe([path]))"
  }

  /// Whether a change of `path` (the entry `name` of a watched folder) calls for a re-render.
  func isRelevant(_ path: String) -> Bool {
    let name = PathText.lastComponent(path)
    if AtomicFile.isTemporaryFileName(name) || isOutput(path) { return false }
    if files.contains(path) || folders.contains(path) || trees[path] != nil { return true }
    // The folder of a file, made, moved or deleted as a whole.
    if files.contains(where: { PathText.deletingLastComponent($0) == path }) { return true }
    let parent = PathText.deletingLastComponent(path)
    if folders.contains(parent) { return !Self.isNoise(name) }
    for root in trees.keys where path.hasPrefix(root + "/") {
      let below = path.dropFirst(root.count + 1).split(separator: "/")
      return !below.contains { Self.isNoise(String($0)) }
    }
    return false
  }

  /// Whether `path` is an output or lies inside one.
  func isOutput(_ path: String) -> Bool {
    outputs.contains { path == $0 || path.hasPrefix($0 + "/") }
  }

  /// Names that never count inside a watched folder: hidden entries (an editor's swap and lock
  /// files, `.git`), backups (`name~`, `#name#`). An exact file counts whatever its name.
  static func isNoise(_ name: String) -> Bool {
    name.hasPrefix(".") || name.hasSuffix("~") || (name.hasPrefix("#") && name.hasSuffix("#"))
      || name.isEmpty
  }

  /// The names in `folder`; none when it is gone or cannot be read (the render reports that).
  /// - Throws: ``WatchError`` when no descriptor is left to read it: a partial watch would miss
  ///   changes silently.
  static func entries(of folder: String) throws(WatchError) -> [String] {
    guard let stream = opendir(folder) else {
      let code = errno
      if code == EMFILE || code == ENFILE || code == ENOMEM {
        throw WatchError.system(code, "cannot list folder \(MessageText.path(folder))")
      }
      return []
    }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The folders to watch now: the folder of every file, every folder, every tree's folders (not
  /// the hidden ones, not outputs, no symbolic link followed below the root), and the folder
  /// holding each of these named folders (so that one deleted or replaced is seen).
  ///
  /// Each folder is paired with whether it follows symbolic links (the folders named by the
  /// command do; the folders found inside a tree are never entered through a link).
  /// - Throws: ``WatchError`` when a tree holds more than ``maximumTreeEntries`` entries or more
  ///   than ``maximumFolders`` folders are asked for.
  func plan() throws(WatchError) -> [String: Bool] {
    var plan: [String: Bool] = [:]
    func want(_ folder: String, follow: Bool) {
      plan[folder] = (plan[folder] ?? false) || follow
    }
    for file in files {
      let folder = PathText.deletingLastComponent(file)
      want(folder, follow: true)
      want(PathText.deletingLastComponent(folder), follow: true)
    }
    for folder in folders {
      want(folder, follow: true)
      want(PathText.deletingLastComponent(folder), follow: true)
    }
    for (root, what) in trees.sorted(by: { $0.key < $1.key }) {
      want(PathText.deletingLastComponent(root), follow: true)
      want(root, follow: true)
      var entries = 0
      var pending = [root]
      while let folder = pending.popLast() {
        for name in try Self.entries(of: folder) where !Self.isNoise(name) {
          entries += 1
          if entries > Self.maximumTreeEntries {
            throw WatchError(
              reason:
                "\(what) \(MessageText.path(root)) holds more than \(Self.maximumTreeEntries) files and folders, the most watch mode follows; watch a smaller copy"
            )
          }
          let path = folder + "/" + name
          if UserFile.type(atPath: path) == .directory, !isOutput(path) {
            want(path, follow: false)
            pending.append(path)
          }
        }
      }
    }
    if plan.count > Self.maximumFolders {
      throw WatchError(
        reason:
          "\(plan.count) folders to watch, more than the \(Self.maximumFolders) watch mode follows")
    }
    return plan
  }
}
