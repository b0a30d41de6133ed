import Primitives

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
    /// Whether the ancestor belongs to an ordered list (Android picks bullet shapes by it).
    public var isInOrderedList: Bool

    /// Creates an ancestor.
    public init(level: Int, index: Int, isInOrderedList: Bool = false) {
      self.level = level
      self.index = index
      self.isInOrderedList = isInOrderedList
    }
  }
}

extension OUDSBulletList {
  /// The deepest nesting allowed by design: levels 0, 1 and 2.
  public static let maximumLevelCount = 3

  /// The message of the error an item at a fourth level gets (its path names the item).
  public static let fourthLevelMessage =
    "a fourth nesting level is forbidden by design (at most 3 levels: 0, 1, 2)"

  /// The message of the error a rich label in bold text gets with the iOS rules.
  public static let richTextInBoldMessage =
    "rich text is allowed only when the text is not bold (set isBold or subListHasBoldText to false)"

  /// Validates the list and flattens it depth first, applying sub-list inheritance (SPEC §2).
  ///
  /// - Parameter platform: with `.ios` (the default) a rich label in bold text is refused, as
  ///   the iOS component drops its styling; with `.android` it is kept (links stay underlined and
  ///   link-coloured).
  /// - Throws: `BulletListError` when an item sits at a fourth level (naming its path), when
  ///   the list is empty, or (iOS) when a rich label is used in bold text.
  public func resolvedRows(platform: Platform = .ios) throws(BulletListError) -> [ResolvedRow] {
    guard !items.isEmpty else {
      throw BulletListError(path: "items", message: "a list needs at least one item")
    }
    var rows: [ResolvedRow] = []
    try Self.resolve(
      items, pathPrefix: "", level: 0, type: type, textStyle: textStyle, isBold: isBold,
      ancestors: [], platform: platform, into: &rows)
    return rows
  }

  private static func resolve(
    _ items: [Item], pathPrefix: String, level: Int, type: `Type`, textStyle: TextStyle,
    isBold: Bool, ancestors: [ResolvedRow.Ancestor], platform: Platform,
    into rows: inout [ResolvedRow]
  ) throws(BulletListError) {
    for (index, item) in items.enumerated() {
      let path = pathPrefix + "items[\(index)]"
      guard level < maximumLevelCount else {
        throw BulletListError(
          path: path,
          message: fourthLevelMessage)
      }
      if platform == .ios, case .rich(let rich) = item.label, isBold, rich.runs.count > 0 {
        throw BulletListError(path: path, message: richTextInBoldMessage)
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
          ancestors: ancestors + [
            ResolvedRow.Ancestor(level: level, index: index, isInOrderedList: type == .ordered)
          ],
          platform: platform, into: &rows)
      }
    }
  }
}
