internal import CGraphics
internal import CGraphicsLoader
import Primitives
import SafeInput
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A folder the ``FontLocator`` searches, and why it is searched.
public struct FontFolder: Hashable, Sendable, CustomStringConvertible {
  /// Why a folder is searched.
  public enum Origin: String, Hashable, Sendable {
    /// Given with `--font-dir` (`brandFontDirectory:` in Swift).
    case fontDirectory
    /// Listed in the environment variable `OUDS_FONT_DIRS`.
    case environment
    /// A font folder of the machine's default fontconfig configuration.
    case fontconfig

    /// How the origin is printed: `--font-dir`, `OUDS_FONT_DIRS`, `fontconfig`.
    public var label: String {
      switch self {
      case .fontDirectory: return "--font-dir"
      case .environment: return FontLocator.environmentVariable
      case .fontconfig: return "fontconfig"
      }
    }
  }

  /// The folder (searched with its sub-folders).
  public var url: URL
  /// Why it is searched.
  public var origin: Origin

  /// Creates a folder entry.
  public init(url: URL, origin: Origin) {
    self.url = url.standardizedFileURL
    self.origin = origin
  }

  /// `<folder> (<origin>)`, control characters escaped.
  public var description: String { "\(ControlCharacters.escaped(url.path)) (\(origin.label))" }
}

/// Where one font source was found: the file chosen and its hash.
public struct LocatedFont: Hashable, Sendable {
  /// The source asked for.
  public var declared: FontSource
  /// The file chosen.
  public var url: URL
  /// The SHA-256 of the chosen file, lower-case hex.
  public var sha256: String
  /// Files with the same name whose hash is not the declared one, passed over or (when no file
  /// has the declared hash) the one taken; in search order.
  public var otherCandidates: [URL]

  /// Creates a record.
  public init(declared: FontSource, url: URL, sha256: String, otherCandidates: [URL] = []) {
    self.declared = declared
    self.url = url
    self.sha256 = sha256
    self.otherCandidates = otherCandidates
  }

  /// Whether the chosen file has the declared SHA-256.
  public var matchesManifest: Bool { sha256 == declared.sha256 }
}

/// Finds the font files of ``FontSource`` lists: by file name in the font folders, chosen by SHA-256.
///
/// Folders are searched in order: `--font-dir`, each folder of `OUDS_FONT_DIRS` (colon-separated),
/// then the font folders of the machine's default fontconfig configuration (`FcConfigGetFontDirs`:
/// `/usr/share/fonts`, `/usr/local/share/fonts`, `~/.local/share/fonts`… on Debian; Homebrew's
/// and the system's on macOS), each with its sub-folders. The walk is bounded (``maxEntries``
/// directory entries, ``maxDepth`` levels) and done once per locator. Of the files named like a
/// source, the first whose SHA-256 equals the source's is chosen; when none does, the first is
/// taken and ``LocatedFont/matchesManifest`` is false so the caller says so. Only files named by a
/// requested source are hashed, each once, and through the ``FontHashCache`` when there is one: a
/// file whose size, times, device and inode are those it was hashed with is not read again.
///
/// Thread-safe: one locator can serve several renderers on several threads.
public final class FontLocator: Sendable {
  /// The environment variable that lists extra font folders, separated by `:`.
  public static let environmentVariable = "OUDS_FONT_DIRS"
  /// The most directory entries the walk visits over all folders.
  public static let maxEntries = 100_000
  /// The deepest sub-folder level the walk enters below each folder.
  public static let maxDepth = 12

  /// The folders searched, in order (fontconfig's are read the first time they are needed).
  public var folders: [FontFolder] {
    resolvedFolders.withLock { resolved in
      if let resolved { return resolved }
      var all = givenFolders
      if includesFontconfig {
        all += Self.fontconfigFolders().map { FontFolder(url: $0, origin: .fontconfig) }
      }
      var unique: [FontFolder] = []
      for folder in all where !unique.contains(where: { $0.url.path == folder.url.path }) {
        unique.append(folder)
      }
      resolved = unique
      return unique
    }
  }

  private let givenFolders: [FontFolder]
  /// Whether fontconfig's folders follow the given ones.
  private let includesFontconfig: Bool
  private let resolvedFolders = Locked<[FontFolder]?>(nil)
  /// Where hashes are remembered between runs; nil hashes every file the first time this locator
  /// needs it.
  public let hashCache: FontHashCache?

  /// The file names found by the walk (made on first use) and the hashes computed so far.
  private struct SearchState: Sendable {
    /// File name → the paths of the files of that name, in search order (URLs are made only for
    /// the names asked for: making one costs microseconds, and a font folder holds thousands).
    var index: [String: [String]]?
    /// The folder in which the walk used up its budget.
    var stoppedIn: FontFolder?
    var hashes: [String: String] = [:]
  }

  private let state = Locked(SearchState())

  /// A locator over exactly `folders`, remembering hashes in `hashCache` when given.
  public convenience init(folders: [FontFolder], hashCache: FontHashCache? = nil) {
    self.init(folders: folders, fontconfig: false, hashCache: hashCache)
  }

  private init(folders: [FontFolder], fontconfig: Bool, hashCache: FontHashCache?) {
    givenFolders = folders
    includesFontconfig = fontconfig
    self.hashCache = hashCache
  }

  /// A locator over `fontDirectory`, then the folders of `OUDS_FONT_DIRS`, then fontconfig's,
  /// remembering hashes in the user's cache folder (``FontHashCache/defaultFile(environment:)``).
  public convenience init(
    fontDirectory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    var folders: [FontFolder] = []
    if let fontDirectory { folders.append(FontFolder(url: fontDirectory, origin: .fontDirectory)) }
    for part in (environment[Self.environmentVariable] ?? "").split(separator: ":")
    where !part.isEmpty {
      folders.append(FontFolder(url: URL(fileURLWithPath: String(part)), origin: .environment))
    }
    self.init(
      folders: folders, fontconfig: true,
      hashCache: FontHashCache(file: FontHashCache.defaultFile(environment: environment)))
  }

  /// The font folders of the machine's default fontconfig configuration, as fontconfig lists them
  /// (`FcConfigGetFontDirs` of a configuration loaded without scanning fonts).
  ///
  /// Reading them parses the whole configuration (several milliseconds); a
  /// ``prefetchFontconfigFolders()`` under way or done is waited for and taken instead.
  public static func fontconfigFolders() -> [URL] {
    prefetch.lock()
    while case .running = prefetchState { prefetch.wait() }
    if case .ready(let folders) = prefetchState {
      prefetchState = .idle
      prefetch.unlock()
      return folders
    }
    prefetch.unlock()
    return readFontconfigFolders()
  }

  /// Reads ``fontconfigFolders()`` on a thread of `group`, for the next call to take: a
  /// command that will draw asks for it at start (`GraphicsLibraries.preload()` of `Graphics`), so that it
  /// overlaps the loading of the drawing libraries and the command's reading of lists and
  /// tokens. A call made before the folders are read waits for them rather than reading them
  /// again. Each prefetch serves one call; later calls read the folders again.
  package static func prefetchFontconfigFolders(in group: ThreadGroup) {
    prefetch.lock()
    guard case .idle = prefetchState else {
      prefetch.unlock()
      return
    }
    prefetchState = .running
    prefetch.unlock()
    group.start {
      let folders = readFontconfigFolders()
      prefetch.lock()
      prefetchState = .ready(folders)
      prefetch.broadcast()
      prefetch.unlock()
    }
  }

  private enum Prefetch {
    case idle
    case running
    case ready([URL])
  }

  private static let prefetch = ConditionLock()
  nonisolated(unsafe) private static var prefetchState = Prefetch.idle

  /// The folders as ``FontconfigFolderCache`` remembers them, else as fontconfig's default
  /// configuration gives them (``readFontconfigConfiguration()``).
  private static func readFontconfigFolders() -> [URL] {
    FontconfigFolderCache(environment: ProcessInfo.processInfo.environment).folders {
      readFontconfigConfiguration()
    }.map { URL(fileURLWithPath: $0) }
  }

  /// Fontconfig's default configuration, loaded without scanning fonts: its font folders
  /// (`FcConfigGetFontDirs`) and the files it was read from (`FcConfigGetConfigFiles`); nil when
  /// fontconfig cannot be loaded or fails.
  static func readFontconfigConfiguration() -> FontconfigFolderCache.Reading? {
    guard (try? FontLibrary.loadFontconfig()) != nil else { return nil }
    guard let config = ouds_FcInitLoadConfig() else { return nil }
    defer { ouds_FcConfigDestroy(config) }
    return FontconfigFolderCache.Reading(
      folders: strings(ouds_FcConfigGetFontDirs(config)),
      configurationFiles: strings(ouds_FcConfigGetConfigFiles(config)))
  }

  /// The strings of a fontconfig string list, which is then freed.
  private static func strings(_ list: OpaquePointer?) -> [String] {
    guard let list else { return [] }
    defer { ouds_FcStrListDone(list) }
    var result: [String] = []
    while let entry = ouds_FcStrListNext(list) { result.append(String(cString: entry)) }
    return result
  }

  /// The file for `declared`, or nil when no folder holds a file of that name.
  public func locate(_ declared: FontSource) -> LocatedFont? {
    let candidates = files(named: declared.fileName)
    var hashed: [(URL, String)] = []
    for url in candidates {
      guard let sha = sha256(of: url) else { continue }
      if sha == declared.sha256 {
        return LocatedFont(
          declared: declared, url: url, sha256: sha, otherCandidates: hashed.map(\.0))
      }
      hashed.append((url, sha))
    }
    guard let first = hashed.first else { return nil }
    return LocatedFont(
      declared: declared, url: first.0, sha256: first.1, otherCandidates: hashed.map(\.0))
  }

  /// Locates every file of `lists`.
  /// - Returns: the located files, keyed by their source.
  /// - Throws: `FontError.fontFilesMissing` listing every file that no folder holds (with the
  ///   package that provides it and the owners that need it), in one error.
  public func locate(_ lists: [FontSourceList]) throws(FontError) -> [FontSource: LocatedFont] {
    var found: [FontSource: LocatedFont] = [:]
    var missing: [FontError.MissingFont] = []
    for list in lists {
      for file in list.sources where found[file] == nil {
        if let located = locate(file) {
          found[file] = located
        } else if let index = missing.firstIndex(where: { $0.fileName == file.fileName }) {
          if !missing[index].themes.contains(list.owner) {
            missing[index].themes.append(list.owner)
          }
        } else {
          missing.append(
            FontError.MissingFont(
              fileName: file.fileName, package: file.package, themes: [list.owner]))
        }
      }
    }
    guard missing.isEmpty else {
      throw .fontFilesMissing(
        missing, searched: folders.map(\.description), searchStoppedIn: searchStoppedIn)
    }
    return found
  }

  /// The folder in whose tree the walk found `url` (the first in search order whose path
  /// begins `url`'s), nil for a file outside every folder: tells a file of a folder the user
  /// named (`--font-dir`, `OUDS_FONT_DIRS`) from one of the machine's fonts.
  public func folder(containing url: URL) -> FontFolder? {
    let path = url.path
    return folders.first { folder in
      let root = folder.url.path
      return path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
  }

  /// Whether the walk stopped at ``maxEntries`` before visiting every folder.
  public var searchWasTruncated: Bool { searchStoppedIn != nil }

  /// The folder in which the walk used up ``maxEntries``, nil when it visited every folder.
  public var searchStoppedIn: FontFolder? {
    state.withLock { state in
      if state.index == nil { buildIndex(into: &state) }
      return state.stoppedIn
    }
  }

  /// The SHA-256 of a regular file (symbolic links followed), computed once per path (and, with
  /// a ``hashCache``, only when the file changed since a run hashed it); nil for anything else (a
  /// folder, a FIFO, a device), a file over the font size limit
  /// (``SafeInput/UserFileKind/font``) or an unreadable file. The file is read through
  /// ``SafeInput/UserFile``: the type is checked on the open descriptor, so nothing can block.
  public func sha256(of url: URL) -> String? {
    let path = url.path
    if let known = state.withLock({ $0.hashes[path] }) { return known }
    let computed = hashCache.map { $0.sha256(of: url) } ?? SHA256Digest.hex(ofFileAt: url)
    guard let sha = computed else { return nil }
    state.withLock { $0.hashes[path] = sha }
    return sha
  }

  /// The files called `name` in the folders, in search order.
  private func files(named name: String) -> [URL] {
    state.withLock { state in
      if state.index == nil { buildIndex(into: &state) }
      return (state.index?[name] ?? []).map { URL(fileURLWithPath: $0) }
    }
  }

  /// Walks every folder once (bounded), recording every file name; called with the lock held.
  ///
  /// Folders are read with `readdir`, whose entry types spare a `stat` for plain files and
  /// folders; a symbolic link (or an entry of unknown type) is followed with one `stat`. A folder
  /// reached twice (through links) is walked once, by device and inode.
  private func buildIndex(into state: inout SearchState) {
    var index: [String: [String]] = [:]
    var visited = Set<FolderKey>()
    var budget = Self.maxEntries
    outer: for folder in folders {
      var queue: [(path: String, depth: Int)] = [(folder.url.path, 0)]
      var next = 0
      while next < queue.count {
        let (directory, depth) = queue[next]
        next += 1
        var status = stat()
        guard stat(directory, &status) == 0, FileType(mode: status.st_mode) == .directory,
          visited.insert(FolderKey(status)).inserted,
          let entries = Self.entries(of: directory)
        else { continue }
        for (name, type) in entries {
          budget -= 1
          if budget < 0 {
            state.stoppedIn = folder
            break outer
          }
          let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
          var isDirectory = type == DT_DIR
          if type == DT_LNK || type == DT_UNKNOWN {
            var target = stat()
            guard stat(path, &target) == 0 else { continue }  // a broken link
            isDirectory = FileType(mode: target.st_mode) == .directory
          }
          if isDirectory {
            if depth < Self.maxDepth && !name.hasPrefix(".") { queue.append((path, depth + 1)) }
          } else {
            index[name, default: []].append(path)
          }
        }
      }
    }
    state.index = index
  }

  /// A folder's device and inode.
  private struct FolderKey: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ status: stat) {
      device = UInt64(truncatingIfNeeded: status.st_dev)
      inode = UInt64(truncatingIfNeeded: status.st_ino)
    }
  }

  /// The entries of a folder (without `.` and `..`), sorted by name, with their `readdir` types;
  /// nil when it cannot be opened.
  private static func entries(of directory: String) -> [(name: String, type: Int)]? {
    guard let handle = opendir(directory) else { return nil }
    defer { closedir(handle) }
    var entries: [(name: String, type: Int)] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      entries.append((name, Int(entry.pointee.d_type)))
    }
    return entries.sorted { $0.name < $1.name }
  }
}
