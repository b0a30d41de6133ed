import Foundation
import Graphics
import PNG
import RunReports
import Snapshot
import SnapshotReports
import TestSupport
import Testing

/// A run with known failures: sample-3 and sample-1.1 recorded, then orange light's background changed
/// and one reference deleted.
enum FailingRun {
  static let run: Result<(folder: URL, report: SnapshotRunReport), any Error> = Result {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-3", "sample-1.1"],
      variants: [
        "sample-3": #"{ "themes": ["orange", "sosh"], "modes": ["light"] }"#,
        "sample-1.1": #"{ "themes": ["orange"], "modes": ["light", "dark"] }"#,
      ])
    // A set-up failure is thrown, so every test that uses the run fails with it (not only the first).
    let recorded = try engine(snapshots: folder).record(
      try engine(snapshots: folder).catalogue.references, mode: .all)
    guard recorded.succeeded else {
      throw SupportFailure(
        "FailingRun: recording the baseline failed: \(SnapshotSummary.text(recorded))")
    }
    try FileManager.default.removeItem(
      at: folder.appendingPathComponent("sample-1.1/orange-dark@2x.png"))
    let themes = try copyOfThemes()
    let light = themes.appendingPathComponent("brands/orange/light.tokens.json")
    try edit(
      light,
      replacing:
        "\"$value\": \"{color.raw.functional.white}\",\n        \"$description\": \"Canvas background",
      with:
        "\"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, 0, 1], \"hex\": \"#ff00ff\"},\n        \"$description\": \"Canvas background"
    )
    let report = try engine(snapshots: folder, themes: themes).verify(
      try engine(snapshots: folder).catalogue.references)
    return (folder, report)
  }
}

@Suite("Artifacts, JUnit XML, and the HTML review page")
struct ReportTests {
  @Test("the failing run fails exactly the orange-light references and the deleted one")
  func failingRun() throws {
    let (_, report) = try FailingRun.run.get()
    #expect(
      Set(report.failures.map(\.reference.id)) == [
        "sample-1.1/orange-dark@2x", "sample-1.1/orange-light@2x", "sample-3/orange-light@2x",
      ])
    #expect(
      report.failures.first { $0.reference.id == "sample-1.1/orange-dark@2x" }?.status == .missing)
  }

  @Test("artifacts: expected, actual, diff and side-by-side PNGs, layout diff, junit.xml")
  func artifacts() throws {
    let (snapshots, report) = try FailingRun.run.get()
    let folder = try temporaryFolder("artifacts")
    defer { try? FileManager.default.removeItem(at: folder) }
    try SnapshotArtifacts.write(report, to: folder)
    let changed = folder.appendingPathComponent("sample-3/orange-light@2x")
    for name in ["expected.png", "actual.png", "diff.png", "side-by-side.png", "layout.diff"] {
      #expect(
        FileManager.default.fileExists(atPath: changed.appendingPathComponent(name).path), "\(name)"
      )
    }
    let actual = try PNGCodec.decode(Data(contentsOf: changed.appendingPathComponent("actual.png")))
    #expect(actual.pixel(x: 1, y: 1) == (255, 0, 255, 255))
    let missing = folder.appendingPathComponent("sample-1.1/orange-dark@2x")
    #expect(
      FileManager.default.fileExists(atPath: missing.appendingPathComponent("actual.png").path))
    #expect(
      !FileManager.default.fileExists(atPath: missing.appendingPathComponent("expected.png").path))
    let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
    // Three references fail, and the edited tokens are a fourth failing case of their own.
    #expect(junit.contains(#"<testsuite name="ouds-snapshots" tests="5" failures="4" errors="0""#))
    #expect(junit.contains(#"<testcase classname="sample-3" name="orange-light@2x""#))
    #expect(junit.contains(#"<failure type="missing-reference""#))
    // The snapshots folder is outside the repository root: JUnit names its files by absolute paths.
    #expect(
      junit.contains(
        #"<testcase classname="environment" name="tokens" file="\#(snapshots.standardizedFileURL.path)/ENVIRONMENT.json""#
      ))
    #expect(junit.contains(#"<property name="sources" value="themes: "#))
    #expect(junit.components(separatedBy: "<failure ").count - 1 == 4)
    // A second, passing-free write clears the stale folders of the first.
    try SnapshotArtifacts.write(SnapshotRunReport(outcomes: []), to: folder)
    #expect(!FileManager.default.fileExists(atPath: changed.path))
  }

  @Test(
    "the review page is self-contained, lists every failure with its numbers and accept command")
  func pageContent() throws {
    let (_, report) = try FailingRun.run.get()
    let folder = try temporaryFolder("report")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try ReviewReport.write(
      report, to: folder, commands: .cli(extraArguments: "--themes /tmp/T"))
    let html = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      !html.contains("http://") && !html.contains("https://") && !html.contains("<link"),
      "no network")
    for outcome in report.failures {
      #expect(html.contains("data-id=\"\(outcome.reference.id)\""))
    }
    #expect(
      html.contains(
        "ouds-render snapshot record --failed --themes /tmp/T --filter sample-3/orange-light@2x"))
    #expect(
      html.contains(
        "ouds-render snapshot record --missing --themes /tmp/T --filter sample-1.1/orange-dark@2x"))
    #expect(html.contains("type=\"range\""))
    #expect(html.contains("class=\"flip for-toggle\""))
    #expect(html.contains("class=\"changed-pixels\""))
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("images/sample-3__orange-light@2x/diff.png").path))
  }

  @Test(
    "headless Chromium loads every image of the review page and lists every failure",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func chromium() throws {
    let chromium = try #require(
      Chromium.path, "CI is set and chromium is not installed: scripts/test installs it")
    let (_, report) = try FailingRun.run.get()
    let folder = try temporaryFolder("report")
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = try ReviewReport.write(report, to: folder)
    let url = URL(fileURLWithPath: page).absoluteString
    let profile = folder.appendingPathComponent("profile").path
    let common = [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
      "--user-data-dir=\(profile)", "--virtual-time-budget=5000", "--force-device-scale-factor=1",
    ]
    let dom = try runProcess(chromium, common + ["--dump-dom", url])
    #expect(dom.contains("data-state=\"ready\""), "every image loaded")
    let total = try #require(dom.firstMatch(of: /data-images-total="(\d+)"/).map { Int($0.1) ?? 0 })
    let loaded = try #require(
      dom.firstMatch(of: /data-images-loaded="(\d+)"/).map { Int($0.1) ?? 0 })
    #expect(total > 0 && loaded == total)
    for outcome in report.failures {
      #expect(dom.contains("data-id=\"\(outcome.reference.id)\""), "\(outcome.reference.id) listed")
    }
    #expect(
      dom.components(separatedBy: "<section class=\"failure").count - 1 == report.failures.count)

    let shot = folder.appendingPathComponent("shot.png")
    _ = try runProcess(
      chromium, common + ["--window-size=1400,1600", "--screenshot=\(shot.path)", url])
    let image = try PNGCodec.decode(Data(contentsOf: shot))
    var magenta = 0
    var red = 0
    for y in stride(from: 0, to: image.height, by: 2) {
      for x in stride(from: 0, to: image.width, by: 2) {
        let p = image.pixel(x: x, y: y)
        if p.red > 240 && p.green < 20 && p.blue > 240 { magenta += 1 }
        if p.red > 200 && p.green < 40 && p.blue < 40 { red += 1 }
      }
    }
    #expect(magenta > 1000, "the actual renders (magenta background) are drawn on the page")
    #expect(red > 100, "the diff images (changed pixels in red) are drawn on the page")
  }
}
