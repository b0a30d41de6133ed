/// The set of symbols ordered prefixes are written with.
public enum MarkerAlphabet: String, Hashable, Sendable, CaseIterable {
  /// European digits, then A–Z, then a–z.
  case latin
  /// European digits, then the 28 Arabic letters in alphabetical (hijāʾī) order.
  case arabic

  /// The alphabet a locale selects: Arabic for any tag whose language is `ar`, else Latin.
  public static func forLocale(_ tag: String?) -> MarkerAlphabet {
    guard let tag else { return .latin }
    let language = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
    return language.lowercased() == "ar" ? .arabic : .latin
  }

  /// The 28 Arabic letters in the order OUDS uses, from U+0623.
  public static let arabicLetters: [Character] = [
    "\u{0623}", "\u{0628}", "\u{062A}", "\u{062B}", "\u{062C}", "\u{062D}", "\u{062E}",
    "\u{062F}", "\u{0630}", "\u{0631}", "\u{0632}", "\u{0633}", "\u{0634}", "\u{0635}",
    "\u{0636}", "\u{0637}", "\u{0638}", "\u{0639}", "\u{063A}", "\u{0641}", "\u{0642}",
    "\u{0643}", "\u{0644}", "\u{0645}", "\u{0646}", "\u{0647}", "\u{0648}", "\u{064A}",
  ]
}

/// The prefixes of ordered lists, as iOS writes them.
public enum OrderedMarker {
  /// The prefix of the item at `index` (from 0) of an ordered list at nesting `level` (0...2).
  ///
  /// Latin: "1." at level 0 (no limit), "A."…"Z.", "AA.", "AB."… at level 1, the same in lower
  /// case at level 2. Arabic: "1." at level 0, "أ." at level 1 and "(أ)." at level 2, with the
  /// letters continuing bijectively past 28 ("أأ", "أب"…). The strings are logical; in RTL they
  /// are laid out in an RTL paragraph, so the period shows on the label's side.
  public static func prefix(level: Int, index: Int, alphabet: MarkerAlphabet) -> String {
    let index = max(0, index)
    switch (level, alphabet) {
    case (...0, _):
      return "\(index + 1)."
    case (1, .latin):
      return bijective(index, symbols: latinUpper) + "."
    case (_, .latin):
      return bijective(index, symbols: latinLower) + "."
    case (1, .arabic):
      return bijective(index, symbols: MarkerAlphabet.arabicLetters) + "."
    case (_, .arabic):
      return "(" + bijective(index, symbols: MarkerAlphabet.arabicLetters) + ")."
    }
  }

  private static let latinUpper: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
  private static let latinLower: [Character] = Array("abcdefghijklmnopqrstuvwxyz")

  /// Bijective base-n numeration: 0 → first symbol, n → two first symbols, like spreadsheet columns.
  static func bijective(_ index: Int, symbols: [Character]) -> String {
    let base = symbols.count
    var n = index + 1
    var result: [Character] = []
    while n > 0 {
      n -= 1
      result.append(symbols[n % base])
      n /= base
    }
    return String(result.reversed())
  }
}

/// BCP 47 language tags, as far as this tool needs them.
public enum LocaleTag {
  /// Whether `tag` looks like a language tag: a 2–3 letter language, then subtags of 1–8
  /// letters or digits separated by `-` or `_` (`en`, `fr-FR`, `ar-MA`, `zh_Hant_TW`).
  public static func isValid(_ tag: String) -> Bool {
    let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
      .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
    guard let language = parts.first, (2...3).contains(language.count),
      language.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return false }
    return parts.dropFirst().allSatisfy { part in
      (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  }
}
