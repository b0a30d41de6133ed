import Dispatch
import Foundation
import Testing

// What the two CI runners of the template tests share: the YAML reader, the workspace each job
// starts from, copying folders, running one shell script with a bound on its time.

/// A problem with a template or with the local run of it, thrown so that the test fails with it.
struct PipelineError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Reads a YAML file with PyYAML (Debian's `python3-yaml`, installed by `scripts/setup
/// --with-test-tools`) into the values `JSONSerialization` gives: dictionaries, arrays, strings,
/// numbers. Duplicate keys are an error, as on GitHub and GitLab.
enum YAMLFile {
  /// Debian's interpreter, where `python3-yaml` installs PyYAML.
  static let python = "/usr/bin/python3"

  /// The reader: strict mappings (no duplicate keys), then JSON on standard output.
  static let program = """
    import json, sys, yaml

    class StrictLoader(yaml.SafeLoader):
        pass

    def mapping(loader, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, "duplicate key %r" % (key,), key_node.start_mark)
            seen.add(key)
        return yaml.SafeLoader.construct_mapping(loader, node, deep)

    StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    with open(sys.argv[1], encoding="utf-8") as f:
        json.dump(yaml.load(f, Loader=StrictLoader), sys.stdout)
    """

  /// Whether PyYAML can be run here.
  static let isAvailable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: python) else { return false }
    return (try? Shell.run([python, "-c", "import yaml"], in: URL(fileURLWithPath: "/")).status)
      == 0
  }()

  /// Whether the template tests run: always under CI (where a missing PyYAML is a failure), else
  /// only when PyYAML is installed.
  static var testRuns: Bool {
    isAvailable
      || ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } == true
  }

  /// The document of `file`, or an error naming the file and PyYAML's reason.
  static func load(_ file: URL) throws -> [String: Any] {
    guard isAvailable else {
      throw PipelineError(
        "\(python) with PyYAML is needed to read \(file.lastPathComponent): install python3-yaml (scripts/setup --with-test-tools)"
      )
    }
    let result = try Shell.run([python, "-c", program, file.path], in: URL(fileURLWithPath: "/"))
    guard result.status == 0 else {
      throw PipelineError("\(file.lastPathComponent) is not valid YAML: \(result.output)")
    }
    guard
      let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        as? [String: Any]
    else { throw PipelineError("\(file.lastPathComponent): the document is not a mapping") }
    return document
  }
}

/// Typed reads of a YAML value.
enum YAMLValue {
  /// The mapping `value` is, or nil.
  static func mapping(_ value: Any?) -> [String: Any]? { value as? [String: Any] }
  /// The sequence `value` is, or nil.
  static func sequence(_ value: Any?) -> [Any]? { value as? [Any] }
  /// A scalar as text: strings as they are, numbers in decimal (a boolean may read `1`/`0`:
  /// read flags with ``flag(_:)``).
  static func text(_ value: Any?) -> String? {
    switch value {
    case let string as String: return string
    case let number as NSNumber: return number.stringValue
    default: return nil
    }
  }
  /// Whether a flag is set: `true` (a YAML boolean or the string).
  static func flag(_ value: Any?) -> Bool {
    if let bool = value as? Bool { return bool }
    return ["true", "1"].contains(text(value)?.lowercased() ?? "")
  }
  /// A string or a sequence of strings, as a list.
  static func texts(_ value: Any?) -> [String] {
    if let one = text(value) { return [one] }
    return sequence(value)?.compactMap(text) ?? []
  }
}

/// Running programs for the runners.
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

/// Files and folders for the runners.
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
  /// What a checkout of the repository gives: the snapshots, the themes, `scripts/setup`.
  var checkout: URL
  /// A folder put first on every job's PATH, holding a stand-in for the Swift toolchain: the
  /// test run already built `ouds-render`, so `swift build` does nothing and `swift build …
  /// --show-bin-path` names the test's build folder.
  var tools: URL
  /// Where the runners keep their jobs' workspaces and artifacts.
  var scratch: URL

  /// The folders of a Debian container's PATH, after the job's own and the tools.
  static let systemPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

  /// The environment of a job's scripts: this process's, without what would change a render
  /// or find a tool by accident, with `PATH` given by the runner.
  static func environment(path: String, extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in [
      "OUDS_THEMES_DIR", "OUDS_FONT_DIRS", "NO_COLOR", "GITHUB_ACTIONS", "GITLAB_CI", "OUDS_RUN_ID",
      "GITHUB_RUN_ID", "CI_PIPELINE_ID",
    ] {
      environment[key] = nil
    }
    environment["PATH"] = path
    environment["CI"] = "true"
    for (key, value) in extra { environment[key] = value }
    return environment
  }

  /// Makes the fixture in `root`: a copy of the repository's `Snapshots/`, `Themes/` and
  /// `scripts/setup` (then `edit` may change the copy), and the toolchain stand-in.
  static func make(in root: URL, edit: (URL) throws -> Void = { _ in }) throws -> PipelineFixture {
    let checkout = root.appendingPathComponent("repository")
    for item in ["Snapshots", "Themes", "scripts/setup"] {
      try Tree.copy(
        repositoryRoot.appendingPathComponent(item), to: checkout.appendingPathComponent(item))
    }
    try edit(checkout)
    let tools = root.appendingPathComponent("tools")
    try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
    let binFolder = try BuiltBinary.buildFolder().path
    let swift = """
      #!/bin/sh
      # Stands in for the Swift toolchain in the CI template tests: the test run built ouds-render.
      [ "$1" = build ] || { echo "swift stand-in: only 'swift build' is known, got: $*" >&2; exit 1; }
      for argument in "$@"; do
        if [ "$argument" = --show-bin-path ]; then echo '\(binFolder)'; exit 0; fi
      done
      exit 0

      """
    let script = tools.appendingPathComponent("swift")
    try Data(swift.utf8).write(to: script)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let scratch = root.appendingPathComponent("runs")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    return PipelineFixture(checkout: checkout, tools: tools, scratch: scratch)
  }
}

/// How a job or a step ended.
enum RunStatus: String, Equatable {
  case success, failure, skipped
}
