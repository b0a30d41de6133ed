import Primitives

extension OUDSBulletList {
  /// Whose rules to draw with where the iOS and Android components differ: the package's
  /// ``Primitives/Platform`` (`.ios`, `.android`), under the component's namespace.
  public typealias Platform = Primitives.Platform
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
