import BulletList
import Testing

@testable import Layout

@Suite("Accessibility text, as iOS VoiceOver builds it")
struct AccessibilityTests {
  let list = OUDSBulletList(type: .ordered) {
    OUDSBulletList.Item("Label 1") {
      OUDSBulletList.Item("Label 1.1", subListType: .unordered()) {
        OUDSBulletList.Item("Label 1.1.1", subListType: .ordered) {}
      }
      OUDSBulletList.Item("Label 1.2", subListType: .ordered) {
        OUDSBulletList.Item("Deep")
      }
    }
    OUDSBulletList.Item("Label 2")
  }

  @Test("English")
  func english() throws {
    let rows = try list.resolvedRows()
    let text = AccessibilityText(language: .english, alphabet: .latin)
    #expect(
      rows.map(text.label(for:)) == [
        "1., Label 1, 2 sub-items",
        "1.A., Label 1.1, 1 sub-item",
        "Label 1.1.1, level 3",
        "1.B., Label 1.2, 1 sub-item",
        "1.B.a., Deep",
        "2., Label 2",
      ])
  }

  @Test("French and Arabic")
  func otherLanguages() throws {
    let rows = try list.resolvedRows()
    let french = AccessibilityText(language: .french, alphabet: .latin)
    #expect(french.label(for: rows[0]) == "1., Label 1, 2 sous-éléments")
    #expect(french.label(for: rows[2]) == "Label 1.1.1, niveau 3")
    let arabic = AccessibilityText(language: .arabic, alphabet: .arabic)
    #expect(arabic.label(for: rows[0]) == "1., Label 1, عنصران فرعيان")
    #expect(arabic.label(for: rows[4]) == "1.\u{0628}.(\u{0623})., Deep")
    #expect(AccessibilityText.Language(locale: "fr-CA") == .french)
    #expect(AccessibilityText.Language(locale: "ar-MA") == .arabic)
    #expect(AccessibilityText.Language(locale: "de") == .english)
  }
}

@Suite("Accessibility text, as Android TalkBack builds it")
struct TalkBackTextTests {
  @Test(
    "ordered: the ordered ancestors' prefixes and the item's, without '.'; unordered: Level N always"
  )
  func talkBack() throws {
    let list = OUDSBulletList(type: .ordered) {
      OUDSBulletList.Item("One")
      OUDSBulletList.Item("Two", subListType: .ordered) {
        OUDSBulletList.Item("Two A")
        OUDSBulletList.Item("Two B", subListType: .unordered()) {
          OUDSBulletList.Item("Deep")
        }
      }
    }
    let rows = try list.resolvedRows(platform: .android)
    let english = AccessibilityText(language: .english, alphabet: .latin, reader: .talkBack)
    #expect(
      rows.map(english.label(for:)) == [
        "1, One", "2, Two, 2 subitems", "2, A, Two A", "2, B, Two B, 1 subitem", "Deep, Level 3",
      ])
    let french = AccessibilityText(language: .french, alphabet: .latin, reader: .talkBack)
    #expect(french.label(for: rows[4]) == "Deep, Niveau 3")
    #expect(french.label(for: rows[1]) == "2, Two, 2 sous-éléments")
    let flat = try OUDSBulletList(type: .unordered()) { OUDSBulletList.Item("Solo") }
      .resolvedRows(platform: .android)
    // unlike VoiceOver, TalkBack says the level of a top-level item without children
    #expect(english.label(for: flat[0]) == "Solo, Level 1")
    #expect(AccessibilityText(language: .english, alphabet: .latin).label(for: flat[0]) == "Solo")
  }

  @Test("Arabic plural forms: one, two, few (3–10), many (11–99), other")
  func arabicPlurals() {
    let arabic = AccessibilityText(language: .arabic, alphabet: .arabic, reader: .talkBack)
    #expect(arabic.subItemsText(1) == "عنصر فرعي واحد")
    #expect(arabic.subItemsText(2) == "عنصران فرعيان")
    #expect(arabic.subItemsText(3) == "3 عناصر فرعية")
    #expect(arabic.subItemsText(11) == "11 عنصرًا فرعيًا")
    #expect(arabic.subItemsText(100) == "100 عنصر فرعي")
    #expect(arabic.subItemsText(103) == "103 عناصر فرعية")
  }
}
