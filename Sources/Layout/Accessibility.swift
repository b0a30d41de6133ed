import BulletList
import Primitives

/// The screen reader whose words ``AccessibilityText`` builds: each platform's own.
public enum ScreenReader: String, Sendable, CaseIterable {
  /// iOS VoiceOver.
  case voiceOver = "VoiceOver"
  /// Android TalkBack.
  case talkBack = "TalkBack"

  /// The reader of `platform`: VoiceOver for iOS, TalkBack for Android.
  public init(platform: Platform) {
    self = platform == .ios ? .voiceOver : .talkBack
  }
}

/// Builds what a screen reader says for a row, the way each platform's component builds it
/// (SPEC §8). Parts are joined by ", ".
///
/// **VoiceOver** (iOS): the ordered prefix chain ("1.A.a.", ordered lists only; as on iOS each
/// ancestor's position is in the chain whatever its own list's type), the text, "level N"
/// (unordered and bare lists, only when the item is nested or has children), and "N sub-items"
/// when it has children.
///
/// **TalkBack** (Android): for ordered lists the prefixes of the ordered ancestors, then the
/// item's own, without their trailing "." ("2, B, label"); for unordered and bare lists the text
/// and "Level N", always. Then "N subitems" when the item has children. Two apparent bugs of the
/// Android component are not copied (SPEC §8): its ancestor prefixes use the child's index, and
/// a rich-text item's description reads "null"; here the ancestors' own positions and the
/// label's plain text are spoken.
///
/// English, with French and Arabic for those locales.
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
  /// Whose words: VoiceOver's or TalkBack's.
  public var reader: ScreenReader

  /// Creates a builder.
  public init(language: Language, alphabet: MarkerAlphabet, reader: ScreenReader = .voiceOver) {
    self.language = language
    self.alphabet = alphabet
    self.reader = reader
  }

  /// The spoken label of `row`.
  public func label(for row: ResolvedRow) -> String {
    reader == .voiceOver ? voiceOverLabel(for: row) : talkBackLabel(for: row)
  }

  /// TalkBack's content description of `row` (SPEC §8, Android).
  func talkBackLabel(for row: ResolvedRow) -> String {
    var parts: [String] = []
    switch row.listType {
    case .ordered:
      for ancestor in row.ancestors where ancestor.isInOrderedList {
        parts.append(spokenPrefix(level: ancestor.level, index: ancestor.index))
      }
      parts.append(spokenPrefix(level: row.level, index: row.index))
      parts.append(row.label.plainText)
    case .unordered, .bare:
      parts.append(row.label.plainText)
      parts.append(levelText(row.level + 1))
    }
    if row.subItemCount > 0 {
      parts.append(subItemsText(row.subItemCount))
    }
    return parts.joined(separator: ", ")
  }

  /// An ordered prefix as TalkBack says it: the marker without its trailing ".".
  func spokenPrefix(level: Int, index: Int) -> String {
    let prefix = OrderedMarker.prefix(level: level, index: index, alphabet: alphabet)
    return prefix.hasSuffix(".") ? String(prefix.dropLast()) : prefix
  }

  /// VoiceOver's label of `row` (SPEC §8, iOS).
  func voiceOverLabel(for row: ResolvedRow) -> String {
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

  /// "level N" (VoiceOver) or "Level N" (TalkBack's own capital), in the language.
  func levelText(_ level: Int) -> String {
    switch (language, reader) {
    case (.english, .voiceOver): "level \(level)"
    case (.english, .talkBack): "Level \(level)"
    case (.french, .voiceOver): "niveau \(level)"
    case (.french, .talkBack): "Niveau \(level)"
    case (.arabic, _): "المستوى \(level)"
    }
  }

  /// "N sub-items" (VoiceOver) or "N subitems" (TalkBack), with the language's plural forms
  /// (Arabic's: one, two, few for 3–10, many for 11–99, other).
  func subItemsText(_ count: Int) -> String {
    switch language {
    case .english:
      let noun = reader == .voiceOver ? "sub-item" : "subitem"
      return count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    case .french: return count == 1 ? "1 sous-élément" : "\(count) sous-éléments"
    case .arabic:
      switch (count, count % 100) {
      case (1, _): return "عنصر فرعي واحد"
      case (2, _): return "عنصران فرعيان"
      case (_, 3...10): return "\(count) عناصر فرعية"
      case (_, 11...99): return "\(count) عنصرًا فرعيًا"
      default: return "\(count) عنصر فرعي"
      }
    }
  }
}
