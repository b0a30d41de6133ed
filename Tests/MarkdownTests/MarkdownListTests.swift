import BulletList
import Foundation
import Markdown
import Primitives
import Testing

/// A Markdown list and the list it must read as.
struct MarkdownCase: CustomTestStringConvertible, Sendable {
  var name: String
  var markdown: String
  var expected: OUDSBulletList
  var testDescription: String { name }
}

private typealias Item = OUDSBulletList.Item

private func rich(_ runs: RichText.Run...) -> RichText { RichText(runs: runs) }

/// The unbranded bullets a `-` list takes when nothing says otherwise.
private let bullets = OUDSBulletList.ListType.unordered(asset: .bullet, isBranded: false)

let mappingCases: [MarkdownCase] = [
  MarkdownCase(
    name: "- items are an unordered list of plain labels",
    markdown: "- First\n- Second\n",
    expected: OUDSBulletList(type: bullets, isBold: false, items: [Item("First"), Item("Second")])),
  MarkdownCase(
    name: "* and + items too",
    markdown: "* First\n* Second\n\n",
    expected: OUDSBulletList(type: bullets, isBold: false, items: [Item("First"), Item("Second")])),
  MarkdownCase(
    name: "+ items",
    markdown: "+ Only\n",
    expected: OUDSBulletList(type: bullets, isBold: false, items: [Item("Only")])),
  MarkdownCase(
    name: "1. items are an ordered list (later numbers do not count)",
    markdown: "1. One\n1. Two\n7. Three\n",
    expected: OUDSBulletList(
      type: .ordered, isBold: false, items: [Item("One"), Item("Two"), Item("Three")])),
  MarkdownCase(
    name: "three levels by indentation; a sub-list written like its parent inherits its type",
    markdown: "- a\n  - a.a\n    - a.a.a\n    - a.a.b\n  - a.b\n- b\n",
    expected: OUDSBulletList(type: bullets, isBold: false) {
      Item("a") {
        Item("a.a") {
          Item("a.a.a")
          Item("a.a.b")
        }
        Item("a.b")
      }
      Item("b")
    }),
  MarkdownCase(
    name:
      "a 1. sub-list of a - list is ordered; a - sub-list of an ordered list is unbranded bullets",
    markdown: "- a\n  1. a.1\n     - a.1.x\n",
    expected: OUDSBulletList(type: bullets, isBold: false) {
      Item("a", subListType: .ordered) {
        Item("a.1", subListType: bullets) { Item("a.1.x") }
      }
    }),
  MarkdownCase(
    name: "ordered in ordered inherits",
    markdown: "1. a\n   1. a.a\n      1. a.a.a\n",
    expected: OUDSBulletList(type: .ordered, isBold: false) {
      Item("a") { Item("a.a") { Item("a.a.a") } }
    }),
  MarkdownCase(
    name: "strong, emphasis and links are rich text, in runs",
    markdown: "- A **strong** word, an *emphasis*, a [**bold** link](https://example.com) & <3\n",
    expected: OUDSBulletList(type: bullets, isBold: false) {
      Item(
        richText: rich(
          .init("A "), .init("strong", isStrong: true), .init(" word, an "),
          .init("emphasis", isEmphasis: true),
          .init(", a "), .init("bold", isStrong: true, link: "https://example.com"),
          .init(" link", link: "https://example.com"), .init(" & <3")))
    }),
  MarkdownCase(
    name: "underscores and nested styles",
    markdown: "- __strong *and emphasis*__ _emphasis_\n",
    expected: OUDSBulletList(type: bullets, isBold: false) {
      Item(
        richText: rich(
          .init("strong ", isStrong: true), .init("and emphasis", isStrong: true, isEmphasis: true),
          .init(" "),
          .init("emphasis", isEmphasis: true)))
    }),
  MarkdownCase(
    name: "escapes and entities are plain text; a soft break and a lazy line are spaces",
    markdown: "- 3 \\* 4 &amp; \\[x\\]\n- one\n  two\n- three\nfour\n",
    expected: OUDSBulletList(
      type: bullets, isBold: false,
      items: [Item("3 * 4 & [x]"), Item("one two"), Item("three four")])),
  MarkdownCase(
    name: "blank lines between items (a loose list) change nothing",
    markdown: "\n\n- a\n\n- b\n\n  - b.a\n\n",
    expected: OUDSBulletList(type: bullets, isBold: false) {
      Item("a")
      Item("b") { Item("b.a") }
    }),
  MarkdownCase(
    name: "Windows line endings and a byte order mark",
    markdown: "\u{FEFF}---\r\n{\"isBold\": false}\r\n---\r\n- a **b**\r\n  - c\r\n",
    expected: OUDSBulletList(type: bullets, isBold: false) {
      Item(richText: rich(.init("a "), .init("b", isStrong: true))) { Item("c") }
    }),
  MarkdownCase(
    name: "a carriage return alone ends a line too",
    markdown: "---\r{\"isBold\": false}\r---\r- a\r  - b\r",
    expected: OUDSBulletList(type: bullets, isBold: false) { Item("a") { Item("b") } }),
  MarkdownCase(
    name: "front matter: the type of an unordered list, text style and boldness",
    markdown: """
      ---
      {"type": {"unordered": {"asset": "tick", "branded": true}}, "textStyle": "bodyMedium", "isBold": false}
      ---
      - a
        - b
      """,
    expected: OUDSBulletList(
      type: .unordered(asset: .tick, isBranded: true), textStyle: .bodyMedium, isBold: false
    ) {
      Item("a") { Item("b") }
    }),
  MarkdownCase(
    name: "front matter: a bare list",
    markdown: "---\n{\"type\": \"bare\"}\n---\n- a\n  - b\n",
    expected: OUDSBulletList(type: .bare, isBold: false) { Item("a") { Item("b") } }),
  MarkdownCase(
    name: "front matter: subLists set one sub-list's type, text style and boldness",
    markdown: """
      ---
      {"isBold": true,
       "subLists": {
         "items[1]": {"type": "bare", "textStyle": "bodyMedium", "isBold": false},
         "items[1].items[0]": {"type": {"unordered": {"asset": "tick"}}}}}
      ---
      - a
        - a.a
      - b
        - b.a
          - b.a.a
        - b.b
      """,
    expected: OUDSBulletList(type: bullets, isBold: true) {
      Item("a") { Item("a.a") }
      Item("b", subListType: .bare, subListTextStyle: .bodyMedium, subListHasBoldText: false) {
        Item("b.a", subListType: .unordered(asset: .tick, isBranded: true)) { Item("b.a.a") }
        Item("b.b")
      }
    }),
  MarkdownCase(
    name: "an empty front matter is no setting",
    markdown: "---\n\n---\n1. a\n",
    expected: OUDSBulletList(type: .ordered, isBold: false, items: [Item("a")])),
]

@Suite("Markdown lists: libcmark's list nodes into the model")
struct MarkdownListTests {
  let reader = ListReader(markdownParser: CommonMarkParser())

  @Test(
    "each input reads as its list: types, levels, labels and rich spans", arguments: mappingCases)
  func mapping(_ testCase: MarkdownCase) throws {
    let document = try reader.read(markdown: testCase.markdown, baseDirectory: "/tmp")
    #expect(document.list == testCase.expected)
  }

  @Test("the outline says how each list is written and on which line each item is")
  func outline() throws {
    let outline = try CommonMarkParser().parseList("- a\n\n  1. b\n  1. c\n- d\n", firstLine: 5)
    #expect(!outline.isOrdered)
    #expect(outline.line == 5)
    #expect(outline.items.map(\.line) == [5, 9])
    #expect(outline.items[0].subList?.isOrdered == true)
    #expect(outline.items[0].subList?.items.map(\.line) == [7, 8])
    #expect(outline.items[0].subList?.items.map(\.label) == [.plain("b"), .plain("c")])
  }

  @Test("locale and platform come from the front matter; item lines count the front matter")
  func settings() throws {
    let document = try reader.read(
      markdown:
        "---\n{\"locale\": \"ar\", \"platform\": \"android\"}\n---\n\n1. a\n   1. b\n1. c\n",
      baseDirectory: "/tmp")
    #expect(document.locale == "ar")
    #expect(document.platform == .android)
    #expect(document.itemLines == ["items[0]": 5, "items[0].items[0]": 6, "items[1]": 7])
  }

  @Test("an icon in the front matter is relative to the Markdown file's folder")
  func icon() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-md-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).write(
      to: folder.appendingPathComponent("heart.svg"))
    let file = folder.appendingPathComponent("list.md")
    try Data(
      "---\n{\"type\": {\"unordered\": {\"asset\": {\"icon\": \"heart.svg\"}}}}\n---\n- a\n".utf8
    ).write(to: file)
    let document = try reader.read(file: file.path)
    let icon = OUDSBulletList.Icon(
      file: folder.appendingPathComponent("heart.svg").standardizedFileURL.path)
    #expect(document.list.type == .unordered(asset: .icon(icon), isBranded: true))
  }

  @Test("a Markdown list and its JSON twin read as the same list")
  func jsonTwin() throws {
    let markdown = try reader.read(
      markdown: """
        ---
        {"isBold": false, "locale": "fr", "subLists": {"items[1]": {"textStyle": "bodyMedium"}}}
        ---
        - Plain label
        - A **strong** word and a [link](https://example.com)
          1. One
          1. *Two*
             - Deep
        """, baseDirectory: "/tmp")
    let json = try reader.read(
      json: """
        {"isBold": false, "locale": "fr", "items": [
          {"label": "Plain label"},
          {"markdown": "A **strong** word and a [link](https://example.com)", "subListType": "ordered",
           "subListTextStyle": "bodyMedium", "items": [
            {"label": "One"},
            {"markdown": "*Two*", "subListType": {"unordered": {"branded": false}}, "items": [{"label": "Deep"}]}]}]}
        """, baseDirectory: "/tmp")
    #expect(markdown.list == json.list)
    #expect(markdown.locale == json.locale && markdown.platform == json.platform)
  }

  @Test(
    "each construct outside one list of paragraphs is refused with its line",
    arguments: [
      (
        "# Title\n- a\n",
        "line 1: a heading is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
      ),
      (
        "- a\n\nSome text\n\n- b\n",
        "line 3: a paragraph outside the list is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
      ),
      (
        "- a\n\n| x | y |\n|---|---|\n",
        "line 3: a table is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
      ),
      (
        "- a\n\n```\ncode\n```\n",
        "line 3: a code block is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
      ),
      (
        "- a\n\n      indented code\n",
        "line 3: items[0]: a code block is not allowed in an item (an item is one paragraph, optionally followed by one indented sub-list)"
      ),
      (
        "<div>x</div>\n\n- a\n",
        "line 1: raw HTML is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
      ),
      (
        "> quote\n- a\n",
        "line 1: a block quote is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
      ),
      (
        "- a\n\n***\n",
        "line 3: a thematic break is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
      ),
      (
        "- a\n- b\n* c\n",
        "line 3: a second list starts here: a file holds one list (CommonMark starts a new list when the marker changes, as from - to * or to 1., or after a line of other text)"
      ),
      (
        "- a\n1. b\n",
        "line 2: a second list starts here: a file holds one list (CommonMark starts a new list when the marker changes, as from - to * or to 1., or after a line of other text)"
      ),
      (
        "- a\n  - b\n  * c\n",
        "line 3: items[0]: a second sub-list starts here (an item is one paragraph, optionally followed by one indented sub-list; CommonMark starts a new list when the marker changes)"
      ),
      (
        "- a\n\n  second paragraph\n",
        "line 3: items[0]: a second paragraph in the item (an item is one paragraph, optionally followed by one indented sub-list; a blank line ends the label)"
      ),
      (
        "- a\n  > quoted\n",
        "line 2: items[0]: a block quote is not allowed in an item (an item is one paragraph, optionally followed by one indented sub-list)"
      ),
      (
        "- a\n  # heading\n",
        "line 2: items[0]: a heading is not allowed in an item (an item is one paragraph, optionally followed by one indented sub-list)"
      ),
      ("- a\n-\n", "line 2: items[1]: the item is empty: write its label after the marker"),
      (
        "- - a\n",
        "line 1: items[0]: the item has no label: its first line holds another list marker"
      ),
      (
        "- a\n- b with `code`\n",
        "line 2: items[1]: a code span is not allowed in a label (only **strong**, *emphasis* and [links](url))"
      ),
      (
        "- a\n- b\n  c <b>html</b>\n",
        "line 3: items[1]: raw HTML is not allowed in a label (only **strong**, *emphasis* and [links](url))"
      ),
      (
        "- an ![image](x.png)\n",
        "line 1: items[0]: an image is not allowed in a label (only **strong**, *emphasis* and [links](url))"
      ),
      (
        "- a hard  \n  break\n",
        "line 1: items[0]: a hard line break is not allowed in a label (only **strong**, *emphasis* and [links](url))"
      ),
      (
        "1. a\n2. b\n\n   3. c\n",
        "line 4: items[1].items[0]: an ordered list starts at 1., not 3. (items are numbered in order)"
      ),
      (
        "1) a\n",
        "line 1: items[0]: ordered items are written 1., not 1) (the drawn marker is the theme's: 1., A., a.)"
      ),
      ("", "line 1: the file holds no list: write its items as \"- label\" or \"1. label\""),
      (
        "---\n{}\n---\n\n",
        "line 4: the file holds no list: write its items as \"- label\" or \"1. label\""
      ),
      (
        "---\r{}\r---\r- a\r\r# h\r",
        "line 6: a heading is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)"
      ),
      (
        "- a\u{0}b\n", "line 1: the file contains the NUL character (U+0000), which cannot be drawn"
      ),
    ])
  func refused(markdown: String, expected: String) {
    let error = #expect(throws: BulletListError.self) {
      try reader.read(markdown: markdown, baseDirectory: "/tmp")
    }
    #expect(error?.description == expected)
  }

  @Test("a fourth level is the JSON format's error, naming the item and its line")
  func fourthLevel() {
    let error = #expect(throws: BulletListError.self) {
      try reader.read(
        markdown: "---\n{}\n---\n- a\n  - b\n    - c\n    - d\n      - e\n        - f\n",
        baseDirectory: "/tmp")
    }
    #expect(
      error
        == BulletListError(
          line: 8, path: "items[0].items[0].items[1].items[0]",
          message: OUDSBulletList.fourthLevelMessage))
    #expect(
      error?.description
        == "line 8: items[0].items[0].items[1].items[0]: a fourth nesting level is forbidden by design (at most 3 levels: 0, 1, 2)"
    )
  }

  @Test(
    "front matter errors name the line in the file",
    arguments: [
      (
        "---\n{\"isBold\": false,\n \"textStyle\": \"huge\"}\n---\n- a\n",
        "line 3: textStyle: unknown text style \"huge\" (expected \"bodyLarge\" or \"bodyMedium\")"
      ),
      (
        "---\n{\"isBold\": false\n \"textStyle\": \"bodyLarge\"}\n---\n- a\n",
        "line 3: front matter: malformed JSON at column 2: expected ',' or '}', found '\"'"
      ),
      (
        "---\n{\n  \"items\": []\n}\n---\n- a\n",
        "line 3: items: unknown key \"items\" (allowed: contentSize, fontScale, isBold, locale, platform, subLists, textStyle, type)"
      ),
      (
        "---\n{\"isBold\": \"yes\"}\n---\n- a\n",
        "line 2: isBold: expected true or false, found a string"
      ),
      (
        "---\n[1, 2]\n---\n- a\n",
        "line 2: front matter: expected a JSON object of list settings, found an array"
      ),
      (
        "---\n{\"type\": \"ordered\"}\n---\n- a\n",
        "line 2: type: the list on line 4 is written with -, * or + items: its type can be \"unordered\", {\"unordered\": …} or \"bare\", not \"ordered\" (write its items as 1.)"
      ),
      (
        "---\n{\"type\": \"bare\"}\n---\n\n1. a\n",
        "line 2: type: the list on line 5 is written with 1. items: its type can only be \"ordered\""
      ),
      (
        "---\n{\"type\": {\"unordered\": {\"asset\": \"star\"}}}\n---\n- a\n",
        "line 2: type.unordered.asset: unknown asset \"star\" (expected \"bullet\", \"tick\" or {\"icon\": \"<file>\"})"
      ),
      (
        "---\n{\"locale\": \"not a tag\"}\n---\n- a\n",
        "line 2: locale: \"not a tag\" is not a language tag such as \"en\" or \"ar-MA\""
      ),
      (
        "---\n{\"subLists\": {\n  \"items[0]\": {\"isBold\": false}}}\n---\n- a\n",
        "line 3: subLists.items[0]: item items[0] (line 5) has no sub-list"
      ),
      (
        "---\n{\"subLists\": {\n  \"items[7]\": {\"isBold\": false}}}\n---\n- a\n  - b\n",
        "line 3: subLists.items[7]: the list has no item items[7] with a sub-list (items with one: items[0])"
      ),
      (
        "---\n{\"subLists\": {\"items[0]\": {\n  \"type\": \"ordered\"}}}\n---\n- a\n  - b\n",
        "line 3: subLists.items[0].type: the list on line 6 is written with -, * or + items: its type can be \"unordered\", {\"unordered\": …} or \"bare\", not \"ordered\" (write its items as 1.)"
      ),
      (
        "---\n{\"subLists\": {\"items[0]\": {\"bold\": false}}}\n---\n- a\n  - b\n",
        "line 2: subLists.items[0].bold: unknown key \"bold\" (allowed: isBold, textStyle, type)"
      ),
      (
        "---\n{\"subLists\": [1]}\n---\n- a\n",
        "line 2: subLists: expected an object whose keys are item paths such as \"items[1]\", found an array"
      ),
      (
        "---\n{}\n- a\n",
        "line 1: front matter: opened by \"---\" on line 1 but not closed by a \"---\" line"
      ),
      (
        "---\n{\"textStyle\": \"\\u001b[31mred\"}\n---\n- a\n",
        "line 2: textStyle: unknown text style \"\\u{1B}[31mred\" (expected \"bodyLarge\" or \"bodyMedium\")"
      ),
    ])
  func frontMatter(markdown: String, expected: String) {
    let error = #expect(throws: BulletListError.self) {
      try reader.read(markdown: markdown, baseDirectory: "/tmp")
    }
    #expect(error?.description == expected)
  }

  @Test(
    "rich text in a bold list is the model's error at render time; the document adds the item's line"
  )
  func richInBold() throws {
    let document = try reader.read(
      markdown: "---\n{\"isBold\": true}\n---\n- a\n  - b\n  - c *d*\n", baseDirectory: "/tmp")
    let error = #expect(throws: BulletListError.self) {
      try document.list.resolvedRows(platform: .ios)
    }
    // In the terms of a Markdown list: its front matter keys, not the JSON model's.
    #expect(
      error.map(document.locating)?.description
        == #"line 6: items[0].items[1]: rich text is allowed only when the text is not bold: the front matter sets "isBold": true; remove it (Markdown text is regular unless the front matter makes it bold), or set "subLists": {"items[0]": {"isBold": false}} for this sub-list alone"#
    )
    #expect(try document.list.resolvedRows(platform: .android).count == 3)
  }

  @Test("a Markdown list is regular text when its front matter does not set isBold")
  func regularByDefault() throws {
    let plain = try reader.read(markdown: "- Create your **account**\n", baseDirectory: "/tmp")
    #expect(plain.list.isBold == false)
    #expect(try plain.list.resolvedRows(platform: .ios).map(\.isBold) == [false])
    let empty = try reader.read(markdown: "---\n{}\n---\n- a *b*\n", baseDirectory: "/tmp")
    #expect(empty.list.isBold == false)
    let bold = try reader.read(
      markdown: "---\n{\"isBold\": true}\n---\n- a\n", baseDirectory: "/tmp")
    #expect(bold.list.isBold == true)
  }

  @Test("the file: UTF-8, at most 1 MiB, read from its extension or the format given")
  func file() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-md-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = folder.appendingPathComponent("list.md")
    try Data("- a\n- b **c**\n".utf8).write(to: list)
    #expect(try reader.read(file: list.path).list.items.count == 2)
    let text = folder.appendingPathComponent("list.txt")
    try Data("- a\n".utf8).write(to: text)
    #expect(try reader.read(file: text.path, format: .markdown).list.items == [Item("a")])
    let jsonError = #expect(throws: BulletListError.self) { try reader.read(file: text.path) }
    #expect(jsonError?.description.hasPrefix("\(text.path): malformed JSON at line 1") == true)
    try Data([0x2D, 0x20, 0xFF, 0x0A]).write(to: list)
    #expect(
      throws: BulletListError(file: list.path, path: "", message: "the file is not UTF-8 text")
    ) {
      try reader.read(file: list.path)
    }
    try Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1).write(to: list)
    #expect(
      throws: BulletListError(
        file: list.path, path: "", message: "the list file is 1.0 MiB, over the limit of 1 MiB")
    ) {
      try reader.read(file: list.path)
    }
    #expect(
      ListFormat(fileName: "a.MD") == .markdown && ListFormat(fileName: "b.markdown") == .markdown)
    #expect(ListFormat(fileName: "c.json") == .json && ListFormat(fileName: "md") == .json)
  }

  @Test("without a Markdown parser, a Markdown list is an error")
  func noParser() {
    #expect(
      throws: BulletListError(
        path: "",
        message:
          "Markdown lists need a Markdown parser (use the ouds-render CLI or BulletListRenderer)")
    ) {
      try ListReader().read(markdown: "- a\n", baseDirectory: "/tmp")
    }
  }
}

@Suite("Markdown lists: hostile input stays bounded")
struct MarkdownListBoundsTests {
  let reader = ListReader(markdownParser: CommonMarkParser())

  @Test("1 MB of items is read whole: every item, with its line")
  func manyItems() throws {
    let count = 100_000
    var text = ""
    text.reserveCapacity(count * 12)
    for index in 0..<count { text += index % 10 == 9 ? "  - sub \(index)\n" : "- item \(index)\n" }
    #expect(text.utf8.count > 1_000_000)
    let document = try reader.read(markdown: text, baseDirectory: "/tmp")
    #expect(document.list.items.count == count / 10 * 9)
    #expect(document.list.items.last?.subItems == [Item("sub 99999")])
    #expect(document.itemLines["items[89999].items[0]"] == 100_000)
  }

  @Test(
    "a million markers nested on one line, and 2,000 levels of indentation, stop at the first item without a label or at the fourth level"
  )
  func deepNesting() {
    let text = String(repeating: "- * ", count: 250_000) + "a\n"
    #expect(
      throws: BulletListError(
        line: 1, path: "items[0]",
        message: "the item has no label: its first line holds another list marker")
    ) {
      try reader.read(markdown: text, baseDirectory: "/tmp")
    }
    var staircase = ""
    for depth in 0..<2000 {
      staircase += String(repeating: " ", count: 2 * depth) + "- level \(depth)\n"
    }
    #expect(
      throws: BulletListError(
        line: 4, path: "items[0].items[0].items[0].items[0]",
        message: OUDSBulletList.fourthLevelMessage)
    ) {
      try reader.read(markdown: staircase, baseDirectory: "/tmp")
    }
  }

  @Test(
    "many image openers are refused before libcmark sees them (its time grows with their square)")
  func imageOpeners() {
    let text = "- a\n- " + String(repeating: "![[]()", count: 100_000) + "\n"
    #expect(
      throws: BulletListError(
        line: 2, path: "",
        message:
          "more than 32 \"![\": images are not allowed in labels, and so many would make libcmark slow"
      )
    ) {
      try reader.read(markdown: text, baseDirectory: "/tmp")
    }
    #expect(
      throws: BulletListError(
        path: "items[0].markdown",
        message:
          "more than 32 \"![\": images are not allowed in labels, and so many would make libcmark slow"
      )
    ) {
      try CommonMarkParser().parseInline(
        String(repeating: "![[]()", count: 100_000), itemPath: "items[0]")
    }
  }
}
