import Primitives

/// A bullet list, with the same API as the iOS `OUDSBulletList` component.
///
/// ```swift
/// let list = OUDSBulletList(type: .ordered) {
///   OUDSBulletList.Item("Label 1") {
///     OUDSBulletList.Item("Label 1.1", subListType: .unordered(asset: .tick))
///   }
///   OUDSBulletList.Item("Label 2")
/// }
/// ```
/// The value is plain data; `resolvedRows()` validates it (at most three levels) and applies the
/// inheritance rules of sub-lists.
public struct OUDSBulletList: Hashable, Sendable {
  /// The kind of marker a list shows in front of its items.
  public enum `Type`: Hashable, Sendable {
    /// Bullets, ticks or a free icon; `isBranded` tints them with the brand colour.
    case unordered(asset: UnorderedAsset = .bullet, isBranded: Bool = true)
    /// Numbers, then letters: "1.", "A.", "a.".
    case ordered
    /// No marker, but the empty marker box is kept so labels line up.
    case bare
  }

  /// Another name of `Type`, usable where `OUDSBulletList.Type` would mean the metatype.
  public typealias ListType = `Type`

  /// What an unordered list draws in its marker box.
  public enum UnorderedAsset: Hashable, Sendable {
    /// The theme's bullet shape for the nesting level.
    case bullet
    /// The theme's check mark.
    case tick
    /// A free icon (SVG or PNG file), tinted like the bullets.
    case icon(Icon)
  }

  /// A free icon image given by file.
  public struct Icon: Hashable, Sendable, ExpressibleByStringLiteral {
    /// Path of the SVG or PNG file (absolute, or relative to the current directory).
    public var file: String
    /// The iOS API's accessibility label of the icon, kept for parity; bullets are decorative
    /// (SPEC §8), so the row's spoken text does not include it.
    public var accessibilityLabel: String?

    /// Creates an icon from a file path.
    public init(file: String, accessibilityLabel: String? = nil) {
      self.file = file
      self.accessibilityLabel = accessibilityLabel
    }

    /// Creates an icon from a file path literal.
    public init(stringLiteral value: String) {
      self.init(file: value)
    }
  }

  /// The two text styles of the component (`.bodyLarge`, `.bodyMedium`): the package's
  /// ``Primitives/TextStyle``, under the iOS name.
  public typealias TextStyle = Primitives.TextStyle

  /// The marker type of the top-level list.
  public var type: `Type`
  /// The text style of the top-level list.
  public var textStyle: TextStyle
  /// Whether the top-level labels are bold.
  public var isBold: Bool
  /// The top-level items.
  public var items: [Item]

  /// Creates a list; the defaults are those of iOS: unbranded bullets, Body Large, bold.
  public init(
    type: `Type` = .unordered(asset: .bullet, isBranded: false),
    textStyle: TextStyle = .bodyLarge,
    isBold: Bool = true,
    @OUDSBulletListItemBuilder items: () -> [Item]
  ) {
    self.type = type
    self.textStyle = textStyle
    self.isBold = isBold
    self.items = items()
  }

  /// Creates a list from an array of items (for readers and generated lists).
  public init(
    type: `Type` = .unordered(asset: .bullet, isBranded: false),
    textStyle: TextStyle = .bodyLarge,
    isBold: Bool = true,
    items: [Item]
  ) {
    self.type = type
    self.textStyle = textStyle
    self.isBold = isBold
    self.items = items
  }
}

extension OUDSBulletList {
  /// One item of a list: a label and an optional sub-list.
  public struct Item: Hashable, Sendable {
    /// The label.
    public var label: Label
    /// The sub-list's type; nil inherits the list's type.
    public var subListType: `Type`?
    /// The sub-list's text style; nil inherits the list's text style.
    public var subListTextStyle: TextStyle?
    /// Whether the sub-list's labels are bold; nil inherits the list's boldness.
    public var subListHasBoldText: Bool?
    /// The sub-list's items.
    public var subItems: [Item]

    /// Creates an item with a plain label, drawn literally whatever characters it holds.
    public init(
      _ text: String,
      subListType: `Type`? = nil,
      subListTextStyle: TextStyle? = nil,
      subListHasBoldText: Bool? = nil,
      @OUDSBulletListItemBuilder subItems: () -> [Item] = { [] }
    ) {
      self.label = .plain(text)
      self.subListType = subListType
      self.subListTextStyle = subListTextStyle
      self.subListHasBoldText = subListHasBoldText
      self.subItems = subItems()
    }

    /// Creates an item with a rich-text label (strong, emphasis, links).
    public init(
      richText: RichText,
      subListType: `Type`? = nil,
      subListTextStyle: TextStyle? = nil,
      subListHasBoldText: Bool? = nil,
      @OUDSBulletListItemBuilder subItems: () -> [Item] = { [] }
    ) {
      self.label = .rich(richText)
      self.subListType = subListType
      self.subListTextStyle = subListTextStyle
      self.subListHasBoldText = subListHasBoldText
      self.subItems = subItems()
    }

    /// Creates an item from its parts (for readers).
    public init(
      label: Label, subListType: `Type`?, subListTextStyle: TextStyle?,
      subListHasBoldText: Bool?, subItems: [Item]
    ) {
      self.label = label
      self.subListType = subListType
      self.subListTextStyle = subListTextStyle
      self.subListHasBoldText = subListHasBoldText
      self.subItems = subItems
    }
  }

  /// The text of an item.
  public enum Label: Hashable, Sendable {
    /// Plain characters.
    case plain(String)
    /// Rich text.
    case rich(RichText)

    /// The characters without styling.
    public var plainText: String {
      switch self {
      case .plain(let text): text
      case .rich(let rich): rich.plainText
      }
    }
  }
}

/// Builds the items of a list or sub-list; supports `if`, `if/else`, `for` and optionals.
@resultBuilder
public enum OUDSBulletListItemBuilder {
  /// Collects the items of a block.
  public static func buildBlock(_ parts: [OUDSBulletList.Item]...) -> [OUDSBulletList.Item] {
    parts.flatMap { $0 }
  }
  /// Wraps one item.
  public static func buildExpression(_ item: OUDSBulletList.Item) -> [OUDSBulletList.Item] {
    [item]
  }
  /// Passes an array of items through.
  public static func buildExpression(_ items: [OUDSBulletList.Item]) -> [OUDSBulletList.Item] {
    items
  }
  /// Supports `if` without `else`.
  public static func buildOptional(_ items: [OUDSBulletList.Item]?) -> [OUDSBulletList.Item] {
    items ?? []
  }
  /// Supports the first branch of `if/else`.
  public static func buildEither(first items: [OUDSBulletList.Item]) -> [OUDSBulletList.Item] {
    items
  }
  /// Supports the second branch of `if/else`.
  public static func buildEither(second items: [OUDSBulletList.Item]) -> [OUDSBulletList.Item] {
    items
  }
  /// Supports `for … in`.
  public static func buildArray(_ parts: [[OUDSBulletList.Item]]) -> [OUDSBulletList.Item] {
    parts.flatMap { $0 }
  }
  /// Supports `if #available`.
  public static func buildLimitedAvailability(_ items: [OUDSBulletList.Item])
    -> [OUDSBulletList.Item]
  {
    items
  }
}

extension OUDSBulletList {
  /// The icon files the list and its sub-lists name (``Icon/file``), each once, in document order.
  public var iconFiles: [String] {
    var files: [String] = []
    func note(_ type: `Type`?) {
      if case .unordered(.icon(let icon), _)? = type, !files.contains(icon.file) {
        files.append(icon.file)
      }
    }
    note(type)
    // Iterative, depth first: a list read from JSON is at most a few levels deep, but a list built
    // in code may be deeper.
    var pending: [Item] = items.reversed()
    while let item = pending.popLast() {
      note(item.subListType)
      pending.append(contentsOf: item.subItems.reversed())
    }
    return files
  }
}
