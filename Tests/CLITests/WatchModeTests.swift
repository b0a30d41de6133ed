import Foundation
import Graphics
import PNG
import SafeInput
import Testing
import Threads

#if canImport(Glibc)
  import Glibc
#endif

/// The longest any single wait of these tests lasts: a watch that never reacts fails the test
/// after this long instead of hanging it.
private let patience: TimeInterval = 60

/// `ouds-render … --watch` running in the background, its standard error collected as it comes.
private final class WatchingProcess {
  let process = Process()
  private let collected = Locked(Data())
  private let finished = DispatchSemaphore(value: 0)

  /// Starts `ouds-render arguments` in `folder`, without `OUDS_THEMES_DIR` (the themes folder is
  /// found from the current folder, as a user's would be).
  init(_ arguments: [String], in folder: URL) throws {
    process.executableURL = try BuiltBinary.url.get()
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["OUDS_THEMES_DIR"] = nil
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    let pipe = Pipe()
    process.standardError = pipe
    process.terminationHandler = { [finished] _ in finished.signal() }
    try process.run()
    let reader = pipe.fileHandleForReading
    let collected = self.collected
    Thread {
      while true {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        collected.withLock { $0.append(chunk) }
      }
    }.start()
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      finished.wait()
    }
  }

  /// Everything written to standard error so far.
  var stderr: String { String(decoding: collected.withLock { $0 }, as: UTF8.self) }

  /// The lines of standard error so far.
  var lines: [String] { stderr.split(separator: "\n").map(String.init) }

  /// Waits (at most ``patience``) until `condition` holds; false when it never did.
  func wait(until condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(patience)
    while Date() < deadline {
      if try condition() { return true }
      if !process.isRunning, try !condition() { return false }
      usleep(20_000)
    }
    return try condition()
  }

  /// Waits until standard error has `count` lines that satisfy `matching`.
  func waitForLines(_ count: Int, _ matching: @escaping (String) -> Bool) -> Bool {
    wait { lines.filter(matching).count >= count }
  }

  /// Sends `signal` and waits (bounded) for the exit; the exit status, or nil when it did not exit.
  func stop(with signal: Int32 = SIGINT) -> Int32? {
    kill(process.processIdentifier, signal)
    guard finished.wait(timeout: .now() + patience) == .success else { return nil }
    // The reader thread may still be copying the last bytes.
    _ = wait { stderr.hasSuffix("\n") }
    return process.terminationStatus
  }

  /// The number of descriptors the process has open.
  var openDescriptors: Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")
      .count) ?? -1
  }
}

/// Replaces `name` in `folder` as an editor that saves atomically does: a temporary file beside it,
/// renamed over the original.
private func save(_ text: String, _ name: String, in folder: URL) throws {
  let target = folder.appendingPathComponent(name)
  let temporary = target.deletingLastPathComponent().appendingPathComponent(
    ".\(target.lastPathComponent).swp-\(UUID().uuidString)")
  try Data(text.utf8).write(to: temporary)
  guard rename(temporary.path, target.path) == 0 else {
    throw CLIError("cannot rename \(temporary.path) over \(target.path)")
  }
}

/// `re-rendered <output> in <n> ms (changed: <changed>)`.
private func isReRender(of output: String, changed: String) -> (String) -> Bool {
  { line in
    guard let match = line.wholeMatch(of: #/re-rendered (.+) in (\d+) ms \(changed: (.+)\)/#)
    else { return false }
    return match.output.1 == output && match.output.3 == changed
  }
}

/// Any re-render line.
private func isAnyReRender(_ line: String) -> Bool { line.hasPrefix("re-rendered ") }

/// The PNG at `path`, decoded; nil while it does not exist.
private func picture(_ path: URL) -> RasterImage? {
  guard let data = try? Data(contentsOf: path) else { return nil }
  return try? PNGCodec.decode(data)
}

/// `#RRGGBB` of a pixel.
private func hex(_ image: RasterImage, _ x: Int, _ y: Int) -> String {
  let pixel = image.pixel(x: x, y: y)
  return String(format: "#%02X%02X%02X", pixel.red, pixel.green, pixel.blue)
}

@Suite("--watch: re-render on every save, run as a binary", .serialized)
final class WatchModeTests {
  let folder: URL
  let themes: URL

  init() throws {
    folder = try temporaryFolder()
    themes = try copyOfThemes(in: folder)
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  /// Sets Orange light's `color.content.brand-primary` (branded bullets) to `hex`, whose
  /// components are `components`, by an atomic save of the token file.
  func setBrandPrimary(_ hex: String, components: String) throws {
    let file = "brands/orange/light.tokens.json"
    let text = try String(contentsOf: themes.appendingPathComponent(file), encoding: .utf8)
    let old = "\"brand-primary\": {\n        \"$value\": \"{color.raw.orange.orange-550}\""
    #expect(text.components(separatedBy: old).count == 2)
    try save(
      text.replacingOccurrences(
        of: old,
        with:
          "\"brand-primary\": {\n        \"$value\": {\"hex\": \"\(hex)\", \"colorSpace\": \"srgb\", \"components\": \(components)}"
      ), file, in: themes)
  }

  static let twoItems =
    #"{ "type": "unordered", "items": [ { "label": "One" }, { "label": "Two" } ] }"#
  static let threeItems =
    #"{ "type": "unordered", "items": [ { "label": "One" }, { "label": "Two" }, { "label": "Three" } ] }"#

  @Test(
    "render --watch: a saved list, a broken then fixed list, an edited colour token and a new themes file each re-render once; SIGINT exits 0"
  )
  func render() throws {
    try write(Self.twoItems, "list.json", in: folder)
    let output = folder.appendingPathComponent("out.png")
    // Where the first row's bullet is drawn, from the layout (points; the PNG has 2 pixels a point).
    let layout = try run(["layout", "list.json"], in: folder, removing: ["OUDS_THEMES_DIR"])
    let scene = try #require(
      try JSONSerialization.jsonObject(with: layout.stdoutData) as? [String: Any])
    let rows = try #require(scene["rows"] as? [[String: Any]])
    let icon = try #require(rows.first?["icon"] as? [String: Double])
    let x = Int((icon["x"] ?? 0) + (icon["width"] ?? 0) / 2) * 2
    let y = Int((icon["y"] ?? 0) + (icon["height"] ?? 0) / 2) * 2

    let watch = try WatchingProcess(
      ["render", "list.json", "-o", "out.png", "--watch"], in: folder)
    #expect(
      watch.wait {
        watch.stderr.contains("\nwatching list.json, its icons and the themes folder Themes (")
      })
    let first = try #require(picture(output), "\(watch.stderr)")
    #expect(hex(first, x, y) == "#F15E00")
    #expect(
      watch.lines.first?.hasPrefix(
        "themes: \(themes.path) (found from the current folder) · fonts: ") == true)

    // An editor's save: a temporary file renamed over the list.
    try save(Self.threeItems, "list.json", in: folder)
    #expect(
      watch.waitForLines(1, isReRender(of: "out.png", changed: "list.json")), "\(watch.stderr)")
    let three = try #require(picture(output))
    #expect(three.height > first.height)
    let descriptors = watch.openDescriptors

    // Invalid JSON mid-edit: the error line, the process goes on, the picture stays.
    try save(#"{ "type": "unordered", "items": [ { "label": "#, "list.json", in: folder)
    #expect(
      watch.wait {
        watch.lines.contains {
          $0.hasPrefix("error: list.json: malformed JSON at line 1, column ")
        }
      }, "\(watch.stderr)")
    #expect(watch.process.isRunning)
    #expect(picture(output) == three)

    // Fixed: rendered again.
    try save(Self.twoItems, "list.json", in: folder)
    #expect(
      watch.waitForLines(2, isReRender(of: "out.png", changed: "list.json")), "\(watch.stderr)")
    #expect(picture(output)?.height == first.height)

    // A colour token: the bullet takes the new colour.
    try setBrandPrimary("#FF00FF", components: "[1, 0, 1]")
    #expect(
      watch.waitForLines(
        1, isReRender(of: "out.png", changed: "Themes/brands/orange/light.tokens.json")),
      "\(watch.stderr)")
    let edited = try #require(picture(output))
    #expect(hex(edited, x, y) == "#FF00FF")

    // A new folder in the themes folder is watched too: a file made in it re-renders.
    try FileManager.default.createDirectory(
      at: themes.appendingPathComponent("notes"), withIntermediateDirectories: false)
    #expect(
      watch.waitForLines(1, isReRender(of: "out.png", changed: "Themes/notes")), "\(watch.stderr)")
    try write("new", "notes/todo.txt", in: themes)
    #expect(
      watch.waitForLines(1, isReRender(of: "out.png", changed: "Themes/notes/todo.txt")),
      "\(watch.stderr)")
    #expect(watch.openDescriptors == descriptors, "no descriptor per re-render")

    #expect(watch.stop() == 0)
    #expect(watch.lines.last == "stopped watching (SIGINT) after 6 re-renders", "\(watch.stderr)")
    // Every re-render was asked for by a save: the output never triggered one.
    #expect(watch.lines.filter(isAnyReRender).count == 5, "\(watch.stderr)")
    #expect(!watch.stderr.contains("out.png,") && !watch.stderr.contains("changed: out.png"))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!left.contains { AtomicFile.isTemporaryFileName($0) }, "\(left)")
  }

  @Test(
    "sheet --watch: an edited icon and a colour token re-render the sheet (an output inside the themes folder is refused: see GalleryCommandTests); SIGTERM exits 0"
  )
  func sheet() throws {
    let heart = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Snapshots/cases/heart.svg"),
      encoding: .utf8)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("icons"), withIntermediateDirectories: false)
    try write(heart, "icons/heart.svg", in: folder)
    try write(
      #"{ "type": "unordered", "items": [ { "label": "One", "subListType": { "unordered": { "asset": { "icon": "icons/heart.svg" }, "branded": false } }, "items": [ { "label": "Heart" } ] } ] }"#,
      "list.json", in: folder)
    let output = folder.appendingPathComponent("sheet.png")
    let watch = try WatchingProcess(
      ["sheet", "list.json", "-o", "sheet.png", "--watch"], in: folder)
    #expect(watch.wait { watch.stderr.contains("\nwatching list.json,") }, "\(watch.stderr)")
    let first = try #require(picture(output))
    /// The number of opaque magenta (#FF00FF) pixels.
    func magenta(in image: RasterImage) -> Int {
      (0..<image.width * image.height).count { index in
        image.pixel(x: index % image.width, y: index / image.width) == (255, 0, 255, 255)
      }
    }
    #expect(magenta(in: first) == 0)

    // The icon, saved filled (no hole in the heart): the sheet changes.
    let edited = heart.replacingOccurrences(of: "evenodd", with: "nonzero")
    #expect(edited != heart)
    try save(edited, "icons/heart.svg", in: folder)
    #expect(
      watch.waitForLines(1, isReRender(of: "sheet.png", changed: "icons/heart.svg")),
      "\(watch.stderr)")
    let withIcon = try #require(picture(output))
    #expect(withIcon != first)

    // A colour token: Orange and Orange Compact light bullets take it.
    try setBrandPrimary("#FF00FF", components: "[1, 0, 1]")
    #expect(
      watch.waitForLines(
        1, isReRender(of: "sheet.png", changed: "Themes/brands/orange/light.tokens.json")),
      "\(watch.stderr)")
    let recoloured = try #require(picture(output))
    #expect(magenta(in: recoloured) > 100)

    #expect(watch.stop(with: SIGTERM) == 0)
    #expect(watch.lines.last == "stopped watching (SIGTERM) after 2 re-renders", "\(watch.stderr)")
    #expect(watch.lines.filter(isAnyReRender).count == 2, "\(watch.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: themes.path)
    #expect(!left.contains { AtomicFile.isTemporaryFileName($0) }, "\(left)")
  }

  @Test("gallery --watch: an edited case file re-renders its pictures; SIGINT exits 0")
  func gallery() throws {
    let cases = folder.appendingPathComponent("Snapshots/cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    func caseText(_ label: String) -> String {
      #"{ "type": "unordered", "items": [ { "label": "\#(label)" } ], "variants": { "themes": ["orange"], "modes": ["light"] } }"#
    }
    try write(caseText("One"), "one.json", in: cases)
    let watch = try WatchingProcess(["gallery", "-o", "out/gallery", "--watch"], in: folder)
    #expect(
      watch.wait {
        watch.stderr.contains(
          "\nwatching Snapshots/cases, the icons of the cases and the themes folder Themes (")
      }, "\(watch.stderr)")
    let images = folder.appendingPathComponent("out/gallery/images/one")
    let names = try FileManager.default.contentsOfDirectory(atPath: images.path).filter {
      $0.hasSuffix(".png")
    }
    let image = images.appendingPathComponent(try #require(names.first))
    let first = try #require(picture(image))

    try save(caseText("One, and a longer label that takes more room"), "one.json", in: cases)
    #expect(
      watch.waitForLines(1, isReRender(of: "out/gallery", changed: "Snapshots/cases/one.json")),
      "\(watch.stderr)")
    #expect(picture(image) != first)
    let index = try String(
      contentsOf: folder.appendingPathComponent("out/gallery/index.html"), encoding: .utf8)
    #expect(index.contains("a longer label"))

    #expect(watch.stop() == 0)
    #expect(watch.lines.last == "stopped watching (SIGINT) after 1 re-render", "\(watch.stderr)")
  }

  @Test(
    "render --watch on a case file survives its folders replaced (themes, the list's, an icon's) and says when one is gone"
  )
  func replacedFolders() throws {
    let manager = FileManager.default
    let heart = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Snapshots/cases/heart.svg"),
      encoding: .utf8)
    let lists = folder.appendingPathComponent("lists")
    let icons = folder.appendingPathComponent("icons")
    try manager.createDirectory(at: lists, withIntermediateDirectories: false)
    try manager.createDirectory(at: icons, withIntermediateDirectories: false)
    try write(heart, "heart.svg", in: icons)
    func caseText(_ label: String) -> String {
      #"{ "type": "unordered", "items": [ { "label": "\#(label)", "subListType": { "unordered": { "asset": { "icon": "../icons/heart.svg" }, "branded": false } }, "items": [ { "label": "Heart" } ] } ], "variants": { "themes": ["orange"], "modes": ["light"] } }"#
    }
    try write(caseText("One"), "case.json", in: lists)
    let output = folder.appendingPathComponent("out.png")
    let watch = try WatchingProcess(
      ["render", "lists/case.json", "-o", "out.png", "--watch"], in: folder)
    #expect(watch.wait { watch.stderr.contains("\nwatching lists/case.json,") }, "\(watch.stderr)")
    #expect(watch.lines.first?.hasPrefix("note: case.json is a catalogue case: ") == true)
    var last = try #require(picture(output), "\(watch.stderr)")

    /// Waits for a line after the first `count` lines that contains `text`.
    func waitForLine(after count: Int, containing text: String) -> Bool {
      watch.wait { watch.lines.dropFirst(count).contains { $0.contains(text) } }
    }
    /// Whether the picture has opaque magenta (#FF00FF) pixels.
    func isMagenta() -> Bool {
      guard let image = picture(output) else { return false }
      return (0..<image.width * image.height).contains { index in
        image.pixel(x: index % image.width, y: index / image.width) == (255, 0, 255, 255)
      }
    }

    // A branch switch or a sync tool: the themes folder moved away and copied back. (The copy
    // may still be going on when the first re-render starts: that one may fail, the next draws.)
    var count = watch.lines.count
    try manager.moveItem(at: themes, to: folder.appendingPathComponent("Themes.old"))
    try manager.copyItem(at: folder.appendingPathComponent("Themes.old"), to: themes)
    #expect(
      waitForLine(
        after: count, containing: "the themes folder Themes was replaced: watching the new one"),
      "\(watch.stderr)")
    // A token of the new folder: seen, and drawn.
    #expect(!isMagenta())
    try setBrandPrimary("#FF00FF", components: "[1, 0, 1]")
    #expect(watch.wait { isMagenta() }, "\(watch.stderr)")

    // The list's folder, then the icon's, replaced: each new folder is watched.
    count = watch.lines.count
    try manager.moveItem(at: lists, to: folder.appendingPathComponent("lists.old"))
    try manager.copyItem(at: folder.appendingPathComponent("lists.old"), to: lists)
    #expect(
      waitForLine(after: count, containing: "the folder lists was replaced: watching the new one"),
      "\(watch.stderr)")
    last = try #require(picture(output))
    try save(caseText("One, then a longer label"), "case.json", in: lists)
    #expect(watch.wait { picture(output).map { $0 != last } ?? false }, "\(watch.stderr)")
    // The save may come in one batch with the folder's own event: "changed: lists, lists/case.json".
    #expect(
      watch.wait {
        watch.lines.dropFirst(count).contains {
          $0.contains("changed: ") && $0.contains("lists/case.json")
        }
      }, "\(watch.stderr)")
    count = watch.lines.count
    try manager.moveItem(at: icons, to: folder.appendingPathComponent("icons.old"))
    try manager.copyItem(at: folder.appendingPathComponent("icons.old"), to: icons)
    #expect(
      waitForLine(after: count, containing: "the folder icons was replaced: watching the new one"),
      "\(watch.stderr)")
    last = try #require(picture(output))
    try save(heart.replacingOccurrences(of: "evenodd", with: "nonzero"), "heart.svg", in: icons)
    #expect(watch.wait { picture(output).map { $0 != last } ?? false }, "\(watch.stderr)")
    #expect(
      watch.wait {
        watch.lines.dropFirst(count).contains {
          $0.contains("changed: ") && $0.contains("icons/heart.svg")
        }
      }, "\(watch.stderr)")

    // Gone for good: said once, and watching goes on; back: rendered again. (A replacement, a
    // move then a copy, may be seen gone for a moment before: only this phase's lines count.)
    count = watch.lines.count
    let goneForGood = count
    try manager.moveItem(at: lists, to: folder.appendingPathComponent("lists.gone"))
    #expect(
      watch.wait {
        watch.lines.dropFirst(count).contains(
          "the folder lists is gone: waiting for it to come back (Ctrl-C stops)")
      }, "\(watch.stderr)")
    #expect(watch.process.isRunning)
    count = watch.lines.count
    try manager.moveItem(at: folder.appendingPathComponent("lists.gone"), to: lists)
    #expect(
      watch.wait {
        watch.lines.dropFirst(count).contains {
          $0.hasPrefix("re-rendered out.png in ")
            && $0.hasSuffix("; the folder lists is back: watching it again)")
        }
      }, "\(watch.stderr)")
    #expect(watch.stop() == 0)
    #expect(
      watch.lines.dropFirst(goneForGood).filter { $0.contains(" is gone: ") }.count == 1,
      "\(watch.stderr)")
  }

  @Test("--watch with -o -, or on a command without it, is a usage error (exit 2)")
  func usage() throws {
    try write(Self.twoItems, "list.json", in: folder)
    for command in ["render", "sheet"] {
      let result = try run([command, "list.json", "-o", "-", "--watch"], in: folder)
      #expect(result.status == 2)
      #expect(
        result.stderr
          == "error: --watch rewrites its output on every change: give -o a file or folder, not - (standard output)\nSee 'ouds-render \(command) --help'.\n"
      )
    }
    let layout = try run(["layout", "list.json", "--watch"], in: folder)
    #expect(layout.status == 2)
    #expect(
      layout.stderr
        == "error: unknown option --watch for 'ouds-render layout' (it is an option of render, sheet and gallery)\nSee 'ouds-render layout --help'.\n"
    )
    let verify = try run(["snapshot", "verify", "--watch"], in: folder)
    #expect(verify.status == 2)
    #expect(
      verify.stderr.hasPrefix(
        "error: unknown option --watch for 'ouds-render snapshot verify' (it is an option of render, sheet and gallery)\n"
      ))
    let help = try run(["render", "--help"], in: folder)
    #expect(help.stdout.contains("--watch"))
  }

  @Test(
    "--watch: a themes folder over the limit, or no descriptor left for inotify, is one error naming the limit, exit 1"
  )
  func limits() throws {
    try write(Self.twoItems, "list.json", in: folder)
    let many = themes.appendingPathComponent("many")
    try FileManager.default.createDirectory(at: many, withIntermediateDirectories: false)
    for index in 0...4096 { try write("", "\(index).txt", in: many) }
    let big = try runBounded(
      ["render", "list.json", "-o", "out.png", "--watch", "--themes", "Themes"], in: folder,
      stdout: nil, timeout: patience)
    #expect(!big.timedOut)
    #expect(big.status == 1)
    #expect(
      big.stderr
        == "error: --watch: the themes folder \(themes.path) holds more than 4096 files and folders, the most watch mode follows; watch a smaller copy\n"
    )
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    try FileManager.default.removeItem(at: many)

    // Room for standard input, output and error and the two ends of the signal pipe, none for
    // the inotify descriptor.
    let binary = try BuiltBinary.url.get().path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", "ulimit -n 5 && exec \"$0\" render list.json -o out.png --watch --themes Themes",
      binary,
    ]
    process.currentDirectoryURL = folder
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(
      text
        == "error: --watch: cannot start watching: the limit of open files of this process is reached (ulimit -n = 5)\n"
    )
  }
}
