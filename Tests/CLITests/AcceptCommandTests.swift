import Foundation
import Testing

@Suite("snapshot accept: a CI run's renders become the references, only for this catalogue")
struct AcceptCommandTests {
  /// A checkout (Snapshots, kept to the cases `sample-1` and `sample-3`, and Themes) with sample-3's
  /// orange light reference replaced by its sosh light one, and a CI-like run of it: two shards
  /// with --results (one fails). Two cases are enough for the accept command, which applies a
  /// run's renders case by case; the whole catalogue is rendered once per test run elsewhere.
  private func checkout() throws -> (root: URL, original: Data) {
    let root = try temporaryFolder()
    let snapshots = root.appendingPathComponent("Snapshots")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots"), to: snapshots)
    try PipelineFixture.keepOnly(["sample-1", "sample-3"], in: snapshots)
    _ = try copyOfThemes(in: root)
    let reference = snapshots.appendingPathComponent("sample-3/orange-light@2x.png")
    let original = try Data(contentsOf: reference)
    try FileManager.default.removeItem(at: reference)
    try FileManager.default.copyItem(
      at: snapshots.appendingPathComponent("sample-3/sosh-light@2x.png"), to: reference)
    for shard in 1...2 {
      _ = try run(
        [
          "snapshot", "verify", "--shard", "\(shard)/2", "--run-id", "ci-9", "--results",
          "out/shard-\(shard)",
        ], in: root)
    }
    return (root, original)
  }

  @Test("the run's render is written over the changed reference; verify then passes")
  func acceptsTheRun() throws {
    let (root, original) = try checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let accepted = try run(["snapshot", "accept", "out/shard-1", "out/shard-2"], in: root)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(accepted.stdout.contains("accepted sample-3/orange-light@2x (changed)"))
    #expect(
      accepted.stdout.hasSuffix(
        "1 reference accepted from the run ci-9; review and commit Snapshots\n"))
    // The render of the run is the reference this stack recorded: the same bytes.
    #expect(
      try Data(contentsOf: root.appendingPathComponent("Snapshots/sample-3/orange-light@2x.png"))
        == original)
    #expect(try run(["snapshot", "verify"], in: root).status == 0)
  }

  @Test("results of another catalogue are refused, nothing written")
  func refusesAnotherCatalogue() throws {
    let (root, _) = try checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    // The catalogue moved on since the run: a case file edited.
    let caseFile = root.appendingPathComponent("Snapshots/cases/sample-1.json")
    try (try String(contentsOf: caseFile, encoding: .utf8) + "\n").write(
      to: caseFile, atomically: true, encoding: .utf8)
    let before = try Data(
      contentsOf: root.appendingPathComponent("Snapshots/sample-3/orange-light@2x.png"))
    let refused = try run(["snapshot", "accept", "out/shard-1", "out/shard-2"], in: root)
    #expect(refused.status == 1)
    #expect(
      refused.stderr.hasPrefix(
        "error: cannot accept: out/shard-1/results.json, out/shard-2/results.json: run.catalogueSHA256 is "
      ), "\(refused.stderr)")
    #expect(
      try Data(contentsOf: root.appendingPathComponent("Snapshots/sample-3/orange-light@2x.png"))
        == before)
    // One shard alone is not the run.
    let alone = try run(["snapshot", "accept", "out/shard-1"], in: root)
    #expect(alone.status == 1)
  }

  @Test("a run whose only failure is a broken case file offers no accept command")
  func brokenCaseHasNothingToAccept() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let cases = root.appendingPathComponent("s/cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try Data("{ \"items\": [ }".utf8).write(to: cases.appendingPathComponent("broken.json"))
    let result = try run(
      [
        "snapshot", "verify", "--snapshots", "s", "--themes",
        repositoryRoot.appendingPathComponent("Themes").path, "--run-id", "ci-3", "--results",
        "out",
      ], in: root)
    #expect(result.status == 1)
    #expect(result.stdout.contains("broken"), "\(result.stdout)")
    #expect(!result.stderr.contains("to accept every change"), "\(result.stderr)")
    // Accepting it anyway says why there is nothing, not that a --filter matched nothing.
    let accepted = try run(["snapshot", "accept", "out"], in: root)
    #expect(accepted.status == 1)
    #expect(
      accepted.stderr
        == "error: cannot accept: out/results.json: the run has nothing to accept: its only failure is 1 broken case file, which has no render (cases/broken.json: malformed JSON at line 1, column 14: expected a value, found '}'); fix it and run verify again\n",
      "\(accepted.stderr)")
  }
}
