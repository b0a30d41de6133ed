/// One item of a validated list, with everything it inherits made explicit.
public struct ResolvedRow: Hashable, Sendable {
  /// Where the item is, e.g. `items[1].items[0]`.
  public var path: String
  /// Nesting depth: 0, 1 or 2.
  public var level: Int
  /// Position among its siblings, from 0.
  public var index: Int
  /// The type of the list this item belongs to.
  public var listType: OUDSBulletList.ListType
  /// The text style of the list this item belongs to.
  public var textStyle: OUDSBulletList.TextStyle
  /// Whether the item's label is bold.
  public var isBold: Bool
  /// The label.
  public var label: OUDSBulletList.Label
  /// Number of direct sub-items.
  public var subItemCount: Int
  /// For each ancestor, outermost first: its level and index among its siblings.
  public var ancestors: [Ancestor]

  /// The position of an ancestor item, used for accessibility prefixes ("1.A.a.").
  ///
  /// As on iOS, an ancestor's prefix is part of the chain whatever its list's type (SPEC §3).
  public struct Ancestor: Hashable, Sendable {
    /// The ancestor's level.
    public var level: Int
    /// The ancestor's index among its siblings.
    public var index: Int
  }
}

extension OUDSBulletList {
  /// The deepest nesting allowed by design: levels 0, 1 and 2.
  public static let maximumLevelCount = 3

  /// Validates the list and flattens it depth first, applying sub-list inheritance (SPEC §2).
  ///
  /// - Throws: `BulletListError` when an item sits at a fourth level (naming its path), when
  ///   the list is empty, or when a rich label is used in bold text.
  public func resolvedRows() throws(BulletListError) -> [ResolvedRow] {
    guard !items.isEmpty else {
      throw BulletListError(path: "items", message: "a list needs at least one item")
    }
    var rows: [ResolvedRow] = []
    try Self.resolve(
      items, pathPrefix: "", level: 0, type: type, textStyle: textStyle, isBold: isBold,
      ancestors: [], into: &rows)
    return rows
  }

  private static func resolve(
    _ items: [Item], pathPrefix: String, level: Int, type: `Type`, textStyle: TextStyle,
    isBold: Bool, ancestors: [ResolvedRow.Ancestor], into rows: inout [ResolvedRow]
  ) throws(BulletListError) {
    for (index, item) in items.enumerated() {
      let path = pathPrefix + "items[\(index)]"
      guard level < maximumLevelCount else {
        throw BulletListError(
          path: path,
          message: "a fourth nesting level is forbidden by design (at most 3 levels: 0, 1, 2)")
      }
      if case .rich(let rich) = item.label, isBold, rich.runs.count > 0 {
        throw BulletListError(
          path: path,
          message: "rich text is allowed only when the text is not bold (set isBold or subListHasBoldText to false)")
      }
      rows.append(
        ResolvedRow(
          path: path, level: level, index: index, listType: type, textStyle: textStyle,
          isBold: isBold, label: item.label, subItemCount: item.subItems.count,
          ancestors: ancestors))
      if !item.subItems.isEmpty {
        try resolve(
          item.subItems, pathPrefix: path + ".", level: level + 1,
          type: item.subListType ?? type,
          textStyle: item.subListTextStyle ?? textStyle,
          isBold: item.subListHasBoldText ?? isBold,
          ancestors: ancestors + [ResolvedRow.Ancestor(level: level, index: index)],
          into: &rows)
      }
    }
  }
}
