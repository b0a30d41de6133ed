import Foundation
import Testing

/// `scripts/package-graph check` holds every target to 4,000 lines of Swift (issue 25: one
/// concern per target), besides the imports and the pipeline.
@Suite("scripts/package-graph check limits the size of a target")
struct PackageGraphTests {
  /// Every line of the .swift files below `folder`, as `wc -l` counts them.
  static func swiftLines(in folder: URL) throws -> Int {
    let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
    return try files.filter { $0.hasSuffix(".swift") }.reduce(0) { count, file in
      let data = try Data(contentsOf: folder.appendingPathComponent(file))
      return count + data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
  }

  /// `4,790`: the count as the script writes it.
  static func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    return digits.enumerated().map { index, digit in
      index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
    }.joined()
  }

  /// Runs `scripts/package-graph` with `arguments`; its exit status and its output and errors.
  static func packageGraph(_ arguments: [String], scratch: URL) throws -> (Int32, String) {
    let process = Process()
    let output = Pipe()
    process.executableURL = repositoryRoot.appendingPathComponent("scripts/package-graph")
    process.arguments = arguments
    // `swift test` holds the lock of .build: the manifest is read with a scratch folder of its own
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["PACKAGE_GRAPH_SCRATCH_PATH": scratch.path]) { $1 }
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test(
    "a target over the limit fails the check with one line naming it and its count; the package as it is passes"
  )
  func lineLimit() throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "package-graph-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let executable = repositoryRoot.appendingPathComponent("Sources/ouds-render")
    let lines = try Self.swiftLines(in: executable)
    #expect(lines > 1000)

    // the executable is well over 1,000 lines: with that limit, the check fails and says so
    let (failed, text) = try Self.packageGraph(["check", "--line-limit", "1000"], scratch: scratch)
    #expect(failed == 1, "\(text)")
    let line =
      "Sources/ouds-render: target 'ouds-render' has \(Self.grouped(lines)) lines of Swift, over the limit of 1,000: move a concern into a target of its own"
    #expect(text.split(separator: "\n").contains { $0 == line }, "no line \(line) in:\n\(text)")
    // a leaf that small is not named
    #expect(!text.contains("target 'Threads'"), "\(text)")

    // the real limit, 4,000 lines, holds for every target
    #expect(lines <= 4000)
    let (status, report) = try Self.packageGraph(["check"], scratch: scratch)
    #expect(status == 0, "\(report)")
    #expect(report.contains("no target holds more than 4,000 lines of Swift"), "\(report)")

    let (usage, words) = try Self.packageGraph(["check", "--line-limit", "many"], scratch: scratch)
    #expect(usage == 2, "\(words)")
    #expect(words == "package-graph: check takes only --line-limit <lines>\n")
  }
}
