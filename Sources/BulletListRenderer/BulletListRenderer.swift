import BulletList
import Fonts
import Graphics
import Layout
import Markdown
import PNG
import Primitives
import SafeInput
import Scene
import Themes
import Threads
import VectorAsset

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One rendered picture and the scene it came from.
public struct RenderedList: Sendable {
  /// The theme.
  public var theme: ThemeName
  /// The mode.
  public var mode: ColorMode
  /// Whose rules the picture follows.
  public var platform: Platform
  /// The encoded picture (PNG, SVG or PDF bytes).
  public var data: Data
  /// The laid-out scene the picture was drawn from.
  public var scene: Scene
  /// Layout warnings, one line each.
  public var warnings: [String]
}

/// The whole pipeline behind one object: list → theme → layout → scene → picture.
///
/// Themes are read once; each theme's private font set and text engine are built the first time
/// the theme is used and then reused, so rendering many lists or every theme × mode in one
/// process pays the set-up once. Not thread-safe: use one renderer per thread (several renderers
/// may share one `FontLocator`).
///
/// Every method throws one type, ``RenderError``, whose cases carry the failing stage's error.
public final class BulletListRenderer {
  /// The theme tokens in use.
  public let themes: ThemeLibrary
  /// Which themes folder the tokens come from, and why that one.
  public let themesLocation: ThemesLocation
  /// The folder of licensed brand fonts (also searched first for the manifests' files), when given.
  public let brandFontDirectory: URL?
  /// Where the manifests' font files are found.
  public let fontLocator: FontLocator
  /// Each font set's engines, by the set's name (`orange`, `orange/android`: `Themes.FontManifest.fontSetName(on:)`).
  private var engines: [String: (fonts: FontSet, text: TextEngine, renderer: SceneRenderer)] =
    [:]
  private var sheetRenderers: [[Platform]: SceneRenderer] = [:]
  private var fontWarnings: [String: [String]] = [:]
  /// What ``fontNotes`` lists, in the order the font sets were made.
  private var fontNoteLines: [String] = []

  /// The machine's font files passed over for another file with the manifest's SHA-256, one line
  /// each (`fonts/orange.fonts.json: passed over … (SHA-256 …, not the manifest's …); using …`),
  /// for the font sets made so far.
  ///
  /// Not warnings: the manifest's file was found, so nothing drawn depends on them, and which
  /// font packages a machine has installed must not change a line of output. Commands print them
  /// under `--verbose`; `ouds-render themes` lists them too. A file passed over in a folder the
  /// user named (`--font-dir`, `OUDS_FONT_DIRS`) is a warning instead.
  public var fontNotes: [String] { fontNoteLines }

  /// Creates a renderer, finding the themes folder by `ThemesLocation`'s rules.
  /// - Parameters:
  ///   - themesDirectory: a `Themes/` folder; nil takes `OUDS_THEMES_DIR`, then a `Themes/` in the
  ///     current folder or its parents, then the copy shipped in the package's resource bundle.
  ///   - brandFontDirectory: a folder of licensed brand font files to use instead of substitutes;
  ///     it is also searched first for the manifests' files.
  /// - Throws: `RenderError.theme` when no themes folder is found or it cannot be read,
  ///   `.graphics` for a brand folder that does not exist.
  public convenience init(themesDirectory: URL? = nil, brandFontDirectory: URL? = nil)
    throws(RenderError)
  {
    let location: ThemesLocation
    do {
      location = try ThemesLocation.resolve(explicit: themesDirectory)
    } catch {
      throw .theme(error)
    }
    try self.init(themes: location, brandFontDirectory: brandFontDirectory)
  }

  /// Creates a renderer over a resolved themes folder.
  /// - Parameters:
  ///   - location: the themes folder and why it was chosen.
  ///   - library: the themes already read from `location`; nil reads them.
  ///   - brandFontDirectory: a folder of licensed brand font files, searched first for the manifests' files too.
  ///   - fontLocator: where font files are found; nil searches `brandFontDirectory`, `OUDS_FONT_DIRS`
  ///     and fontconfig's folders.
  /// - Throws: `RenderError.theme` when the themes cannot be read, `.graphics` for a brand folder
  ///   that does not exist.
  public init(
    themes location: ThemesLocation, library: ThemeLibrary? = nil, brandFontDirectory: URL? = nil,
    fontLocator: FontLocator? = nil
  ) throws(RenderError) {
    self.themesLocation = location
    if let library {
      self.themes = library
    } else {
      do {
        self.themes = try ThemeLibrary(directory: location.directory)
      } catch {
        throw .theme(error)
      }
    }
    self.brandFontDirectory = brandFontDirectory
    self.fontLocator = fontLocator ?? FontLocator(fontDirectory: brandFontDirectory)
    if let brandFontDirectory {
      guard PathText.isFolder(brandFontDirectory.path) else {
        throw .graphics(.font(.fontDirectoryMissing(path: brandFontDirectory.path)), nil)
      }
    }
  }

  /// A list reader that understands `markdown` labels and Markdown list files (parsed with
  /// libcmark, see `Markdown`).
  public func listReader() -> ListReader {
    Self.markdownListReader()
  }

  /// A list reader that understands `markdown` labels and Markdown list files, without a renderer.
  public static func markdownListReader() -> ListReader {
    ListReader(markdownParser: CommonMarkParser())
  }

  /// The font set `theme` draws with on `platform` (Android's fallback when the theme's
  /// manifest has one), built on first use.
  public func fontSet(for theme: ThemeName, platform: Platform = .ios) throws(RenderError)
    -> FontSet
  {
    try engine(for: theme, platform: platform).fonts
  }

  /// The text engine that measures the text of `theme` on `platform`, built on first use.
  package func textEngine(for theme: ThemeName, platform: Platform = .ios) throws(RenderError)
    -> TextEngine
  {
    try engine(for: theme, platform: platform).text
  }

  /// The name of the font set `theme` draws with on `platform`: `orange`, or `orange/android`
  /// when the theme's manifest states an Android fallback (`Themes.FontManifest.fontSetName(on:)`).
  public func fontSetName(for theme: ThemeName, platform: Platform) throws(RenderError) -> String {
    try manifest(theme).fontSetName(on: platform)
  }

  /// Resolves the tokens of these themes and modes now; an error is kept for the call that needs
  /// the theme (``layout(_:theme:mode:options:)``), which throws it then. Pure Swift: a command
  /// calls it while the drawing libraries load on another thread
  /// (`Graphics/GraphicsLibraries/preload()`), before the fonts, which need them.
  public func resolveThemes(_ combinations: [(ThemeName, ColorMode)]) {
    for (name, mode) in combinations { _ = try? themes.theme(name, mode: mode) }
  }

  /// Finds the font files of every theme in `names` and builds their font sets now.
  ///
  /// - Throws: one `RenderError.graphics(.font(.fontFilesMissing))` listing every missing file of all
  ///   these themes with its package (rather than one theme at a time), or a theme's error.
  public func prepareFonts(for names: [ThemeName], platforms: [Platform] = [.ios])
    throws(RenderError)
  {
    try prepare(fontsFor: names, resolving: [], platforms: platforms)
  }

  /// Finds the font files of every theme in `names` (one error for every missing file, as
  /// ``prepareFonts(for:platforms:)``) and builds their font sets on another thread (once the drawing
  /// libraries are loaded: `Graphics/GraphicsLibraries/whenLoaded(in:_:)`) — a font set is
  /// independent of the others: its own fontconfig configuration and Pango font map — while
  /// this thread resolves the tokens of `combinations` (``resolveThemes(_:)``) and, when there
  /// are some, lists the themes folder's files no output may replace (``inputFiles(for:themes:)``
  /// then finds them listed). Then every text engine is made here, on the renderer's thread.
  /// With several `platforms`, each theme's set for each of them (one set when the theme's
  /// manifest states no Android fallback).
  /// - Throws: as ``prepareFonts(for:platforms:)``; the first theme in `names` whose font set fails.
  public func prepare(
    fontsFor names: [ThemeName], resolving combinations: [(ThemeName, ColorMode)],
    platforms: [Platform] = [.ios]
  ) throws(RenderError) {
    var pending: [String] = []
    var sources: [String: FontSourceList] = [:]
    for name in names {
      for platform in platforms {
        let list = try fontSources(for: name, platform: platform)
        guard engines[list.owner] == nil, sources[list.owner] == nil else { continue }
        pending.append(list.owner)
        sources[list.owner] = list
      }
    }
    let found: [FontSource: LocatedFont]
    do {
      found = try fontLocator.locate(pending.compactMap { sources[$0] })
    } catch {
      throw .graphics(.font(error), nil)
    }
    let located = pending.map { name in
      (sources[name]?.sources ?? []).compactMap { found[$0] }
    }
    let built = Locked([Int: Result<BuiltFontSet, GraphicsError>]())
    let threads = ThreadGroup()
    let (brand, reserved, locator) = (brandFontDirectory, manifestFileNames, fontLocator)
    for (index, fonts) in located.enumerated() {
      GraphicsLibraries.whenLoaded(in: threads) {
        let result = Self.fontSet(
          fonts, brandFontDirectory: brand, reservedFileNames: reserved, locator: locator)
        built.withLock { $0[index] = result }
      }
    }
    resolveThemes(combinations)
    if !combinations.isEmpty { _ = themes.files }
    threads.wait()
    for (index, name) in pending.enumerated() {
      guard let result = built.withLock({ $0[index] }) else { continue }
      _ = try install(name, located: located[index], fonts: result)
    }
  }

  /// A font set made on one thread for another (it is used by one thread at a time).
  private struct BuiltFontSet: @unchecked Sendable {
    let fonts: FontSet
  }

  private static func fontSet(
    _ located: [LocatedFont], brandFontDirectory: URL?, reservedFileNames: Set<String>,
    locator: FontLocator
  ) -> Result<BuiltFontSet, GraphicsError> {
    Result { () throws(GraphicsError) in
      BuiltFontSet(
        fonts: try FontSet(
          fonts: located, brandFontDirectory: brandFontDirectory,
          reservedFileNames: reservedFileNames, hash: locator.sha256(of:)))
    }
  }

  /// The font manifest of a theme.
  private func manifest(_ name: ThemeName) throws(RenderError) -> FontManifest {
    do {
      return try themes.fontManifest(for: name)
    } catch {
      throw .theme(error)
    }
  }

  /// The font files a theme draws with on `platform`, as the font set takes them, owned by the
  /// set's name.
  private func fontSources(for name: ThemeName, platform: Platform) throws(RenderError)
    -> FontSourceList
  {
    try manifest(name).fontSources(on: platform)
  }

  /// The line every rendering command prints: the themes folder and why, then, by default,
  /// each font set of the themes in `names` on `platforms` with how many files it loaded
  /// (`fonts: orange 4 files, sosh 4 files`) or, when `verbose`, every font file (name and
  /// folder), and the Android fallback rule when one of those sets follows it; builds their font
  /// sets when needed. With `paths`, the folders are written as files people share write them
  /// (``SharedPaths``). When the font hash cache could not be written (a read-only home folder),
  /// the line ends saying so.
  public func sourcesLine(
    for names: [ThemeName], platforms: [Platform] = [.ios], paths: SharedPaths? = nil,
    verbose: Bool = false
  ) throws(RenderError) -> String {
    try prepareFonts(for: names, platforms: platforms)
    var files: [LoadedFont] = []
    var manifests: [FontManifest] = []
    var sets: [(name: String, files: Int)] = []
    for name in names {
      manifests.append(try manifest(name))
      for platform in platforms {
        let loaded = try engine(for: name, platform: platform).fonts.files
        let set = platform == .ios ? name.rawValue : "\(name.rawValue)/\(platform.rawValue)"
        if !sets.contains(where: { $0.name == set }) { sets.append((set, loaded.count)) }
        for file in loaded where !files.contains(where: { $0.url == file.url }) {
          files.append(file)
        }
      }
    }
    let rules = platforms.contains(.android) ? RenderSources.androidRules(manifests) : []
    let line: String
    if verbose {
      line =
        paths.map { $0.sourcesLine(themes: themesLocation, fonts: files, rules: rules) }
        ?? RenderSources.line(themes: themesLocation, fonts: files, rules: rules)
    } else {
      line = RenderSources.shortLine(
        themesText: paths.map { $0.themes(themesLocation) }
          ?? "\(RenderSources.printable(themesLocation.directory.path)) (\(themesLocation.source.reason))",
        sets: sets, rules: rules)
    }
    // A home folder that cannot be written (read-only): said once, here, not on each font.
    guard let unwritable = fontLocator.hashCache?.unwritable else { return line }
    return line + " · font hash cache not kept (\(unwritable)): font files are hashed on every run"
  }

  /// The files a render of `list` reads, which none of its outputs may replace: the list's icon
  /// files, the themes folder's files (`Themes/ThemeLibrary/files`), and the font files of the
  /// themes in `names` (as the font locator finds them) and of the brand font folder.
  public func inputFiles(for list: OUDSBulletList, themes names: [ThemeName] = ThemeName.allCases)
    -> InputFiles
  {
    var inputs = InputFiles(list.iconFiles)
    inputs.formUnion(InputFiles(themes.files.map(\.path)))
    let manifests = names.compactMap { try? themes.fontManifest(for: $0) }
    for manifest in manifests {
      for file in Platform.allCases.flatMap({ manifest.fontSources(on: $0).sources }) {
        if let located = fontLocator.locate(file) { inputs.insert(located.url.path) }
      }
    }
    if let brandFontDirectory,
      let names = try? FileManager.default.contentsOfDirectory(atPath: brandFontDirectory.path)
    {
      for name in names.sorted() {
        inputs.insert(brandFontDirectory.appendingPathComponent(name).path)
      }
    }
    return inputs
  }

  /// The file names every manifest of the library uses (they are never brand fonts); read only
  /// when there is a brand font folder to sort out, since nothing else needs other themes' manifests.
  private var manifestFileNames: Set<String> {
    guard brandFontDirectory != nil else { return [] }
    return Set(
      ThemeName.allCases.flatMap { name in
        Platform.allCases.flatMap { platform in
          (try? themes.fontManifest(for: name).files(on: platform).map(\.fileName)) ?? []
        }
      })
  }

  private func engine(for name: ThemeName, platform: Platform) throws(RenderError) -> (
    fonts: FontSet, text: TextEngine, renderer: SceneRenderer
  ) {
    let sources = try fontSources(for: name, platform: platform)
    if let cached = engines[sources.owner] { return cached }
    let located: [LocatedFont]
    do {
      let found = try fontLocator.locate([sources])
      located = sources.sources.compactMap { found[$0] }
    } catch {
      throw .graphics(.font(error), nil)
    }
    return try install(
      sources.owner, located: located,
      fonts: Self.fontSet(
        located, brandFontDirectory: brandFontDirectory, reservedFileNames: manifestFileNames,
        locator: fontLocator))
  }

  /// Makes the text engine and scene renderer of the font set `setName` (`orange`,
  /// `orange/android`) over its fonts, and keeps them.
  private func install(
    _ setName: String, located: [LocatedFont], fonts built: Result<BuiltFontSet, GraphicsError>
  ) throws(RenderError) -> (fonts: FontSet, text: TextEngine, renderer: SceneRenderer) {
    let theme = setName.split(separator: "/").first.map(String.init) ?? setName
    let manifestFile =
      ThemeName(rawValue: theme).map(ThemeLibrary.fontManifestFileName(for:))
      ?? "fonts/\(theme).fonts.json"
    let fonts: FontSet
    switch built {
    case .success(let set): fonts = set.fonts
    case .failure(let error):
      switch error {
      case .font(.fontFileUnreadable): throw .font(manifest: manifestFile, error, nil)
      default: throw .graphics(error, nil)
      }
    }
    // A brand folder's file passed over (hidden, unreadable, not a font) is named, not the
    // manifest: the manifest does not name it.
    let said = located.map {
      Self.messages(for: $0, manifestFile: manifestFile, locator: fontLocator)
    }
    fontWarnings[setName] = fonts.skipped.map(\.description) + said.flatMap(\.warnings)
    for note in said.flatMap(\.notes) where !fontNoteLines.contains(note) {
      fontNoteLines.append(note)
    }
    let text = TextEngine(fonts: fonts)
    let made = (fonts, text, SceneRenderer(textEngine: text))
    engines[setName] = made
    return made
  }

  /// The engine of `name` on `platform` for a picture in `mode`: its set-up errors name that picture.
  private func engine(for name: ThemeName, platform: Platform, attributedTo mode: ColorMode)
    throws(RenderError) -> (fonts: FontSet, text: TextEngine, renderer: SceneRenderer)
  {
    do {
      return try engine(for: name, platform: platform)
    } catch {
      throw error.attributed(theme: name, mode: mode)
    }
  }

  /// What to say about a located file: a file taken although no file has the manifest's hash
  /// (a warning); a same-named file passed over for one with the manifest's hash, a warning when
  /// it is in a folder the user named (`--font-dir`, `OUDS_FONT_DIRS`), else a note
  /// (``fontNotes``): the machine's installed fonts are not the user's doing, and the right file
  /// was found.
  private static func messages(for font: LocatedFont, manifestFile: String, locator: FontLocator)
    -> (warnings: [String], notes: [String])
  {
    let declared = font.declared
    func short(_ sha: String) -> String { String(sha.prefix(12)) + "…" }
    guard font.matchesManifest else {
      return (
        [
          "\(manifestFile): \(declared.fileName) in \(RenderSources.printable(font.url.deletingLastPathComponent().path)) has SHA-256 \(short(font.sha256)), the manifest says \(short(declared.sha256)), and no other file of that name has it: renders may differ from the references"
        ], []
      )
    }
    var warnings: [String] = []
    var notes: [String] = []
    for other in font.otherCandidates {
      let line =
        "\(manifestFile): passed over \(RenderSources.printable(other.path)) (SHA-256 \(short(locator.sha256(of: other) ?? "")), not the manifest's \(short(declared.sha256))); using \(RenderSources.printable(font.url.path))"
      switch locator.folder(containing: other)?.origin {
      case .fontDirectory?, .environment?: warnings.append(line)
      case .fontconfig?, nil: notes.append(line)
      }
    }
    return (warnings, notes)
  }

  /// A renderer whose font set holds every theme's fonts on iOS and `platforms`, for sheets that
  /// mix themes or platforms.
  ///
  /// Each theme's text names its own substitute family first (on Android with a fallback, the
  /// fallback's families), so the union draws every cell with the fonts that cell was measured with.
  package func renderer(forThemes names: [ThemeName], platforms: [Platform] = [.ios])
    throws(RenderError) -> SceneRenderer
  {
    // iOS's sets always: captions and headings use the theme's own families.
    let platforms = Platform.allCases.filter { $0 == .ios || platforms.contains($0) }
    if names.count == 1, let name = names.first {
      var sets = Set<String>()
      for platform in platforms { sets.insert(try fontSetName(for: name, platform: platform)) }
      if sets.count == 1 { return try engine(for: name, platform: .ios).renderer }
    }
    if let sheetRenderer = sheetRenderers[platforms] { return sheetRenderer }
    var lists: [FontSourceList] = []
    for name in ThemeName.allCases {
      for platform in platforms { lists.append(try fontSources(for: name, platform: platform)) }
    }
    let found: [FontSource: LocatedFont]
    do {
      found = try fontLocator.locate(lists)
    } catch {
      throw .graphics(.font(error), nil)
    }
    do {
      var located: [LocatedFont] = []
      for list in lists {
        for file in list.sources {
          guard let font = found[file], !located.contains(where: { $0.url == font.url }) else {
            continue
          }
          located.append(font)
        }
      }
      let fonts = try FontSet(
        fonts: located, brandFontDirectory: brandFontDirectory,
        reservedFileNames: manifestFileNames, hash: fontLocator.sha256(of:))
      let made = SceneRenderer(textEngine: TextEngine(fonts: fonts))
      sheetRenderers[platforms] = made
      return made
    } catch {
      throw .graphics(error, nil)
    }
  }

  /// Lays out `list` for a theme and mode.
  /// - Throws: `RenderError`: `.list` for a list the platform's rules refuse, `.theme`, `.layout`
  ///   or `.graphics` (fonts), each one line.
  public func layout(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode,
    options: LayoutOptions = LayoutOptions()
  ) throws(RenderError) -> LayoutResult {
    var resolved: Theme
    do {
      resolved = try themes.theme(theme, mode: mode)
    } catch {
      throw .theme(error)
    }
    let measurer = try engine(for: theme, platform: options.platform, attributedTo: mode).text
    // Android without the brand font draws what the manifest's `android` key states.
    resolved.fontFamilies = try manifest(theme).fontFamilies(
      on: options.platform, brandFamilies: resolved.fontFamilies)
    var result: LayoutResult
    do {
      result = try ListLayout(theme: resolved, measurer: measurer).layout(list, options: options)
    } catch {
      throw RenderError(error, theme: theme, mode: mode)
    }
    result.warnings =
      (fontWarnings[(try? fontSetName(for: theme, platform: options.platform)) ?? theme.rawValue]
        ?? []) + themes.warnings(theme, mode: mode) + result.warnings
    return result
  }

  /// Renders `list` for one theme and mode.
  ///
  /// A PNG sets Android's text on its own pixels (`LayoutOptions.drawn(atPixelScale:)`);
  /// SVG and PDF on `options.textPixelScale`.
  /// - Throws: `RenderError` as ``layout(_:theme:mode:options:)``, and `.graphics` when drawing
  ///   or encoding fails (an icon file that cannot be read, a canvas too large).
  public func render(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode,
    options: LayoutOptions = LayoutOptions(), format: OutputFormat
  ) throws(RenderError) -> RenderedList {
    var iconsRead: [String: VectorOutline?] = [:]
    return try start(
      list, theme: theme, mode: mode, options: options, format: format, iconsRead: &iconsRead
    ).finish()
  }

  /// A picture drawn, its encoding perhaps still going on (`SceneRenderer.start(_:as:)`).
  private struct PendingList {
    let list: RenderedList
    let picture: PendingPicture

    /// The picture with its bytes, once encoded.
    func finish() throws(RenderError) -> RenderedList {
      var done = list
      do {
        done.data = try picture.data()
      } catch {
        throw .graphics(error, RenderError.Context(theme: list.theme, mode: list.mode))
      }
      return done
    }
  }

  /// Lays out and draws `list` as ``render(_:theme:mode:options:format:)`` does, with the icon
  /// outlines earlier pictures read (``iconOutlines(in:read:)``), and returns before an opaque
  /// PNG's last bands are encoded.
  private func start(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode, options: LayoutOptions,
    format: OutputFormat, iconsRead: inout [String: VectorOutline?],
    encodingThread: BandEncodingThread? = nil
  ) throws(RenderError) -> PendingList {
    let laidOut = try layout(
      list, theme: theme, mode: mode, options: Self.options(options, for: format))
    let renderer = try engine(for: theme, platform: options.platform, attributedTo: mode).renderer
    renderer.iconOutlines = Self.iconOutlines(in: laidOut.scene, read: &iconsRead)
    let picture: PendingPicture
    do {
      picture = try renderer.start(laidOut.scene, as: format, encodingThread: encodingThread)
    } catch {
      throw .graphics(error, RenderError.Context(theme: theme, mode: mode))
    }
    return PendingList(
      list: RenderedList(
        theme: theme, mode: mode, platform: options.platform, data: Data(),
        scene: laidOut.scene, warnings: laidOut.warnings),
      picture: picture)
  }

  /// The options a picture in `format` is laid out with: a PNG's scale is the pixel grid of
  /// Android's text; SVG and PDF keep the options' own.
  package static func options(_ options: LayoutOptions, for format: OutputFormat) -> LayoutOptions {
    guard case .png(let scale) = format else { return options }
    return options.drawn(atPixelScale: scale)
  }

  /// Rasterizes `list` for one theme and mode at `scale` (which Android's text is set on),
  /// without encoding.
  /// - Throws: `RenderError` as ``render(_:theme:mode:options:format:)``.
  public func rasterize(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode,
    options: LayoutOptions = LayoutOptions(), scale: Int
  ) throws(RenderError) -> (image: RasterImage, scene: Scene, warnings: [String]) {
    let laidOut = try layout(
      list, theme: theme, mode: mode, options: options.drawn(atPixelScale: scale))
    let renderer = try engine(for: theme, platform: options.platform, attributedTo: mode).renderer
    renderer.iconOutlines = Self.iconOutlines(in: laidOut.scene)
    do {
      return (try renderer.rasterize(laidOut.scene, scale: scale), laidOut.scene, laidOut.warnings)
    } catch {
      throw .graphics(error, RenderError.Context(theme: theme, mode: mode))
    }
  }

  /// The SVG icons of `scene` whose filled outline draws the pixels librsvg would
  /// (`VectorAssetReader.iconOutline(of:)`), by file: bitmaps draw them without loading librsvg.
  /// A file that cannot be read or is outside that subset is left to librsvg, which reports it.
  /// `read` holds what earlier scenes of the same call found (nil: left to librsvg), so that
  /// the pictures of one ``renderAll(_:combinations:platforms:options:format:)`` read each
  /// icon file once.
  static func iconOutlines(in scene: Scene, read: inout [String: VectorOutline?])
    -> [String: VectorOutline]
  {
    var outlines: [String: VectorOutline] = [:]
    for row in scene.rows {
      guard case .image(let file)? = row.glyph?.content else { continue }
      if read[file] == nil { read[file] = .some(iconOutline(file)) }
      if let outline = read[file] ?? nil { outlines[file] = outline }
    }
    return outlines
  }

  /// ``iconOutlines(in:read:)`` for one scene alone.
  static func iconOutlines(in scene: Scene) -> [String: VectorOutline] {
    var read: [String: VectorOutline?] = [:]
    return iconOutlines(in: scene, read: &read)
  }

  /// Whether drawing these icon files needs librsvg: one of them is an SVG file outside what
  /// `iconOutlines(in:)` fills itself (a command that draws starts loading librsvg early then).
  public static func iconsNeedSVGLibrary(_ files: [String]) -> Bool {
    files.contains { file in
      PathText.pathExtension(file).lowercased() == "svg" && iconOutline(file) == nil
    }
  }

  /// The outline of one SVG icon file, read as a user's icon (``SafeInput/UserFileKind/icon``);
  /// nil too for an icon ``Graphics/SVGIconPolicy`` refuses, which librsvg's path then reports as
  /// it does for every output format.
  private static func iconOutline(_ file: String) -> VectorOutline? {
    guard PathText.pathExtension(file).lowercased() == "svg",
      let data = try? UserFile.read(file, kind: .icon),
      data.count <= VectorAssetReader.maximumIconBytes, SVGIconPolicy.violation(in: data) == nil
    else { return nil }
    return VectorAssetReader.iconOutline(of: [UInt8](data))
  }

  /// Renders `list` for every given theme × mode pair, and for each platform of `platforms`
  /// (nil: `options.platform` alone), one after the other.
  ///
  /// Each picture is rendered as ``render(_:theme:mode:options:format:)`` renders it: an opaque
  /// PNG is drawn band by band while the other core encodes the bands already drawn, which keeps
  /// both cores busy without a whole bitmap per picture. One encoding thread serves all the
  /// pictures (`PNG.BandEncodingThread`): it encodes the last bands of one picture while this
  /// thread lays out and draws the next, and each picture is collected once the next one is
  /// drawn. (Drawing each picture whole and encoding it behind the next one's drawing, as this
  /// did before, took more time: 15,900 page faults instead of 3,000 for the 8 pictures of
  /// `render --theme all --mode all`, and 6 to 12 % more CPU time, `perf stat -r 10`,
  /// 2026-12-05.) The output order is the order of `combinations`, each followed by its
  /// platforms in the order given.
  /// - Throws: `RenderError` as ``render(_:theme:mode:options:format:)``, for the first
  ///   picture that fails.
  public func renderAll(
    _ list: OUDSBulletList, combinations: [(ThemeName, ColorMode)],
    platforms: [Platform]? = nil,
    options: LayoutOptions = LayoutOptions(), format: OutputFormat
  ) throws(RenderError) -> [RenderedList] {
    var pictures: [RenderedList] = []
    var iconsRead: [String: VectorOutline?] = [:]
    // one picture in flight: its last bands are encoded by the encoding thread while this one
    // lays out and draws the next
    let encodingThread = BandEncodingThread()
    defer { encodingThread.close() }
    var inFlight: PendingList?
    for (theme, mode) in combinations {
      for platform in platforms ?? [options.platform] {
        let next: PendingList
        do {
          next = try start(
            list, theme: theme, mode: mode, options: options.on(platform), format: format,
            iconsRead: &iconsRead, encodingThread: encodingThread)
        } catch {
          // the earlier picture's failure comes first
          _ = try inFlight?.finish()
          throw error
        }
        if let earlier = inFlight { pictures.append(try earlier.finish()) }
        inFlight = next
      }
    }
    if let last = inFlight { pictures.append(try last.finish()) }
    return pictures
  }
}

extension FontManifest {
  /// The manifest's files for iOS as the Graphics font set takes them, owned by the theme's name.
  public var fontSources: FontSourceList { fontSources(on: .ios) }

  /// The files `platform` draws with (`Themes.FontManifest.files(on:)`) as the Graphics font
  /// set takes them, owned by the set's name (`orange`, `orange/android`).
  public func fontSources(on platform: Platform) -> FontSourceList {
    FontSourceList(
      owner: fontSetName(on: platform),
      sources: files(on: platform).map {
        FontSource(
          fileName: $0.fileName, sha256: $0.sha256, role: $0.role, package: $0.debianPackage)
      })
  }
}

/// The one line that says where tokens and fonts came from.
public enum RenderSources {
  /// `themes: <folder> (<why>) · fonts: A.ttf, B.ttf in <folder>; C.ttf in <folder>`, files in
  /// load order grouped by folder, brand fonts marked `(brand)`; control characters escaped.
  /// `rules` (``androidRules(_:)``) follow the fonts, each after ` · `.
  public static func line(themes: ThemesLocation, fonts: [LoadedFont], rules: [String] = [])
    -> String
  {
    line(
      themesFolder: themes.directory.path, reason: themes.source.reason,
      fonts: fonts.map {
        FontFile(name: $0.fileName, folder: $0.folder, isBrand: $0.role == "brand")
      }, rules: rules)
  }

  /// The Android fallback rule of these manifests, as the sources line states it:
  /// `android without brand font: orange, orange-compact → Roboto, Noto Naskh Arabic`, one
  /// entry per list of families; empty when no manifest states one.
  public static func androidRules(_ manifests: [FontManifest]) -> [String] {
    androidRules(
      sets: manifests.compactMap { manifest in
        manifest.android.map { (manifest.theme.rawValue, $0.families) }
      })
  }

  /// The same rule from each theme's name and its fallback's families (as a run's results
  /// record them).
  public static func androidRules(sets: [(theme: String, families: [String])]) -> [String] {
    var groups: [(families: [String], themes: [String])] = []
    for set in sets {
      if let index = groups.firstIndex(where: { $0.families == set.families }) {
        if !groups[index].themes.contains(set.theme) { groups[index].themes.append(set.theme) }
      } else {
        groups.append((set.families, [set.theme]))
      }
    }
    return groups.map {
      "android without brand font: \($0.themes.joined(separator: ", ")) → "
        + printable($0.families.joined(separator: ", "))
    }
  }

  /// One font file of the line: its name, its folder, whether it is a brand font.
  public struct FontFile: Hashable, Sendable {
    /// The file name.
    public var name: String
    /// The folder, as the line shows it.
    public var folder: String
    /// Whether it came from the brand font folder (marked `(brand)`).
    public var isBrand: Bool

    /// Creates a record.
    public init(name: String, folder: String, isBrand: Bool) {
      self.name = name
      self.folder = folder
      self.isBrand = isBrand
    }
  }

  /// The same line from the folders as they are to be shown (e.g. relative to a repository root).
  public static func line(
    themesFolder: String, reason: String, fonts: [FontFile], rules: [String] = []
  ) -> String {
    line(themesText: "\(printable(themesFolder)) (\(reason))", fonts: fonts, rules: rules)
  }

  /// The same line from the themes folder's text as it is to be shown (``SharedPaths``).
  static func line(themesText: String, fonts: [FontFile], rules: [String] = []) -> String {
    var groups: [(folder: String, names: [String])] = []
    for font in fonts {
      let name = printable(font.name) + (font.isBrand ? " (brand)" : "")
      if let index = groups.firstIndex(where: { $0.folder == font.folder }) {
        groups[index].names.append(name)
      } else {
        groups.append((font.folder, [name]))
      }
    }
    let fontText =
      groups.isEmpty
      ? "none loaded"
      : groups.map { "\($0.names.joined(separator: ", ")) in \(printable($0.folder))" }.joined(
        separator: "; ")
    return (["themes: \(themesText)", "fonts: \(fontText)"] + rules).joined(separator: " · ")
  }

  /// The short line: `themes: <folder> (<why>) · fonts: orange 4 files, orange/android 2 files`,
  /// each font set once with how many files it loaded (the files are in `--verbose`, in
  /// `results.json` and in `ouds-render themes`), then `rules`.
  public static func shortLine(
    themesText: String, sets: [(name: String, files: Int)], rules: [String] = []
  ) -> String {
    let fontText =
      sets.isEmpty
      ? "none loaded"
      : sets.map { "\(printable($0.name)) \($0.files) file\($0.files == 1 ? "" : "s")" }.joined(
        separator: ", ")
    return (["themes: \(themesText)", "fonts: \(fontText)"] + rules).joined(separator: " · ")
  }

  /// `text` with control characters written as `\u{…}` escapes, so it stays on one line.
  public static func printable(_ text: String) -> String {
    ControlCharacters.escaped(text)
  }
}
