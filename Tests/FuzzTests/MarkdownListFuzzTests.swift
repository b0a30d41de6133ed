import BulletList
import Foundation
import Markdown
import SafeInput
import Testing

extension FuzzTests {
  /// Markdown lists the Markdown list reader's mutations start from: the catalogue's `.md` cases
  /// and lists that use every construct the reader accepts.
  static func seedMarkdownLists() throws -> [[UInt8]] {
    let folder = repositoryRoot.appendingPathComponent("Snapshots/cases")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".md")
    }.sorted()
    let cases = try names.map { Array(try Data(contentsOf: folder.appendingPathComponent($0))) }
    let written = [
      "- First\n- Second **strong**\n  1. One\n  1. *Two* and a [link](https://example.com)\n     - Deep\n- Third\n",
      "---\n{\"type\": {\"unordered\": {\"asset\": \"tick\"}}, \"isBold\": false,\n \"subLists\": {\"items[0]\": {\"type\": \"bare\", \"textStyle\": \"bodyMedium\"}}}\n---\n* a\n  + b\n    - c\n* d\n",
      "1. one\n\n1. two\n   continued\nlazily\n\n   1. two.one\n",
    ]
    return cases + written.map { Array($0.utf8) }
  }

  @Test(
    "the Markdown list reader: every mutated list is read or refused with a one-line error naming the file and a line in it"
  )
  func markdownListReader() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-fuzz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("fuzzed-list.md").path
    let seeds = try Self.seedMarkdownLists()
    // Block-level snippets of Markdown, on top of the byte-level mutations.
    let blocks = [
      "\n- ", "\n  - ", "\n    - ", "\n      - ", "\n1. ", "\n   1. ", "\n2) ", "\n3. ", "\n* ",
      "\n+ ", "\n---\n",
      "\n# ", "\n```\n", "\n> ", "\n\n", "\n        ", "![", "[x](y)", "**", "_",
      "\n| a | b |\n|---|---|\n",
      "<div>\n", "\n[ref]: /url\n", "\\\n", "  \n", "\u{0}", String(repeating: "- ", count: 50),
    ]
    var mutator = Mutator(seed: FuzzSettings.seed &+ 3)
    let reader = ListReader(markdownParser: CommonMarkParser())
    let last = LastInput(target: "markdown-list", root: repositoryRoot)
    defer { last.finish() }
    var accepted = 0
    var failures: [String] = []
    let iterations = FuzzSettings.iterations(default: 1500)
    for iteration in 0..<iterations {
      var input = seeds[mutator.int(seeds.count)]
      for _ in 0..<mutator.int(3) {
        input.insert(
          contentsOf: Array(blocks[mutator.int(blocks.count)].utf8),
          at: mutator.int(input.count + 1))
      }
      if mutator.int(3) > 0 { input = mutator.mutate(input) }
      last.keep(input)
      try Data(input).write(to: URL(fileURLWithPath: file))
      // Lines end at a line feed, a carriage return and line feed, or a carriage return alone.
      let lineCount =
        1
        + input.indices.filter { index in
          input[index] == 0x0A
            || (input[index] == 0x0D && (index + 1 == input.count || input[index + 1] != 0x0A))
        }.count
      let start = Date()
      do {
        // As the catalogue reads a case: its front matter's `variants` set aside.
        let document = try reader.read(file: file, kind: .caseFile, settingAside: ["variants"])
          .document
        accepted += 1
        if let line = document.itemLines.values.first(where: { !(1...lineCount).contains($0) }) {
          failures.append("iteration \(iteration): an item on line \(line) of \(lineCount)")
        }
      } catch {
        for problem in problemsWith(message: error.description, mustName: "fuzzed-list.md") {
          failures.append(
            "iteration \(iteration): \(problem): \(MessageText.value(error.description, limit: 300))"
          )
        }
        if let line = error.line, !(1...lineCount).contains(line) {
          failures.append(
            "iteration \(iteration): line \(line) of \(lineCount): \(MessageText.value(error.description, limit: 300))"
          )
        }
      }
      let seconds = Date().timeIntervalSince(start)
      if seconds > Self.secondsPerInput {
        failures.append("iteration \(iteration): took \(seconds) s")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    #expect(accepted > iterations / 20)
    #expect(accepted < iterations)
  }
}
