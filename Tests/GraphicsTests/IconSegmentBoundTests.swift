import Foundation
import Testing

@testable import Graphics

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
        == "a path of 5002 segments (at most 4096 a path, 100000 an icon)")
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
        == "paths of 120030 segments in all (at most 4096 a path, 100000 an icon)")
  }
}
