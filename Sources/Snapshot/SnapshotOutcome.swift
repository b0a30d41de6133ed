import Fonts
import Graphics
import PNG
import PixelDiff
import Primitives
import SafeInput
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What happened to one reference in a verify or record run.
public struct SnapshotOutcome: Sendable {
  /// The result of one reference, without its details.
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
  /// The result, with what each kind of result carries.
  public var result: SnapshotResult
  /// Seconds spent on this reference.
  public var seconds: Double

  /// Creates an outcome.
  public init(
    reference: SnapshotReference, result: SnapshotResult, seconds: Double = 0,
    tolerance: SnapshotTolerance = SnapshotTolerance()
  ) {
    self.reference = reference
    self.result = result
    self.seconds = seconds
    self.tolerance = tolerance
  }

  /// The tolerance the pixels were held to: the run's, with the keys the case file gives for this
  /// variant replacing its own; exact unless one was set.
  public var tolerance: SnapshotTolerance

  /// What explains a `changed` reference: the changed tokens its own theme and mode read
  /// (``SnapshotEnvironment/TokenCause/token``), then the render-stack libraries and the font
  /// files of its own font set that differ from `ENVIRONMENT.json`
  /// (``SnapshotEnvironment/stackAndFontCauses(_:fontSet:)``). Empty when none does: the change
  /// is the reference's own, and no token or font change may hide it.
  public var explainedBy: [String] = []

  /// The SHA-256 (lower-case hex) of the reference PNG and layout JSON as this run read and
  /// compared them; nil for a file that was not there (or not read). What `snapshot merge` and
  /// `snapshot accept` hold the references here against, so that no shard has to read the
  /// other shards' references to prove the catalogue unchanged.
  public var referenceDigests = ReferenceDigests()

  /// The colours (`#RRGGBB` or `#RRGGBBAA`, upper case) that its render's layout JSON and its
  /// reference's name: what the list draws (text, links, marker tints, background). A changed
  /// colour token explains the reference only when it draws the token's old or new value.
  public var drawnColors: Set<String> = []

  /// The quoted colours of a layout JSON text: each `"#` followed by 6 or 8 hex digits and `"`.
  public static func colors(in layoutJSON: String) -> Set<String> {
    var found = Set<String>()
    let bytes = Array(layoutJSON.utf8)
    var index = 0
    while index + 2 < bytes.count {
      defer { index += 1 }
      guard bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "#") else {
        continue
      }
      var end = index + 2
      while end < bytes.count, end - index - 2 < 8,
        (48...57).contains(bytes[end]) || (65...70).contains(bytes[end])
          || (97...102).contains(bytes[end])
      {
        end += 1
      }
      let digits = end - index - 2
      if end < bytes.count, bytes[end] == UInt8(ascii: "\""), digits == 6 || digits == 8 {
        found.insert(String(decoding: bytes[(index + 1)..<end], as: UTF8.self).uppercased())
      }
    }
    return found
  }

  /// The result without its details.
  public var status: Status {
    switch result {
    case .passed: return .passed
    case .recorded: return .recorded
    case .skipped: return .skipped
    case .failed(let failure):
      switch failure.kind {
      case .changed: return .changed
      case .missing: return .missing
      case .error: return .error
      }
    }
  }

  /// The failure, when the reference makes the run fail.
  public var failure: SnapshotFailure? {
    if case .failed(let failure) = result { return failure }
    return nil
  }

  /// What a person needs to see a failure (the render, the reference), when the render succeeded.
  public var evidence: FailureEvidence? { failure?.evidence }

  /// The pixel comparison, when both images existed.
  public var diff: DiffResult? {
    switch result {
    case .passed(let diff): return diff
    case .failed(let failure): return failure.diff
    case .recorded, .skipped: return nil
    }
  }

  /// The unified diff of the layout JSON reference against the render; empty when equal.
  public var layoutDiff: [String] { failure?.layoutDiff ?? [] }
  /// ``layoutDiff`` as one string (``TextLines``).
  public var layoutDiffLines: TextLines { failure?.layoutDiffLines ?? TextLines() }

  /// The files this run wrote for the reference, relative to the references folder (PNG first).
  public var written: [String] {
    if case .recorded(let written) = result { return written }
    return []
  }

  /// A one-line explanation for `missing`, `error`, `recorded` (`wrote <files>`) and `skipped`.
  public var message: String? {
    switch result {
    case .passed: return nil
    case .recorded(let written): return "wrote " + written.joined(separator: ", ")
    case .skipped(let reason): return reason
    case .failed(let failure): return failure.message
    }
  }

  /// Whether this reference makes the run fail: changed, missing or an error.
  public var isFailure: Bool { failure != nil }

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

/// What happened to one reference, with what each result carries.
public enum SnapshotResult: Sendable {
  /// The render matches the reference; the pixel comparison (identical, or within tolerance),
  /// nil when a record run found nothing to rewrite without comparing.
  case passed(DiffResult?)
  /// This run wrote the reference's files: paths relative to the references folder, PNG first.
  case recorded(written: [String])
  /// Not looked at, and why (record `--missing` leaves existing references alone).
  case skipped(reason: String)
  /// The reference makes the run fail.
  case failed(SnapshotFailure)
}

/// Why a reference fails a run, and the evidence.
public struct SnapshotFailure: Sendable {
  /// How it fails.
  public enum Kind: String, Sendable {
    /// The pixels or the layout JSON differ from the reference.
    case changed
    /// The reference PNG or layout JSON does not exist.
    case missing
    /// The case could not be rendered or the reference could not be read.
    case error
  }

  /// How it fails.
  public var kind: Kind
  /// The pixel comparison, when both images existed and the reference PNG decoded.
  public var diff: DiffResult?
  /// The unified diff of the layout JSON reference against the render; empty when equal or absent.
  public var layoutDiff: [String] {
    get { layoutDiffLines.lines }
    set { layoutDiffLines = TextLines(newValue) }
  }
  /// ``layoutDiff``, held as one string until the run's end (``TextLines``).
  public var layoutDiffLines: TextLines
  /// A one-line explanation (always set for `missing` and `error`).
  public var message: String?
  /// The render and the reference, when the render succeeded and they are still in memory.
  public var evidence: FailureEvidence?
  /// The artifact files the evidence was written to as the run made it (then ``evidence`` is
  /// nil: a run keeps no failure's pictures in memory), or nil.
  public var written: WrittenEvidence?

  /// Creates a failure.
  public init(
    kind: Kind, diff: DiffResult? = nil, layoutDiff: [String] = [], message: String? = nil,
    evidence: FailureEvidence? = nil
  ) {
    self.kind = kind
    self.diff = diff
    self.layoutDiffLines = TextLines(layoutDiff)
    self.message = message
    self.evidence = evidence
  }
}

/// The files behind a failure: the fresh render, and the reference as far as it exists.
public struct FailureEvidence: Sendable {
  /// The fresh render.
  public var actualImage: RasterImage
  /// The render's layout JSON.
  public var actualLayout: String
  /// The reference PNG's bytes, when the file exists.
  public var expectedPNG: Data?
  /// The decoded reference, when its pixels differ from the render.
  public var expectedImage: RasterImage?
  /// The reference's layout JSON, when the file exists.
  public var expectedLayout: String?

  /// Creates the evidence of a failure.
  public init(
    actualImage: RasterImage, actualLayout: String, expectedPNG: Data? = nil,
    expectedImage: RasterImage? = nil,
    expectedLayout: String? = nil
  ) {
    self.actualImage = actualImage
    self.actualLayout = actualLayout
    self.expectedPNG = expectedPNG
    self.expectedImage = expectedImage
    self.expectedLayout = expectedLayout
  }
}

/// What is left of a failure's evidence once its artifact files are written: their names and
/// digests, and the pictures' sizes (the review page lays out with them).
public struct WrittenEvidence: Hashable, Sendable {
  /// The files written into the reference's artifact folder (``SnapshotArtifacts/folder(for:)``),
  /// by name (`expected.png`…), with the SHA-256 of each (lower-case hex).
  public var digests: [String: String]
  /// The size of the fresh render.
  public var actualSize: PixelSize
  /// The size of the decoded reference, when its pixels were compared.
  public var expectedSize: PixelSize?
  /// Whether the reference PNG existed (and was copied as `expected.png`).
  public var hasExpectedPNG: Bool
  /// Whether a reference layout JSON was read.
  public var hasExpectedLayout: Bool

  /// Creates a record.
  public init(
    digests: [String: String], actualSize: PixelSize, expectedSize: PixelSize?,
    hasExpectedPNG: Bool, hasExpectedLayout: Bool
  ) {
    self.digests = digests
    self.actualSize = actualSize
    self.expectedSize = expectedSize
    self.hasExpectedPNG = hasExpectedPNG
    self.hasExpectedLayout = hasExpectedLayout
  }
}

/// Takes each failure as a run makes it (from the worker that made it), with the files the run
/// reads, and returns the outcome to keep: `verify` writes the evidence to disk and keeps
/// ``WrittenEvidence`` in its place, so memory does not grow with the number of failures.
public typealias EvidenceSink = @Sendable (SnapshotOutcome, InputFiles) -> SnapshotOutcome

/// The result of a verify or record run over a selection of the catalogue.
public struct SnapshotRunReport: Sendable {
  /// One outcome per selected reference, sorted by id.
  public var outcomes: [SnapshotOutcome]
  /// Lines saying how this machine's render stack differs from `ENVIRONMENT.json`; empty when equal.
  public var environmentDifferences: [String]
  /// The fingerprint of this machine for the themes that were rendered.
  public var environment: SnapshotEnvironment?
  /// Files this run wrote, relative to the snapshots folder: each recorded reference's files in id
  /// order (``SnapshotOutcome/written``), then `ENVIRONMENT.json` when it changed.
  public var written: [String]
  /// Wall-clock seconds of the run.
  public var seconds: Double
  /// Where tokens and fonts came from: `themes: <folder> (<why>) · fonts: …` (see `RenderSources`).
  public var sources: String?
  /// Why the resolved tokens are not the ones the references were recorded with; a run with one fails.
  public var tokenDifference: String?
  /// The case files of the selection that could not be read; each fails the run as an error row.
  public var caseErrors: [SnapshotCaseError]
  /// The run's tolerance (`verify --max-diff-pixels`, `--max-diff-ratio`); exact by default.
  public var tolerance = SnapshotTolerance()
  /// The files the run read (case files, references, icons, the themes folder's files, font
  /// files), which none of the files written from the report (artifacts, review page, JUnit) may replace.
  public var inputFiles = InputFiles()
  /// Temporary files of an interrupted earlier run that `record` removed, relative to the snapshots folder.
  public var removedTemporaryFiles: [String] = []
  /// The snapshots folder the run read, when the report comes from an engine.
  public var snapshotsDirectory: URL?
  /// The themes folder the run read and why, when the report comes from an engine.
  public var themesLocation: ThemesLocation?
  /// The font files each rendered font set (`orange`, `orange/android`) loaded, in load order
  /// (what ``sources`` lists).
  public var loadedFonts: [String: [LoadedFont]] = [:]
  /// `ENVIRONMENT.json` as the run read it, nil when there was none or it could not be read.
  public var recordedEnvironment: SnapshotEnvironment?
  /// The tokens whose change explains failures (``SnapshotEnvironment/tokenCauses(in:)``);
  /// empty when the tokens are the references' or no values were recorded.
  public var tokenCauses: [SnapshotEnvironment.TokenCause] = []

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

/// How far a verify or record run has got, reported after each reference (for a progress line).
public struct SnapshotProgress: Sendable, Equatable {
  /// References done so far.
  public var completed: Int
  /// Of those, the ones that fail the run (changed, missing or an error).
  public var failed: Int
  /// References in the run.
  public var total: Int

  /// Creates a progress value.
  public init(completed: Int, failed: Int, total: Int) {
    self.completed = completed
    self.failed = failed
    self.total = total
  }
}

/// The SHA-256 of a reference's two files as a run read them (``SnapshotOutcome/referenceDigests``).
public struct ReferenceDigests: Hashable, Sendable {
  /// The PNG's, or nil when the run did not read one.
  public var png: String?
  /// The layout JSON's, or nil when the run did not read one.
  public var layout: String?

  /// Creates the digests.
  public init(png: String? = nil, layout: String? = nil) {
    self.png = png
    self.layout = layout
  }
}
