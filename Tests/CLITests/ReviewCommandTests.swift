import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `ouds-render snapshot review`, end to end on a small catalogue: sample-2 alone (its 8
/// references), whose second label changes, so that a `verify --results out/r` run holds 8
/// changed references to review.
@Suite("snapshot review: accept and reject a run's failures in the browser")
final class ReviewCommandTests {
  let root: URL
  /// The 8 ids of the run.
  static let ids = [
    "orange-compact-dark", "orange-compact-light", "orange-dark", "orange-light", "sosh-dark",
    "sosh-light", "wireframe-dark", "wireframe-light",
  ].map { "sample-2/\($0)@2x" }

  init() throws {
    root = try temporaryFolder()
    let manager = FileManager.default
    let source = repositoryRoot.appendingPathComponent("Snapshots")
    let snapshots = root.appendingPathComponent("Snapshots")
    try manager.createDirectory(
      at: snapshots.appendingPathComponent("cases"), withIntermediateDirectories: true)
    // The catalogue's own files (ENVIRONMENT.json, schemas), sample-2's case and references.
    for name in try manager.contentsOfDirectory(atPath: source.path) {
      var isFolder: ObjCBool = false
      _ = manager.fileExists(
        atPath: source.appendingPathComponent(name).path, isDirectory: &isFolder)
      if !isFolder.boolValue {
        try manager.copyItem(
          at: source.appendingPathComponent(name), to: snapshots.appendingPathComponent(name))
      }
    }
    try manager.copyItem(
      at: source.appendingPathComponent("sample-2"),
      to: snapshots.appendingPathComponent("sample-2"))
    let caseFile = "cases/sample-2.json"
    let text = try String(
      contentsOf: source.appendingPathComponent(caseFile), encoding: .utf8)
    #expect(text.contains(#""Label 2""#))
    try Data(text.replacingOccurrences(of: #""Label 2""#, with: #""Label two""#).utf8).write(
      to: snapshots.appendingPathComponent(caseFile))
    _ = try copyOfThemes(in: root)
    let verify = try run(
      ["snapshot", "verify", "--run-id", "review-1", "--results", "out/r"], in: root)
    #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  func reference(_ id: String) throws -> Data {
    let name = id.dropFirst("sample-2/".count)
    return try Data(contentsOf: root.appendingPathComponent("Snapshots/sample-2/\(name).png"))
  }

  /// The run's render of `id`: the actual.png its results.json names.
  func render(_ id: String) throws -> Data {
    let folder = root.appendingPathComponent("out/r")
    let results = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: folder.appendingPathComponent("results.json"))) as? [String: Any])
    let references = try #require(results["references"] as? [[String: Any]])
    let entry = try #require(references.first { $0["id"] as? String == id })
    let path = try #require((entry["artifacts"] as? [String: String])?["actual.png"])
    return try Data(contentsOf: folder.appendingPathComponent(path))
  }

  @Test(
    "in Chromium: forged requests change nothing; one failure and two together are accepted, one rejected, the accepted written in one go; verify then passes exactly those"
  )
  func browser() throws {
    let tools = try BrowserTools.find()
    let before = try Dictionary(uniqueKeysWithValues: Self.ids.map { ($0, try reference($0)) })
    let review = try PreviewProcess(["snapshot", "review", "out/r", "--port", "0"], in: root)
    let port = try review.port()
    let (status, report) = try tools.run(
      "review_page.py",
      ["http://127.0.0.1:\(port)/", root.appendingPathComponent("Snapshots").path, tools.chromium])
    #expect(status == 0, "\(report)\nreview: \(review.stderr)")
    #expect(report.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == 22, "\(report)")
    #expect(review.stop(with: SIGTERM) == 0)
    #expect(review.lines.last == "stopped the review (SIGTERM): 3 written, 1 rejected")

    let accepted = ["sample-2/orange-light@2x", "sample-2/sosh-dark@2x", "sample-2/sosh-light@2x"]
    for id in Self.ids {
      if accepted.contains(id) {
        #expect(try reference(id) == render(id), "\(id) is the run's render")
        #expect(try reference(id) != before[id], "\(id) changed")
      } else {
        #expect(try reference(id) == before[id], "\(id) is untouched")
      }
    }
    // verify passes exactly the accepted ones.
    let verify = try run(["snapshot", "verify"], in: root)
    #expect(verify.status == 1)
    for id in Self.ids {
      let row = verify.stdout.split(separator: "\n").first { $0.contains(id) }.map(String.init)
      #expect(
        (row?.contains("changed") ?? false) != accepted.contains(id),
        "\(id): \(row ?? "no row")\n\(verify.stdout)")
    }
    #expect(
      try run(["snapshot", "verify", "--filter", accepted.joined(separator: ",")], in: root)
        .status == 0)
  }

  @Test("a bad results folder: one line, exit 1, nothing served")
  func badFolder() throws {
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
    let result = try run(["snapshot", "review", "empty", "--port", "0"], in: root)
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
    #expect(result.stderr.contains("empty/results.json"), "\(result.stderr)")
  }

  @Test("a port in use: one line, exit 1; SIGINT stops the first, exit 0")
  func portInUse() throws {
    let first = try PreviewProcess(["snapshot", "review", "out/r", "--port", "0"], in: root)
    let port = try first.port()
    let second = try run(["snapshot", "review", "out/r", "--port", "\(port)"], in: root)
    #expect(second.status == 1)
    #expect(
      second.stderr
        == "error: cannot listen on 127.0.0.1 port \(port): port \(port) is in use (give another with --port, or 0 for any)\n"
    )
    #expect(first.stop(with: SIGINT) == 0)
    #expect(first.lines.last == "stopped the review (SIGINT): 0 written, 0 rejected")
  }
}
