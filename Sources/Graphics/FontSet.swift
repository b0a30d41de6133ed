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
  /// - Throws: `.font(.fontDirectoryMissing)` for a brand folder that does not exist,
  ///   `.font(.fontFileUnreadable)` when fontconfig rejects a located source's file,
  ///   `.font(.fontSystemUnavailable)` when fontconfig or Pango fail, `.libraryUnavailable` when
  ///   they cannot be loaded.
  public init(
    fonts located: [LocatedFont], brandFontDirectory: URL? = nil,
    reservedFileNames: Set<String> = [],
    hash: (URL) -> String? = { SHA256Digest.hex(ofFileAt: $0) }
  ) throws(GraphicsError) {
    try GraphicsLibraries.load()
    let requested: [FontRequest]
    do {
      (requested, hiddenOrUnreadable) = try FontRequests.make(
        fonts: located, brandFontDirectory: brandFontDirectory,
        reservedFileNames: reservedFileNames, hash: hash)
    } catch {
      throw .font(error)
    }
    // The same files, by path and hash, make the same fonts: take an idle map that holds them.
    let key = requested.map { "\($0.sha256) \($0.role) \($0.url.path)" }
    if let idle = LoadedFontMap.takeIdle(key) {
      self.loaded = idle
      return
    }
    let config: FontConfiguration
    do {
      config = try FontConfiguration(loading: requested)
    } catch {
      throw .font(error)
    }
    if Self.emptyDefaultConfigurationRequested.withLock({ $0 }) {
      FontConfiguration.makeEmptyConfigurationCurrent()
    }
    guard let map = ouds_pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
      throw .font(.fontSystemUnavailable(reason: "Pango could not create a FreeType font map"))
    }
    // The font map takes its own reference on the configuration.
    ouds_pango_fc_font_map_set_config(OpaquePointer(map), config.handle)
    self.loaded = LoadedFontMap(key: key, map: map, files: config.files, skipped: config.skipped)
  }

  /// Locates the files of `sources` with `locator` (see ``FontLocator``), then loads them.
  /// - Throws: `.font(.fontFilesMissing)` listing every file no font folder holds, and the errors of
  ///   ``init(fonts:brandFontDirectory:reservedFileNames:)``.
  public convenience init(
    sources: FontSourceList, locator: FontLocator = FontLocator(), brandFontDirectory: URL? = nil
  ) throws(GraphicsError) {
    let found: [FontSource: LocatedFont]
    do {
      found = try locator.locate([sources])
    } catch {
      throw .font(error)
    }
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
