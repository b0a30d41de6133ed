import Foundation
import Testing

/// `script` (util-linux), which runs a command on a pseudo-terminal and copies what it writes.
private let scriptTool = "/usr/bin/script"

/// What one run on a pseudo-terminal wrote there, and its exit status.
private struct TerminalRun {
  var status: Int32
  /// Everything written to the terminal, with the terminal's `\r\n` turned back into `\n`: any
  /// `\r` left is one the program wrote.
  var transcript: String
}

/// An ANSI colour (SGR) sequence.
private var colourSequence: Regex<Substring> { #/\x1B\[[0-9;]*m/# }
/// One drawing of the progress line: `\rverify 12/34 · 3 failed · 0.4 s` (the count maybe coloured), then erase.
private var progressDrawing:
  Regex<(Substring, verb: Substring, done: Substring, total: Substring, failed: Substring)>
{
  #/\r(?<verb>verify|record) (?<done>\d+)/(?<total>\d+) · (?:\x1B\[1;31m)?(?<failed>\d+) failed(?:\x1B\[0m)? · \d+\.\d s\x1B\[K/#
}

@Suite("Terminal manners: progress line and colour on a terminal only", .serialized)
final class TerminalMannersTests {
  /// The temporary folder: `Snapshots/` with four cases (34 references, 24 of them changed by an
  /// edited label) and a copy of `Themes/`.
  let root: URL
  /// References in the fixture, and how many of them fail.
  static let total = 34
  static let failing = 24

  init() throws {
    root = try temporaryFolder()
    let snapshots = root.appendingPathComponent("Snapshots")
    let cases = snapshots.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    let source = repositoryRoot.appendingPathComponent("Snapshots")
    try FileManager.default.copyItem(
      at: source.appendingPathComponent("ENVIRONMENT.json"),
      to: snapshots.appendingPathComponent("ENVIRONMENT.json"))
    for name in ["sample-1", "sample-1.1", "sample-2", "sample-3"] {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: snapshots.appendingPathComponent(name))
      var text = try String(
        contentsOf: source.appendingPathComponent("cases/\(name).json"), encoding: .utf8)
      // Each case its own edit: no two failures show one change (which would be one row).
      let edits = ["sample-1.1": "Label two", "sample-2": "Label deux", "sample-3": "Label zwei"]
      if let edit = edits[name] {
        #expect(text.contains(#""Label 2""#))
        text = text.replacingOccurrences(of: #""Label 2""#, with: "\"\(edit)\"")
      }
      try write(text, "\(name).json", in: cases)
    }
    _ = try copyOfThemes(in: root)
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  /// How many lines of `text` head a group of failures with the same change.
  static func sameChangeGroups(_ text: String) -> Int {
    text.split(separator: "\n").filter { $0.contains(" references with the same change: ") }.count
  }

  /// Runs `ouds-render arguments` in the fixture on a pseudo-terminal (standard output and error;
  /// with `stdoutFile`, standard output goes to that file instead), with `TERM=xterm-256color`
  /// unless `environment` says otherwise, and without `NO_COLOR` unless it sets it.
  private func onTerminal(
    _ arguments: [String], environment: [String: String] = [:], removing: [String] = [],
    stdoutFile: String? = nil
  ) throws -> TerminalRun {
    guard FileManager.default.isExecutableFile(atPath: scriptTool) else {
      throw CLIError("\(scriptTool) (util-linux) is needed to run ouds-render on a pseudo-terminal")
    }
    let binary = try BuiltBinary.url.get().path
    var command = "exec " + ([binary] + arguments).map(shellQuoted).joined(separator: " ")
    if let stdoutFile { command += " > " + shellQuoted(stdoutFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: scriptTool)
    // -q: no start and end lines; -e: script exits with the command's status; -c: the command.
    process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
    process.currentDirectoryURL = root
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    env["TERM"] = "xterm-256color"
    env["SHELL"] = "/bin/sh"
    for (key, value) in environment { env[key] = value }
    for key in removing { env[key] = nil }
    process.environment = env
    process.standardInput = FileHandle.nullDevice
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let transcript = String(decoding: data, as: UTF8.self).replacingOccurrences(
      of: "\r\n", with: "\n")
    return TerminalRun(status: process.terminationStatus, transcript: transcript)
  }

  private func shellQuoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// The (done, failed, total) of every drawing of the progress line in `text`, in order.
  private func drawings(_ text: String, verb: String = "verify") -> [(Int, Int, Int)] {
    text.matches(of: progressDrawing).filter { $0.verb == verb }.compactMap { match in
      guard let done = Int(match.done), let failed = Int(match.failed), let total = Int(match.total)
      else { return nil }
      return (done, failed, total)
    }
  }

  @Test("on a terminal: a progress line rewritten with \\r and erased, a coloured compact table")
  func progressAndColour() throws {
    let run = try onTerminal(["snapshot", "verify"])
    #expect(run.status == 1)
    let seen = drawings(run.transcript)
    #expect(seen.first.map { $0 == (0, 0, Self.total) } == true, "drawn at once: \(run.transcript)")
    #expect(seen.allSatisfy { $0.2 == Self.total && $0.0 <= Self.total && $0.1 <= Self.failing })
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.1 <= $1.1 })
    #expect(seen.contains { $0.1 > 0 }, "failures so far are counted")
    #expect(run.transcript.contains("\u{1B}[1;31m") && seen.count >= 1)
    // Erased before the table: the first line of standard output follows the erase.
    #expect(run.transcript.contains("\r\u{1B}[Kthemes: "))
    let table = run.transcript.components(separatedBy: "\r\u{1B}[K").last ?? ""
    #expect(!table.contains("\r"), "nothing is drawn after the erase")
    // Many failures: the table alone, capped at 20 rows, with the status cells in red. A case's
    // light and dark pictures of one edit are not one change (their diff pictures differ).
    let rows = table.split(separator: "\n").filter {
      $0.hasPrefix("\u{1B}[1;31mchanged\u{1B}[0m  ")
    }
    #expect(rows.count == 20)
    #expect(table.contains("\n… and 4 more, see the artifacts in "))
    #expect(Self.sameChangeGroups(table) == 0, "\(table)")
    #expect(!table.contains("layout JSON ("), "no layout diff on the terminal")
    #expect(table.contains("\u{1B}[1;31m24 failed (24 changed, 0 missing, 0 errors)\u{1B}[0m"))
  }

  @Test("standard output redirected: the progress line still on the terminal, the table plain")
  func progressOnStandardError() throws {
    let file = root.appendingPathComponent("table.txt").path
    let run = try onTerminal(["snapshot", "verify"], stdoutFile: file)
    #expect(run.status == 1)
    #expect(!drawings(run.transcript).isEmpty)
    #expect(!run.transcript.contains("STATUS"))
    let table = try String(contentsOfFile: file, encoding: .utf8)
    #expect(table.contains("\nchanged  sample-1.1/orange-compact-dark@2x "))
    #expect(!table.contains("\u{1B}") && !table.contains("\r"))
  }

  @Test(
    "NO_COLOR (any value, even empty): no colour, the progress line stays", arguments: ["1", ""])
  func noColor(value: String) throws {
    let run = try onTerminal(["snapshot", "verify"], environment: ["NO_COLOR": value])
    #expect(run.status == 1)
    #expect(!drawings(run.transcript).isEmpty)
    #expect(run.transcript.firstMatch(of: colourSequence) == nil)
    #expect(run.transcript.contains("\nchanged  sample-1.1/orange-compact-dark@2x "))
    let error = try onTerminal(
      ["snapshot", "verify", "--filter", "no-such-case"], environment: ["NO_COLOR": value])
    #expect(error.transcript.hasPrefix("error: "))
  }

  @Test("TERM=dumb or no TERM: neither colour nor a progress line", arguments: ["dumb", nil])
  func dumbTerminal(term: String?) throws {
    let run = try onTerminal(
      ["snapshot", "verify"], environment: term.map { ["TERM": $0] } ?? [:],
      removing: term == nil ? ["TERM"] : [])
    #expect(run.status == 1)
    #expect(!run.transcript.contains("\u{1B}"))
    #expect(!run.transcript.contains("\r"))
    #expect(!run.transcript.contains("verify 0/"))
    #expect(run.transcript.contains("\n… and 4 more, see the artifacts in "))
  }

  @Test("piped: nothing but the text, even with a TERM that takes colour")
  func piped() throws {
    let result = try run(
      ["snapshot", "verify"], in: root, environment: ["TERM": "xterm-256color"],
      removing: ["NO_COLOR"])
    #expect(result.status == 1)
    for text in [result.stdout, result.stderr] {
      #expect(!text.contains("\u{1B}") && !text.contains("\r"))
    }
    #expect(result.stdout.contains("\n… and 4 more, see the artifacts in "))
    #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("changed  ") }.count == 20)
    #expect(result.stderr.hasPrefix("artifacts: "))

    // --list: after the table, every failing id (it printed nothing: a flag was never "given").
    let listed = try run(["snapshot", "verify", "--list"], in: root)
    #expect(listed.status == 1)
    let ids = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("changed sample-") }
    #expect(ids.count == Self.failing, "\(listed.stdout)")
    // the group members the table leaves out are listed too
    #expect(ids.contains { $0.hasPrefix("changed sample-2/sosh-light@2x") }, "\(listed.stdout)")
  }

  @Test("fewer than 10 references: no progress line, the colours stay")
  func fewReferences() throws {
    let run = try onTerminal(["snapshot", "verify", "--filter", "sample-1.1"])
    #expect(run.status == 1)
    #expect(drawings(run.transcript).isEmpty && !run.transcript.contains("verify 0/"))
    #expect(run.transcript.hasPrefix("themes: "))
    #expect(
      run.transcript.contains("\n\u{1B}[1;31mchanged\u{1B}[0m  sample-1.1/orange-compact-dark@2x "))
  }

  @Test("record shows the same progress line; error: is red on a terminal")
  func recordProgress() throws {
    let run = try onTerminal(["snapshot", "record", "--failed"])
    #expect(run.status == 0, "\(run.transcript)")
    let seen = drawings(run.transcript, verb: "record")
    #expect(seen.first.map { $0 == (0, 0, Self.total) } == true)
    #expect(run.transcript.contains("\r\u{1B}[K"))
    #expect(run.transcript.contains("\nwrote sample-2/orange-light@2x.png\n"))
    #expect(run.transcript.contains("34 references: \u{1B}[32m10 passed\u{1B}[0m, 24 recorded in "))
    let verified = try onTerminal(["snapshot", "verify"])
    #expect(verified.status == 0)
    #expect(verified.transcript.contains("34 references: \u{1B}[32m34 passed\u{1B}[0m in "))
    let error = try onTerminal(["snapshot", "verify", "--filter", "no-such-case"])
    #expect(error.status == 1)
    #expect(error.transcript.hasPrefix("\u{1B}[1;31merror:\u{1B}[0m "))
  }
}
