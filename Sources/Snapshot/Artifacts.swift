import BulletListRenderer
import Dispatch
import Foundation
import Graphics
import SafeInput

/// Writes what a person needs to see a failure: expected, actual and diff images, layout JSON and a diff, JUnit XML.
///
/// Layout: `<dir>/<case>/<variant>/expected.png`, `actual.png`, `diff.png`, `side-by-side.png`,
/// `expected.layout.json`, `actual.layout.json`, `layout.diff`; `<dir>/junit.xml`; `<dir>/summary.txt`.
public enum SnapshotArtifacts {
  /// The default artifacts folder of the test suite and `assertSnapshot`, relative to the current folder.
  public static let defaultDirectory = ".build/snapshot-artifacts"

  /// The default artifacts folder of `ouds-render snapshot verify`: `<parent of snapshots>/.build/snapshot-artifacts`,
  /// i.e. the package's `.build/snapshot-artifacts` for `./Snapshots`, wherever the command runs from.
  public static func defaultDirectory(forSnapshots snapshots: URL) -> URL {
    snapshots.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(defaultDirectory)
  }
  /// A file that marks a folder as written by this tool, so stale per-reference folders can be cleared.
  static let markerFileName = ".ouds-snapshot-artifacts"

  /// The folder of one reference's artifacts, relative to the artifacts folder.
  public static func folder(for reference: SnapshotReference) -> String {
    reference.id
  }

  /// Writes the artifacts of every failure of `report` (encoding in parallel) and `junit.xml`.
  ///
  /// Per-reference folders left by an earlier run in a folder this tool wrote are removed first, so
  /// the folder only shows the failures of this run.
  /// - Returns: the files written, absolute paths.
  @discardableResult
  public static func write(
    _ report: SnapshotRunReport, to directory: URL, suiteName: String = "ouds-snapshots",
    acceptCommand: (SnapshotOutcome) -> String = { _ in "" }
  ) throws -> [String] {
    let fm = FileManager.default
    if fm.fileExists(atPath: directory.appendingPathComponent(markerFileName).path),
      let entries = try? fm.contentsOfDirectory(atPath: directory.path)
    {
      for entry in entries where !entry.hasPrefix(".") {
        try? fm.removeItem(at: directory.appendingPathComponent(entry))
      }
    }
    let inputs = report.inputFiles
    try AtomicFile.write(
      Data(), to: directory.appendingPathComponent(markerFileName).path, createDirectories: true, protecting: inputs)
    let failures = report.failures
    let written = Locked<[String]>([])
    let errors = Locked<[WriteFailure]>([])
    DispatchQueue.concurrentPerform(iterations: failures.count) { index in
      let outcome = failures[index]
      let folder = directory.appendingPathComponent(folder(for: outcome.reference))
      do {
        for (name, data) in try files(for: outcome) {
          let path = folder.appendingPathComponent(name).path
          try AtomicFile.write(data, to: path, createDirectories: true, protecting: inputs)
          written.withLock { $0.append(path) }
        }
      } catch {
        errors.withLock { $0.append((outcome.reference.id, "\(error)")) }
      }
    }
    if let first = firstFailure(errors.withLock { $0 }) {
      throw SnapshotError.artifactsNotWritten(reference: first.reference, reason: first.reason)
    }
    let junit = directory.appendingPathComponent("junit.xml").path
    try AtomicFile.write(
      Data(JUnitXML.document(report, suiteName: suiteName).utf8), to: junit, createDirectories: true,
      protecting: inputs)
    let summary = directory.appendingPathComponent("summary.txt").path
    try AtomicFile.write(
      Data(SnapshotSummary.text(report, acceptCommand: acceptCommand).utf8), to: summary, createDirectories: true,
      protecting: inputs)
    return written.withLock { $0 }.sorted() + [junit, summary]
  }

  /// Writes the artifacts of one failure into `<directory>/<case>/<variant>/`, leaving the rest of
  /// the folder alone and never replacing one of `inputs`.
  public static func writeOne(_ outcome: SnapshotOutcome, to directory: URL, protecting inputs: InputFiles) throws {
    let folder = directory.appendingPathComponent(folder(for: outcome.reference))
    for (name, data) in try files(for: outcome) {
      try AtomicFile.write(
        data, to: folder.appendingPathComponent(name).path, createDirectories: true, protecting: inputs)
    }
  }

  /// The artifact files of one failure, name → bytes; without `side-by-side.png` when `sideBySide` is false.
  static func files(for outcome: SnapshotOutcome, sideBySide: Bool = true) throws -> [(String, Data)] {
    var files: [(String, Data)] = []
    if let evidence = outcome.evidence {
      if let expectedPNG = evidence.expectedPNG { files.append(("expected.png", expectedPNG)) }
      let actual = evidence.actualImage
      files.append(("actual.png", try PNGCodec.encode(actual)))
      if let expected = evidence.expectedImage, let diff = outcome.diff {
        let diffImage = ImageDiff.diffImage(expected: expected, actual: actual, result: diff)
        files.append(("diff.png", try PNGCodec.encode(diffImage)))
        if sideBySide {
          files.append(
            ("side-by-side.png", try PNGCodec.encode(ImageDiff.sideBySide(expected: expected, actual: actual, diff: diffImage))))
        }
      }
      if let expectedLayout = evidence.expectedLayout {
        files.append(("expected.layout.json", Data(expectedLayout.utf8)))
      }
      files.append(("actual.layout.json", Data(evidence.actualLayout.utf8)))
    }
    if !outcome.layoutDiff.isEmpty {
      let header = "--- \(outcome.reference.layoutPath) (reference)\n+++ \(outcome.reference.layoutPath) (this render)\n"
      files.append(("layout.diff", Data((header + outcome.layoutDiff.joined(separator: "\n") + "\n").utf8)))
    }
    return files
  }
}

/// A reference whose files could not be written, and why; the first by reference id is reported.
typealias WriteFailure = (reference: String, reason: String)

/// The failure with the smallest reference id (then reason), so the report does not depend on
/// which thread failed first.
func firstFailure(_ failures: [WriteFailure]) -> WriteFailure? {
  failures.min { ($0.reference, $0.reason) < ($1.reference, $1.reason) }
}

/// The plain-text summary of a run, as printed by `ouds-render snapshot verify`.
public enum SnapshotSummary {
  /// Layout diff lines shown per failure before eliding the rest.
  public static let maxLayoutLines = 24

  /// The failure table: where tokens and fonts came from, the environment, then one block per
  /// failure, then the totals.
  public static func text(
    _ report: SnapshotRunReport, acceptCommand: (SnapshotOutcome) -> String = { _ in "" }
  ) -> String {
    var lines: [String] = []
    if let sources = report.sources { lines.append(sources) }
    if let headline = report.environmentHeadline { lines.append(headline) }
    lines += table(report.failures, caseErrors: report.caseErrors)
    for caseError in report.caseErrors {
      lines.append("ERROR   \(caseError.id)")
      lines.append("        \(caseError.message)")
    }
    for outcome in report.failures {
      let label = displayStatus(outcome).uppercased().padding(toLength: 7, withPad: " ", startingAt: 0)
      lines.append("\(label) \(outcome.reference.id)")
      lines.append("        case \(outcome.reference.caseName), variant \(outcome.reference.variant.name)")
      if let diff = outcome.diff, diff != .identical {
        switch diff {
        case .sizeMismatch(let expected, let actual):
          lines.append("        size changed: reference \(expected), render \(actual)")
        default:
          lines.append(
            "        pixels: \(diff.changedPixels) changed, ratio \(String(format: "%.5f", diff.changedRatio))"
              + (diff.antiAliasedPixels > 0 ? ", \(diff.antiAliasedPixels) anti-aliased ignored" : ""))
          if let statistics = diff.statistics, !statistics.regions.isEmpty {
            let boxes = statistics.regions.map { "[\($0.x),\($0.y) \($0.width)×\($0.height)]" }.joined(separator: " ")
            lines.append(
              "        changed regions (x,y w×h px): \(boxes)"
                + (statistics.omittedRegions > 0 ? " and \(statistics.omittedRegions) more" : ""))
          }
        }
      } else if outcome.diff == .identical {
        lines.append("        pixels: identical")
      }
      if let message = outcome.message { lines.append("        \(message)") }
      if !outcome.layoutDiff.isEmpty {
        lines.append("        layout JSON (\(outcome.reference.layoutPath)):")
        for line in outcome.layoutDiff.prefix(maxLayoutLines) { lines.append("          " + line) }
        if outcome.layoutDiff.count > maxLayoutLines {
          lines.append("          … \(outcome.layoutDiff.count - maxLayoutLines) more lines in layout.diff")
        }
      }
      let accept = acceptCommand(outcome)
      if !accept.isEmpty { lines.append("        accept: \(accept)") }
    }
    lines.append(totals(report))
    return lines.joined(separator: "\n") + "\n"
  }

  /// The status a person reads: `layout` for a change of the layout JSON alone (pixels pass), else the status.
  public static func displayStatus(_ outcome: SnapshotOutcome) -> String {
    if outcome.status == .changed, outcome.diff?.passes == true, !outcome.layoutDiff.isEmpty { return "layout" }
    return outcome.status.rawValue
  }

  /// One row per failure: status, reference, changed pixels, ratio, regions, layout lines.
  ///
  /// A layout-only change reads `layout … identical  -  -  4 lines`: the PIXELS column says `identical`
  /// rather than `0`, so it is clear the pictures match.
  /// Each broken case file (`caseErrors`) is a row `error <case>/(case file) - - - -` first.
  public static func table(_ failures: [SnapshotOutcome], caseErrors: [SnapshotCaseError] = []) -> [String] {
    guard !failures.isEmpty || !caseErrors.isEmpty else { return [] }
    var rows = [["STATUS", "REFERENCE", "PIXELS", "RATIO", "REGIONS", "LAYOUT"]]
    for caseError in caseErrors { rows.append(["error", caseError.id, "-", "-", "-", "-"]) }
    for outcome in failures {
      var pixels = "-"
      var ratio = "-"
      var regions = "-"
      if let diff = outcome.diff {
        switch diff {
        case .sizeMismatch(let expected, let actual):
          pixels = "size \(expected)→\(actual)"
        case .identical:
          pixels = "identical"
        default:
          pixels = "\(diff.changedPixels)"
          ratio = String(format: "%.3f%%", diff.changedRatio * 100)
          regions = "\((diff.statistics?.regions.count ?? 0) + (diff.statistics?.omittedRegions ?? 0))"
        }
      }
      let layoutLines = outcome.layoutDiff.filter { $0.hasPrefix("-") || $0.hasPrefix("+") }.count
      rows.append([
        displayStatus(outcome), outcome.reference.id, pixels, ratio, regions,
        outcome.evidence?.expectedLayout == nil && outcome.status != .changed ? "-" : "\(layoutLines) lines",
      ])
    }
    let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
        .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    } + [""]
  }

  /// The last line of `record --missing`: `record --missing: wrote F files for R references; K already existed (not checked)[; E errors] in S s`.
  public static func missingTotals(_ report: SnapshotRunReport) -> String {
    let recorded = report.count(.recorded)
    let existing = report.count(.skipped)
    let errors = report.failures.count + report.caseErrors.count
    var line = "record --missing: wrote \(report.written.count) file\(report.written.count == 1 ? "" : "s")"
      + " for \(recorded) reference\(recorded == 1 ? "" : "s")"
      + "; \(existing) already existed (not checked)"
    if errors > 0 { line += "; \(errors) error\(errors == 1 ? "" : "s")" }
    return line + String(format: " in %.2f s", report.seconds)
  }

  /// `N references: P passed[, R recorded][, K not checked], F failed (C changed, M missing, E errors)[, B broken case files] in S s`,
  /// plus `; failed: the tokens …` when the token digest differs.
  public static func totals(_ report: SnapshotRunReport) -> String {
    let failed = report.failures.count
    let broken = report.caseErrors.count
    var line = "\(report.outcomes.count) reference\(report.outcomes.count == 1 ? "" : "s"): \(report.count(.passed)) passed"
    if report.count(.recorded) > 0 { line += ", \(report.count(.recorded)) recorded" }
    if report.count(.skipped) > 0 { line += ", \(report.count(.skipped)) not checked" }
    if failed > 0 {
      line += ", \(failed) failed (\(report.count(.changed)) changed, \(report.count(.missing)) missing, \(report.count(.error)) errors)"
    }
    if broken > 0 { line += ", \(broken) broken case file\(broken == 1 ? "" : "s")" }
    line += String(format: " in %.2f s", report.seconds)
    if report.tokenDifference != nil { line += "; failed: the tokens are not the ones the references were recorded with" }
    return line
  }
}
