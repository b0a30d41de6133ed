import Foundation
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What one run of `ouds-render` did.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String
  var stdoutData: Data
}

/// The `ouds-render` binary built next to the test bundle.
func binaryURL() throws -> URL {
  var candidates: [URL] = []
  let bundle = Bundle.main.bundleURL
  candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("ouds-render"))
  candidates.append(bundle.appendingPathComponent("ouds-render"))
  let argument0 = URL(fileURLWithPath: CommandLine.arguments[0])
  candidates.append(argument0.deletingLastPathComponent().appendingPathComponent("ouds-render"))
  candidates.append(argument0.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("ouds-render"))
  candidates.append(repositoryRoot.appendingPathComponent(".build/debug/ouds-render"))
  guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
    throw CLIError("ouds-render was not built next to the tests; looked in \(candidates.map(\.path))")
  }
  return found
}

struct CLIError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Runs `ouds-render` with `arguments` in `directory` (default: the repository root).
func run(_ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:])
  throws -> RunResult
{
  let process = Process()
  process.executableURL = try binaryURL()
  process.arguments = arguments
  process.currentDirectoryURL = directory
  var env = ProcessInfo.processInfo.environment
  for (key, value) in environment { env[key] = value }
  process.environment = env
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  let errData = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return RunResult(
    status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("ouds-cli-\(UUID().uuidString)")
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
