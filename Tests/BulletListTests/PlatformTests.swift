import Foundation
import Primitives
import Testing

@testable import BulletList

/// The rules `--platform` switches, checked on the model (SPEC §2, §3).
@Suite("iOS and Android rules in the model")
struct PlatformTests {
  let casesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Snapshots/cases")

  /// The list of a case file, read as the catalogue reads it (its `variants` key set aside).
  func demo(_ name: String) throws -> OUDSBulletList {
    try ListReader().read(
      file: casesFolder.appendingPathComponent("\(name).json").path, settingAside: ["variants"]
    )
    .document.list
  }

  /// The bullet level of every row that draws a theme bullet, by path.
  func bulletLevels(_ list: OUDSBulletList, _ platform: OUDSBulletList.Platform) throws -> [String:
    Int]
  {
    var levels: [String: Int] = [:]
    for row in try list.resolvedRows(platform: platform) {
      if case .unordered(.bullet, _) = row.listType {
        levels[row.path] = row.bulletAssetLevel(platform: platform)
      }
    }
    return levels
  }

  /// SNAPSHOTS.md, "What each parameter shows": the Android demo lists' bullet rows.
  @Test(
    "bullet level per row of the demo lists: depth on iOS, depth − ordered ancestors on Android")
  func demoBulletLevels() throws {
    let thirdTwo = ["items[2].items[1].items[0]", "items[2].items[1].items[1]"]
    let fourthTwo = ["items[3].items[1].items[0]", "items[3].items[1].items[1]"]
    func table(_ pairs: [([String], Int)]) -> [String: Int] {
      Dictionary(uniqueKeysWithValues: pairs.flatMap { paths, level in paths.map { ($0, level) } })
    }
    // Bare [0]: no ordered ancestor anywhere, so both platforms agree.
    let bare = table([(thirdTwo, 2), (fourthTwo, 2)])
    #expect(try bulletLevels(demo("demo-bare"), .ios) == bare)
    #expect(try bulletLevels(demo("demo-bare"), .android) == bare)
    // Ordered [1]: the 4 rows where Android draws the level-0 and level-1 bullets.
    #expect(try bulletLevels(demo("demo-ordered"), .ios) == table([(thirdTwo, 2), (fourthTwo, 2)]))
    #expect(
      try bulletLevels(demo("demo-ordered"), .android) == table([(thirdTwo, 0), (fourthTwo, 1)]))
    // Unordered [2].
    let unordered = table([
      (["items[0]", "items[1]", "items[2]", "items[3]"], 0),
      (["items[2].items[0]", "items[2].items[1]"], 1), (thirdTwo, 2), (fourthTwo, 2),
    ])
    #expect(try bulletLevels(demo("demo-unordered"), .ios) == unordered)
    #expect(try bulletLevels(demo("demo-unordered"), .android) == unordered)
  }

  @Test(
    "Android: an unordered list under [Ordered, Unordered] uses level 1; the level is capped at 2")
  func androidLevelArithmetic() throws {
    let list = OUDSBulletList(type: .unordered(), isBold: false) {
      OUDSBulletList.Item("u", subListType: .ordered) {
        OUDSBulletList.Item("o", subListType: .unordered()) { OUDSBulletList.Item("u.o.u") }
      }
    }
    let rows = try list.resolvedRows(platform: .android)
    #expect(rows.map { $0.bulletAssetLevel(platform: .android) } == [0, 1, 1])
    #expect(rows.map { $0.bulletAssetLevel(platform: .ios) } == [0, 1, 2])
    #expect(rows[2].ancestors.map(\.isInOrderedList) == [false, true])
  }

  @Test("Arabic letters: by locale on iOS, by direction on Android")
  func alphabets() {
    let cases: [(String?, Bool, MarkerAlphabet, MarkerAlphabet)] = [
      // locale, right-to-left, iOS, Android
      (nil, false, .latin, .latin),
      ("en", true, .latin, .arabic),
      ("he", true, .latin, .arabic),
      ("ar", false, .arabic, .latin),
      ("ar-MA", true, .arabic, .arabic),
    ]
    for (locale, rtl, ios, android) in cases {
      #expect(MarkerAlphabet.forPlatform(.ios, locale: locale, isRightToLeft: rtl) == ios)
      #expect(MarkerAlphabet.forPlatform(.android, locale: locale, isRightToLeft: rtl) == android)
    }
  }

  @Test("rich text in bold text: iOS refuses it with the item's path, Android keeps it")
  func richTextInBold() throws {
    let rich = RichText(runs: [.init("a "), .init("link", link: "https://example.com")])
    let list = OUDSBulletList(isBold: true) {
      OUDSBulletList.Item("plain") { OUDSBulletList.Item(richText: rich) }
    }
    #expect(
      throws: BulletListError(
        path: "items[0].items[0]",
        message:
          "rich text is allowed only when the text is not bold (set isBold or subListHasBoldText to false)"
      )
    ) {
      try list.resolvedRows()
    }
    let rows = try list.resolvedRows(platform: .android)
    #expect(rows.count == 2 && rows[1].isBold && rows[1].label == .rich(rich))
  }

  @Test("the JSON \"platform\" key: ios or android, anything else names the JSON path")
  func jsonKey() throws {
    let reader = ListReader()
    func read(_ platform: String) throws(BulletListError) -> BulletListDocument {
      try reader.read(
        json: #"{"platform": \#(platform), "items": [{"label": "A"}]}"#, baseDirectory: "/tmp")
    }
    #expect(try read(#""android""#).platform == .android)
    #expect(try read(#""ios""#).platform == .ios)
    #expect(
      try reader.read(json: #"{"items": [{"label": "A"}]}"#, baseDirectory: "/tmp").platform == nil)
    #expect(
      throws: BulletListError(
        path: "platform", message: #"unknown platform "web" (expected "ios" or "android")"#)
    ) {
      try read(#""web""#)
    }
    #expect(throws: BulletListError(path: "platform", message: "expected a string, found a number"))
    {
      try read("1")
    }
    // Control characters are escaped and a long value is cut.
    let hostile = String(repeating: "x", count: 100) + "\\u001b"
    do {
      _ = try read("\"\\u001b[31m\(hostile)\"")
      Issue.record("accepted a bad platform")
    } catch {
      #expect(error.description.hasPrefix(#"platform: unknown platform "\u{1B}[31mxxx"#))
      #expect(error.description.contains("…\" (expected"))
      #expect(!error.description.unicodeScalars.contains("\u{1B}"))
      #expect(error.description.count < 120)
    }
  }
}
