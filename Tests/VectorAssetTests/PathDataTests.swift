import Foundation
import Primitives
import Testing

@testable import VectorAsset

@Suite("SVG path data")
struct PathDataTests {
  typealias P = VectorPath.Point

  private func parse(_ text: String) throws -> [VectorPath.Command] {
    do {
      return try PathData.parse(text)
    } catch {
      throw Failure("\(error.message) at \(error.position)")
    }
  }

  private func error(_ text: String) -> String? {
    do {
      _ = try PathData.parse(text)
      return nil
    } catch {
      return "\(error.message) (character \(error.position))"
    }
  }

  private func close(_ a: P, _ b: P, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
  }

  @Test("absolute and relative lines, H and V, implicit lines after a move")
  func lines() throws {
    #expect(
      try parse("M1 2 3 4l1,1H10v-2h1V0z")
        == [
          .move(to: P(x: 1, y: 2)), .line(to: P(x: 3, y: 4)), .line(to: P(x: 4, y: 5)),
          .line(to: P(x: 10, y: 5)),
          .line(to: P(x: 10, y: 3)), .line(to: P(x: 11, y: 3)), .line(to: P(x: 11, y: 0)), .close,
        ])
    // m: later pairs are relative lines.
    #expect(
      try parse("m1 1 2 0 0 2") == [
        .move(to: P(x: 1, y: 1)), .line(to: P(x: 3, y: 1)), .line(to: P(x: 3, y: 3)),
      ])
  }

  @Test("numbers written without separators: signs, leading dots, exponents")
  func compactNumbers() throws {
    #expect(
      try parse("M.5.5L-1-2e1l1e-1,+2") == [
        .move(to: P(x: 0.5, y: 0.5)), .line(to: P(x: -1, y: -20)), .line(to: P(x: -0.9, y: -18)),
      ])
  }

  @Test("after Z a drawing command starts a new contour at the closed contour's start")
  func afterClose() throws {
    #expect(
      try parse("M1 1L2 1L2 2ZL0 5") == [
        .move(to: P(x: 1, y: 1)), .line(to: P(x: 2, y: 1)), .line(to: P(x: 2, y: 2)), .close,
        .move(to: P(x: 1, y: 1)), .line(to: P(x: 0, y: 5)),
      ])
  }

  @Test("S reflects the previous control point, and uses the current point after a line")
  func smoothCubic() throws {
    let commands = try parse("M0 0C1 1 2 1 3 0S5 -1 6 0L7 0s1 1 2 0")
    #expect(
      commands[2] == .curve(to: P(x: 6, y: 0), control1: P(x: 4, y: -1), control2: P(x: 5, y: -1)))
    #expect(
      commands[4] == .curve(to: P(x: 9, y: 0), control1: P(x: 7, y: 0), control2: P(x: 8, y: 1)))
  }

  @Test("Q and T become the cubics that draw the same curve")
  func quadratic() throws {
    let commands = try parse("M0 0Q3 3 6 0T12 0")
    #expect(
      commands[1] == .curve(to: P(x: 6, y: 0), control1: P(x: 2, y: 2), control2: P(x: 4, y: 2)))
    // T reflects (3, 3) about (6, 0): (9, -3).
    #expect(
      commands[2] == .curve(to: P(x: 12, y: 0), control1: P(x: 8, y: -2), control2: P(x: 10, y: -2))
    )
  }

  @Test("a half circle arc becomes two quarter cubics on the circle, ending at the end point")
  func arc() throws {
    // Sweep 1 from (14, 12) to (10, 12) around (12, 12): through (12, 14), below the centre (y down).
    let commands = try parse("M14 12A2 2 0 0 1 10 12")
    #expect(commands.count == 3)
    let k = 4.0 / 3.0 * tan(Double.pi / 8) * 2
    guard case .curve(let mid, let c1, let c2) = commands[1],
      case .curve(let end, let c3, let c4) = commands[2]
    else {
      Issue.record("expected two curves, got \(commands)")
      return
    }
    #expect(close(mid, P(x: 12, y: 14)))
    #expect(close(c1, P(x: 14, y: 12 + k)) && close(c2, P(x: 12 + k, y: 14)))
    #expect(close(c3, P(x: 12 - k, y: 14)) && close(c4, P(x: 10, y: 12 + k)))
    #expect(end == P(x: 10, y: 12))
    // Sweep 0 goes the other way round, through (12, 10).
    guard case .curve(let other, _, _) = try parse("M14 12A2 2 0 0 0 10 12")[1] else {
      Issue.record("expected a curve")
      return
    }
    #expect(close(other, P(x: 12, y: 10)))
  }

  @Test("arc flags may touch the next number; radii too small are scaled up; zero radius is a line")
  func arcEdgeCases() throws {
    // "a1 1 0 014 0": flags 0 and 1, then 4 0. The radius 1 is scaled to 2 (a half circle);
    // sweep 1 from the left end goes clockwise on screen, so up, through (2, -2).
    let compact = try parse("M0 0a1 1 0 014 0")
    #expect(compact.count == 3)
    guard case .curve(let mid, _, _) = compact[1] else {
      Issue.record("expected a curve")
      return
    }
    #expect(close(mid, P(x: 2, y: -2)))
    #expect(
      try parse("M0 0A0 1 0 0 1 4 0") == [.move(to: P(x: 0, y: 0)), .line(to: P(x: 4, y: 0))])
    #expect(try parse("M1 1A3 3 0 0 1 1 1") == [.move(to: P(x: 1, y: 1))])
  }

  @Test("a large arc takes the long way round: three quarter-pieces for 270°")
  func largeArc() throws {
    let commands = try parse("M14 12A2 2 0 1 1 12 10")
    #expect(commands.count == 4)
    guard case .curve(let a, _, _) = commands[1], case .curve(let b, _, _) = commands[2] else {
      Issue.record("expected curves")
      return
    }
    #expect(close(a, P(x: 12, y: 14)) && close(b, P(x: 10, y: 12)))
  }

  @Test("syntax errors refuse the whole path, with the character position")
  func errors() {
    #expect(error("") == "the path data is empty (character 1)")
    #expect(error("L1 1") == "path data must start with M or m, found 'L' (character 1)")
    #expect(error("10 10") == "path data must start with M or m, found '1' (character 1)")
    #expect(error("M1 1L2") == "expected a number, found the end (character 7)")
    #expect(error("M1 1 X") == "expected a command letter, found 'X' (character 6)")
    #expect(error("M1 1Z 3 3") == "expected a command letter, found '3' (character 7)")
    #expect(error("M0 0A1 1 0 2 1 3 3") == "expected an arc flag 0 or 1, found '2' (character 12)")
    #expect(error("M1e9 0") == "number 1e9 is out of range (at most ±1000000) (character 2)")
    #expect(error("M1e999 0") == "number 1e999 is out of range (at most ±1000000) (character 2)")
    // Relative steps each within the limit cannot carry the outline past it.
    #expect(
      error("M0 0l0 600000l0 600000")
        == "the point (0.0, 1200000.0) is out of range (at most ±1000000) (character 15)")
    #expect(error("M999999 0h2")?.hasPrefix("the point (1000001.0, 0.0) is out of range") == true)
  }

  @Test("a path may have at most 100 000 segments")
  func segmentLimit() {
    let text = "M0 0" + String(repeating: "h1", count: PathData.maximumSegments)
    #expect(error(text) == "more than 100000 path segments (character \(text.utf8.count + 1))")
  }
}

struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
