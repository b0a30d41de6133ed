import BulletList
import CCommonMark

/// Parses inline Markdown labels with libcmark (CommonMark), keeping only strong, emphasis and
/// links; any other construct is an error naming the item.
public struct CommonMarkParser: InlineMarkdownParsing {
  /// Creates a parser.
  public init() {}

  /// Parses `markdown` into rich text.
  /// - Throws: `BulletListError` at `itemPath.markdown` for a construct that is not allowed.
  public func parseInline(_ markdown: String, itemPath: String) throws(BulletListError) -> RichText
  {
    let path = itemPath + ".markdown"
    let bytes = Array(markdown.utf8)
    guard
      let document = bytes.withUnsafeBufferPointer({ buffer in
        buffer.baseAddress.map { base in
          base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            cmark_parse_document($0, buffer.count, CMARK_OPT_DEFAULT)
          }
        } ?? cmark_parse_document("", 0, CMARK_OPT_DEFAULT)
      })
    else {
      throw BulletListError(path: path, message: "libcmark could not parse the Markdown")
    }
    defer { cmark_node_free(document) }

    var paragraphs = 0
    var child = cmark_node_first_child(document)
    while let block = child {
      guard cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH else {
        throw notAllowed(block, path: path)
      }
      paragraphs += 1
      child = cmark_node_next(block)
    }
    guard paragraphs == 1, let paragraph = cmark_node_first_child(document) else {
      throw BulletListError(
        path: path,
        message: paragraphs == 0
          ? "the Markdown label is empty" : "a label is one paragraph; found \(paragraphs)")
    }
    var runs: [RichText.Run] = []
    try collect(paragraph, strong: false, emphasis: false, link: nil, into: &runs, path: path)
    return RichText(runs: merged(runs))
  }

  /// The text runs under `parent`, in document order, walking the tree with an explicit stack:
  /// thousands of nested `*` or `[` cannot overflow the call stack.
  private func collect(
    _ parent: OpaquePointer, strong: Bool, emphasis: Bool, link: String?,
    into runs: inout [RichText.Run], path: String
  ) throws(BulletListError) {
    struct Level {
      var next: OpaquePointer?
      var strong: Bool
      var emphasis: Bool
      var link: String?
    }
    var stack = [
      Level(next: cmark_node_first_child(parent), strong: strong, emphasis: emphasis, link: link)
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
        throw notAllowed(node, path: path)
      }
    }
  }

  private func merged(_ runs: [RichText.Run]) -> [RichText.Run] {
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

  private func notAllowed(_ node: OpaquePointer, path: String) -> BulletListError {
    let name: String
    switch cmark_node_get_type(node) {
    case CMARK_NODE_HEADING: name = "a heading"
    case CMARK_NODE_LIST, CMARK_NODE_ITEM: name = "a list"
    case CMARK_NODE_BLOCK_QUOTE: name = "a block quote"
    case CMARK_NODE_CODE_BLOCK: name = "a code block"
    case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE: name = "raw HTML"
    case CMARK_NODE_THEMATIC_BREAK: name = "a thematic break"
    case CMARK_NODE_IMAGE: name = "an image"
    case CMARK_NODE_CODE: name = "a code span"
    case CMARK_NODE_LINEBREAK: name = "a hard line break"
    default: name = cmark_node_get_type_string(node).map { String(cString: $0) } ?? "this construct"
    }
    return BulletListError(
      path: path,
      message: "\(name) is not allowed in a label (only **strong**, *emphasis* and [links](url))")
  }
}
