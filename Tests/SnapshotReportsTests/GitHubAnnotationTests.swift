import Foundation
import Snapshot
import SnapshotReports
import TestSupport
import Testing

@Suite("verify --annotations github: one workflow command per failure, on its case file")
struct GitHubAnnotationTests {
  @Test(
    "a failure is an ::error on its case file at its variants key's line (not a label's), escaped as GitHub reads it"
  )
  func failureOnCaseFile() throws {
    let root = try temporaryFolder("annotations")
    defer { try? FileManager.default.removeItem(at: root) }
    let cases = root.appendingPathComponent("Snapshots/cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try Data(
      "{\n  \"items\": [\n    { \"label\": \"variants\" }\n  ],\n  \"variants\": {}\n}\n".utf8
    ).write(
      to: cases.appendingPathComponent("demo.json"))
    let results = SampleResults.results([
      SampleResults.reference(
        "demo", status: .changed, reason: "12 pixels differ (0.5%), layout: 2 lines",
        message: "line one\nline two"),
      SampleResults.reference("gone", status: .missing, reason: "no reference"),
      SampleResults.reference("fine"),
    ])
    let text = GitHubAnnotations.text(results, root: RepositoryRoot(directory: root))
    #expect(
      text
        == "::error file=Snapshots/cases/demo.json,line=5,title=snapshot changed%3A demo/orange-light@2x::12 pixels differ (0.5%25)%2C layout: 2 lines"
        .replacingOccurrences(of: "%2C layout", with: ", layout")
        + "%0Aline one\\nline two\n"
        + "::error file=Snapshots/gone/orange-light@2x.png,line=1,title=snapshot missing%3A gone/orange-light@2x::no reference\n"
    )
  }

  @Test("past 50 failures, one warning counts the rest")
  func capped() {
    let results = SampleResults.results(
      (0..<60).map { SampleResults.reference("case-\($0)", status: .changed, reason: "differs") })
    let lines = GitHubAnnotations.text(
      results, root: RepositoryRoot(directory: URL(fileURLWithPath: "/nonexistent"))
    )
    .split(separator: "\n")
    #expect(lines.count == 51)
    #expect(lines.last == "::warning title=more snapshot failures::10 more, see the summary")
  }
}
