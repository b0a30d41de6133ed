import BulletListRenderer
import Dispatch
import Foundation
import SafeInput
import Testing

@Suite("Atomic file writes")
struct AtomicFileTests {
  @Test("threads writing the same file never share a temporary: every write succeeds, one wins whole")
  func concurrentWrites() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("shared.json").path
    let contents = (0..<16).map { Data(String(repeating: "\($0 % 10)", count: 100_000).utf8) }
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: contents.count) { index in
      do { try AtomicFile.write(contents[index], to: path, protecting: InputFiles()) } catch { failures.add("\(error)") }
    }
    #expect(failures.all.isEmpty)
    #expect(contents.contains(try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["shared.json"])
  }
}

final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var messages: [String] = []
  func add(_ message: String) {
    lock.lock()
    messages.append(message)
    lock.unlock()
  }
  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return messages
  }
}
