import Foundation
import Primitives
import Snapshot
import SnapshotReports
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// In-process fuzzing of the `results.json` reader of `snapshot merge` (the file comes from a CI
/// artifact: untrusted) and of the writers that turn what it accepts into Markdown and JUnit.
@Suite("Fuzzing the results.json reader of snapshot merge")
struct ResultsFuzzTests {
  /// A shard's results with every member the schema has: a failure with pixels, regions and a
  /// layout diff, a missing reference, a broken case, fonts, a recorded environment, a shard.
  static let richSeed = #"""
    {
     "schema": "ouds-render snapshot results",
     "schemaVersion": 4,
     "run": {
      "id": "ci-1234",
      "idSource": "GITHUB_RUN_ID",
      "catalogueSHA256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
     },
     "snapshots": "Snapshots",
     "selection": {
      "filter": "sample-*",
      "shard": {
       "index": 2,
       "count": 3
      },
      "catalogueReferences": 12,
      "references": 2
     },
     "themes": {
      "folder": "Themes",
      "reason": "beside the snapshots folder"
     },
     "environment": {
      "renderStack": {
       "cairo": "1.16.0",
       "pango": "1.50.12",
       "harfbuzz": "6.0.0",
       "freetype": "2.12.1",
       "fontconfig": "2.14.1",
       "librsvg": "2.54.7",
       "libspng": "0.7.3"
      },
      "tokensSHA256": "cd26d16f84dc6c07df751a7068a73c5d62c10a876d3c2bef6435665b7770ac1d",
      "fonts": [
       {
        "theme": "orange",
        "role": "regular",
        "family": "Liberation Sans",
        "file": "LiberationSans-Regular.ttf",
        "sha256": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "folder": "/usr/share/fonts/truetype/liberation2"
       }
      ]
     },
     "recordedEnvironment": {
      "renderStack": {
       "cairo": "1.16.0",
       "pango": "1.50.12",
       "harfbuzz": "6.0.0",
       "freetype": "2.12.1",
       "fontconfig": "2.14.1",
       "librsvg": "2.54.7",
       "libspng": "0.7.3"
      },
      "fonts": {
       "orange": [
        {
         "role": "regular",
         "family": "Liberation Sans",
         "file": "LiberationSans-Regular.ttf",
         "sha256": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
        }
       ]
      },
      "tokensSHA256": "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
     },
     "environmentDifferences": [
      "orange font regular: LiberationSans-Regular.ttf sha256 bbbbbbbbbbbb… in the references, aaaaaaaaaaaa… here"
     ],
     "tokenDifference": "tokens differ: sha256 cccccccccccc… recorded, cd26d16f84dc… now",
     "tokenCauses": [
      {
       "context": "sosh/dark",
       "token": "color.content.brand-primary",
       "before": "#F15E00",
       "after": "#7B2FBE",
       "file": "brands/orange/light.tokens.json"
      }
     ],
     "acceptOptions": "--themes 'edited Themes' --font-dir ../fonts",
     "tolerance": {
      "maxDiffPixels": null,
      "maxDiffRatio": null
     },
     "seconds": 0.5,
     "caseErrors": [
      {
       "case": "broken",
       "file": "cases/broken.json",
       "message": "cases/broken.json: malformed JSON at line 2, column 1: expected a value"
      }
     ],
     "references": [
      {
       "id": "sample-1/orange-light@2x",
       "case": "sample-1",
       "variant": "orange-light@2x",
       "theme": "orange",
       "mode": "light",
       "png": "sample-1/orange-light@2x.png",
       "layout": "sample-1/orange-light.layout.json",
       "status": "missing",
       "reason": "no reference: sample-1/orange-light@2x.png missing",
       "explainedBy": [],
       "message": "no reference: sample-1/orange-light@2x.png missing",
       "pixels": null,
       "layoutCompared": false,
       "layoutDiff": [],
       "tolerance": {
        "maxDiffPixels": null,
        "maxDiffRatio": null
       },
       "seconds": 0.1,
       "images": {
        "actual": {
         "width": 10,
         "height": 10
        }
       },
       "artifacts": {
        "actual.png": "sample-1/orange-light@2x/actual.png"
       }
      },
      {
       "id": "sample-1/sosh-dark@2x",
       "case": "sample-1",
       "variant": "sosh-dark@2x",
       "theme": "sosh",
       "mode": "dark",
       "png": "sample-1/sosh-dark@2x.png",
       "layout": "sample-1/sosh-dark.layout.json",
       "status": "changed",
       "reason": "12 pixels differ (0.300%) in 1 region",
       "explainedBy": ["color.content.brand-primary", "orange font regular"],
       "message": null,
       "pixels": {
        "result": "different",
        "width": 40,
        "height": 100,
        "changedPixels": 12,
        "ratio": 0.003,
        "antiAliasedPixels": 3,
        "regions": [
         {
          "x": 2,
          "y": 3,
          "width": 4,
          "height": 5,
          "changedPixels": 12
         }
        ],
        "omittedRegions": 0
       },
       "layoutCompared": true,
       "layoutDiff": [
        "- \"x\" : 1",
        "+ \"x\" : 2"
       ],
       "tolerance": {
        "maxDiffPixels": null,
        "maxDiffRatio": null
       },
       "seconds": 0.25,
       "images": {
        "expected": {
         "width": 40,
         "height": 100
        },
        "actual": {
         "width": 40,
         "height": 100
        },
        "diff": {
         "width": 40,
         "height": 100
        }
       },
       "artifacts": {
        "expected.png": "sample-1/sosh-dark@2x/expected.png",
        "actual.png": "sample-1/sosh-dark@2x/actual.png",
        "diff.png": "sample-1/sosh-dark@2x/diff.png",
        "layout.diff": "sample-1/sosh-dark@2x/layout.diff"
       }
      }
     ]
    }
    """#

  /// Texts that would break a Markdown table, JUnit XML or a shell command if written raw.
  static let hostileTexts = [
    "a | b", "\\n| x |", "]]>", "<script>alert(1)</script>", "`code`", "```", "\\u0007\\u001b[31m",
    "[x](javascript:alert(1))", "&amp;", "--snapshots x; id", "' ; rm -rf / '", "\\u0000", "\\\\",
    "*_~#!$", "\\u2028\\u2029", "\\ud83d\\ude00", "\\\\|", "x\\\\\\\\|",
  ]

  @Test(
    "every mutated results.json is read or refused with a one-line error naming it; what is read makes a summary whose table rows keep their cells and a JUnit file that is XML"
  )
  func resultsReader() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-fuzz-results-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent(SnapshotRunResults.fileName)
    let seeds = [
      Array(Self.richSeed.utf8),
      Array(
        try Data(
          contentsOf: repositoryRoot.appendingPathComponent("Tests/Hostile/results-link.json"))),
    ]
    // The seeds themselves are read: a schema change that refuses them would make this test moot.
    for seed in seeds {
      try Data(seed).write(to: file)
      _ = try SnapshotRunResults.read(from: folder)
    }
    var mutator = Mutator(seed: FuzzSettings.seed)
    let last = LastInput(target: "results", root: repositoryRoot)
    defer { last.finish() }
    var accepted = 0
    var failures: [String] = []
    let iterations = FuzzSettings.iterations(default: 600)
    for iteration in 0..<iterations {
      let seed = seeds[mutator.int(seeds.count)]
      var input = seed
      if mutator.int(2) == 0 {
        input = mutator.mutate(seed)
      } else {
        for _ in 0...mutator.int(4) { input = Self.insertHostileText(into: input, &mutator) }
      }
      last.keep(input)
      try Data(input).write(to: file)
      let start = Date()
      do {
        let results = try SnapshotRunResults.read(from: folder)
        accepted += 1
        failures += Self.problemsInOutputs(results).map { "iteration \(iteration): \($0)" }
      } catch {
        for problem in problemsWith(message: error.description, mustName: "results.json") {
          failures.append(
            "iteration \(iteration): \(problem): \(MessageText.value(error.description, limit: 300))"
          )
        }
      }
      let seconds = Date().timeIntervalSince(start)
      if seconds > FuzzTests.secondsPerInput {
        failures.append("iteration \(iteration): took \(seconds) s")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    #expect(accepted > 0)
    #expect(accepted < iterations)
  }

  /// The members whose text reaches the summary, the report and JUnit as it is written.
  static let textMembers = [
    "reason", "message", "case", "file", "role", "family", "tokenDifference", "filter", "folder",
  ]

  /// `seed` with one of ``hostileTexts`` put at the start of one of its free text values (or, one
  /// time in four, of any string value).
  static func insertHostileText(into seed: [UInt8], _ mutator: inout Mutator) -> [UInt8] {
    let markers =
      mutator.int(4) == 0
      ? [Array(#"": ""#.utf8)] : textMembers.map { Array("\"\($0)\": \"".utf8) }
    var starts: [Int] = []
    for marker in markers {
      var index = 0
      while index + marker.count <= seed.count {
        if Array(seed[index..<index + marker.count]) == marker {
          starts.append(index + marker.count)
        }
        index += 1
      }
    }
    guard !starts.isEmpty else { return seed }
    let at = starts[mutator.int(starts.count)]
    let text = Array(hostileTexts[mutator.int(hostileTexts.count)].utf8)
    return Array(seed[..<at]) + text + Array(seed[at...])
  }

  /// What is wrong with the summary and JUnit file written from `results`.
  static func problemsInOutputs(_ results: SnapshotRunResults) -> [String] {
    var problems: [String] = []
    let commands = ReviewReport.Commands.cli(
      extraArguments: results.acceptOptions, filter: results.selection.filter)
    let summary = MarkdownSummary.document(results, commands: commands)
    for line in summary.split(separator: "\n", omittingEmptySubsequences: false)
    where line.hasPrefix("|") {
      // A row of the four-column table: five pipes that are not escaped.
      var pipes = 0
      var escaped = false
      for character in line {
        if character == "|" && !escaped { pipes += 1 }
        escaped = character == "\\" && !escaped
      }
      if pipes != 5 {
        problems.append("a summary row with \(pipes) cell borders: \(line.prefix(200))")
      }
    }
    if summary.unicodeScalars.contains(where: { $0 != "\n" && MessageText.needsEscape($0) }) {
      problems.append("a control character in the summary")
    }
    let junit = JUnitXML.document(results)
    let parser = XMLParser(data: Data(junit.utf8))
    if !parser.parse() {
      problems.append(
        "JUnit that is not XML (\(parser.parserError.map { "\($0)" } ?? "unknown error"))")
    }
    return problems
  }
}
