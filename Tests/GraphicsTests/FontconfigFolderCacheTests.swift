import Foundation
import SafeInput
import Testing
import Threads

@testable import Fonts
@testable import Graphics

/// The remembered font folders of fontconfig's configuration: used while nothing the
/// configuration was read from changed, read again as soon as anything did, and never trusted
/// from a cache file that does not parse.
@Suite("FontconfigFolderCache")
struct FontconfigFolderCacheTests {
  /// A configuration of two files in `etc/fonts` (one in `conf.d`), a home, and the cache.
  struct Setup {
    let root: URL
    let configuration: [String]
    let home: String
    let cacheFile: URL
    let environment: [String: String]

    init() throws {
      root = try Fixtures.temporaryFolder("ouds-fc-cache")
      let fonts = root.appendingPathComponent("etc/fonts")
      let confD = fonts.appendingPathComponent("conf.d")
      try FileManager.default.createDirectory(at: confD, withIntermediateDirectories: true)
      let main = fonts.appendingPathComponent("fonts.conf")
      let rule = confD.appendingPathComponent("10-rule.conf")
      try Data("<fontconfig><dir>/a</dir></fontconfig>".utf8).write(to: main)
      try Data("<fontconfig/>".utf8).write(to: rule)
      configuration = [main.path, confD.path, rule.path]
      home = root.appendingPathComponent("home").path
      try FileManager.default.createDirectory(
        atPath: home, withIntermediateDirectories: true)
      cacheFile = root.appendingPathComponent("cache/ouds-render/fontconfig-folders")
      environment = ["HOME": home, "FONTCONFIG_FILE": main.path]
    }

    func cache(environment: [String: String]? = nil) -> FontconfigFolderCache {
      FontconfigFolderCache(
        file: cacheFile, environment: environment ?? self.environment, racyWindow: 0)
    }

    /// The folders, and whether the configuration was read to get them.
    func folders(_ cache: FontconfigFolderCache, reading folders: [String] = ["/a", "/b"])
      -> ([String], read: Bool)
    {
      var read = false
      let result = cache.folders {
        read = true
        return FontconfigFolderCache.Reading(folders: folders, configurationFiles: configuration)
      }
      return (result, read)
    }
  }

  @Test("the second run takes the recorded folders without reading the configuration")
  func remembered() throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.root) }
    #expect(setup.folders(setup.cache()) == (["/a", "/b"], read: true))
    #expect(setup.folders(setup.cache(), reading: ["/other"]) == (["/a", "/b"], read: false))
    let text = try String(contentsOf: setup.cacheFile, encoding: .utf8)
    #expect(text.hasPrefix(FontconfigFolderCache.header + "\n"))
    #expect(text.contains("\nset\tFONTCONFIG_FILE\t\(setup.configuration[0])\n"))
    #expect(text.contains("\nunset\tXDG_CONFIG_HOME\n"))
    #expect(text.contains("\nmissing\t\(setup.home)/.config/fontconfig\n"))
    #expect(text.hasSuffix("folder\t/a\nfolder\t/b\n"))
  }

  @Test(
    "any change to what the folders came from reads the configuration again",
    arguments: ["edited file", "new file beside", "user configuration", "environment", "removed"])
  func invalidated(change: String) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.root) }
    #expect(setup.folders(setup.cache()).read)
    var environment = setup.environment
    switch change {
    case "edited file":
      try Data("<fontconfig><dir>/c</dir></fontconfig>".utf8).write(
        to: URL(fileURLWithPath: setup.configuration[2]))
    case "new file beside":
      try Data("<fontconfig/>".utf8).write(
        to: URL(fileURLWithPath: setup.configuration[1]).appendingPathComponent("20-new.conf"))
    case "user configuration":
      try FileManager.default.createDirectory(
        atPath: setup.home + "/.config/fontconfig", withIntermediateDirectories: true)
    case "environment":
      environment["XDG_DATA_HOME"] = setup.root.path
    default:
      try FileManager.default.removeItem(atPath: setup.configuration[2])
    }
    #expect(
      setup.folders(setup.cache(environment: environment), reading: ["/new"]) == (
        ["/new"], read: true
      ))
    // and what was read then is what the next run takes
    #expect(setup.folders(setup.cache(environment: environment)) == (["/new"], read: false))
  }

  @Test(
    "a cache file that does not parse, is not a regular file or is too large is not trusted",
    arguments: [
      "garbage", "header only", "bad identity", "extra field", "relative folder", "fifo", "huge",
    ]
  )
  func hostileCacheFiles(kind: String) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.root) }
    #expect(setup.folders(setup.cache()).read)
    let valid = try String(contentsOf: setup.cacheFile, encoding: .utf8)
    try FileManager.default.removeItem(at: setup.cacheFile)
    switch kind {
    case "garbage": try Data("\u{0}\u{1}nonsense\n".utf8).write(to: setup.cacheFile)
    case "header only":
      try Data("\(FontconfigFolderCache.header)\n".utf8).write(to: setup.cacheFile)
    case "bad identity":
      try Data((valid + "present\t/x\t1\t2\t3\tfour\t5\n").utf8).write(to: setup.cacheFile)
    case "extra field":
      try Data(valid.replacingOccurrences(of: "folder\t/a", with: "folder\t/a\tmore").utf8)
        .write(to: setup.cacheFile)
    case "relative folder":
      try Data(valid.replacingOccurrences(of: "folder\t/a", with: "folder\ta").utf8)
        .write(to: setup.cacheFile)
    case "fifo": #expect(mkfifo(setup.cacheFile.path, 0o644) == 0)
    default:
      try Data((valid + String(repeating: "folder\t/x\n", count: 30_000)).utf8)
        .write(to: setup.cacheFile)
    }
    // the configuration is read (a FIFO is not waited on), the folders are its own
    #expect(setup.folders(setup.cache(), reading: ["/read"]) == (["/read"], read: true))
  }

  @Test(
    "nothing is recorded when the configuration changed within the racy window, or was not read")
  func notRecorded() throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.root) }
    // the files were written just now: with the real 2 s window nothing can be trusted yet
    let careful = FontconfigFolderCache(
      file: setup.cacheFile, environment: setup.environment, racyWindow: 2_000_000_000)
    #expect(setup.folders(careful).read)
    #expect(!FileManager.default.fileExists(atPath: setup.cacheFile.path))
    // a failed reading gives no folders and leaves no record
    #expect(setup.cache().folders { nil } == [])
    #expect(!FileManager.default.fileExists(atPath: setup.cacheFile.path))
  }

  @Test("the process's own reading: fontconfig's folders, the same remembered or not")
  func realConfiguration() throws {
    let folder = try Fixtures.temporaryFolder("ouds-fc-real")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("fontconfig-folders")
    let environment = ProcessInfo.processInfo.environment
    let cache = FontconfigFolderCache(file: file, environment: environment, racyWindow: 0)
    let first = cache.folders { FontLocator.readFontconfigConfiguration() }
    #expect(first.contains("/usr/share/fonts"), "\(first)")
    var readAgain = false
    let second = cache.folders {
      readAgain = true
      return FontLocator.readFontconfigConfiguration()
    }
    #expect(second == first)
    #expect(!readAgain)
  }
}

@Suite("GraphicsLibraries")
struct GraphicsLibrariesTests {
  @Test("whenLoaded runs every task on another thread and its group waits for them")
  func whenLoaded() {
    let group = ThreadGroup()
    let ran = Locked<[Int]>([])
    let caller = pthread_self()
    let threads = Locked<Set<pthread_t>>([])
    for index in 0..<4 {
      GraphicsLibraries.whenLoaded(in: group) {
        threads.withLock { _ = $0.insert(pthread_self()) }
        ran.withLock { $0.append(index) }
      }
    }
    group.wait()
    #expect(ran.withLock { $0 }.sorted() == [0, 1, 2, 3])
    #expect(!threads.withLock { $0 }.contains(caller))
  }

  @Test("the loading thread runs the tasks in the order they came, the later ones (librsvg) last")
  func laterTasksLast() {
    var state = GraphicsLibraries.LoaderState(started: true, loading: true)
    let order = Locked<[String]>([])
    state.later.append { order.withLock { $0.append("svg") } }
    state.queue.append { order.withLock { $0.append("fonts orange") } }
    state.queue.append { order.withLock { $0.append("fonts sosh") } }
    while let task = state.next() { task() }
    #expect(order.withLock { $0 } == ["fonts orange", "fonts sosh", "svg"])
    #expect(!state.loading)
  }

  @Test("the libraries load on demand, and a soname that is not theirs is not answered")
  func loadsOnDemand() throws {
    try GraphicsLibraries.loadSVG()
    for library in ["libcairo.so.2", "libpango-1.0.so.0", "librsvg-2.so.2", "libfontconfig.so.1"] {
      #expect(GraphicsLibraries.isLoaded(library) == true, "\(library)")
    }
    #expect(GraphicsLibraries.isLoaded("libnothing.so.9") == nil)
    #expect(GraphicsLibraries.librsvgVersion().split(separator: ".").count == 3)
  }
}
