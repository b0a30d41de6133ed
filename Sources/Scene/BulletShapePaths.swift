#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A filled vector outline: path commands and the rule that decides what is inside.
///
/// Coordinates are in the shape's own viewport (24×24 for ``BulletShape``), y pointing down.
public struct VectorPath: Hashable, Sendable {
  /// One drawing command.
  public enum Command: Hashable, Sendable {
    /// Starts a new contour at a point.
    case move(to: Point)
    /// A straight segment to a point.
    case line(to: Point)
    /// A cubic Bézier segment to a point, with two control points.
    case curve(to: Point, control1: Point, control2: Point)
    /// Closes the current contour with a straight segment to its start.
    case close
  }

  /// How overlapping contours are filled.
  public enum FillRule: String, Hashable, Sendable {
    /// Non-zero winding: contours wound the same way add up (a union).
    case winding
    /// Even-odd: a contour inside another one cuts a hole (rings, outlines).
    case evenOdd
  }

  /// The commands, in drawing order.
  public var commands: [Command]
  /// The fill rule.
  public var fillRule: FillRule

  /// Creates a path.
  public init(commands: [Command] = [], fillRule: FillRule = .winding) {
    self.commands = commands
    self.fillRule = fillRule
  }

  /// The smallest rectangle holding every end point and control point (the hull's box).
  public var controlBounds: Rect {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    func include(_ p: Point) {
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
    for command in commands {
      switch command {
      case .move(let p), .line(let p): include(p)
      case .curve(let p, let c1, let c2):
        include(p)
        include(c1)
        include(c2)
      case .close: break
      }
    }
    guard minX <= maxX else { return Rect(x: 0, y: 0, width: 0, height: 0) }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  // MARK: Building

  /// Appends a closed polygon through `points`.
  mutating func addPolygon(_ points: [Point]) {
    guard let first = points.first else { return }
    commands.append(.move(to: first))
    for p in points.dropFirst() { commands.append(.line(to: p)) }
    commands.append(.close)
  }

  /// Appends an axis-aligned rectangle, wound clockwise (y down).
  mutating func addRect(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    addPolygon([
      Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY),
      Point(x: minX, y: maxY),
    ])
  }

  /// Appends a circular arc from `start` to `end` radians (clockwise on screen when end > start).
  ///
  /// The arc is split into cubic Béziers of at most 90° each; it continues the current contour
  /// with a line to its first point when `connect` is true, or starts a new contour otherwise.
  mutating func addArc(center: Point, radius: Double, start: Double, end: Double, connect: Bool) {
    let sweep = end - start
    let pieces = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
    let step = sweep / Double(pieces)
    let k = 4.0 / 3.0 * tan(step / 4)
    func at(_ angle: Double) -> Point {
      Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
    }
    let first = at(start)
    commands.append(connect ? .line(to: first) : .move(to: first))
    for index in 0..<pieces {
      let a0 = start + step * Double(index)
      let a1 = a0 + step
      let p0 = at(a0)
      let p1 = at(a1)
      let c1 = Point(x: p0.x - k * radius * sin(a0), y: p0.y + k * radius * cos(a0))
      let c2 = Point(x: p1.x + k * radius * sin(a1), y: p1.y - k * radius * cos(a1))
      commands.append(.curve(to: p1, control1: c1, control2: c2))
    }
  }

  /// Appends a full circle, wound clockwise on screen.
  mutating func addCircle(center: Point, radius: Double) {
    addArc(center: center, radius: radius, start: 0, end: 2 * Double.pi, connect: false)
    commands.append(.close)
  }

  /// Appends a stadium (a segment from `a` to `b` thickened by `radius`, with round ends).
  ///
  /// Every stadium is wound clockwise on screen, so with the winding rule several of them form
  /// their union: a polyline stroked with round caps and round joins.
  mutating func addCapsule(from a: Point, to b: Point, radius: Double) {
    let angle = atan2(b.y - a.y, b.x - a.x)
    let half = Double.pi / 2
    // Round end around b, from the left side of a→b to its right side, then back around a.
    addArc(center: b, radius: radius, start: angle - half, end: angle + half, connect: false)
    addArc(center: a, radius: radius, start: angle + half, end: angle + 3 * half, connect: true)
    commands.append(.close)
  }

  /// Appends a four-point star whose tips are `tip` away from `center`, with concave curved sides.
  ///
  /// `pull` is how far each side's control points sit from the tips, towards the centre: 0 gives
  /// a straight-sided diamond, larger values make the waist thinner.
  mutating func addSparkle(center: Point, tip: Double, pull: Double, clockwise: Bool) {
    let c = center
    var tips = [
      Point(x: c.x, y: c.y - tip), Point(x: c.x + tip, y: c.y), Point(x: c.x, y: c.y + tip),
      Point(x: c.x - tip, y: c.y),
    ]
    if !clockwise { tips = [tips[0], tips[3], tips[2], tips[1]] }
    func towardCentre(_ p: Point) -> Point {
      let dx = c.x - p.x
      let dy = c.y - p.y
      let length = (dx * dx + dy * dy).squareRoot()
      return Point(x: p.x + dx / length * pull, y: p.y + dy / length * pull)
    }
    commands.append(.move(to: tips[0]))
    for index in 0..<4 {
      let from = tips[index]
      let to = tips[(index + 1) % 4]
      commands.append(.curve(to: to, control1: towardCentre(from), control2: towardCentre(to)))
    }
    commands.append(.close)
  }
}

extension BulletShape {
  /// The shape's outline in its 24×24 viewport, following the geometry of SPEC §4.
  public var path: VectorPath {
    let centre = Point(x: 12, y: 12)
    var path = VectorPath()
    switch self {
    case .orangeSquare:
      path.addRect(minX: 7.3, minY: 7.295, maxX: 16.7, maxY: 16.695)
    case .orangeBar:
      path.addRect(minX: 7.3, minY: 10.25, maxX: 16.7, maxY: 13.75)
    case .orangeSmallSquare:
      path.addRect(minX: 9.25, minY: 9.25, maxX: 14.75, maxY: 14.75)
    case .orangeTick:
      path.fillRule = .evenOdd
      path.addPolygon(Self.orangeTickOutline)
    case .soshDisc:
      path.addCircle(center: centre, radius: 4.5)
    case .soshPill:
      path.addCapsule(from: Point(x: 9.05, y: 12), to: Point(x: 14.95, y: 12), radius: 1.75)
    case .soshSmallDisc:
      path.addCircle(center: centre, radius: 2.75)
    case .soshTick:
      Self.addRoundTick(to: &path, radius: 1.5)
    case .wireframeSparkle:
      path.addSparkle(center: centre, tip: 6, pull: 3, clockwise: true)
    case .wireframeSparkleThickOutline:
      path.fillRule = .evenOdd
      path.addSparkle(center: centre, tip: 6, pull: 3, clockwise: true)
      path.addSparkle(center: centre, tip: 3.6, pull: 2.65, clockwise: false)
    case .wireframeSparkleThinOutline:
      path.fillRule = .evenOdd
      path.addSparkle(center: centre, tip: 6, pull: 3, clockwise: true)
      path.addSparkle(center: centre, tip: 4.6, pull: 2.7, clockwise: false)
    case .wireframeTick:
      Self.addRoundTick(to: &path, radius: 1.25)
    }
    return path
  }

  /// The Orange check mark: a 45° stroke polygon, bounding box x 3.75–20.25, y 5.4–18.6.
  ///
  /// The outer corner sits at (9.1, 18.6); each arm is 2.05 × √2 ≈ 2.9 units thick.
  private static let orangeTickOutline: [Point] = [
    Point(x: 3.75, y: 13.25),  // short arm, outer end
    Point(x: 9.1, y: 18.6),  // outer corner
    Point(x: 20.25, y: 7.45),  // long arm, outer end
    Point(x: 18.2, y: 5.4),  // long arm, inner end
    Point(x: 9.1, y: 14.5),  // inner corner
    Point(x: 5.8, y: 11.2),  // short arm, inner end
  ]

  /// A check mark stroked with round caps and a round join, as the union of two stadiums.
  private static func addRoundTick(to path: inout VectorPath, radius: Double) {
    let start = Point(x: 5.5, y: 12.5)
    let corner = Point(x: 9.75, y: 16.75)
    let end = Point(x: 18.5, y: 7.5)
    path.fillRule = .winding
    path.addCapsule(from: start, to: corner, radius: radius)
    path.addCapsule(from: corner, to: end, radius: radius)
  }
}
