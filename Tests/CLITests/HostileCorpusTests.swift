import Foundation
import SafeInput
import Testing

/// One case of `Tests/Hostile/manifest.json`.
struct HostileCase: Decodable, CustomTestStringConvertible, Sendable {
  var name: String
  var args: [String]
  var exit: Int32
  var stderr: String
  var setup: [[String]]?
  var unchanged: [String]?
  var stdout: String?

  var testDescription: String { name }
}

/// The folder of the hostile-input corpus.
let hostileCorpus = repositoryRoot.appendingPathComponent("Tests/Hostile")

func hostileCases() throws -> [HostileCase] {
  struct Manifest: Decodable { var cases: [HostileCase] }
  let data = try Data(contentsOf: hostileCorpus.appendingPathComponent("manifest.json"))
  return try JSONDecoder().decode(Manifest.self, from: data).cases
}

@Suite("Hostile-input corpus (Tests/Hostile/manifest.json) against the built binary")
struct HostileCorpusTests {
  @Test("the manifest names every corpus file, and every case's files exist")
  func manifestCoversCorpus() throws {
    let cases = try hostileCases()
    #expect(cases.count >= 30)
    let text = try String(
      contentsOf: hostileCorpus.appendingPathComponent("manifest.json"), encoding: .utf8)
    let files = try FileManager.default.contentsOfDirectory(atPath: hostileCorpus.path).filter {
      // requests.json is the corpus of hostile HTTP requests (PreviewCommandTests)
      $0 != "manifest.json" && $0 != "requests.json"
    }
    for file in files {
      #expect(text.contains("{corpus}/\(file)"), "\(file) is in the corpus but no case uses it")
    }
  }

  @Test(
    "a hostile input gets its one-line error and exit code, in bounded time, leaving inputs intact",
    arguments: try hostileCases())
  func hostile(_ testCase: HostileCase) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func expand(_ text: String) -> String {
      text.replacingOccurrences(of: "{corpus}", with: hostileCorpus.path)
        .replacingOccurrences(of: "{tmp}", with: folder.path)
        .replacingOccurrences(of: "{repo}", with: repositoryRoot.path)
    }
    for step in testCase.setup ?? [] {
      let target = { (name: String) in folder.appendingPathComponent(name).path }
      switch step.first {
      case "fifo": #expect(mkfifo(target(step[1]), 0o644) == 0)
      case "mkdir":
        try FileManager.default.createDirectory(
          atPath: target(step[1]), withIntermediateDirectories: true)
      case "copy":
        try FileManager.default.copyItem(atPath: expand(step[1]), toPath: target(step[2]))
      case "symlink":
        try FileManager.default.createSymbolicLink(
          atPath: target(step[2]), withDestinationPath: step[1])
      case "hardlink":
        try FileManager.default.linkItem(atPath: target(step[1]), toPath: target(step[2]))
      case "remove": try FileManager.default.removeItem(atPath: target(step[1]))
      case "append":
        let url = URL(fileURLWithPath: target(step[3]))
        if !FileManager.default.fileExists(atPath: url.path) {
          _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        let text = String(repeating: step[1], count: Int(step[2]) ?? 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
      case "replace":
        try FileManager.default.removeItem(atPath: target(step[2]))
        try FileManager.default.copyItem(atPath: expand(step[1]), toPath: target(step[2]))
      default: Issue.record("unknown setup step \(step)")
      }
    }
    let before = try (testCase.unchanged ?? []).map {
      try Data(contentsOf: folder.appendingPathComponent($0))
    }
    let start = Date()
    let result = try runBounded(
      testCase.args.map(expand), in: folder, stdout: testCase.stdout, timeout: 30)
    let seconds = Date().timeIntervalSince(start)
    #expect(!result.timedOut, "still running after \(seconds) s")
    #expect(result.status == testCase.exit, "stderr: \(result.stderr)")
    #expect(result.stderr.contains(expand(testCase.stderr)), "stderr: \(result.stderr)")
    #expect(
      !result.stderr.unicodeScalars.contains { $0 != "\n" && MessageText.needsEscape($0) },
      "raw control character on stderr")
    for line in result.stderr.split(separator: "\n") {
      #expect(line.unicodeScalars.count <= 4_200, "a stderr line of \(line.count) characters")
    }
    if testCase.exit == 1 && testCase.stdout == nil {
      #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
    }
    for (name, data) in zip(testCase.unchanged ?? [], before) {
      #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == data, "\(name) changed")
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".tmp")
    }
    #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
  }
}
