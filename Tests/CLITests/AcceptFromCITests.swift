import Foundation
import Testing

/// Issue 27's "accept from CI", end to end as a developer meets it: a copy of a small catalogue
/// (two case files and their references) in which a label, a variant and a colour token change,
/// so that references fail or are missing and the recorded tokens differ, the CI jobs run
/// as the templates run them (``PipelineFixture``: build, two verify shards, merge, publish), the
/// artifact the merge job publishes (the GitHub template's `snapshot-report`, whose paths are read
/// from the template), and `ouds-render snapshot accept` in the developer's own copy, run as the
/// summary writes it: it writes exactly what `snapshot record --failed` writes there, after which
/// verify passes; an artifact of another catalogue or one changed after the run is refused with one
/// line, nothing written.
@Suite("Accept from CI: a failed pipeline's renders become the references of a developer's copy")
final class AcceptFromCITests {
  /// The case files of the small catalogue.
  static let cases = ["sample-1", "sample-2"]
  /// What the change makes fail: sample-2's eight references (its second label changed),
  /// sample-1's wireframe light one (the text colour token of Wireframe light changed, in the
  /// copy's Themes) and sample-1's two new dark references (its scaled variant now also dark).
  static let changed =
    [
      "orange-compact-dark", "orange-compact-light", "orange-dark", "orange-light", "sosh-dark",
      "sosh-light", "wireframe-dark", "wireframe-light",
    ].map { "sample-2/\($0)@2x" } + ["sample-1/wireframe-light@2x"]
  static let missing = ["sample-1/orange-dark@1x", "sample-1/orange-dark@3x"]
  /// The accept command the summary, the review page and the step summary end with.
  static let accept = "ouds-render snapshot accept out/shard-*"

  let root: URL

  init() throws { root = try temporaryFolder() }
  deinit { try? FileManager.default.removeItem(at: root) }

  // MARK: - The catalogue and the developer's copies

  /// Keeps only ``cases`` in `checkout`'s snapshots folder, then makes the developer's change.
  static func prepare(_ checkout: URL) throws {
    let snapshots = checkout.appendingPathComponent("Snapshots")
    let manager = FileManager.default
    for name in try manager.contentsOfDirectory(atPath: snapshots.path) {
      var isFolder: ObjCBool = false
      let url = snapshots.appendingPathComponent(name)
      _ = manager.fileExists(atPath: url.path, isDirectory: &isFolder)
      if isFolder.boolValue && name != "cases" && !cases.contains(name) {
        try manager.removeItem(at: url)
      }
    }
    let caseFolder = snapshots.appendingPathComponent("cases")
    for name in try manager.contentsOfDirectory(atPath: caseFolder.path)
    where !cases.map({ $0 + ".json" }).contains(name) {
      try manager.removeItem(at: caseFolder.appendingPathComponent(name))
    }
    try edit(
      checkout, "Snapshots/cases/sample-2.json", #""Label 2""#, #""Label two""#)
    try edit(
      checkout, "Snapshots/cases/sample-1.json", #""modes": ["light"], "scale""#,
      #""modes": ["light", "dark"], "scale""#)
    try edit(
      checkout, "Themes/brands/wireframe/light.tokens.json",
      #""$value": "{color.raw.wireframe.functional-gray-dark-960}""#,
      #""$value": "{color.raw.wireframe.royal-blue-800}""#)
  }

  /// Replaces `old`, which must be there, by `new` in the file at `path` of `checkout`.
  static func edit(_ checkout: URL, _ path: String, _ old: String, _ new: String) throws {
    let file = checkout.appendingPathComponent(path)
    let text = try String(contentsOf: file, encoding: .utf8)
    guard text.contains(old) else { throw PipelineError("\(path) holds no \(old)") }
    try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file)
  }

  /// Every file under `folder` by path relative to it, with its bytes (names starting with a dot,
  /// the record lock, left out).
  static func contents(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for file in try Tree.files(under: folder) {
      let relative = String(file.path.dropFirst(folder.path.count + 1))
      if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
      files[relative] = try Data(contentsOf: file)
    }
    return files
  }

  /// The SHA-256 of a file, by `sha256sum`.
  static func sha256(_ file: URL) throws -> String {
    let result = try Shell.run(["/usr/bin/sha256sum", file.path], in: URL(fileURLWithPath: "/"))
    guard result.status == 0 else { throw PipelineError(result.output) }
    return String(result.stdout.prefix(64))
  }

  /// The paths the GitHub template's merge job uploads as `snapshot-report`, as written.
  static func publishedPaths() throws -> [String] {
    let template = try String(
      contentsOf: repositoryRoot.appendingPathComponent("ci/github-actions.yml"), encoding: .utf8)
    let head = "          name: snapshot-report\n          path: |\n"
    let block = try #require(template.components(separatedBy: head).dropFirst().first)
    return block.split(separator: "\n").prefix { $0.hasPrefix("            ") }.map {
      $0.trimmingCharacters(in: .whitespaces)
    }
  }

  /// What `gh run download <id> --name snapshot-report --dir out` leaves in `folder`: the merge
  /// workspace's files under the template's paths (a final `*` matching names), relative to
  /// `out/`, their common folder, as `actions/upload-artifact` keeps them.
  static func download(from merge: URL, into folder: URL) throws {
    for path in try publishedPaths() {
      #expect(path.hasPrefix("out/"), "\(path)")
      let parent = (path as NSString).deletingLastPathComponent
      let last = (path as NSString).lastPathComponent
      var names = [last]
      if last.hasSuffix("*") {
        names = try FileManager.default.contentsOfDirectory(
          atPath: merge.appendingPathComponent(parent).path
        ).filter { $0.hasPrefix(String(last.dropLast())) }.sorted()
      }
      for name in names {
        let source = merge.appendingPathComponent(parent).appendingPathComponent(name)
        guard Tree.exists(source) else { continue }
        try Tree.copy(
          source, to: folder.appendingPathComponent(parent).appendingPathComponent(name))
      }
    }
  }

  /// A copy of the developer's checkout (the pipeline's, changed, without `out/`) named `name`,
  /// with the artifact of `run`, when given, downloaded into `out/`.
  func developerCopy(_ name: String, of fixture: PipelineFixture, run: PipelineRun?) throws -> URL {
    let copy = root.appendingPathComponent(name)
    try Tree.copy(fixture.checkout, to: copy)
    if let run { try Self.download(from: run.mergeWorkspace, into: copy) }
    return copy
  }

  /// Runs `command` with `/bin/sh` in `folder`, as the developer types it: `ouds-render` (this
  /// test run's) first on `PATH`, no CI variable set.
  func shell(_ command: String, in folder: URL) throws -> Shell.Result {
    let bin = root.appendingPathComponent("bin")
    if !Tree.exists(bin) {
      try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        at: bin.appendingPathComponent("ouds-render"), withDestinationURL: try BuiltBinary.url.get()
      )
    }
    var environment = PipelineFixture.environment(
      path: bin.path + ":" + PipelineFixture.systemPath, extra: [:])
    environment["CI"] = nil
    return try Shell.run(["/bin/sh", "-c", command], in: folder, environment: environment)
  }

  /// The first results folder of the artifact in `copy` that holds `id`, and that reference's
  /// entry of its `results.json`.
  static func shard(holding id: String, in copy: URL) throws -> (
    folder: URL, entry: [String: Any]
  ) {
    for index in 1...2 {
      let folder = copy.appendingPathComponent("out/shard-\(index)")
      let data = try Data(contentsOf: folder.appendingPathComponent("results.json"))
      let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      for entry in document?["references"] as? [[String: Any]] ?? []
      where entry["id"] as? String == id {
        return (folder, entry)
      }
    }
    throw PipelineError("no shard holds \(id)")
  }

  /// Runs the accept command in `copy` and checks it refused with one line holding each of
  /// `expected`, writing nothing.
  func expectRefused(_ copy: URL, _ expected: [String], _ what: Comment) throws {
    let before = try Self.contents(copy.appendingPathComponent("Snapshots"))
    let refused = try shell(Self.accept, in: copy)
    #expect(refused.status == 1, "\(what): \(refused.stdout)\(refused.stderr)")
    #expect(refused.stdout.isEmpty, "\(what): \(refused.stdout)")
    #expect(
      refused.stderr.hasPrefix("error: ")
        && refused.stderr.filter({ $0 == "\n" }).count == 1, "\(what): \(refused.stderr)")
    for text in expected {
      #expect(refused.stderr.contains(text), "\(what): \(refused.stderr)")
    }
    #expect(
      try Self.contents(copy.appendingPathComponent("Snapshots")) == before,
      "\(what): nothing written")
  }

  // MARK: - The test

  @Test(
    "the pipeline fails and publishes the renders; the summary's command applies exactly what record --failed writes; an artifact of another catalogue, or changed since, is refused"
  )
  func acceptFromCI() throws {
    let fixture = try PipelineFixture.make(in: root, cases: Self.cases, edit: Self.prepare)
    let pipeline = try fixture.runPipeline(shards: 2)
    #expect(pipeline.build.status == 0, "\(pipeline.build.output)")
    #expect(pipeline.shards.allSatisfy { $0.status == 0 }, "\(pipeline.shards.map(\.output))")

    // The pipeline fails, and the merge says why.
    #expect(pipeline.merge.status == 1, "\(pipeline.merge.output)")
    #expect(
      pipeline.merge.stdout.contains(
        "20 references: 9 passed, 11 failed (9 changed, 2 missing, 0 errors) in "),
      "\(pipeline.merge.stdout)")
    // The token change is one group, headed by its cause, with the two references it explains.
    #expect(
      pipeline.merge.stdout.contains(
        "2 references changed by color.content.default #08090D → #223CAB (wireframe; light)"),
      "the token change")
    #expect(pipeline.merge.stderr.contains("to accept every change: "), "\(pipeline.merge.stderr)")

    // The summary, the review page and what the step summary and the GitLab log add name the
    // exact command.
    let out = pipeline.mergeWorkspace.appendingPathComponent("out")
    let summary = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
    // Each unexplained failure has its own row; the two the token explains share its group's.
    let explained = ["sample-1/wireframe-light@2x", "sample-2/wireframe-light@2x"]
    for id in Self.changed + Self.missing where !explained.contains(id) {
      #expect(summary.contains("| `\(id)` |"), "the summary names \(id)")
    }
    #expect(
      summary.contains(
        "| changed | `sample-1/wireframe-light@2x`, `sample-2/wireframe-light@2x` | 2 references changed by color.content.default #08090D → #223CAB (wireframe; light) |"
      ), "\(summary)")
    #expect(summary.contains("\n```sh\n\(Self.accept)\n```\n"), "\(summary)")
    let page = try String(
      contentsOf: out.appendingPathComponent("report/index.html"), encoding: .utf8)
    #expect(page.contains("<code id=\"accept-run\">\(Self.accept)</code>"))
    let download = "gh run download \(PipelineFixture.runID) --name snapshot-report --dir out"
    #expect(
      pipeline.githubSummary.hasSuffix("```sh\n\(download) && \(Self.accept)\n```\n"),
      "\(pipeline.githubSummary)")
    // docs/ci.md shows the same line, the run's id left to fill in.
    let guide = try String(
      contentsOf: repositoryRoot.appendingPathComponent("docs/ci.md"), encoding: .utf8)
    let documented = download.replacingOccurrences(
      of: " \(PipelineFixture.runID) ", with: " <run id> ")
    #expect(guide.contains("\n```sh\n\(documented) && \(Self.accept)\n```\n"))
    #expect(
      pipeline.gitlabLog.hasSuffix(
        "Accept this run's renders: download https://gitlab.invalid/project/-/jobs/7/artifacts/download, unzip it in the root of your checkout of this commit (it holds out/), then run: \(Self.accept)\n"
      ), "\(pipeline.gitlabLog)")
    let gitlab = try String(
      contentsOf: repositoryRoot.appendingPathComponent("ci/gitlab-ci.yml"), encoding: .utf8)
    #expect(
      gitlab.contains("  after_script:\n    - scripts/ci-publish\n  artifacts:\n    when: always\n")
        && gitlab.contains("    paths: [out/]\n"), "GitLab keeps all of out/, shards included")

    // The developer's copy, with the artifact downloaded; its manifest (each shard's
    // results.json) names the catalogue's digest, which a verify of this copy computes alike,
    // and the digest of every render it holds.
    let developer = try developerCopy("developer", of: fixture, run: pipeline)
    let local = try run(["snapshot", "verify", "--results", "local"], in: developer)
    #expect(local.status == 1)
    func catalogueDigest(_ folder: URL) throws -> String? {
      let data = try Data(contentsOf: folder.appendingPathComponent("results.json"))
      let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      return (document?["run"] as? [String: Any])?["catalogueSHA256"] as? String
    }
    let digest = try #require(try catalogueDigest(developer.appendingPathComponent("local")))
    try FileManager.default.removeItem(at: developer.appendingPathComponent("local"))
    for id in Self.changed + Self.missing {
      let (folder, entry) = try Self.shard(holding: id, in: developer)
      #expect(try catalogueDigest(folder) == digest)
      let paths = entry["artifacts"] as? [String: String] ?? [:]
      let digests = entry["artifactsSHA256"] as? [String: String] ?? [:]
      for name in ["actual.png", "actual.layout.json"] {
        let path = try #require(paths[name], "\(id) kept its \(name)")
        #expect(digests[name] == (try Self.sha256(folder.appendingPathComponent(path))), "\(id)")
      }
    }

    // What record --failed writes in the same copy, without the artifact.
    let recorded = try developerCopy("recorded", of: fixture, run: nil)
    let record = try run(["snapshot", "record", "--failed"], in: recorded)
    #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
    let expected = try Self.contents(recorded.appendingPathComponent("Snapshots"))
    let original = try Self.contents(fixture.checkout.appendingPathComponent("Snapshots"))
    let written = Set(expected.keys.filter { expected[$0] != original[$0] })
    // The new dark scales share sample-1's orange-dark layout, which the first variant has; the
    // tokens the references are recorded with changed.
    let failing = Set(
      (Self.changed + Self.missing).map { "\($0).png" }
        + Self.changed.map { $0.replacingOccurrences(of: "@2x", with: ".layout.json") }
        + ["ENVIRONMENT.json"])
    #expect(
      written == failing,
      "record --failed writes the failing references: \(written.symmetricDifference(failing).sorted())"
    )

    // A refusal first: the case file edited after the run (another catalogue digest).
    let edited = try developerCopy("edited", of: fixture, run: pipeline)
    try Self.edit(edited, "Snapshots/cases/sample-1.json", "Label 1", "Label one")
    try expectRefused(
      edited,
      [
        "out/shard-1/results.json, out/shard-2/results.json: run.catalogueSHA256 is ",
        "the run verified another catalogue than Snapshots here",
      ], "case file edited after the run")

    // The command as the step summary writes it: the download part stands for itself here.
    let command = try #require(
      pipeline.githubSummary.split(separator: "\n").first { $0.hasPrefix(download + " && ") })
    let accepted = try shell(String(command.dropFirst(download.count + 4)), in: developer)
    #expect(accepted.status == 0, "\(accepted.output)")
    for id in Self.changed {
      #expect(accepted.stdout.contains("accepted \(id) (changed)\n"), "\(accepted.stdout)")
    }
    for id in Self.missing {
      #expect(accepted.stdout.contains("accepted \(id) (missing)\n"), "\(accepted.stdout)")
    }
    #expect(
      accepted.stdout.hasSuffix(
        "11 references accepted from the run \(PipelineFixture.runID), and its tokens in ENVIRONMENT.json; review and commit Snapshots\n"
      ), "\(accepted.stdout)")
    // Byte for byte what record --failed wrote, and nothing else.
    #expect(try Self.contents(developer.appendingPathComponent("Snapshots")) == expected)
    let verify = try run(["snapshot", "verify"], in: developer)
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

    // The same pipeline's artifact, changed after the run (one build and run for the whole test).
    try checkTamperedArtifacts(fixture, pipeline)
  }

  /// An artifact changed after the run is refused, nothing written: a render's or a layout's
  /// bytes, a path out of its folder, a link.
  func checkTamperedArtifacts(_ fixture: PipelineFixture, _ pipeline: PipelineRun) throws {
    let target = "sample-2/wireframe-light@2x"

    // A render's bytes: another render of the same size (a valid PNG) in its place.
    let swapped = try developerCopy("swapped", of: fixture, run: pipeline)
    let (folder, entry) = try Self.shard(holding: target, in: swapped)
    let png = try #require((entry["artifacts"] as? [String: String])?["actual.png"])
    let (otherFolder, other) = try Self.shard(holding: "sample-2/wireframe-dark@2x", in: swapped)
    let otherPNG = try #require((other["artifacts"] as? [String: String])?["actual.png"])
    try FileManager.default.removeItem(at: folder.appendingPathComponent(png))
    try FileManager.default.copyItem(
      at: otherFolder.appendingPathComponent(otherPNG), to: folder.appendingPathComponent(png))
    let shardName = folder.lastPathComponent
    try expectRefused(
      swapped,
      [
        "out/\(shardName)/\(png): its SHA-256 is ",
        "but results.json says the run wrote ", "the file was changed after the run",
      ], "a render replaced")

    // A layout's bytes.
    let layoutEdited = try developerCopy("layout", of: fixture, run: pipeline)
    let layout = try #require((entry["artifacts"] as? [String: String])?["actual.layout.json"])
    let layoutFile = layoutEdited.appendingPathComponent("out/\(shardName)/\(layout)")
    try (try Data(contentsOf: layoutFile) + Data(" ".utf8)).write(to: layoutFile)
    try expectRefused(
      layoutEdited, ["out/\(shardName)/\(layout): its SHA-256 is "], "a layout edited")

    // A path out of the results folder, onto the reference itself.
    let escaping = try developerCopy("escaping", of: fixture, run: pipeline)
    try Self.edit(
      escaping, "out/\(shardName)/results.json", #""actual.png": "\#(png)""#,
      #""actual.png": "../../Snapshots/\#(target).png""#)
    try expectRefused(
      escaping, ["out/\(shardName)/results.json", "actual.png"], "a path out of the folder")

    // A manifest without the run and its catalogue digest (as results made by hand may be).
    let unnamed = try developerCopy("unnamed", of: fixture, run: pipeline)
    for index in 1...2 {
      let file = unnamed.appendingPathComponent("out/shard-\(index)/results.json")
      var document = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
      document["run"] = NSNull()
      try JSONSerialization.data(withJSONObject: document).write(to: file)
    }
    try expectRefused(
      unnamed,
      [
        "out/shard-1/results.json, out/shard-2/results.json: run is null: the results name no run nor the digest of the catalogue"
      ], "no run, no catalogue digest")

    // A link, to a copy of the very render outside the folder.
    let linked = try developerCopy("linked", of: fixture, run: pipeline)
    let outside = root.appendingPathComponent("outside.png")
    let inside = linked.appendingPathComponent("out/\(shardName)/\(png)")
    try FileManager.default.copyItem(at: inside, to: outside)
    try FileManager.default.removeItem(at: inside)
    try FileManager.default.createSymbolicLink(at: inside, withDestinationURL: outside)
    try expectRefused(linked, ["actual.png"], "a link out of the folder")
  }
}
