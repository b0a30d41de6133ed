#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Which references a run may write: every one, only missing ones, only failing ones, or none.
public enum SnapshotRecordMode: String, Sendable, CaseIterable, CustomStringConvertible {
  /// Render everything and overwrite every reference that differs (or is missing).
  case all
  /// Write references (their PNG or layout JSON) that do not exist yet; existing ones are neither compared nor rewritten.
  case missing
  /// Verify everything; rewrite references that fail or are missing.
  case failed
  /// Write nothing; a missing reference is a failure.
  case never

  /// The environment variable the test suite reads: `all`, `missing`, `failed` or `never`.
  public static let environmentVariable = "OUDS_SNAPSHOT_RECORD"

  /// The mode's name.
  public var description: String { rawValue }

  /// Whether the `CI` environment variable says this is a CI run (set, and not `0` or `false`).
  public static func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Bool
  {
    guard let value = environment["CI"] else { return false }
    return !["", "0", "false", "no"].contains(value.lowercased())
  }

  /// The mode for the test suite: `OUDS_SNAPSHOT_RECORD` if set, else `never` under `CI`, else `missing`.
  /// - Throws: `SnapshotError` for an unknown value of the variable.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(SnapshotError) -> SnapshotRecordMode {
    if let text = environment[environmentVariable], !text.isEmpty {
      guard let mode = SnapshotRecordMode(rawValue: text.lowercased()) else {
        throw .unknownRecordMode(variable: environmentVariable, value: text)
      }
      return mode
    }
    return isCI(environment) ? .never : .missing
  }
}
