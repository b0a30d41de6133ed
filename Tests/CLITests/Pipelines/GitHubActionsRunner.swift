import Foundation

/// Runs a GitHub Actions workflow on this machine, job after job, as the hosted runner would:
/// the matrix expanded, `needs` and `if:` honoured, each `run:` step a separate `bash` process in
/// the job's own workspace (a fresh checkout), `$GITHUB_PATH`, `$GITHUB_ENV`, `$GITHUB_OUTPUT` and
/// `$GITHUB_STEP_SUMMARY` as files, and the artifact actions as copies between workspaces (hidden
/// files left out and the executable bit dropped, as `upload-artifact@v4` does).
///
/// Only what the templates use is understood; anything else (another action, an expression it
/// cannot evaluate, a `working-directory`) is an error naming it, so a template cannot use a
/// feature this test does not run.
struct GitHubActionsRunner {
  /// One step as it ran.
  struct StepRun {
    var name: String
    /// The `run:` text as written in the template (before `${{ }}` is evaluated), nil for `uses:`.
    var template: String?
    var status: RunStatus
    var log: String
  }

  /// One job (one matrix combination) as it ran.
  struct JobRun {
    /// `verify (shard: 2)`.
    var name: String
    var id: String
    var status: RunStatus
    var steps: [StepRun]
    /// What the steps appended to `$GITHUB_STEP_SUMMARY`.
    var summary: String
    /// The job's workspace, left for inspection.
    var workspace: URL

    /// The step called `name`.
    func step(_ name: String) -> StepRun? { steps.first { $0.name == name } }
  }

  let workflow: [String: Any]
  let fixture: PipelineFixture
  /// The id of the simulated run, the same for all its jobs (`GITHUB_RUN_ID`, `CI_PIPELINE_ID`).
  let runID = Int.random(in: 1_000...999_999_999)
  /// The uploaded artifacts: name → folder holding its files.
  private(set) var artifacts: [String: URL] = [:]
  private var jobCount = 0

  init(workflow: [String: Any], fixture: PipelineFixture) {
    self.workflow = workflow
    self.fixture = fixture
  }

  /// The jobs' ids in an order where every job comes after those it needs (ties by name).
  static func jobOrder(_ jobs: [String: Any]) throws -> [String] {
    var order: [String] = []
    var remaining = Set(jobs.keys)
    while !remaining.isEmpty {
      let ready = remaining.sorted().filter { id in
        YAMLValue.texts(YAMLValue.mapping(jobs[id])?["needs"]).allSatisfy { order.contains($0) }
      }
      guard let next = ready.first else {
        throw PipelineError("jobs \(remaining.sorted()) need each other or an unknown job")
      }
      order.append(next)
      remaining.remove(next)
    }
    return order
  }

  /// The combinations of a job's `strategy.matrix` (one empty combination without a matrix).
  static func combinations(_ job: [String: Any]) throws -> [[(String, String)]] {
    guard let matrix = YAMLValue.mapping(YAMLValue.mapping(job["strategy"])?["matrix"]) else {
      return [[]]
    }
    var result: [[(String, String)]] = [[]]
    for key in matrix.keys.sorted() {
      guard key != "include", key != "exclude", let values = YAMLValue.sequence(matrix[key]) else {
        throw PipelineError("matrix key \(key): only lists of values are run here")
      }
      result = result.flatMap { partial in
        values.compactMap(YAMLValue.text).map { partial + [(key, $0)] }
      }
    }
    return result
  }

  /// Runs every job; returns them in the order they ran.
  mutating func run() throws -> [JobRun] {
    guard let jobs = YAMLValue.mapping(workflow["jobs"]) else {
      throw PipelineError("the workflow has no jobs")
    }
    var finished: [String: [JobRun]] = [:]
    var runs: [JobRun] = []
    for id in try Self.jobOrder(jobs) {
      guard let job = YAMLValue.mapping(jobs[id]) else { throw PipelineError("job \(id) is empty") }
      let needs = YAMLValue.texts(job["needs"])
      let needed = needs.flatMap { finished[$0] ?? [] }
      let combinations = try Self.combinations(job)
      var instances: [JobRun] = []
      for (index, combination) in combinations.enumerated() {
        let context = Context(
          matrix: Dictionary(uniqueKeysWithValues: combination), jobIndex: index,
          jobTotal: combinations.count)
        let neededOK = needed.allSatisfy { $0.status == .success }
        let name =
          combination.isEmpty
          ? id : "\(id) (\(combination.map { "\($0.0): \($0.1)" }.joined(separator: ", ")))"
        let condition = YAMLValue.text(job["if"]) ?? "success()"
        if !(try Self.condition(condition, context: context, failed: !neededOK)) {
          instances.append(
            JobRun(
              name: name, id: id, status: .skipped, steps: [], summary: "",
              workspace: fixture.scratch))
          continue
        }
        instances.append(try runJob(id: id, name: name, job: job, context: context))
      }
      finished[id] = instances
      runs += instances
    }
    return runs
  }

  /// What `${{ }}` can read in one job.
  struct Context {
    var matrix: [String: String]
    var jobIndex: Int
    var jobTotal: Int
    var stepOutputs: [String: [String: String]] = [:]
  }

  /// The value of one expression (without `${{ }}`).
  static func evaluate(_ expression: String, context: Context) throws -> String {
    let words = expression.trimmingCharacters(in: .whitespaces)
    let parts = words.split(separator: ".").map(String.init)
    switch parts.first {
    case "matrix" where parts.count == 2:
      if let value = context.matrix[parts[1]] { return value }
    case "strategy" where words == "strategy.job-total":
      return "\(context.jobTotal)"
    case "strategy" where words == "strategy.job-index":
      return "\(context.jobIndex)"
    case "steps" where parts.count == 4 && parts[2] == "outputs":
      return context.stepOutputs[parts[1]]?[parts[3]] ?? ""
    default: break
    }
    throw PipelineError("expression ${{ \(words) }} is not one this test evaluates")
  }

  /// The text of a scalar `env:` or `with:` value; anything else (a mapping YAML read from an
  /// unquoted `: `, a list) is an error.
  static func scalar(_ value: Any, _ key: String) throws -> String {
    guard let text = YAMLValue.text(value) else {
      throw PipelineError("\(key): not a scalar: \(value)")
    }
    return text
  }

  /// `text` with every `${{ … }}` replaced by its value.
  static func substitute(_ text: String, context: Context) throws -> String {
    var result = ""
    var rest = Substring(text)
    while let open = rest.range(of: "${{") {
      result += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].range(of: "}}") else {
        throw PipelineError("unclosed ${{ in \(text)")
      }
      result += try evaluate(String(rest[open.upperBound..<close.lowerBound]), context: context)
      rest = rest[close.upperBound...]
    }
    return result + rest
  }

  /// Whether an `if:` holds, after an earlier failure (`failed`) or not.
  static func condition(_ text: String, context: Context, failed: Bool) throws -> Bool {
    var expression = text.trimmingCharacters(in: .whitespaces)
    if expression.hasPrefix("${{"), expression.hasSuffix("}}") {
      expression = String(expression.dropFirst(3).dropLast(2)).trimmingCharacters(in: .whitespaces)
    }
    switch expression {
    case "success()": return !failed
    case "failure()": return failed
    case "always()", "!cancelled()": return true
    case "cancelled()": return false
    default: throw PipelineError("if: \(text) is not a condition this test evaluates")
    }
  }

  private mutating func runJob(id: String, name: String, job: [String: Any], context: Context)
    throws -> JobRun
  {
    jobCount += 1
    let folder = fixture.scratch.appendingPathComponent("github-\(jobCount)-\(id)")
    let workspace = folder.appendingPathComponent("workspace")
    let files = folder.appendingPathComponent("files")
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    var context = context
    var environment: [String: String] = [:]
    for source in [workflow["env"], job["env"]] {
      for (key, value) in YAMLValue.mapping(source) ?? [:] {
        environment[key] = try Self.substitute(Self.scalar(value, key), context: context)
      }
    }
    var path: [String] = []
    var failed = false
    var steps: [StepRun] = []
    var summary = ""
    let defaultShell =
      YAMLValue.text(
        YAMLValue.mapping(YAMLValue.mapping(job["defaults"])?["run"])?["shell"]
          ?? YAMLValue.mapping(YAMLValue.mapping(workflow["defaults"])?["run"])?["shell"])
    for (index, value) in (YAMLValue.sequence(job["steps"]) ?? []).enumerated() {
      guard let step = YAMLValue.mapping(value) else {
        throw PipelineError("\(id): a step is empty")
      }
      let uses = YAMLValue.text(step["uses"])
      if let run = step["run"], !(run is String) {
        throw PipelineError("\(id): a run: is not a string (quote a line holding ': '): \(run)")
      }
      let script = YAMLValue.text(step["run"])
      let stepName = YAMLValue.text(step["name"]) ?? uses ?? "step \(index + 1)"
      guard step["working-directory"] == nil else {
        throw PipelineError("\(id) / \(stepName): working-directory is not run here")
      }
      let condition = YAMLValue.text(step["if"]) ?? "success()"
      guard try Self.condition(condition, context: context, failed: failed) else {
        steps.append(StepRun(name: stepName, template: script, status: .skipped, log: ""))
        continue
      }
      var stepEnvironment = environment
      for (key, value) in YAMLValue.mapping(step["env"]) ?? [:] {
        stepEnvironment[key] = try Self.substitute(Self.scalar(value, key), context: context)
      }
      let with = try (YAMLValue.mapping(step["with"]) ?? [:]).mapValues {
        try Self.substitute(Self.scalar($0, "with"), context: context)
      }
      var status = RunStatus.success
      var log = ""
      var outputs: [String: String] = [:]
      if let uses {
        do {
          outputs = try runAction(uses, with: with, workspace: workspace)
        } catch let error as PipelineError {
          status = .failure
          log = error.description
        }
      } else if let script {
        let shell = YAMLValue.text(step["shell"]) ?? defaultShell ?? "bash"
        let command: [String]
        switch shell {
        case "bash": command = ["/bin/bash", "--noprofile", "--norc", "-eo", "pipefail"]
        case "sh": command = ["/bin/sh", "-e"]
        default: throw PipelineError("\(id) / \(stepName): shell \(shell) is not run here")
        }
        let file = files.appendingPathComponent("step-\(index + 1).sh")
        try Data(try Self.substitute(script, context: context).utf8).write(to: file)
        let special = ["GITHUB_PATH", "GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"]
        var variables = stepEnvironment
        for name in special {
          let url = files.appendingPathComponent("\(name)-\(index + 1)")
          try Data().write(to: url)
          variables[name] = url.path
        }
        variables["GITHUB_WORKSPACE"] = workspace.path
        variables["GITHUB_ACTIONS"] = "true"
        // One id for every job of the workflow run, as GitHub sets it: merge checks it.
        variables["GITHUB_RUN_ID"] = "\(runID)"
        variables["RUNNER_TEMP"] = files.path
        let searchPath = (path.reversed() + [fixture.tools.path, PipelineFixture.systemPath])
          .joined(separator: ":")
        let result = try Shell.run(
          command + [file.path], in: workspace,
          environment: PipelineFixture.environment(path: searchPath, extra: variables))
        status = result.status == 0 ? .success : .failure
        log = result.output
        func read(_ name: String) throws -> String {
          try String(
            contentsOf: files.appendingPathComponent("\(name)-\(index + 1)"), encoding: .utf8)
        }
        path += try read("GITHUB_PATH").split(separator: "\n").map(String.init)
        for line in try read("GITHUB_ENV").split(separator: "\n") {
          let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
          if pair.count == 2 { environment[pair[0]] = pair[1] }
        }
        for line in try read("GITHUB_OUTPUT").split(separator: "\n") {
          let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
          if pair.count == 2 { outputs[pair[0]] = pair[1] }
        }
        summary += try read("GITHUB_STEP_SUMMARY")
      } else {
        throw PipelineError("\(id) / \(stepName): neither uses nor run")
      }
      if let stepID = YAMLValue.text(step["id"]) { context.stepOutputs[stepID] = outputs }
      if status == .failure && !YAMLValue.flag(step["continue-on-error"]) { failed = true }
      steps.append(StepRun(name: stepName, template: script, status: status, log: log))
    }
    return JobRun(
      name: name, id: id, status: failed ? .failure : .success, steps: steps, summary: summary,
      workspace: workspace)
  }

  /// Runs one of the actions the templates use; returns its outputs.
  private mutating func runAction(_ uses: String, with: [String: String], workspace: URL) throws
    -> [String: String]
  {
    let action = uses.split(separator: "@").first.map(String.init) ?? uses
    switch action {
    case "actions/checkout":
      for item in try FileManager.default.contentsOfDirectory(atPath: fixture.checkout.path) {
        try Tree.copy(
          fixture.checkout.appendingPathComponent(item),
          to: workspace.appendingPathComponent(item), hardLinks: true)
      }
      return [:]
    case "actions/upload-artifact":
      return try upload(with: with, workspace: workspace)
    case "actions/download-artifact":
      try download(with: with, workspace: workspace)
      return [:]
    default:
      throw PipelineError("action \(uses) is not run here")
    }
  }

  /// `upload-artifact@v4`: the files under the paths, relative to their least common ancestor
  /// (a single folder: its contents), hidden files left out unless `include-hidden-files`.
  private mutating func upload(with: [String: String], workspace: URL) throws -> [String: String] {
    let name = with["name"] ?? "artifact"
    guard artifacts[name] == nil || YAMLValue.flag(with["overwrite"]) else {
      throw PipelineError("upload-artifact: an artifact named \(name) already exists")
    }
    let paths = (with["path"] ?? "").split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    for path in paths where path.contains(where: { "*?[!".contains($0) }) {
      throw PipelineError("upload-artifact: the pattern \(path) is not run here")
    }
    let urls = paths.map { workspace.appendingPathComponent($0).standardizedFileURL }
    let existing = urls.filter(Tree.exists)
    if existing.isEmpty {
      if with["if-no-files-found"] == "error" {
        throw PipelineError("upload-artifact \(name): no files found at \(paths)")
      }
      return [:]
    }
    var root: [String]
    if urls.count == 1 {
      var isFolder: ObjCBool = false
      FileManager.default.fileExists(atPath: urls[0].path, isDirectory: &isFolder)
      root =
        isFolder.boolValue
        ? urls[0].pathComponents : urls[0].deletingLastPathComponent().pathComponents
    } else {
      root = urls[0].pathComponents
      for url in urls.dropFirst() {
        let parts = url.pathComponents
        var common = 0
        while common < min(root.count, parts.count), root[common] == parts[common] { common += 1 }
        root = Array(root.prefix(common))
      }
    }
    let store = fixture.scratch.appendingPathComponent("github-artifacts/\(name)")
    try? FileManager.default.removeItem(at: store)
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    let hidden = YAMLValue.flag(with["include-hidden-files"])
    for url in existing {
      for file in try Tree.files(under: url) {
        let relative = Array(file.pathComponents.dropFirst(root.count))
        if !hidden && relative.contains(where: { $0.hasPrefix(".") }) { continue }
        try Tree.copy(file, to: store.appendingPathComponent(relative.joined(separator: "/")))
      }
    }
    artifacts[name] = store
    return ["artifact-url": "https://github.invalid/artifacts/\(name)", "artifact-id": name]
  }

  /// `download-artifact@v4`: one artifact by `name`, or every artifact matching `pattern` merged
  /// into `path` (`merge-multiple: true`); files lose their executable bit.
  private func download(with: [String: String], workspace: URL) throws {
    let destination = workspace.appendingPathComponent(with["path"] ?? ".")
    var names: [String]
    if let name = with["name"] {
      names = [name]
    } else if let pattern = with["pattern"] {
      guard YAMLValue.flag(with["merge-multiple"]) else {
        throw PipelineError(
          "download-artifact: pattern without merge-multiple: true (one artifact or several change the layout) is not run here"
        )
      }
      names = artifacts.keys.sorted().filter { fnmatch(pattern, $0, 0) == 0 }
    } else {
      throw PipelineError("download-artifact without name or pattern is not run here")
    }
    guard !names.isEmpty, names.allSatisfy({ artifacts[$0] != nil }) else {
      throw PipelineError("download-artifact: no artifact \(with["name"] ?? with["pattern"] ?? "")")
    }
    for name in names {
      guard let store = artifacts[name] else { continue }
      for file in try Tree.files(under: store) {
        let relative = file.pathComponents.dropFirst(store.pathComponents.count)
        try Tree.copy(
          file, to: destination.appendingPathComponent(relative.joined(separator: "/")),
          mode: 0o644)
      }
    }
  }
}
