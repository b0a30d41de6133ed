import Foundation
import Testing

/// `ci/github-actions.yml` and `ci/gitlab-ci.yml` are read as YAML and run here, job after job,
/// with their own command lines in their own order (each shard a separate process, then the merge),
/// against a copy of the snapshots: a template that drifts from the CLI, loses a shard's files
/// between jobs or passes a run with a difference fails this test.
///
/// The Swift toolchain is the only stand-in (this test run built `ouds-render`); `scripts/setup`,
/// every `ouds-render` line and every other line of the scripts run as written. See
/// `Pipelines/` for what the two runners understand.
@Suite("CI templates run as written", .serialized, .enabled(if: YAMLFile.testRuns))
final class PipelineTemplateTests {
  static let github = repositoryRoot.appendingPathComponent("ci/github-actions.yml")
  static let gitlab = repositoryRoot.appendingPathComponent("ci/gitlab-ci.yml")
  /// The case whose label the failing runs change, and its references (every theme × mode).
  static let changedCase = "sample-2"
  static let changedCount = 8

  let root: URL

  init() throws { root = try temporaryFolder() }
  deinit { try? FileManager.default.removeItem(at: root) }

  /// A fixture whose snapshots are the repository's, or with `changed`, whose case `sample-2`
  /// has another label (its 8 references then differ).
  func fixture(changed: Bool) throws -> PipelineFixture {
    try PipelineFixture.make(in: root) { checkout in
      guard changed else { return }
      let file = checkout.appendingPathComponent("Snapshots/cases/\(Self.changedCase).json")
      let text = try String(contentsOf: file, encoding: .utf8)
      #expect(text.contains(#""Label 2""#))
      try Data(text.replacingOccurrences(of: #""Label 2""#, with: #""Label two""#).utf8).write(
        to: file)
    }
  }

  /// A fixture for reading a template, never for running it.
  var readOnly: PipelineFixture { PipelineFixture(checkout: root, tools: root, scratch: root) }

  /// The number of references the repository's catalogue holds.
  func catalogueSize() throws -> Int {
    let listed = try run(["snapshot", "list"])
    #expect(listed.status == 0)
    return listed.stdout.split(separator: "\n").count
  }

  /// The `(index, count)` of the shard whose results are in `folder`, and its reference ids.
  func shard(in folder: URL) throws -> (index: Int, count: Int, ids: [String]) {
    let data = try Data(contentsOf: folder.appendingPathComponent("results.json"))
    let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let selection = document?["selection"] as? [String: Any]
    let shard = selection?["shard"] as? [String: Any]
    let references = document?["references"] as? [[String: Any]] ?? []
    return (
      (shard?["index"] as? NSNumber)?.intValue ?? 0, (shard?["count"] as? NSNumber)?.intValue ?? 0,
      references.compactMap { $0["id"] as? String }
    )
  }

  /// The number of `<testcase` and `<failure` elements of a JUnit file.
  func junitCounts(_ file: URL) throws -> (cases: Int, failures: Int) {
    let text = try String(contentsOf: file, encoding: .utf8)
    return (
      text.components(separatedBy: "<testcase ").count - 1,
      text.components(separatedBy: "<failure ").count - 1
    )
  }

  /// The script texts of a template that call `ouds-render`.
  static func toolLines(_ scripts: [String]) -> [String] {
    scripts.filter { $0.contains("ouds-render ") }
  }

  // MARK: - What both templates share

  @Test("every job runs in one Debian 12 image with the Swift toolchain, the one the README names")
  func image() throws {
    let workflow = try YAMLFile.load(Self.github)
    let pipeline = try YAMLFile.load(Self.gitlab)
    let githubJobs = YAMLValue.mapping(workflow["jobs"]) ?? [:]
    var images = Set<String>()
    for (name, job) in githubJobs {
      let container = YAMLValue.mapping(job)?["container"]
      let image =
        YAMLValue.text(container) ?? YAMLValue.text(YAMLValue.mapping(container)?["image"])
      #expect(image != nil, "GitHub job \(name) runs in no container")
      images.insert(image ?? "")
    }
    let runner = GitLabCIRunner(pipeline: pipeline, fixture: readOnly)
    for (name, job) in runner.jobs {
      #expect(runner.image(of: job) != nil, "GitLab job \(name) names no image")
      images.insert(runner.image(of: job) ?? "")
    }
    #expect(images.count == 1, "one image for every job of both templates: \(images)")
    let image = try #require(images.first)
    #expect(image.wholeMatch(of: #/swift:6\.\d+(\.\d+)?-bookworm/#) != nil, "\(image)")
    let readme = try String(
      contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = readme.components(separatedBy: "\n## Running in CI\n").dropFirst().first ?? ""
    #expect(!section.isEmpty, "README has a section 'Running in CI'")
    #expect(section.contains("`\(image)`"), "README's 'Running in CI' names the image \(image)")
    #expect(section.contains("ci/github-actions.yml") && section.contains("ci/gitlab-ci.yml"))
  }

  @Test("both templates build ouds-render with the README's build line (same flags, same binary)")
  func buildLine() throws {
    let readme = try String(
      contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let build = try #require(
      readme.split(separator: "\n").first {
        $0.hasPrefix("swift build -c release") && $0.contains("--product ouds-render")
      })
    let readmeBuild = String(build.split(separator: "&&")[0]).trimmingCharacters(in: .whitespaces)
    let readmeBinPath = try #require(
      build.firstMatch(of: #/\$\((swift build [^)]*--show-bin-path)\)/#)?.1)
    for template in [Self.github, Self.gitlab] {
      let text = try String(contentsOf: template, encoding: .utf8)
      let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      let builds = lines.filter {
        $0.contains("swift build") && $0.contains("--product ouds-render")
      }
      #expect(!builds.isEmpty, "\(template.lastPathComponent) builds ouds-render")
      for line in builds {
        #expect(line.hasSuffix(readmeBuild), "\(template.lastPathComponent): \(line)")
      }
      for line in lines where line.contains("--show-bin-path") {
        #expect(line.contains(readmeBinPath), "\(template.lastPathComponent): \(line)")
      }
    }
  }

  @Test("every job installs with scripts/setup (the README's set-up) before anything else runs")
  func setupFirst() throws {
    let workflow = try YAMLFile.load(Self.github)
    for (name, value) in YAMLValue.mapping(workflow["jobs"]) ?? [:] {
      let steps = (YAMLValue.sequence(YAMLValue.mapping(value)?["steps"]) ?? []).compactMap(
        YAMLValue.mapping)
      let scripts = steps.compactMap { YAMLValue.text($0["run"]) }
      #expect(
        scripts.first?.trimmingCharacters(in: .whitespacesAndNewlines) == "scripts/setup",
        "GitHub job \(name): the first script is scripts/setup, got \(scripts.first ?? "none")")
    }
    let pipeline = try YAMLFile.load(Self.gitlab)
    let runner = GitLabCIRunner(pipeline: pipeline, fixture: readOnly)
    for (name, job) in runner.jobs {
      let lines = try runner.scripts(of: name, job).main
      #expect(
        lines.first?.hasPrefix("scripts/setup") == true,
        "GitLab job \(name): the first line is scripts/setup, got \(lines.first ?? "none")")
    }
  }

  // MARK: - GitHub Actions

  /// Runs the workflow on `fixture`; checks what holds whether the references changed or not.
  func runGitHub(_ fixture: PipelineFixture) throws -> (
    jobs: [GitHubActionsRunner.JobRun], runner: GitHubActionsRunner, shards: Int
  ) {
    let workflow = try YAMLFile.load(Self.github)
    let jobs = try #require(YAMLValue.mapping(workflow["jobs"]))
    let matrix = YAMLValue.mapping(
      YAMLValue.mapping(YAMLValue.mapping(jobs["verify"])?["strategy"])?["matrix"])
    let shards = YAMLValue.sequence(matrix?["shard"])?.compactMap(YAMLValue.text) ?? []
    #expect(shards.count >= 2, "verify runs in a matrix of shards")
    #expect(shards == (1...max(1, shards.count)).map(String.init), "shards are 1…N: \(shards)")
    var runner = GitHubActionsRunner(workflow: workflow, fixture: fixture)
    let runs = try runner.run()
    // Every ouds-render line of the template ran (none sits in a step that never runs).
    let templates = (jobs.values.compactMap(YAMLValue.mapping)).flatMap { job in
      (YAMLValue.sequence(job["steps"]) ?? []).compactMap {
        YAMLValue.text(YAMLValue.mapping($0)?["run"])
      }
    }
    let ran = Set(runs.flatMap(\.steps).filter { $0.status != .skipped }.compactMap(\.template))
    for script in Self.toolLines(templates) {
      #expect(ran.contains(script), "never ran: \(script)")
    }
    // N shard jobs, each verifying shard i/N, together the whole catalogue exactly once.
    let verify = runs.filter { $0.id == "verify" }
    #expect(verify.count == shards.count)
    #expect(
      verify.allSatisfy { $0.status == .success },
      "\(verify.map { ($0.name, $0.steps.map(\.log)) })")
    var ids: [String] = []
    for index in 1...shards.count {
      let store = try #require(runner.artifacts["snapshot-results-\(index)"])
      let results = try shard(in: store.appendingPathComponent("shard-\(index)"))
      #expect(results.index == index && results.count == shards.count)
      ids += results.ids
    }
    #expect(ids.count == Set(ids).count)
    #expect(ids.count == (try catalogueSize()))
    return (runs, runner, shards.count)
  }

  @Test(
    "GitHub Actions, references unchanged: every job passes, the summary and the report are published"
  )
  func githubPasses() throws {
    let (runs, runner, _) = try runGitHub(try fixture(changed: false))
    #expect(runs.allSatisfy { $0.status == .success }, "\(runs.map { ($0.name, $0.status) })")
    let merge = try #require(runs.first { $0.id == "merge" })
    let total = try catalogueSize()
    #expect(merge.summary.hasPrefix("\(total) references: \(total) passed\n"), "\(merge.summary)")
    #expect(merge.summary.contains("Review page: [snapshot-report](https://github.invalid/"))
    let report = try #require(runner.artifacts["snapshot-report"])
    #expect(Tree.exists(report.appendingPathComponent("report/index.html")))
    #expect(try junitCounts(report.appendingPathComponent("junit.xml")) == (total, 0))
    #expect(
      try String(contentsOf: report.appendingPathComponent("summary.md"), encoding: .utf8)
        == "\(total) references: \(total) passed\n")
  }

  @Test(
    "GitHub Actions, one case changed: the shards pass, the merge fails the run and publishes what changed"
  )
  func githubFails() throws {
    let fixture = try fixture(changed: true)
    let (runs, runner, _) = try runGitHub(fixture)
    #expect(runs.filter { $0.id != "merge" }.allSatisfy { $0.status == .success })
    let merge = try #require(runs.first { $0.id == "merge" })
    #expect(merge.status == .failure)
    let failedSteps = merge.steps.filter { $0.status == .failure }.map(\.name)
    #expect(failedSteps == ["Merge the shards (fails the run on any difference)"], "\(failedSteps)")
    // The summary on the run's page: the failures with their accept commands.
    for theme in ["orange", "orange-compact", "sosh", "wireframe"] {
      for mode in ["light", "dark"] {
        #expect(merge.summary.contains("| changed | `\(Self.changedCase)/\(theme)-\(mode)@2x` |"))
      }
    }
    #expect(merge.summary.contains("ouds-render snapshot record --failed --filter '"))
    // The published files: the review page with its pictures, JUnit with one failure per change.
    let report = try #require(runner.artifacts["snapshot-report"])
    #expect(Tree.exists(report.appendingPathComponent("report/index.html")))
    let pictures = try Tree.files(under: report.appendingPathComponent("report")).filter {
      $0.pathExtension == "png"
    }
    #expect(pictures.count >= 3 * Self.changedCount, "diff, actual and expected per change")
    let total = try catalogueSize()
    #expect(
      try junitCounts(report.appendingPathComponent("junit.xml")) == (total, Self.changedCount))
    // What the pipeline published is what one unsharded verify of the same snapshots writes.
    let single = root.appendingPathComponent("single")
    try Tree.copy(fixture.checkout, to: single, hardLinks: true)
    let direct = try run(
      ["snapshot", "verify", "--summary", "out/summary.md", "--junit", "out/junit.xml"], in: single)
    #expect(direct.status == 1)
    let published = try String(
      contentsOf: report.appendingPathComponent("summary.md"), encoding: .utf8)
    #expect(
      published
        == (try String(contentsOf: single.appendingPathComponent("out/summary.md"), encoding: .utf8))
    )
    #expect(merge.summary.hasPrefix(published))
  }

  // MARK: - GitLab CI

  /// Runs the pipeline on `fixture`; checks what holds whether the references changed or not.
  func runGitLab(_ fixture: PipelineFixture) throws -> [GitLabCIRunner.JobRun] {
    let pipeline = try YAMLFile.load(Self.gitlab)
    var runner = GitLabCIRunner(pipeline: pipeline, fixture: fixture)
    let verifyJob = try #require(runner.jobs["verify"])
    let shards = Int(YAMLValue.text(verifyJob["parallel"]) ?? "") ?? 0
    #expect(shards >= 2, "verify runs as parallel shards")
    let runs = try runner.run()
    let templates = try runner.jobs.flatMap { name, job in
      let scripts = try runner.scripts(of: name, job)
      return scripts.main + scripts.after
    }
    let ran = Set(runs.filter { $0.status != .skipped }.flatMap(\.lines))
    for line in Self.toolLines(templates) {
      #expect(ran.contains(line), "never ran: \(line)")
    }
    let verify = runs.filter { $0.job == "verify" }
    #expect(verify.map(\.name) == (1...shards).map { "verify \($0)/\(shards)" })
    #expect(verify.allSatisfy { $0.status == .success }, "\(verify.map { ($0.name, $0.log) })")
    var ids: [String] = []
    for (offset, job) in verify.enumerated() {
      let store = try #require(job.artifacts)
      let results = try shard(in: store.appendingPathComponent("out/shard-\(offset + 1)"))
      #expect(results.index == offset + 1 && results.count == shards)
      ids += results.ids
    }
    #expect(ids.count == Set(ids).count)
    #expect(ids.count == (try catalogueSize()))
    return runs
  }

  @Test("GitLab CI, references unchanged: every job passes; JUnit report and review page are kept")
  func gitlabPasses() throws {
    let runs = try runGitLab(try fixture(changed: false))
    #expect(runs.allSatisfy { $0.status == .success }, "\(runs.map { ($0.name, $0.status) })")
    let report = try #require(runs.first { $0.job == "report" })
    let artifacts = try #require(report.artifacts)
    #expect(report.junitReports == ["out/junit.xml"])
    let total = try catalogueSize()
    #expect(try junitCounts(artifacts.appendingPathComponent("out/junit.xml")) == (total, 0))
    #expect(Tree.exists(artifacts.appendingPathComponent("out/report/index.html")))
    #expect(report.afterScriptLog.contains("\(total) references: \(total) passed\n"))
    #expect(
      report.afterScriptLog.contains(
        "Review page: https://gitlab.invalid/project/-/jobs/\(runs.count)/artifacts/file/out/report/index.html"
      ))
  }

  @Test(
    "GitLab CI, one case changed: the shards pass, the report job fails the pipeline and keeps what changed"
  )
  func gitlabFails() throws {
    let runs = try runGitLab(try fixture(changed: true))
    #expect(runs.filter { $0.job != "report" }.allSatisfy { $0.status == .success })
    let report = try #require(runs.first { $0.job == "report" })
    #expect(report.status == .failure)
    let artifacts = try #require(report.artifacts, "kept when the job fails (when: always)")
    let total = try catalogueSize()
    #expect(
      try junitCounts(artifacts.appendingPathComponent("out/junit.xml")) == (
        total, Self.changedCount
      ))
    // JUnit's attachments are in the kept files, where GitLab shows them beside each failure.
    let junit = try String(
      contentsOf: artifacts.appendingPathComponent("out/junit.xml"), encoding: .utf8)
    let attachments = junit.matches(of: #/\[\[ATTACHMENT\|([^\]]+)\]\]/#).map { String($0.1) }
    #expect(attachments.count == 3 * Self.changedCount)
    for path in attachments {
      #expect(Tree.exists(artifacts.appendingPathComponent(path)), "attachment \(path) is kept")
    }
    #expect(report.afterScriptLog.contains("| changed | `\(Self.changedCase)/sosh-dark@2x` |"))
  }
}
