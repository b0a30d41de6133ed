import SafeInput
import Snapshot
import SnapshotReports

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The files a run's results are written as for people and CI servers: the HTML review page,
/// JUnit XML and the Markdown summary, each optional. `verify` and `merge` write them with this
/// one writer from ``SnapshotRunResults``, so the merge of a run's shards writes what the run would.
public struct RunOutputs: Sendable {
  /// The folder of the review page (`index.html`, `images/`), or nil.
  public var report: URL?
  /// The JUnit XML file, or nil.
  public var junit: URL?
  /// The Markdown summary file, or nil.
  public var summary: URL?

  /// Creates the set of outputs to write.
  public init(report: URL? = nil, junit: URL? = nil, summary: URL? = nil) {
    self.report = report
    self.junit = junit
    self.summary = summary
  }

  /// Whether there is anything to write.
  public var isEmpty: Bool { report == nil && junit == nil && summary == nil }

  /// Refuses outputs that would write over one another: the review page inside one of `folders`
  /// (the folder of `--results` or `--artifacts`, which the run writes its own `junit.xml` and
  /// artifacts into, or a results folder `merge` reads), `--summary` the JUnit file, either file
  /// inside the review page's folder or one of `folders`, and any of them inside a snapshots
  /// folder (see ``InputFolderGuard/places(around:given:themes:)``).
  /// - Throws: `OutputPlaceError` naming the option, the path and the other output.
  public func checkPlaces(besides folders: [ProtectedPlace] = []) throws(OutputPlaceError) {
    var places = folders
    if let report {
      try InputFolderGuard.check(report.path, option: "--report", others: folders)
      places.append(ProtectedPlace("--report folder", report.path))
    }
    if let junit {
      try InputFolderGuard.check(junit.path, option: "--junit", others: places)
      places.append(ProtectedPlace("--junit file", junit.path))
    }
    if let summary {
      try InputFolderGuard.check(summary.path, option: "--summary", others: places)
    }
  }

  /// Writes the outputs of `results`: the pictures come from `images`; accept commands repeat the
  /// results' options (for a command run from `root`), and `acceptRun`, when given, is the
  /// command that takes the run's own renders (`snapshot accept`); JUnit attaches the review page's pictures
  /// when there is a page, else the artifact files, by their paths relative to `root`. No file of
  /// `inputs` is ever replaced.
  /// - Returns: the review page's `index.html`, when one was written.
  @discardableResult
  public func write(
    _ results: SnapshotRunResults, images: ArtifactImages, root: RepositoryRoot,
    protecting inputs: InputFiles, acceptRun: String? = nil
  ) throws -> String? {
    var commands = ReviewReport.Commands.cli(
      extraArguments: results.acceptOptions, filter: results.selection.filter)
    commands.acceptRun = acceptRun
    var page: String?
    if let report {
      page = try ReviewReport.write(
        results, images: images, to: report, commands: commands, protecting: inputs)
    }
    if let junit {
      let reportFolder = report.map { root.relative($0.path) }
      // Without a page, the artifact files themselves are attached: each is checked as the page
      // checks it (inside its results folder, a PNG of the listed size) before it is named.
      var artifacts: [String: [String]] = [:]
      if reportFolder == nil {
        for reference in results.failures {
          artifacts[reference.id] = try ReferenceResult.Image.attachmentOrder.filter {
            reference.images[$0] != nil
          }.compactMap { image in
            try images.checkedLocation(for: reference, image: image).map { root.relative($0) }
          }
        }
      }
      try JUnitXML.write(
        results,
        attachments: { reference in
          guard let reportFolder else { return artifacts[reference.id] ?? [] }
          return ReferenceResult.Image.attachmentOrder.filter { reference.images[$0] != nil }.map {
            image in
            JUnitXML.joinPath(reportFolder, ReviewReport.imagePath(reference, image))
          }
        }, to: junit.path, protecting: inputs)
    }
    if let summary {
      try AtomicFile.write(
        Data(MarkdownSummary.document(results, commands: commands).utf8), to: summary.path,
        createDirectories: true,
        protecting: inputs)
    }
    return page
  }
}
