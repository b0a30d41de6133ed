import BulletList
import Layout
import Testing

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
