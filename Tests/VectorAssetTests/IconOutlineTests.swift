import Primitives
import Testing

@testable import VectorAsset

/// Which SVG icons are filled from their outline (the same pixels as librsvg's) and which are
/// left to librsvg.
@Suite("Icon outlines")
struct IconOutlineTests {
  private static let square = "M4 4 H20 V20 H4 Z"

  private func icon(root: String = "viewBox=\"0 0 24 24\"", _ body: String) -> [UInt8] {
    Array("<svg xmlns=\"http://www.w3.org/2000/svg\" \(root)>\(body)</svg>".utf8)
  }

  @Test(
    "opaque fills, both fill rules, every command but arcs, sizes in the view box's proportions")
  func accepted() {
    let cases: [(String, [UInt8])] = [
      ("plain", icon("<path d=\"\(Self.square)\"/>")),
      (
        "hex",
        icon("<path fill=\"#000\" d=\"\(Self.square)\"/><path fill=\"#1A2B3C\" d=\"M1 1 L2 2 Z\"/>")
      ),
      (
        "opaque alpha",
        icon(
          "<path fill=\"#000F\" d=\"\(Self.square)\"/><path fill=\"#000000ff\" d=\"M1 1 L2 2 Z\"/>")
      ),
      (
        "keywords",
        icon(
          "<path fill=\"black\" d=\"\(Self.square)\"/><path fill=\"currentColor\" d=\"M1 1 L2 2 Z\"/>"
        )
      ),
      ("none", icon("<path fill=\"none\" d=\"M0 0 H1 V1 Z\"/><path d=\"\(Self.square)\"/>")),
      (
        "evenodd",
        icon(
          root: "viewBox=\"0 0 24 24\" fill-rule=\"evenodd\"",
          "<path d=\"\(Self.square) M8 8 H16 V16 H8 Z\"/>")
      ),
      ("curves", icon("<path d=\"M2 10 Q 8 0 14 10 T 24 10 S 20 18 14 18 C 10 18 4 16 2 10 Z\"/>")),
      (
        "same proportions",
        icon(
          root: "width=\"48\" height=\"48px\" viewBox=\"0 0 24 24\"", "<path d=\"\(Self.square)\"/>"
        )
      ),
    ]
    for (name, bytes) in cases {
      let outline = VectorAssetReader.iconOutline(of: bytes)
      #expect(outline != nil, "\(name)")
      #expect(outline == (try? VectorAssetReader.outline(of: bytes, format: .svg)), "\(name)")
    }
  }

  @Test(
    "translucent or unreadable fills, arcs, other proportions or units, and the subset's refusals go to librsvg"
  )
  func leftToLibrsvg() {
    let cases: [(String, [UInt8])] = [
      ("half alpha hex", icon("<path fill=\"#00000080\" d=\"\(Self.square)\"/>")),
      ("short alpha", icon("<path fill=\"#0008\" d=\"\(Self.square)\"/>")),
      ("rgba", icon("<path fill=\"rgba(0,0,0,0.5)\" d=\"\(Self.square)\"/>")),
      ("rgb", icon("<path fill=\"rgb(0,0,0)\" d=\"\(Self.square)\"/>")),
      ("transparent", icon("<path fill=\"transparent\" d=\"\(Self.square)\"/>")),
      ("unknown keyword", icon("<path fill=\"midnightblue\" d=\"\(Self.square)\"/>")),
      (
        "root alpha",
        icon(root: "viewBox=\"0 0 24 24\" fill=\"#00000080\"", "<path d=\"\(Self.square)\"/>")
      ),
      ("NONE", icon("<path fill=\"NONE\" d=\"M0 0 H1 V1 Z\"/><path d=\"\(Self.square)\"/>")),
      ("None", icon("<path fill=\"None\" d=\"M0 0 H1 V1 Z\"/><path d=\"\(Self.square)\"/>")),
      ("Black", icon("<path fill=\"Black\" d=\"\(Self.square)\"/>")),
      ("currentcolor", icon("<path fill=\"currentcolor\" d=\"\(Self.square)\"/>")),
      (
        "inherit from none",
        icon(
          root: "viewBox=\"0 0 24 24\" fill=\"none\"",
          "<path fill=\"inherit\" d=\"\(Self.square)\"/>")
      ),
      ("arc", icon("<path d=\"M4 12 A 8 8 0 0 1 20 12 Z\"/>")),
      ("origin", icon(root: "viewBox=\"2 0 24 24\"", "<path d=\"\(Self.square)\"/>")),
      ("not square", icon(root: "viewBox=\"0 0 24 16\"", "<path d=\"\(Self.square)\"/>")),
      ("tiny", icon(root: "viewBox=\"0 0 0.002 0.002\"", "<path d=\"M0 0 L0.002 0.001 Z\"/>")),
      ("commas", icon(root: "viewBox=\"0,0,24,24\"", "<path d=\"\(Self.square)\"/>")),
      ("trailing point", icon(root: "viewBox=\"0 0 24. 24.\"", "<path d=\"\(Self.square)\"/>")),
      ("hexadecimal", icon(root: "viewBox=\"0 0 0x18 0x18\"", "<path d=\"\(Self.square)\"/>")),
      ("full-width hex", icon("<path fill=\"#\u{FF26}\u{FF26}\u{FF26}\" d=\"\(Self.square)\"/>")),
      ("declaration", Array("<?xml version=\"1.0\"?>".utf8) + icon("<path d=\"\(Self.square)\"/>")),
      ("noncharacter", icon("<!-- \u{FFFE} --><path d=\"\(Self.square)\"/>")),
      (
        "over 64 KiB", icon("<path d=\"M0 0" + String(repeating: " L1 1", count: 14_000) + " Z\"/>")
      ),
      ("relative arc", icon("<path d=\"M4 12 a 8 8 0 0 1 16 0 Z\"/>")),
      (
        "other proportions",
        icon(
          root: "width=\"48\" height=\"24\" viewBox=\"0 0 24 24\"", "<path d=\"\(Self.square)\"/>")
      ),
      (
        "width alone",
        icon(root: "width=\"24\" viewBox=\"0 0 24 24\"", "<path d=\"\(Self.square)\"/>")
      ),
      (
        "units",
        icon(
          root: "width=\"2em\" height=\"2em\" viewBox=\"0 0 24 24\"", "<path d=\"\(Self.square)\"/>"
        )
      ),
      (
        "percent",
        icon(
          root: "width=\"100%\" height=\"100%\" viewBox=\"0 0 24 24\"",
          "<path d=\"\(Self.square)\"/>")
      ),
      ("stroke", icon("<path stroke=\"#000\" d=\"\(Self.square)\"/>")),
      ("group", icon("<g><path d=\"\(Self.square)\"/></g>")),
      ("no view box", icon(root: "width=\"24\" height=\"24\"", "<path d=\"\(Self.square)\"/>")),
      ("opacity", icon("<path opacity=\"0.5\" d=\"\(Self.square)\"/>")),
      (
        "doctype",
        Array(
          "<!DOCTYPE svg><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\"><path d=\"\(Self.square)\"/></svg>"
            .utf8)
      ),
      ("not xml", Array("\u{0}\u{1}garbage".utf8)),
      ("empty", []),
    ]
    for (name, bytes) in cases {
      #expect(VectorAssetReader.iconOutline(of: bytes) == nil, "\(name)")
    }
  }
}
