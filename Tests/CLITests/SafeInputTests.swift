import BulletListRenderer
import Foundation
import SafeInput
import Testing

@Suite("SafeInput: user files, echoed text, numbers; atomic writes that never replace an input")
struct SafeInputTests {
  @Test("control characters are escaped and long values cut to 80 characters")
  func messageText() {
    #expect(MessageText.value("a\nb\r\tc\u{1B}[31m\u{7}\u{7F}\u{85}\u{202E}\u{2028}") == "a\\nb\\r\\tc\\u{1B}[31m\\u{7}\\u{7F}\\u{85}\\u{202E}\\u{2028}")
    #expect(MessageText.value("café 😀 مرحبا") == "café 😀 مرحبا")
    #expect(MessageText.quoted(String(repeating: "x", count: 1_000_000)) == "\"" + String(repeating: "x", count: 80) + "…\"")
    #expect(MessageText.value(String(repeating: "é", count: 81)) == String(repeating: "é", count: 80) + "…")
    #expect(MessageText.value(String(repeating: "é", count: 80)) == String(repeating: "é", count: 80))
    let once = MessageText.escaped("a\u{1B}b\\n")
    #expect(MessageText.escaped(once) == once)
    #expect(MessageText.line(String(repeating: "y", count: 10_000)).count == MessageText.lineLimit + 1)
  }

  @Test("command-line numbers are strict decimal")
  func decimals() {
    #expect(DecimalNumber.number("40") == 40)
    #expect(DecimalNumber.number("12.5") == 12.5)
    #expect(DecimalNumber.number("-3") == -3)
    #expect(DecimalNumber.integer("256") == 256)
    for text in ["0x28", "4e2", "+2", " 5", "5 ", "5.", ".5", "inf", "nan", "", "1_000", "٤٠", String(repeating: "1", count: 41)] {
      #expect(DecimalNumber.number(text) == nil, "\(text)")
    }
    #expect(DecimalNumber.integer("2.0") == nil)
    #expect(DecimalNumber.integer("99999999999999999999") == nil)
  }

  @Test("only regular files are read: a FIFO, a device and a folder are refused at once")
  func specialFiles() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("pipe.json").path
    #expect(mkfifo(fifo, 0o644) == 0)
    let start = Date()
    #expect(throws: UserFileError(path: fifo, kind: .list, problem: .notRegular(kind: "a FIFO (named pipe)"))) {
      try UserFile.read(fifo, kind: .list)
    }
    #expect(Date().timeIntervalSince(start) < 1)
    #expect(throws: UserFileError(path: "/dev/zero", kind: .icon, problem: .notRegular(kind: "a character device"))) {
      try UserFile.read("/dev/zero", kind: .icon)
    }
    #expect(throws: UserFileError(path: folder.path, kind: .tokens, problem: .notRegular(kind: "a folder"))) {
      try UserFile.read(folder.path, kind: .tokens)
    }
    #expect(throws: UserFileError(path: folder.path + "/nope", kind: .list, problem: .missing)) {
      try UserFile.read(folder.path + "/nope", kind: .list)
    }
    do {
      _ = try UserFile.read(fifo, kind: .list)
    } catch {
      #expect(error.description == "\(fifo): is a FIFO (named pipe), not a regular file")
    }
  }

  @Test("a file over its kind's limit is refused with both sizes")
  func sizeLimit() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write("12345678901", "eleven.json", in: folder)
    let tiny = UserFileKind(name: "tiny file", maximumBytes: 10)
    do {
      _ = try UserFile.read(path, kind: tiny)
      Issue.record("an 11-byte file was read with a 10-byte limit")
    } catch {
      #expect(error.description == "\(path): the tiny file is 11 bytes, over the limit of 10 bytes")
    }
    #expect(try UserFile.read(path, kind: UserFileKind(name: "tiny file", maximumBytes: 11)) == Data("12345678901".utf8))
    #expect(UserFileKind.list.maximumBytes == 16 << 20)
  }

  @Test("an atomic write never replaces a link or a special file; no temporary is left")
  func atomicWriteRefusals() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // An output equal to an input (also through a hard link) is refused: the hostile corpus checks
    // it through the binary (Tests/Hostile: "-o equal to the input", "-o a hard link of the input").
    let input = try write("{\"items\": []}", "input.json", in: folder)
    let original = try Data(contentsOf: URL(fileURLWithPath: input))
    let link = folder.appendingPathComponent("link.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "input.json")
    #expect(throws: FileWriteError.self) { try AtomicFile.write(Data("x".utf8), to: link) }
    let fifo = folder.appendingPathComponent("out.png").path
    #expect(mkfifo(fifo, 0o644) == 0)
    #expect(throws: FileWriteError(path: fifo, reason: "it is a FIFO (named pipe), not a regular file; give the path of a file to create or replace")) {
      try AtomicFile.write(Data("x".utf8), to: fifo)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["input.json", "link.png", "out.png"])
    // A regular file that is not an input is replaced.
    let other = try write("old", "other.png", in: folder)
    try AtomicFile.write(Data("new".utf8), to: other)
    #expect(try String(contentsOfFile: other, encoding: .utf8) == "new")
  }

  @Test("temporary file names are recognised by their pattern")
  func temporaryNames() {
    #expect(AtomicFile.isTemporaryFileName(".orange-light@2x.png.\(UUID().uuidString).tmp"))
    #expect(!AtomicFile.isTemporaryFileName(".notes.tmp"))
    #expect(!AtomicFile.isTemporaryFileName("orange.png.\(UUID().uuidString).tmp"))
    #expect(!AtomicFile.isTemporaryFileName(".\(UUID().uuidString).tmp"))
  }
}

@Suite("Render errors and concurrent records through the binary", .serialized)
struct RenderErrorAndLockTests {
  @Test("a canvas too large for a bitmap names the list file, the theme and the mode")
  func canvasError() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let items = (0..<400).map { "{\"label\": \"item \($0)\"}" }.joined(separator: ", ")
    let list = try write("{\"items\": [\(items)]}", "long.json", in: folder)
    let result = try run(["render", list, "--theme", "sosh", "--mode", "dark", "--scale", "3", "-o", "out.png"], in: folder)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: \(list): theme sosh (dark): canvas of 360×"), "\(result.stderr)")
    #expect(result.stderr.hasSuffix("pixels, over the 32767-pixel limit of a bitmap: use a lower scale, or SVG or PDF\n"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }

  @Test("a second snapshot record waits while another holds the lock, then runs")
  func recordWaitsForLock() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let snapshots = folder.appendingPathComponent("Snapshots")
    try FileManager.default.createDirectory(at: snapshots.appendingPathComponent("cases"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots/cases/sample-1.json"),
      to: snapshots.appendingPathComponent("cases/sample-1.json"))
    let lockPath = snapshots.appendingPathComponent(".record.lock").path
    let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
    #expect(descriptor >= 0)
    #expect(flock(descriptor, LOCK_EX) == 0)
    let release = DispatchWorkItem { flock(descriptor, LOCK_UN); close(descriptor) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 1.5, execute: release)
    let start = Date()
    let result = try run(["snapshot", "record", "--snapshots", snapshots.path, "--themes", repositoryRoot.path + "/Themes"], in: folder)
    let seconds = Date().timeIntervalSince(start)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(seconds >= 1.4, "record did not wait for the lock (\(seconds) s)")
    #expect(result.stdout.contains("wrote sample-1/orange-light@2x.png"))
  }
}
