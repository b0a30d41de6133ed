import BulletListRenderer
import Graphics
import PixelDiff
import Primitives
import Snapshot
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A verify run as data: what `verify --results DIR` writes as `DIR/results.json`, what
/// `snapshot merge` reads back and combines, and what every written summary of a run (the review
/// page, JUnit, the Markdown summary, the table on standard output) is made from.
///
/// Paths in it are written as the run's ``RepositoryRoot`` makes them (relative to the
/// repository root when inside it), and artifact paths are relative to the results folder, so
/// results made on several machines combine into the outputs one run would have written.
public struct SnapshotRunResults: Hashable, Sendable {
  /// The version of the `results.json` layout this tool writes and reads.
  public static let schemaVersion = 4
  /// The versions before ``schemaVersion`` and what each lacks, for the one-line refusal.
  public static let olderSchemaVersions: [Int: String] = [
    3: "it has no explainedBy: it blames every failure on any token change"
  ]
  /// The value of the file's `schema` member, which says what the file is.
  public static let schemaName = "ouds-render snapshot results"
  /// The file's name inside a results folder.
  public static let fileName = "results.json"

  /// The themes folder the run read, as printed in the `themes: …` line.
  public struct ThemesFolder: Hashable, Sendable {
    /// The folder (relative to the repository root when inside it).
    public var folder: String
    /// Why that folder: `--themes`, `beside the snapshots folder`…
    public var reason: String

    /// Creates a record.
    public init(folder: String, reason: String) {
      self.folder = folder
      self.reason = reason
    }
  }

  /// One font file a rendered theme loaded.
  public struct Font: Hashable, Sendable {
    /// The theme that loaded it (`orange`…).
    public var theme: String
    /// The manifest role (`latin-regular`…) or `brand`.
    public var role: String
    /// The family fontconfig reads from the file.
    public var family: String
    /// The file name.
    public var file: String
    /// The SHA-256 of the file, lower-case hex.
    public var sha256: String
    /// The folder it was loaded from (relative to the repository root when inside it).
    public var folder: String

    /// Creates a record.
    public init(
      theme: String, role: String, family: String, file: String, sha256: String, folder: String
    ) {
      self.theme = theme
      self.role = role
      self.family = family
      self.file = file
      self.sha256 = sha256
      self.folder = folder
    }

    /// The record `ENVIRONMENT.json` keeps of it (no folder).
    public var environmentRecord: SnapshotEnvironment.Font {
      SnapshotEnvironment.Font(role: role, family: family, file: file, sha256: sha256)
    }
  }

  /// Which part of the catalogue the run covered.
  public struct Selection: Hashable, Sendable {
    /// `--filter` as given, or nil.
    public var filter: String?
    /// `--shard i/n`, or nil for the whole (filtered) catalogue.
    public var shard: SnapshotShard?
    /// How many references the whole catalogue produces (every readable case file, no filter).
    public var catalogueReferences: Int

    /// Creates a selection.
    public init(filter: String? = nil, shard: SnapshotShard? = nil, catalogueReferences: Int) {
      self.filter = filter
      self.shard = shard
      self.catalogueReferences = catalogueReferences
    }
  }

  /// Which run wrote the results (its id, the catalogue's digest); nil for results made by hand,
  /// which merge only with others that have none.
  public var run: RunIdentity?
  /// The snapshots folder (relative to the repository root when inside it), or nil when unknown.
  public var snapshots: String?
  /// The themes folder the run read, or nil when unknown (a report made by hand).
  public var themes: ThemesFolder?
  /// The versions of the render stack.
  public var renderStack: RenderStack
  /// The SHA-256 of the resolved token values (``SnapshotEnvironment/tokensSHA256``).
  public var tokensSHA256: String?
  /// The font files the rendered themes loaded, theme by theme in load order.
  public var fonts: [Font]
  /// `ENVIRONMENT.json` as the run read it, or nil when there was none (or it was unreadable).
  public var recordedEnvironment: SnapshotEnvironment?
  /// Why the tokens are not the ones the references were recorded with; fails the run.
  public var tokenDifference: String?
  /// The changed tokens that explain failures, per theme × mode
  /// (``SnapshotEnvironment/tokenCauses(in:)``): what each reference's ``ReferenceResult/explainedBy``
  /// names and what the groups of failures are headed by. Empty when the tokens match.
  public var tokenCauses: [SnapshotEnvironment.TokenCause] = []
  /// How this machine's render stack and fonts differ from `ENVIRONMENT.json`, one line each
  /// (``SnapshotEnvironment/differences(from:)`` of ``recordedEnvironment`` and ``environment``).
  public var environmentDifferences: [String]
  /// Which references the run covered.
  public var selection: Selection
  /// The options an accept command repeats (`--snapshots X --themes Y`), shell-quoted, for a
  /// command run from the repository root.
  public var acceptOptions: String
  /// The run's tolerance (`--max-diff-pixels`, `--max-diff-ratio`), which every shard of a run
  /// shares; each reference says the one it was held to (a case file may replace it).
  public var tolerance = SnapshotTolerance()
  /// Seconds the run took (for a merge: the sum of the runs').
  public var seconds: Double
  /// The case files of the selection that could not be read, sorted by id.
  public var caseErrors: [SnapshotCaseError]
  /// One result per reference, sorted by id.
  public var references: [ReferenceResult]

  /// Creates results; `caseErrors` and `references` are sorted by id, and the environment
  /// differences are those of `recordedEnvironment` and this machine's fingerprint.
  public init(
    snapshots: String?, themes: ThemesFolder?, renderStack: RenderStack, tokensSHA256: String?,
    fonts: [Font],
    recordedEnvironment: SnapshotEnvironment?, tokenDifference: String?, selection: Selection,
    acceptOptions: String, seconds: Double, caseErrors: [SnapshotCaseError],
    references: [ReferenceResult]
  ) {
    self.snapshots = snapshots
    self.themes = themes
    self.renderStack = renderStack
    self.tokensSHA256 = tokensSHA256
    self.fonts = fonts
    self.recordedEnvironment = recordedEnvironment
    self.tokenDifference = tokenDifference
    self.selection = selection
    self.acceptOptions = acceptOptions
    self.seconds = seconds
    self.caseErrors = caseErrors.sorted { ($0.id, $0.file) < ($1.id, $1.file) }
    self.references = references.sorted { $0.id < $1.id }
    self.run = nil
    self.environmentDifferences = []
    self.environmentDifferences = recordedEnvironment?.differences(from: environment) ?? []
  }

  // MARK: - What the summaries show

  /// This machine's fingerprint for the themes that were rendered.
  public var environment: SnapshotEnvironment {
    var byTheme: [String: [SnapshotEnvironment.Font]] = [:]
    for font in fonts { byTheme[font.theme, default: []].append(font.environmentRecord) }
    return SnapshotEnvironment(renderStack: renderStack, fonts: byTheme, tokensSHA256: tokensSHA256)
  }

  /// `environment differs: tokens: …; pango …`, or nil when the tokens and the stack match.
  public var environmentHeadline: String? {
    let lines = (tokenDifference.map { [$0] } ?? []) + environmentDifferences
    return lines.isEmpty ? nil : "environment differs: " + lines.joined(separator: "; ")
  }

  /// `themes: <folder> (<why>) · fonts: A.ttf, B.ttf in <folder>; …`, as every render prints it
  /// (see ``BulletListRenderer/RenderSources``), or nil when the themes folder is unknown.
  public var sources: String? {
    guard let themes else { return nil }
    // Each file once, in theme order then load order, grouped by folder.
    var seen = Set<String>()
    var files: [RenderSources.FontFile] = []
    var androidSets: [(theme: String, families: [String])] = []
    for set in SnapshotEnvironment.fontSetOrder(Set(fonts.map(\.theme))) {
      var families: [String] = []
      for font in fonts where font.theme == set {
        if font.role != "brand", !families.contains(font.family) { families.append(font.family) }
        guard seen.insert(font.folder + "/" + font.file).inserted else { continue }
        files.append(
          RenderSources.FontFile(
            name: font.file, folder: font.folder, isBrand: font.role == "brand"))
      }
      let suffix = "/" + Platform.android.rawValue
      if set.hasSuffix(suffix) {
        androidSets.append((String(set.dropLast(suffix.count)), families))
      }
    }
    return RenderSources.line(
      themesFolder: themes.folder, reason: themes.reason, fonts: files,
      rules: RenderSources.androidRules(sets: androidSets))
  }

  /// The short form of ``sources`` that the terminal, the review page and JUnit show:
  /// `themes: Themes (beside the snapshots folder) · fonts: orange 4 files, orange/android 2 files`,
  /// each font set once with how many files it loaded (the files themselves are in `results.json`
  /// and in `ouds-render themes`); nil when the themes folder is unknown.
  public var sourcesSummary: String? {
    guard let themes else { return nil }
    let order = SnapshotEnvironment.fontSetOrder(Set(fonts.map(\.theme)))
    let sets = order.map { set in
      let count = fonts.filter { $0.theme == set }.count
      return "\(RenderSources.printable(set)) \(count) file\(count == 1 ? "" : "s")"
    }
    // Android's fallback rule stays on the short line: it says which fonts Android cells use.
    let suffix = "/" + Platform.android.rawValue
    let androidSets = order.filter { $0.hasSuffix(suffix) }.map { set in
      var families: [String] = []
      for font in fonts where font.theme == set && font.role != "brand" {
        if !families.contains(font.family) { families.append(font.family) }
      }
      return (theme: String(set.dropLast(suffix.count)), families: families)
    }
    let rules = RenderSources.androidRules(sets: androidSets)
    return
      "themes: \(RenderSources.printable(themes.folder)) (\(themes.reason)) · fonts: "
      + (sets.isEmpty ? "none loaded" : sets.joined(separator: ", "))
      + rules.map { " · " + $0 }.joined()
  }

  /// The references that fail the run.
  public var failures: [ReferenceResult] { references.filter(\.isFailure) }

  /// Whether the run passed: every reference passed, every case file was read, the tokens match.
  public var succeeded: Bool { failures.isEmpty && caseErrors.isEmpty && tokenDifference == nil }

  /// How many references have `status`.
  public func count(_ status: SnapshotOutcome.Status) -> Int {
    references.filter { $0.status == status }.count
  }
}

/// What happened to one reference, as data.
public struct ReferenceResult: Hashable, Sendable {
  /// An image the review page shows: the reference, the render, the difference
  /// (``ArtifactImage``).
  public typealias Image = ArtifactImage

  /// The case name.
  public var caseName: String
  /// The variant's name, `<theme>-<mode>[-<suffix>]@<scale>x`.
  public var variant: String
  /// The theme of the variant (`orange`…).
  public var theme: String
  /// The colour mode of the variant (`light`, `dark`).
  public var mode: String
  /// The reference PNG, relative to the snapshots folder.
  public var imagePath: String
  /// The reference layout JSON, relative to the snapshots folder.
  public var layoutPath: String
  /// What happened.
  public var status: SnapshotOutcome.Status
  /// One line saying why it failed (or what was done): ``SnapshotOutcome/reason``.
  public var reason: String
  /// The explanation of a missing reference or an error, if any.
  public var message: String?
  /// The pixel comparison, when both pictures were compared.
  public var pixels: PixelComparison?
  /// Whether a layout JSON reference was read and compared.
  public var layoutCompared: Bool
  /// The unified diff of the layout JSON reference against the render; empty when equal.
  public var layoutDiff: [String] {
    get { layoutDiffLines.lines }
    set { layoutDiffLines = TextLines(newValue) }
  }
  /// ``layoutDiff``, held as one string (``Snapshot/TextLines``): the results of a run keep
  /// every failure's diff.
  public var layoutDiffLines: TextLines
  /// The number of lines of ``layoutDiff``, without splitting them.
  public var layoutDiffCount: Int { layoutDiffLines.count }
  /// Seconds spent on it.
  public var seconds: Double
  /// The pictures a reviewer sees for a failure, with their sizes.
  public var images: [Image: PixelSize]
  /// The artifact files written for it, by name (`expected.png`, `layout.diff`…), relative to
  /// the artifacts or results folder.
  public var artifacts: [String: String]
  /// The SHA-256 (lower-case hex) of each artifact file as the run wrote it, by name: `snapshot
  /// accept` writes no file whose bytes differ. Empty in results written before it was kept.
  public var artifactDigests: [String: String]
  /// The tolerance its pixels were held to (exact unless `--max-diff-pixels`, `--max-diff-ratio`
  /// or the case file's keys set one).
  public var tolerance: SnapshotTolerance
  /// What explains a `changed` reference (``SnapshotOutcome/explainedBy``): the changed tokens
  /// its own theme and mode read, the differing render-stack libraries and the differing font
  /// files of its own font set. Empty when none does (always, for any other status).
  public var explainedBy: [String] = []
  /// The SHA-256 of the reference PNG and layout JSON as the run read them
  /// (``SnapshotOutcome/referenceDigests``): `snapshot merge` and `snapshot accept` compare the
  /// files here with them. Nil digests in results written before they were kept.
  public var referenceDigests = ReferenceDigests()

  /// Whether its change is explained by a token, stack or font difference of its own.
  public var isExplained: Bool { isFailure && !explainedBy.isEmpty }

  /// Creates a result.
  public init(
    caseName: String, variant: String, theme: String, mode: String, imagePath: String,
    layoutPath: String,
    status: SnapshotOutcome.Status, reason: String, message: String? = nil,
    pixels: PixelComparison? = nil,
    layoutCompared: Bool = false, layoutDiff: [String] = [], seconds: Double = 0,
    images: [Image: PixelSize] = [:],
    artifacts: [String: String] = [:], artifactDigests: [String: String] = [:],
    tolerance: SnapshotTolerance = SnapshotTolerance()
  ) {
    self.caseName = caseName
    self.variant = variant
    self.theme = theme
    self.mode = mode
    self.imagePath = imagePath
    self.layoutPath = layoutPath
    self.status = status
    self.reason = reason
    self.message = message
    self.pixels = pixels
    self.layoutCompared = layoutCompared
    self.layoutDiffLines = TextLines(layoutDiff)
    self.seconds = seconds
    self.images = images
    self.artifacts = artifacts
    self.artifactDigests = artifactDigests
    self.tolerance = tolerance
  }

  /// `<case>/<variant>`.
  public var id: String { "\(caseName)/\(variant)" }

  /// Whether it passed only thanks to its tolerance: its pixels differ, within it.
  public var isWithinTolerance: Bool { status == .passed && pixels?.wordIndex == 1 }

  /// Whether it fails the run: changed, missing or an error.
  public var isFailure: Bool { status == .changed || status == .missing || status == .error }

  /// The status a person reads: `layout` for a change of the layout JSON alone (the pixels
  /// pass), else the status.
  public var displayStatus: String {
    if status == .changed, pixels?.passes == true, layoutDiffCount > 0 { return "layout" }
    return status.rawValue
  }

  /// How many lines of the layout diff are removed or added.
  public var changedLayoutLines: Int {
    layoutDiff.filter { $0.hasPrefix("-") || $0.hasPrefix("+") }.count
  }
}

/// The numbers of a comparison that found unequal pixels, as data (``DiffStatistics`` without
/// the options).
public struct PixelCounts: PixelCounting {
  /// The size of both pictures.
  public var size: PixelSize
  /// Pixels counted as changed.
  public var changedPixels: Int
  /// Pixels set apart as anti-aliasing.
  public var antiAliasedPixels: Int
  /// The largest clusters of changed pixels.
  public var regions: [DiffRegion]
  /// How many further clusters were left out.
  public var omittedRegions: Int

  /// Creates statistics.
  public init(
    size: PixelSize, changedPixels: Int, antiAliasedPixels: Int, regions: [DiffRegion],
    omittedRegions: Int
  ) {
    self.size = size
    self.changedPixels = changedPixels
    self.antiAliasedPixels = antiAliasedPixels
    self.regions = regions
    self.omittedRegions = omittedRegions
  }
}

/// The pixel comparison of one reference, as data (``DiffResult`` without the options).
public typealias PixelComparison = PixelVerdict<PixelCounts>

extension PixelVerdict where Statistics == PixelCounts {
  /// The data of a ``DiffResult``.
  public init(_ diff: DiffResult) {
    func statistics(_ s: DiffStatistics) -> PixelCounts {
      PixelCounts(
        size: s.size, changedPixels: s.changedPixels, antiAliasedPixels: s.antiAliasedPixels,
        regions: s.regions,
        omittedRegions: s.omittedRegions)
    }
    switch diff {
    case .identical: self = .identical
    case .withinTolerance(let s): self = .withinTolerance(statistics(s))
    case .different(let s): self = .different(statistics(s))
    case .sizeMismatch(let expected, let actual):
      self = .sizeMismatch(expected: expected, actual: actual)
    }
  }

}
