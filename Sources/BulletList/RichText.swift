/// Inline rich text: runs of characters that are plain, strong, emphasised or links.
public struct RichText: Hashable, Sendable {
  /// One run of characters with the same inline styling.
  public struct Run: Hashable, Sendable {
    /// The characters, drawn literally.
    public var text: String
    /// Strong (bold) text.
    public var isStrong: Bool
    /// Emphasised (italic) text.
    public var isEmphasis: Bool
    /// The link target when the run is a link.
    public var link: String?

    /// Creates a run.
    public init(
      _ text: String, isStrong: Bool = false, isEmphasis: Bool = false, link: String? = nil
    ) {
      self.text = text
      self.isStrong = isStrong
      self.isEmphasis = isEmphasis
      self.link = link
    }
  }

  /// The runs in reading order.
  public var runs: [Run]

  /// Creates rich text from runs.
  public init(runs: [Run]) {
    self.runs = runs
  }

  /// The characters without styling.
  public var plainText: String { runs.map(\.text).joined() }

  /// Whether any run is emphasised.
  public var hasEmphasis: Bool { runs.contains { $0.isEmphasis } }
}

/// Turns inline Markdown into rich text; the Graphics target implements it with libcmark.
public protocol InlineMarkdownParsing: Sendable {
  /// Parses `markdown`; only text, strong, emphasis, links and soft line breaks are allowed.
  /// - Throws: `BulletListError` naming the construct that is not allowed.
  func parseInline(_ markdown: String, itemPath: String) throws(BulletListError) -> RichText
}
