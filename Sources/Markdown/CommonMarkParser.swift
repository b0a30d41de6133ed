import BulletList
import CCommonMark

/// Parses Markdown with libcmark (CommonMark): inline labels into rich text (strong, emphasis and
/// links only) and Markdown list files into list outlines (list, item and paragraph nodes only).
/// Anything else is an error naming the item, and in a list file the line.
public struct CommonMarkParser: MarkdownListParsing {
  /// Creates a parser.
  public init() {}

  /// The most `![` a text may hold. Images are never allowed, and libcmark 0.30.2 matches each
  /// link against every image opener before it (time grows with their product: 1 MB of `![[]()`
  /// takes minutes), so more than a few are refused before parsing.
  public static let maximumImageOpeners = 32

  /// Parses `markdown` into rich text.
  /// - Throws: `BulletListError` at `itemPath.markdown` for a construct that is not allowed.
  public func parseInline(_ markdown: String, itemPath: String) throws(BulletListError) -> RichText
  {
    let path = itemPath + ".markdown"
    if let problem = Self.imageOpenerProblem(markdown) {
      throw BulletListError(path: path, message: problem.message)
    }
    let document = try Document(
      markdown,
      failure: BulletListError(path: path, message: "libcmark could not parse the Markdown"))
    var paragraphs = 0
    var child = cmark_node_first_child(document.root)
    while let block = child {
      guard cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH else {
        throw BulletListError(path: path, message: Self.notAllowedInLabel(block))
      }
      paragraphs += 1
      child = cmark_node_next(block)
    }
    guard paragraphs == 1, let paragraph = cmark_node_first_child(document.root) else {
      throw BulletListError(
        path: path,
        message: paragraphs == 0
          ? "the Markdown label is empty" : "a label is one paragraph; found \(paragraphs)")
    }
    return RichText(
      runs: try Self.runs(of: paragraph) { node in
        BulletListError(path: path, message: Self.notAllowedInLabel(node))
      })
  }

  /// Parses the Markdown of a list file (see ``BulletList/MarkdownListParsing``).
  ///
  /// The document must hold one list node and nothing else; each item a paragraph (its label)
  /// and at most one list (its sub-list). Lists are walked at most three deep: an item at a
  /// fourth level is the model's error, with its line, before anything deeper is looked at.
  /// - Throws: `BulletListError` with the file line.
  public func parseList(_ markdown: String, firstLine: Int) throws(BulletListError)
    -> MarkdownListOutline
  {
    let lineOffset = firstLine - 1
    if let nul = markdown.utf8.firstIndex(of: 0) {
      let line = markdown.utf8[..<nul].reduce(into: 1) { count, byte in
        if byte == 0x0A { count += 1 }
      }
      throw BulletListError(
        line: line + lineOffset, path: "",
        message: "the file contains the NUL character (U+0000), which cannot be drawn")
    }
    if let problem = Self.imageOpenerProblem(markdown) {
      throw BulletListError(line: problem.line + lineOffset, path: "", message: problem.message)
    }
    let document = try Document(
      markdown, failure: BulletListError(path: "", message: "libcmark could not parse the Markdown")
    )
    let walker = ListWalker(lineOffset: lineOffset)
    var list: OpaquePointer?
    var child = cmark_node_first_child(document.root)
    while let block = child {
      let line = walker.line(of: block)
      if cmark_node_get_type(block) == CMARK_NODE_LIST {
        if list != nil {
          throw BulletListError(
            line: line, path: "",
            message:
              "a second list starts here: a file holds one list (CommonMark starts a new list when the marker changes, as from - to * or to 1., or after a line of other text)"
          )
        }
        list = block
      } else {
        throw BulletListError(
          line: line, path: "",
          message:
            "\(Self.blockName(block)) is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
        )
      }
      child = cmark_node_next(block)
    }
    guard let list else {
      throw BulletListError(
        line: firstLine, path: "",
        message: "the file holds no list: write its items as \"- label\" or \"1. label\"")
    }
    return try walker.outline(of: list, pathPrefix: "", level: 0)
  }

  /// Reads the list, item and paragraph nodes of a parsed list file.
  private struct ListWalker {
    /// What to add to libcmark's line numbers to get the file's.
    let lineOffset: Int

    /// The file line of `node`; libcmark gives no position to soft breaks (0), which then take
    /// the line of `fallback`.
    func line(of node: OpaquePointer, fallback: OpaquePointer? = nil) -> Int {
      let line = Int(cmark_node_get_start_line(node))
      if line <= 0, let fallback { return self.line(of: fallback) }
      return max(1, line) + lineOffset
    }

    /// The outline of the list node `list` at nesting `level` (0, 1 or 2).
    func outline(of list: OpaquePointer, pathPrefix: String, level: Int) throws(BulletListError)
      -> MarkdownListOutline
    {
      let listLine = line(of: list)
      let isOrdered = cmark_node_get_list_type(list) == CMARK_ORDERED_LIST
      if isOrdered {
        let start = Int(cmark_node_get_list_start(list))
        let marker = "\(start)" + (cmark_node_get_list_delim(list) == CMARK_PAREN_DELIM ? ")" : ".")
        guard cmark_node_get_list_delim(list) != CMARK_PAREN_DELIM else {
          throw BulletListError(
            line: listLine, path: pathPrefix + "items[0]",
            message:
              "ordered items are written 1., not \(marker) (the drawn marker is the theme's: 1., A., a.)"
          )
        }
        guard start == 1 else {
          throw BulletListError(
            line: listLine, path: pathPrefix + "items[0]",
            message: "an ordered list starts at 1., not \(marker) (items are numbered in order)")
        }
      }
      var items: [MarkdownListOutline.Item] = []
      var child = cmark_node_first_child(list)
      while let item = child {
        let path = pathPrefix + "items[\(items.count)]"
        let itemLine = line(of: item)
        guard level < OUDSBulletList.maximumLevelCount else {
          throw BulletListError(
            line: itemLine, path: path, message: OUDSBulletList.fourthLevelMessage)
        }
        items.append(try self.item(item, path: path, line: itemLine, level: level))
        child = cmark_node_next(item)
      }
      return MarkdownListOutline(isOrdered: isOrdered, line: listLine, items: items)
    }

    /// One item node: a paragraph, then at most one list.
    private func item(_ item: OpaquePointer, path: String, line itemLine: Int, level: Int)
      throws(BulletListError)
      -> MarkdownListOutline.Item
    {
      let rule = "an item is one paragraph, optionally followed by one indented sub-list"
      guard let paragraph = cmark_node_first_child(item) else {
        throw BulletListError(
          line: itemLine, path: path, message: "the item is empty: write its label after the marker"
        )
      }
      switch cmark_node_get_type(paragraph) {
      case CMARK_NODE_PARAGRAPH: break
      case CMARK_NODE_LIST:
        throw BulletListError(
          line: itemLine, path: path,
          message: "the item has no label: its first line holds another list marker")
      default:
        throw BulletListError(
          line: line(of: paragraph), path: path,
          message: "\(CommonMarkParser.blockName(paragraph)) is not allowed in an item (\(rule))")
      }
      let runs = try CommonMarkParser.runs(of: paragraph) { node in
        BulletListError(
          line: line(of: node, fallback: paragraph), path: path,
          message: CommonMarkParser.notAllowedInLabel(node))
      }
      let rich = RichText(runs: runs)
      let label: OUDSBulletList.Label =
        runs.contains { $0.isStrong || $0.isEmphasis || $0.link != nil }
        ? .rich(rich) : .plain(rich.plainText)
      var subList: MarkdownListOutline?
      var next = cmark_node_next(paragraph)
      while let block = next {
        switch cmark_node_get_type(block) {
        case CMARK_NODE_LIST where subList == nil:
          subList = try outline(of: block, pathPrefix: path + ".", level: level + 1)
        case CMARK_NODE_LIST:
          throw BulletListError(
            line: line(of: block), path: path,
            message:
              "a second sub-list starts here (\(rule); CommonMark starts a new list when the marker changes)"
          )
        case CMARK_NODE_PARAGRAPH:
          throw BulletListError(
            line: line(of: block), path: path,
            message: "a second paragraph in the item (\(rule); a blank line ends the label)")
        default:
          throw BulletListError(
            line: line(of: block), path: path,
            message: "\(CommonMarkParser.blockName(block)) is not allowed in an item (\(rule))")
        }
        next = cmark_node_next(block)
      }
      return MarkdownListOutline.Item(line: itemLine, label: label, subList: subList)
    }
  }

  /// A parsed libcmark document, freed with its owner.
  private final class Document {
    let root: OpaquePointer

    init(_ markdown: String, failure: BulletListError) throws(BulletListError) {
      let bytes = Array(markdown.utf8)
      let parsed = bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress.map { base in
          base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            cmark_parse_document($0, buffer.count, CMARK_OPT_DEFAULT)
          }
        } ?? cmark_parse_document("", 0, CMARK_OPT_DEFAULT)
      }
      guard let parsed else { throw failure }
      root = parsed
    }

    deinit { cmark_node_free(root) }
  }

  /// When `text` holds more than ``maximumImageOpeners`` `![`: the line of the first one past
  /// the limit and the message.
  static func imageOpenerProblem(_ text: String) -> (line: Int, message: String)? {
    var count = 0
    var line = 1
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte == 0x0A { line += 1 }
      if previous == UInt8(ascii: "!"), byte == UInt8(ascii: "[") {
        count += 1
        if count > maximumImageOpeners {
          return (
            line,
            "more than \(maximumImageOpeners) \"![\": images are not allowed in labels, and so many would make libcmark slow"
          )
        }
      }
      previous = byte
    }
    return nil
  }

  /// The text runs of the inline nodes under `parent`, merged where their styling is the same,
  /// walking the tree with an explicit stack: thousands of nested `*` or `[` cannot overflow the
  /// call stack. A node other than text, soft break, strong, emphasis or link is refused with
  /// `refuse(node)`.
  static func runs(of parent: OpaquePointer, refuse: (OpaquePointer) -> BulletListError)
    throws(BulletListError)
    -> [RichText.Run]
  {
    struct Level {
      var next: OpaquePointer?
      var strong: Bool
      var emphasis: Bool
      var link: String?
    }
    var runs: [RichText.Run] = []
    var stack = [
      Level(next: cmark_node_first_child(parent), strong: false, emphasis: false, link: nil)
    ]
    while let level = stack.last {
      guard let node = level.next else {
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next = cmark_node_next(node)
      switch cmark_node_get_type(node) {
      case CMARK_NODE_TEXT:
        let text = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
        runs.append(
          RichText.Run(text, isStrong: level.strong, isEmphasis: level.emphasis, link: level.link))
      case CMARK_NODE_SOFTBREAK:
        runs.append(
          RichText.Run(" ", isStrong: level.strong, isEmphasis: level.emphasis, link: level.link))
      case CMARK_NODE_STRONG:
        stack.append(
          Level(
            next: cmark_node_first_child(node), strong: true, emphasis: level.emphasis,
            link: level.link))
      case CMARK_NODE_EMPH:
        stack.append(
          Level(
            next: cmark_node_first_child(node), strong: level.strong, emphasis: true,
            link: level.link))
      case CMARK_NODE_LINK:
        let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
        stack.append(
          Level(
            next: cmark_node_first_child(node), strong: level.strong, emphasis: level.emphasis,
            link: url))
      default:
        throw refuse(node)
      }
    }
    return merged(runs)
  }

  private static func merged(_ runs: [RichText.Run]) -> [RichText.Run] {
    var result: [RichText.Run] = []
    for run in runs where !run.text.isEmpty {
      if var last = result.last, last.isStrong == run.isStrong, last.isEmphasis == run.isEmphasis,
        last.link == run.link
      {
        last.text += run.text
        result[result.count - 1] = last
      } else {
        result.append(run)
      }
    }
    return result
  }

  /// `<construct> is not allowed in a label (only **strong**, *emphasis* and [links](url))`.
  static func notAllowedInLabel(_ node: OpaquePointer) -> String {
    "\(blockName(node)) is not allowed in a label (only **strong**, *emphasis* and [links](url))"
  }

  /// What a person calls the construct of `node`: `a heading`, `a code span`… A paragraph whose
  /// first line starts with `|` is `a table` (CommonMark has no tables: it reads them as text).
  static func blockName(_ node: OpaquePointer) -> String {
    switch cmark_node_get_type(node) {
    case CMARK_NODE_HEADING: return "a heading"
    case CMARK_NODE_LIST, CMARK_NODE_ITEM: return "a list"
    case CMARK_NODE_BLOCK_QUOTE: return "a block quote"
    case CMARK_NODE_CODE_BLOCK: return "a code block"
    case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE: return "raw HTML"
    case CMARK_NODE_THEMATIC_BREAK: return "a thematic break"
    case CMARK_NODE_IMAGE: return "an image"
    case CMARK_NODE_CODE: return "a code span"
    case CMARK_NODE_LINEBREAK: return "a hard line break"
    case CMARK_NODE_PARAGRAPH:
      if let first = cmark_node_first_child(node), cmark_node_get_type(first) == CMARK_NODE_TEXT,
        let literal = cmark_node_get_literal(first), literal.pointee == CChar(UInt8(ascii: "|"))
      {
        return "a table"
      }
      return "a paragraph outside the list"
    default: return cmark_node_get_type_string(node).map { String(cString: $0) } ?? "this construct"
    }
  }
}
