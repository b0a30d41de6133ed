/// An sRGB colour with straight (not premultiplied) alpha, each component in 0...255.
///
/// The one colour type of the package: tokens resolve to it, scenes carry it, renderers draw it.
/// Its text form is `#RRGGBB` (opaque) or `#RRGGBBAA`, upper case.
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

  /// Parses `#RRGGBB` or `#RRGGBBAA` (hex digits in either case; the leading `#` is optional);
  /// nil when malformed.
  public init?(hex: String) {
    var digits = Substring(hex)
    if digits.hasPrefix("#") { digits = digits.dropFirst() }
    guard digits.utf8.count == 6 || digits.utf8.count == 8, let bytes = Hex.bytes(digits) else {
      return nil
    }
    self.init(
      red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
  }

  /// `#RRGGBB` when opaque, `#RRGGBBAA` otherwise, in upper case.
  public var hex: String {
    "#"
      + Hex.string(alpha == 255 ? [red, green, blue] : [red, green, blue, alpha], uppercase: true)
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

/// Hexadecimal text of bytes, both ways: the one formatter and parser of colours and digests.
public enum Hex {
  /// Two digits per byte, in order (`[0xF1, 0x6E]` → `f16e`, or `F16E` with `uppercase`).
  public static func string(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
    let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
    var out: [UInt8] = []
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of an even number of hex digits (either case, nothing else: no sign, no spaces,
  /// no prefix); nil otherwise.
  public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count / 2)
    var index = 0
    while index < utf8.count {
      guard let high = value(of: utf8[index]), let low = value(of: utf8[index + 1]) else {
        return nil
      }
      out.append(high << 4 | low)
      index += 2
    }
    return out
  }

  private static func value(of digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
