import Foundation
import Primitives
import Scene
import Snapshot
import SnapshotReports
import Testing
import Themes

/// Point 11: change one token, one marker, one font file in a copy of `Themes/`; verify must report
/// exactly the references that the change affects (worked out from the recorded layout JSON), no more.
///
/// Each test verifies every reference predicted to fail, every other reference of the theme the change
/// belongs to, and a control sample of every theme × mode (``Baseline/slice(predicted:theme:)``), and
/// expects exactly the predicted ones to fail: all of them are caught, and nothing else that was
/// verified moved. The rest of the catalogue is not rendered again.
@Suite("Regressions are caught, and only where they are")
struct RegressionTests {
  /// Verifies `slice` against the baseline with `themes`; the ids that fail, and the report.
  func failures(
    themes: URL, slice: [SnapshotReference], sourceLocation: SourceLocation = #_sourceLocation
  ) throws
    -> (ids: Set<String>, report: SnapshotRunReport)
  {
    let pairs = Set(slice.map { "\($0.variant.theme.rawValue)-\($0.variant.mode.rawValue)" })
    #expect(
      pairs.count == ThemeName.allCases.count * ColorMode.allCases.count,
      "every theme × mode is verified", sourceLocation: sourceLocation)
    return try Baseline.failingIDs(themes: themes, verifying: slice)
  }

  @Test("a colour token (sosh dark bg.primary) fails exactly the sosh-dark references")
  func colourToken() throws {
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    try edit(
      themes.appendingPathComponent("brands/sosh/dark.tokens.json"),
      replacing: #""$value": "{color.raw.sosh.lochmara-dark-960}""#,
      with: #""$value": "{color.raw.sosh.functional-gray-light-160}""#)
    let expected = try Baseline.ids { reference, _ in
      reference.variant.theme == .sosh && reference.variant.mode == .dark
    }
    let (failing, report) = try failures(
      themes: themes, slice: try Baseline.slice(predicted: expected, theme: .sosh))
    #expect(!expected.isEmpty)
    #expect(failing == expected)
    // Plain values in #expect: describing a report (with its images) on failure takes minutes.
    let pixelsChanged = report.failures.allSatisfy {
      $0.status == .changed && ($0.diff?.changedPixels ?? 0) > 0
    }
    let layoutsChanged = report.failures.allSatisfy { $0.layoutDiff.contains { $0.hasPrefix("+") } }
    #expect(pixelsChanged)
    #expect(layoutsChanged, "the background colour shows in the layout JSON")
  }

  @Test("a padding token (padding-inline level-2) fails exactly the references with a third level")
  func paddingToken() throws {
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    try edit(
      themes.appendingPathComponent("components/bullet-list.tokens.json"),
      replacing: #""$value": "{dimension.850}""#, with: #""$value": "{dimension.350}""#)
    let expected = try Baseline.ids { _, layout in
      try JSONDecoder().decode(Scene.self, from: Data(layout.utf8)).rows.contains { $0.level == 2 }
    }
    // A token of the shared component file: no theme of its own, the control sample covers them all.
    let (failing, report) = try failures(
      themes: themes, slice: try Baseline.slice(predicted: expected))
    #expect(!expected.isEmpty)
    #expect(failing == expected)
    // The layout text diff says why: the x of level-2 rows moved.
    let xMoved = report.failures.allSatisfy { outcome in
      outcome.layoutDiff.contains { $0.hasPrefix("+") && $0.contains("\"x\"") }
    }
    #expect(xMoved)
  }

  @Test(
    "a marker (wireframe level-1 bullet shape) fails exactly the wireframe references drawing that shape"
  )
  func marker() throws {
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    try edit(
      themes.appendingPathComponent("components/bullet-list.spec.json"),
      replacing: #""wireframe/sparkle-thick-outline.svg","#, with: #""wireframe/sparkle.svg","#)
    let expected = try Baseline.ids { reference, layout in
      reference.variant.theme == .wireframe
        && layout.contains("\"wireframe.sparkle-thick-outline\"")
    }
    let (failing, _) = try failures(
      themes: themes, slice: try Baseline.slice(predicted: expected, theme: .wireframe))
    #expect(!expected.isEmpty)
    #expect(failing == expected)
  }

  @Test(
    "a font file (sosh latin-bold → Inter ExtraBold) fails exactly the sosh references with bold Latin text, and says environment differs"
  )
  func fontFile() throws {
    let themes = try copyOfThemes()
    defer { try? FileManager.default.removeItem(at: themes.deletingLastPathComponent()) }
    try edit(
      themes.appendingPathComponent("fonts/sosh.fonts.json"),
      replacing: #""file": "Inter-Bold.otf""#, with: #""file": "Inter-ExtraBold.otf""#)
    let expected = try Baseline.ids { reference, layout in
      guard reference.variant.theme == .sosh else { return false }
      let scene = try JSONDecoder().decode(Scene.self, from: Data(layout.utf8))
      return scene.rows.contains { row in
        ([row.text] + (row.markerText.map { [$0] } ?? [])).contains { text in
          text.content.spans.contains { span in
            (span.weight ?? text.content.appearance.weight) >= 600
              && span.text.unicodeScalars.contains { $0.isASCII && $0 != " " }
          }
        }
      }
    }
    let (failing, report) = try failures(
      themes: themes, slice: try Baseline.slice(predicted: expected, theme: .sosh))
    #expect(!expected.isEmpty)
    #expect(failing == expected)
    let headline = try #require(report.environmentHeadline)
    #expect(
      headline.hasPrefix(
        "environment differs: sosh font latin-bold: Inter-Bold.otf → Inter-ExtraBold.otf"))
    // The changed references are one environment row naming the font file, without a row or an
    // accept command each: re-recording one of them cannot fix a font difference.
    let text = SnapshotSummary.text(
      report, acceptCommand: { "ouds-render snapshot record --failed --filter \($0.id)" })
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.dropFirst().first?.hasPrefix("STATUS ") == true, "\(text)")
    #expect(
      lines.dropFirst(2).first?.hasPrefix("environment  ") == true
        && lines.dropFirst(2).first?.contains("references: sosh font latin-bold") == true, "\(text)"
    )
    #expect(!lines.contains { $0.hasPrefix("changed ") || $0.hasPrefix("CHANGED ") })
    #expect(!text.contains("accept:"))
    #expect(
      lines.contains {
        $0.hasPrefix("          sosh font latin-bold: Inter-Bold.otf → Inter-ExtraBold.otf sha256 ")
      }, "\(text)")
    #expect(
      lines.contains(
        "        install the font files the references were recorded with (or give --font-dir a folder that holds them)"
      ))
  }
}
