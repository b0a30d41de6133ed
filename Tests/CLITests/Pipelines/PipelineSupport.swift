import Dispatch
import Foundation
import Testing

// What the CI template tests share: the workspace each job starts from, copying folders, running
// one script with a bound on its time.

/// A problem with a template or with the local run of it, thrown so that the test fails with it.
struct PipelineError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Running the CI scripts.
enum Shell {
  /// What one program did.
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Standard output then standard error.
    var output: String { stdout + stderr }
  }

  /// Runs `arguments` in `directory` with `environment` (this process's when nil), killing it
  /// after `timeout` seconds (then the status is -1 and the log says so).
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String]? = nil,
    timeout: TimeInterval = 300
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.currentDirectoryURL = directory
    if let environment { process.environment = environment }
    process.standardInput = FileHandle.nullDevice
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    DispatchQueue.global().async(group: group) {
      outData = out.fileHandleForReading.readDataToEndOfFile()
    }
    DispatchQueue.global().async(group: group) {
      errData = err.fileHandleForReading.readDataToEndOfFile()
    }
    var timedOut = false
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      timedOut = true
      process.terminate()
      finished.wait()
    }
    group.wait()
    var stderr = String(decoding: errData, as: UTF8.self)
    if timedOut { stderr += "\n(killed after \(Int(timeout)) s)" }
    return Result(
      status: timedOut ? -1 : process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self), stderr: stderr)
  }
}

/// Files and folders for the jobs.
enum Tree {
  /// Copies `source` (a file or a folder) to `destination`, creating its parent folders.
  ///
  /// With `hardLinks`, files are linked instead of copied (the checkout: never written in place).
  /// `mode` sets every copied file's permissions (an artifact service that drops the executable bit).
  static func copy(_ source: URL, to destination: URL, hardLinks: Bool = false, mode: Int? = nil)
    throws
  {
    let manager = FileManager.default
    try manager.createDirectory(
      at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    let flags = hardLinks ? "-al" : "-a"
    let result = try Shell.run(
      ["/bin/cp", flags, source.path, destination.path], in: URL(fileURLWithPath: "/"))
    guard result.status == 0 else {
      throw PipelineError("cannot copy \(source.path): \(result.output)")
    }
    if let mode {
      for file in try files(under: destination) {
        try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
      }
    }
  }

  /// The regular files under `folder` (or `folder` itself when it is a file), sorted.
  static func files(under folder: URL) throws -> [URL] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
      return []
    }
    guard isFolder.boolValue else { return [folder] }
    let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
    return paths.map { folder.appendingPathComponent($0) }.filter { url in
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        && !isDirectory.boolValue
    }
  }

  /// Whether `url` exists (a file or a folder).
  static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }
}

/// What every job of a local pipeline run starts from.
struct PipelineFixture {
  /// What a checkout of the repository gives: the snapshots, the themes, `scripts/setup`, the
  /// `scripts/ci-*` the templates call and what `scripts/package` reads.
  var checkout: URL
  /// A folder put first on the build job's PATH, holding a stand-in for the Swift toolchain: the
  /// test run already built `ouds-render` (`scripts/check-package`, which `scripts/test` runs
  /// first, built the release binary), so `swift build` does nothing and `swift build -c release
  /// … --show-bin-path` names the release build folder.
  var tools: URL
  /// A folder put first on the other jobs' PATH, holding a stand-in for `apt-get` (these tests do
  /// not install into the system): `apt-get install ./dist/<package>.deb` unpacks the package
  /// here and links its `ouds-render` beside it; any other install is refused, so a job that
  /// asks for a -dev package or the toolchain fails. Every call is logged in `apt-get.log`.
  var runtime: URL
  /// Where the jobs' workspaces and artifacts are kept.
  var scratch: URL

  /// The folders of a Debian container's PATH, after the job's own and the tools.
  static let systemPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

  /// The environment of a job's scripts: this process's, without what would change a render
  /// or find a tool by accident, with the toolchain stand-in first on `PATH`.
  static func environment(path: String, extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in [
      "OUDS_THEMES_DIR", "OUDS_FONT_DIRS", "NO_COLOR", "GITHUB_ACTIONS", "GITLAB_CI",
      "GITHUB_STEP_SUMMARY", "REPORT_URL", "CI_JOB_URL", "OUDS_RUN_ID", "GITHUB_RUN_ID",
      "CI_PIPELINE_ID",
    ] {
      environment[key] = nil
    }
    environment["PATH"] = path
    environment["CI"] = "true"
    for (key, value) in extra { environment[key] = value }
    return environment
  }

  /// The release build folder beside the test's debug one, which must hold a built `ouds-render`
  /// (`scripts/package` packages only a release binary: a debug one links the toolchain's Swift
  /// runtime).
  static func releaseFolder() throws -> URL {
    let folder = try BuiltBinary.buildFolder().deletingLastPathComponent()
      .appendingPathComponent("release")
    let binary = folder.appendingPathComponent("ouds-render").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw PipelineError(
        "\(binary) is missing: the CI scripts package the release binary; run scripts/check-package (scripts/test does) or the README's release build line first"
      )
    }
    return folder
  }

  /// Makes the fixture in `root`: a copy of the repository's `Snapshots/`, `Themes/`,
  /// `scripts/setup`, `scripts/package`, `scripts/ci-*` and what packaging reads (then `edit` may
  /// change the copy), and the toolchain and apt-get stand-ins.
  /// The cases of the pipeline's small catalogue: a JSON case and a Markdown one, 16 references
  /// in all. The pipelines test the jobs, not the catalogue (the shared run of SnapshotTests
  /// renders the whole of it once per `swift test`).
  static let fixtureCases = ["sample-2", "onboarding"]

  /// Removes from the snapshots folder `snapshots` every case (its file and its references) but
  /// `cases`.
  static func keepOnly(_ cases: [String], in snapshots: URL) throws {
    let caseFolder = snapshots.appendingPathComponent("cases")
    for file in try FileManager.default.contentsOfDirectory(atPath: caseFolder.path) {
      let name = (file as NSString).deletingPathExtension
      guard ["json", "md"].contains((file as NSString).pathExtension), !cases.contains(name) else {
        continue
      }
      try FileManager.default.removeItem(at: caseFolder.appendingPathComponent(file))
      let references = snapshots.appendingPathComponent(name)
      if FileManager.default.fileExists(atPath: references.path) {
        try FileManager.default.removeItem(at: references)
      }
    }
    // The icons only removed cases drew go too: a file in cases/ that no case draws is an error.
    let files = try FileManager.default.contentsOfDirectory(atPath: caseFolder.path)
    let kept = try files.filter { ["json", "md"].contains(($0 as NSString).pathExtension) }.map {
      try String(contentsOf: caseFolder.appendingPathComponent($0), encoding: .utf8)
    }
    for file in files where !["json", "md"].contains((file as NSString).pathExtension) {
      if !kept.contains(where: { $0.contains(file) }) {
        try FileManager.default.removeItem(at: caseFolder.appendingPathComponent(file))
      }
    }
  }

  static func make(
    in root: URL, cases: [String] = fixtureCases, edit: (URL) throws -> Void = { _ in }
  ) throws -> PipelineFixture {
    let checkout = root.appendingPathComponent("repository")
    let scripts = try FileManager.default.contentsOfDirectory(
      atPath: repositoryRoot.appendingPathComponent("scripts").path
    ).filter { $0 == "setup" || $0 == "package" || $0.hasPrefix("ci-") }.map { "scripts/" + $0 }
    let packaging = [
      "CHANGELOG.md", "packaging", "Sources/CGraphicsLoader/include/symbols.h",
      "Sources/CHTTPLoader/loader.c",
    ]
    for item in ["Snapshots", "Themes"] + scripts + packaging {
      try Tree.copy(
        repositoryRoot.appendingPathComponent(item), to: checkout.appendingPathComponent(item))
    }
    try keepOnly(cases, in: checkout.appendingPathComponent("Snapshots"))
    try edit(checkout)
    let tools = root.appendingPathComponent("tools")
    let runtime = root.appendingPathComponent("runtime")
    let binFolder = try releaseFolder().path
    let swift = """
      #!/bin/sh
      # Stands in for the Swift toolchain in the CI template tests: the test run built ouds-render.
      [ "$1" = build ] || { echo "swift stand-in: only 'swift build' is known, got: $*" >&2; exit 1; }
      for argument in "$@"; do
        if [ "$argument" = --show-bin-path ]; then echo '\(binFolder)'; exit 0; fi
      done
      exit 0

      """
    let aptGet = """
      #!/bin/sh
      # Stands in for apt-get in the CI template tests: unpacks the one local package it is asked
      # to install into this folder's root/ and links its ouds-render here (first on PATH).
      here="$(dirname "$0")"
      echo "$*" >>"$here/apt-get.log"
      case "$1" in
        update) exit 0 ;;
        install) ;;
        *) echo "apt-get stand-in: only update and install are known, got: $*" >&2; exit 100 ;;
      esac
      deb=""
      for argument in "$@"; do
        case "$argument" in
          ./dist/ouds-render_*.deb) deb="$argument" ;;
          install | -y | -qq | --no-install-recommends | --reinstall) ;;
          *) echo "apt-get stand-in: refused: $argument" >&2; exit 100 ;;
        esac
      done
      [ -n "$deb" ] || { echo "apt-get stand-in: no ./dist/ouds-render_*.deb to install" >&2; exit 100; }
      rm -rf "$here/root" && dpkg-deb -x "$deb" "$here/root" || exit 100
      ln -sf "$here/root/usr/lib/ouds-render/ouds-render" "$here/ouds-render"

      """
    // A hosted runner's user has sudo without a password; as a user who is not root, the jobs'
    // `sudo apt-get` must reach the stand-in above, which needs no root.
    let sudo = """
      #!/bin/sh
      # Stands in for a CI runner's password-less sudo in the CI template tests.
      exec "$@"

      """
    for (folder, name, text) in [
      (tools, "swift", swift), (runtime, "apt-get", aptGet), (runtime, "sudo", sudo),
    ] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let script = folder.appendingPathComponent(name)
      try Data(text.utf8).write(to: script)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    }
    let scratch = root.appendingPathComponent("runs")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    return PipelineFixture(checkout: checkout, tools: tools, runtime: runtime, scratch: scratch)
  }
}

/// What one local run of the pipeline left.
struct PipelineRun {
  var build: Shell.Result
  var shards: [Shell.Result]
  var merge: Shell.Result
  /// The merge job's workspace (its `out/` is what the templates publish).
  var mergeWorkspace: URL
  /// The build job's workspace (its `dist/` is what it hands over).
  var buildWorkspace: URL
  /// What `scripts/ci-publish` wrote to the GitHub step summary, and to a GitLab job log.
  var githubSummary: String
  var gitlabLog: String
  /// The arguments of every `apt-get` call of the jobs after the build, in order.
  var aptCalls: [String]
}

extension PipelineFixture {
  /// The run id every job of one pipeline sees, as GitHub sets `GITHUB_RUN_ID` (GitLab
  /// `CI_PIPELINE_ID`) in each job: the merge refuses shards of another run.
  static let runID = "4242"

  /// A job's workspace: a fresh checkout (hard links: no job writes the checkout in place) with
  /// `artifacts` copied in, as the services hand them over (the executable bit dropped). Jobs
  /// after the build get no `scripts/setup` nor `scripts/package`: they install the package only.
  func workspace(_ name: String, artifacts: [(URL, String)]) throws -> URL {
    let folder = scratch.appendingPathComponent(name)
    try Tree.copy(checkout, to: folder, hardLinks: true)
    if !artifacts.isEmpty {
      for script in ["scripts/setup", "scripts/package"] {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(script))
      }
    }
    for (source, relative) in artifacts {
      try Tree.copy(source, to: folder.appendingPathComponent(relative), mode: 0o644)
    }
    return folder
  }

  /// Runs one script in `folder` with the jobs' environment: the build job with the toolchain
  /// stand-in first on `PATH`, the others with the apt-get stand-in (and what it installed).
  func job(
    _ script: [String], in folder: URL,
    extra: [String: String] = ["GITHUB_RUN_ID": PipelineFixture.runID]
  ) throws -> Shell.Result {
    let tools = script[0] == "scripts/ci-build" ? self.tools : runtime
    return try Shell.run(
      [folder.appendingPathComponent(script[0]).path] + script.dropFirst(), in: folder,
      environment: Self.environment(path: tools.path + ":" + Self.systemPath, extra: extra))
  }

  /// Runs build, `shards` verify jobs and the merge with its publishing step, as GitHub (the step
  /// summary) and as GitLab (the job log).
  func runPipeline(shards: Int) throws -> PipelineRun {
    let buildFolder = try workspace("build", artifacts: [])
    let build = try job(["scripts/ci-build"], in: buildFolder)
    let dist = buildFolder.appendingPathComponent("dist")
    var results: [Shell.Result] = []
    var outs: [(URL, String)] = []
    for index in 1...shards {
      let folder = try workspace("verify-\(index)", artifacts: [(dist, "dist")])
      results.append(try job(["scripts/ci-verify-shard", "\(index)", "\(shards)"], in: folder))
      let out = folder.appendingPathComponent("out/shard-\(index)")
      outs.append((out, "out/shard-\(index)"))
    }
    let mergeFolder = try workspace("merge", artifacts: [(dist, "dist")] + outs)
    let merge = try job(["scripts/ci-merge"], in: mergeFolder)
    let summaryFile = scratch.appendingPathComponent("step-summary.md")
    try Data().write(to: summaryFile)
    let github = try job(
      ["scripts/ci-publish"], in: mergeFolder,
      extra: [
        "GITHUB_STEP_SUMMARY": summaryFile.path, "REPORT_URL": "https://github.invalid/report/1",
        "GITHUB_RUN_ID": Self.runID,
      ])
    #expect(github.status == 0, "\(github.output)")
    let gitlab = try job(
      ["scripts/ci-publish"], in: mergeFolder,
      extra: [
        "CI_JOB_URL": "https://gitlab.invalid/project/-/jobs/7", "CI_PIPELINE_ID": Self.runID,
      ])
    #expect(gitlab.status == 0, "\(gitlab.output)")
    let aptLog = runtime.appendingPathComponent("apt-get.log")
    return PipelineRun(
      build: build, shards: results, merge: merge, mergeWorkspace: mergeFolder,
      buildWorkspace: buildFolder,
      githubSummary: try String(contentsOf: summaryFile, encoding: .utf8),
      gitlabLog: gitlab.stdout,
      aptCalls: Tree.exists(aptLog)
        ? try String(contentsOf: aptLog, encoding: .utf8).split(separator: "\n").map(String.init)
        : [])
  }
}
