import BulletList
import Foundation
import Graphics
import Snapshot
import SnapshotReports
import TestSupport
import Testing

/// The text summary's layout for a person: full for a few failures, the table alone (capped) for
/// many, colour marks that never move a column.
@Suite("Summary format: compact table, row cap, colour")
struct SummaryFormatTests {
  /// A two-item list, what each reference draws.
  static let list = OUDSBulletList(
    type: .ordered, textStyle: .bodyMedium, isBold: false,
    items: [OUDSBulletList.Item("First"), OUDSBulletList.Item("Second")])

  /// `count` changed references `case-00/orange-light@2x`, … with a pixel diff and a layout diff.
  static func changedRun(_ count: Int) -> SnapshotRunReport {
    let outcomes = (0..<count).map { index in
      SnapshotOutcome(
        reference: SnapshotReference(
          caseName: String(format: "case-%02d", index),
          variant: SnapshotVariant(theme: .orange, mode: .light), list: Self.list),
        result: .failed(
          SnapshotFailure(
            kind: .changed, diff: nil,
            layoutDiff: [" {", #"-  "x" : 96"#, #"+  "x" : \#(56 + index)"#])))
    }
    return SnapshotRunReport(outcomes: outcomes)
  }

  /// Marks a cell the way a painter would, with visible brackets instead of escape codes.
  static let bracketed: @Sendable (String, SummaryFormat.Tone) -> String = { text, tone in
    "<\(tone)>\(text)</\(tone)>"
  }

  /// `text` without the marks of ``bracketed``.
  static func unmarked(_ text: String) -> String {
    text.replacingOccurrences(
      of: #"</?(failure|warning|success)>"#, with: "", options: .regularExpression)
  }

  @Test("up to the detail limit every failure gets its block; one more and the table stands alone")
  func detailLimit() {
    let limit = SummaryFormat.terminalDetailLimit
    let few = SnapshotSummary.text(
      Self.changedRun(limit), format: .compact(elsewhere: "the artifacts in out/a"))
    #expect(few.components(separatedBy: "\n        layout JSON (").count - 1 == limit)
    #expect(few.contains("CHANGED case-00/orange-light@2x"))
    #expect(!few.contains("… and"))

    let many = SnapshotSummary.text(
      Self.changedRun(limit + 1), format: .compact(elsewhere: "the artifacts in out/a"))
    let lines = many.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "STATUS   REFERENCE                PIXELS  RATIO  REGIONS  LAYOUT")
    #expect(lines.filter { $0.hasPrefix("changed  case-") }.count == limit + 1)
    #expect(!many.contains("layout JSON ("), "no layout diff in the compact table")
    #expect(!many.contains("CHANGED "), "no per-failure block")
    #expect(
      lines.last(where: { !$0.isEmpty })?.hasPrefix(
        "\(limit + 1) references: 0 passed, \(limit + 1) failed") == true)
  }

  @Test("the standalone table stops at the row limit with '… and N more, see …'")
  func rowCap() {
    let run = Self.changedRun(SummaryFormat.terminalRowLimit + 7)
    let text = SnapshotSummary.text(
      run,
      format: .compact(elsewhere: "the artifacts in out/a and the review page out/r/index.html"))
    let rows = text.split(separator: "\n").filter { $0.hasPrefix("changed  ") }
    #expect(rows.count == SummaryFormat.terminalRowLimit)
    #expect(rows.first?.hasPrefix("changed  case-00/") == true)
    #expect(rows.last?.hasPrefix("changed  case-19/") == true)
    #expect(
      text.contains(
        "\n… and 7 more, see the artifacts in out/a and the review page out/r/index.html\n"))
    // Broken case files come first and count against the cap too.
    let broken = SnapshotCaseError(
      name: "zz", file: "cases/zz.json", message: "cases/zz.json: not JSON")
    var withBroken = run
    withBroken.caseErrors = [broken]
    let capped = SnapshotSummary.table(
      withBroken.failures, caseErrors: withBroken.caseErrors, format: SummaryFormat(rowLimit: 3))
    #expect(capped.count == 1 + 3 + 1 + 1)  // header, 3 rows, "… and", blank
    #expect(capped[1].hasPrefix("error    zz/(case file)"))
    #expect(capped[4] == "… and \(run.failures.count - 2) more, see the artifacts")
  }

  @Test("the full format (summary.txt) keeps every failure's block, however many")
  func fullFormat() {
    let text = SnapshotSummary.text(Self.changedRun(30))
    #expect(text.components(separatedBy: "\n        layout JSON (").count - 1 == 30)
    #expect(!text.contains("… and"))
  }

  @Test(
    "paint marks whole status cells and the totals; without the marks the text is the plain text")
  func paint() {
    for count in [2, 9] {
      let run = Self.changedRun(count)
      let plain = SnapshotSummary.text(run, format: .compact(elsewhere: "x"))
      let painted = SnapshotSummary.text(
        run, format: .compact(elsewhere: "x", paint: Self.bracketed))
      #expect(Self.unmarked(painted) == plain)
      #expect(painted.contains("\n<failure>changed</failure>  case-01/orange-light@2x  "))
      #expect(
        painted.contains(
          "<failure>\(count) failed (\(count) changed, 0 missing, 0 errors)</failure>"))
    }
    let few = SnapshotSummary.text(
      Self.changedRun(1), format: .compact(elsewhere: "x", paint: Self.bracketed))
    #expect(few.contains("\n<failure>CHANGED</failure> case-00/orange-light@2x\n"))
    var passing = SnapshotRunReport(outcomes: [])
    passing.outcomes = [
      SnapshotOutcome(reference: Self.changedRun(1).outcomes[0].reference, result: .passed(nil))
    ]
    #expect(
      SnapshotSummary.totals(passing, format: SummaryFormat(paint: Self.bracketed)).hasPrefix(
        "1 reference: <success>1 passed</success> in "))
  }
}
