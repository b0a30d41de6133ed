import Foundation
import SafeInput
import Testing

@Suite("WriteFence: no write lands in a fenced folder, whatever link leads there")
struct WriteFenceTests {
  @Test(
    "a write through a link below the output folder into a fenced folder is refused, before any folder is made"
  )
  func linkIntoFence() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let fenced = root.appendingPathComponent("Snapshots")
    try FileManager.default.createDirectory(at: fenced, withIntermediateDirectories: true)
    let out = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: out.appendingPathComponent("images").path, withDestinationPath: fenced.path)
    WriteFence.protect([ProtectedPlace("snapshots folder", fenced.path)])
    // Fencing the same folder again adds nothing (watch mode sets up on every save).
    WriteFence.protect([ProtectedPlace("snapshots folder", fenced.path)])
    let target = out.appendingPathComponent("images/case/a.png").path
    #expect(
      throws: FileWriteError(
        path: target,
        reason:
          "its folder is \(fenced.path)/case, inside the snapshots folder \(fenced.path) (a symbolic link leads there); write outputs outside it"
      )
    ) {
      try AtomicFile.write(Data([1]), to: target, createDirectories: true, protecting: InputFiles())
    }
    #expect(!FileManager.default.fileExists(atPath: fenced.appendingPathComponent("case").path))
    // Beside the fence, writes go on.
    try AtomicFile.write(
      Data([1]), to: out.appendingPathComponent("b.png").path, protecting: InputFiles())
  }
}
