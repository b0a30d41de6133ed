import BulletList
import Layout
import Primitives
import SafeInput
import Scene
import StrictJSON
import Themes

/// Reads the `variants` key of a case file.
///
/// `variants` is absent (every theme × both modes at scale 2), one object, or an array of objects;
/// each object is a group with optional keys `name`, `themes`, `modes`, `scale`, `textStyle`,
/// `locale`, `direction`, `width`, `background`, `platform`, `fontScale` (Android) and
/// `contentSize` (iOS), `accessibility` (the accessibility snapshot), `shrink` (the canvas cut
/// to the content's width), and the tolerance of its
/// references, `maxDiffPixels` and `maxDiffRatio` (which do not change the variants' names).
enum VariantParser {
  /// The key of a case file that holds the variants; the rest of the file is the list.
  static let key = "variants"

  /// The keys of a variant group.
  static let allowedKeys = [
    "name", "themes", "modes", "scale", "textStyle", "locale", "direction", "width", "background",
    "platform", "fontScale", "contentSize", "accessibility", "shrink", "maxDiffPixels",
    "maxDiffRatio",
  ]

  /// The variants of a case whose `variants` value is `value` (nil when absent) and whose list is
  /// `document`; `file` is the case file as errors name it (`cases/sample-2.json`).
  static func variants(of value: JSONValue?, document: BulletListDocument, file: String)
    throws(SnapshotError)
    -> [SnapshotVariant]
  {
    let groups: [(path: String, value: JSONValue)]
    switch value {
    case nil: groups = [(key, .object([]))]
    case .object?: groups = [(key, value ?? .object([]))]
    case .array(let elements)?:
      guard !elements.isEmpty else {
        throw .variants(file: file, path: key, problem: "the array is empty")
      }
      groups = elements.enumerated().map { ("\(key)[\($0.offset)]", $0.element) }
    case let other?:
      throw .variants(
        file: file, path: key,
        problem: "expected an object or an array of objects, found \(other.kindName)")
    }
    var result: [SnapshotVariant] = []
    var seen: [String: String] = [:]
    for (path, value) in groups {
      for variant in try group(value, at: path, file: file, document: document) {
        if let earlier = seen[variant.name] {
          throw .variants(
            file: file, path: path,
            problem:
              "variant \(variant.name) is already produced by \(earlier); give one a \"name\"")
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
      .variants(
        file: file, path: path + (key.map { ".\(MessageText.value($0))" } ?? ""), problem: message)
    }
    guard case .object(let members) = value else {
      throw fail(nil, "expected an object, found \(value.kindName)")
    }
    var themes = ThemeName.allCases
    var modes = ColorMode.allCases
    var scales = [2]
    var name: String?
    var options = LayoutOptions(
      locale: document.locale, platform: document.platform ?? .ios,
      fontScale: document.fontScale ?? FontScale.standard,
      contentSize: document.contentSize ?? .large)
    var platforms = [options.platform]
    var suffixParts: [String] = []
    var tolerance: SnapshotTolerance?
    var (givesFontScale, givesContentSize) = (false, false)
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
          guard case .number(let n) = number, n.rounded() == n,
            n >= Double(PixelScale.supported.lowerBound),
            n <= Double(PixelScale.supported.upperBound)
          else {
            throw fail(key, "expected a scale \(PixelScale.choices) (or an array of them)")
          }
          if !scales.contains(Int(n)) { scales.append(Int(n)) }
        }
        guard !scales.isEmpty else { throw fail(key, "expected at least one scale") }
      case "textStyle":
        let style: TextStyle = try oneName(
          member, key: key, expected: "\"bodyLarge\" or \"bodyMedium\"", fail: fail)
        options.textStyleOverride = style
        suffixParts.append(style.tokenName)
      case "locale":
        guard case .string(let text) = member, LocaleTag.isValid(text) else {
          throw fail(key, "expected a language tag such as \"ar\" or \"fr-FR\"")
        }
        options.locale = text
        suffixParts.append(text.lowercased().replacingEvery("_", with: "-"))
      case "direction":
        let direction: LayoutDirection = try oneName(
          member, key: key, expected: "\"ltr\" or \"rtl\"", fail: fail)
        options.direction = direction
        suffixParts.append(direction.rawValue)
      case "width":
        guard case .number(let width) = member, width.isFinite,
          CanvasWidth.supported.contains(width)
        else {
          let range = CanvasWidth.supported
          throw fail(
            key,
            "expected a width in points from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
        }
        options.width = width
        suffixParts.append("w\(width.rounded() == width ? String(Int(width)) : String(width))")
      case "background":
        guard case .string(let text) = member, let background = BackgroundOption(rawValue: text)
        else {
          throw fail(key, "expected \"theme\" or \"none\"")
        }
        options.background = background
        if background == .none { suffixParts.append("transparent") }
      case "platform":
        platforms = try names(member, key: key, fail: fail)
      case "fontScale":
        guard case .number(let scale) = member, FontScale.supported.contains(scale) else {
          throw fail(key, "expected \(FontScale.expectation)")
        }
        options.fontScale = scale
        givesFontScale = true
        suffixParts.append("font-scale-\(FontScale.text(scale))")
      case "contentSize":
        let size: ContentSizeCategory = try oneName(
          member, key: key, expected: "a content size such as \"accessibility3\"", fail: fail)
        options.contentSize = size
        givesContentSize = true
        suffixParts.append(size.fileName)
      case "accessibility":
        guard case .bool(let isOn) = member else {
          throw fail(key, "expected true (draw the accessibility snapshot) or false")
        }
        options.accessibilitySnapshot = isOn
        if isOn { suffixParts.append("accessibility") }
      case "shrink":
        guard case .bool(let isOn) = member else {
          throw fail(key, "expected true (the canvas only as wide as the content) or false")
        }
        options.shrink = isOn
        if isOn { suffixParts.append("shrink") }
      case "maxDiffPixels":
        guard case .number(let n) = member, n.rounded() == n, n >= 0,
          n <= Double(SnapshotTolerance.largestPixelCount)
        else {
          throw fail(
            key,
            "expected a whole number of pixels from 0 to \(SnapshotTolerance.largestPixelCount)")
        }
        tolerance = (tolerance ?? SnapshotTolerance()).overridden(
          by: SnapshotTolerance(maxDiffPixels: Int(n)))
      case "maxDiffRatio":
        guard case .number(let r) = member, r.isFinite, r >= 0, r <= 1 else {
          throw fail(key, "expected a share of the pixels from 0 to 1 (0.001 is 0.1 %)")
        }
        tolerance = (tolerance ?? SnapshotTolerance()).overridden(
          by: SnapshotTolerance(maxDiffRatio: r))
      default:
        throw fail(
          key,
          "unknown key \(MessageText.quoted(key)) (allowed: \(allowedKeys.joined(separator: ", ")))"
        )
      }
    }
    // A text size applies to its own platform's rules only: a group that gives one and draws
    // the other platform would record pictures without it. (The list's own sizes apply to the
    // variants of their platform; the catalogue refuses a case none of whose variants uses them.)
    if givesFontScale, options.fontScale != FontScale.standard, platforms.contains(.ios) {
      throw fail(
        "fontScale", "Android's font scale needs \"platform\": \"android\" (iOS: \"contentSize\")")
    }
    if givesContentSize, options.contentSize != .large, platforms.contains(.android) {
      throw fail(
        "contentSize", "iOS Dynamic Type needs \"platform\": \"ios\" (Android: \"fontScale\")")
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
          let options = options.on(platform)
          for scale in scales {
            variants.append(
              SnapshotVariant(
                theme: theme, mode: mode, scale: scale, suffix: suffix, options: options,
                tolerance: tolerance))
          }
        }
      }
    }
    return variants
  }

  /// What is wrong when the list's own `fontScale` or `contentSize` reaches none of `variants`
  /// (each applies to its platform's variants only), or nil: a case would otherwise record
  /// pictures without the size it names.
  static func unusedTextSize(of document: BulletListDocument, in variants: [SnapshotVariant])
    -> String?
  {
    if let scale = document.fontScale, scale != FontScale.standard,
      !variants.contains(where: { $0.options.platform == .android })
    {
      return
        "the case's \"fontScale\": \(FontScale.text(scale)) is Android's font scale and no variant draws Android: add \"platform\": \"android\""
    }
    if let size = document.contentSize, size != .large,
      !variants.contains(where: { $0.options.platform == .ios })
    {
      return
        "the case's \"contentSize\": \"\(size.rawValue)\" is iOS Dynamic Type and no variant draws iOS: add a variant with \"platform\": \"ios\""
    }
    return nil
  }

  /// One name, read by ``Primitives/NamedValue/parse(_:)``; `expected` says what a non-string
  /// should have been.
  private static func oneName<Name: NamedValue>(
    _ value: JSONValue, key: String, expected: String, fail: (String?, String) -> SnapshotError
  ) throws(SnapshotError) -> Name {
    guard case .string(let text) = value else {
      throw fail(key, "expected \(expected), found \(value.kindName)")
    }
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
          throw fail(
            key, "expected \"all\" or an array of names, found \(element.kindName) in the array")
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

/// A list file as the commands that draw one list read it: a plain list, or a catalogue case file
/// (`Snapshots/cases/<case>.json` or `.md`), whose `variants` key is set aside from the list and
/// expanded as the catalogue expands it.
public struct CaseListFile: Sendable {
  /// The list and its document-level settings.
  public var document: BulletListDocument
  /// Whether the file has a `variants` key (a catalogue case file that says its variants).
  public var hasVariantsKey: Bool
  /// The variants the catalogue renders the file in, in declaration order: those of its
  /// `variants` key, else every theme × both modes at scale 2.
  public var variants: [SnapshotVariant]

  /// Reads the list file at `path` (`format` nil: from the file name) with `reader`, setting its
  /// `variants` key aside and expanding it.
  /// - Throws: `BulletListError` for the list (naming the file), `SnapshotError` for its
  ///   `variants` (naming the file and the JSON path).
  public static func read(file path: String, format: ListFormat?, reader: ListReader) throws
    -> CaseListFile
  {
    let read = try reader.read(file: path, format: format, settingAside: [VariantParser.key])
    let value = read.setAside[VariantParser.key]
    let variants = try VariantParser.variants(of: value, document: read.document, file: path)
    return CaseListFile(document: read.document, hasVariantsKey: value != nil, variants: variants)
  }
}
