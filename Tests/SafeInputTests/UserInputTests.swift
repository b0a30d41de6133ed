import Foundation
import Primitives
import SafeInput
import Testing

@Suite("SafeInput: user files, echoed text, numbers; atomic writes that never replace an input")
struct SafeInputTests {
  @Test("control characters are escaped and long values cut to 80 characters")
  func messageText() {
    #expect(
      MessageText.value("a\nb\r\tc\u{1B}[31m\u{7}\u{7F}\u{85}\u{202E}\u{2028}")
        == "a\\nb\\r\\tc\\u{1B}[31m\\u{7}\\u{7F}\\u{85}\\u{202E}\\u{2028}")
    #expect(MessageText.value("café 😀 مرحبا") == "café 😀 مرحبا")
    #expect(
      MessageText.quoted(String(repeating: "x", count: 1_000_000)) == "\""
        + String(repeating: "x", count: 80) + "…\"")
    #expect(
      MessageText.value(String(repeating: "é", count: 81)) == String(repeating: "é", count: 80)
        + "…")
    #expect(
      MessageText.value(String(repeating: "é", count: 80)) == String(repeating: "é", count: 80))
    let once = MessageText.escaped("a\u{1B}b\\n")
    #expect(MessageText.escaped(once) == once)
    #expect(
      MessageText.line(String(repeating: "y", count: 10_000)).count == MessageText.lineLimit + 1)
  }

  @Test("command-line numbers are strict decimal")
  func decimals() {
    #expect(DecimalNumber.number("40") == 40)
    #expect(DecimalNumber.number("12.5") == 12.5)
    #expect(DecimalNumber.number("-3") == -3)
    #expect(DecimalNumber.integer("256") == 256)
    for text in [
      "0x28", "4e2", "+2", " 5", "5 ", "5.", ".5", "inf", "nan", "", "1_000", "٤٠",
      String(repeating: "1", count: 41),
    ] {
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
    #expect(
      throws: UserFileError(
        path: fifo, kind: .list, problem: .notRegular(kind: "a FIFO (named pipe)"))
    ) {
      try UserFile.read(fifo, kind: .list)
    }
    #expect(
      throws: UserFileError(
        path: "/dev/zero", kind: .icon, problem: .notRegular(kind: "a character device"))
    ) {
      try UserFile.read("/dev/zero", kind: .icon)
    }
    #expect(
      throws: UserFileError(
        path: folder.path, kind: .tokens, problem: .notRegular(kind: "a folder"))
    ) {
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
    #expect(
      try UserFile.read(path, kind: UserFileKind(name: "tiny file", maximumBytes: 11))
        == Data("12345678901".utf8))
    #expect(UserFileKind.list.maximumBytes == 16 << 20)
  }

  @Test(
    "an atomic write never replaces an input (also through a hard link), a link or a special file; no temporary is left"
  )
  func atomicWriteRefusals() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try write("{\"items\": []}", "input.json", in: folder)
    let inputs = InputFiles([input])
    let original = try Data(contentsOf: URL(fileURLWithPath: input))
    #expect(
      throws: FileWriteError(
        path: input,
        reason: "it is the input of this run, which would be replaced; choose another output file")
    ) {
      try AtomicFile.write(Data("x".utf8), to: input, protecting: inputs)
    }
    let hardLink = folder.appendingPathComponent("hard.png").path
    try FileManager.default.linkItem(atPath: input, toPath: hardLink)
    #expect(
      throws: FileWriteError(
        path: hardLink,
        reason:
          "it is the input \(input) of this run, which would be replaced; choose another output file"
      )
    ) {
      try AtomicFile.write(Data("x".utf8), to: hardLink, protecting: inputs)
    }
    try FileManager.default.removeItem(atPath: hardLink)
    let link = folder.appendingPathComponent("link.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "input.json")
    #expect(
      throws: FileWriteError(
        path: link,
        reason:
          "it is a symbolic link (to input.json), which would be replaced; give the path of a regular file"
      )
    ) {
      try AtomicFile.write(Data("x".utf8), to: link, protecting: InputFiles())
    }
    let fifo = folder.appendingPathComponent("out.png").path
    #expect(mkfifo(fifo, 0o644) == 0)
    #expect(
      throws: FileWriteError(
        path: fifo,
        reason:
          "it is a FIFO (named pipe), not a regular file; give the path of a file to create or replace"
      )
    ) {
      try AtomicFile.write(Data("x".utf8), to: fifo, protecting: InputFiles())
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "input.json", "link.png", "out.png",
      ])
    // A regular file that is not an input is replaced.
    let other = try write("old", "other.png", in: folder)
    try AtomicFile.write(Data("new".utf8), to: other, protecting: inputs)
    #expect(try String(contentsOfFile: other, encoding: .utf8) == "new")
  }

  // The cause of the refusal above once failing in the full suite: a process-wide registry of
  // inputs kept by inode the first path it saw. Once that file was deleted, ext4 gave its inode to
  // the next new file, whose own entry was then ignored, so that new input was not protected.
  // Inputs are now an explicit value compared at write time: deleting and re-creating files
  // (as every test in this process does) never unprotects an input or protects a stranger.
  @Test(
    "an input is protected whatever files were read and deleted before (inode numbers are reused)")
  func inputsSurviveInodeReuse() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var reused = 0
    for index in 0..<20 {
      let earlier = try write("{}", "earlier-\(index).json", in: folder)
      var before = stat()
      #expect(stat(earlier, &before) == 0)
      let earlierInputs = InputFiles([earlier])
      _ = try UserFile.read(earlier, kind: .list)
      #expect(unlink(earlier) == 0)
      let input = try write("{}", "input-\(index).json", in: folder)
      var after = stat()
      #expect(stat(input, &after) == 0)
      if after.st_ino == before.st_ino { reused += 1 }
      _ = try UserFile.read(input, kind: .list)
      #expect(throws: FileWriteError.self) {
        try AtomicFile.write(Data("x".utf8), to: input, protecting: InputFiles([input]))
      }
      // The deleted input's set protects nothing now, not even a file that took its inode.
      try AtomicFile.write(Data("y".utf8), to: input, protecting: earlierInputs)
      #expect(try String(contentsOfFile: input, encoding: .utf8) == "y")
    }
    // Not a condition of the behaviour, but shows the case was exercised on this file system.
    print("inode reused by the next file in \(reused) of 20 rounds")
  }

  @Test("a user file read in pieces gets the same checks and bytes, and never more than the limit")
  func chunkedRead() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write("12345678901", "eleven.bin", in: folder)
    var pieces: [[UInt8]] = []
    try UserFile.read(path, kind: .font, chunkSize: 4) { pieces.append(Array($0)) }
    #expect(pieces == [Array("1234".utf8), Array("5678".utf8), Array("901".utf8)])
    var seen = 0
    #expect(
      throws: UserFileError(
        path: path, kind: UserFileKind(name: "tiny file", maximumBytes: 10),
        problem: .tooLarge(bytes: 11, limit: 10))
    ) {
      try UserFile.read(path, kind: UserFileKind(name: "tiny file", maximumBytes: 10), chunkSize: 4)
      { seen += $0.count }
    }
    #expect(seen == 0)  // the size is refused before anything is read
    let fifo = folder.appendingPathComponent("font.ttf").path
    #expect(mkfifo(fifo, 0o644) == 0)
    #expect(
      throws: UserFileError(
        path: fifo, kind: .font, problem: .notRegular(kind: "a FIFO (named pipe)"))
    ) {
      try UserFile.read(fifo, kind: .font, chunkSize: 4) { _ in }
    }
  }

  @Test("a folder reference must stay inside the folder, lexically and through symbolic links")
  func folderReferences() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inside = folder.appendingPathComponent("Themes")
    try FileManager.default.createDirectory(
      at: inside.appendingPathComponent("core"), withIntermediateDirectories: true)
    _ = try write("{}", "Themes/core/a.json", in: folder)
    _ = try write("{}", "secret.json", in: folder)
    try FileManager.default.createSymbolicLink(
      atPath: inside.appendingPathComponent("out.json").path, withDestinationPath: "../secret.json")
    try FileManager.default.createSymbolicLink(
      atPath: inside.appendingPathComponent("in.json").path, withDestinationPath: "core/a.json")
    try FileManager.default.createSymbolicLink(
      atPath: inside.appendingPathComponent("up").path, withDestinationPath: "..")
    #expect(
      FolderReference.resolve("core/a.json", inside: inside)
        == .success(inside.path + "/core/a.json"))
    #expect(
      FolderReference.resolve("core/../core/./a.json", inside: inside)
        == .success(inside.path + "/core/a.json"))
    #expect(
      FolderReference.resolve("in.json", inside: inside) == .success(inside.path + "/in.json"))
    #expect(
      FolderReference.resolve("core/missing.json", inside: inside)
        == .success(inside.path + "/core/missing.json"))
    #expect(FolderReference.resolve("/etc/passwd", inside: inside) == .failure(.absolute))
    #expect(FolderReference.resolve("../secret.json", inside: inside) == .failure(.climbsOut))
    #expect(
      FolderReference.resolve("core/../../secret.json", inside: inside) == .failure(.climbsOut))
    let secret = try #require(
      FolderReference.realPath(folder.appendingPathComponent("secret.json").path))
    #expect(FolderReference.resolve("out.json", inside: inside) == .failure(.linksOutside(secret)))
    #expect(
      FolderReference.resolve("up/secret.json", inside: inside) == .failure(.linksOutside(secret)))
    #expect(
      FolderReference.Problem.climbsOut.message(folder: "the themes folder")
        == "leaves the themes folder with '..'; a reference must name a file inside it")
  }

  @Test("temporary file names are recognised by their pattern")
  func temporaryNames() {
    #expect(AtomicFile.isTemporaryFileName(".orange-light@2x.png.\(UUID().uuidString).tmp"))
    #expect(!AtomicFile.isTemporaryFileName(".notes.tmp"))
    #expect(!AtomicFile.isTemporaryFileName("orange.png.\(UUID().uuidString).tmp"))
    #expect(!AtomicFile.isTemporaryFileName(".\(UUID().uuidString).tmp"))
  }
}
