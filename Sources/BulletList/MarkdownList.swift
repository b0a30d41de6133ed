import Primitives
import SafeInput
import StrictJSON

/// A list as a Markdown parser reads it from a Markdown list file: the nesting, the kind of
/// marker each list is written with and the labels, before the front matter's settings apply.
public struct MarkdownListOutline: Hashable, Sendable {
  /// Whether the list is written with `1.` items (else with `-`, `*` or `+` items).
  public var isOrdered: Bool
  /// The 1-based file line of the list's first item.
  public var line: Int
  /// The items, in order.
  public var items: [Item]

  /// Creates an outline.
  public init(isOrdered: Bool, line: Int, items: [Item]) {
    self.isOrdered = isOrdered
    self.line = line
    self.items = items
  }

  /// One item: its label and the sub-list under it.
  public struct Item: Hashable, Sendable {
    /// The 1-based file line of the item's marker.
    public var line: Int
    /// The label: plain when it holds no strong, emphasis or link, else rich text.
    public var label: OUDSBulletList.Label
    /// The list indented under the item, if any.
    public var subList: MarkdownListOutline?

    /// Creates an item.
    public init(line: Int, label: OUDSBulletList.Label, subList: MarkdownListOutline? = nil) {
      self.line = line
      self.label = label
      self.subList = subList
    }
  }
}

/// Reads the Markdown of a list file into a ``MarkdownListOutline``; the `Markdown` target
/// implements it with libcmark's block and list nodes.
public protocol MarkdownListParsing: InlineMarkdownParsing {
  /// Parses `markdown`, the text of a list file after its front matter, whose first line is line
  /// `firstLine` of the file.
  /// - Throws: `BulletListError` with the file line (and the item path where there is one) for
  ///   anything but one list of at most three levels whose items are one paragraph each, and
  ///   for labels that hold more than strong, emphasis and links.
  func parseList(_ markdown: String, firstLine: Int) throws(BulletListError) -> MarkdownListOutline
}

/// The text of a Markdown list file split into its optional front matter (a JSON object between
/// two `---` lines at the very top) and its Markdown.
public struct MarkdownListSource: Hashable, Sendable {
  /// The front matter's JSON object, when the file has one (an empty front matter is `{}`).
  public var frontMatter: JSONValue?
  /// The file line of each member of the front matter, by JSON path (`type`,
  /// `subLists.items[1].isBold`).
  public var frontMatterLines: JSONLineMap
  /// The file line of the front matter's opening `---`.
  public var frontMatterLine: Int
  /// The Markdown after the front matter (the whole text when there is none).
  public var markdown: String
  /// The file line of the Markdown's first line.
  public var markdownFirstLine: Int

  /// Splits `text`: when its first line (after a byte order mark) is `---`, the lines up to the
  /// next `---` line are the front matter, parsed as strict JSON; trailing spaces and a carriage
  /// return do not count.
  /// - Throws: `BulletListError` with the file line for a front matter that is not closed, is not
  ///   valid JSON (the line and column of the JSON error, counted in the file) or is not an object.
  public init(text: String) throws(BulletListError) {
    frontMatter = nil
    frontMatterLines = JSONLineMap(lines: [:])
    frontMatterLine = 1
    markdown = text
    markdownFirstLine = 1
    // A carriage return alone ends a line for libcmark (and editors): it becomes a line feed,
    // so that the front matter's lines are counted as libcmark counts the list's.
    let text = Self.lineFeeds(text)
    markdown = text
    // Lines are found in the UTF-8 bytes: as Characters, "\r\n" is one and would hide the "\n".
    let bytes = text.utf8
    var position = bytes.startIndex
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = bytes.index(position, offsetBy: 3) }
    /// The end of the line that starts at `start` (its "\n", or the end of the text).
    func lineEnd(from start: String.Index) -> String.Index {
      bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
    }
    func nextLine(after end: String.Index) -> String.Index {
      end < bytes.endIndex ? bytes.index(after: end) : bytes.endIndex
    }
    let firstEnd = lineEnd(from: position)
    guard Self.isFence(bytes[position..<firstEnd]) else { return }
    // The closing fence: the first later line that is `---`.
    var lineNumber = 1
    var lineStart = nextLine(after: firstEnd)
    let jsonStart = lineStart
    while true {
      guard lineStart < bytes.endIndex else {
        throw BulletListError(
          line: 1, path: "front matter",
          message: "opened by \"---\" on line 1 but not closed by a \"---\" line")
      }
      lineNumber += 1
      let end = lineEnd(from: lineStart)
      if Self.isFence(bytes[lineStart..<end]) {
        let json = String(decoding: bytes[jsonStart..<lineStart], as: UTF8.self)
        markdown = String(decoding: bytes[nextLine(after: end)...], as: UTF8.self)
        markdownFirstLine = lineNumber + 1
        try parseFrontMatter(json)
        return
      }
      lineStart = nextLine(after: end)
    }
  }

  /// `text` with every carriage return that no line feed follows made a line feed.
  static func lineFeeds(_ text: String) -> String {
    guard text.utf8.contains(0x0D) else { return text }
    var bytes = Array(text.utf8)
    for index in bytes.indices
    where bytes[index] == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A) {
      bytes[index] = 0x0A
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `line` is a front matter fence: `---`, then only spaces, tabs or a carriage return.
  private static func isFence(_ line: Substring.UTF8View) -> Bool {
    line.starts(with: "---".utf8)
      && line.dropFirst(3).allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
  }

  /// Takes the front matter's members named in `keys` out of it and returns them (for a caller
  /// with keys of its own, such as the catalogue's `variants`).
  public mutating func setAside(_ keys: Set<String>) -> [String: JSONValue] {
    guard !keys.isEmpty, case .object(let members)? = frontMatter else { return [:] }
    var taken: [String: JSONValue] = [:]
    for member in members where keys.contains(member.key) { taken[member.key] = member.value }
    frontMatter = .object(members.filter { !keys.contains($0.key) })
    return taken
  }

  /// Parses the front matter's JSON, which starts on line 2 of the file.
  private mutating func parseFrontMatter(_ json: String) throws(BulletListError) {
    guard json.contains(where: { !$0.isWhitespace }) else {
      frontMatter = .object([])
      return
    }
    let parsed: (value: JSONValue, lines: JSONLineMap)
    do {
      parsed = try JSONParser.parseWithLines(json)
    } catch {
      throw BulletListError(
        line: error.line + frontMatterLine, path: "front matter",
        message: "malformed JSON at column \(error.column): \(error.reason)")
    }
    guard case .object = parsed.value else {
      throw BulletListError(
        line: frontMatterLine + 1, path: "front matter",
        message: "expected a JSON object of list settings, found \(parsed.value.kindName)")
    }
    frontMatter = parsed.value
    frontMatterLines = JSONLineMap(lines: parsed.lines.lines.mapValues { $0 + frontMatterLine })
  }
}

extension ListReader {
  /// The largest Markdown list file read: 1 MiB. libcmark parses in linear time, about a second
  /// per megabyte for the worst inputs found, so a list file stays quick to refuse or read.
  public static let markdownMaximumBytes = 1 << 20

  /// The keys a Markdown list's front matter may hold.
  public static let frontMatterKeys = [
    "type", "textStyle", "isBold", "locale", "platform", "fontScale", "contentSize", "subLists",
  ]

  /// Whether a Markdown list's text is bold when its front matter does not say (`isBold`):
  /// false, since Markdown text is regular unless marked. (A JSON list keeps the model's
  /// default, bold, as the iOS component does.)
  public static let markdownDefaultIsBold = false

  /// The keys of one entry of the front matter's `subLists`.
  public static let subListKeys = ["type", "textStyle", "isBold"]

  /// Reads a Markdown list: an optional front matter of JSON settings between `---` lines, then
  /// one list of `-`, `*`, `+` (unordered) or `1.` (ordered) items, nested by indentation up to
  /// three levels, each item one paragraph of inline Markdown (strong, emphasis, links). Relative
  /// icon paths in the front matter are resolved against `baseDirectory`.
  ///
  /// The front matter takes the JSON format's document keys (`type`, `textStyle`, `isBold`,
  /// `locale`, `platform`), read by the same rules (but `isBold` is false when absent, see
  /// ``markdownDefaultIsBold``), and `subLists`: per item path, the `type`,
  /// `textStyle` and `isBold` of the sub-list under that item. A type must agree with the marker
  /// the list is written with: `1.` lists are ordered; `-`, `*` and `+` lists are unordered (any
  /// asset) or bare.
  /// - Throws: `BulletListError` naming the file line, and the item or front matter path.
  public func read(markdown text: String, baseDirectory: String) throws(BulletListError)
    -> BulletListDocument
  {
    try read(MarkdownListSource(text: text), baseDirectory: baseDirectory)
  }

  /// Reads a Markdown list already split into front matter and Markdown (for instance a snapshot
  /// case whose front matter lost the catalogue's own keys).
  /// - Throws: `BulletListError` naming the file line, and the item or front matter path.
  public func read(_ source: MarkdownListSource, baseDirectory: String) throws(BulletListError)
    -> BulletListDocument
  {
    guard let parser = markdownParser as? any MarkdownListParsing else {
      throw BulletListError(
        path: "",
        message:
          "Markdown lists need a Markdown parser (use the ouds-render CLI or BulletListRenderer)")
    }
    let outline = try parser.parseList(source.markdown, firstLine: source.markdownFirstLine)
    let context = Context(baseDirectory: baseDirectory, markdownParser: markdownParser)
    return try context.markdownDocument(outline, source: source)
  }
}

extension ListReader.Context {
  /// The settings of one sub-list, from the front matter's `subLists`.
  struct SubListSettings {
    var type: OUDSBulletList.ListType?
    var textStyle: OUDSBulletList.TextStyle?
    var isBold: Bool?
    /// The JSON path of the entry, for messages.
    var path: String
  }

  func markdownDocument(_ outline: MarkdownListOutline, source: MarkdownListSource)
    throws(BulletListError)
    -> BulletListDocument
  {
    var settings = Settings()
    settings.isBold = ListReader.markdownDefaultIsBold
    var subLists: [String: SubListSettings] = [:]
    // Front matter errors name the line of the member at fault.
    func located(_ error: BulletListError) -> BulletListError {
      var copy = error
      copy.line =
        copy.line ?? source.frontMatterLines.line(of: error.path) ?? source.frontMatterLine
      return copy
    }
    do {
      if let frontMatter = source.frontMatter {
        for (key, value) in try members(
          frontMatter, at: "", allowed: Set(ListReader.frontMatterKeys))
        {
          if key == "subLists" {
            subLists = try self.subLists(value)
          } else {
            try setting(key, value, into: &settings)
          }
        }
      }
    } catch {
      throw located(error)
    }

    var itemLines: [String: Int] = [:]
    var unused = subLists
    let type: OUDSBulletList.ListType
    do {
      type =
        try checkedType(settings.type, of: outline, path: "type") ?? Self.defaultType(of: outline)
    } catch {
      throw located(error)
    }
    let items = try markdownItems(
      outline, pathPrefix: "", level: 0, inheritedType: type, subLists: subLists, unused: &unused,
      itemLines: &itemLines, located: located)
    if let (path, entry) = unused.min(by: { $0.key < $1.key }) {
      let owners = subListOwners(outline).sorted()
      let known =
        owners.isEmpty
        ? "no item has one"
        : "items with one: " + owners.prefix(6).joined(separator: ", ")
          + (owners.count > 6 ? ", …" : "")
      throw located(
        fail(
          entry.path, "the list has no item \(MessageText.value(path)) with a sub-list (\(known))"))
    }
    return BulletListDocument(
      list: OUDSBulletList(
        type: type, textStyle: settings.textStyle, isBold: settings.isBold, items: items),
      locale: settings.locale, platform: settings.platform, fontScale: settings.fontScale,
      contentSize: settings.contentSize, itemLines: itemLines)
  }

  /// The type of a list written as `outline` when no setting gives one: ordered for `1.` items,
  /// else unbranded bullets (the JSON format's top-level default).
  static func defaultType(of outline: MarkdownListOutline) -> OUDSBulletList.ListType {
    outline.isOrdered ? .ordered : Settings.defaultType
  }

  /// `type`, when it agrees with the marker `outline` is written with.
  func checkedType(_ type: OUDSBulletList.ListType?, of outline: MarkdownListOutline, path: String)
    throws(BulletListError) -> OUDSBulletList.ListType?
  {
    guard let type else { return nil }
    switch (outline.isOrdered, type) {
    case (true, .ordered), (false, .unordered), (false, .bare): return type
    case (true, _):
      throw fail(
        path,
        "the list on line \(outline.line) is written with 1. items: its type can only be \"ordered\""
      )
    case (false, _):
      throw fail(
        path,
        "the list on line \(outline.line) is written with -, * or + items: its type can be \"unordered\", {\"unordered\": …} or \"bare\", not \"ordered\" (write its items as 1.)"
      )
    }
  }

  /// The item paths of `outline` whose item has a sub-list (iterative: an outline from another
  /// parser may be deep).
  func subListOwners(_ outline: MarkdownListOutline) -> Set<String> {
    var owners: Set<String> = []
    var pending: [(prefix: String, list: MarkdownListOutline)] = [("", outline)]
    while let (prefix, list) = pending.popLast() {
      for (index, item) in list.items.enumerated() {
        guard let subList = item.subList else { continue }
        let path = prefix + "items[\(index)]"
        owners.insert(path)
        pending.append((path + ".", subList))
      }
    }
    return owners
  }

  /// The front matter's `subLists`: an object whose keys are item paths and whose values hold
  /// `type`, `textStyle` and `isBold`.
  func subLists(_ value: JSONValue) throws(BulletListError) -> [String: SubListSettings] {
    guard case .object(let entries) = value else {
      throw fail(
        "subLists",
        "expected an object whose keys are item paths such as \"items[1]\", found \(value.kindName)"
      )
    }
    var result: [String: SubListSettings] = [:]
    for (itemPath, entry) in entries {
      let path = join("subLists", itemPath)
      var settings = SubListSettings(path: path)
      for (key, value) in try members(entry, at: path, allowed: Set(ListReader.subListKeys)) {
        let memberPath = join(path, key)
        switch key {
        case "type": settings.type = try listType(value, at: memberPath)
        case "textStyle": settings.textStyle = try textStyle(value, at: memberPath)
        default: settings.isBold = try bool(value, at: memberPath)
        }
      }
      result[itemPath] = settings
    }
    return result
  }

  /// The model's items for the items of `outline`, at nesting `level`.
  ///
  /// Recursive, but never deeper than ``OUDSBulletList/maximumLevelCount``: a fourth level is the
  /// model's error, with the item's line.
  func markdownItems(
    _ outline: MarkdownListOutline, pathPrefix: String, level: Int,
    inheritedType: OUDSBulletList.ListType,
    subLists: [String: SubListSettings], unused: inout [String: SubListSettings],
    itemLines: inout [String: Int],
    located: (BulletListError) -> BulletListError
  ) throws(BulletListError) -> [OUDSBulletList.Item] {
    var items: [OUDSBulletList.Item] = []
    for (index, item) in outline.items.enumerated() {
      let path = pathPrefix + "items[\(index)]"
      guard level < OUDSBulletList.maximumLevelCount else {
        throw BulletListError(
          line: item.line, path: path, message: OUDSBulletList.fourthLevelMessage)
      }
      itemLines[path] = item.line
      var subListType: OUDSBulletList.ListType?
      var subItems: [OUDSBulletList.Item] = []
      let settings = subLists[path]
      unused[path] = nil
      if let subList = item.subList {
        do {
          subListType = try checkedType(
            settings?.type, of: subList, path: settings.map { join($0.path, "type") } ?? path)
        } catch {
          throw located(error)
        }
        if subListType == nil {
          // Markdown says ordered or not; a sub-list written like its parent inherits its type.
          switch (subList.isOrdered, inheritedType) {
          case (true, .ordered), (false, .unordered), (false, .bare): subListType = nil
          default: subListType = Self.defaultType(of: subList)
          }
        }
        subItems = try markdownItems(
          subList, pathPrefix: path + ".", level: level + 1,
          inheritedType: subListType ?? inheritedType,
          subLists: subLists, unused: &unused, itemLines: &itemLines, located: located)
      } else if let settings {
        throw located(
          fail(settings.path, "item \(MessageText.value(path)) (line \(item.line)) has no sub-list")
        )
      }
      items.append(
        OUDSBulletList.Item(
          label: item.label, subListType: subListType, subListTextStyle: settings?.textStyle,
          subListHasBoldText: settings?.isBold, subItems: subItems))
    }
    return items
  }
}
