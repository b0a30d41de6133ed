import Foundation

/// Runs a GitLab CI pipeline on this machine, job after job, as a runner would: stages in order,
/// `parallel: N` as N jobs with `CI_NODE_INDEX`/`CI_NODE_TOTAL`, `needs` (else every earlier
/// stage) for the order and the artifacts a job receives, `when:`, `before_script` and `script` in
/// one `bash -eo pipefail` process in a fresh checkout, `after_script` in another, and
/// `artifacts:paths` (`when:` honoured) copied between workspaces.
///
/// Only what the templates use is understood; anything else (`rules`, `extends`, a glob or a
/// variable in an artifact path, `parallel:matrix`) is an error naming it.
struct GitLabCIRunner {
  /// One job (one `parallel` instance) as it ran.
  struct JobRun {
    /// `verify 2/4`, or the job's name.
    var name: String
    var job: String
    var status: RunStatus
    /// `before_script` and `script` as written in the template, in order.
    var lines: [String]
    var log: String
    var afterScriptLog: String
    /// The folder holding the uploaded artifacts (paths relative to the project folder), if any.
    var artifacts: URL?
    /// `artifacts:reports:junit`.
    var junitReports: [String]
    var workspace: URL
  }

  /// Top-level keys that are not jobs.
  static let reserved: Set<String> = [
    "default", "include", "stages", "variables", "workflow", "image", "services", "cache",
    "before_script", "after_script",
  ]

  let pipeline: [String: Any]
  let fixture: PipelineFixture
  /// The id of the simulated run, the same for all its jobs (`GITHUB_RUN_ID`, `CI_PIPELINE_ID`).
  let runID = Int.random(in: 1_000...999_999_999)
  private var jobCount = 0

  init(pipeline: [String: Any], fixture: PipelineFixture) {
    self.pipeline = pipeline
    self.fixture = fixture
  }

  /// The stages, in order.
  var stages: [String] {
    let declared = YAMLValue.texts(pipeline["stages"])
    return [".pre"] + (declared.isEmpty ? ["build", "test", "deploy"] : declared) + [".post"]
  }

  /// The jobs: name → definition.
  var jobs: [String: [String: Any]] {
    pipeline.filter { !Self.reserved.contains($0.key) && !$0.key.hasPrefix(".") }
      .compactMapValues(YAMLValue.mapping)
  }

  /// A job's key, else the `default:` section's, else the top level's.
  func setting(_ key: String, of job: [String: Any]) -> Any? {
    job[key] ?? YAMLValue.mapping(pipeline["default"])?[key] ?? pipeline[key]
  }

  /// The lines of a `before_script`, `script` or `after_script` value: strings, or arrays of
  /// them one level deep (GitLab refuses anything else, such as a line YAML read as a mapping
  /// because of an unquoted `: `).
  static func lines(_ value: Any?, _ what: String) throws -> [String] {
    guard let value else { return [] }
    if let line = value as? String { return [line] }
    guard let items = YAMLValue.sequence(value) else {
      throw PipelineError("\(what) is not a string or a list of strings: \(value)")
    }
    return try items.flatMap { item -> [String] in
      if let line = item as? String { return [line] }
      if let nested = YAMLValue.sequence(item), nested.allSatisfy({ $0 is String }) {
        return nested.compactMap { $0 as? String }
      }
      throw PipelineError("\(what): an item is not a string (quote a line holding ': '): \(item)")
    }
  }

  /// A job's `before_script` and `script`, then its `after_script`.
  func scripts(of name: String, _ job: [String: Any]) throws -> (main: [String], after: [String]) {
    let main =
      try Self.lines(setting("before_script", of: job), "\(name): before_script")
      + Self.lines(job["script"], "\(name): script")
    return (main, try Self.lines(setting("after_script", of: job), "\(name): after_script"))
  }

  /// The image a job runs in.
  func image(of job: [String: Any]) -> String? {
    let value = setting("image", of: job)
    return YAMLValue.text(value) ?? YAMLValue.text(YAMLValue.mapping(value)?["name"])
  }

  /// The jobs a job waits for and takes artifacts from: its `needs`, else every earlier stage's.
  func dependencies(of name: String) throws -> [String] {
    guard let job = jobs[name] else { return [] }
    if let needs = job["needs"] {
      return try (YAMLValue.sequence(needs) ?? []).map { need in
        if let text = YAMLValue.text(need) { return text }
        if let job = YAMLValue.text(YAMLValue.mapping(need)?["job"]) { return job }
        throw PipelineError("\(name): needs entry \(need) is not run here")
      }
    }
    let stage = try stageIndex(of: name)
    return try jobs.keys.sorted().filter { try stageIndex(of: $0) < stage }
  }

  func stageIndex(of name: String) throws -> Int {
    let stage = YAMLValue.text(jobs[name]?["stage"]) ?? "test"
    guard let index = stages.firstIndex(of: stage) else {
      throw PipelineError("\(name): stage \(stage) is not in stages")
    }
    return index
  }

  /// Runs every job; returns them in the order they ran.
  mutating func run() throws -> [JobRun] {
    for (name, job) in jobs {
      for key in ["rules", "extends", "only", "except", "trigger", "include"] where job[key] != nil
      {
        throw PipelineError("\(name): \(key) is not run here")
      }
    }
    // Stage order, then needs (a job after what it needs), then name.
    var order: [String] = []
    var remaining = Set(jobs.keys)
    while !remaining.isEmpty {
      let ready = try remaining.sorted {
        (try stageIndex(of: $0), $0) < (try stageIndex(of: $1), $1)
      }.filter { try dependencies(of: $0).allSatisfy(order.contains) }
      guard let next = ready.first else {
        throw PipelineError("jobs \(remaining.sorted()) need each other or an unknown job")
      }
      order.append(next)
      remaining.remove(next)
    }
    var finished: [String: [JobRun]] = [:]
    var runs: [JobRun] = []
    for name in order {
      guard let job = jobs[name] else { continue }
      let dependencies = try dependencies(of: name)
      let before = dependencies.flatMap { finished[$0] ?? [] }
      var count = 1
      if let parallel = job["parallel"] {
        guard let text = YAMLValue.text(parallel), let number = Int(text), number >= 1 else {
          throw PipelineError("\(name): parallel \(parallel) is not run here (a number only)")
        }
        count = number
      }
      let when = YAMLValue.text(job["when"]) ?? "on_success"
      let allPassed = before.allSatisfy { $0.status != .failure }
      var instances: [JobRun] = []
      for index in 1...count {
        let instance = job["parallel"] == nil ? name : "\(name) \(index)/\(count)"
        let runs: Bool
        switch when {
        case "on_success": runs = allPassed
        case "on_failure": runs = !allPassed
        case "always": runs = true
        default: throw PipelineError("\(name): when: \(when) is not run here")
        }
        guard runs else {
          instances.append(
            JobRun(
              name: instance, job: name, status: .skipped, lines: [], log: "", afterScriptLog: "",
              artifacts: nil, junitReports: [], workspace: fixture.scratch))
          continue
        }
        var variables: [String: String] = [:]
        if job["parallel"] != nil {
          variables["CI_NODE_INDEX"] = "\(index)"
          variables["CI_NODE_TOTAL"] = "\(count)"
        }
        instances.append(
          try runJob(
            name: name, instance: instance, job: job, variables: variables,
            artifactsFrom: before))
      }
      finished[name] = instances
      runs += instances
    }
    return runs
  }

  private mutating func runJob(
    name: String, instance: String, job: [String: Any], variables: [String: String],
    artifactsFrom dependencies: [JobRun]
  ) throws -> JobRun {
    jobCount += 1
    let folder = fixture.scratch.appendingPathComponent("gitlab-\(jobCount)-\(name)")
    let workspace = folder.appendingPathComponent("workspace")
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    // The checkout, then the artifacts of the jobs this one depends on.
    for item in try FileManager.default.contentsOfDirectory(atPath: fixture.checkout.path) {
      try Tree.copy(
        fixture.checkout.appendingPathComponent(item), to: workspace.appendingPathComponent(item),
        hardLinks: true)
    }
    for dependency in dependencies {
      guard let store = dependency.artifacts else { continue }
      for file in try Tree.files(under: store) {
        let relative = file.pathComponents.dropFirst(store.pathComponents.count)
        try Tree.copy(file, to: workspace.appendingPathComponent(relative.joined(separator: "/")))
      }
    }
    var environment = variables
    for source in [pipeline["variables"], job["variables"]] {
      for (key, value) in YAMLValue.mapping(source) ?? [:] {
        environment[key] = YAMLValue.text(value) ?? ""
      }
    }
    environment["GITLAB_CI"] = "true"
    // One id for every job of the pipeline, as GitLab sets it: merge checks it.
    environment["CI_PIPELINE_ID"] = "\(runID)"
    environment["CI_PROJECT_DIR"] = workspace.path
    environment["CI_JOB_NAME"] = instance
    environment["CI_JOB_URL"] = "https://gitlab.invalid/project/-/jobs/\(jobCount)"
    let path = [fixture.tools.path, PipelineFixture.systemPath].joined(separator: ":")
    let (lines, after) = try scripts(of: name, job)
    guard try !Self.lines(job["script"], name).isEmpty else {
      throw PipelineError("\(name): no script")
    }
    let script = folder.appendingPathComponent("script.sh")
    try Data(lines.joined(separator: "\n").utf8).write(to: script)
    let result = try Shell.run(
      ["/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", script.path], in: workspace,
      environment: PipelineFixture.environment(path: path, extra: environment))
    let status: RunStatus = result.status == 0 ? .success : .failure
    var afterLog = ""
    if !after.isEmpty {
      let file = folder.appendingPathComponent("after_script.sh")
      try Data(after.joined(separator: "\n").utf8).write(to: file)
      environment["CI_JOB_STATUS"] = status == .success ? "success" : "failed"
      afterLog =
        try Shell.run(
          ["/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", file.path], in: workspace,
          environment: PipelineFixture.environment(path: path, extra: environment)
        ).output
    }
    // Artifacts, when the job's outcome asks for them.
    var store: URL?
    var junit: [String] = []
    if let artifacts = YAMLValue.mapping(job["artifacts"]) {
      let when = YAMLValue.text(artifacts["when"]) ?? "on_success"
      let upload =
        when == "always" || (when == "on_success") == (status == .success)
      junit = YAMLValue.texts(YAMLValue.mapping(artifacts["reports"])?["junit"])
      if upload {
        let folderURL = fixture.scratch.appendingPathComponent("gitlab-artifacts/\(jobCount)")
        for path in YAMLValue.texts(artifacts["paths"]) + junit {
          guard !path.contains(where: { "*?[$".contains($0) }) else {
            throw PipelineError(
              "\(name): artifact path \(path) (a glob or a variable) is not run here")
          }
          let source = workspace.appendingPathComponent(path)
          guard Tree.exists(source) else { continue }
          for file in try Tree.files(under: source) {
            let relative = file.pathComponents.dropFirst(workspace.pathComponents.count)
            try Tree.copy(
              file, to: folderURL.appendingPathComponent(relative.joined(separator: "/")))
          }
        }
        store = folderURL
      }
    }
    return JobRun(
      name: instance, job: name, status: status, lines: lines, log: result.output,
      afterScriptLog: afterLog, artifacts: store, junitReports: junit, workspace: workspace)
  }
}
