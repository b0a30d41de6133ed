internal import CGraphics
internal import CGraphicsLoader
import Fonts
import Primitives
import SafeInput
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A font file that a ``FontSet`` loaded, with what the render-stack fingerprint records about it.
public struct LoadedFont: Hashable, Sendable {
  /// The file loaded.
  public var url: URL
  /// SHA-256 of the file's bytes, lower-case hex.
  public var sha256: String
  /// Family name of the file's first face, as fontconfig reads it (e.g. `Liberation Sans`).
  public var family: String
  /// The role of the file's ``FontSource`` (e.g. `latin-regular`), or `brand` for a file of the brand folder.
  public var role: String

  /// Creates a loaded-font record.
  public init(url: URL, sha256: String, family: String, role: String) {
    self.url = url
    self.sha256 = sha256
    self.family = family
    self.role = role
  }

  /// The file name, e.g. `LiberationSans-Regular.ttf`.
  public var fileName: String { url.lastPathComponent }
  /// The folder the file was loaded from.
  public var folder: String { url.deletingLastPathComponent().path }
}

/// A file of the brand font folder that a ``FontSet`` passed over, and why: the set is built
/// without it, and the caller warns once, naming the file.
public struct SkippedFontFile: Hashable, Sendable, CustomStringConvertible {
  /// Why a file was passed over.
  public enum Reason: Hashable, Sendable {
    /// Its name starts with a dot, such as the `._<name>` files macOS writes beside the files it
    /// copies to a disk that cannot hold its metadata.
    case hidden
    /// It could not be read: not a regular file, unreadable, or over the font size limit.
    case unreadable
    /// Fontconfig read it and found no font in it.
    case notAFont
  }

  /// The file.
  public var url: URL
  /// Why it was passed over.
  public var reason: Reason

  /// Creates a record.
  public init(url: URL, reason: Reason) {
    self.url = url
    self.reason = reason
  }

  /// `--font-dir: skipped <path>: <why>`, control characters escaped.
  public var description: String {
    let why =
      switch reason {
      case .hidden:
        "a hidden file (macOS writes ._ files like it beside the fonts it copies), not a font"
      case .unreadable:
        "it cannot be read (not a regular file, no permission, or over the \(UserFileKind.font.maximumBytes / 1_048_576) MiB a font may have)"
      case .notAFont: "fontconfig cannot read it as a font"
      }
    return
      "\(FontFolder.Origin.fontDirectory.label): skipped \(ControlCharacters.escaped(url.path)): \(why)"
  }
}

/// A private, hermetic set of fonts: exactly the given font files (plus optional brand fonts).
///
/// The fonts live in a fontconfig configuration of their own, handed to a Pango font map of its
/// own, so the fonts installed on the machine never change a layout or a pixel. Rules for
/// synthetic oblique and bold faces are added (they load no font), so italic text slants a roman
/// face when the set holds no italic file.
///
/// Not thread-safe: use a `FontSet` and the ``TextEngine`` built on it from one thread at a time.
public final class FontSet {
  /// The files that were loaded, brand fonts first, then the located sources in order.
  public var files: [LoadedFont] { loaded.files }

  /// The files of the brand font folder passed over (hidden, unreadable, or not fonts), in
  /// name order: one warning each.
  public var skipped: [SkippedFontFile] {
    (hiddenOrUnreadable + loaded.skipped).sorted { $0.url.path < $1.url.path }
  }

  /// The brand folder's files passed over before fontconfig saw them.
  private let hiddenOrUnreadable: [SkippedFontFile]

  /// The private Pango font map (a PangoCairoFcFontMap), lent by ``LoadedFontMap``.
  var fontMap: UnsafeMutablePointer<PangoFontMap> { loaded.map }

  /// The font map and its files, this set's alone until `deinit` gives it back to the pool.
  let loaded: LoadedFontMap

  /// Loads located font sources, and the brand fonts of `brandFontDirectory`.
  ///
  /// Brand fonts are every `.ttf`/`.otf`/`.ttc` of the folder whose name no source uses
  /// (`reservedFileNames`, and the located sources' names): a source's file placed there serves
  /// the source, never the brand. A hidden file (name starting with a dot), a file that cannot be
  /// read and a file fontconfig finds no font in are passed over and listed in ``skipped``.
  /// They are added first; the family list of each text decides which family wins, so theme data
  /// that names the brand family first gets the brand face when it is present.
  /// Brand fonts are hashed with `hash` (a ``FontLocator``'s ``FontLocator/sha256(of:)`` uses its
  /// hash cache).
  /// - Throws: `.fontDirectoryMissing` for a brand folder that does not exist,
  ///   `.fontFileUnreadable` when fontconfig rejects a located source's file, `.fontSystemUnavailable` when
  ///   fontconfig or Pango fail, `.libraryUnavailable` when they cannot be loaded.
  public init(
    fonts located: [LocatedFont], brandFontDirectory: URL? = nil,
    reservedFileNames: Set<String> = [],
    hash: (URL) -> String? = { SHA256Digest.hex(ofFileAt: $0) }
  ) throws(GraphicsError) {
    try GraphicsLibraries.load()
    var requested: [(url: URL, sha256: String, role: String, isBrand: Bool)] = []
    var passedOver: [SkippedFontFile] = []
    if let brandFontDirectory {
      let manifestNames = reservedFileNames.union(located.map(\.declared.fileName))
      for url in try Self.brandFontFiles(in: brandFontDirectory)
      where !manifestNames.contains(url.lastPathComponent) {
        if url.lastPathComponent.hasPrefix(".") {
          passedOver.append(SkippedFontFile(url: url, reason: .hidden))
          continue
        }
        guard let sha = hash(url) else {
          passedOver.append(SkippedFontFile(url: url, reason: .unreadable))
          continue
        }
        requested.append((url, sha, "brand", true))
      }
    }
    hiddenOrUnreadable = passedOver
    for font in located { requested.append((font.url, font.sha256, font.declared.role, false)) }

    // The same files, by path and hash, make the same fonts: take an idle map that holds them.
    let key = requested.map { "\($0.sha256) \($0.role) \($0.url.path)" }
    if let idle = LoadedFontMap.takeIdle(key) {
      self.loaded = idle
      return
    }
    let config = try PrivateFontConfig()
    // A brand file fontconfig rejects is passed over; a located source's file is an error.
    var rejected: Set<String> = []
    for file in requested where !config.addFile(file.url.path) {
      guard file.isBrand else { throw .fontFileUnreadable(path: file.url.path) }
      rejected.insert(file.url.path)
    }
    guard config.addSyntheticFaceRules() else {
      throw .fontSystemUnavailable(reason: "fontconfig rejected the synthetic-face rules")
    }
    var files: [LoadedFont] = []
    var skipped: [SkippedFontFile] = []
    let families = config.applicationFamilies()
    for file in requested {
      let path = file.url.path
      guard !rejected.contains(path),
        let family = families[path] ?? PrivateFontConfig.family(ofFontAt: path)
      else {
        guard file.isBrand else { throw .fontFileUnreadable(path: file.url.path) }
        skipped.append(SkippedFontFile(url: file.url, reason: .notAFont))
        continue
      }
      files.append(LoadedFont(url: file.url, sha256: file.sha256, family: family, role: file.role))
    }

    if Self.emptyDefaultConfigurationRequested.withLock({ $0 }) {
      PrivateFontConfig.makeEmptyConfigCurrent()
    }
    guard let map = ouds_pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
      throw .fontSystemUnavailable(reason: "Pango could not create a FreeType font map")
    }
    // The font map takes its own reference on the configuration.
    ouds_pango_fc_font_map_set_config(OpaquePointer(map), config.handle)
    self.loaded = LoadedFontMap(key: key, map: map, files: files, skipped: skipped)
  }

  /// Locates the files of `sources` with `locator` (see ``FontLocator``), then loads them.
  /// - Throws: `.fontFilesMissing` listing every file no font folder holds, and the errors of
  ///   ``init(fonts:brandFontDirectory:reservedFileNames:)``.
  public convenience init(
    sources: FontSourceList, locator: FontLocator = FontLocator(), brandFontDirectory: URL? = nil
  ) throws(GraphicsError) {
    let found = try locator.locate([sources])
    try self.init(
      fonts: sources.sources.compactMap { found[$0] }, brandFontDirectory: brandFontDirectory,
      hash: locator.sha256(of:))
  }

  /// Makes the font sets of this process leave fontconfig's default configuration empty: call it
  /// once at start, before the first font set. The `ouds-render` command does.
  ///
  /// Pango starts a thread that calls `FcInit()` when it makes its first font map, and waits for
  /// it before it lists the first font: with no current configuration, `FcInit()` parses the
  /// machine's whole fontconfig configuration and reads its font caches (about 4 ms on the
  /// critical path of every render), for fonts this package never uses, since every font set has
  /// its own configuration. Once asked, the first font set makes an empty configuration current
  /// instead: `FcInit()` returns at once, and nothing in the process reaches a system font through
  /// the default configuration. A program that draws other text with fontconfig's default
  /// configuration must not call this.
  public static func useEmptyDefaultFontconfigConfiguration() {
    emptyDefaultConfigurationRequested.withLock { $0 = true }
  }

  private static let emptyDefaultConfigurationRequested = Locked(false)

  deinit {
    LoadedFontMap.giveBack(loaded)
  }

  /// The font files of a brand folder, sorted by name so the load order is stable.
  private static func brandFontFiles(in directory: URL) throws(GraphicsError) -> [URL] {
    guard PathText.isFolder(directory.path) else {
      throw .fontDirectoryMissing(path: directory.path)
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw .fontDirectoryMissing(path: directory.path)
    }
    let extensions: Set<String> = ["ttf", "otf", "ttc"]
    return names.filter { extensions.contains(PathText.pathExtension($0).lowercased()) }
      .sorted()
      .map { directory.appendingPathComponent($0) }
  }
}

/// A Pango font map over a private fontconfig configuration, and the files it holds.
///
/// Fontconfig and Pango keep a little memory for every configuration and font map made, even once
/// released (about 20 KB a theme), so a process that renders again and again (`--watch`, the
/// gallery's workers, a test run) would grow with every render. A ``FontSet`` that is released
/// gives its map back to a small pool instead, and the next set of the same files (same paths,
/// same SHA-256, same roles) takes it: the fonts are the same, so are the layouts and pixels.
final class LoadedFontMap: @unchecked Sendable {
  // @unchecked: the map is used by one FontSet at a time (the pool hands it over under its lock),
  // as FontSet's own rule asks; nothing here changes after init.

  /// What the map holds: one `sha256 role path` line a file, in load order.
  let key: [String]
  /// The font map; released when this value is.
  let map: UnsafeMutablePointer<PangoFontMap>
  /// The files it holds, with their families.
  let files: [LoadedFont]
  /// The brand folder's files of `key` fontconfig found no font in.
  let skipped: [SkippedFontFile]

  init(
    key: [String], map: UnsafeMutablePointer<PangoFontMap>, files: [LoadedFont],
    skipped: [SkippedFontFile] = []
  ) {
    self.key = key
    self.map = map
    self.files = files
    self.skipped = skipped
    Self.made.withLock { $0[key, default: 0] += 1 }
  }

  deinit {
    ouds_g_object_unref(map)
  }

  /// How many maps the pool keeps unused at most; the oldest goes first.
  static let idleCapacity = 16
  /// The maps no set is using, oldest first.
  private static let idle = Locked<[LoadedFontMap]>([])
  /// How many maps this process has made for each set of files (the tests read it).
  static let made = Locked<[[String]: Int]>([:])

  /// An unused map holding exactly `key`'s files, taken out of the pool.
  static func takeIdle(_ key: [String]) -> LoadedFontMap? {
    idle.withLock { maps in maps.firstIndex { $0.key == key }.map { maps.remove(at: $0) } }
  }

  /// Puts `map` back in the pool; the oldest unused map is released when the pool is full.
  static func giveBack(_ map: LoadedFontMap) {
    let evicted: LoadedFontMap? = idle.withLock { maps in
      maps.append(map)
      return maps.count > idleCapacity ? maps.removeFirst() : nil
    }
    _ = evicted  // released here, outside the lock
  }
}

/// A fontconfig configuration that is empty until files are added; released in `deinit`.
private struct PrivateFontConfig: ~Copyable {
  let handle: OpaquePointer

  init() throws(GraphicsError) {
    guard let config = ouds_FcConfigCreate() else {
      throw .fontSystemUnavailable(reason: "FcConfigCreate returned NULL")
    }
    handle = config
  }

  deinit {
    ouds_FcConfigDestroy(handle)
  }

  /// Adds one font file to the configuration's application font set; false when rejected.
  func addFile(_ path: String) -> Bool {
    path.withCString { cPath in
      cPath.withMemoryRebound(to: FcChar8.self, capacity: path.utf8.count + 1) {
        ouds_FcConfigAppFontAddFile(handle, $0) != 0
      }
    }
  }

  /// Makes an empty configuration (no folders, no fonts, no rules) fontconfig's current one, once
  /// per process (see ``FontSet/useEmptyDefaultFontconfigConfiguration()``).
  static func makeEmptyConfigCurrent() {
    _ = emptyCurrentConfig
  }

  private static let emptyCurrentConfig: Bool = {
    guard let empty = ouds_FcConfigCreate() else { return false }
    defer { ouds_FcConfigDestroy(empty) }  // FcConfigSetCurrent keeps its own reference
    return ouds_FcConfigSetCurrent(empty) != 0
  }()

  /// The family of the first face (index 0) of each file added with ``addFile(_:)``, by the
  /// path it was added with, as fontconfig read it then: the same pattern ``family(ofFontAt:)``
  /// would read again from the file (the configuration has no scan rules that could change it).
  func applicationFamilies() -> [String: String] {
    guard let set = ouds_FcConfigGetFonts(handle, FcSetApplication), let fonts = set.pointee.fonts
    else { return [:] }
    var families: [String: String] = [:]
    for index in 0..<Int(max(0, set.pointee.nfont)) {
      guard let pattern = fonts[index] else { continue }
      var file: UnsafeMutablePointer<FcChar8>?
      var face: Int32 = -1
      var family: UnsafeMutablePointer<FcChar8>?
      guard ouds_FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file,
        ouds_FcPatternGetInteger(pattern, FC_INDEX, 0, &face) == FcResultMatch, face == 0,
        ouds_FcPatternGetString(pattern, FC_FAMILY, 0, &family) == FcResultMatch, let family
      else { continue }
      let path = String(cString: file)
      if families[path] == nil { families[path] = String(cString: family) }
    }
    return families
  }

  /// Family name of the file's first face, as fontconfig reads it; nil when it is not a font.
  static func family(ofFontAt path: String) -> String? {
    path.withCString { cPath in
      cPath.withMemoryRebound(to: FcChar8.self, capacity: path.utf8.count + 1) { file in
        var count: Int32 = 0
        guard let pattern = ouds_FcFreeTypeQuery(file, 0, nil, &count) else { return nil }
        defer { ouds_FcPatternDestroy(pattern) }
        var family: UnsafeMutablePointer<FcChar8>?
        guard ouds_FcPatternGetString(pattern, FC_FAMILY, 0, &family) == FcResultMatch, let family
        else { return nil }
        return String(cString: family)
      }
    }
  }

  /// Adds fontconfig rules (no fonts) for synthetic oblique and bold faces, as the system's
  /// `90-synthetic.conf` does: italic text slants a roman face when the set has no italic.
  func addSyntheticFaceRules() -> Bool {
    Self.syntheticFaceRules.withCString { xml in
      xml.withMemoryRebound(to: FcChar8.self, capacity: Self.syntheticFaceRules.utf8.count + 1) {
        ouds_FcConfigParseAndLoadFromMemory(handle, $0, 1) != 0
      }
    }
  }

  private static let syntheticFaceRules = """
    <?xml version="1.0"?>
    <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
    <fontconfig>
      <match target="font">
        <test name="slant"><const>roman</const></test>
        <test target="pattern" name="slant" compare="not_eq"><const>roman</const></test>
        <edit name="matrix" mode="assign">
          <times><name>matrix</name>
            <matrix><double>1</double><double>0.2</double><double>0</double><double>1</double></matrix>
          </times>
        </edit>
        <edit name="slant" mode="assign"><const>oblique</const></edit>
        <edit name="embeddedbitmap" mode="assign"><bool>false</bool></edit>
      </match>
      <match target="font">
        <test name="weight" compare="less_eq"><const>medium</const></test>
        <test target="pattern" name="weight" compare="more"><const>medium</const></test>
        <edit name="embolden" mode="assign"><bool>true</bool></edit>
        <edit name="weight" mode="assign"><const>bold</const></edit>
      </match>
    </fontconfig>
    """
}
