import BulletList
import Dispatch
import Foundation
import Graphics
import Layout
import SafeInput
import Scene
import Themes

/// One rendered picture and the scene it came from.
public struct RenderedList: Sendable {
  /// The theme.
  public var theme: ThemeName
  /// The mode.
  public var mode: ColorMode
  /// Whose rules the picture follows.
  public var platform: OUDSBulletList.Platform
  /// The encoded picture (PNG, SVG or PDF bytes).
  public var data: Data
  /// The laid-out scene the picture was drawn from.
  public var scene: Scene
  /// Layout warnings, one line each.
  public var warnings: [String]
}

/// A layout or drawing error (a canvas too large, an unreadable icon, a missing font) attributed
/// to the theme and mode being rendered, and, once known, to the list file.
public struct RenderError: Error, Sendable, CustomStringConvertible {
  /// The list file, when the list came from a file.
  public var file: String?
  /// The theme being rendered; nil for a sheet of several themes.
  public var theme: ThemeName?
  /// The mode being rendered; nil for a sheet of several modes.
  public var mode: ColorMode?
  /// The error's own one-line description.
  public var message: String

  /// Creates an error.
  public init(file: String? = nil, theme: ThemeName?, mode: ColorMode?, message: String) {
    self.file = file
    self.theme = theme
    self.mode = mode
    self.message = message
  }

  /// `<file>: theme <theme> (<mode>): <message>`, leaving out the parts that are unknown.
  public var description: String {
    var parts: [String] = []
    if let file { parts.append(MessageText.path(file)) }
    switch (theme, mode) {
    case (let theme?, let mode?): parts.append("theme \(theme.rawValue) (\(mode.rawValue))")
    case (let theme?, nil): parts.append("theme \(theme.rawValue)")
    case (nil, let mode?): parts.append("sheet (\(mode.rawValue))")
    case (nil, nil): parts.append("sheet")
    }
    parts.append(MessageText.escaped(message))
    return parts.joined(separator: ": ")
  }

  /// The same error attributed to `file`.
  public func inFile(_ file: String) -> RenderError {
    var copy = self
    copy.file = file
    return copy
  }

  /// Runs `body`, turning a `GraphicsError` or `LayoutError` into a `RenderError` for `theme` and `mode`.
  static func attributing<T>(theme: ThemeName?, mode: ColorMode?, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as GraphicsError {
      throw RenderError(theme: theme, mode: mode, message: error.description)
    } catch let error as LayoutError {
      throw RenderError(theme: theme, mode: mode, message: error.description)
    }
  }
}

/// The whole pipeline behind one object: list → theme → layout → scene → picture.
///
/// Themes are read once; each theme's private font set and text engine are built the first time
/// the theme is used and then reused, so rendering many lists or every theme × mode in one
/// process pays the set-up once. Not thread-safe: use one renderer per thread (several renderers
/// may share one ``FontLocator``).
public final class BulletListRenderer {
  /// The theme tokens in use.
  public let themes: ThemeLibrary
  /// Which themes folder the tokens come from, and why that one.
  public let themesLocation: ThemesLocation
  /// The folder of licensed brand fonts (also searched first for the manifests' files), when given.
  public let brandFontDirectory: URL?
  /// Where the manifests' font files are found.
  public let fontLocator: FontLocator
  private var engines: [ThemeName: (fonts: FontSet, text: TextEngine, renderer: SceneRenderer)] = [:]
  private var sheetRenderer: SceneRenderer?
  private var fontWarnings: [ThemeName: [String]] = [:]

  /// Creates a renderer, finding the themes folder by ``ThemesLocation``'s rules.
  /// - Parameters:
  ///   - themesDirectory: a `Themes/` folder; nil takes `OUDS_THEMES_DIR`, then a `Themes/` in the
  ///     current folder or its parents, then the copy shipped in the package's resource bundle.
  ///   - brandFontDirectory: a folder of licensed brand font files to use instead of substitutes;
  ///     it is also searched first for the manifests' files.
  /// - Throws: `ThemeError` when no themes folder is found or it cannot be read.
  public convenience init(themesDirectory: URL? = nil, brandFontDirectory: URL? = nil) throws {
    try self.init(
      themes: try ThemesLocation.resolve(explicit: themesDirectory), brandFontDirectory: brandFontDirectory)
  }

  /// Creates a renderer over a resolved themes folder.
  /// - Parameters:
  ///   - location: the themes folder and why it was chosen.
  ///   - library: the themes already read from `location`; nil reads them.
  ///   - brandFontDirectory: a folder of licensed brand font files, searched first for the manifests' files too.
  ///   - fontLocator: where font files are found; nil searches `brandFontDirectory`, `OUDS_FONT_DIRS`
  ///     and fontconfig's folders.
  /// - Throws: `ThemeError` when the themes cannot be read, `GraphicsError` for a brand folder that does not exist.
  public init(
    themes location: ThemesLocation, library: ThemeLibrary? = nil, brandFontDirectory: URL? = nil,
    fontLocator: FontLocator? = nil
  ) throws {
    self.themesLocation = location
    self.themes = try library ?? ThemeLibrary(directory: location.directory)
    self.brandFontDirectory = brandFontDirectory
    self.fontLocator = fontLocator ?? FontLocator(fontDirectory: brandFontDirectory)
    if let brandFontDirectory {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: brandFontDirectory.path, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw GraphicsError.fontDirectoryMissing(path: brandFontDirectory.path)
      }
    }
  }

  /// A list reader that understands `markdown` labels (parsed with libcmark).
  public func listReader() -> ListReader {
    ListReader(markdownParser: CommonMarkParser())
  }

  /// The font set of `theme`, built on first use.
  public func fontSet(for theme: ThemeName) throws -> FontSet {
    try engine(for: theme).fonts
  }

  /// Finds the font files of every theme in `names` and builds their font sets now.
  ///
  /// - Throws: one `GraphicsError.fontFilesMissing` listing every missing file of all these
  ///   themes with its package (rather than one theme at a time), or a theme's error.
  public func prepareFonts(for names: [ThemeName]) throws {
    var manifests: [FontManifest] = []
    for name in names where engines[name] == nil { manifests.append(try themes.fontManifest(for: name)) }
    _ = try fontLocator.locate(manifests)
    for name in names { _ = try engine(for: name) }
  }

  /// The line every rendering command prints: the themes folder and why, and the font files
  /// (name and folder) of the themes in `names`; builds their font sets when needed.
  public func sourcesLine(for names: [ThemeName]) throws -> String {
    try prepareFonts(for: names)
    var files: [LoadedFont] = []
    for name in names {
      for file in try engine(for: name).fonts.files where !files.contains(where: { $0.url == file.url }) {
        files.append(file)
      }
    }
    return RenderSources.line(themes: themesLocation, fonts: files)
  }

  /// The files a render of `list` reads, which none of its outputs may replace: the list's icon
  /// files, the themes folder's files (``Themes/ThemeLibrary/files``), and the font files of the
  /// themes in `names` (as the font locator finds them) and of the brand font folder.
  public func inputFiles(for list: OUDSBulletList, themes names: [ThemeName] = ThemeName.allCases) -> InputFiles {
    var inputs = InputFiles(list.iconFiles)
    inputs.formUnion(InputFiles(themes.files.map(\.path)))
    let manifests = names.compactMap { try? themes.fontManifest(for: $0) }
    for manifest in manifests {
      for file in manifest.files {
        if let located = fontLocator.locate(file) { inputs.insert(located.url.path) }
      }
    }
    if let brandFontDirectory,
      let names = try? FileManager.default.contentsOfDirectory(atPath: brandFontDirectory.path)
    {
      for name in names.sorted() { inputs.insert(brandFontDirectory.appendingPathComponent(name).path) }
    }
    return inputs
  }

  /// The file names every manifest of the library uses (they are never brand fonts).
  private var manifestFileNames: Set<String> {
    Set(ThemeName.allCases.flatMap { (try? themes.fontManifest(for: $0).files.map(\.fileName)) ?? [] })
  }

  private func engine(for name: ThemeName) throws -> (
    fonts: FontSet, text: TextEngine, renderer: SceneRenderer
  ) {
    if let cached = engines[name] { return cached }
    let manifest = try themes.fontManifest(for: name)
    let manifestFile = ThemeLibrary.fontManifestFileName(for: name)
    let found = try fontLocator.locate([manifest])
    let located = manifest.files.compactMap { found[$0] }
    let fonts: FontSet
    do {
      fonts = try FontSet(
        fonts: located, brandFontDirectory: brandFontDirectory, reservedFileNames: manifestFileNames)
    } catch {
      switch error {
      case .fontFileUnreadable: throw LayoutError("\(manifestFile): \(error)")
      default: throw error
      }
    }
    fontWarnings[name] = located.flatMap { Self.warnings(for: $0, manifestFile: manifestFile, locator: fontLocator) }
    let text = TextEngine(fonts: fonts)
    let made = (fonts, text, SceneRenderer(textEngine: text))
    engines[name] = made
    return made
  }

  /// What to say about a located file: a same-named file passed over for its hash, or a file
  /// taken although no file has the manifest's hash.
  private static func warnings(for font: LocatedFont, manifestFile: String, locator: FontLocator) -> [String] {
    let declared = font.declared
    func short(_ sha: String) -> String { String(sha.prefix(12)) + "…" }
    if font.matchesManifest {
      return font.otherCandidates.map { other in
        "\(manifestFile): passed over \(RenderSources.printable(other.path)) (SHA-256 \(short(locator.sha256(of: other) ?? "")), not the manifest's \(short(declared.sha256))); using \(RenderSources.printable(font.url.path))"
      }
    }
    return [
      "\(manifestFile): \(declared.fileName) in \(RenderSources.printable(font.url.deletingLastPathComponent().path)) has SHA-256 \(short(font.sha256)), the manifest says \(short(declared.sha256)), and no other file of that name has it: renders may differ from the references"
    ]
  }

  /// A renderer whose font set holds every theme's fonts, for sheets that mix themes.
  ///
  /// Each theme's text names its own substitute family first, so the union draws every cell with
  /// the fonts that cell was measured with.
  func renderer(forThemes names: [ThemeName]) throws -> SceneRenderer {
    if names.count == 1, let name = names.first { return try engine(for: name).renderer }
    if let sheetRenderer { return sheetRenderer }
    var manifests: [FontManifest] = []
    for name in ThemeName.allCases { manifests.append(try themes.fontManifest(for: name)) }
    let found = try fontLocator.locate(manifests)
    var located: [LocatedFont] = []
    for manifest in manifests {
      for file in manifest.files {
        guard let font = found[file], !located.contains(where: { $0.url == font.url }) else { continue }
        located.append(font)
      }
    }
    let fonts = try FontSet(
      fonts: located, brandFontDirectory: brandFontDirectory, reservedFileNames: manifestFileNames)
    let made = SceneRenderer(textEngine: TextEngine(fonts: fonts))
    sheetRenderer = made
    return made
  }

  /// Lays out `list` for a theme and mode.
  /// - Throws: `BulletListError`, `ThemeError`, `LayoutError` or `GraphicsError`, each one line.
  public func layout(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode,
    options: LayoutOptions = LayoutOptions()
  ) throws -> LayoutResult {
    let resolved = try themes.theme(theme, mode: mode)
    var result = try RenderError.attributing(theme: theme, mode: mode) {
      try ListLayout(theme: resolved, measurer: engine(for: theme).text).layout(list, options: options)
    }
    result.warnings = (fontWarnings[theme] ?? []) + result.warnings
    return result
  }

  /// Renders `list` for one theme and mode.
  public func render(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode,
    options: LayoutOptions = LayoutOptions(), format: OutputFormat
  ) throws -> RenderedList {
    let laidOut = try layout(list, theme: theme, mode: mode, options: options)
    let data = try RenderError.attributing(theme: theme, mode: mode) {
      try engine(for: theme).renderer.render(laidOut.scene, as: format)
    }
    return RenderedList(
      theme: theme, mode: mode, platform: options.platform, data: data, scene: laidOut.scene,
      warnings: laidOut.warnings)
  }

  /// Rasterizes `list` for one theme and mode at `scale`, without encoding.
  public func rasterize(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode,
    options: LayoutOptions = LayoutOptions(), scale: Int
  ) throws -> (image: RasterImage, scene: Scene, warnings: [String]) {
    let laidOut = try layout(list, theme: theme, mode: mode, options: options)
    let image = try RenderError.attributing(theme: theme, mode: mode) {
      try engine(for: theme).renderer.rasterize(laidOut.scene, scale: scale)
    }
    return (image, laidOut.scene, laidOut.warnings)
  }

  /// Renders `list` for every given theme × mode pair, and for each platform of `platforms`
  /// (nil: `options.platform` alone).
  ///
  /// Layout and drawing run on this thread (Pango is not thread-safe), while one background
  /// worker encodes the previous picture as PNG: on two cores the encoder, the costly part, runs
  /// beside the drawing. The output order is the order of `combinations`, each followed by its
  /// platforms in the order given.
  public func renderAll(
    _ list: OUDSBulletList, combinations: [(ThemeName, ColorMode)],
    platforms: [OUDSBulletList.Platform]? = nil,
    options: LayoutOptions = LayoutOptions(), format: OutputFormat
  ) throws -> [RenderedList] {
    let jobs: [(theme: ThemeName, mode: ColorMode, options: LayoutOptions)] = combinations.flatMap {
      combination in
      (platforms ?? [options.platform]).map { platform in
        var options = options
        options.platform = platform
        return (combination.0, combination.1, options)
      }
    }
    guard case .png(let scale) = format else {
      return try jobs.map { try render(list, theme: $0.theme, mode: $0.mode, options: $0.options, format: format) }
    }
    let encoded = ParallelResults<Data>(count: jobs.count)
    let encoder = DispatchQueue(label: "ouds-render.png-encoder")
    var scenes: [(Scene, [String])] = []
    defer { encoder.sync {} }  // never leave the encoder running past a thrown error
    for (index, job) in jobs.enumerated() {
      let laidOut = try layout(list, theme: job.theme, mode: job.mode, options: job.options)
      let bitmap = try RenderError.attributing(theme: job.theme, mode: job.mode) {
        try engine(for: job.theme).renderer.draw(laidOut.scene, scale: scale)
      }
      scenes.append((laidOut.scene, laidOut.warnings))
      let (theme, mode) = (job.theme, job.mode)
      encoder.async {
        encoded.set(
          index, Result { try RenderError.attributing(theme: theme, mode: mode) { try bitmap.encodePNG() } })
      }
    }
    encoder.sync {}
    return try jobs.enumerated().map { index, job in
      RenderedList(
        theme: job.theme, mode: job.mode, platform: job.options.platform,
        data: try encoded.get(index), scene: scenes[index].0, warnings: scenes[index].1)
    }
  }
}

/// A fixed-size array of results filled from several threads, each slot written once.
final class ParallelResults<Value>: @unchecked Sendable {
  private var slots: [Result<Value, any Error>?]
  private let lock = NSLock()

  init(count: Int) {
    slots = Array(repeating: nil, count: count)
  }

  func set(_ index: Int, _ result: Result<Value, any Error>) {
    lock.lock()
    slots[index] = result
    lock.unlock()
  }

  func get(_ index: Int) throws -> Value {
    lock.lock()
    let slot = slots[index]
    lock.unlock()
    guard let slot else { throw LayoutError("internal error: result \(index) was never produced") }
    return try slot.get()
  }
}

/// The one line that says where tokens and fonts came from.
public enum RenderSources {
  /// `themes: <folder> (<why>) · fonts: A.ttf, B.ttf in <folder>; C.ttf in <folder>`, files in
  /// load order grouped by folder, brand fonts marked `(brand)`; control characters escaped.
  public static func line(themes: ThemesLocation, fonts: [LoadedFont]) -> String {
    var groups: [(folder: String, names: [String])] = []
    for font in fonts {
      let name = printable(font.fileName) + (font.role == "brand" ? " (brand)" : "")
      if let index = groups.firstIndex(where: { $0.folder == font.folder }) {
        groups[index].names.append(name)
      } else {
        groups.append((font.folder, [name]))
      }
    }
    let fontText = groups.isEmpty
      ? "none loaded" : groups.map { "\($0.names.joined(separator: ", ")) in \(printable($0.folder))" }.joined(separator: "; ")
    return "themes: \(printable(themes.directory.path)) (\(themes.source.reason)) · fonts: \(fontText)"
  }

  /// `text` with control characters written as `\u{…}` escapes, so it stays on one line.
  public static func printable(_ text: String) -> String {
    ControlCharacters.escaped(text)
  }
}
