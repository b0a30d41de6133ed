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

/// The font folders of fontconfig's default configuration, remembered between runs in a file of
/// the user's cache folder, so that a run parses that configuration (some 50 XML files on
/// Debian, several milliseconds) only when it changed.
///
/// An entry is trusted only while everything the configuration was read from is as it was: the
/// values of the environment variables fontconfig reads (``environmentKeys``); each file and
/// folder fontconfig reports having read (`FcConfigGetConfigFiles`: `fonts.conf`, `conf.d` and
/// every file in it), with its size, modification and status-change times, device and inode; the
/// folder that holds each of them (a file added beside them changes it); and the places of the
/// user's own configuration (`$XDG_CONFIG_HOME/fontconfig`, `~/.fonts.conf`, `~/.fonts.conf.d`),
/// which may be missing and must stay so. Nothing is recorded when one of those files changed
/// less than ``racyWindow`` before (a file written again within the file system's clock tick
/// could keep its times). What it cannot see: an `<include>` of a file in a folder that none of
/// those is, created after the run that recorded the folders; deleting the cache file (or any
/// change to the configuration's folders) makes the next run read the configuration again.
///
/// The file is `fontconfig-folders` beside the font hash cache (``FontHashCache/defaultFile(environment:)``),
/// read as a regular file of at most 256 KiB (a FIFO, a device or a larger file is ignored); a
/// file that does not parse line for line is ignored whole. It is rewritten atomically after a
/// configuration was read.
package struct FontconfigFolderCache {
  /// The cache file's name, in ``FontHashCache/folderName``.
  static let fileName = "fontconfig-folders"
  /// The first line of the file (its format).
  static let header = "ouds-render fontconfig folders 1"
  /// The environment variables that decide which configuration fontconfig reads and where its
  /// folders are.
  static let environmentKeys = [
    "FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "HOME", "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
  ]
  /// The most lines a cache file may have.
  static let maxLines = 4096

  /// The cache file; nil remembers nothing.
  let file: URL?
  /// The process's environment (only ``environmentKeys`` are used).
  let environment: [String: String]
  /// How long, in nanoseconds, every file read must have been unchanged for the folders to be
  /// recorded (2 s: far above any file system's clock tick).
  let racyWindow: Int64

  /// A cache for a process with `environment`: the file beside the font hash cache.
  package init(environment: [String: String]) {
    self.init(
      file: FontHashCache.defaultFile(environment: environment)?.deletingLastPathComponent()
        .appendingPathComponent(Self.fileName),
      environment: environment, racyWindow: 2_000_000_000)
  }

  init(file: URL?, environment: [String: String], racyWindow: Int64) {
    self.file = file
    self.environment = environment
    self.racyWindow = racyWindow
  }

  /// What a reading of the configuration gives: the font folders, and the files and folders
  /// fontconfig read them from.
  package struct Reading: Equatable {
    /// The font folders (`FcConfigGetFontDirs`).
    package var folders: [String]
    /// The files the configuration was read from (`FcConfigGetConfigFiles`).
    package var configurationFiles: [String]

    /// A reading of `folders` from `configurationFiles`.
    package init(folders: [String], configurationFiles: [String]) {
      self.folders = folders
      self.configurationFiles = configurationFiles
    }
  }

  /// The font folders: the recorded ones while nothing they came from changed, else `read()`'s
  /// (recorded for the next run); none when `read` fails (nil, nothing recorded).
  package func folders(read: () -> Reading?) -> [String] {
    if let recorded = load() { return recorded }
    guard let reading = read() else { return [] }
    save(reading)
    return reading.folders
  }

  /// One recorded environment variable: its value, or nil when unset.
  private struct Variable: Equatable {
    var name: String
    var value: String?
  }

  /// One watched path and what was there: nil when nothing was.
  private struct Watched: Equatable {
    var path: String
    var identity: FileIdentity?
  }

  /// The environment variables as this process has them.
  private var variables: [Variable] {
    Self.environmentKeys.map { Variable(name: $0, value: environment[$0]) }
  }

  /// The places of the user's own configuration, watched whether they exist or not.
  private var userConfigurationPaths: [String] {
    var paths: [String] = []
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      paths.append(config + "/fontconfig")
    } else if let home {
      paths.append(home + "/.config/fontconfig")
    }
    if let first = paths.first {
      paths += [first + "/conf.d", first + "/fonts.conf"]
    }
    if let home { paths += [home + "/.fonts.conf", home + "/.fonts.conf.d"] }
    return paths
  }

  /// Every path whose state the reading depends on: the configuration files, the folders that
  /// hold them, the user's configuration places; each once, in that order.
  private func watchedPaths(_ reading: Reading) -> [String] {
    var paths: [String] = []
    func add(_ path: String) {
      if !paths.contains(path) { paths.append(path) }
    }
    for file in reading.configurationFiles { add(file) }
    for file in reading.configurationFiles {
      add(URL(fileURLWithPath: file).deletingLastPathComponent().path)
    }
    for path in userConfigurationPaths { add(path) }
    return paths
  }

  /// The recorded folders, when the file parses and every recorded state is the present one.
  private func load() -> [String]? {
    guard let file, let data = try? UserFile.read(file.path, kind: .fontconfigFolderCache),
      var lines = TabSeparatedText.lines(data), lines.first == [Self.header],
      lines.count <= Self.maxLines
    else { return nil }
    lines.removeFirst()
    var variables: [Variable] = []
    var watched: [Watched] = []
    var folders: [String] = []
    for fields in lines {
      switch (fields.first, fields.count) {
      case ("unset", 2):
        variables.append(Variable(name: fields[1], value: nil))
      case ("set", 3):
        variables.append(Variable(name: fields[1], value: fields[2]))
      case ("missing", 2):
        watched.append(Watched(path: fields[1], identity: nil))
      case ("present", 7):
        guard let size = Int64(fields[2]), let modified = Int64(fields[3]),
          let changed = Int64(fields[4]), let device = UInt64(fields[5]),
          let inode = UInt64(fields[6])
        else { return nil }
        watched.append(
          Watched(
            path: fields[1],
            identity: FileIdentity(
              size: size, modified: modified, changed: changed, device: device, inode: inode)))
      case ("folder", 2):
        folders.append(fields[1])
      default:
        return nil
      }
    }
    guard variables == self.variables,
      watched.allSatisfy({ Self.isStorable($0.path) }),
      folders.allSatisfy({ Self.isStorable($0) }),
      watched.allSatisfy({ UserFile.identity(atPath: $0.path) == $0.identity })
    else { return nil }
    return folders
  }

  /// Records `reading` when every path it depends on can be written down and had not changed
  /// for ``racyWindow``; a failure is ignored (the cache only saves time).
  private func save(_ reading: Reading) {
    guard let file else { return }
    let now = Self.now()
    var text = Self.header + "\n"
    for variable in variables {
      if let value = variable.value {
        guard Self.isStorable(value, absolute: false) else { return }
        text += "set\t\(variable.name)\t\(value)\n"
      } else {
        text += "unset\t\(variable.name)\n"
      }
    }
    for path in watchedPaths(reading) {
      guard Self.isStorable(path) else { return }
      guard let identity = UserFile.identity(atPath: path) else {
        text += "missing\t\(path)\n"
        continue
      }
      guard now - identity.modified >= racyWindow, now - identity.changed >= racyWindow else {
        return
      }
      text +=
        "present\t\(path)\t\(identity.size)\t\(identity.modified)\t\(identity.changed)\t\(identity.device)\t\(identity.inode)\n"
    }
    for folder in reading.folders {
      guard Self.isStorable(folder) else { return }
      text += "folder\t\(folder)\n"
    }
    try? AtomicFile.write(
      Data(text.utf8), to: file.path, createDirectories: true, protecting: InputFiles())
  }

  /// Text the file format can hold: no control characters (tab and newline included); a path
  /// also absolute.
  private static func isStorable(_ text: String, absolute: Bool = true) -> Bool {
    (!absolute || text.hasPrefix("/"))
      && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
  }

  private static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
