import Foundation
import PNG
import PixelDiff
import RunReports
import Snapshot
import SnapshotReports
import Testing

/// `verify --max-diff-pixels`, `--max-diff-ratio` and the case files' `maxDiffPixels` and
/// `maxDiffRatio`: exact by default, said when they let a change through, kept in results.json.
@Suite("Tolerances: exact by default, said when they let a change pass, checked on merge")
struct ToleranceTests {
  /// A catalogue of sample-1.1 in orange light (its variants `extra` added), recorded, with 5
  /// pixels of the reference's middle row changed.
  private func catalogue(extra: String = "") throws -> (folder: URL, reference: SnapshotReference) {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-1.1"],
      variants: ["sample-1.1": #"{ "themes": ["orange"], "modes": ["light"]\#(extra) }"#])
    let references = try engine(snapshots: folder).catalogue.references
    let recorded = try engine(snapshots: folder).record(references, mode: .all)
    #expect(recorded.succeeded)
    let reference = try #require(references.first)
    let png = folder.appendingPathComponent(reference.imagePath)
    var image = try PNGCodec.decode(try Data(contentsOf: png))
    let y = image.height / 2
    for x in 10..<15 {
      let index = (y * image.width + x) * 4
      image.pixels[index] = 255 &- image.pixels[index]
      image.pixels[index + 1] = 0
      image.pixels[index + 2] = 255
    }
    try PNGCodec.encode(image).write(to: png)
    return (folder, reference)
  }

  private func verify(_ folder: URL, pixels: Int? = nil, ratio: Double? = nil) throws
    -> SnapshotRunReport
  {
    let engine = try SnapshotEngine(
      configuration: SnapshotConfiguration(
        snapshotsDirectory: folder, themesDirectory: Repo.themes,
        diffOptions: SnapshotTolerance(maxDiffPixels: pixels, maxDiffRatio: ratio).applied(
          to: DiffOptions())))
    return try engine.verify(engine.catalogue.references)
  }

  @Test("5 changed pixels fail an exact run, pass within 10, fail over 3; the summary says so")
  func runTolerance() throws {
    let (folder, reference) = try catalogue()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try verify(folder).outcomes.first?.status == .changed)

    let within = try verify(folder, pixels: 10)
    #expect(within.outcomes.first?.status == .passed)
    let results = SnapshotRunResults(within, root: nil)
    #expect(results.tolerance == SnapshotTolerance(maxDiffPixels: 10))
    #expect(SnapshotSummary.counts(results) == "1 reference: 1 passed (1 within tolerance)")
    #expect(
      SnapshotSummary.text(results).contains(
        "PASSED  \(reference.id): within tolerance (5 pixels; at most 10 pixels)"))
    #expect(
      JUnitXML.document(results, suiteName: "s", attachments: { _ in [] }).contains(
        "<system-out>within tolerance (5 pixels; at most 10 pixels)</system-out>"))

    #expect(try verify(folder, pixels: 3).outcomes.first?.status == .changed)
    // 0 is exact, the strictest: with a looser share beside it, 5 changed pixels still fail.
    #expect(try verify(folder, pixels: 0, ratio: 0.001).outcomes.first?.status == .changed)
    // A share: 5 of 720×192 pixels is 0.0036 %; 0.01 % lets them pass, 0.001 % does not.
    #expect(try verify(folder, ratio: 0.0001).outcomes.first?.status == .passed)
    #expect(try verify(folder, ratio: 0.00001).outcomes.first?.status == .changed)
  }

  @Test("a case file's maxDiffPixels holds for its variants and replaces the run's")
  func caseTolerance() throws {
    let (folder, reference) = try catalogue(extra: #", "maxDiffPixels": 10"#)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(reference.variant.tolerance == SnapshotTolerance(maxDiffPixels: 10))
    #expect(reference.variant.name == "orange-light@2x", "a tolerance does not rename a variant")
    let report = try verify(folder)
    #expect(report.outcomes.first?.status == .passed)
    #expect(report.outcomes.first?.tolerance == SnapshotTolerance(maxDiffPixels: 10))
    // The case's key wins over a looser run tolerance.
    #expect(try verify(folder, pixels: 1_000).outcomes.first?.tolerance.maxDiffPixels == 10)
  }

  @Test("tolerance keys out of range are one line naming the case file and the key")
  func badKeys() throws {
    for (extra, expected) in [
      (#", "maxDiffPixels": -1"#, "maxDiffPixels: expected a whole number of pixels from 0 to"),
      (#", "maxDiffPixels": 2.5"#, "maxDiffPixels: expected a whole number of pixels"),
      (#", "maxDiffRatio": 2"#, "maxDiffRatio: expected a share of the pixels from 0 to 1"),
    ] {
      let folder = try makeSnapshotsFolder(
        cases: ["sample-1.1"],
        variants: ["sample-1.1": #"{ "themes": ["orange"], "modes": ["light"]\#(extra) }"#])
      defer { try? FileManager.default.removeItem(at: folder) }
      let broken = try engine(snapshots: folder).catalogue.selectBroken()
      #expect(broken.first?.message.contains(expected) == true, "\(broken)")
    }
  }

  @Test("results.json keeps each reference's tolerance; an edited tolerance or verdict is refused")
  func resultsKeepTolerance() throws {
    let (folder, _) = try catalogue()
    defer { try? FileManager.default.removeItem(at: folder) }
    let results = SnapshotRunResults(try verify(folder, pixels: 10), root: nil)
    let out = try temporaryFolder("tolerance-results")
    defer { try? FileManager.default.removeItem(at: out) }
    let file = out.appendingPathComponent(SnapshotRunResults.fileName)
    let text = results.jsonText()
    try Data(text.utf8).write(to: file)
    let read = try SnapshotRunResults.read(from: out)
    #expect(read.tolerance == SnapshotTolerance(maxDiffPixels: 10))
    #expect(read.references.first?.tolerance == SnapshotTolerance(maxDiffPixels: 10))
    // The tolerance taken away, the within-tolerance verdict is a contradiction.
    try Data(
      text.replacingOccurrences(of: #""maxDiffPixels": 10"#, with: #""maxDiffPixels": null"#)
        .utf8
    ).write(to: file)
    do {
      _ = try SnapshotRunResults.read(from: out)
      Issue.record("an edited tolerance was read")
    } catch {
      #expect(
        "\(error)".contains(
          "pixels.result: within-tolerance contradicts 5 changed pixels of 720×192 with the tolerance exact: the entry was edited"
        ), "\(error)")
    }
  }

  @Test("the review page lists passing references, filterable, with their times and tolerances")
  func reviewPageListsPassed() throws {
    let (folder, reference) = try catalogue()
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = try verify(folder, pixels: 10)
    let page = try temporaryFolder("tolerance-page")
    defer { try? FileManager.default.removeItem(at: page) }
    let index = try ReviewReport.write(report, to: page)
    let html = try String(contentsOfFile: index, encoding: .utf8)
    #expect(html.contains(#"<input id="passed-filter" type="search""#))
    #expect(html.contains(#"<li data-id="\#(reference.id)">\#(reference.id) "#))
    #expect(
      html.contains(
        #"<span class="tolerance">within tolerance (5 pixels; at most 10 pixels)</span>"#))
    #expect(html.contains(#"<span class="time">"#))
  }
}
