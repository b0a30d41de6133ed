import Primitives
import SafeInput
import StrictJSON
import VectorAsset

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What `components/bullet-list.spec.json` says about one theme.
struct SpecEntry: Sendable {
  /// The marker asset files, relative to `markers/`.
  var markers: MarkerFiles
  /// Whether the brand allows italic.
  var allowsItalic: Bool
}

/// The asset files a theme's spec entry names, with where in the spec file each is named.
struct MarkerFiles: Sendable {
  /// Files for levels 0, 1 and 2, such as `orange/square.svg`.
  var levels: [String]
  /// The check-mark file.
  var tick: String
  /// The spec locations (`themes.orange.bullets[0]` …) of the level files.
  var levelLocations: [String]
  /// The spec location of the tick file.
  var tickLocation: String
}

/// Reads `components/bullet-list.spec.json` (not DTCG, version 2): per theme, the asset files of
/// the level-0/1/2 bullets and the tick, and the italic rule.
enum SpecReader {
  /// The format version this reader understands.
  static let version = 2

  static func read(_ json: JSON, theme: ThemeName) throws(ThemeError) -> SpecEntry {
    let file = ThemeLibrary.specFileName
    let base = "themes.\(theme.rawValue)"
    func fail(_ location: String, _ message: String) -> ThemeError {
      ThemeError(file: file, token: location, message: message)
    }
    guard case .number(let version) = json["version"], version == Double(Self.version) else {
      throw fail(
        "version",
        "expected \(Self.version) (since version 2, bullets and tick name asset files under \(MarkerLoader.folder)/, e.g. \"orange/square.svg\")"
      )
    }
    guard let entry = json["themes"]?[theme.rawValue], entry.members != nil else {
      throw fail(base, "missing (each theme needs bullets, tick and allowsItalic)")
    }
    guard case .array(let items) = entry["bullets"], items.count == 3 else {
      throw fail("\(base).bullets", "expected an array of 3 asset files (levels 0, 1, 2)")
    }
    var levels: [String] = []
    for (i, item) in items.enumerated() {
      guard let s = item.stringValue, isAssetFileName(s) else {
        throw fail("\(base).bullets[\(i)]", "expected \(expectation), found \(describe(item))")
      }
      levels.append(s)
    }
    guard let tickValue = entry["tick"], let tick = tickValue.stringValue, isAssetFileName(tick)
    else {
      throw fail(
        "\(base).tick", "expected \(expectation), found \(entry["tick"].map(describe) ?? "nothing")"
      )
    }
    guard case .bool(let allowsItalic) = entry["allowsItalic"] else {
      throw fail("\(base).allowsItalic", "expected true or false")
    }
    let files = MarkerFiles(
      levels: levels, tick: tick, levelLocations: (0..<3).map { "\(base).bullets[\($0)]" },
      tickLocation: "\(base).tick")
    return SpecEntry(markers: files, allowsItalic: allowsItalic)
  }

  private static let expectation =
    "an asset file relative to \(MarkerLoader.folder)/, as \"<folder>/<name>.svg\" or \"<folder>/<name>.xml\""

  private static func describe(_ value: JSON) -> String {
    guard let s = value.stringValue else { return value.kindName }
    var out = ""
    for (count, scalar) in s.unicodeScalars.enumerated() {
      if count == 60 { return "\"\(out)…\"" }
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return "\"\(out)\""
  }

  /// `<folder>/<name>.svg` or `.xml`: exactly one folder, each part of ASCII letters, digits,
  /// `_`, `-` and `.`, not starting with a dot (so never `..`), at most 100 characters each.
  static func isAssetFileName(_ s: String) -> Bool {
    let parts = s.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, VectorAssetFormat(fileName: s) != nil else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty && part.utf8.count <= 100 && !part.hasPrefix(".")
        && part.utf8.allSatisfy { b in
          (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == 0x5F
            || b == 0x2D || b == 0x2E
        }
    }
  }
}

/// Reads the marker asset files of the themes, each file once however many themes name it.
struct MarkerLoader {
  /// The folder of the asset files, relative to the themes directory.
  static let folder = "markers"

  let directory: URL
  private var cache: [String: Result<VectorOutline, VectorAssetError>] = [:]
  /// The asset files read (or tried), relative to ``folder``, each once, in the order first named.
  private(set) var files: [String] = []

  init(directory: URL) {
    self.directory = directory
  }

  /// The marker shapes a theme's spec entry names.
  /// - Throws: `ThemeError` naming the asset file (and, when the file itself cannot be read,
  ///   where the spec file names it).
  mutating func shapes(_ files: MarkerFiles, theme: ThemeName) throws(ThemeError) -> MarkerShapes {
    var levels: [MarkerAsset] = []
    for (file, location) in zip(files.levels, files.levelLocations) {
      levels.append(try asset(file, namedAt: location))
    }
    guard levels.count == 3 else {
      throw ThemeError(
        file: ThemeLibrary.specFileName, token: "themes.\(theme.rawValue).bullets",
        message: "expected an array of 3 asset files (levels 0, 1, 2)")
    }
    return MarkerShapes(
      levels: PerLevel(levels[0], levels[1], levels[2]),
      tick: try asset(files.tick, namedAt: files.tickLocation))
  }

  /// The name a scene gives the shape of `file`: `orange/square.svg` → `orange.square`.
  static func shapeName(of file: String) -> String {
    let stem = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(
      separator: ".")
    return stem.replacingEvery("/", with: ".")
  }

  private mutating func asset(_ file: String, namedAt location: String) throws(ThemeError)
    -> MarkerAsset
  {
    let relative = "\(Self.folder)/\(file)"
    let result: Result<VectorOutline, VectorAssetError>
    if let cached = cache[file] {
      result = cached
    } else {
      // The spec's name is a plain `<folder>/<name>` (no `..`), but a folder on the way may be a
      // symbolic link: the asset must still be inside the themes folder.
      let path: String
      switch FolderReference.resolve(relative, inside: directory) {
      case .success(let confined): path = confined
      case .failure(let problem):
        throw ThemeError(
          file: ThemeLibrary.specFileName, token: location,
          message:
            "asset \(MessageText.quoted(file)) \(problem.message(folder: FileReader.folderName))")
      }
      files.append(file)
      FileTrace.note("marker asset", path)
      result = Result { () throws(VectorAssetError) in
        try VectorAssetReader.outline(contentsOf: path)
      }
      cache[file] = result
    }
    switch result {
    case .success(let outline):
      return MarkerAsset(
        shape: MarkerShape(name: Self.shapeName(of: file), outline: outline), file: file)
    case .failure(let error):
      if let line = error.line {
        throw ThemeError(file: relative, token: "line \(line)", message: error.message)
      }
      throw ThemeError(
        file: relative,
        message: "\(error.message) (named by \(location) in \(ThemeLibrary.specFileName))")
    }
  }
}
