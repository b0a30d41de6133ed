/// A point in the scene's coordinate space, in points (1 pt = 1 px at scale 1).
public struct Point: Codable, Hashable, Sendable {
  /// Horizontal position from the left edge of the canvas.
  public var x: Double
  /// Vertical position from the top edge of the canvas.
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
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
}

/// The writing direction of a list: it decides which edge is the start edge.
public enum LayoutDirection: String, Codable, Sendable, CaseIterable {
  /// Left to right: the start edge is the left edge.
  case ltr
  /// Right to left: the start edge is the right edge.
  case rtl
}

/// An sRGB colour with straight (not premultiplied) alpha, each component in 0...255.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
  /// Red component.
  public var red: UInt8
  /// Green component.
  public var green: UInt8
  /// Blue component.
  public var blue: UInt8
  /// Alpha component; 255 is opaque.
  public var alpha: UInt8

  /// Creates a colour from its components.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Parses `#RRGGBB` or `#RRGGBBAA` (the leading `#` is optional); nil when malformed.
  public init?(hex: String) {
    var digits = Substring(hex)
    if digits.hasPrefix("#") { digits = digits.dropFirst() }
    guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else {
      return nil
    }
    if digits.count == 6 {
      self.init(
        red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF),
        blue: UInt8(value & 0xFF))
    } else {
      self.init(
        red: UInt8((value >> 24) & 0xFF), green: UInt8((value >> 16) & 0xFF),
        blue: UInt8((value >> 8) & 0xFF), alpha: UInt8(value & 0xFF))
    }
  }

  /// `#RRGGBB` when opaque, `#RRGGBBAA` otherwise, in upper case.
  public var hex: String {
    func pair(_ v: UInt8) -> String {
      let s = String(v, radix: 16, uppercase: true)
      return s.count == 1 ? "0" + s : s
    }
    return "#" + pair(red) + pair(green) + pair(blue) + (alpha == 255 ? "" : pair(alpha))
  }

  /// Same as `hex`.
  public var description: String { hex }
}

extension RGBAColor: Codable {
  /// Decodes a colour from its hex string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let string = try container.decode(String.self)
    guard let color = RGBAColor(hex: string) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\(string) is not a #RRGGBB or #RRGGBBAA colour")
    }
    self = color
  }

  /// Encodes the colour as its hex string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(hex)
  }
}
