import CGraphics
import Foundation
import SafeInput

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
/// requested source are hashed, each once.
///
/// Thread-safe: one locator can serve several renderers on several threads.
public final class FontLocator: Sendable {
  /// The environment variable that lists extra font folders, separated by `:`.
  public static let environmentVariable = "OUDS_FONT_DIRS"
  /// The most directory entries the walk visits over all folders.
  public static let maxEntries = 100_000
  /// The deepest sub-folder level the walk enters below each folder.
  public static let maxDepth = 12

  /// The folders searched, in order.
  public let folders: [FontFolder]

  /// The file names found by the walk (made on first use) and the hashes computed so far.
  private struct SearchState: Sendable {
    var index: [String: [URL]]?
    var truncated = false
    var hashes: [String: String] = [:]
  }

  private let state = Locked(SearchState())

  /// A locator over exactly `folders`.
  public init(folders: [FontFolder]) {
    var unique: [FontFolder] = []
    for folder in folders where !unique.contains(where: { $0.url.path == folder.url.path }) {
      unique.append(folder)
    }
    self.folders = unique
  }

  /// A locator over `fontDirectory`, then the folders of `OUDS_FONT_DIRS`, then fontconfig's.
  public convenience init(
    fontDirectory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    var folders: [FontFolder] = []
    if let fontDirectory { folders.append(FontFolder(url: fontDirectory, origin: .fontDirectory)) }
    for part in (environment[Self.environmentVariable] ?? "").split(separator: ":")
    where !part.isEmpty {
      folders.append(FontFolder(url: URL(fileURLWithPath: String(part)), origin: .environment))
    }
    for url in Self.fontconfigFolders() {
      folders.append(FontFolder(url: url, origin: .fontconfig))
    }
    self.init(folders: folders)
  }

  /// The font folders of the machine's default fontconfig configuration, as fontconfig lists them
  /// (`FcConfigGetFontDirs` of a configuration loaded without scanning fonts).
  public static func fontconfigFolders() -> [URL] {
    guard let config = FcInitLoadConfig() else { return [] }
    defer { FcConfigDestroy(config) }
    guard let list = FcConfigGetFontDirs(config) else { return [] }
    defer { FcStrListDone(list) }
    var folders: [URL] = []
    while let entry = FcStrListNext(list) {
      folders.append(URL(fileURLWithPath: String(cString: entry)))
    }
    return folders
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
  /// - Throws: `GraphicsError.fontFilesMissing` listing every file that no folder holds (with the
  ///   package that provides it and the owners that need it), in one error.
  public func locate(_ lists: [FontSourceList]) throws(GraphicsError) -> [FontSource: LocatedFont] {
    var found: [FontSource: LocatedFont] = [:]
    var missing: [GraphicsError.MissingFont] = []
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
            GraphicsError.MissingFont(
              fileName: file.fileName, package: file.package, themes: [list.owner]))
        }
      }
    }
    guard missing.isEmpty else {
      throw .fontFilesMissing(
        missing, searched: folders.map(\.description), searchTruncated: searchWasTruncated)
    }
    return found
  }

  /// Whether the walk stopped at ``maxEntries`` before visiting every folder.
  public var searchWasTruncated: Bool {
    state.withLock { state in
      if state.index == nil { buildIndex(into: &state) }
      return state.truncated
    }
  }

  /// The SHA-256 of a regular file (symbolic links followed), computed once per path; nil for
  /// anything else (a folder, a FIFO, a device), a file over the font size limit
  /// (``SafeInput/UserFileKind/font``) or an unreadable file. The file is read through
  /// ``SafeInput/UserFile``: the type is checked on the open descriptor, so nothing can block.
  public func sha256(of url: URL) -> String? {
    let path = url.path
    if let known = state.withLock({ $0.hashes[path] }) { return known }
    guard let sha = SHA256Digest.hex(ofFileAt: url) else { return nil }
    state.withLock { $0.hashes[path] = sha }
    return sha
  }

  /// The files called `name` in the folders, in search order.
  private func files(named name: String) -> [URL] {
    state.withLock { state in
      if state.index == nil { buildIndex(into: &state) }
      return state.index?[name] ?? []
    }
  }

  /// Walks every folder once (bounded), recording every file name; called with the lock held.
  private func buildIndex(into state: inout SearchState) {
    var index: [String: [URL]] = [:]
    var visited = Set<String>()
    var budget = Self.maxEntries
    let fileManager = FileManager.default
    outer: for folder in folders {
      var queue: [(URL, Int)] = [(folder.url, 0)]
      while !queue.isEmpty {
        let (directory, depth) = queue.removeFirst()
        let real = directory.resolvingSymlinksInPath().path
        guard visited.insert(real).inserted,
          let names = try? fileManager.contentsOfDirectory(atPath: directory.path)
        else { continue }
        for name in names.sorted() {
          budget -= 1
          if budget < 0 {
            state.truncated = true
            break outer
          }
          let url = directory.appendingPathComponent(name)
          var isDirectory: ObjCBool = false
          guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            continue
          }
          if isDirectory.boolValue {
            if depth < Self.maxDepth && !name.hasPrefix(".") { queue.append((url, depth + 1)) }
          } else {
            index[name, default: []].append(url)
          }
        }
      }
    }
    state.index = index
  }
}
