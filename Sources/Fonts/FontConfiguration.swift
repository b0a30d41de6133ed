internal import CGraphics
internal import CGraphicsLoader
import Primitives
import SafeInput

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A font file that a ``FontConfiguration`` loaded, with what the render-stack fingerprint
/// records about it.
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

/// A file of the brand font folder that a ``FontConfiguration`` passed over, and why: the set is built
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

/// One font file to load into a ``FontConfiguration``: where it is, the SHA-256 of its bytes, the
/// role of its ``FontSource`` (`brand` for a file of the brand folder), and whether it is a file
/// of the brand folder (fontconfig rejecting it passes it over, where a located source's file
/// rejected is an error).
public typealias FontRequest = (url: URL, sha256: String, role: String, isBrand: Bool)

/// The font files a font set loads.
public enum FontRequests {
  /// The files to load for located sources and the brand fonts of `brandFontDirectory`, brand
  /// fonts first, and the brand folder's files passed over before fontconfig sees them.
  ///
  /// Brand fonts are every `.ttf`/`.otf`/`.ttc` of the folder whose name no source uses
  /// (`reservedFileNames`, and the located sources' names): a source's file placed there serves
  /// the source, never the brand. A hidden file (name starting with a dot) and a file that
  /// cannot be read (`hash` gives nil) are passed over.
  /// - Throws: `.fontDirectoryMissing` for a brand folder that does not exist.
  public static func make(
    fonts located: [LocatedFont], brandFontDirectory: URL?, reservedFileNames: Set<String>,
    hash: (URL) -> String?
  ) throws(FontError) -> (requests: [FontRequest], passedOver: [SkippedFontFile]) {
    var requested: [FontRequest] = []
    var passedOver: [SkippedFontFile] = []
    if let brandFontDirectory {
      let manifestNames = reservedFileNames.union(located.map(\.declared.fileName))
      for url in try brandFontFiles(in: brandFontDirectory)
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
    for font in located { requested.append((font.url, font.sha256, font.declared.role, false)) }
    return (requested, passedOver)
  }

  /// The font files of a brand folder, sorted by name so the load order is stable.
  private static func brandFontFiles(in directory: URL) throws(FontError) -> [URL] {
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

/// A private, hermetic fontconfig configuration: exactly the requested font files, and rules for
/// synthetic oblique and bold faces (they load no font), so italic text slants a roman face when
/// the set holds no italic file. It is empty until files are added and released in `deinit`; a
/// `Graphics` `FontSet` hands it to a Pango font map of its own, so the fonts installed on the
/// machine never change a layout or a pixel.
///
/// Not thread-safe: use one from one thread at a time.
public final class FontConfiguration {
  /// The fontconfig configuration (an `FcConfig *`).
  package let handle: OpaquePointer
  /// The files loaded, in request order, with their families.
  public let files: [LoadedFont]
  /// The brand files fontconfig found no font in.
  public let skipped: [SkippedFontFile]

  /// Loads `requested` into a new configuration, with the synthetic-face rules.
  /// - Throws: `.fontFileUnreadable` when fontconfig rejects a located source's file (a brand
  ///   file it rejects is passed over and listed in ``skipped``), `.fontSystemUnavailable` when
  ///   fontconfig fails, `.libraryUnavailable` when it cannot be loaded.
  public init(loading requested: [FontRequest]) throws(FontError) {
    try FontLibrary.loadFontconfig()
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
    self.files = files
    self.skipped = skipped
    // The configuration's owner is now this object (its deinit releases it).
    handle = config.take()
  }

  deinit {
    ouds_FcConfigDestroy(handle)
  }

  /// Makes an empty configuration (no folders, no fonts, no rules) fontconfig's current one, once
  /// per process: Pango's first font map then finds no system font through fontconfig's default
  /// configuration, and `FcInit()` reads no system font cache (`FontSet`'s
  /// `useEmptyDefaultFontconfigConfiguration()` in `Graphics` says why).
  public static func makeEmptyConfigurationCurrent() {
    PrivateFontConfig.makeEmptyConfigCurrent()
  }
}

/// Loading fontconfig alone (with FreeType and expat, which it needs).
enum FontLibrary {
  /// Loads fontconfig, or waits for a load of all the drawing libraries under way.
  /// - Throws: ``FontError/libraryUnavailable(reason:)`` naming the library that could not be
  ///   loaded and its Debian package.
  static func loadFontconfig() throws(FontError) {
    if let failure = ouds_graphics_load_fontconfig() {
      throw .libraryUnavailable(reason: String(cString: failure))
    }
  }
}

/// A fontconfig configuration that is empty until files are added; released in `deinit`.
private struct PrivateFontConfig: ~Copyable {
  let handle: OpaquePointer

  init() throws(FontError) {
    guard let config = ouds_FcConfigCreate() else {
      throw .fontSystemUnavailable(reason: "FcConfigCreate returned NULL")
    }
    handle = config
  }

  deinit {
    ouds_FcConfigDestroy(handle)
  }

  /// Hands the configuration over to the caller, who releases it.
  consuming func take() -> OpaquePointer {
    let handle = self.handle
    discard self
    return handle
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
  /// per process (see ``FontConfiguration/makeEmptyConfigurationCurrent()``).
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
