import BulletList
import BulletListRenderer
import Dispatch
import Fonts
import Graphics
import Layout
import Primitives
import SafeInput
import Scene
import Themes
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Verifies, records and prunes the references of a snapshots folder; every operation returns a value.
///
/// Renders happen in process: each worker thread owns a ``BulletListRenderer``, rasterizes, and
/// compares the raw pixels with the decoded reference in memory. A passing reference costs one
/// render, two file reads (PNG and layout JSON), one PNG decode, one layout-JSON encode and
/// compare, and one memory compare; nothing is written.
public final class SnapshotEngine: Sendable {
  /// The configuration.
  public let configuration: SnapshotConfiguration
  /// The catalogue read from `<snapshots>/cases/`.
  public let catalogue: SnapshotCatalogue
  /// Where the workers' renderers find font files (shared, so each file is found and hashed once).
  public let fontLocator: FontLocator
  private let themes: Result<ThemesLocation, ThemeError>

  /// Reads the catalogue and finds the themes folder (an error about the latter is thrown by the
  /// operations that render, so `list` and `prune` work without one).
  /// - Throws: `SnapshotError` naming the file.
  public init(configuration: SnapshotConfiguration) throws(SnapshotError) {
    self.configuration = configuration
    self.catalogue = try SnapshotCatalogue(directory: configuration.snapshotsDirectory)
    self.themes = Result { () throws(ThemeError) in
      try ThemesLocation.resolve(
        explicit: configuration.themesDirectory,
        snapshotsDirectory: configuration.snapshotsDirectory,
        environment: configuration.environment)
    }
    self.fontLocator = FontLocator(
      fontDirectory: configuration.brandFontDirectory, environment: configuration.environment)
  }

  /// The themes folder renders read, and why that one.
  /// - Throws: `ThemeError` when none is found (the message lists what was tried).
  public func themesLocation() throws(ThemeError) -> ThemesLocation {
    try themes.get()
  }

  /// Makes a renderer for one worker over an already read library.
  package func makeRenderer(location: ThemesLocation, library: ThemeLibrary) throws
    -> BulletListRenderer
  {
    try BulletListRenderer(
      themes: location, library: library, brandFontDirectory: configuration.brandFontDirectory,
      fontLocator: fontLocator)
  }

  // MARK: - Verify

  /// Renders `references` and compares each with its PNG and layout JSON; writes nothing but
  /// the lock file (see ``SnapshotLock``), whose shared lock it holds meanwhile.
  ///
  /// `caseErrors` (usually ``SnapshotCatalogue/selectBroken(filter:shard:)``) are carried into the
  /// report, where each fails the run as an error row.
  /// `progress` is called after each reference, from the worker that finished it (see ``SnapshotProgress``).
  /// - Throws: an error when no renderer can be made (e.g. an unreadable `Themes/`).
  ///
  /// `evidence`, when given, takes each failure as it is made (see ``EvidenceSink``).
  public func verify(
    _ references: [SnapshotReference], caseErrors: [SnapshotCaseError] = [],
    progress: (@Sendable (SnapshotProgress) -> Void)? = nil, evidence: EvidenceSink? = nil
  ) throws -> SnapshotRunReport {
    // An accept killed half-way is completed or rolled back first (under the exclusive lock).
    if AcceptTransaction.isPending(in: configuration.snapshotsDirectory) {
      let writer = try SnapshotLock.acquire(
        in: configuration.snapshotsDirectory, timeout: configuration.lockTimeout,
        command: "snapshot verify")
      try AcceptTransaction.recoverTelling(in: configuration.snapshotsDirectory)
      withExtendedLifetime(writer) {}
    }
    // Read while no record or prune writes: other verify runs share the lock, a record makes
    // this wait (up to the lock timeout), then fail naming it.
    let lock = try SnapshotLock.acquireShared(
      in: configuration.snapshotsDirectory, timeout: configuration.lockTimeout)
    defer { withExtendedLifetime(lock) {} }
    var report = try run(references, progress: progress, evidence: evidence) {
      renderer, reference in
      Self.check(
        reference, in: self.configuration.snapshotsDirectory, renderer: renderer,
        options: self.configuration.diffOptions, sourceDirectory: self.casesDirectory)
    }
    report.caseErrors = caseErrors
    report.tolerance = SnapshotTolerance(configuration.diffOptions)
    return report
  }

  /// The folder of the case files, against which free icon paths are made relative when outside the snapshots folder.
  var casesDirectory: URL {
    configuration.snapshotsDirectory.appendingPathComponent(SnapshotCatalogue.casesFolderName)
  }

  // MARK: - Record

  /// Records `references` in `mode`: `all` rewrites what differs, `missing` writes only the absent files
  /// and does not look at existing references (they are `skipped`), `failed` verifies and rewrites failures,
  /// `never` only verifies. Writes are atomic, and a file whose bytes would not change is left untouched;
  /// `ENVIRONMENT.json` is updated when anything is written. With `checkExisting` (the test suite's
  /// `missing`, like swift-snapshot-testing's), existing references are compared instead of skipped.
  /// `progress` is called after each reference, from the worker that finished it.
  public func record(
    _ references: [SnapshotReference], mode: SnapshotRecordMode, checkExisting: Bool = false,
    caseErrors: [SnapshotCaseError] = [], progress: (@Sendable (SnapshotProgress) -> Void)? = nil
  ) throws -> SnapshotRunReport {
    let directory = configuration.snapshotsDirectory
    let cases = casesDirectory
    // One writer at a time; a killed writer's temporary files are removed under the lock.
    let lock = try SnapshotLock.acquire(
      in: directory, timeout: configuration.lockTimeout, command: "snapshot record")
    defer { withExtendedLifetime(lock) {} }
    try AcceptTransaction.recoverTelling(in: directory)
    let removed = AtomicFile.removeStaleTemporaryFiles(
      under: directory, olderThan: Self.staleTemporaryAge)
    let caseFiles = self.caseFiles
    var report = try run(references, progress: progress) { renderer, reference in
      Self.record(
        reference, in: directory, renderer: renderer, mode: mode,
        options: self.configuration.diffOptions,
        sourceDirectory: cases, checkExisting: checkExisting, protecting: caseFiles)
    }
    report.written = report.outcomes.flatMap(\.written)
    // An unreadable fingerprint (an older format) is rewritten.
    let existing = (try? SnapshotEnvironment.read(from: directory)) ?? nil
    if let environment = report.environment, mode != .never {
      // The token digest is taken when the references were re-rendered (all, failed) or when
      // there was none; `--missing` does not look at existing references, so it keeps theirs.
      let takeTokens = mode == .all || mode == .failed || existing?.tokensSHA256 == nil
      let wroteReferences = !report.written.isEmpty
      // A fingerprint without the token values gets them when it takes the tokens.
      if wroteReferences || existing == nil
        || (takeTokens
          && (existing?.tokensSHA256 != environment.tokensSHA256
            || existing?.tokens != environment.tokens))
      {
        let merged = existing?.merging(environment, takingTokens: takeTokens) ?? environment
        if merged != existing {
          try merged.write(to: directory, protecting: report.inputFiles)
          report.written.append(SnapshotEnvironment.fileName)
        }
        if merged.tokensSHA256 == environment.tokensSHA256 { report.tokenDifference = nil }
      }
    }
    report.caseErrors = caseErrors
    report.removedTemporaryFiles = removed
    return report
  }

  /// Temporary files of interrupted writes older than this (seconds) are removed by `record`: 5 s.
  public static let staleTemporaryAge: TimeInterval = 5

  // MARK: - Prune

  /// Reference files under the snapshots folder that no case of the catalogue produces, relative paths, sorted.
  ///
  /// Looks at `*.png` and `*.layout.json` files in sub-folders other than `cases/`; top-level files
  /// (README.md, ENVIRONMENT.json) and hidden files are never orphans.
  public func orphans() throws(SnapshotError) -> [String] {
    let produced = Set(catalogue.references.flatMap { [$0.imagePath, $0.layoutPath] })
    let root = configuration.snapshotsDirectory
    let skipped = { (path: String) -> Bool in
      path == SnapshotCatalogue.casesFolderName || path.hasPrefix(".")
    }
    guard let entries = PathText.entries(under: root.path, descending: { !skipped($0) }) else {
      throw SnapshotError.folderUnreadable(path: root.path)
    }
    var result: [String] = []
    for path in entries {
      let components = path.split(separator: "/")
      guard components.count >= 2, components[0] != Substring(SnapshotCatalogue.casesFolderName),
        !components.contains(where: { $0.hasPrefix(".") })
      else { continue }
      guard path.hasSuffix(".png") || path.hasSuffix(".layout.json") else { continue }
      if !produced.contains(path) { result.append(path) }
    }
    return result.sorted()
  }

  /// Deletes the orphans (or only lists them when `dryRun`), then removes folders left empty.
  /// - Returns: the orphans, relative to the snapshots folder.
  ///
  /// Refuses while a case file is broken: the references of that case would look like orphans.
  public func prune(dryRun: Bool) throws(SnapshotError) -> [String] {
    if let first = catalogue.brokenCases.first {
      let more = catalogue.brokenCases.count - 1
      throw SnapshotError.pruneWithBrokenCases(first: first.message, more: more)
    }
    guard !dryRun else { return try orphans() }
    let lock = try SnapshotLock.acquire(
      in: configuration.snapshotsDirectory, timeout: configuration.lockTimeout,
      command: "snapshot prune")
    defer { withExtendedLifetime(lock) {} }
    let orphans = try orphans()
    let root = configuration.snapshotsDirectory
    var folders = Set<String>()
    for path in orphans {
      let full = root.appendingPathComponent(path).path
      if unlink(full) != 0 {
        throw SnapshotError.cannotDelete(path: full, reason: String(cString: strerror(errno)))
      }
      folders.insert(PathText.deletingLastComponent(path))
    }
    for folder in folders.sorted(by: { $0.count > $1.count }) where !folder.isEmpty {
      let url = root.appendingPathComponent(folder)
      if let contents = try? FileManager.default.contentsOfDirectory(atPath: url.path),
        contents.isEmpty
      {
        try? FileManager.default.removeItem(at: url)
      }
    }
    return orphans
  }

  // MARK: - Parallel runs

  /// Runs `work` for every reference on `jobs` threads, each with its own renderer, and fingerprints the stack.
  private func run(
    _ references: [SnapshotReference], progress: (@Sendable (SnapshotProgress) -> Void)? = nil,
    evidence: EvidenceSink? = nil,
    _ work: @escaping @Sendable (BulletListRenderer, SnapshotReference) -> SnapshotOutcome
  ) throws -> SnapshotRunReport {
    let start = DispatchTime.now().uptimeNanoseconds
    let location = try themesLocation()
    // Every theme's files at once: a broken token file stops the run with one error.
    let library = try ThemeLibrary(directory: location.directory)
    try library.readAll()
    // A context that does not resolve, or a token out of the renderer's range, would fail every
    // reference of its theme with the same message: one error, before anything renders.
    var contexts = Set<String>()
    for reference in references
    where contexts.insert(
      ThemeLibrary.contextName(reference.variant.theme, reference.variant.mode)
    ).inserted {
      _ = try library.theme(reference.variant.theme, mode: reference.variant.mode)
    }
    // Every font file the selected themes need is found before anything renders, so a machine
    // that lacks some gets one error naming them all (and their packages).
    // One font set per theme and platform the references draw with (`orange`, `orange/android`).
    var fonts: [FontSourceList] = []
    for theme in ThemeName.allCases {
      let manifest = try library.fontManifest(for: theme)
      for platform in Platform.allCases
      where references.contains(where: {
        $0.variant.theme == theme && $0.variant.options.platform == platform
      }) {
        let list = manifest.fontSources(on: platform)
        if !fonts.contains(where: { $0.owner == list.owner }) { fonts.append(list) }
      }
    }
    let located = try fontLocator.locate(fonts)
    let inputs = inputFiles(for: references, library: library, fonts: located.values.map(\.url))

    let jobs = max(1, min(configuration.jobs, references.count))
    // Cluster by theme so that each worker builds few font sets.
    let order = references.enumerated().sorted {
      ($0.element.variant.theme.rawValue, $0.offset) < (
        $1.element.variant.theme.rawValue, $1.offset
      )
    }.map(\.offset)
    let shared = Locked(RunState(references: references.count, workers: jobs))
    DispatchQueue.concurrentPerform(iterations: jobs) { worker in
      let renderer: BulletListRenderer
      do {
        renderer = try self.makeRenderer(location: location, library: library)
      } catch {
        shared.withLock { $0.setupErrors[worker] = error }
        return
      }
      while let next = shared.withLock({ $0.takeNext() }) {
        let index = order[next]
        let reference = references[index]
        let theme = reference.variant.theme
        let platform = reference.variant.options.platform
        let setName =
          (try? library.fontManifest(for: theme).fontSetName(on: platform))
          ?? theme.rawValue
        var outcome = work(renderer, reference)
        if outcome.isFailure, let evidence { outcome = evidence(outcome, inputs) }
        let (fontsKnown, done) = shared.withLock { state in
          state.outcomes[index] = outcome
          state.completed += 1
          if outcome.isFailure { state.failed += 1 }
          let done = SnapshotProgress(
            completed: state.completed, failed: state.failed, total: references.count)
          return (state.fonts[setName] != nil, done)
        }
        progress?(done)
        // Fingerprint only the fonts a render really used (not for skipped references), once per set.
        if !fontsKnown, outcome.status != .skipped, outcome.status != .error,
          let files = try? renderer.fontSet(for: theme, platform: platform).files
        {
          shared.withLock { $0.fonts[setName] = files }
        }
      }
    }
    let state = shared.withLock { $0 }
    let setupError = state.setupErrors.lazy.compactMap { $0 }.first
    if let setupError, state.outcomes.allSatisfy({ $0 == nil }) {
      throw setupError
    }
    var outcomes: [SnapshotOutcome] = []
    for (index, reference) in references.enumerated() {
      let notRendered = SnapshotFailure(
        kind: .error, message: "not rendered: \(setupError.map { "\($0)" } ?? "internal error")")
      outcomes.append(
        state.outcomes[index] ?? SnapshotOutcome(reference: reference, result: .failed(notRendered))
      )
    }
    outcomes.sort { $0.reference.id < $1.reference.id }
    var environment = state.environment()
    environment.tokensSHA256 = SnapshotEnvironment.tokenDigest(of: library)
    environment.tokens = SnapshotEnvironment.tokenValues(of: library)
    var differences: [String] = []
    var tokenDifference: String?
    var recordedEnvironment: SnapshotEnvironment?
    var causes: [SnapshotEnvironment.CauseReads] = []
    do {
      if let recorded = try SnapshotEnvironment.read(from: configuration.snapshotsDirectory) {
        recordedEnvironment = recorded
        differences = recorded.differences(from: environment)
        tokenDifference = recorded.tokenDifference(
          from: environment, themes: location, library: library)
        if tokenDifference != nil { causes = recorded.tokenCauseReads(in: library) ?? [] }
      } else if !references.isEmpty {
        tokenDifference =
          "tokens: no \(SnapshotEnvironment.fileName) in \(RenderSources.printable(configuration.snapshotsDirectory.path)) records which tokens the references were made from (record to create it)"
      }
    } catch {
      tokenDifference = "tokens: \(error)"
    }
    // Each changed reference is blamed only on what its own theme, mode and font set read: a token
    // only when its list reads it (a Body Medium list is not explained by Body Large's font size,
    // a list without bold text by the strong weight), and a colour token only when the list draws
    // its old or new value too (a bare list drawing no bullet is not explained by the bullet colour).
    if !causes.isEmpty || !differences.isEmpty {
      var byContext: [String: [SnapshotEnvironment.CauseReads]] = [:]
      for cause in causes { byContext[cause.cause.context, default: []].append(cause) }
      for index in outcomes.indices where outcomes[index].status == .changed {
        let reference = outcomes[index].reference
        let variant = reference.variant
        let context = "\(variant.theme.rawValue)/\(variant.mode.rawValue)"
        let fontSet =
          (try? library.fontManifest(for: variant.theme).fontSetName(on: variant.options.platform))
          ?? variant.theme.rawValue
        let drawn = outcomes[index].drawnColors
        let listReads = reference.tokenPathsRead
        let tokens = (byContext[context] ?? []).filter { candidate in
          let cause = candidate.cause
          guard !candidate.reads.isDisjoint(with: listReads) else { return false }
          let isColor = cause.before.hasPrefix("#") && cause.after.hasPrefix("#")
          return !isColor || drawn.contains(cause.before.uppercased())
            || drawn.contains(cause.after.uppercased())
        }.map(\.cause)
        var names: [String] = []
        for cause in tokens where !names.contains(cause.token) { names.append(cause.token) }
        outcomes[index].explainedBy =
          names
          + SnapshotEnvironment.stackAndFontCauses(
            differences, fontSet: fontSet,
            drawsMarkers: listReads.contains { $0.hasPrefix(ListLayout.iconSizeTokenPrefix) })
      }
    }
    var report = SnapshotRunReport(
      outcomes: outcomes, environmentDifferences: differences, environment: environment,
      seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9,
      sources: RenderSources.line(
        themes: location, fonts: state.loadedFonts(),
        rules: RenderSources.androidRules(
          ThemeName.allCases.compactMap { name in
            state.fonts["\(name.rawValue)/\(Platform.android.rawValue)"] == nil
              ? nil : try? library.fontManifest(for: name)
          })),
      tokenDifference: tokenDifference, inputFiles: inputs)
    report.snapshotsDirectory = configuration.snapshotsDirectory
    report.themesLocation = location
    report.loadedFonts = state.fonts
    report.tokenCauses = causes.map(\.cause)
    // The token values served the token difference; the results carry the fingerprint without them.
    report.recordedEnvironment = recordedEnvironment.map {
      var fingerprint = $0
      fingerprint.tokens = nil
      return fingerprint
    }
    return report
  }

  /// Every file of `cases/` (read or refused as a case file).
  package var caseFiles: InputFiles {
    let folder = casesDirectory
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return InputFiles(names.sorted().map { folder.appendingPathComponent($0).path })
  }

  /// The files a run over `references` reads: every case file, the references' PNG and layout
  /// JSON, their icons, the themes folder's files, the font files and the brand font folder's files.
  private func inputFiles(for references: [SnapshotReference], library: ThemeLibrary, fonts: [URL])
    -> InputFiles
  {
    var inputs = caseFiles
    let directory = configuration.snapshotsDirectory
    for reference in references {
      inputs.insert(directory.appendingPathComponent(reference.imagePath).path)
      inputs.insert(directory.appendingPathComponent(reference.layoutPath).path)
      for icon in reference.list.iconFiles { inputs.insert(icon) }
    }
    for file in library.files { inputs.insert(file.path) }
    for font in fonts.sorted(by: { $0.path < $1.path }) { inputs.insert(font.path) }
    if let brand = configuration.brandFontDirectory,
      let names = try? FileManager.default.contentsOfDirectory(atPath: brand.path)
    {
      for name in names.sorted() { inputs.insert(brand.appendingPathComponent(name).path) }
    }
    return inputs
  }
}

/// What the workers of one run share (behind a ``SafeInput/Locked``): the next reference to take,
/// the outcomes, the errors of workers that could not start, and the fonts each theme loaded.
struct RunState: Sendable {
  /// The next position in the run's order.
  var next = 0
  /// One slot per reference, in the order of the references handed to the run.
  var outcomes: [SnapshotOutcome?]
  /// One slot per worker: why it could not make a renderer.
  var setupErrors: [(any Error)?]
  /// The font files of each font set (`orange`, `orange/android`), noted the first time a worker
  /// rendered with it successfully.
  var fonts: [String: [LoadedFont]] = [:]
  /// References done, and how many of them failed (for the progress callback).
  var completed = 0
  var failed = 0

  init(references: Int, workers: Int) {
    outcomes = Array(repeating: nil, count: references)
    setupErrors = Array(repeating: nil, count: workers)
  }

  /// The next position to render, or nil when every reference was taken.
  mutating func takeNext() -> Int? {
    guard next < outcomes.count else { return nil }
    next += 1
    return next - 1
  }

  /// The fingerprint of the stack and of the fonts each rendered theme used.
  func environment() -> SnapshotEnvironment {
    var records: [String: [SnapshotEnvironment.Font]] = [:]
    for (set, files) in fonts {
      records[set] = files.map(SnapshotEnvironment.Font.init)
    }
    return SnapshotEnvironment(renderStack: RenderStack.current(), fonts: records)
  }

  /// Every font file the rendered font sets loaded, in theme order (each theme's iOS set, then
  /// its Android one), each once.
  func loadedFonts() -> [LoadedFont] {
    var files: [LoadedFont] = []
    for set in SnapshotEnvironment.fontSetOrder(fonts.keys) {
      for file in fonts[set] ?? [] where !files.contains(where: { $0.url == file.url }) {
        files.append(file)
      }
    }
    return files
  }

}
