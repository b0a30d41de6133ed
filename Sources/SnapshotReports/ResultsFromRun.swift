import Graphics
import PixelDiff
import Primitives
import SafeInput
import Snapshot
import Themes

extension SnapshotRunResults {
  /// The results of a run, with paths written relative to `root` (as the run saw them when nil).
  ///
  /// - Parameters:
  ///   - selection: the part of the catalogue the run covered (the catalogue's total unknown: 0).
  ///   - acceptOptions: the options an accept command repeats, shell-quoted.
  ///   - artifacts: the artifact files written per reference id, name → path relative to the
  ///     artifacts folder (``SnapshotArtifacts/write(_:to:suiteName:acceptCommand:)``).
  ///   - artifactDigests: the SHA-256 of each of those files, per reference id and name.
  public init(
    _ report: SnapshotRunReport, root: RepositoryRoot?, selection: Selection? = nil,
    acceptOptions: String = "",
    artifacts: [String: [String: String]] = [:],
    artifactDigests: [String: [String: String]] = [:]
  ) {
    func path(_ path: String) -> String { root?.relative(path) ?? path }
    func text(_ text: String) -> String { root?.relativized(text) ?? text }
    var fonts: [Font] = []
    for set in SnapshotEnvironment.fontSetOrder(report.loadedFonts.keys) {
      for font in report.loadedFonts[set] ?? [] {
        fonts.append(
          Font(
            theme: set, role: font.role, family: font.family, file: font.fileName,
            sha256: font.sha256,
            folder: path(font.folder)))
      }
    }
    self.init(
      snapshots: report.snapshotsDirectory.map { path($0.path) },
      themes: report.themesLocation.map {
        ThemesFolder(folder: path($0.directory.path), reason: $0.source.reason)
      },
      renderStack: report.environment?.renderStack ?? RenderStack.current(),
      tokensSHA256: report.environment?.tokensSHA256, fonts: fonts,
      recordedEnvironment: report.recordedEnvironment,
      tokenDifference: report.tokenDifference.map(text),
      selection: selection ?? Selection(catalogueReferences: 0), acceptOptions: acceptOptions,
      seconds: SnapshotRunResults.rounded(report.seconds),
      caseErrors: report.caseErrors.map {
        SnapshotCaseError(name: $0.name, file: $0.file, message: text($0.message))
      },
      references: report.outcomes.map {
        ReferenceResult(
          $0, root: root, artifacts: artifacts[$0.reference.id] ?? [:],
          artifactDigests: artifactDigests[$0.reference.id] ?? [:])
      })
    self.environmentDifferences = report.environmentDifferences.map(text)
    self.tokenCauses = report.tokenCauses
    self.tolerance = report.tolerance
  }
}

extension ReferenceResult {
  /// The result of one outcome, with the paths in its messages relative to `root` (as they are when nil).
  public init(
    _ outcome: SnapshotOutcome, root: RepositoryRoot? = nil, artifacts: [String: String] = [:],
    artifactDigests: [String: String] = [:]
  ) {
    func text(_ text: String) -> String { root?.relativized(text) ?? text }
    let reference = outcome.reference
    var images: [Image: PixelSize] = [:]
    if let evidence = outcome.evidence {
      let actual = PixelSize(width: evidence.actualImage.width, height: evidence.actualImage.height)
      let expected = evidence.expectedImage.map { PixelSize(width: $0.width, height: $0.height) }
      images[.actual] = actual
      if evidence.expectedPNG != nil {
        // A comparison that passed had pictures of one size; an undecodable PNG has none to show.
        if let expected {
          images[.expected] = expected
        } else if outcome.diff?.passes == true {
          images[.expected] = actual
        }
      }
      if let expected, outcome.diff != nil {
        images[.diff] = PixelSize(
          width: max(expected.width, actual.width), height: max(expected.height, actual.height))
      }
    } else if let written = outcome.failure?.written {
      // The same sizes, from the record the evidence left when it was written to disk.
      let actual = written.actualSize
      images[.actual] = actual
      if written.hasExpectedPNG {
        if let expected = written.expectedSize {
          images[.expected] = expected
        } else if outcome.diff?.passes == true {
          images[.expected] = actual
        }
      }
      if let expected = written.expectedSize, outcome.diff != nil {
        images[.diff] = PixelSize(
          width: max(expected.width, actual.width), height: max(expected.height, actual.height))
      }
    }
    self.init(
      caseName: reference.caseName, variant: reference.variant.name,
      theme: reference.variant.theme.rawValue,
      mode: reference.variant.mode.rawValue, imagePath: reference.imagePath,
      layoutPath: reference.layoutPath,
      status: outcome.status, reason: MessageText.escaped(text(outcome.reason)),
      message: outcome.message.map(text),
      pixels: outcome.diff.map(PixelComparison.init),
      layoutCompared: outcome.status == .passed || outcome.status == .changed
        || outcome.evidence?.expectedLayout != nil
        || outcome.failure?.written?.hasExpectedLayout == true,
      seconds: SnapshotRunResults.rounded(outcome.seconds),
      images: images,
      artifacts: artifacts, artifactDigests: artifactDigests, tolerance: outcome.tolerance)
    // The outcome's string, shared, not a copy.
    self.layoutDiffLines = outcome.layoutDiffLines
    self.explainedBy = outcome.explainedBy
    self.referenceDigests = outcome.referenceDigests
  }
}
