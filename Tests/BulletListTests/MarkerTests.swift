import Testing

@testable import BulletList

@Suite("Ordered markers")
struct MarkerTests {
  /// Independent reference: bijective numeration written as the spreadsheet-column algorithm.
  func column(_ index: Int, _ symbols: [String]) -> String {
    if index < symbols.count { return symbols[index] }
    return column(index / symbols.count - 1, symbols) + symbols[index % symbols.count]
  }

  let upper = (65...90).map { String(UnicodeScalar($0)!) }
  let lower = (97...122).map { String(UnicodeScalar($0)!) }
  let arabic = [
    "أ", "ب", "ت", "ث", "ج", "ح", "خ", "د", "ذ", "ر", "ز", "س", "ش", "ص", "ض", "ط", "ظ", "ع", "غ",
    "ف", "ق", "ك", "ل", "م", "ن", "ه", "و", "ي",
  ]

  @Test("Latin markers for indexes 0…60 on every level", arguments: 0...60)
  func latin(index: Int) {
    #expect(OrderedMarker.prefix(level: 0, index: index, alphabet: .latin) == "\(index + 1).")
    #expect(
      OrderedMarker.prefix(level: 1, index: index, alphabet: .latin) == column(index, upper) + ".")
    #expect(
      OrderedMarker.prefix(level: 2, index: index, alphabet: .latin) == column(index, lower) + ".")
  }

  @Test("Arabic markers for indexes 0…60 on every level", arguments: 0...60)
  func arabicMarkers(index: Int) {
    #expect(OrderedMarker.prefix(level: 0, index: index, alphabet: .arabic) == "\(index + 1).")
    #expect(
      OrderedMarker.prefix(level: 1, index: index, alphabet: .arabic) == column(index, arabic) + "."
    )
    #expect(
      OrderedMarker.prefix(level: 2, index: index, alphabet: .arabic) == "(" + column(index, arabic)
        + ").")
  }

  @Test("known values from the spec")
  func knownValues() {
    #expect(OrderedMarker.prefix(level: 1, index: 25, alphabet: .latin) == "Z.")
    #expect(OrderedMarker.prefix(level: 1, index: 26, alphabet: .latin) == "AA.")
    #expect(OrderedMarker.prefix(level: 1, index: 27, alphabet: .latin) == "AB.")
    #expect(OrderedMarker.prefix(level: 1, index: 51, alphabet: .latin) == "AZ.")
    #expect(OrderedMarker.prefix(level: 1, index: 52, alphabet: .latin) == "BA.")
    #expect(OrderedMarker.prefix(level: 2, index: 26, alphabet: .latin) == "aa.")
    #expect(OrderedMarker.prefix(level: 0, index: 999, alphabet: .latin) == "1000.")
    #expect(OrderedMarker.prefix(level: 1, index: 0, alphabet: .arabic) == "\u{0623}.")
    #expect(OrderedMarker.prefix(level: 2, index: 0, alphabet: .arabic) == "(\u{0623}).")
    #expect(OrderedMarker.prefix(level: 1, index: 27, alphabet: .arabic) == "\u{064A}.")
    #expect(OrderedMarker.prefix(level: 1, index: 28, alphabet: .arabic) == "\u{0623}\u{0623}.")
    #expect(OrderedMarker.prefix(level: 1, index: 29, alphabet: .arabic) == "\u{0623}\u{0628}.")
    #expect(OrderedMarker.prefix(level: 1, index: 55, alphabet: .arabic) == "\u{0623}\u{064A}.")
    #expect(OrderedMarker.prefix(level: 1, index: 56, alphabet: .arabic) == "\u{0628}\u{0623}.")
  }

  @Test("the locale picks the alphabet by language")
  func alphabetFromLocale() {
    #expect(MarkerAlphabet.forLocale("ar") == .arabic)
    #expect(MarkerAlphabet.forLocale("ar-MA") == .arabic)
    #expect(MarkerAlphabet.forLocale("AR_eg") == .arabic)
    #expect(MarkerAlphabet.forLocale("fr-FR") == .latin)
    #expect(MarkerAlphabet.forLocale("arn") == .latin)  // Mapudungun is not Arabic
    #expect(MarkerAlphabet.forLocale(nil) == .latin)
  }
}
