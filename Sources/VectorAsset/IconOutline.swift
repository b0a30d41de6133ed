import Primitives

extension VectorAssetReader {
  /// The outline of an SVG icon when drawing its filled paths gives exactly what librsvg draws of
  /// it, else nil (the icon is then drawn by librsvg).
  ///
  /// The icon must be inside the subset of ``outline(of:format:)`` (one `<svg>` with a view box
  /// and `<path>` children, fills only, no references, no text), and on top of it:
  /// - every fill colour opaque and read alike by both: `#rgb`, `#rrggbb`, `#rgba`/`#rrggbbaa`
  ///   with full alpha, `currentColor`, `none`, and `black`, `white`, `red`, `green`, `blue`,
  ///   `gray`, `grey`, each spelt so (an icon is drawn as its alpha: a translucent fill would be
  ///   fainter in librsvg's drawing, and a value it could not read would leave the fill
  ///   inherited);
  /// - no elliptical arc in the path data (`A`/`a`): librsvg cuts arcs into curves its own way;
  /// - `width` and `height`, when given, plain numbers (or `px`) in the view box's proportions:
  ///   librsvg fits the document's own size into the icon's box, then the view box into that
  ///   size; in the same proportions both come to fitting the view box into the box.
  /// - a square view box at the origin, 1 to 4096 units a side, written as four plain decimal
  ///   numbers; no XML declaration or processing instruction, no U+FFFE or U+FFFF, at most
  ///   ``maximumIconBytes``.
  /// Icon boxes that are not square go to librsvg too (``Graphics`` checks). A test draws
  /// icons both ways and compares the pixels.
  public static func iconOutline(of bytes: [UInt8]) -> VectorOutline? {
    // Small, plain documents only: no XML declaration or processing instruction (libxml2 is
    // stricter about them than the subset's reader), no literal U+FFFE or U+FFFF (which it
    // refuses), and a size no icon needs, so that the reader's time and memory stay small.
    guard bytes.count <= maximumIconBytes, !bytes.contains(UInt8(ascii: "?")),
      !containsNoncharacter(bytes),
      let root = try? StrictXML.parse(bytes), let outline = try? svg(root, nearItsBox: false)
    else { return nil }
    // A square view box at the origin, of a sensible size, written as plain numbers: librsvg
    // refuses some forms the reader takes (`0,,0,24,24`, `24.`, hexadecimal), draws nothing of
    // a tiny one, and its transform differs by an ulp from ours at a far origin or when the
    // box is letterboxed (edge pixels one or a few values apart).
    guard let viewBox = root.attributes.first(where: { $0.name == "viewBox" }),
      plainViewBox(viewBox.value),
      outline.viewBox.x == 0, outline.viewBox.y == 0,
      outline.viewBox.width == outline.viewBox.height,
      (1...4096).contains(outline.viewBox.width)
    else { return nil }
    var width: Double?
    var height: Double?
    for attribute in root.attributes {
      switch attribute.name {
      case "width":
        guard let value = pixels(attribute.value) else { return nil }
        width = value
      case "height":
        guard let value = pixels(attribute.value) else { return nil }
        height = value
      case "fill":
        if !opaquePaint(attribute.value) { return nil }
      default: break
      }
    }
    if width != nil || height != nil {
      guard let width, let height, width > 0, height > 0 else { return nil }
      let box = outline.viewBox
      guard abs(width * box.height - height * box.width) <= 1e-9 * width * box.height else {
        return nil
      }
    }
    for element in root.children {
      for attribute in element.attributes {
        switch attribute.name {
        case "d":
          if attribute.value.utf8.contains(where: {
            $0 == UInt8(ascii: "a") || $0 == UInt8(ascii: "A")
          }) {
            return nil
          }
        case "fill":
          if !opaquePaint(attribute.value) { return nil }
        default: break
        }
      }
    }
    return outline
  }

  /// The largest icon file drawn from its outline (larger ones go to librsvg): 64 KiB.
  public static let maximumIconBytes = 64 * 1024

  /// Whether the UTF-8 bytes hold U+FFFE or U+FFFF.
  private static func containsNoncharacter(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 3 else { return false }
    for index in 0..<(bytes.count - 2)
    where bytes[index] == 0xEF && bytes[index + 1] == 0xBF
      && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF)
    {
      return true
    }
    return false
  }

  /// Four plain decimal numbers (digits, at most one point with digits on both sides, an
  /// optional leading minus) separated by single spaces.
  private static func plainViewBox(_ value: String) -> Bool {
    let parts = value.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return false }
    return parts.allSatisfy { part in
      let digits = part.hasPrefix("-") ? part.dropFirst() : part[...]
      let pieces = digits.split(separator: ".", omittingEmptySubsequences: false)
      return (1...2).contains(pieces.count)
        && pieces.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
    }
  }

  /// A length in user units: a plain number or one in `px`; nil for anything else.
  private static func pixels(_ value: String) -> Double? {
    var text = value.trimmed
    if text.hasSuffix("px") { text.removeLast(2) }
    guard let number = Double(text), number.isFinite else { return nil }
    return number
  }

  /// Whether a fill value the subset accepts paints fully opaque (or not at all: `none`), read
  /// the same way by the subset's reader and by librsvg. Keywords must be spelt exactly so: CSS
  /// reads `NONE` as `none`, the subset's reader as a colour; and `inherit` is refused, which
  /// the reader takes for a colour where librsvg takes the parent's fill (perhaps `none`).
  private static func opaquePaint(_ value: String) -> Bool {
    let text = value.trimmed
    if text == "none" || text == "currentColor" { return true }
    if text.hasPrefix("#") {
      // ASCII only: Swift's isHexDigit also takes full-width digits, which librsvg does not
      guard text.utf8.dropFirst().allSatisfy({ $0 < 0x80 }) else { return false }
      let digits = Array(text.dropFirst().lowercased())
      switch digits.count {
      case 3, 6: return true
      case 4: return digits[3] == "f"
      case 8: return digits[6] == "f" && digits[7] == "f"
      default: return false
      }
    }
    // a word librsvg might not know would leave the fill inherited: only these few
    return ["black", "white", "red", "green", "blue", "gray", "grey"].contains(text)
  }

}
