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

/// Which `Themes/` folder tokens and font manifests are read from, and why that one.
///
/// ``resolve(explicit:snapshotsDirectory:environment:currentDirectory:packageCopyCandidates:)``
/// takes the first of, in order:
/// 1. the folder given explicitly (`--themes`, `themesDirectory:`);
/// 2. the environment variable `OUDS_THEMES_DIR`;
/// 3. for snapshot commands, the `Themes/` beside the snapshots folder (`<snapshots>/../Themes`);
/// 4. a `Themes/` in the current folder or one of its parents, passing over (with one line on
///    standard error) any that another user could have put there: not owned by this user or root,
///    or writable by others (or by a group other than this user's own), as git refuses a
///    repository owned by someone else (`safe.directory`);
/// 5. the package's own copy, shipped as a SwiftPM resource bundle beside the executable.
///
/// No path is ever taken from the build machine: a binary copied elsewhere finds its themes by
/// these rules or says it cannot.
public struct ThemesLocation: Hashable, Sendable, CustomStringConvertible {
  /// Why a folder was chosen.
  public enum Source: String, Hashable, Sendable, CaseIterable {
    /// Given by the caller (`--themes`, `themesDirectory:`).
    case explicit
    /// Named by the environment variable `OUDS_THEMES_DIR`.
    case environment
    /// The `Themes/` beside the snapshots folder.
    case besideSnapshots
    /// A `Themes/` in the current folder or one of its parents.
    case currentFolder
    /// The copy shipped inside the package's resource bundle.
    case package

    /// The reason in words, as printed after the folder: `--themes`, `OUDS_THEMES_DIR`…
    public var reason: String {
      switch self {
      case .explicit: return "--themes"
      case .environment: return ThemesLocation.environmentVariable
      case .besideSnapshots: return "beside the snapshots folder"
      case .currentFolder: return "found from the current folder"
      case .package: return "the package's copy"
      }
    }
  }

  /// The folder that holds `themes.resolver.json`.
  public var directory: URL
  /// Why this folder was chosen.
  public var source: Source

  /// The environment variable that names a themes folder.
  public static let environmentVariable = "OUDS_THEMES_DIR"
  /// The name of the folder the resolver looks for beside the snapshots folder and in the current folder's chain.
  public static let folderName = "Themes"
  /// The SwiftPM resource bundle that holds the package's copy (`<package>_<target>`), without its extension.
  public static let packageBundleName = "OUDSBulletListRenderer_ThemesBundle"

  /// Creates a location.
  public init(directory: URL, source: Source) {
    self.directory = directory.standardizedFileURL
    self.source = source
  }

  /// `<folder> (<reason>)`, e.g. `/work/Themes (--themes)`.
  public var description: String { "\(directory.path) (\(source.reason))" }

  /// Finds the themes folder (see the type's documentation for the order).
  /// - Parameters:
  ///   - explicit: a folder the caller names; it must hold `themes.resolver.json`.
  ///   - snapshotsDirectory: for snapshot commands, the snapshots folder whose sibling `Themes/` comes third.
  ///   - environment: the process environment (read for `OUDS_THEMES_DIR`).
  ///   - currentDirectory: where the upward search starts; nil is the process's current folder.
  ///   - packageCopyCandidates: the folders that may hold the package's copy; nil looks beside the executable.
  /// - Throws: `ThemeError` when an explicit or environment folder is not a themes folder, or when
  ///   no step finds one (the message lists what was tried).
  public static func resolve(
    explicit: URL? = nil, snapshotsDirectory: URL? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    currentDirectory: URL? = nil, packageCopyCandidates: [URL]? = nil
  ) throws(ThemeError) -> ThemesLocation {
    if let explicit {
      guard isThemesFolder(explicit) else {
        throw ThemeError(
          message:
            "--themes \(explicit.path): not a themes folder (no \(ThemeLibrary.resolverFileName) in it)"
        )
      }
      return ThemesLocation(directory: explicit, source: .explicit)
    }
    if let value = environment[environmentVariable], !value.isEmpty {
      let url = URL(fileURLWithPath: value)
      guard isThemesFolder(url) else {
        throw ThemeError(
          message:
            "\(environmentVariable)=\(value): not a themes folder (no \(ThemeLibrary.resolverFileName) in it)"
        )
      }
      return ThemesLocation(directory: url, source: .environment)
    }
    var tried: [String] = ["no --themes", "\(environmentVariable) is not set"]
    if let snapshotsDirectory {
      let beside = snapshotsDirectory.standardizedFileURL.deletingLastPathComponent()
        .appendingPathComponent(folderName)
      if isThemesFolder(beside) {
        return ThemesLocation(directory: beside, source: .besideSnapshots)
      }
      tried.append("no \(beside.path)")
    }
    let start = currentDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    if let found = findWalkingUp(from: start) {
      return ThemesLocation(directory: found, source: .currentFolder)
    }
    tried.append("no \(folderName)/ in \(start.standardizedFileURL.path) or its parents")
    let candidates = packageCopyCandidates ?? defaultPackageCopyCandidates()
    if let copy = packageCopy(candidates: candidates) {
      return ThemesLocation(directory: copy, source: .package)
    }
    let looked =
      candidates.isEmpty
      ? "no executable folder is known" : candidates.map(\.path).joined(separator: ", ")
    tried.append("the package's copy is not installed beside the executable (looked for \(looked))")
    throw ThemeError(
      message: "cannot find a themes folder: " + tried.joined(separator: "; ")
        + ". Pass --themes <dir> (themesDirectory: in Swift) or set \(environmentVariable)")
  }

  /// The package's own copy of the themes folder (the `Themes/` of the first of `candidates`
  /// that holds one; nil looks beside the executable), or nil when it is not installed.
  public static func packageCopy(candidates: [URL]? = nil) -> URL? {
    for bundle in candidates ?? defaultPackageCopyCandidates() {
      let copy = bundle.appendingPathComponent(folderName)
      if isThemesFolder(copy) { return copy.standardizedFileURL }
    }
    return nil
  }

  /// Whether `url` is a folder holding `themes.resolver.json`.
  public static func isThemesFolder(_ url: URL) -> Bool {
    PathText.isNonFolder(url.appendingPathComponent(ThemeLibrary.resolverFileName).path)
  }

  /// The places SwiftPM puts this package's resource bundle: beside the running executable
  /// (`<bin>/OUDSBulletListRenderer_ThemesBundle.resources` on Linux, `….bundle` on macOS, also inside an
  /// app's `Resources`).
  ///
  /// SwiftPM's generated `Bundle.module` is deliberately not used: on Linux it falls back to the
  /// absolute build folder of the machine that compiled it and stops the process with `fatalError`
  /// when neither exists. This lookup uses the same bundle name in the same place, and the
  /// resolver reports a clear error instead.
  public static func defaultPackageCopyCandidates() -> [URL] {
    #if os(Linux)
      // What Foundation's `Bundle.main.bundleURL` is on Linux: the running executable's folder,
      // links resolved (read here without linking Foundation, whose start-up costs ~2.5 ms).
      guard let executable = FolderReference.realPath("/proc/self/exe") else { return [] }
      let folders = [URL(fileURLWithPath: PathText.deletingLastComponent(executable))]
    #else
      var folders: [URL] = [Bundle.main.bundleURL]
      if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath()
        .deletingLastPathComponent()
      {
        folders.append(executable)
      }
      if let resources = Bundle.main.resourceURL { folders.append(resources) }
    #endif
    var candidates: [URL] = []
    for folder in folders {
      #if os(Linux)
        let bundle = folder.appendingPathComponent(packageBundleName + ".resources")
        if !candidates.contains(bundle) { candidates.append(bundle) }
      #else
        let bundle = folder.appendingPathComponent(packageBundleName + ".bundle")
        for candidate in [bundle, bundle.appendingPathComponent("Contents/Resources")]
        where !candidates.contains(candidate) {
          candidates.append(candidate)
        }
      #endif
    }
    return candidates
  }

  /// The first `Themes/` holding a resolver in `start` or one of its parents that ``stranger(_:)``
  /// does not refuse; each one passed over is said once on standard error.
  private static func findWalkingUp(from start: URL) -> URL? {
    var folder = start.standardizedFileURL
    while true {
      let candidate = folder.appendingPathComponent(folderName)
      if isThemesFolder(candidate) {
        guard let why = stranger(candidate) else { return candidate }
        PassedOver.tell(
          "note: passing over the themes folder \(MessageText.path(candidate.path)) found from the current folder: \(why); pass --themes \(MessageText.path(candidate.path)) or set \(environmentVariable) to use it"
        )
      }
      let parent = folder.deletingLastPathComponent()
      if parent.path == folder.path { return nil }
      folder = parent
    }
  }

  /// Why the themes folder `folder` (or its resolver file) may be another user's, or nil when it
  /// is this user's or root's and only they can write it: the owner is not this user or root, or
  /// others may write it, or a group other than this user's own may.
  public static func stranger(_ folder: URL) -> String? {
    let user = geteuid()
    let group = getegid()
    let paths = [
      (folder.path, "it", false), (folder.path, "it", true),
      (
        folder.appendingPathComponent(ThemeLibrary.resolverFileName).path,
        ThemeLibrary.resolverFileName, true
      ),
    ]
    for (path, what, follow) in paths {
      var status = stat()
      guard (follow ? stat(path, &status) : lstat(path, &status)) == 0 else { continue }
      if status.st_uid != user && status.st_uid != 0 {
        return "\(what) is owned by user id \(status.st_uid), not by you (\(user)) or root"
      }
      // A link's own mode bits mean nothing.
      if !follow && (status.st_mode & S_IFMT) == S_IFLNK { continue }
      if status.st_mode & S_IWOTH != 0 {
        return "\(what) is writable by every user"
      }
      if status.st_mode & S_IWGRP != 0 && status.st_gid != group && status.st_gid != 0 {
        return "\(what) is writable by the group id \(status.st_gid), not only by you"
      }
    }
    return nil
  }
}

/// The folders already said to be passed over, so that a run says it once.
private enum PassedOver {
  nonisolated(unsafe) static var told: Set<String> = []
  nonisolated(unsafe) static var mutex = pthread_mutex_t()

  static func tell(_ line: String) {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    guard told.insert(line).inserted else { return }
    _ = Array((line + "\n").utf8).withUnsafeBytes { Descriptor.writeAll($0, to: 2) }
  }
}
