import BulletListRenderer
import Foundation
import SafeInput
import Testing

@Suite("Render errors and concurrent records through the binary", .serialized)
struct RenderErrorAndLockTests {
  @Test("a canvas too large for a bitmap names the list file, the theme and the mode")
  func canvasError() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let items = (0..<400).map { "{\"label\": \"item \($0)\"}" }.joined(separator: ", ")
    let list = try write("{\"items\": [\(items)]}", "long.json", in: folder)
    let result = try run(
      ["render", list, "--theme", "sosh", "--mode", "dark", "--scale", "3", "-o", "out.png"],
      in: folder)
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix("error: \(list): theme sosh (dark): canvas of 360×"),
      "\(result.stderr)")
    #expect(
      result.stderr.hasSuffix(
        "pixels, over the 32767-pixel limit of a bitmap: use a lower scale, or SVG or PDF\n"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }

  @Test(
    "snapshot verify waits while a record holds the lock, then compares the finished references")
  func verifyWaitsForRecord() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let snapshots = folder.appendingPathComponent("Snapshots")
    try FileManager.default.createDirectory(
      at: snapshots.appendingPathComponent("cases"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots/cases/sample-1.json"),
      to: snapshots.appendingPathComponent("cases/sample-1.json"))
    let common = ["--snapshots", snapshots.path, "--themes", repositoryRoot.path + "/Themes"]
    #expect(try run(["snapshot", "record"] + common, in: folder).status == 0)
    let descriptor = open(
      snapshots.appendingPathComponent(".record.lock").path, O_RDWR | O_CREAT, 0o644)
    #expect(descriptor >= 0)
    #expect(flock(descriptor, LOCK_EX) == 0)
    let release = DispatchWorkItem {
      flock(descriptor, LOCK_UN)
      close(descriptor)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + 1.5, execute: release)
    let start = Date()
    let result = try run(["snapshot", "verify"] + common, in: folder)
    let seconds = Date().timeIntervalSince(start)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(seconds >= 1.4, "verify did not wait for the record's lock (\(seconds) s)")
    #expect(result.stdout.contains(" passed"), "\(result.stdout)")
  }

  @Test("a second snapshot record waits while another holds the lock, then runs")
  func recordWaitsForLock() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let snapshots = folder.appendingPathComponent("Snapshots")
    try FileManager.default.createDirectory(
      at: snapshots.appendingPathComponent("cases"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots/cases/sample-1.json"),
      to: snapshots.appendingPathComponent("cases/sample-1.json"))
    let lockPath = snapshots.appendingPathComponent(".record.lock").path
    let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
    #expect(descriptor >= 0)
    #expect(flock(descriptor, LOCK_EX) == 0)
    let release = DispatchWorkItem {
      flock(descriptor, LOCK_UN)
      close(descriptor)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + 1.5, execute: release)
    let start = Date()
    let result = try run(
      [
        "snapshot", "record", "--snapshots", snapshots.path, "--themes",
        repositoryRoot.path + "/Themes",
      ], in: folder)
    let seconds = Date().timeIntervalSince(start)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(seconds >= 1.4, "record did not wait for the lock (\(seconds) s)")
    #expect(result.stdout.contains("wrote sample-1/orange-light@2x.png"))
  }
}
