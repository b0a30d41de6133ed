import BulletList
import Markdown
import Testing

@Suite("Inline Markdown through libcmark")
struct CommonMarkParserTests {
  let parser = CommonMarkParser()

  @Test("strong, emphasis and links become runs; the rest stays literal")
  func inline() throws {
    let rich = try parser.parseInline(
      "A **strong** word, an *emphasis*, a [**bold** link](https://example.com) & <3",
      itemPath: "items[0]")
    #expect(
      rich.runs == [
        RichText.Run("A "),
        RichText.Run("strong", isStrong: true),
        RichText.Run(" word, an "),
        RichText.Run("emphasis", isEmphasis: true),
        RichText.Run(", a "),
        RichText.Run("bold", isStrong: true, link: "https://example.com"),
        RichText.Run(" link", link: "https://example.com"),
        RichText.Run(" & <3"),
      ])
  }

  @Test("a soft line break is a space")
  func softBreak() throws {
    #expect(try parser.parseInline("one\ntwo", itemPath: "items[0]").plainText == "one two")
  }

  @Test(
    "block and other inline constructs are errors naming the item",
    arguments: [
      ("# Title", "a heading"),
      ("- one\n- two", "a list"),
      ("> quoted", "a block quote"),
      ("    code block", "a code block"),
      ("some `code`", "a code span"),
      ("an <b>html</b> tag", "raw HTML"),
      ("![alt](icon.png)", "an image"),
      ("line  \nbreak", "a hard line break"),
      ("---", "a thematic break"),
    ])
  func rejected(markdown: String, construct: String) {
    #expect(
      throws: BulletListError(
        path: "items[1].items[0].markdown",
        message:
          "\(construct) is not allowed in a label (only **strong**, *emphasis* and [links](url))")
    ) {
      try parser.parseInline(markdown, itemPath: "items[1].items[0]")
    }
  }

  @Test("two paragraphs and an empty label are errors")
  func paragraphs() {
    #expect(
      throws: BulletListError(
        path: "items[0].markdown", message: "a label is one paragraph; found 2")
    ) {
      try parser.parseInline("one\n\ntwo", itemPath: "items[0]")
    }
    #expect(
      throws: BulletListError(path: "items[0].markdown", message: "the Markdown label is empty")
    ) {
      try parser.parseInline("  ", itemPath: "items[0]")
    }
  }

  @Test("through the JSON reader, and refused in a bold list")
  func inJSON() throws {
    let reader = ListReader(markdownParser: parser)
    let document = try reader.read(
      json: #"{"isBold": false, "items": [{"markdown": "a **b**"}]}"#, baseDirectory: "/tmp")
    #expect(
      document.list.items[0].label
        == .rich(RichText(runs: [.init("a "), .init("b", isStrong: true)])))
    let bold = try reader.read(
      json: #"{"items": [{"markdown": "a **b**"}]}"#, baseDirectory: "/tmp")
    let error = #expect(throws: BulletListError.self) { try bold.list.resolvedRows() }
    #expect(error?.path == "items[0]")
  }
}
