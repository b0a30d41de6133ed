import BulletList
import Dispatch
import Foundation
import Graphics
import Layout
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

/// The whole pipeline behind one object: list → theme → layout → scene → picture.
///
/// Themes are read once; each theme's private font set and text engine are built the first time
/// the theme is used and then reused, so rendering many lists or every theme × mode in one
/// process pays the set-up once. Not thread-safe: use one renderer per thread.
public final class BulletListRenderer {
  /// The theme tokens in use.
  public let themes: ThemeLibrary
  /// The folder of licensed brand fonts, when given.
  public let brandFontDirectory: URL?
  private var engines: [ThemeName: (fonts: FontSet, text: TextEngine, renderer: SceneRenderer)] = [:]
  private var sheetRenderer: SceneRenderer?
  private var fontWarnings: [ThemeName: [String]] = [:]

  /// Creates a renderer.
  /// - Parameters:
  ///   - themesDirectory: a `Themes/` folder; nil uses the repository's.
  ///   - brandFontDirectory: a folder of licensed brand font files to use instead of substitutes.
  /// - Throws: `ThemeError` when the themes cannot be read.
  public init(themesDirectory: URL? = nil, brandFontDirectory: URL? = nil) throws {
    let directory = try themesDirectory ?? ThemeLibrary.defaultDirectory()
    self.themes = try ThemeLibrary(directory: directory)
    self.brandFontDirectory = brandFontDirectory
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

  private func engine(for name: ThemeName) throws -> (
    fonts: FontSet, text: TextEngine, renderer: SceneRenderer
  ) {
    if let cached = engines[name] { return cached }
    let manifest = try themes.fontManifest(for: name)
    let manifestFile = ThemeLibrary.fontManifestFileName(for: name)
    let fonts: FontSet
    do {
      fonts = try FontSet(manifest: manifest, brandFontDirectory: brandFontDirectory)
    } catch {
      switch error {
      case .fontFileMissing, .fontFileUnreadable: throw LayoutError("\(manifestFile): \(error)")
      default: throw error
      }
    }
    // A font file that is not the one the manifest declares still renders, but not like the
    // references: say so once per theme.
    fontWarnings[name] = manifest.files.compactMap { declared in
      guard let loaded = fonts.files.first(where: { $0.path == declared.path }),
        loaded.sha256.lowercased() != declared.sha256.lowercased()
      else { return nil }
      return "\(manifestFile): \(declared.path) has SHA-256 \(loaded.sha256.prefix(12))…, the manifest says \(declared.sha256.prefix(12))…: renders may differ from the references"
    }
    let text = TextEngine(fonts: fonts)
    let made = (fonts, text, SceneRenderer(textEngine: text))
    engines[name] = made
    return made
  }

  /// A renderer whose font set holds every theme's fonts, for sheets that mix themes.
  ///
  /// Each theme's text names its own substitute family first, so the union draws every cell with
  /// the fonts that cell was measured with.
  func renderer(forThemes names: [ThemeName]) throws -> SceneRenderer {
    if names.count == 1, let name = names.first { return try engine(for: name).renderer }
    if let sheetRenderer { return sheetRenderer }
    var files: [FontFile] = []
    for name in ThemeName.allCases {
      for file in try themes.fontManifest(for: name).files where !files.contains(where: { $0.path == file.path }) {
        files.append(file)
      }
    }
    let fonts = try FontSet(
      manifest: FontManifest(theme: .orange, files: files), brandFontDirectory: brandFontDirectory)
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
    var result = try ListLayout(theme: resolved, measurer: engine(for: theme).text).layout(
      list, options: options)
    result.warnings = (fontWarnings[theme] ?? []) + result.warnings
    return result
  }

  /// Renders `list` for one theme and mode.
  public func render(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode,
    options: LayoutOptions = LayoutOptions(), format: OutputFormat
  ) throws -> RenderedList {
    let laidOut = try layout(list, theme: theme, mode: mode, options: options)
    let data = try engine(for: theme).renderer.render(laidOut.scene, as: format)
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
    let image = try engine(for: theme).renderer.rasterize(laidOut.scene, scale: scale)
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
      let bitmap = try engine(for: job.theme).renderer.draw(laidOut.scene, scale: scale)
      scenes.append((laidOut.scene, laidOut.warnings))
      encoder.async { encoded.set(index, Result { try bitmap.encodePNG() }) }
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
