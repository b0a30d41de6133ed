import Foundation
import Testing

/// The pages the tool writes and serves pass axe-core's rules (WCAG 2.x A and AA, best
/// practices): a tool that audits accessibility passes its own audit.
@Suite("Our own pages pass axe-core (Tests/Browser/axe_pages.py)", .serialized)
struct AccessibleToolPagesTests {
  @Test(
    "the review page, snapshot review, the gallery and the preview with its docs view: no axe-core violation"
  )
  func axeCore() throws {
    let tools = try BrowserTools.find(modules: ["axe_playwright_python", "playwright"])

    // A small catalogue with a failing case: the review page has failures to show.
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try copyOfThemes(in: folder)
    let snapshots = folder.appendingPathComponent("Snapshots")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots"), to: snapshots)
    try PipelineFixture.keepOnly(["sample-2", "markdown-ordered"], in: snapshots)
    let caseFile = snapshots.appendingPathComponent("cases/sample-2.json")
    let text = try String(contentsOf: caseFile, encoding: .utf8)
    try Data(text.replacingOccurrences(of: "\"Label 2\"", with: "\"Label two\"").utf8).write(
      to: caseFile)
    let verify = try run(
      ["snapshot", "verify", "--report", "report", "--results", "results"], in: folder)
    #expect(verify.status == 1, "\(verify.stderr)")
    let gallery = try run(["gallery", "-o", "gallery"], in: folder)
    #expect(gallery.status == 0, "\(gallery.stderr)")

    let preview = try PreviewProcess(
      ["preview", "Snapshots/cases/sample-2.json", "--port", "0"], in: folder)
    let review = try PreviewProcess(["snapshot", "review", "results", "--port", "0"], in: folder)
    let urls = [
      folder.appendingPathComponent("report/index.html").absoluteString,
      folder.appendingPathComponent("gallery/index.html").absoluteString,
      "http://127.0.0.1:\(try preview.port())/",
      "http://127.0.0.1:\(try preview.port())/?view=docs&platform=all",
      "http://127.0.0.1:\(try review.port())/",
    ]
    let (status, report) = try tools.run("axe_pages.py", [tools.chromium] + urls)
    #expect(status == 0, "\(report)")
    #expect(
      report.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == urls.count,
      "\(report)")
    #expect(preview.stop() == 0)
    #expect(review.stop() == 0)
  }
}
