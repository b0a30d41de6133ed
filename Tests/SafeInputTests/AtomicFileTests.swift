import Dispatch
import Foundation
import SafeInput
import Testing
import Threads

@Suite("Atomic file writes")
struct AtomicFileTests {
  @Test(
    "threads writing the same file never share a temporary: every write succeeds, one wins whole")
  func concurrentWrites() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("shared.json").path
    let contents = (0..<16).map { Data(String(repeating: "\($0 % 10)", count: 100_000).utf8) }
    let failures = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: contents.count) { index in
      do {
        try AtomicFile.write(contents[index], to: path, protecting: InputFiles())
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty)
    #expect(contents.contains(try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["shared.json"])
  }

  @Test(
    "a file where a folder of the path should be: one line naming it, with or without creating folders"
  )
  func fileInThePath() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("list.json")
    try Data("{}".utf8).write(to: file)
    for (target, create) in [
      ("list.json/out.png", false), ("list.json/report/index.html", true),
      ("list.json/a/b/junit.xml", true),
    ] {
      let path = folder.appendingPathComponent(target).path
      #expect(
        throws: FileWriteError(
          path: path, reason: "\(file.path) is a regular file, not a folder")
      ) {
        try AtomicFile.write(
          Data("x".utf8), to: path, createDirectories: create, protecting: InputFiles())
      }
    }
    #expect(try Data(contentsOf: file) == Data("{}".utf8))
  }

  @Test(
    "a streamed write is the text in its order, over the buffer's size; a failing body leaves the old file and no temporary"
  )
  func streamedWrite() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("results.json").path
    // 3 MB in pieces of every size, text and bytes mixed: several 256 KiB buffers and one piece
    // larger than the buffer
    var expected = Data()
    try AtomicFile.write(to: path, protecting: InputFiles()) { stream throws(FileWriteError) in
      for index in 0..<3_000 {
        let piece = String(repeating: "\(index % 10)", count: index % 700)
        try stream.write(piece)
        expected.append(contentsOf: piece.utf8)
      }
      let large = Data(repeating: 0x2A, count: 600_000)
      try stream.write(large)
      expected.append(large)
      try stream.write("é\n")
      expected.append(contentsOf: "é\n".utf8)
    }
    #expect(expected.count > 1_000_000)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected)
    // a body that fails halfway: the earlier file stays whole, the temporary is gone
    let failure = FileWriteError(path: path, reason: "the run stopped")
    #expect(throws: failure) {
      try AtomicFile.write(to: path, protecting: InputFiles()) { stream throws(FileWriteError) in
        try stream.write(String(repeating: "x", count: 500_000))
        throw failure
      }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["results.json"])
  }
}
