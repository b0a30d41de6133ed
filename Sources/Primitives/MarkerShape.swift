/// A marker shape (a theme's bullet or tick): its name, and the outline read from the theme's
/// asset file.
///
/// In JSON a shape is its name alone (`"orange.square"`: the asset's folder and file name without
/// extension), so the layout JSON does not repeat the path data. A shape decoded from JSON has
/// that name and an empty outline; renderers refuse to draw it.
public struct MarkerShape: Codable, Hashable, Sendable {
  /// The name, such as `orange.square` for `Themes/markers/orange/square.svg`.
  public var name: String
  /// The filled outline in its own view box.
  public var outline: VectorOutline

  /// Creates a shape.
  public init(name: String, outline: VectorOutline) {
    self.name = name
    self.outline = outline
  }

  /// Decodes a shape from its name; the outline is left empty.
  public init(from decoder: any Decoder) throws {
    name = try decoder.singleValueContainer().decode(String.self)
    outline = VectorOutline(viewBox: Rect(x: 0, y: 0, width: 1, height: 1), paths: [])
  }

  /// Encodes the name.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}
