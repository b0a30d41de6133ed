import Foundation

/// Writes a line to standard error.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes text to standard output without a trailing newline being added.
func writeOutput(_ text: String) {
  FileHandle.standardOutput.write(Data(text.utf8))
}

/// Exit codes of every subcommand.
enum ExitStatus {
  /// Success.
  static let success: Int32 = 0
  /// Bad input, a failed render, or differences found.
  static let failure: Int32 = 1
  /// A usage mistake on the command line.
  static let usage: Int32 = 2
}

/// Runs a subcommand body, mapping errors to messages and exit codes.
func runReportingErrors(command: String, _ body: () throws -> Int32) -> Int32 {
  do {
    return try body()
  } catch let error as UsageError {
    printError("error: \(error)")
    printError("See 'ouds-render \(command) --help'.")
    return ExitStatus.usage
  } catch {
    printError("error: \(error)")
    return ExitStatus.failure
  }
}
