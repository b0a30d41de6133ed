import BulletList

/// Builds what a screen reader says for a row, the way iOS VoiceOver does (SPEC §8).
///
/// Parts joined by ", ": the ordered prefix chain ("1.A.a.", ordered lists only; as on iOS each
/// ancestor's position is in the chain whatever its own list's type), the text,
/// "level N" (unordered and bare lists, only when the item is nested or has children), and
/// "N sub-items" when it has children. English, with French and Arabic for those locales.
public struct AccessibilityText: Sendable {
  /// The language of the strings.
  public enum Language: String, Sendable {
    /// English.
    case english = "en"
    /// French.
    case french = "fr"
    /// Arabic.
    case arabic = "ar"

    /// The language a locale tag selects; English unless the language is French or Arabic.
    public init(locale: String?) {
      let language = (locale ?? "en").split(whereSeparator: { $0 == "-" || $0 == "_" }).first
        .map { $0.lowercased() }
      switch language {
      case "fr": self = .french
      case "ar": self = .arabic
      default: self = .english
      }
    }
  }

  /// The language of the strings.
  public var language: Language
  /// The alphabet of ordered prefixes.
  public var alphabet: MarkerAlphabet

  /// Creates a builder.
  public init(language: Language, alphabet: MarkerAlphabet) {
    self.language = language
    self.alphabet = alphabet
  }

  /// The spoken label of `row`.
  public func label(for row: ResolvedRow) -> String {
    var parts: [String] = []
    switch row.listType {
    case .ordered:
      let chain = row.ancestors.map {
        OrderedMarker.prefix(level: $0.level, index: $0.index, alphabet: alphabet)
      }.joined()
      parts.append(
        chain + OrderedMarker.prefix(level: row.level, index: row.index, alphabet: alphabet))
      parts.append(row.label.plainText)
    case .unordered, .bare:
      parts.append(row.label.plainText)
      if row.level > 0 || row.subItemCount > 0 {
        parts.append(levelText(row.level + 1))
      }
    }
    if row.subItemCount > 0 {
      parts.append(subItemsText(row.subItemCount))
    }
    return parts.joined(separator: ", ")
  }

  func levelText(_ level: Int) -> String {
    switch language {
    case .english: "level \(level)"
    case .french: "niveau \(level)"
    case .arabic: "المستوى \(level)"
    }
  }

  func subItemsText(_ count: Int) -> String {
    switch language {
    case .english: count == 1 ? "1 sub-item" : "\(count) sub-items"
    case .french: count == 1 ? "1 sous-élément" : "\(count) sous-éléments"
    case .arabic:
      switch count {
      case 1: "عنصر فرعي واحد"
      case 2: "عنصران فرعيان"
      case 3...10: "\(count) عناصر فرعية"
      default: "\(count) عنصرًا فرعيًا"
      }
    }
  }
}
