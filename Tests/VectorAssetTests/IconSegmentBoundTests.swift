import Foundation
import Testing

@testable import VectorAsset

@Suite("An icon's paths have a segment bound")
struct IconSegmentBoundTests {
  /// An icon of one self-crossing path of `count` line segments (and its closing segment).
  private func icon(lines count: Int) -> Data {
    let lines = (0..<count).map { "L\($0 % 23 + 1) \($0 * 7 % 23 + 1)" }.joined()
    return Data(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\"><path d=\"M1 1\(lines)Z\"/></svg>"
        .utf8)
  }

  @Test("a path of 5,000 segments is refused with its count; 4,000 are drawn")
  func longPathRefused() {
    #expect(
      SVGIconPolicy.violation(in: icon(lines: 5_000))
        == "a path of 5002 segments (at most 4096 a path, 100000 an icon); simplify the icon")
    #expect(SVGIconPolicy.violation(in: icon(lines: 4_000)) == nil)
  }

  @Test("segments are counted by command arity, relative commands and points lists too")
  func counting() {
    let text = Array(
      #"<svg><path d="m0 0 1 1 2 2c1 2 3 4 5 6 1 2 3 4 5 6h1 2 3z"/><polygon points="0,0 1,1 2,2"/></svg>"#
        .utf8)
    #expect(SVGIconPolicy.pathSegments(in: text) == (largest: 9, total: 12))
    let many = (0..<30).map { _ in "<path d=\"M1 1\((0..<4_000).map { _ in "L2 2" }.joined())\"/>" }
    let document = Data(("<svg>" + many.joined() + "</svg>").utf8)
    #expect(
      SVGIconPolicy.violation(in: document)
        == "paths of 120030 segments in all (at most 4096 a path, 100000 an icon); simplify the icon"
    )
  }

  @Test(
    "a coordinate beyond ±1,000,000 in path data, points, a transform or a size is refused, quoted"
  )
  func farCoordinates() {
    func svg(_ inner: String, size: String = "") -> Data {
      Data(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\"\(size)>\(inner)</svg>".utf8
      )
    }
    #expect(
      SVGIconPolicy.violation(in: svg(#"<path d="M0 0L1e30 0L0 24z"/>"#))
        == #"a coordinate beyond ±1,000,000 (1e30 0L0 24z"/></svg>), which Cairo's fixed point cannot hold; scale the icon's drawing into its view box"#
    )
    for far in [
      #"<path d="M0 0L24 0z" transform="scale(1e38)"/>"#,
      #"<polygon points="0,0 -1000001,2 3,3"/>"#,
      #"<circle cx="12" cy="12" r="1E+7"/>"#,
      #"<path d="M0 0L24 0z" transform="translate(1e999)"/>"#,
    ] {
      #expect(
        SVGIconPolicy.violation(in: svg(far))?.hasPrefix("a coordinate beyond") == true, "\(far)")
    }
    #expect(
      SVGIconPolicy.violation(in: svg("", size: #" width="1e30" height="1e30""#))?.hasPrefix(
        "a coordinate beyond") == true)
    // Small, signed, exponent and packed numbers within the limit are drawn; ids are not numbers.
    for near in [
      #"<path id="p12345678" d="M0,0L24-1e-30.5.5 1e6 0z"/>"#,
      #"<path d="M-1000000 0L24 24z" transform="scale(.5) translate(-3e2)"/>"#,
    ] {
      #expect(SVGIconPolicy.violation(in: svg(near)) == nil, "\(near)")
    }
  }
}
