import Foundation
import Snapshot

/// `ouds-render diff`: compares two PNG images; a thin shell over ``Snapshot/DiffTool``.
enum DiffCommand {
  /// The text printed by `ouds-render diff --help`.
  static let help: String = DiffTool.help

  /// Runs `ouds-render diff` with the arguments after `diff`; returns the process exit code.
  static func run(_ arguments: [String]) -> Int32 {
    DiffTool.run(
      arguments,
      standardOutput: { text throws in try writeOutput(text + "\n") },
      standardError: { printError($0) })
  }
}
