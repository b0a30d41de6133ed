import BulletList
import BulletListRenderer
import Dispatch
import Graphics
import PNG
import PixelDiff
import Primitives
import SafeInput
import Scene
import Snapshot
import SnapshotReports
import Themes
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Every case of a snapshot catalogue rendered in each of its variants (theme, mode, platform,
/// text style, locale…), with the case files' text, and per theme a table of the tokens the
/// component reads and the font files really drawn; with an old themes folder, each picture is
/// also drawn with the old tokens and compared (``ReviewedPicture``).
///
/// Write it as an HTML page with ``GalleryPage`` or as PDF pages with ``GalleryDocument``.
public struct Gallery: Sendable {
  /// One variant of a case, rendered.
  public struct Item: Sendable {
    /// The case and the variant (scale variants of one variant appear once).
    public var reference: SnapshotReference
    /// The PNG at ``Gallery/scale``; nil when the render failed.
    public var png: Data?
    /// The picture's size in pixels; nil when the render failed.
    public var size: PixelSize?
    /// The comparison with the old tokens, when the gallery has one.
    public var review: ReviewedPicture?
    /// Why the variant could not be rendered, one line.
    public var error: String?
    /// Layout warnings, one line each.
    public var warnings: [String]

    /// Whether the comparison found a difference.
    public var isChanged: Bool { review.map { !$0.isUnchanged } ?? false }
  }

  /// One case file and its rendered variants.
  public struct Case: Sendable {
    /// The case name.
    public var name: String
    /// The case file, relative to the snapshots folder (`cases/sample-3.json`).
    public var file: String
    /// The case file's text, at most ``Gallery/sourceLineLimit`` lines.
    public var source: String
    /// How many lines of the file were left out of ``source``.
    public var omittedLines: Int
    /// The variants, in the case file's order.
    public var items: [Item]
  }

  /// The tokens of one theme the component reads, in both modes, and the fonts it draws with.
  public struct ThemeTable: Sendable {
    /// One token path and its value in each mode (before and after, with an old themes folder).
    public struct Row: Sendable {
      /// The token path.
      public var path: String
      /// The token in each mode; nil where the mode's context lacks it.
      public var values: [ColorMode: ResolvedToken]
      /// The token in each mode in the old themes folder, when the gallery compares.
      public var oldValues: [ColorMode: ResolvedToken]
    }

    /// The theme.
    public var theme: ThemeName
    /// The rows, in the order the renderer reads the tokens.
    public var rows: [Row]
    /// The font files drawn for Latin and Arabic text at the regular and strong weights.
    public var fonts: [FontUse]
    /// Every token of the theme whose value differs from the old themes folder, light then dark.
    public var changes: [TokenChange]
    /// Why the theme (or a mode of it) could not be read, one line each.
    public var errors: [String]
  }

  /// Pixels per point of the gallery's pictures.
  public static let scale = 2
  /// The most lines of a case file the gallery shows.
  public static let sourceLineLimit = 400
  /// The most characters of a case file the gallery shows.
  public static let sourceCharacterLimit = 40_000

  /// The themes folder the pictures are drawn with.
  public var themes: ThemesLocation
  /// The themes folder compared against, when there is one.
  public var oldThemes: URL?
  /// The snapshots folder whose catalogue is shown.
  public var snapshotsDirectory: URL
  /// The `themes: … · fonts: …` line of the renders, as the terminal shows it (absolute paths).
  public var sources: String
  /// How the page and the PDF name folders (relative to the current folder, see
  /// `SharedPaths` of BulletListRenderer).
  public var paths: SharedPaths
  /// The `themes: … · fonts: …` line as the page and the PDF show it (folders written by
  /// ``paths``), so that they do not depend on where the checkout is.
  public var sharedSources: String
  /// The cases, sorted by name.
  public var cases: [Case]
  /// The case files that could not be read.
  public var brokenCases: [SnapshotCaseError]
  /// One table per theme.
  public var themeTables: [ThemeTable]
  /// Every file the gallery read, which no output may replace.
  public var inputFiles: InputFiles

  /// Every variant of every case.
  public var items: [Item] { cases.flatMap(\.items) }

  /// The pictures' warnings, each distinct one once per case and theme, prefixed with the case
  /// and the variants that gave it: `onboarding (orange-light, orange-dark): items[0]…: …`.
  public var warningLines: [String] {
    var groups: [(caseName: String, theme: ThemeName, warning: String, stems: [String])] = []
    for item in items {
      let reference = item.reference
      for warning in item.warnings {
        if let index = groups.firstIndex(where: {
          $0.caseName == reference.caseName && $0.theme == reference.variant.theme
            && $0.warning == warning
        }) {
          if !groups[index].stems.contains(reference.variant.stem) {
            groups[index].stems.append(reference.variant.stem)
          }
        } else {
          groups.append(
            (reference.caseName, reference.variant.theme, warning, [reference.variant.stem]))
        }
      }
    }
    return groups.map { "\($0.caseName) (\($0.stems.joined(separator: ", "))): \($0.warning)" }
  }

  /// Every changed token, one line each (`TokenChange.line` of Themes), theme by theme.
  public var tokenLines: [String] { themeTables.flatMap { $0.changes.map(\.line) } }

  /// Renders the catalogue of `engine` (every case, each variant once whatever its scales) with
  /// the engine's themes, on the engine's worker threads; with `compareThemes`, also with that
  /// folder's tokens, compared picture by picture. `paths` says how the page names folders;
  /// ``sources`` is the short line unless `verbose` (the page always lists every font file).
  /// - Throws: when a themes folder cannot be read or the fonts cannot be found; a variant that
  ///   fails to render is an item with an error instead.
  public static func make(
    engine: SnapshotEngine, compareThemes: URL? = nil, paths: SharedPaths = SharedPaths(),
    verbose: Bool = false
  ) throws -> Gallery {
    let location = try engine.themesLocation()
    let library = try ThemeLibrary(directory: location.directory)
    try library.readAll()
    let oldLocation = compareThemes.map { ThemesLocation(directory: $0, source: .explicit) }
    let oldLibrary: ThemeLibrary?
    do {
      oldLibrary = try oldLocation.map { location throws(ThemeError) in
        let old = try ThemeLibrary(directory: location.directory)
        try old.readAll()
        return old
      }
    } catch {
      throw TokenReviewError.oldTokens(error, themes: oldLocation?.directory.path ?? "")
    }
    let main = try engine.makeRenderer(location: location, library: library)
    let references = engine.catalogue.references
    let platforms = Platform.allCases.filter { platform in
      platform == .ios || references.contains { $0.variant.options.platform == platform }
    }
    let sources = try main.sourcesLine(
      for: ThemeName.allCases, platforms: platforms, verbose: verbose)
    // The page lists every font file it was drawn with.
    let sharedSources = try main.sourcesLine(
      for: ThemeName.allCases, platforms: platforms, paths: paths, verbose: true)

    // Each variant once: the first of its scales.
    var variants: [(caseIndex: Int, reference: SnapshotReference)] = []
    for (index, snapshotCase) in engine.catalogue.cases.enumerated() {
      var stems = Set<String>()
      for reference in snapshotCase.references where stems.insert(reference.variant.stem).inserted {
        variants.append((index, reference))
      }
    }
    let jobs = variants
    let work = Locked(GalleryWork(items: Array(repeating: nil, count: jobs.count)))
    let workers = max(1, min(engine.configuration.jobs, jobs.count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      let renderers: (new: BulletListRenderer, old: BulletListRenderer?)
      do {
        renderers = (
          try engine.makeRenderer(location: location, library: library),
          try oldLocation.map { location in
            try BulletListRenderer(
              themes: location, library: oldLibrary,
              brandFontDirectory: engine.configuration.brandFontDirectory,
              fontLocator: engine.fontLocator)
          }
        )
      } catch {
        work.withLock { if $0.setupError == nil { $0.setupError = "\(error)" } }
        return
      }
      while let index = work.withLock({ work -> Int? in
        guard work.next < work.items.count else { return nil }
        work.next += 1
        return work.next - 1
      }) {
        let item = render(jobs[index].reference, with: renderers)
        work.withLock { $0.items[index] = item }
      }
    }
    let done = work.withLock { $0 }
    var items = done.items
    for index in items.indices where items[index] == nil {
      items[index] = Item(
        reference: jobs[index].reference, png: nil, size: nil, review: nil,
        error: "not rendered: \(done.setupError ?? "no worker started")", warnings: [])
    }
    var cases: [Case] = []
    var inputs = engine.caseFiles
    for (index, snapshotCase) in engine.catalogue.cases.enumerated() {
      let (source, omitted) = Self.source(of: snapshotCase.file)
      cases.append(
        Case(
          name: snapshotCase.name,
          file: "\(SnapshotCatalogue.casesFolderName)/\(snapshotCase.file.lastPathComponent)",
          source: source,
          omittedLines: omitted,
          items: jobs.indices.filter { jobs[$0].caseIndex == index }.compactMap { items[$0] }))
      inputs.formUnion(main.inputFiles(for: snapshotCase.document.list))
    }
    if let oldLibrary { inputs.formUnion(InputFiles(oldLibrary.files.map(\.path))) }
    var tables: [ThemeTable] = []
    for theme in ThemeName.allCases {
      tables.append(
        table(theme, library: library, old: oldLibrary, renderer: main, platforms: platforms))
    }
    return Gallery(
      themes: location, oldThemes: oldLocation?.directory,
      snapshotsDirectory: engine.configuration.snapshotsDirectory,
      sources: sources, paths: paths, sharedSources: sharedSources, cases: cases,
      brokenCases: engine.catalogue.brokenCases,
      themeTables: tables,
      inputFiles: inputs)
  }

  /// Renders one variant (and compares it with the old tokens).
  static func render(
    _ reference: SnapshotReference,
    with renderers: (new: BulletListRenderer, old: BulletListRenderer?)
  ) -> Item {
    let variant = reference.variant
    do {
      if let old = renderers.old {
        let review = try ReviewedPicture.compare(
          reference.list, theme: variant.theme, mode: variant.mode, options: variant.options,
          scale: scale,
          before: old, after: renderers.new)
        return Item(
          reference: reference, png: try PNGCodec.encode(review.after),
          size: PixelSize(width: review.after.width, height: review.after.height), review: review,
          error: nil,
          warnings: review.warnings)
      }
      let rendered = try renderers.new.rasterize(
        reference.list, theme: variant.theme, mode: variant.mode, options: variant.options,
        scale: scale)
      return Item(
        reference: reference, png: try PNGCodec.encode(rendered.image),
        size: PixelSize(width: rendered.image.width, height: rendered.image.height), review: nil,
        error: nil,
        warnings: rendered.warnings)
    } catch {
      return Item(
        reference: reference, png: nil, size: nil, review: nil,
        error: MessageText.line(reference.describing(error)),
        warnings: [])
    }
  }

  /// The text of a case file, cut to ``sourceLineLimit`` lines and ``sourceCharacterLimit``
  /// characters (a line cut short ends with `…`), and how many lines were left out.
  public static func source(of file: URL) -> (text: String, omittedLines: Int) {
    guard let data = try? UserFile.read(file.path, kind: .caseFile) else { return ("", 0) }
    let text = String(decoding: data, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    var kept: [String] = []
    var characters = 0
    for line in lines {
      guard kept.count < sourceLineLimit else { break }
      guard characters + line.count <= sourceCharacterLimit else {
        // A line longer than what is left: its start, marked as cut.
        kept.append(line.prefix(max(0, sourceCharacterLimit - characters)) + "…")
        break
      }
      kept.append(String(line))
      characters += line.count + 1
    }
    return (kept.joined(separator: "\n"), lines.count - kept.count)
  }

  /// The token table of one theme: the tokens the component reads (`componentTokenPaths` of
  /// Themes' `ThemeLibrary`) in each mode of `library` (and of `old`, with the changes, when
  /// compared), and the fonts drawn on `platforms`. The gallery's tables and the preview's docs
  /// view show it.
  public static func table(
    _ theme: ThemeName, library: ThemeLibrary, old: ThemeLibrary?, renderer: BulletListRenderer,
    platforms: [Platform] = [.ios]
  ) -> ThemeTable {
    var errors: [String] = []
    var current: [ColorMode: [String: ResolvedToken]] = [:]
    var previous: [ColorMode: [String: ResolvedToken]] = [:]
    var changes: [TokenChange] = []
    for mode in ColorMode.allCases {
      do {
        current[mode] = Dictionary(
          try library.tokens(theme, mode: mode).map { ($0.path, $0) }, uniquingKeysWith: { $1 })
      } catch {
        errors.append("\(mode.rawValue): \(error)")
      }
      guard let old else { continue }
      do {
        previous[mode] = Dictionary(
          try old.tokens(theme, mode: mode).map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        changes += try TokenReview.tokenChanges(
          theme: theme, mode: mode, before: old, after: library)
      } catch {
        errors.append("\(mode.rawValue): \(error)")
      }
    }
    let rows = ThemeLibrary.componentTokenPaths.map { path in
      ThemeTable.Row(
        path: path, values: current.compactMapValues { $0[path] },
        oldValues: previous.compactMapValues { $0[path] })
    }
    var fonts: [FontUse] = []
    do {
      // Each platform whose font set is its own (Android's fallback for Orange): its fonts too,
      // named with the platform.
      var sets: [String] = []
      for platform in platforms {
        let set = try renderer.fontSetName(for: theme, platform: platform)
        guard !sets.contains(set) else { continue }
        sets.append(set)
        fonts += try renderer.fontsUsed(by: theme, platform: platform).map { use in
          var use = use
          if platform != .ios { use.text = "\(platform.displayName): \(use.text)" }
          return use
        }
      }
    } catch {
      errors.append("fonts: \(error)")
    }
    return ThemeTable(theme: theme, rows: rows, fonts: fonts, changes: changes, errors: errors)
  }
}

/// The items of a gallery being rendered by several workers: the next job, the results, the
/// first worker's set-up error.
private struct GalleryWork: Sendable {
  var next = 0
  var items: [Gallery.Item?]
  var setupError: String?
}

extension SnapshotEngine {
  /// A renderer over the engine's themes folder and font search, for pages that go with a run
  /// (the gallery's PDF).
  /// - Throws: when the themes folder cannot be found or read.
  public func renderer() throws -> BulletListRenderer {
    let location = try themesLocation()
    let library = try ThemeLibrary(directory: location.directory)
    try library.readAll()
    return try makeRenderer(location: location, library: library)
  }
}
