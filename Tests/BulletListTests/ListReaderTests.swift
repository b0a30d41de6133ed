import Foundation
import Testing

@testable import BulletList

@Suite("JSON list reader")
struct ListReaderTests {
  let reader = ListReader()

  func read(_ json: String, base: String = "/tmp") throws(BulletListError) -> BulletListDocument {
    try reader.read(json: json, baseDirectory: base)
  }

  func error(_ json: String) -> String? {
    do {
      _ = try read(json)
      return nil
    } catch {
      return error.description
    }
  }

  @Test("every key but items and label is optional, with the iOS defaults")
  func defaults() throws {
    let document = try read(#"{"items": [{"label": "Label 1"}]}"#)
    #expect(document.list.type == .unordered(asset: .bullet, isBranded: false))
    #expect(document.list.textStyle == .bodyLarge)
    #expect(document.list.isBold)
    #expect(document.list.items == [OUDSBulletList.Item("Label 1")])
    #expect(document.locale == nil)
  }

  @Test("the format mirrors the model")
  func fullDocument() throws {
    let document = try read(
      #"""
      {"type": {"unordered": {"asset": "tick", "branded": false}}, "textStyle": "bodyMedium",
       "isBold": false, "locale": "ar-MA",
       "items": [{"label": "A", "subListType": "ordered", "subListTextStyle": "bodyLarge",
                  "subListHasBoldText": true, "items": [{"label": "A.1"}]},
                 {"label": "<b>&amp;"}]}
      """#)
    let expected = OUDSBulletList(
      type: .unordered(asset: .tick, isBranded: false), textStyle: .bodyMedium, isBold: false
    ) {
      OUDSBulletList.Item(
        "A", subListType: .ordered, subListTextStyle: .bodyLarge, subListHasBoldText: true
      ) {
        OUDSBulletList.Item("A.1")
      }
      OUDSBulletList.Item("<b>&amp;")
    }
    #expect(document.list == expected)
    #expect(document.locale == "ar-MA")
  }

  @Test("\"unordered\" alone is the enum case with its defaults: branded bullets")
  func unorderedString() throws {
    #expect(
      try read(#"{"type": "unordered", "items": [{"label": "x"}]}"#).list.type
        == .unordered(asset: .bullet, isBranded: true))
    #expect(try read(#"{"type": "bare", "items": [{"label": "x"}]}"#).list.type == .bare)
  }

  @Test("icon paths are relative to the JSON file and must exist")
  func iconPaths() throws {
    let folder = try Fixture.temporaryFolder("reader")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("<svg/>".utf8).write(to: folder.appendingPathComponent("heart.svg"))
    let json =
      #"{"type": {"unordered": {"asset": {"icon": "heart.svg"}}}, "items": [{"label": "x"}]}"#
    try Data(json.utf8).write(to: folder.appendingPathComponent("list.json"))
    let document = try reader.read(file: folder.appendingPathComponent("list.json").path)
    #expect(
      document.list.type
        == .unordered(
          asset: .icon(
            .init(file: folder.appendingPathComponent("heart.svg").standardizedFileURL.path)),
          isBranded: true))

    let missing =
      #"{"items": [{"label": "x", "subListType": {"unordered": {"asset": {"icon": "nope.svg"}}}}]}"#
    #expect(
      error(missing)
        == "items[0].subListType.unordered.asset.icon: icon file not found: /tmp/nope.svg")
    let wrongKind =
      #"{"items": [{"label": "x", "subListType": {"unordered": {"asset": {"icon": "a.gif"}}}}]}"#
    #expect(
      error(wrongKind)
        == "items[0].subListType.unordered.asset.icon: icon \"a.gif\" must be an .svg or .png file")
  }

  @Test(
    "errors name the JSON path",
    arguments: [
      (
        #"{"items": [{"label": "x"}], "colour": "red"}"#,
        #"colour: unknown key "colour" (allowed: $schema, contentSize, fontScale, isBold, items, locale, platform, textStyle, type)"#
      ),
      // `variants` belongs to snapshot case files (the catalogue takes it off), not to lists.
      (
        #"{"items": [{"label": "x"}], "variants": {"themes": ["sosh"]}}"#,
        #"variants: unknown key "variants" (allowed: $schema, contentSize, fontScale, isBold, items, locale, platform, textStyle, type)"#
      ),
      (
        #"{"items": [{"label": "x", "items": [{"lable": "y"}]}]}"#,
        #"items[0].items[0].lable: unknown key "lable" (allowed: items, label, markdown, subListHasBoldText, subListTextStyle, subListType)"#
      ),
      (#"{"items": [{"label": 3}]}"#, "items[0].label: expected a string, found a number"),
      (#"{"isBold": "yes", "items": []}"#, "isBold: expected true or false, found a string"),
      (
        #"{"type": "dotted", "items": []}"#,
        #"type: unknown type "dotted" (expected "unordered", "ordered", "bare" or {"unordered": {…}})"#
      ),
      (
        #"{"textStyle": "bodySmall", "items": []}"#,
        #"textStyle: unknown text style "bodySmall" (expected "bodyLarge" or "bodyMedium")"#
      ),
      (
        #"{"type": {"unordered": {"asset": "star"}}, "items": []}"#,
        #"type.unordered.asset: unknown asset "star" (expected "bullet", "tick" or {"icon": "<file>"})"#
      ),
      (#"{"items": [{"items": []}]}"#, #"items[0]: missing required key "label" (or "markdown")"#),
      (#"{"type": "bare"}"#, #"items: missing required key "items""#),
      (#"[1, 2]"#, "(root): expected an object, found an array"),
      (
        #"{"items": [{"label": "x"},]}"#,
        "malformed JSON at line 1, column 27: expected a value, found ']'"
      ),
      (
        "{\"items\": [\n  {\"label\": \"x\"}\n",
        "malformed JSON at line 3, column 1: unexpected end of file, expected ',' or ']'"
      ),
      (
        #"{"items": [{"label": "x", "label": "y"}]}"#,
        #"malformed JSON at line 1, column 27: duplicate key "label""#
      ),
      (
        #"{"items": [{"label": "a\u0000b"}]}"#,
        "items[0].label: contains the NUL character (U+0000), which cannot be drawn"
      ),
      (
        #"{"items": [{"label": "x", "markdown": "**y**"}]}"#,
        "items[0].markdown: give either \"label\" or \"markdown\", not both"
      ),
    ])
  func errors(json: String, message: String) {
    #expect(error(json) == message)
  }

  @Test("a file error names the file")
  func fileErrors() throws {
    let folder = try Fixture.temporaryFolder("broken")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("broken.json").path
    try Data(#"{"items": [{"label": 1}]}"#.utf8).write(to: URL(fileURLWithPath: path))
    #expect(
      throws: BulletListError(
        file: path, path: "items[0].label", message: "expected a string, found a number")
    ) {
      try reader.read(file: path)
    }
    #expect(
      throws: BulletListError(file: "/nonexistent/list.json", path: "", message: "no such file")
    ) {
      try reader.read(file: "/nonexistent/list.json")
    }
  }

  @Test("JSON strings keep their characters: escapes, surrogate pairs, Arabic")
  func strings() throws {
    let document = try read(#"{"items": [{"label": "a\"b\\c \u00e9 \ud83d\ude00 أ"}]}"#)
    #expect(document.list.items[0].label.plainText == "a\"b\\c é 😀 أ")
  }
}
