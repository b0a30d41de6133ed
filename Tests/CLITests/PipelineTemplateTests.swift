import Foundation
import Testing

/// `ci/github-actions.yml` and `ci/gitlab-ci.yml` do nothing but call `scripts/ci-*`: the
/// templates are validated against the GitHub-workflow and GitLab-CI JSON schemas
/// (`check-jsonschema`), and the scripts run here as the jobs run them, each job in a workspace of
/// its own with only the artifacts the earlier jobs hand over: the build (which packages
/// `ouds-render` as a `.deb`), N shards and the merge (which install that package and nothing
/// else), and the publishing step, against a copy of the snapshots. A script that drifts from the
/// CLI, loses a shard's files or passes a run with a difference fails this test.
///
/// The Swift toolchain and `apt-get` are the only stand-ins (this test run built `ouds-render`;
/// `apt-get` unpacks the package instead of installing it into the system, and refuses anything
/// else): `scripts/setup`, `scripts/package`, every `scripts/ci-*` and every `ouds-render` line run
/// as written. `scripts/check-package` installs the same package for real.
@Suite("CI templates call scripts that run as written", .serialized)
final class PipelineTemplateTests {
  static let github = repositoryRoot.appendingPathComponent("ci/github-actions.yml")
  static let gitlab = repositoryRoot.appendingPathComponent("ci/gitlab-ci.yml")
  /// The case whose label the failing runs change, and its references (every theme × mode).
  static let changedCase = "sample-2"
  static let changedCount = 8
  /// `check-jsonschema`, installed by `scripts/setup --with-test-tools`.
  static let checkJSONSchema = repositoryRoot.appendingPathComponent(
    ".build/test-venv/bin/check-jsonschema")
  /// The oldest major version of each action that runs on node 24 (node 20 is removed from
  /// GitHub's runners in 2026).
  static let node24Majors = [
    "actions/checkout": 5, "actions/cache": 5, "actions/upload-artifact": 6,
    "actions/download-artifact": 7,
  ]

  let root: URL

  init() throws { root = try temporaryFolder() }
  deinit { try? FileManager.default.removeItem(at: root) }

  static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

  /// The shell lines of a template: GitHub's `run:` values, GitLab's `script` and `after_script`
  /// items.
  static func shellLines(_ template: URL) throws -> [String] {
    try text(template).split(separator: "\n").compactMap { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("run: ") { return String(trimmed.dropFirst(5)).trimmed }
      if trimmed.hasPrefix("- scripts/") { return String(trimmed.dropFirst(2)) }
      if trimmed.hasPrefix("run: |") || trimmed.hasPrefix("script: |") { return trimmed }
      return nil
    }
  }

  // MARK: - The templates

  @Test("both templates pass the GitHub-workflow and GitLab-CI JSON schemas")
  func schemas() throws {
    let tool = Self.checkJSONSchema.path
    let present = FileManager.default.isExecutableFile(atPath: tool)
    try #require(present, "\(tool) is missing: run scripts/setup --with-test-tools")
    for (schema, template) in [
      ("vendor.github-workflows", Self.github), ("vendor.gitlab-ci", Self.gitlab),
    ] {
      let result = try Shell.run(
        [tool, "--builtin-schema", schema, template.path], in: repositoryRoot)
      #expect(result.status == 0, "\(template.lastPathComponent): \(result.output)")
      #expect(result.stdout.contains("ok -- validation done"), "\(result.output)")
    }
  }

  @Test("every job only calls one of scripts/ci-*, with the shard index and count of its service")
  func jobsCallScripts() throws {
    let github = try Self.shellLines(Self.github)
    #expect(
      github == [
        "scripts/ci-build",
        #"scripts/ci-verify-shard "${{ matrix.shard }}" "${{ strategy.job-total }}""#,
        "scripts/ci-merge", "scripts/ci-publish",
      ], "\(github)")
    let gitlab = try Self.shellLines(Self.gitlab)
    #expect(
      gitlab == [
        "scripts/ci-build", #"scripts/ci-verify-shard "$CI_NODE_INDEX" "$CI_NODE_TOTAL""#,
        "scripts/ci-merge", "scripts/ci-publish",
      ], "\(gitlab)")
    for script in [
      "ci-build", "ci-verify-shard", "ci-merge", "ci-publish", "ci-install", "package",
    ] {
      let path = repositoryRoot.appendingPathComponent("scripts/\(script)").path
      #expect(FileManager.default.isExecutableFile(atPath: path), "\(path)")
    }
    // N shards, and only one place says N in each template.
    #expect(try Self.text(Self.github).contains("        shard: [1, 2, 3, 4]\n"))
    #expect(try Self.text(Self.gitlab).contains("  parallel: 4\n"))
  }

  @Test("every action is pinned to a major version that runs on node 24")
  func actionsOnNode24() throws {
    let uses = try Self.text(Self.github).matches(of: #/uses: ([\w\-]+/[\w\-]+)@v(\d+)/#)
    #expect(uses.count >= 7)
    for use in uses {
      let name = String(use.1)
      let minimum = try #require(Self.node24Majors[name], "an action nobody checked: \(name)")
      #expect(Int(use.2) ?? 0 >= minimum, "\(name)@v\(use.2) runs on node 20")
    }
  }

  /// The image each job of a template runs in, by job name.
  static func images() throws -> (github: [String: String], gitlab: [String: String]) {
    var github: [String: String] = [:]
    var job = ""
    for line in try text(Self.github).split(separator: "\n") {
      if let name = line.wholeMatch(of: #/  ([a-z]+):/#) { job = String(name.1) }
      if let image = line.wholeMatch(of: #/    container: (\S+)/#) { github[job] = String(image.1) }
    }
    var gitlab: [String: String] = [:]
    var fallback = ""
    for line in try text(Self.gitlab).split(separator: "\n") {
      if let name = line.wholeMatch(of: #/([a-z]+):/#) { job = String(name.1) }
      if let image = line.wholeMatch(of: #/  image: (\S+)/#) {
        if job == "default" { fallback = String(image.1) } else { gitlab[job] = String(image.1) }
      }
    }
    for job in ["build", "verify", "report"] where gitlab[job] == nil { gitlab[job] = fallback }
    return (github, gitlab)
  }

  @Test(
    "the build job runs in the Swift image, the others in bare Debian 12: the two the README names")
  func image() throws {
    let (github, gitlab) = try Self.images()
    #expect(Set(github.keys) == ["build", "verify", "merge"], "\(github)")
    #expect(Set(gitlab.keys) == ["build", "verify", "report"], "\(gitlab)")
    let swift = try #require(github["build"])
    #expect(swift.wholeMatch(of: #/swift:6\.\d+(\.\d+)?-bookworm/#) != nil, "\(swift)")
    #expect(gitlab["build"] == swift)
    // Debian 12 (bookworm) without the toolchain: the .deb brings what the jobs need.
    let bare = "debian:12-slim"
    for image in [github["verify"], github["merge"], gitlab["verify"], gitlab["report"]] {
      #expect(image == bare, "\(String(describing: image))")
    }
    let readme = try Self.text(repositoryRoot.appendingPathComponent("README.md"))
    let section = readme.components(separatedBy: "\n## Running in CI\n").dropFirst().first ?? ""
    for image in [swift, bare] {
      #expect(section.contains("`\(image)`"), "README's 'Running in CI' names the image \(image)")
    }
    #expect(section.contains("ci/github-actions.yml") && section.contains("ci/gitlab-ci.yml"))
  }

  @Test("the build job caches SwiftPM's build folder keyed on the manifest and every source file")
  func buildCache() throws {
    let github = try Self.text(Self.github)
    #expect(github.contains("          path: .build\n"))
    #expect(
      github.contains(
        "          key: swiftpm-release-${{ hashFiles('Package.swift', 'Sources/**') }}\n"))
    let gitlab = try Self.text(Self.gitlab)
    #expect(
      gitlab.contains(
        """
          cache:
            key:
              files: [Package.swift, "Sources/**/*"]
              prefix: swiftpm-release
            paths: [.build/]

        """), "GitLab's build cache")
  }

  @Test("the build hands over dist/ (the .deb) and nothing else; every later job takes it")
  func artifacts() throws {
    let github = try Self.text(Self.github)
    #expect(github.contains("          name: ouds-render\n          path: dist/\n"))
    #expect(
      github.components(separatedBy: "          name: ouds-render\n          path: dist\n").count
        == 3, "verify and merge download the package")
    #expect(!github.contains("bin/") && !github.contains("path: bin"))
    let gitlab = try Self.text(Self.gitlab)
    #expect(gitlab.contains("  artifacts:\n    paths: [dist/]\n"))
    #expect(gitlab.contains("  needs: [build, verify]\n") && gitlab.contains("  needs: [build]\n"))
  }

  @Test(
    "scripts/ci-build builds ouds-render with the README's build line (same flags, same binary)")
  func buildLine() throws {
    let readme = try Self.text(repositoryRoot.appendingPathComponent("README.md"))
    let build = try #require(
      readme.split(separator: "\n").first {
        $0.hasPrefix("swift build -c release") && $0.contains("--product ouds-render")
      })
    let readmeBuild = String(build.split(separator: "&&")[0]).trimmed
    let readmeBinPath = try #require(
      build.firstMatch(of: #/\$\((swift build [^)]*--show-bin-path)\)/#)?.1)
    let script = try Self.text(repositoryRoot.appendingPathComponent("scripts/ci-build"))
    let lines = script.split(separator: "\n").map { String($0).trimmed }
    #expect(lines.contains(readmeBuild), "scripts/ci-build does not run: \(readmeBuild)")
    #expect(script.contains("$(\(readmeBinPath))"))
  }

  // MARK: - The jobs, run

  /// A fixture whose snapshots are the repository's, or with `changed`, whose case `sample-2` has
  /// another label (its 8 references then differ).
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

  /// The number of references the fixture's catalogue holds (``PipelineFixture/fixtureCases``).
  func catalogueSize() throws -> Int {
    let listed = try run(["snapshot", "list"], in: root.appendingPathComponent("repository"))
    #expect(listed.status == 0, "\(listed.stderr)")
    let count = listed.stdout.split(separator: "\n").count
    #expect(count == 16, "sample-2 and onboarding: 8 references each")
    return count
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
    let text = try Self.text(file)
    return (
      text.components(separatedBy: "<testcase ").count - 1,
      text.components(separatedBy: "<failure ").count - 1
    )
  }

  /// What holds whether the references changed or not: the build handed over a package that
  /// depends on no -dev package, every later job installed it and nothing else, every shard
  /// passed its job and together they verified the whole catalogue once.
  func checkShards(_ run: PipelineRun, shards: Int) throws {
    #expect(run.build.status == 0, "\(run.build.output)")
    let line = try #require(
      run.build.stdout.firstMatch(
        of: #/ci-build: (dist/ouds-render_(\d+\.\d+\.\d+)_[a-z0-9]+\.deb) \(ouds-render (\S+) /#),
      "\(run.build.stdout)")
    #expect(line.2 == line.3, "the package's name and --version agree")
    let handed = try FileManager.default.contentsOfDirectory(
      atPath: run.buildWorkspace.appendingPathComponent("dist").path)
    #expect(handed == [String(line.1.dropFirst("dist/".count))], "\(handed)")
    let depends = try Shell.run(
      ["/usr/bin/dpkg-deb", "--field", String(line.1), "Depends"], in: run.buildWorkspace)
    #expect(depends.status == 0 && depends.stdout.contains("librsvg2-2"), "\(depends.output)")
    #expect(!depends.stdout.contains("-dev"), "\(depends.stdout)")
    #expect(
      run.aptCalls
        == Array(
          repeating: "install -y -qq --no-install-recommends --reinstall ./\(line.1)",
          count: shards + 1), "one install of the package per shard and in the merge")
    #expect(run.shards.allSatisfy { $0.status == 0 }, "\(run.shards.map(\.output))")
    var ids: [String] = []
    for index in 1...shards {
      let results = try shard(
        in: run.mergeWorkspace.appendingPathComponent("out/shard-\(index)"))
      #expect(results.index == index && results.count == shards)
      ids += results.ids
    }
    #expect(ids.count == Set(ids).count)
    #expect(ids.count == (try catalogueSize()))
  }

  @Test("references unchanged: every job passes, the summary and the review page are published")
  func pipelinePasses() throws {
    let pipeline = try fixture(changed: false).runPipeline(shards: 4)
    try checkShards(pipeline, shards: 4)
    #expect(pipeline.merge.status == 0, "\(pipeline.merge.output)")
    let total = try catalogueSize()
    let out = pipeline.mergeWorkspace.appendingPathComponent("out")
    #expect(Tree.exists(out.appendingPathComponent("report/index.html")))
    #expect(try junitCounts(out.appendingPathComponent("junit.xml")) == (total, 0))
    #expect(
      try Self.text(out.appendingPathComponent("summary.md"))
        == "\(total) references: \(total) passed\n")
    #expect(
      pipeline.githubSummary
        == "\(total) references: \(total) passed\n"
        + "Review page: [snapshot-report](https://github.invalid/report/1) (open report/index.html in the zip)\n"
    )
    #expect(
      pipeline.gitlabLog.hasSuffix(
        "Review page: https://gitlab.invalid/project/-/jobs/7/artifacts/file/out/report/index.html\n"
      ))
  }

  @Test("one case changed: the shards pass, the merge fails the run and publishes what changed")
  func pipelineFails() throws {
    let fixture = try fixture(changed: true)
    let pipeline = try fixture.runPipeline(shards: 4)
    try checkShards(pipeline, shards: 4)
    #expect(pipeline.merge.status == 1, "\(pipeline.merge.output)")
    for theme in ["orange", "orange-compact", "sosh", "wireframe"] {
      for mode in ["light", "dark"] {
        #expect(
          pipeline.githubSummary.contains(
            "| changed | `\(Self.changedCase)/\(theme)-\(mode)@2x` |"))
      }
    }
    #expect(pipeline.githubSummary.contains("ouds-render snapshot record --failed --filter '"))
    #expect(pipeline.gitlabLog.contains("| changed | `\(Self.changedCase)/sosh-dark@2x` |"))
    // The published files: the review page with its pictures, JUnit with one failure per change,
    // and JUnit's attachments in the kept folder, where GitLab shows them beside each failure.
    let out = pipeline.mergeWorkspace.appendingPathComponent("out")
    #expect(Tree.exists(out.appendingPathComponent("report/index.html")))
    let pictures = try Tree.files(under: out.appendingPathComponent("report")).filter {
      $0.pathExtension == "png"
    }
    #expect(pictures.count >= 3 * Self.changedCount, "diff, actual and expected per change")
    let total = try catalogueSize()
    #expect(try junitCounts(out.appendingPathComponent("junit.xml")) == (total, Self.changedCount))
    let junit = try Self.text(out.appendingPathComponent("junit.xml"))
    let attachments = junit.matches(of: #/\[\[ATTACHMENT\|([^\]]+)\]\]/#).map { String($0.1) }
    #expect(attachments.count == 3 * Self.changedCount)
    for path in attachments {
      #expect(
        Tree.exists(pipeline.mergeWorkspace.appendingPathComponent(path)), "attachment \(path)")
    }
    // What the pipeline published is what one unsharded verify of the same snapshots writes.
    let single = root.appendingPathComponent("single")
    try Tree.copy(fixture.checkout, to: single, hardLinks: true)
    let direct = try run(
      [
        "snapshot", "verify", "--summary", "out/summary.md", "--junit", "out/junit.xml",
        "--results", "out/single",
      ], in: single)
    #expect(direct.status == 1)
    let published = try Self.text(out.appendingPathComponent("summary.md"))
    #expect(published == (try Self.text(single.appendingPathComponent("out/summary.md"))))
    #expect(pipeline.githubSummary.hasPrefix(published))
  }

  @Test("a shard job fails at once on anything but differences with results, and on bad arguments")
  func shardFailsOnErrors() throws {
    let fixture = try fixture(changed: false)
    let build = try fixture.workspace("build", artifacts: [])
    #expect(try fixture.job(["scripts/ci-build"], in: build).status == 0)
    let folder = try fixture.workspace(
      "verify", artifacts: [(build.appendingPathComponent("dist"), "dist")])
    let usage = try fixture.job(["scripts/ci-verify-shard", "5", "4"], in: folder)
    #expect(usage.status == 2)
    #expect(usage.stderr.contains("usage: scripts/ci-verify-shard INDEX COUNT"))
    let zero = try fixture.job(["scripts/ci-verify-shard", "1", "0"], in: folder)
    #expect(zero.status == 2, "\(zero.output)")
    // No package (a build job that handed over nothing): the job fails, and writes no results.
    try FileManager.default.removeItem(at: folder.appendingPathComponent("dist"))
    let missing = try fixture.job(["scripts/ci-verify-shard", "1", "4"], in: folder)
    #expect(missing.status == 1, "\(missing.output)")
    #expect(
      missing.stderr.contains(
        "ci-install: expected one dist/ouds-render_<version>_<arch>.deb (the build job's artifact), found 0"
      ), "\(missing.stderr)")
    #expect(!Tree.exists(folder.appendingPathComponent("out/shard-1/results.json")))
  }
}

extension String {
  /// The string without leading and trailing white space.
  fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
