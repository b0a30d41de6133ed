import Scene
import Testing

@Suite("Bullet shape paths")
struct BulletShapePathTests {
  private func expectBounds(
    _ shape: BulletShape, x: ClosedRange<Double>, y: ClosedRange<Double>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let b = shape.path.controlBounds
    let tolerance = 1e-9
    #expect(abs(b.x - x.lowerBound) < tolerance, sourceLocation: sourceLocation)
    #expect(abs(b.maxX - x.upperBound) < tolerance, sourceLocation: sourceLocation)
    #expect(abs(b.y - y.lowerBound) < tolerance, sourceLocation: sourceLocation)
    #expect(abs(b.maxY - y.upperBound) < tolerance, sourceLocation: sourceLocation)
  }

  @Test("Orange shapes have the SPEC §4 geometry")
  func orange() {
    expectBounds(.orangeSquare, x: 7.3...16.7, y: 7.295...16.695)
    expectBounds(.orangeBar, x: 7.3...16.7, y: 10.25...13.75)
    expectBounds(.orangeSmallSquare, x: 9.25...14.75, y: 9.25...14.75)
    expectBounds(.orangeTick, x: 3.75...20.25, y: 5.4...18.6)
    #expect(BulletShape.orangeTick.path.fillRule == .evenOdd)
  }

  @Test("Sosh shapes have the SPEC §4 geometry")
  func sosh() {
    expectBounds(.soshDisc, x: 7.5...16.5, y: 7.5...16.5)
    expectBounds(.soshSmallDisc, x: 9.25...14.75, y: 9.25...14.75)
    // Control points of the round ends reach the pill's edges exactly.
    expectBounds(.soshPill, x: 7.3...16.7, y: 10.25...13.75)
  }

  @Test("Wireframe sparkles fit 6…18; outlined ones are even-odd rings")
  func wireframe() {
    for shape in [
      BulletShape.wireframeSparkle, .wireframeSparkleThickOutline, .wireframeSparkleThinOutline,
    ] {
      expectBounds(shape, x: 6...18, y: 6...18)
    }
    #expect(BulletShape.wireframeSparkleThickOutline.path.fillRule == .evenOdd)
    #expect(BulletShape.wireframeSparkleThinOutline.path.fillRule == .evenOdd)
  }

  @Test("every shape stays inside the 24×24 viewport")
  func viewport() {
    for shape in BulletShape.allCases {
      let b = shape.path.controlBounds
      #expect(b.x >= 0 && b.y >= 0 && b.maxX <= 24 && b.maxY <= 24, "\(shape)")
      #expect(b.width > 0 && b.height > 0, "\(shape)")
    }
  }
}
