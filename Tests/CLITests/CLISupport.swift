import Dispatch
import Foundation
import SafeInput
import Testing
import Threads

/// The package root: …/Tests/CLITests/CLISupport.swift → …
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What one run of `ouds-render` did.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String
  var stdoutData: Data
}

/// The `ouds-render` that SwiftPM built for this test run.
///
/// `CLITests` depends on the `ouds-render` target in Package.swift, so SwiftPM builds the binary
/// into the same build folder as the test bundle (`.build/<triple>/debug`) before it runs the tests.
/// The binary is taken from there and nowhere else: never a probed path that could be stale.
enum BuiltBinary {
  /// The build folder of the running test bundle: the folder of the `.xctest` (the executable
  /// itself on Linux, a bundle loaded by the test runner on macOS).
  static func buildFolder() throws(CLIError) -> URL {
    let candidates =
      [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
      + Bundle.allBundles.map { Optional($0.bundleURL) }
    guard let xctest = candidates.compactMap({ $0 }).first(where: { $0.pathExtension == "xctest" })
    else {
      throw CLIError(
        "cannot find the running .xctest among \(candidates.compactMap { $0?.path }); run the tests with 'swift test'"
      )
    }
    return xctest.resolvingSymlinksInPath().deletingLastPathComponent()
  }

  /// `ouds-render` in the test bundle's build folder, or an error naming the folder.
  static let url: Result<URL, CLIError> = Result { () throws(CLIError) in
    let binary = try buildFolder().appendingPathComponent("ouds-render")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw CLIError(
        "\(binary.path) is missing: 'swift build --build-tests' builds it (CLITests depends on the ouds-render target)"
      )
    }
    return binary
  }
}

/// A test set-up problem, thrown so that the test fails with this line.
struct CLIError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `setpriv`, which runs a program as another user: root writes anywhere, so permission checks run the
/// binary as `nobody` when the tests run as root (CI containers do).
let setpriv = "/usr/bin/setpriv"

/// Runs `ouds-render` with `arguments` in `directory` (default: the repository root), with
/// `environment` added to this process's and the variables of `removing` taken out.
///
/// With `unprivileged`, a run by root is made as user `nobody` (uid and gid 65534) through `setpriv`,
/// so that permission bits apply; other users run the binary directly.
func run(
  _ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:],
  removing: [String] = [], unprivileged: Bool = false
) throws -> RunResult {
  let binary = try BuiltBinary.url.get()
  let process = Process()
  if unprivileged && getuid() == 0 {
    guard FileManager.default.isExecutableFile(atPath: setpriv) else {
      throw CLIError(
        "running as root, this test needs \(setpriv) (util-linux) to run ouds-render as nobody")
    }
    process.executableURL = URL(fileURLWithPath: setpriv)
    process.arguments =
      ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments
  } else {
    process.executableURL = binary
    process.arguments = arguments
  }
  process.currentDirectoryURL = directory
  var env = ProcessInfo.processInfo.environment
  for (key, value) in environment { env[key] = value }
  for key in removing { env[key] = nil }
  process.environment = env
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  // Standard error is read on another thread, so that neither pipe can fill up and block the child.
  let errors = DispatchGroup()
  nonisolated(unsafe) var errData = Data()
  DispatchQueue.global().async(group: errors) {
    errData = err.fileHandleForReading.readDataToEndOfFile()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  errors.wait()
  process.waitUntilExit()
  return RunResult(
    status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "ouds-cli-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Writes `text` to `name` in `folder` and returns its path.
@discardableResult
func write(_ text: String, _ name: String, in folder: URL) throws -> String {
  let url = folder.appendingPathComponent(name)
  try Data(text.utf8).write(to: url)
  return url.path
}

/// A copy of the repository's Themes/ folder.
func copyOfThemes(in folder: URL) throws -> URL {
  let copy = folder.appendingPathComponent("Themes")
  try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Themes"), to: copy)
  return copy
}

/// What one bounded run did.
struct BoundedRunResult {
  var status: Int32
  var stderr: String
  var timedOut: Bool
}

/// Runs `ouds-render` with its standard output sent to `stdout` (a path such as `/dev/full`,
/// `closed` for a closed descriptor, nil for a discarded pipe), killing it after `timeout` seconds.
func runBounded(_ arguments: [String], in directory: URL, stdout: String?, timeout: TimeInterval)
  throws
  -> BoundedRunResult
{
  let process = Process()
  let binary = try BuiltBinary.url.get().path
  switch stdout {
  case "closed"?:
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exec \"$0\" \"$@\" >&-", binary] + arguments
  case let path?:
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exec \"$0\" \"$@\" > \"$OUDS_TEST_STDOUT\"", binary] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["OUDS_TEST_STDOUT": path]) {
      $1
    }
  case nil:
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
  }
  process.currentDirectoryURL = directory
  process.standardInput = FileHandle.nullDevice
  let err = Pipe()
  process.standardError = err
  let finished = DispatchSemaphore(value: 0)
  process.terminationHandler = { _ in finished.signal() }
  try process.run()
  // Read stderr while waiting, so a chatty process never blocks on a full pipe.
  let collected = Locked<Data?>(nil)  // nil until the pipe reached its end
  let reader = Thread {
    let bytes = err.fileHandleForReading.readDataToEndOfFile()
    collected.withLock { $0 = bytes }
  }
  reader.start()
  var timedOut = false
  if finished.wait(timeout: .now() + timeout) == .timedOut {
    timedOut = true
    process.terminate()
    finished.wait()
  }
  var stderr: Data?
  while stderr == nil {
    stderr = collected.withLock { $0 }
    if stderr == nil { usleep(1000) }
  }
  return BoundedRunResult(
    status: process.terminationStatus, stderr: String(decoding: stderr ?? Data(), as: UTF8.self),
    timedOut: timedOut)
}

/// The test venv's Python and the system's Chromium, which the browser tests drive through
/// Playwright scripts in `Tests/Browser/`.
struct BrowserTools {
  var python: String
  var chromium: String

  /// Finds both and checks that `modules` import in the venv; a missing one is an error naming
  /// the command that installs it.
  static func find(modules: [String] = ["playwright"]) throws -> BrowserTools {
    let python = repositoryRoot.appendingPathComponent(".build/test-venv/bin/python").path
    guard
      let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      throw CLIError("chromium is not installed (scripts/setup --with-test-tools installs it)")
    }
    guard FileManager.default.isExecutableFile(atPath: python) else {
      throw CLIError("no \(python): run scripts/setup --with-test-tools")
    }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: python)
    probe.arguments = ["-c", "import " + modules.joined(separator: ", ")]
    probe.standardError = FileHandle.nullDevice
    try probe.run()
    probe.waitUntilExit()
    guard probe.terminationStatus == 0 else {
      throw CLIError(
        "\(modules.joined(separator: ", ")) not in .build/test-venv: run scripts/setup --with-test-tools"
      )
    }
    return BrowserTools(python: python, chromium: chromium)
  }

  /// Runs `Tests/Browser/<script>` with `arguments`: its exit status and its output (standard
  /// output and error together).
  func run(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let driver = Process()
    driver.executableURL = URL(fileURLWithPath: python)
    driver.arguments =
      [repositoryRoot.appendingPathComponent("Tests/Browser/" + script).path] + arguments
    let out = Pipe()
    driver.standardOutput = out
    driver.standardError = out
    try driver.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    driver.waitUntilExit()
    return (driver.terminationStatus, output)
  }
}
