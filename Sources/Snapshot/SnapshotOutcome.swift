import Foundation
import SafeInput
import Graphics

/// What happened to one reference in a verify or record run.
public struct SnapshotOutcome: Sendable {
  /// The result of one reference.
  public enum Status: String, Sendable {
    /// The render matches the PNG and the layout JSON.
    case passed
    /// The pixels or the layout JSON differ from the reference.
    case changed
    /// The reference PNG or layout JSON does not exist.
    case missing
    /// The case could not be rendered or the reference could not be read.
    case error
    /// The reference was written by this run (record modes).
    case recorded
    /// Not looked at (record `--missing` leaves existing references alone).
    case skipped
  }

  /// The reference.
  public var reference: SnapshotReference
  /// The result.
  public var status: Status
  /// The pixel comparison, when both images existed.
  public var diff: DiffResult?
  /// The unified diff of the layout JSON reference against the render; empty when equal.
  public var layoutDiff: [String]
  /// A one-line explanation for `missing`, `error` and `recorded`.
  public var message: String?
  /// The reference PNG's bytes, kept only for failures.
  public var expectedPNG: Data?
  /// The decoded reference, kept only for failures.
  public var expectedImage: RasterImage?
  /// The fresh render, kept only for failures.
  public var actualImage: RasterImage?
  /// The render's layout JSON, kept only for failures.
  public var actualLayout: String?
  /// The reference's layout JSON, kept only for failures.
  public var expectedLayout: String?
  /// Seconds spent on this reference.
  public var seconds: Double

  /// Creates an outcome.
  public init(reference: SnapshotReference, status: Status, message: String? = nil, seconds: Double = 0) {
    self.reference = reference
    self.status = status
    self.diff = nil
    self.layoutDiff = []
    self.message = message
    self.seconds = seconds
  }

  /// Whether this reference makes the run fail: changed, missing or an error.
  public var isFailure: Bool { status == .changed || status == .missing || status == .error }

  /// One line saying why the reference failed (or what was done), e.g. `1532 pixels differ (0.066%) in 2 regions: …; layout: 4 lines differ`.
  public var reason: String {
    switch status {
    case .passed: return "matches"
    case .skipped: return message ?? "skipped"
    case .recorded, .missing, .error: return message ?? status.rawValue
    case .changed:
      var parts: [String] = []
      if let diff, diff != .identical { parts.append(diff.summary) }
      if !layoutDiff.isEmpty {
        let changed = layoutDiff.filter { $0.hasPrefix("-") || $0.hasPrefix("+") }.count
        parts.append("layout JSON: \(changed) line\(changed == 1 ? "" : "s") differ")
        if diff == .identical { parts.append("pixels identical") }
      }
      return parts.isEmpty ? "changed" : parts.joined(separator: "; ")
    }
  }
}

/// The result of a verify or record run over a selection of the catalogue.
public struct SnapshotRunReport: Sendable {
  /// One outcome per selected reference, sorted by id.
  public var outcomes: [SnapshotOutcome]
  /// Lines saying how this machine's render stack differs from `ENVIRONMENT.json`; empty when equal.
  public var environmentDifferences: [String]
  /// The fingerprint of this machine for the themes that were rendered.
  public var environment: SnapshotEnvironment?
  /// Files this run wrote, relative to the snapshots folder.
  public var written: [String]
  /// Wall-clock seconds of the run.
  public var seconds: Double
  /// Where tokens and fonts came from: `themes: <folder> (<why>) · fonts: …` (see `RenderSources`).
  public var sources: String?
  /// Why the resolved tokens are not the ones the references were recorded with; a run with one fails.
  public var tokenDifference: String?
  /// The case files of the selection that could not be read; each fails the run as an error row.
  public var caseErrors: [SnapshotCaseError]
  /// The files the run read (case files, references, icons, the themes folder's files, font
  /// files), which none of the files written from the report (artifacts, review page, JUnit) may replace.
  public var inputFiles = InputFiles()
  /// Temporary files of an interrupted earlier run that `record` removed, relative to the snapshots folder.
  public var removedTemporaryFiles: [String] = []

  /// Creates a report.
  public init(
    outcomes: [SnapshotOutcome], environmentDifferences: [String] = [],
    environment: SnapshotEnvironment? = nil, written: [String] = [], seconds: Double = 0,
    sources: String? = nil, tokenDifference: String? = nil, caseErrors: [SnapshotCaseError] = [],
    inputFiles: InputFiles = InputFiles()
  ) {
    self.inputFiles = inputFiles
    self.caseErrors = caseErrors
    self.outcomes = outcomes
    self.environmentDifferences = environmentDifferences
    self.environment = environment
    self.written = written
    self.seconds = seconds
    self.sources = sources
    self.tokenDifference = tokenDifference
  }

  /// The outcomes that fail the run.
  public var failures: [SnapshotOutcome] { outcomes.filter(\.isFailure) }

  /// Whether every reference passed (or was recorded), every case file could be read and the
  /// tokens are the references' own.
  public var succeeded: Bool { failures.isEmpty && caseErrors.isEmpty && tokenDifference == nil }

  /// How many outcomes have `status`.
  public func count(_ status: SnapshotOutcome.Status) -> Int {
    outcomes.filter { $0.status == status }.count
  }

  /// The environment headline, `environment differs: tokens: …; pango …`, or nil when the tokens
  /// and the stack match. The token difference comes first: it fails the run.
  public var environmentHeadline: String? {
    let lines = (tokenDifference.map { [$0] } ?? []) + environmentDifferences
    return lines.isEmpty ? nil : "environment differs: " + lines.joined(separator: "; ")
  }
}
