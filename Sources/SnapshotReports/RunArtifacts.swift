import BulletListRenderer
import Dispatch
import Fonts
import Graphics
import PNG
import PixelDiff
import Primitives
import SafeInput
import Snapshot
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension SnapshotArtifacts {
  /// What ``write(_:to:suiteName:acceptCommand:)`` wrote.
  public struct Written: Hashable, Sendable {
    /// Every file written, absolute paths, sorted; `junit.xml` and `summary.txt` last.
    public var files: [String]
    /// The artifact files of each failure by reference id: name (`expected.png`…) → path
    /// relative to the artifacts folder.
    public var byReference: [String: [String: String]]
    /// The SHA-256 of each of those files, by reference id and name (lower-case hex): what
    /// `snapshot accept` holds the files it takes against.
    public var digests: [String: [String: String]]

    /// Creates a record (nothing written: all empty).
    public init(
      files: [String] = [], byReference: [String: [String: String]] = [:],
      digests: [String: [String: String]] = [:]
    ) {
      self.files = files
      self.byReference = byReference
      self.digests = digests
    }
  }

  /// Writes the artifacts of every failure of `report` (encoding in parallel), `junit.xml` (the
  /// images of each failure attached) and `summary.txt` (the table, with `acceptCommand`s), their
  /// paths relative to `root`.
  ///
  /// Per-reference folders left by an earlier run in a folder this tool wrote are removed first, so
  /// the folder only shows the failures of this run.
  /// - Returns: the files written.
  ///
  /// Failures whose evidence `streamed` already wrote (``StreamingArtifacts``) are not written again.
  @discardableResult
  public static func write(
    _ report: SnapshotRunReport, to directory: URL, suiteName: String = "ouds-snapshots",
    acceptCommand: (ReferenceResult) -> String = { _ in "" }, root: RepositoryRoot = .find(),
    streamed: StreamingArtifacts? = nil
  ) throws -> Written {
    let inputs = report.inputFiles
    if let streamed {
      try streamed.prepare(inputs: inputs)
    } else {
      try prepare(directory, inputs: inputs)
    }
    let failures = report.failures
    let written = Locked<[(reference: String, name: String, path: String, sha256: String)]>([])
    let errors = Locked<[WriteFailure]>([])
    DispatchQueue.concurrentPerform(iterations: failures.count) { index in
      let outcome = failures[index]
      let relativeFolder = folder(for: outcome.reference)
      if let record = outcome.failure?.written {
        written.withLock { list in
          for (name, digest) in record.digests.sorted(by: { $0.key < $1.key }) {
            list.append((outcome.reference.id, name, relativeFolder + "/" + name, digest))
          }
        }
        return
      }
      let folder = directory.appendingPathComponent(relativeFolder)
      do {
        for (name, data) in try files(for: outcome) {
          let path = folder.appendingPathComponent(name).path
          try AtomicFile.write(data, to: path, createDirectories: true, protecting: inputs)
          let digest = SHA256Digest.hex(of: data)
          written.withLock {
            $0.append((outcome.reference.id, name, relativeFolder + "/" + name, digest))
          }
        }
      } catch {
        errors.withLock { $0.append((outcome.reference.id, "\(error)")) }
      }
    }
    if let first = firstFailure(errors.withLock { $0 }) {
      throw SnapshotError.artifactsNotWritten(reference: first.reference, reason: first.reason)
    }
    let writtenFiles = written.withLock { $0 }
    var byReference: [String: [String: String]] = [:]
    var digests: [String: [String: String]] = [:]
    for file in writtenFiles {
      byReference[file.reference, default: [:]][file.name] = file.path
      digests[file.reference, default: [:]][file.name] = file.sha256
    }
    // JUnit is for a CI server: paths relative to the repository root, images attached from here.
    let results = SnapshotRunResults(
      report, root: root, artifacts: byReference, artifactDigests: digests)
    let artifactsFolder = root.relative(directory.path)
    let junit = directory.appendingPathComponent("junit.xml").path
    try JUnitXML.write(
      results, suiteName: suiteName,
      attachments: { reference in
        ReferenceResult.Image.attachmentOrder.filter { reference.images[$0] != nil }.compactMap {
          image in
          reference.artifacts[image.fileName].map { JUnitXML.joinPath(artifactsFolder, $0) }
        }
      }, to: junit, protecting: inputs)
    // The table as verify prints it, paths relative to the root.
    let summary = directory.appendingPathComponent("summary.txt").path
    try AtomicFile.write(
      Data(SnapshotSummary.text(results, acceptCommand: acceptCommand).utf8), to: summary,
      createDirectories: true,
      protecting: inputs)
    let paths = writtenFiles.map { directory.appendingPathComponent($0.path).path }.sorted()
    return Written(files: paths + [junit, summary], byReference: byReference, digests: digests)
  }

  /// Clears what an earlier run left in `directory` (when this tool wrote it) and marks it.
  static func prepare(_ directory: URL, inputs: InputFiles) throws {
    if FileManager.default.fileExists(atPath: directory.appendingPathComponent(markerFileName).path)
    {
      removeStaleFolders(in: directory)
    }
    try AtomicFile.write(
      Data(), to: directory.appendingPathComponent(markerFileName).path, createDirectories: true,
      protecting: inputs)
  }

  /// Removes the per-reference folders an earlier run wrote into `directory`, and nothing else: a
  /// `<case>/<variant>/` folder (real folders, not links) that holds only artifact files
  /// (``fileNames``) goes, then its case folder if that is left empty, and the run's own
  /// `junit.xml`, `summary.txt` and `results.json`. References, case files or
  /// any other file of a folder that happens to hold the marker (`verify --results Snapshots`) stay.
  static func removeStaleFolders(in directory: URL) {
    // Only in a real folder: through a link it would reach wherever the link leads.
    guard UserFile.type(atPath: directory.path) == .directory else { return }
    let fm = FileManager.default
    func entries(_ folder: URL) -> [String] {
      (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
    }
    for name in ["junit.xml", "summary.txt", SnapshotRunResults.fileName] {
      let file = directory.appendingPathComponent(name)
      if UserFile.type(atPath: file.path) == .regular { try? fm.removeItem(at: file) }
    }
    for caseName in entries(directory) where !caseName.hasPrefix(".") {
      let caseFolder = directory.appendingPathComponent(caseName)
      guard UserFile.type(atPath: caseFolder.path) == .directory else { continue }
      var removed = false
      for variant in entries(caseFolder) {
        let folder = caseFolder.appendingPathComponent(variant)
        guard UserFile.type(atPath: folder.path) == .directory else { continue }
        let onlyArtifacts = entries(folder).allSatisfy {
          fileNames.contains($0)
            && UserFile.type(atPath: folder.appendingPathComponent($0).path) == .regular
        }
        if onlyArtifacts && (try? fm.removeItem(at: folder)) != nil { removed = true }
      }
      if removed && entries(caseFolder).isEmpty { try? fm.removeItem(at: caseFolder) }
    }
  }

}

/// Writes the artifact files of each failure as the run makes it (``EvidenceSink``), so that no
/// failure's pictures stay in memory until the end of the run: the engine keeps the
/// ``WrittenEvidence`` instead. The folder is cleared of an earlier run's files once, before the
/// first failure is written (or by ``SnapshotArtifacts/write(_:to:suiteName:acceptCommand:root:streamed:)``
/// when nothing failed). A failure whose files cannot be written keeps its evidence, and the
/// final write reports the error.
public final class StreamingArtifacts: Sendable {
  /// The artifacts folder.
  public let directory: URL
  private let prepared = Locked<Bool>(false)

  /// A writer into `directory`.
  public init(directory: URL) {
    self.directory = directory
  }

  /// Clears and marks the folder, once.
  func prepare(inputs: InputFiles) throws {
    try prepared.withLock { (done: inout Bool) throws in
      guard !done else { return }
      try SnapshotArtifacts.prepare(directory, inputs: inputs)
      done = true
    }
  }

  /// The sink to hand to ``Snapshot/SnapshotEngine/verify(_:caseErrors:progress:evidence:)``.
  public var sink: EvidenceSink {
    { [self] outcome, inputs in
      guard var failure = outcome.failure, let evidence = failure.evidence else { return outcome }
      let folder = directory.appendingPathComponent(
        SnapshotArtifacts.folder(for: outcome.reference))
      do {
        try prepare(inputs: inputs)
        var digests: [String: String] = [:]
        for (name, data) in try SnapshotArtifacts.files(for: outcome) {
          try AtomicFile.write(
            data, to: folder.appendingPathComponent(name).path, createDirectories: true,
            protecting: inputs)
          digests[name] = SHA256Digest.hex(of: data)
        }
        failure.written = WrittenEvidence(
          digests: digests,
          actualSize: PixelSize(
            width: evidence.actualImage.width, height: evidence.actualImage.height),
          expectedSize: evidence.expectedImage.map {
            PixelSize(width: $0.width, height: $0.height)
          },
          hasExpectedPNG: evidence.expectedPNG != nil,
          hasExpectedLayout: evidence.expectedLayout != nil)
        failure.evidence = nil
      } catch {
        return outcome
      }
      var kept = outcome
      kept.result = .failed(failure)
      return kept
    }
  }
}

/// How a run's text summary is laid out for its reader: colours for a terminal, and how many
/// failures are told in full before the table stands alone.
public struct SummaryFormat: Sendable {
  /// What a highlighted word says: the painter picks a colour for it.
  public enum Tone: Sendable, Hashable {
    /// A failure (`changed`, `missing`, `error`, `failed`).
    case failure
    /// Something to look at that does not fail by itself (`layout`, `environment differs`).
    case warning
    /// Success (`passed`).
    case success
  }

  /// Returns `text` marked in `tone` (for example wrapped in ANSI colour codes); the plain format
  /// returns it unchanged. Called on whole, already padded cells, so column widths never count the marks.
  public var paint: @Sendable (_ text: String, _ tone: Tone) -> String
  /// Up to this many failing rows (failures and broken case files), each also gets a block with
  /// its pixels, regions, message, layout diff and accept command; with more, the table stands alone.
  public var detailLimit: Int
  /// Rows of the table shown when it stands alone; the rest are one line `… and N more, see <elsewhere>`.
  public var rowLimit: Int
  /// Where the rows left out can be read, after `see `: `the artifacts in .build/snapshot-artifacts`.
  public var elsewhere: String

  /// Creates a format.
  public init(
    paint: @escaping @Sendable (_ text: String, _ tone: Tone) -> String = { text, _ in text },
    detailLimit: Int = .max, rowLimit: Int = .max, elsewhere: String = "the artifacts"
  ) {
    self.paint = paint
    self.detailLimit = detailLimit
    self.rowLimit = rowLimit
    self.elsewhere = elsewhere
  }

  /// Every failure in full, no colour: the artifacts' `summary.txt`, and anything read later.
  public static let full = SummaryFormat()

  /// Failing rows told in full in a terminal's summary, at most (more print the table alone).
  public static let terminalDetailLimit = 5
  /// Rows of the table alone in a terminal's summary, at most.
  public static let terminalRowLimit = 20

  /// What a person reads at the end of a run: blocks for up to ``terminalDetailLimit`` failures,
  /// else the table alone, capped at ``terminalRowLimit`` rows and pointing to `elsewhere` for the rest.
  public static func compact(
    elsewhere: String,
    paint: @escaping @Sendable (_ text: String, _ tone: Tone) -> String = { text, _ in text }
  ) -> SummaryFormat {
    SummaryFormat(
      paint: paint, detailLimit: terminalDetailLimit, rowLimit: terminalRowLimit,
      elsewhere: elsewhere)
  }

  /// The tone of a status as a person reads it (``ReferenceResult/displayStatus``).
  static func tone(ofStatus status: String) -> Tone? {
    switch status {
    case "changed", "missing", "error", "environment": return .failure
    case "layout": return .warning
    case "passed", "recorded": return .success
    default: return nil
    }
  }

  /// `text` painted in the tone of `status`, or unchanged when the status has none.
  func paint(_ text: String, status: String) -> String {
    Self.tone(ofStatus: status).map { paint(text, $0) } ?? text
  }
}

/// The plain-text summary of a run, as printed by `ouds-render snapshot verify` and `merge`.
public enum SnapshotSummary {
  /// Layout diff lines shown per failure before eliding the rest.
  public static let maxLayoutLines = SnapshotArtifacts.maxLayoutLines

  /// The failure table of a run's report (paths as the run saw them): see ``text(_:acceptCommand:format:)-swift.type.method``.
  public static func text(
    _ report: SnapshotRunReport, acceptCommand: (ReferenceResult) -> String = { _ in "" },
    acceptAll: String? = nil, format: SummaryFormat = .full
  ) -> String {
    text(
      SnapshotRunResults(report, root: nil), acceptCommand: acceptCommand, acceptAll: acceptAll,
      format: format)
  }

  /// The failure table: where tokens and fonts came from, the environment, then one block per
  /// failure, then the totals.
  ///
  /// With more failing rows than `format.detailLimit`, the blocks are left out and the table is
  /// cut at `format.rowLimit` rows, followed by `… and N more, see <elsewhere>`: the details stay
  /// in the artifacts and the report.
  ///
  /// The references that a token, font or stack difference of their own explains
  /// (``ReferenceResult/explainedBy``) are one `environment` row per cause, without accept commands
  /// of their own: re-recording one of them cannot fix the others. Every other failure keeps its
  /// own row, block and accept command, and says that no difference explains it. `acceptAll`, when
  /// given, is the command that records them all if the change is intended.
  public static func text(
    _ results: SnapshotRunResults, acceptCommand: (ReferenceResult) -> String = { _ in "" },
    acceptAll: String? = nil, format: SummaryFormat = .full
  ) -> String {
    var lines: [String] = []
    if let sources = results.sourcesSummary { lines.append(sources) }
    let environment = EnvironmentRow(results)
    // With the row, the headline keeps only what the row does not say (library versions).
    if let headline = environment == nil ? results.environmentHeadline : environment?.headline {
      lines.append(format.paint(headline, .warning))
    }
    // One change seen in several references is shown once, by its first reference.
    let changeGroups = results.changeGroups
    var sameChange: [String: ChangeGroup] = [:]
    var hidden = Set<String>()
    for group in changeGroups {
      guard let first = group.references.first else { continue }
      sameChange[first.id] = group
      for reference in group.references.dropFirst() { hidden.insert(reference.id) }
    }
    let failures = (environment?.others ?? results.failures).filter { !hidden.contains($0.id) }
    lines += table(
      failures, caseErrors: results.caseErrors, environment: environment?.what ?? [],
      format: format)
    let rows = failures.count + results.caseErrors.count + (environment?.what.count ?? 0)
    // The groups' headlines are said even when the table stands alone: they are the causes.
    guard rows <= format.detailLimit else {
      lines += (environment?.headlines ?? []).map { format.paint("CAUSE  ", .failure) + " " + $0 }
      lines += changeGroups.map { group in
        format.paint("CHANGE ", .failure) + " " + group.headline + ": "
          + (group.references.first?.id ?? "") + " and "
          + FailureGroup.grouped(group.references.count - 1) + " more (--list prints every one)"
      }
      lines.append(totals(results, format: format))
      return lines.joined(separator: "\n") + "\n"
    }
    if let environment {
      let what = environment.groups.isEmpty ? "tokens" : "explained failures"
      lines.append(format.paint("ENVIRONMENT", .failure) + " \(what)")
      lines += environment.details(acceptAll: acceptAll).map { "        " + $0 }
    }
    let explaining = environment != nil || !results.environmentDifferences.isEmpty
    for caseError in results.caseErrors {
      lines.append(format.paint("ERROR  ", .failure) + " \(caseError.id)")
      lines.append("        \(caseError.message)")
    }
    for reference in failures {
      let status = reference.displayStatus
      let label = status.uppercased().padded(toLength: 7)
      lines.append("\(format.paint(label, status: status)) \(reference.id)")
      lines.append("        case \(reference.caseName), variant \(reference.variant)")
      if let pixels = reference.pixels, pixels != .identical {
        switch pixels {
        case .sizeMismatch(let expected, let actual):
          lines.append("        size changed: reference \(expected), render \(actual)")
        default:
          lines.append(
            "        pixels: \(pixels.changedPixels) changed, ratio \(String(cFormat: "%.5f", pixels.changedRatio))"
              + (pixels.antiAliasedPixels > 0
                ? ", \(pixels.antiAliasedPixels) anti-aliased ignored" : ""))
          if let statistics = pixels.statistics, !statistics.regions.isEmpty {
            let boxes = statistics.regions.map { "[\($0.x),\($0.y) \($0.width)×\($0.height)]" }
              .joined(separator: " ")
            lines.append(
              "        changed regions (x,y w×h px): \(boxes)"
                + (statistics.omittedRegions > 0 ? " and \(statistics.omittedRegions) more" : ""))
          }
        }
      } else if reference.pixels == .identical {
        lines.append("        pixels: identical")
      }
      if let message = reference.message { lines.append("        \(message)") }
      if explaining, reference.status == .changed {
        lines.append(
          "        not explained by the environment difference: its list reads no token changed in \(reference.theme)/\(reference.mode), and its fonts and render stack are the references'"
        )
      }
      if reference.layoutDiffCount > 0 {
        lines.append("        layout JSON (\(reference.layoutPath)):")
        for line in reference.layoutDiff.prefix(maxLayoutLines) {
          lines.append("          " + line)
        }
        if reference.layoutDiffCount > maxLayoutLines {
          lines.append(
            "          … \(reference.layoutDiffCount - maxLayoutLines) more lines in layout.diff")
        }
      }
      let accept = acceptCommand(reference)
      if !accept.isEmpty { lines.append("        accept: \(accept)") }
      if let group = sameChange[reference.id] {
        let others = group.references.dropFirst()
        let shown = others.prefix(EnvironmentRow.idsShown)
        lines.append(
          "        \(group.headline); the others: \(shown.map(\.id).joined(separator: ", "))"
            + (others.count > shown.count
              ? " and \(others.count - shown.count) more (--list prints every one)" : ""))
      }
    }
    lines += withinToleranceLines(results, format: format)
    lines.append(totals(results, format: format))
    return lines.joined(separator: "\n") + "\n"
  }

  /// The passed references whose pixels differ within their tolerance, one line each (at most
  /// ``SummaryFormat/terminalRowLimit``): `PASSED  <id>: within tolerance (12 pixels; at most 20
  /// pixels)`. A tolerance that lets changes through is said, never silent.
  static func withinToleranceLines(_ results: SnapshotRunResults, format: SummaryFormat)
    -> [String]
  {
    let within = results.references.filter(\.isWithinTolerance)
    var lines = within.prefix(SummaryFormat.terminalRowLimit).map { reference in
      "\(format.paint("PASSED ", .success)) \(reference.id): \(withinTolerance(reference))"
    }
    if within.count > SummaryFormat.terminalRowLimit {
      lines.append(
        "        … and \(within.count - SummaryFormat.terminalRowLimit) more within tolerance")
    }
    return lines
  }

  /// `within tolerance (12 pixels; at most 20 pixels)`.
  public static func withinTolerance(_ reference: ReferenceResult) -> String {
    let pixels = reference.pixels?.changedPixels ?? 0
    return "within tolerance (\(pixels) pixel\(pixels == 1 ? "" : "s"); \(reference.tolerance))"
  }

  /// The status a person reads: `layout` for a change of the layout JSON alone (pixels pass), else the status.
  public static func displayStatus(_ outcome: SnapshotOutcome) -> String {
    ReferenceResult(outcome).displayStatus
  }

  /// The rows that stand for the references a token, font or stack difference of their own
  /// explains: one per group of one cause (``SnapshotRunResults/failureGroups``), or one
  /// `environment tokens` row when the tokens differ and no reference changed with them.
  struct EnvironmentRow {
    /// The REFERENCE cell of each row: `tokens`, or `1,248 references: <first cause>`.
    var what: [String]
    /// The token difference, when the tokens differ.
    var tokens: String?
    /// The lines about font files.
    var fonts: [String]
    /// The environment lines left for the headline (library versions), nil when none.
    var headline: String?
    /// The explained references, one group per cause.
    var groups: [FailureGroup]
    /// The failures no difference explains (regressions, missing references, errors): each keeps
    /// its own row and accept command.
    var others: [ReferenceResult]
    /// The groups' headlines (``FailureGroup/headline(_:)``).
    var headlines: [String]

    /// The rows of `results`, or nil when the tokens are the references' and no difference
    /// explains a changed reference.
    init?(_ results: SnapshotRunResults) {
      tokens = results.tokenDifference
      fonts = results.environmentDifferences.filter(SnapshotEnvironment.isFontDifference)
      groups = results.failureGroups
      others = results.unexplainedFailures
      guard tokens != nil || !groups.isEmpty else { return nil }
      headlines = groups.map { $0.headline(results) }
      what =
        groups.isEmpty
        ? ["tokens"]
        : groups.map { group in
          "\(FailureGroup.grouped(group.references.count)) reference\(group.references.count == 1 ? "" : "s"): "
            + (group.cause.first ?? "")
            + (group.cause.count > 1 ? " and \(group.cause.count - 1) more" : "")
        }
      let stack = results.environmentDifferences.filter {
        !SnapshotEnvironment.isFontDifference($0)
      }
      headline = stack.isEmpty ? nil : "environment differs: " + stack.joined(separator: "; ")
    }

    /// The lines under the rows: what differs, one line each, each group's headline and first
    /// references, and what to do.
    func details(acceptAll: String?) -> [String] {
      var lines: [String] = []
      if let tokens {
        if let marker = tokens.firstRange(of: SnapshotEnvironment.changedTokensMarker) {
          lines.append(String(tokens[..<marker.lowerBound]) + ":")
          lines += tokens[marker.upperBound...].split(separator: "; ").map { "  " + $0 }
        } else {
          lines.append(tokens)
        }
      }
      if !fonts.isEmpty {
        lines.append("font files differ from the references' (ENVIRONMENT.json):")
        lines += fonts.prefix(SnapshotEnvironment.changedTokensShown).map { "  " + $0 }
        if fonts.count > SnapshotEnvironment.changedTokensShown {
          lines.append("  … and \(fonts.count - SnapshotEnvironment.changedTokensShown) more")
        }
      }
      for (group, headline) in zip(groups, headlines) {
        let shown = group.references.prefix(EnvironmentRow.idsShown)
        let more =
          group.references.count > shown.count
          ? " and \(group.references.count - shown.count) more (--list prints every one)" : ""
        lines.append("\(headline): \(shown.map(\.id).joined(separator: ", "))\(more)")
      }
      if !fonts.isEmpty {
        lines.append(
          "install the font files the references were recorded with (or give --font-dir a folder that holds them)"
        )
      }
      if let acceptAll, !acceptAll.isEmpty {
        lines.append(
          "if the change is intended, record the references again: \(acceptAll)")
      }
      return lines
    }

    /// References named under a group's headline, at most.
    static let idsShown = 8
  }

  /// The table of ``table(_:caseErrors:format:)-swift.type.method`` for outcomes.
  public static func table(
    _ failures: [SnapshotOutcome], caseErrors: [SnapshotCaseError] = [],
    format: SummaryFormat = .full
  ) -> [String] {
    table(failures.map { ReferenceResult($0) }, caseErrors: caseErrors, format: format)
  }

  /// One row per failure: status, reference, changed pixels, ratio, regions, layout lines.
  ///
  /// A layout-only change reads `layout … identical  -  -  4 lines`: the PIXELS column says `identical`
  /// rather than `0`, so it is clear the pictures match.
  /// Each broken case file (`caseErrors`) is a row `error <case>/(case file) - - - -` first.
  /// At most `format.rowLimit` rows are shown, then `… and N more, see <elsewhere>`; the status
  /// cells are painted by `format`.
  ///
  /// Each of `environment` (`tokens`, `1,248 references: <cause>`) is an `environment` row first,
  /// standing for a group of references that a token, font or stack difference explains.
  public static func table(
    _ failures: [ReferenceResult], caseErrors: [SnapshotCaseError] = [],
    environment: [String] = [], format: SummaryFormat = .full
  ) -> [String] {
    guard !failures.isEmpty || !caseErrors.isEmpty || !environment.isEmpty else { return [] }
    var rows = [["STATUS", "REFERENCE", "PIXELS", "RATIO", "REGIONS", "LAYOUT"]]
    for what in environment { rows.append(["environment", what, "-", "-", "-", "-"]) }
    let shownErrors = caseErrors.prefix(max(0, format.rowLimit))
    let shownFailures = failures.prefix(max(0, format.rowLimit - shownErrors.count))
    let omitted = caseErrors.count + failures.count - shownErrors.count - shownFailures.count
    for caseError in shownErrors { rows.append(["error", caseError.id, "-", "-", "-", "-"]) }
    for reference in shownFailures {
      let columns = numbers(reference)
      rows.append([
        reference.displayStatus, reference.id, columns.pixels, columns.ratio, columns.regions,
        columns.layout,
      ])
    }
    let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
    var lines = rows.enumerated().map { index, row in
      let cells = row.enumerated().map {
        $0.element.padded(toLength: widths[$0.offset])
      }
      let line = cells.joined(separator: "  ").trimmingWhitespace()
      guard index > 0, let status = row.first else { return line }
      // The status cell is painted whole, after padding, so the marks never shift a column.
      return format.paint(cells[0], status: status) + line.dropFirst(cells[0].count)
    }
    if omitted > 0 {
      lines.append("… and \(omitted) more, see \(format.elsewhere)")
    }
    return lines + [""]
  }

  /// The numbers of a failure's row: changed pixels (`identical`, `size W×H→W×H`), ratio,
  /// regions and layout lines, `-` where there is nothing to say.
  static func numbers(_ reference: ReferenceResult) -> (
    pixels: String, ratio: String, regions: String, layout: String
  ) {
    var pixels = "-"
    var ratio = "-"
    var regions = "-"
    if let comparison = reference.pixels {
      switch comparison {
      case .sizeMismatch(let expected, let actual):
        pixels = "size \(expected)→\(actual)"
      case .identical:
        pixels = "identical"
      default:
        pixels = "\(comparison.changedPixels)"
        ratio = String(cFormat: "%.3f%%", comparison.changedRatio * 100)
        regions = "\(comparison.regionCount)"
      }
    }
    let layout = reference.layoutCompared ? "\(reference.changedLayoutLines) lines" : "-"
    return (pixels, ratio, regions, layout)
  }

  /// The last line of `record --missing`: `record --missing: wrote F files for R references; K already existed (not checked)[; E errors] in S s`.
  public static func missingTotals(_ report: SnapshotRunReport) -> String {
    let recorded = report.count(.recorded)
    let existing = report.count(.skipped)
    let errors = report.failures.count + report.caseErrors.count
    var line =
      "record --missing: wrote \(report.written.count) file\(report.written.count == 1 ? "" : "s")"
      + " for \(recorded) reference\(recorded == 1 ? "" : "s")"
      + "; \(existing) already existed (not checked)"
    if errors > 0 { line += "; \(errors) error\(errors == 1 ? "" : "s")" }
    return line + String(cFormat: " in %.2f s", report.seconds)
  }

  /// The totals line of a run's report: see ``totals(_:format:)-swift.type.method``.
  public static func totals(_ report: SnapshotRunReport, format: SummaryFormat = .full) -> String {
    totals(SnapshotRunResults(report, root: nil), format: format)
  }

  /// `N references: P passed[, R recorded][, K not checked], F failed (C changed, M missing, E errors)[, B broken case files] in S s`,
  /// plus `; failed: the tokens …` when the token digest differs. `format` paints the passed
  /// count when the run succeeded, and the failed parts.
  public static func totals(_ results: SnapshotRunResults, format: SummaryFormat = .full) -> String
  {
    counts(results, seconds: results.seconds, format: format)
  }

  /// The totals line without the time, which differs from run to run: what the review page and
  /// the Markdown summary say, identical for one run and for the merge of its shards.
  public static func counts(_ results: SnapshotRunResults) -> String {
    counts(results, seconds: nil, format: .full)
  }

  private static func counts(_ results: SnapshotRunResults, seconds: Double?, format: SummaryFormat)
    -> String
  {
    let failed = results.failures.count
    let broken = results.caseErrors.count
    let total = results.references.count
    let within = results.references.filter(\.isWithinTolerance)
    let passed =
      "\(results.count(.passed)) passed"
      + (within.isEmpty ? "" : " (\(within.count) within tolerance)")
    var line =
      "\(total) reference\(total == 1 ? "" : "s"): "
      + (results.succeeded ? format.paint(passed, .success) : passed)
    if results.count(.recorded) > 0 { line += ", \(results.count(.recorded)) recorded" }
    if results.count(.skipped) > 0 { line += ", \(results.count(.skipped)) not checked" }
    if failed > 0 {
      line +=
        ", "
        + format.paint(
          "\(failed) failed (\(results.count(.changed)) changed, \(results.count(.missing)) missing, \(results.count(.error)) errors)",
          .failure)
    }
    if broken > 0 {
      line += ", " + format.paint("\(broken) broken case file\(broken == 1 ? "" : "s")", .failure)
    }
    if let seconds { line += String(cFormat: " in %.2f s", seconds) }
    if results.tokenDifference != nil {
      line +=
        "; "
        + format.paint(
          "failed: the tokens are not the ones the references were recorded with", .failure)
    }
    return line
  }
}
