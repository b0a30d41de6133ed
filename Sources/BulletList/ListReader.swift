import Primitives
import SafeInput
import StrictJSON

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A list read from a JSON document or a Markdown list file, with the document-level settings
/// next to it.
public struct BulletListDocument: Hashable, Sendable {
  /// The list.
  public var list: OUDSBulletList
  /// The `locale` of the document (e.g. `ar`), when given.
  public var locale: String?
  /// The `platform` of the document (whose rules to draw with), when given.
  public var platform: OUDSBulletList.Platform?
  /// The `fontScale` of the document (Android's font scale), when given.
  public var fontScale: Double?
  /// The `contentSize` of the document (iOS Dynamic Type), when given.
  public var contentSize: ContentSizeCategory?
  /// For a Markdown list, the file line of each item by item path (`items[1].items[0]`); empty
  /// for JSON, whose errors name the JSON path.
  public var itemLines: [String: Int]

  /// Creates a document.
  public init(
    list: OUDSBulletList, locale: String? = nil, platform: OUDSBulletList.Platform? = nil,
    fontScale: Double? = nil, contentSize: ContentSizeCategory? = nil,
    itemLines: [String: Int] = [:]
  ) {
    self.list = list
    self.locale = locale
    self.platform = platform
    self.fontScale = fontScale
    self.contentSize = contentSize
    self.itemLines = itemLines
  }

  /// `error` with the file line of the item it names, when the list came from Markdown and the
  /// error does not say a line yet (a problem found after reading, such as rich text in bold).
  /// Rich text in bold then says what to write in the front matter, since a Markdown list has
  /// no `isBold` or `subListHasBoldText` of its own.
  public func locating(_ error: BulletListError) -> BulletListError {
    guard error.line == nil, !itemLines.isEmpty else { return error }
    var copy = error
    if error.message == OUDSBulletList.richTextInBoldMessage {
      copy.message = markdownRichTextInBoldMessage(path: error.path)
    }
    var path = Substring(error.path)
    while !path.isEmpty {
      if let line = itemLines[String(path)] {
        copy.line = line
        return copy
      }
      guard let dot = path.lastIndex(of: ".") else { break }
      path = path[..<dot]
    }
    return copy
  }

  /// The rich-text-in-bold error in a Markdown list's terms: the front matter key that made the
  /// item's text bold (`subLists` of the nearest ancestor that sets it, else the document's
  /// `isBold`, which a Markdown list has false when absent: its front matter set it).
  func markdownRichTextInBoldMessage(path: String) -> String {
    let start = "rich text is allowed only when the text is not bold"
    // The ancestors' paths and items, outermost first.
    var ancestors: [(path: String, item: OUDSBulletList.Item)] = []
    var items = list.items
    var prefix = ""
    for part in path.split(separator: ".").dropLast() {
      guard part.hasPrefix("items["), part.hasSuffix("]"),
        let index = Int(part.dropFirst("items[".count).dropLast()), items.indices.contains(index)
      else { break }
      prefix += (prefix.isEmpty ? "" : ".") + part
      ancestors.append((prefix, items[index]))
      items = items[index].subItems
    }
    func subLists(_ path: String) -> String { #""subLists": {"\#(path)": {"isBold": false}}"# }
    if let setter = ancestors.last(where: { $0.item.subListHasBoldText != nil }) {
      return "\(start): in the front matter, set \(subLists(setter.path))"
    }
    let frontMatter =
      #"the front matter sets "isBold": true; remove it (Markdown text is regular unless the front matter makes it bold)"#
    guard let parent = ancestors.last else { return "\(start): \(frontMatter)" }
    return "\(start): \(frontMatter), or set \(subLists(parent.path)) for this sub-list alone"
  }
}

/// Reads the JSON list format (see `Snapshots/bullet-list.schema.json`) and Markdown lists into
/// the model.
///
/// Every key but `items` and `label` (or `markdown`) is optional and takes the iOS default.
/// Unknown keys and wrong types are errors naming the JSON path, e.g.
/// `list.json: items[1].subListType: unknown type "dotted" (expected …)`. A Markdown list (see
/// ``read(markdown:baseDirectory:)``) takes the same settings from its front matter, and its errors
/// name the file line.
public struct ListReader: Sendable {
  /// Parses `markdown` labels, and Markdown list files when it also conforms to
  /// ``MarkdownListParsing``; nil makes a `markdown` key and a Markdown list an error.
  public var markdownParser: (any InlineMarkdownParsing)?

  /// Creates a reader.
  public init(markdownParser: (any InlineMarkdownParsing)? = nil) {
    self.markdownParser = markdownParser
  }

  /// Reads the file at `path`, a JSON list or a Markdown list as `format` says (nil: from the
  /// file name, ``Primitives/ListFormat/init(fileName:)``); icon paths are resolved against the
  /// file's folder.
  ///
  /// Only a regular file of at most `kind.maximumBytes` is read (see ``SafeInput/UserFile``), and
  /// for Markdown at most ``markdownMaximumBytes``: a folder, FIFO or device is refused without
  /// blocking.
  /// - Throws: `BulletListError` naming the file and the JSON path (Markdown: the line).
  public func read(file path: String, kind: UserFileKind = .list, format: ListFormat? = nil)
    throws(BulletListError) -> BulletListDocument
  {
    try read(file: path, kind: kind, format: format, settingAside: []).document
  }

  /// Reads a list embedded in a larger file, such as a snapshot case file: the top-level members
  /// named in `keys` (of the JSON object, or of a Markdown list's front matter) belong to the
  /// caller (the catalogue's `variants`); they are set aside and returned, and the rest is read as
  /// a list document.
  ///
  /// Only the caller that names a key accepts it: for every other reader it stays an unknown key.
  /// - Throws: `BulletListError` naming the file and the JSON path (Markdown: the line).
  public func read(
    file path: String, kind: UserFileKind = .list, format: ListFormat? = nil,
    settingAside keys: Set<String>
  ) throws(BulletListError) -> (document: BulletListDocument, setAside: [String: JSONValue]) {
    let format = format ?? ListFormat(fileName: path)
    let markdownLimit = min(kind.maximumBytes, Self.markdownMaximumBytes)
    let limit =
      format == .markdown ? UserFileKind(name: kind.name, maximumBytes: markdownLimit) : kind
    let text = try Self.text(file: path, kind: limit)
    let baseDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    do {
      switch format {
      case .json:
        var root = try Self.json(text)
        var setAside: [String: JSONValue] = [:]
        if !keys.isEmpty, case .object(let members) = root {
          for member in members where keys.contains(member.key) {
            setAside[member.key] = member.value
          }
          root = .object(members.filter { !keys.contains($0.key) })
        }
        let context = Context(baseDirectory: baseDirectory, markdownParser: markdownParser)
        return (try context.document(root), setAside)
      case .markdown:
        var source = try MarkdownListSource(text: text)
        let setAside = source.setAside(keys)
        return (try read(source, baseDirectory: baseDirectory), setAside)
      }
    } catch {
      throw error.inFile(path)
    }
  }

  /// Reads a JSON document from a string; relative icon paths are resolved against `baseDirectory`.
  /// - Throws: `BulletListError` naming the JSON path.
  public func read(json text: String, baseDirectory: String) throws(BulletListError)
    -> BulletListDocument
  {
    try Context(baseDirectory: baseDirectory, markdownParser: markdownParser).document(
      Self.json(text))
  }

  /// The text of the file at `path`: a regular file of at most `kind.maximumBytes`, UTF-8.
  /// - Throws: `BulletListError` naming the file.
  private static func text(file path: String, kind: UserFileKind) throws(BulletListError)
    -> String
  {
    let data: Data
    do {
      data = try UserFile.read(path, kind: kind)
    } catch {
      throw BulletListError(file: path, path: "", message: error.reason)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw BulletListError(file: path, path: "", message: "the file is not UTF-8 text")
    }
    return text
  }

  /// `text` parsed as strict JSON.
  private static func json(_ text: String) throws(BulletListError) -> JSONValue {
    do {
      return try JSONParser.parse(text)
    } catch {
      throw BulletListError(path: "", message: error.description)
    }
  }

  struct Context {
    let baseDirectory: String
    let markdownParser: (any InlineMarkdownParsing)?

    func fail(_ path: String, _ message: String) -> BulletListError {
      BulletListError(path: path, message: message)
    }

    func members(_ value: JSONValue, at path: String, allowed: Set<String>) throws(BulletListError)
      -> [(key: String, value: JSONValue)]
    {
      guard case .object(let members) = value else {
        throw fail(path.isEmpty ? "(root)" : path, "expected an object, found \(value.kindName)")
      }
      for member in members where !allowed.contains(member.key) {
        throw fail(
          join(path, member.key),
          "unknown key \(MessageText.quoted(member.key)) (allowed: \(allowed.sorted().joined(separator: ", ")))"
        )
      }
      return members
    }

    /// `path.key`, the key cut and escaped as an echoed value.
    func join(_ path: String, _ key: String) -> String {
      let key = MessageText.value(key)
      return path.isEmpty ? key : path + "." + key
    }

    func bool(_ value: JSONValue, at path: String) throws(BulletListError) -> Bool {
      guard case .bool(let b) = value else {
        throw fail(path, "expected true or false, found \(value.kindName)")
      }
      return b
    }

    func string(_ value: JSONValue, at path: String) throws(BulletListError) -> String {
      guard case .string(let s) = value else {
        throw fail(path, "expected a string, found \(value.kindName)")
      }
      return s
    }

    func document(_ root: JSONValue) throws(BulletListError) -> BulletListDocument {
      let members = try members(
        root, at: "",
        allowed: [
          "$schema", "type", "textStyle", "isBold", "items", "locale", "platform", "fontScale",
          "contentSize",
        ])
      var settings = Settings()
      var items: [OUDSBulletList.Item]?
      for (key, value) in members {
        switch key {
        case "items": items = try self.items(value, at: "items")
        case "$schema": break
        default: try setting(key, value, into: &settings)
        }
      }
      guard let items else { throw fail("items", "missing required key \"items\"") }
      return BulletListDocument(
        list: OUDSBulletList(
          type: settings.type ?? Settings.defaultType, textStyle: settings.textStyle,
          isBold: settings.isBold, items: items),
        locale: settings.locale, platform: settings.platform, fontScale: settings.fontScale,
        contentSize: settings.contentSize)
    }

    /// The document-level settings a JSON list and a Markdown list's front matter share.
    struct Settings {
      /// The top-level type when none is given: unbranded bullets (the iOS `init` default).
      static let defaultType = OUDSBulletList.ListType.unordered(asset: .bullet, isBranded: false)
      var type: OUDSBulletList.ListType?
      var textStyle = OUDSBulletList.TextStyle.bodyLarge
      var isBold = true
      var locale: String?
      var platform: OUDSBulletList.Platform?
      var fontScale: Double?
      var contentSize: ContentSizeCategory?
    }

    /// Reads the document-level setting `key` (`type`, `textStyle`, `isBold`, `locale`,
    /// `platform`, `fontScale`, `contentSize`) into `settings`; the caller has checked that the key is allowed.
    func setting(_ key: String, _ value: JSONValue, into settings: inout Settings)
      throws(BulletListError)
    {
      switch key {
      case "type": settings.type = try listType(value, at: key)
      case "textStyle": settings.textStyle = try textStyle(value, at: key)
      case "isBold": settings.isBold = try bool(value, at: key)
      case "locale":
        let tag = try string(value, at: key)
        guard LocaleTag.isValid(tag) else {
          throw fail(
            key, "\(MessageText.quoted(tag)) is not a language tag such as \"en\" or \"ar-MA\"")
        }
        settings.locale = tag
      case "platform":
        let name = try string(value, at: key)
        guard let named = OUDSBulletList.Platform(rawValue: name) else {
          let expected = OUDSBulletList.Platform.allCases.map { "\"\($0.rawValue)\"" }
          throw fail(
            key,
            "unknown platform \"\(name.escapedForMessage)\" (expected \(expected.joined(separator: " or ")))"
          )
        }
        settings.platform = named
      case "fontScale":
        guard case .number(let scale) = value, FontScale.supported.contains(scale) else {
          throw fail(key, "expected \(FontScale.expectation) (1 is the default)")
        }
        settings.fontScale = scale
      case "contentSize":
        let name = try string(value, at: key)
        do {
          settings.contentSize = try ContentSizeCategory.parse(name)
        } catch {
          throw fail(key, error.description)
        }
      default: break
      }
    }

    func items(_ value: JSONValue, at path: String) throws(BulletListError) -> [OUDSBulletList.Item]
    {
      guard case .array(let elements) = value else {
        throw fail(path, "expected an array of items, found \(value.kindName)")
      }
      var result: [OUDSBulletList.Item] = []
      for (index, element) in elements.enumerated() {
        result.append(try item(element, at: "\(path)[\(index)]"))
      }
      return result
    }

    func item(_ value: JSONValue, at path: String) throws(BulletListError) -> OUDSBulletList.Item {
      let members = try members(
        value, at: path,
        allowed: [
          "label", "markdown", "subListType", "subListTextStyle", "subListHasBoldText", "items",
        ])
      var label: OUDSBulletList.Label?
      var subListType: OUDSBulletList.ListType?
      var subListTextStyle: OUDSBulletList.TextStyle?
      var subListHasBoldText: Bool?
      var subItems: [OUDSBulletList.Item] = []
      for (key, value) in members {
        let memberPath = join(path, key)
        switch key {
        case "label":
          if label != nil {
            throw fail(memberPath, "give either \"label\" or \"markdown\", not both")
          }
          label = .plain(try text(value, at: memberPath))
        case "markdown":
          if label != nil {
            throw fail(memberPath, "give either \"label\" or \"markdown\", not both")
          }
          let source = try text(value, at: memberPath)
          guard let markdownParser else {
            throw fail(
              memberPath,
              "markdown labels need a Markdown parser (use the ouds-render CLI or BulletListRenderer)"
            )
          }
          label = .rich(try markdownParser.parseInline(source, itemPath: path))
        case "subListType": subListType = try listType(value, at: memberPath)
        case "subListTextStyle": subListTextStyle = try textStyle(value, at: memberPath)
        case "subListHasBoldText": subListHasBoldText = try bool(value, at: memberPath)
        case "items": subItems = try items(value, at: memberPath)
        default: break
        }
      }
      guard let label else {
        throw fail(path, "missing required key \"label\" (or \"markdown\")")
      }
      return OUDSBulletList.Item(
        label: label, subListType: subListType, subListTextStyle: subListTextStyle,
        subListHasBoldText: subListHasBoldText, subItems: subItems)
    }

    /// A label's characters: a string without U+0000, which no text engine can lay out.
    func text(_ value: JSONValue, at path: String) throws(BulletListError) -> String {
      let text = try string(value, at: path)
      guard !text.unicodeScalars.contains("\u{0}") else {
        throw fail(path, "contains the NUL character (U+0000), which cannot be drawn")
      }
      return text
    }

    func textStyle(_ value: JSONValue, at path: String) throws(BulletListError)
      -> OUDSBulletList.TextStyle
    {
      let name = try string(value, at: path)
      guard let style = OUDSBulletList.TextStyle(rawValue: name) else {
        throw fail(
          path,
          "unknown text style \(MessageText.quoted(name)) (expected \"bodyLarge\" or \"bodyMedium\")"
        )
      }
      return style
    }

    func listType(_ value: JSONValue, at path: String) throws(BulletListError)
      -> OUDSBulletList.ListType
    {
      let expected = "expected \"unordered\", \"ordered\", \"bare\" or {\"unordered\": {…}}"
      switch value {
      case .string("unordered"): return .unordered()
      case .string("ordered"): return .ordered
      case .string("bare"): return .bare
      case .string(let other):
        throw fail(path, "unknown type \(MessageText.quoted(other)) (\(expected))")
      case .object:
        let members = try members(value, at: path, allowed: ["unordered"])
        guard let unordered = members.first?.value else { throw fail(path, expected) }
        let unorderedPath = join(path, "unordered")
        let options = try self.members(unordered, at: unorderedPath, allowed: ["asset", "branded"])
        var asset = OUDSBulletList.UnorderedAsset.bullet
        var branded = true
        for (key, value) in options {
          let optionPath = join(unorderedPath, key)
          if key == "branded" {
            branded = try bool(value, at: optionPath)
          } else {
            asset = try self.asset(value, at: optionPath)
          }
        }
        return .unordered(asset: asset, isBranded: branded)
      default:
        throw fail(path, "\(expected), found \(value.kindName)")
      }
    }

    func asset(_ value: JSONValue, at path: String) throws(BulletListError)
      -> OUDSBulletList.UnorderedAsset
    {
      switch value {
      case .string("bullet"): return .bullet
      case .string("tick"): return .tick
      case .string(let other):
        throw fail(
          path,
          "unknown asset \(MessageText.quoted(other)) (expected \"bullet\", \"tick\" or {\"icon\": \"<file>\"})"
        )
      case .object:
        let members = try members(value, at: path, allowed: ["icon"])
        guard let icon = members.first?.value else {
          throw fail(path, "expected {\"icon\": \"<path to .svg or .png>\"}")
        }
        let iconPath = join(path, "icon")
        let file = try string(icon, at: iconPath)
        let lowered = file.lowercased()
        guard lowered.hasSuffix(".svg") || lowered.hasSuffix(".png") else {
          throw fail(iconPath, "icon \(MessageText.quoted(file)) must be an .svg or .png file")
        }
        let absolute =
          file.hasPrefix("/")
          ? file
          : URL(fileURLWithPath: baseDirectory).appendingPathComponent(file).standardizedFileURL
            .path
        guard FileManager.default.fileExists(atPath: absolute) else {
          throw fail(iconPath, "icon file not found: \(MessageText.path(absolute))")
        }
        return .icon(OUDSBulletList.Icon(file: absolute))
      default:
        throw fail(
          path, "expected \"bullet\", \"tick\" or {\"icon\": \"<file>\"}, found \(value.kindName)")
      }
    }
  }
}

extension String {
  /// The string as an error message may quote it: control characters written as `\u{…}` and
  /// anything past 40 characters cut off with an ellipsis.
  var escapedForMessage: String {
    var result = ""
    for (count, character) in self.enumerated() {
      if count == 40 {
        result += "…"
        break
      }
      for scalar in character.unicodeScalars {
        if scalar.properties.generalCategory == .control {
          result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
