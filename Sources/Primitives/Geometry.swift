/// A point in points (1 pt = 1 px at scale 1), y pointing down: a place on a scene's canvas, or
/// in a vector outline's own view box.
public struct Point: Codable, Hashable, Sendable {
  /// Horizontal position.
  public var x: Double
  /// Vertical position (down).
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  enum CodingKeys: String, CodingKey { case x, y }

  /// Encodes the point with 2 decimals (see ``Swift/Double/roundedToHundredths``).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(x.roundedToHundredths, forKey: .x)
    try c.encode(y.roundedToHundredths, forKey: .y)
  }
}

/// An axis-aligned rectangle in points, with its origin at the top-left corner.
public struct Rect: Codable, Hashable, Sendable {
  /// Left edge.
  public var x: Double
  /// Top edge.
  public var y: Double
  /// Width, never negative.
  public var width: Double
  /// Height, never negative.
  public var height: Double

  /// Creates a rectangle.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The right edge (`x + width`).
  public var maxX: Double { x + width }
  /// The bottom edge (`y + height`).
  public var maxY: Double { y + height }
  /// The horizontal centre.
  public var midX: Double { x + width / 2 }
  /// The vertical centre.
  public var midY: Double { y + height / 2 }

  /// The same rectangle reflected across the vertical axis of a canvas `canvasWidth` wide.
  public func mirrored(inCanvasWidth canvasWidth: Double) -> Rect {
    Rect(x: canvasWidth - x - width, y: y, width: width, height: height)
  }

  /// The smallest rectangle that holds both this one and `other`.
  public func union(_ other: Rect) -> Rect {
    let minX = min(x, other.x)
    let minY = min(y, other.y)
    return Rect(
      x: minX, y: minY, width: max(maxX, other.maxX) - minX,
      height: max(maxY, other.maxY) - minY)
  }

  /// The same rectangle moved by (`dx`, `dy`).
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width, height: height)
  }

  enum CodingKeys: String, CodingKey { case x, y, width, height }

  /// Encodes the rectangle with 2 decimals (see ``Swift/Double/roundedToHundredths``).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(x.roundedToHundredths, forKey: .x)
    try c.encode(y.roundedToHundredths, forKey: .y)
    try c.encode(width.roundedToHundredths, forKey: .width)
    try c.encode(height.roundedToHundredths, forKey: .height)
  }
}

extension Double {
  /// The value rounded to 2 decimals, as printed in the layout JSON (never `-0`).
  public var roundedToHundredths: Double {
    let r = (self * 100).rounded() / 100
    return r == 0 ? 0 : r  // no "-0"
  }
}

/// The writing direction of a list: it decides which edge is the start edge.
public enum LayoutDirection: String, Codable, Sendable, CaseIterable, NamedValue {
  /// Left to right: the start edge is the left edge.
  case ltr
  /// Right to left: the start edge is the right edge.
  case rtl

  /// `direction`, in messages about an unknown name.
  public static let kindName = "direction"
}
