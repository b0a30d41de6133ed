extension OUDSBulletList {
  /// Whose rules to draw with where the iOS and Android components differ (SPEC §2, §3, §6).
  ///
  /// Everything else (tokens, sizes, colours, shapes, inheritance) is the same on both. The
  /// differences, and only those:
  ///
  /// | rule | `ios` | `android` |
  /// |---|---|---|
  /// | bullet asset level | nesting depth | depth − Ordered ancestors, at most 2 |
  /// | Arabic letters in ordered prefixes | Arabic locale | right-to-left direction |
  /// | rich text in bold text | refused | drawn; links underlined, link colour |
  /// | extra leading of a line | split equally | in proportion to ascent : descent |
  /// | marker taller than the first line | label at the top | label centred on the row |
  public enum Platform: String, Hashable, Sendable, CaseIterable {
    /// The iOS `OUDSBulletList` (the default).
    case ios
    /// The Android `OudsBulletList` (Jetpack Compose).
    case android

    /// The name shown to people: `iOS`, `Android`.
    public var displayName: String {
      switch self {
      case .ios: "iOS"
      case .android: "Android"
      }
    }

    /// The platform named `name` (`ios`, `android`), or nil.
    public init?(name: String) {
      self.init(rawValue: name)
    }
  }
}

extension ResolvedRow {
  /// Which of the theme's three bullet shapes (level 0, 1 or 2) an unordered row draws (SPEC §2).
  ///
  /// iOS uses the nesting depth. Android subtracts the number of ancestors that belong to an
  /// ordered list and uses level 2 for anything above: an unordered list nested under two ordered
  /// levels shows the level-0 bullet.
  public func bulletAssetLevel(platform: OUDSBulletList.Platform) -> Int {
    switch platform {
    case .ios: level
    case .android: min(2, max(0, level - ancestors.filter(\.isInOrderedList).count))
    }
  }
}

extension MarkerAlphabet {
  /// The alphabet of ordered prefixes for a platform (SPEC §3).
  ///
  /// iOS switches to Arabic letters when the locale's language is Arabic, whatever the direction;
  /// Android when the layout direction is right-to-left, whatever the language.
  public static func forPlatform(
    _ platform: OUDSBulletList.Platform, locale: String?, isRightToLeft: Bool
  ) -> MarkerAlphabet {
    switch platform {
    case .ios: forLocale(locale)
    case .android: isRightToLeft ? .arabic : .latin
    }
  }
}
