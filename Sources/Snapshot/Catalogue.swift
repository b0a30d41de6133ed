import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import Primitives
import SafeInput
import Scene
import StrictJSON
import Themes

/// One way to render a case: a theme, a mode, a scale and the layout settings, with a readable name.
public struct SnapshotVariant: Hashable, Sendable {
  /// The theme.
  public var theme: ThemeName
  /// Light or dark.
  public var mode: ColorMode
  /// PNG pixels per point.
  public var scale: Int
  /// The suffix that tells this variant from the plain one (e.g. `body-medium`, `ar`, `android`); nil for the plain one.
  public var suffix: String?
  /// Width, background, locale, direction, text-style override and platform of the render.
  public var options: LayoutOptions

  /// Creates a variant.
  public init(
    theme: ThemeName, mode: ColorMode, scale: Int = 2, suffix: String? = nil,
    options: LayoutOptions = LayoutOptions()
  ) {
    self.theme = theme
    self.mode = mode
    self.scale = scale
    self.suffix = suffix
    self.options = options
  }

  /// `<theme>-<mode>[-<suffix>]`, the file name of the reference without scale and extension.
  public var stem: String {
    "\(theme.rawValue)-\(mode.rawValue)" + (suffix.map { "-\($0)" } ?? "")
  }

  /// `<theme>-<mode>[-<suffix>]@<scale>x`, the variant part of a reference id.
  public var name: String { "\(stem)@\(scale)x" }
}

/// One reference the catalogue produces: a case rendered in one variant, and where its files live.
public struct SnapshotReference: Hashable, Sendable, Identifiable {
  /// The case name (its file name without `.json`).
  public var caseName: String
  /// How it is rendered.
  public var variant: SnapshotVariant
  /// The list to render.
  public var list: OUDSBulletList

  /// Creates a reference.
  public init(caseName: String, variant: SnapshotVariant, list: OUDSBulletList) {
    self.caseName = caseName
    self.variant = variant
    self.list = list
  }

  /// `<case>/<theme>-<mode>[-<suffix>]@<scale>x`: stable, readable, unique in a catalogue.
  public var id: String { "\(caseName)/\(variant.name)" }

  /// The PNG reference, relative to the snapshots folder: `<case>/<stem>@<scale>x.png`.
  public var imagePath: String { "\(caseName)/\(variant.name).png" }

  /// The layout JSON reference, relative to the snapshots folder: `<case>/<stem>.layout.json`.
  ///
  /// The layout does not depend on the scale, so the scales of one variant share this file.
  public var layoutPath: String { "\(caseName)/\(variant.stem).layout.json" }
}

/// A case file of `Snapshots/cases/`: a list and the variants to render it in.
public struct SnapshotCase: Hashable, Sendable {
  /// The file name without `.json`, e.g. `sample-3`.
  public var name: String
  /// The case file.
  public var file: URL
  /// The list and its document-level settings.
  public var document: BulletListDocument
  /// Every variant of the case, in declaration order.
  public var variants: [SnapshotVariant]

  /// The references this case produces.
  public var references: [SnapshotReference] {
    variants.map { SnapshotReference(caseName: name, variant: $0, list: document.list) }
  }
}

/// A case file that could not be read: its name, where it is, and why. It fails only itself.
public struct SnapshotCaseError: Hashable, Sendable, CustomStringConvertible {
  /// The case name (the file name without `.json`), escaped and cut for display.
  public var name: String
  /// The case file relative to the snapshots folder, e.g. `cases/sample-9.json`, escaped and cut.
  public var file: String
  /// Why the case cannot run, one line.
  public var message: String

  /// Creates a case error.
  public init(name: String, file: String, message: String) {
    self.name = name
    self.file = file
    self.message = message
  }

  /// The id under which the error is shown in tables, reports and JUnit: `<case>/(case file)`.
  public var id: String { "\(name)/(case file)" }

  /// `<message>`, which names the case file.
  public var description: String { message }
}

/// The catalogue: every case of a snapshots folder, expanded into references sorted by id.
///
/// A case file that cannot be read (malformed JSON, a bad variant, an invalid name, a FIFO) does
/// not stop the others: it is listed in ``brokenCases`` and reported as an error row.
public struct SnapshotCatalogue: Sendable {
  /// The snapshots folder (holds `cases/`, the references and `ENVIRONMENT.json`).
  public var directory: URL
  /// The cases, sorted by name.
  public var cases: [SnapshotCase]
  /// The case files that could not be read, sorted by file name.
  public var brokenCases: [SnapshotCaseError]

  /// The name of the folder of case files inside the snapshots folder.
  public static let casesFolderName = "cases"

  /// The longest case or snapshot name: 100 characters.
  public static let maximumNameLength = 100

  /// Reads every `*.json` file of `<directory>/cases/` and expands its variants.
  /// - Parameter reader: the list reader (use `BulletListRenderer.listReader()` for Markdown labels).
  /// - Throws: `SnapshotError` when the case folder is missing or holds no case file at all.
  public init(directory: URL, reader: ListReader) throws {
    self.directory = directory.standardizedFileURL
    let casesFolder = self.directory.appendingPathComponent(Self.casesFolderName)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: casesFolder.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw SnapshotError.noCaseFolder(path: casesFolder.path)
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: casesFolder.path)
    } catch {
      throw SnapshotError.folderUnreadable(path: casesFolder.path)
    }
    // Names of the snapshots folder's own files (README.md, ENVIRONMENT.json…): a case folder
    // of the same name (in any letter case) would collide with them.
    let root = self.directory
    let topLevelFiles = Set(
      ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
        .filter { UserFile.type(atPath: root.appendingPathComponent($0).path) != .directory }
        .map { $0.lowercased() })
    var cases: [SnapshotCase] = []
    var broken: [SnapshotCaseError] = []
    for fileName in names.sorted() where fileName.hasSuffix(".json") {
      let file = casesFolder.appendingPathComponent(fileName)
      let name = String(fileName.dropLast(5))
      let displayPath = "\(Self.casesFolderName)/\(MessageText.value(fileName))"
      func fail(_ message: String) {
        broken.append(SnapshotCaseError(name: MessageText.value(name), file: displayPath, message: message))
      }
      if let problem = Self.nameProblem(name, reserved: topLevelFiles) {
        fail("\(displayPath): \(problem)")
        continue
      }
      do {
        let document = try reader.read(file: file.path, kind: .caseFile)
        let variants = try VariantParser.variants(of: document, file: displayPath)
        cases.append(SnapshotCase(name: name, file: file, document: document, variants: variants))
      } catch let error as BulletListError {
        var relative = error
        relative.file = displayPath
        fail(relative.description)
      } catch {
        fail("\(error)")
      }
    }
    guard !cases.isEmpty || !broken.isEmpty else {
      throw SnapshotError.noCaseFiles(folder: casesFolder.path)
    }
    self.cases = cases
    self.brokenCases = broken
  }

  /// Reads the catalogue with a list reader that understands `markdown` labels (libcmark).
  /// - Throws: `SnapshotError` when the case folder is missing or empty.
  public init(directory: URL) throws {
    try self.init(directory: directory, reader: BulletListRenderer.markdownListReader())
  }

  /// Every reference of the catalogue, sorted by id.
  public var references: [SnapshotReference] {
    cases.flatMap(\.references).sorted { $0.id < $1.id }
  }

  /// The references that pass `filter` and belong to `shard`, sorted by id.
  ///
  /// The filter applies first, then the shard splits what is left.
  public func select(filter: SnapshotFilter? = nil, shard: SnapshotShard? = nil) -> [SnapshotReference] {
    var selected = references
    if let filter { selected = selected.filter { filter.matches($0.id) } }
    if let shard { selected = shard.split(selected) }
    return selected
  }

  /// The broken cases a run with `filter` and `shard` reports: those whose name the filter
  /// selects (``SnapshotFilter/matchesCase(_:)``), all in shard 1 and none in the other shards,
  /// so that the shards together report each once.
  public func selectBroken(filter: SnapshotFilter? = nil, shard: SnapshotShard? = nil) -> [SnapshotCaseError] {
    if let shard, shard.index != 1 { return [] }
    guard let filter else { return brokenCases }
    return brokenCases.filter { filter.matchesCase($0.name) }
  }

  /// Whether `name` can be a case or snapshot name (see ``nameProblem(_:reserved:)``).
  public static func isValidName(_ name: String) -> Bool {
    nameProblem(name, reserved: []) == nil
  }

  /// Why `name` cannot be a case or snapshot name, or nil when it can.
  ///
  /// A name holds 1 to 100 ASCII letters, digits, `.`, `_` and `-`, starts with a letter or a
  /// digit, holds no `..`, is not `cases` (the case folder) and, ignoring letter case, is not the
  /// name of a file of the snapshots folder (`reserved`, lower-case), since each case has a folder
  /// of its own name there.
  public static func nameProblem(_ name: String, reserved: Set<String>) -> String? {
    let allowed = "only letters, digits, '.', '_' and '-', and starts with a letter or a digit"
    guard !name.isEmpty else { return "the case name is empty" }
    guard name.unicodeScalars.count <= maximumNameLength else {
      return "the case name is longer than \(maximumNameLength) characters"
    }
    let valid = name.unicodeScalars.allSatisfy {
      ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
    }
    guard valid, let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first)
    else { return "a case name holds \(allowed)" }
    guard !name.contains("..") else { return "a case name may not hold '..'" }
    let lowered = name.lowercased()
    guard lowered != casesFolderName else {
      return "a case may not be named '\(casesFolderName)': its references would go into the case folder"
    }
    guard !reserved.contains(lowered) else {
      return "the case name collides with the file \(name) of the snapshots folder"
    }
    return nil
  }
}

/// Selects references by id: comma-separated patterns, each a whole id (that reference only), a
/// glob on the whole id (with `*`, `?` or `[…]`), or else a substring of the id.
public struct SnapshotFilter: Hashable, Sendable, CustomStringConvertible {
  /// The patterns, as given.
  public var patterns: [String]

  /// Parses `text` (e.g. `sample-3`, `demo-*/sosh-dark*`, `sample-1,sample-2`).
  /// - Throws: `SnapshotError` for an empty filter.
  public init(_ text: String) throws(SnapshotError) {
    let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    guard !parts.isEmpty else { throw .emptyFilter(text) }
    patterns = parts
  }

  /// The filter as typed.
  public var description: String { patterns.joined(separator: ",") }

  /// Whether a broken case (which has no reference ids) is selected: a substring pattern found in
  /// its name, or a glob whose part before the first `/` matches the name.
  public func matchesCase(_ name: String) -> Bool {
    patterns.contains { pattern in
      if pattern.contains(where: { "*?[".contains($0) }) {
        let casePart = pattern.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? pattern
        return fnmatch(casePart, name, 0) == 0
      }
      return name.contains(pattern) || pattern.hasPrefix(name + "/")
    }
  }

  /// Whether a reference id matches one of the patterns: a glob the whole id, a whole id
  /// (``isWholeID(_:)``) only itself, any other pattern a substring of the id.
  public func matches(_ id: String) -> Bool {
    patterns.contains { pattern in
      if pattern.contains(where: { "*?[".contains($0) }) {
        return fnmatch(pattern, id, 0) == 0
      }
      if Self.isWholeID(pattern) { return id == pattern }
      return id.contains(pattern)
    }
  }

  /// Whether `pattern` has the form of a whole reference id, `<case>/<theme>-<mode>[-<suffix>]@<scale>x`:
  /// a valid case name, one `/`, and a variant name that ends in `@` and a scale followed by `x`.
  ///
  /// Such a pattern selects that one reference, not every id that holds it: `rich-text/orange-light@2x`
  /// does not select `android-rich-text/orange-light@2x`, so an accept command accepts what it names.
  public static func isWholeID(_ pattern: String) -> Bool {
    let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, SnapshotCatalogue.isValidName(String(parts[0])) else { return false }
    let variant = parts[1]
    guard variant.hasSuffix("x"), let at = variant.lastIndex(of: "@"), at != variant.startIndex else { return false }
    let scale = variant[variant.index(after: at)..<variant.index(before: variant.endIndex)]
    return !scale.isEmpty && scale.allSatisfy { $0.isASCII && $0.isNumber }
  }
}

/// Shard `index` of `count` (1-based, `--shard 2/4`): every `count`-th reference of the sorted list.
///
/// References are dealt out round-robin by id order, so shards differ in size by at most one and
/// the `count` shards together hold every reference exactly once.
public struct SnapshotShard: Hashable, Sendable, CustomStringConvertible {
  /// 1-based shard number.
  public var index: Int
  /// Number of shards.
  public var count: Int

  /// Creates shard `index` of `count`.
  /// - Throws: `SnapshotError` unless 1 ≤ index ≤ count.
  public init(index: Int, count: Int) throws(SnapshotError) {
    guard count >= 1, index >= 1, index <= count else {
      throw .shardOutOfRange(index: index, count: count)
    }
    self.index = index
    self.count = count
  }

  /// Parses `i/n`.
  /// - Throws: `SnapshotError` naming the text.
  public init(parsing text: String) throws(SnapshotError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = DecimalNumber.integer(String(parts[0])),
      let count = DecimalNumber.integer(String(parts[1]))
    else {
      throw .malformedShard(text)
    }
    try self.init(index: index, count: count)
  }

  /// `i/n`.
  public var description: String { "\(index)/\(count)" }

  /// The part of `references` (sorted by id) that belongs to this shard.
  public func split(_ references: [SnapshotReference]) -> [SnapshotReference] {
    references.sorted { $0.id < $1.id }.enumerated()
      .filter { $0.offset % count == index - 1 }
      .map(\.element)
  }
}

/// Reads the `variants` key of a case file.
///
/// `variants` is absent (every theme × both modes at scale 2), one object, or an array of objects;
/// each object is a group with optional keys `name`, `themes`, `modes`, `scale`, `textStyle`,
/// `locale`, `direction`, `width`, `background` and `platform`.
enum VariantParser {
  static let allowedKeys = [
    "name", "themes", "modes", "scale", "textStyle", "locale", "direction", "width", "background",
    "platform",
  ]

  static func variants(of document: BulletListDocument, file: String) throws(SnapshotError)
    -> [SnapshotVariant]
  {
    let groups: [(path: String, value: JSONValue)]
    switch document.variants {
    case nil: groups = [("variants", .object([]))]
    case .object?: groups = [("variants", document.variants ?? .object([]))]
    case .array(let elements)?:
      guard !elements.isEmpty else { throw .variants(file: file, path: "variants", problem: "the array is empty") }
      groups = elements.enumerated().map { ("variants[\($0.offset)]", $0.element) }
    case let other?:
      throw .variants(
        file: file, path: "variants", problem: "expected an object or an array of objects, found \(other.kindName)")
    }
    var result: [SnapshotVariant] = []
    var seen: [String: String] = [:]
    for (path, value) in groups {
      for variant in try group(value, at: path, file: file, document: document) {
        if let earlier = seen[variant.name] {
          throw .variants(
            file: file, path: path, problem: "variant \(variant.name) is already produced by \(earlier); give one a \"name\"")
        }
        seen[variant.name] = path
        result.append(variant)
      }
    }
    return result
  }

  private static func group(
    _ value: JSONValue, at path: String, file: String, document: BulletListDocument
  ) throws(SnapshotError) -> [SnapshotVariant] {
    func fail(_ key: String?, _ message: String) -> SnapshotError {
      .variants(file: file, path: path + (key.map { ".\(MessageText.value($0))" } ?? ""), problem: message)
    }
    guard case .object(let members) = value else {
      throw fail(nil, "expected an object, found \(value.kindName)")
    }
    var themes = ThemeName.allCases
    var modes = ColorMode.allCases
    var scales = [2]
    var name: String?
    var options = LayoutOptions(locale: document.locale, platform: document.platform ?? .ios)
    var platforms = [options.platform]
    var suffixParts: [String] = []
    for (key, member) in members {
      switch key {
      case "name":
        guard case .string(let text) = member, !text.isEmpty,
          text.unicodeScalars.allSatisfy({
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
          })
        else { throw fail(key, "expected a name of lower-case letters, digits, '-' and '.'") }
        name = text
      case "themes":
        themes = try names(member, key: key, fail: fail)
      case "modes":
        modes = try names(member, key: key, fail: fail)
      case "scale":
        let numbers: [JSONValue]
        if case .array(let elements) = member { numbers = elements } else { numbers = [member] }
        scales = []
        for number in numbers {
          guard case .number(let n) = number, n.rounded() == n, n >= Double(PixelScale.supported.lowerBound),
            n <= Double(PixelScale.supported.upperBound)
          else {
            throw fail(key, "expected a scale \(PixelScale.choices) (or an array of them)")
          }
          if !scales.contains(Int(n)) { scales.append(Int(n)) }
        }
        guard !scales.isEmpty else { throw fail(key, "expected at least one scale") }
      case "textStyle":
        let style: TextStyle = try oneName(member, key: key, expected: "\"bodyLarge\" or \"bodyMedium\"", fail: fail)
        options.textStyleOverride = style
        suffixParts.append(style.tokenName)
      case "locale":
        guard case .string(let text) = member, LocaleTag.isValid(text) else { throw fail(key, "expected a language tag such as \"ar\" or \"fr-FR\"") }
        options.locale = text
        suffixParts.append(text.lowercased().replacingOccurrences(of: "_", with: "-"))
      case "direction":
        let direction: LayoutDirection = try oneName(member, key: key, expected: "\"ltr\" or \"rtl\"", fail: fail)
        options.direction = direction
        suffixParts.append(direction.rawValue)
      case "width":
        guard case .number(let width) = member, width.isFinite, CanvasWidth.supported.contains(width) else {
          let range = CanvasWidth.supported
          throw fail(key, "expected a width in points from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
        }
        options.width = width
        suffixParts.append("w\(width.rounded() == width ? String(Int(width)) : String(width))")
      case "background":
        guard case .string(let text) = member, let background = BackgroundOption(rawValue: text) else {
          throw fail(key, "expected \"theme\" or \"none\"")
        }
        options.background = background
        if background == .none { suffixParts.append("transparent") }
      case "platform":
        platforms = try names(member, key: key, fail: fail)
      default:
        throw fail(key, "unknown key \(MessageText.quoted(key)) (allowed: \(allowedKeys.joined(separator: ", ")))")
      }
    }
    let baseSuffix = name ?? (suffixParts.isEmpty ? nil : suffixParts.joined(separator: "-"))
    var variants: [SnapshotVariant] = []
    for theme in themes {
      for mode in modes {
        for platform in platforms {
          // Android variants of a group end in `-android` (iOS ones keep the plain suffix),
          // unless the whole case is an Android case.
          var suffix = baseSuffix
          if platform != (document.platform ?? .ios) {
            suffix = (baseSuffix.map { $0 + "-" } ?? "") + platform.rawValue
          }
          var options = options
          options.platform = platform
          for scale in scales {
            variants.append(
              SnapshotVariant(theme: theme, mode: mode, scale: scale, suffix: suffix, options: options))
          }
        }
      }
    }
    return variants
  }

  /// One name, read by ``Primitives/NamedValue/parse(_:)``; `expected` says what a non-string
  /// should have been.
  private static func oneName<Name: NamedValue>(
    _ value: JSONValue, key: String, expected: String, fail: (String?, String) -> SnapshotError
  ) throws(SnapshotError) -> Name {
    guard case .string(let text) = value else { throw fail(key, "expected \(expected), found \(value.kindName)") }
    do {
      return try Name.parse(text)
    } catch {
      throw fail(key, error.description)
    }
  }

  /// `"all"`, one name, or an array of names, each read by ``Primitives/NamedValue/parse(_:)``;
  /// repeated names count once.
  private static func names<Name: NamedValue>(
    _ value: JSONValue, key: String, fail: (String?, String) -> SnapshotError
  ) throws(SnapshotError) -> [Name] {
    let texts: [String]
    switch value {
    case .string("all"): return Name.allCases
    case .string(let one): texts = [one]
    case .array(let elements):
      var result: [String] = []
      for element in elements {
        guard case .string(let text) = element else {
          throw fail(key, "expected \"all\" or an array of names, found \(element.kindName) in the array")
        }
        result.append(text)
      }
      guard !result.isEmpty else { throw fail(key, "the array is empty") }
      texts = result
    default:
      throw fail(key, "expected \"all\" or an array of names, found \(value.kindName)")
    }
    var names: [Name] = []
    for text in texts {
      let name: Name
      do {
        name = try Name.parse(text)
      } catch {
        throw fail(key, error.description)
      }
      if !names.contains(name) { names.append(name) }
    }
    return names
  }
}
