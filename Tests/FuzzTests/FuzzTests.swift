import BulletList
import Foundation
import Markdown
import Primitives
import SafeInput
import Testing
import Themes

let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// In-process fuzzing of the parsers that read user text: the JSON list reader, the Markdown list
/// reader, the DTCG token loader and the Markdown label parser.
///
/// Each target mutates the valid files of the repository with a seeded generator (the same run
/// every time) and checks that no input crashes, that every failure is the parser's typed error
/// whose one-line description names the file or JSON path. `scripts/fuzz [iterations]` runs many
/// more iterations, and there (never in the test suite, which asserts no time) also reports any
/// input that took longer than ``secondsPerInput``.
@Suite("Fuzzing the parsers of user input")
struct FuzzTests {
  /// The longest one input may take, in seconds (debug build), checked only when
  /// `OUDS_FUZZ_ITERATIONS` is set, as `scripts/fuzz` does: a time is a measurement, not a test.
  static let secondsPerInput: Double =
    ProcessInfo.processInfo.environment["OUDS_FUZZ_ITERATIONS"] == nil ? .infinity : 5

  /// The valid list and case files the mutations start from.
  static func seedLists() throws -> [[UInt8]] {
    let folder = repositoryRoot.appendingPathComponent("Snapshots/cases")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".json")
    }.sorted()
    return try names.map { Array(try Data(contentsOf: folder.appendingPathComponent($0))) }
  }

  @Test(
    "the JSON list reader: every mutated list is read or refused with a one-line error naming the file"
  )
  func listReader() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-fuzz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots/cases/heart.svg"),
      to: folder.appendingPathComponent("heart.svg"))
    let file = folder.appendingPathComponent("fuzzed-list.json").path
    let seeds = try Self.seedLists()
    var mutator = Mutator(seed: FuzzSettings.seed)
    let reader = ListReader(markdownParser: CommonMarkParser())
    let last = LastInput(target: "list", root: repositoryRoot)
    defer { last.finish() }
    var accepted = 0
    var failures: [String] = []
    for iteration in 0..<FuzzSettings.iterations(default: 1200) {
      let input = mutator.mutate(seeds[mutator.int(seeds.count)])
      last.keep(input)
      try Data(input).write(to: URL(fileURLWithPath: file))
      let start = Date()
      do {
        // Read as the catalogue reads a case file: `variants` set aside, the rest a list.
        _ = try reader.read(file: file, settingAside: ["variants"])
        accepted += 1
      } catch {
        for problem in problemsWith(message: error.description, mustName: "fuzzed-list.json") {
          failures.append(
            "iteration \(iteration): \(problem): \(MessageText.value(error.description, limit: 300))"
          )
        }
      }
      let seconds = Date().timeIntervalSince(start)
      if seconds > Self.secondsPerInput {
        failures.append("iteration \(iteration): took \(seconds) s")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    // The mutations must not be so wild that nothing parses, nor so mild that nothing fails.
    #expect(accepted > 0)
    #expect(accepted < FuzzSettings.iterations(default: 1200))
  }

  @Test(
    "the Markdown label parser: every mutated label is parsed or refused with an error naming the item"
  )
  func markdownParser() throws {
    let labels = [
      "Second subitem with a **strong** text, an *emphasis* and a [link](https://unified-design-system.orange.com)",
      "**bold *and italic* text** then [a link](https://example.com \"title\") and a\nsoft break",
      "plain text with \\*escaped\\* stars and `code`? no: <b>html</b> and ![image](x.png)",
      "# heading\n\n- list item\n\n> quote",
    ]
    var mutator = Mutator(seed: FuzzSettings.seed &+ 1)
    let parser = CommonMarkParser()
    let last = LastInput(target: "markdown", root: repositoryRoot)
    defer { last.finish() }
    var failures: [String] = []
    var accepted = 0
    let iterations = FuzzSettings.iterations(default: 2000)
    for iteration in 0..<iterations {
      let bytes = mutator.mutate(Array(labels[mutator.int(labels.count)].utf8))
      last.keep(bytes)
      let text = String(decoding: bytes, as: UTF8.self)
      let start = Date()
      do {
        _ = try parser.parseInline(text, itemPath: "items[7]")
        accepted += 1
      } catch {
        for problem in problemsWith(message: error.description, mustName: "items[7].markdown") {
          failures.append(
            "iteration \(iteration): \(problem): \(MessageText.value(error.description, limit: 300))"
          )
        }
      }
      let seconds = Date().timeIntervalSince(start)
      if seconds > Self.secondsPerInput {
        failures.append("iteration \(iteration): took \(seconds) s")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    #expect(accepted > 0)
    #expect(accepted < iterations)
  }

  @Test(
    "the DTCG token loader: every mutated token file loads or fails with an error naming a file")
  func tokenLoader() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-fuzz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = folder.appendingPathComponent("Themes")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Themes"), to: themes)
    let files =
      FileManager.default.enumerator(atPath: themes.path)?.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".json") }.sorted() ?? []
    #expect(files.count > 10)
    var mutator = Mutator(seed: FuzzSettings.seed &+ 2)
    let last = LastInput(target: "tokens", root: repositoryRoot)
    defer { last.finish() }
    var failures: [String] = []
    var loaded = 0
    let iterations = FuzzSettings.iterations(default: 300)
    for iteration in 0..<iterations {
      let relative = files[mutator.int(files.count)]
      let url = themes.appendingPathComponent(relative)
      let original = try Data(contentsOf: url)
      let mutated = mutator.mutate(Array(original))
      last.keep(Array(relative.utf8) + [0x0A] + mutated)
      try Data(mutated).write(to: url)
      defer { try? original.write(to: url) }
      let start = Date()
      func check(_ error: ThemeError) {
        // Every error names a file of the themes folder (relative to it).
        guard let file = error.file else {
          failures.append("iteration \(iteration) (\(relative)): the error names no file: \(error)")
          return
        }
        for problem in problemsWith(message: error.description, mustName: file) {
          failures.append(
            "iteration \(iteration) (\(relative)): \(problem): \(MessageText.value(error.description, limit: 300))"
          )
        }
      }
      do {
        let library = try ThemeLibrary(directory: themes)
        for name in ThemeName.allCases {
          for mode in ColorMode.allCases {
            do { _ = try library.theme(name, mode: mode) } catch { check(error) }
          }
          do { _ = try library.fontManifest(for: name) } catch { check(error) }
        }
        loaded += 1
      } catch {
        check(error)
      }
      let seconds = Date().timeIntervalSince(start)
      if seconds > Self.secondsPerInput {
        failures.append("iteration \(iteration) (\(relative)): took \(seconds) s")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    #expect(loaded < iterations)
  }
}
