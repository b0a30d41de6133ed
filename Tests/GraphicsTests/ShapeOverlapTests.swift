import Foundation
import Graphics
import Primitives
import Scene
import Testing
import Themes
import VectorAsset

/// The marker outlines of `../shared/reference/ouds/SHAPES.md`, copied here in its notation, and
/// a rasteriser of their own (flattened polygons, non-zero winding, exact horizontal coverage on
/// 32 sub-rows per pixel), so the drawn assets are measured against figures that share no code
/// with the renderer or the asset reader.
enum ShapesReference {
  /// A closed polygon in the 24×24 viewport.
  typealias Contour = [(x: Double, y: Double)]

  /// What SHAPES.md gives for each theme's level 0, 1, 2 and tick.
  static func figure(_ theme: ThemeName, _ slot: Int) -> [Contour] {
    switch (theme, slot) {
    case (.orange, 0), (.orangeCompact, 0): return [rectangle(x: 7.3...16.7, y: 7.295...16.695)]
    case (.orange, 1), (.orangeCompact, 1): return [rectangle(x: 7.3...16.7, y: 10.25...13.75)]
    case (.orange, 2), (.orangeCompact, 2): return [rectangle(x: 9.25...14.75, y: 9.25...14.75)]
    case (.orange, _), (.orangeCompact, _): return outline(orangeTick)
    case (.sosh, 0): return [disc(radius: 4.5)]
    case (.sosh, 1): return [pill()]
    case (.sosh, 2): return [disc(radius: 2.75)]
    case (.sosh, _): return outline(soshTick)
    case (.wireframe, 0): return outline(sparkle)
    case (.wireframe, 1): return outline(sparkleThick)
    case (.wireframe, 2): return outline(sparkleThin)
    case (.wireframe, _): return outline(wireframeTick)
    }
  }

  static let orangeTick = """
    M 19.938,7.570  L 10.834,18.070
    C 10.574,18.370 10.173,18.562 9.724,18.562
    C 9.274,18.562 8.874,18.370 8.613,18.070
    L 4.060,12.820  A r=1.246 sweep=1 to 3.748,12.000
    C 3.748,11.638 3.908,11.310 4.165,11.072
    L 4.734,10.547  A r=1.480 sweep=1 to 5.740,10.162
    C 6.093,10.162 6.416,10.282 6.665,10.479
    L 9.438,13.313  L 17.853,5.793
    C 18.107,5.573 18.450,5.437 18.826,5.437
    C 19.611,5.437 20.248,6.025 20.248,6.750
    C 20.248,7.060 20.132,7.345 19.937,7.570  Z
    """

  static let soshTick = """
    M 17.934,5.583  L 9.262,15.140  L 6.034,11.588
    C 5.618,11.148 4.624,11.099 4.075,11.716
    C 3.532,12.330 3.744,13.201 4.158,13.638
    L 8.340,18.252
    C 8.548,18.472 9.007,18.750 9.280,18.750
    C 9.552,18.750 9.952,18.510 10.160,18.290
    L 19.836,7.647
    C 20.250,7.208 20.472,6.303 19.919,5.704
    C 19.358,5.095 18.349,5.144 17.934,5.583  Z
    """

  static let sparkle = """
    M 18.000,12.000  A r=0.846 sweep=1 to 17.438,12.804
    L 14.038,14.041  L 12.803,17.441  A r=0.858 sweep=1 to 11.195,17.441
    L 9.959,14.041   L 6.559,12.804   A r=0.857 sweep=1 to 6.559,11.196
    L 9.959,9.960    L 11.195,6.560   A r=0.858 sweep=1 to 12.803,6.560
    L 14.039,9.960   L 17.438,11.196  A r=0.846 sweep=1 to 18.000,12.000  Z
    """

  static let sparkleThick = """
    M 17.320,11.030  L 14.130,9.870  L 12.970,6.680  A r=1.032 sweep=0 to 11.030,6.680
    L 9.870,9.870    L 6.680,11.030  A r=1.032 sweep=0 to 6.680,12.970
    L 9.870,14.130   L 11.030,17.320 A r=1.032 sweep=0 to 12.970,17.320
    L 14.130,14.130  L 17.320,12.970 A r=1.033 sweep=0 to 17.320,11.030  Z
    M 13.058,12.688  A r=0.620 sweep=0 to 12.687,13.058  L 12.000,15.982  L 11.312,13.060
    A r=0.620 sweep=0 to 10.941,12.689  L 8.019,12.000  L 10.941,11.312
    A r=0.620 sweep=0 to 11.312,10.942  L 12.000,8.018  L 12.687,10.940
    A r=0.620 sweep=0 to 13.058,11.311  L 15.980,12.000  L 13.058,12.688  Z
    """

  static let sparkleThin = """
    M 17.440,11.196  L 14.040,9.960  L 12.804,6.560  A r=0.858 sweep=0 to 11.195,6.560
    L 9.960,9.960    L 6.560,11.196  A r=0.858 sweep=0 to 6.560,12.804
    L 9.960,14.041   L 11.196,17.441 A r=0.858 sweep=0 to 12.805,17.441
    L 14.041,14.041  L 17.441,12.804 A r=0.859 sweep=0 to 17.441,11.196  Z
    M 13.558,13.303  A r=0.427 sweep=0 to 13.302,13.559  L 11.999,17.141  L 10.697,13.559
    A r=0.430 sweep=0 to 10.441,13.303  L 6.859,12.000  L 10.441,10.697
    A r=0.429 sweep=0 to 10.697,10.441  L 12.000,6.860  L 13.302,10.442
    A r=0.430 sweep=0 to 13.558,10.698  L 17.140,12.000  L 13.558,13.303  Z
    """

  static let wireframeTick = """
    M 19.112,7.420   A r=1.666 sweep=0 to 16.757,7.420
    L 10.291,13.888  L 7.203,10.798   A r=1.665 sweep=0 to 4.848,13.154
    L 9.114,17.422   A r=1.666 sweep=0 to 11.469,17.422
    L 19.112,9.776   A r=1.667 sweep=0 to 19.112,7.420  Z
    """

  // MARK: Figures → polygons

  static func rectangle(x: ClosedRange<Double>, y: ClosedRange<Double>) -> Contour {
    [
      (x.lowerBound, y.lowerBound), (x.upperBound, y.lowerBound), (x.upperBound, y.upperBound),
      (x.lowerBound, y.upperBound),
    ]
  }

  static func disc(radius: Double) -> Contour {
    (0..<1440).map { i in
      let a = Double(i) / 1440 * 2 * Double.pi
      return (12 + radius * cos(a), 12 + radius * sin(a))
    }
  }

  /// x 7.3–16.7, y 10.25–13.75, end radius 1.75.
  static func pill() -> Contour {
    let right = (0...360).map { i -> (x: Double, y: Double) in
      let a = -Double.pi / 2 + Double(i) / 360 * Double.pi
      return (14.95 + 1.75 * cos(a), 12 + 1.75 * sin(a))
    }
    let left = (0...360).map { i -> (x: Double, y: Double) in
      let a = Double.pi / 2 + Double(i) / 360 * Double.pi
      return (9.05 + 1.75 * cos(a), 12 + 1.75 * sin(a))
    }
    return right + left
  }

  /// Parses the SHAPES.md notation: `M x,y`, `L x,y`, `C x,y x,y x,y`, `A r=R sweep=S to x,y`, `Z`.
  static func outline(_ figure: String) -> [Contour] {
    let tokens = figure.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    var contours: [Contour] = []
    var contour: Contour = []
    var i = 0
    func point(_ token: String) -> (x: Double, y: Double) {
      let parts = token.split(separator: ",").compactMap { Double($0) }
      precondition(parts.count == 2, "bad point \(token)")
      return (parts[0], parts[1])
    }
    while i < tokens.count {
      switch tokens[i] {
      case "M":
        if !contour.isEmpty { contours.append(contour) }
        contour = [point(tokens[i + 1])]
        i += 2
      case "L":
        contour.append(point(tokens[i + 1]))
        i += 2
      case "C":
        let p0 = contour[contour.count - 1]
        let (c1, c2, p) = (point(tokens[i + 1]), point(tokens[i + 2]), point(tokens[i + 3]))
        for step in 1...64 {
          let t = Double(step) / 64
          let u = 1 - t
          contour.append(
            (
              u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p.x,
              u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p.y
            ))
        }
        i += 4
      case "A":
        let radius = Double(tokens[i + 1].dropFirst(2)) ?? .nan
        let sweep = tokens[i + 2] == "sweep=1"
        precondition(tokens[i + 3] == "to", "bad arc at \(i)")
        contour += smallArc(
          from: contour[contour.count - 1], to: point(tokens[i + 4]), radius: radius, sweep: sweep)
        i += 5
      case "Z":
        contours.append(contour)
        contour = []
        i += 1
      default:
        preconditionFailure("unknown token \(tokens[i])")
      }
    }
    if !contour.isEmpty { contours.append(contour) }
    return contours
  }

  /// Points of the shorter circular arc from `a` to `b` turning the `sweep` way (sweep 1:
  /// angles grow, clockwise on screen with y down), `a` excluded.
  static func smallArc(
    from a: (x: Double, y: Double), to b: (x: Double, y: Double), radius: Double, sweep: Bool
  ) -> Contour {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let chord = (dx * dx + dy * dy).squareRoot()
    let r = max(radius, chord / 2)
    let h = max(0, r * r - chord * chord / 4).squareRoot()
    let mid = ((a.x + b.x) / 2, (a.y + b.y) / 2)
    // Of the two centres, take the one around which going the `sweep` way is the short way.
    for side in [1.0, -1.0] {
      let c = (x: mid.0 - side * h * dy / chord, y: mid.1 + side * h * dx / chord)
      let a0 = atan2(a.y - c.y, a.x - c.x)
      var turn = atan2(b.y - c.y, b.x - c.x) - a0
      if sweep {
        while turn < 0 { turn += 2 * Double.pi }
      } else {
        while turn > 0 { turn -= 2 * Double.pi }
      }
      guard abs(turn) <= Double.pi + 1e-9 else { continue }
      return (1...64).map { i in
        let angle = a0 + turn * Double(i) / 64
        return (c.x + r * cos(angle), c.y + r * sin(angle))
      }
    }
    preconditionFailure("no centre")
  }

  // MARK: Rasterising

  /// The coverage (0…1) of `pixels`×`pixels` pixels by the contours (non-zero winding), the
  /// 24×24 viewport mapped onto the pixel square.
  static func coverage(_ contours: [Contour], pixels: Int, subRows: Int = 32) -> [Double] {
    let scale = Double(pixels) / 24
    var edges: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
    for contour in contours {
      for (index, p) in contour.enumerated() {
        let q = contour[(index + 1) % contour.count]
        if p.y != q.y { edges.append((p.x * scale, p.y * scale, q.x * scale, q.y * scale)) }
      }
    }
    var cover = [Double](repeating: 0, count: pixels * pixels)
    for row in 0..<pixels {
      for sub in 0..<subRows {
        let y = Double(row) + (Double(sub) + 0.5) / Double(subRows)
        var crossings: [(x: Double, winding: Int)] = []
        for e in edges where (e.y0 <= y && y < e.y1) || (e.y1 <= y && y < e.y0) {
          let x = e.x0 + (y - e.y0) * (e.x1 - e.x0) / (e.y1 - e.y0)
          crossings.append((x, e.y1 > e.y0 ? 1 : -1))
        }
        crossings.sort { $0.x < $1.x }
        var winding = 0
        for (index, crossing) in crossings.enumerated() {
          winding += crossing.winding
          guard winding != 0, index + 1 < crossings.count else { continue }
          let from = max(0, crossing.x)
          let to = min(Double(pixels), crossings[index + 1].x)
          guard to > from else { continue }
          for column in Int(from.rounded(.down))..<min(pixels, Int(to.rounded(.up))) {
            let overlap = min(to, Double(column + 1)) - max(from, Double(column))
            if overlap > 0 { cover[row * pixels + column] += overlap / Double(subRows) }
          }
        }
      }
    }
    return cover
  }

  /// Intersection over union of two coverages: Σ min / Σ max.
  static func overlap(_ a: [Double], _ b: [Double]) -> Double {
    var intersection = 0.0
    var union = 0.0
    for (p, q) in zip(a, b) {
      intersection += min(p, q)
      union += max(p, q)
    }
    return union > 0 ? intersection / union : 0
  }
}

@Suite("Marker shapes against the SHAPES.md outlines")
struct ShapeOverlapTests {
  let renderer: SceneRenderer

  init() throws {
    renderer = SceneRenderer(textEngine: try Fixtures.engine())
  }

  /// The coverage (alpha) of `shape` drawn by the renderer in black at scale 3 in a `size`-point
  /// icon square placed on whole points, as `pixels`×`pixels` values 0…1.
  func drawnCoverage(_ shape: MarkerShape, size: Double) throws -> [Double] {
    let origin = 1.0
    let icon = Rect(x: origin, y: origin, width: size, height: size)
    let row = SceneRow(
      path: "items[0]", level: 0, marker: SceneMarker(kind: .bullet, text: nil, rect: icon),
      icon: icon,
      glyph: SceneGlyph(shape: shape, tint: Fixtures.black), markerText: nil, label: icon,
      text: SceneText(
        origin: Point(x: 0, y: 0), wrapWidth: 10, alignment: .left, content: Fixtures.text("")),
      lines: 1, firstBaseline: 0, accessibilityLabel: "")
    let scene = Scene(
      width: size + 2 * origin, height: size + 2 * origin, direction: .ltr, theme: .orange,
      mode: .light,
      background: nil, rows: [row])
    let image = try renderer.rasterize(scene, scale: 3)
    let pixels = Int(size) * 3
    var cover: [Double] = []
    for y in 0..<pixels {
      for x in 0..<pixels {
        cover.append(Double(image.pixel(x: x + 3, y: y + 3).alpha) / 255)
      }
    }
    // Nothing is drawn outside the icon square.
    for y in 0..<image.height {
      for x in 0..<image.width where !(3..<3 + pixels).contains(x) || !(3..<3 + pixels).contains(y)
      {
        if image.pixel(x: x, y: y).alpha != 0 {
          throw Failure("\(shape.name) inks (\(x), \(y)) outside its square")
        }
      }
    }
    return cover
  }

  static let slots = ["level 0", "level 1", "level 2", "tick"]

  @Test(
    "each shipped shape overlaps its SHAPES.md outline at ≥ 0.98 at 3×, at the icon size of each text style",
    arguments: ThemeName.allCases)
  func overlap(theme: ThemeName) throws {
    let library = try Fixtures.library.get()
    let resolved = try library.theme(theme, mode: .light)
    let assets = resolved.shapes.levels.values + [resolved.shapes.tick]
    for style in TextStyle.allCases {
      let size = resolved.metrics[style].iconSize
      let pixels = Int(size) * 3
      for (slot, asset) in assets.enumerated() {
        let drawn = try drawnCoverage(Fixtures.shape(asset), size: size)
        let reference = ShapesReference.coverage(
          ShapesReference.figure(theme, slot), pixels: pixels)
        let overlap = ShapesReference.overlap(drawn, reference)
        print(
          "shape overlap: \(theme.rawValue) \(Self.slots[slot]) (\(asset.file)) \(style.tokenName) \(Int(size)) pt: "
            + String(format: "%.4f", overlap))
        #expect(
          overlap >= 0.98,
          "\(theme.rawValue) \(Self.slots[slot]) \(style.tokenName): overlap \(overlap)")
      }
    }
  }

  @Test("the measure tells shapes apart: a wrong shape scores far below 0.98")
  func measureDiscriminates() throws {
    let wireframe = try Fixtures.markers(.wireframe)
    let sosh = try Fixtures.markers(.sosh)
    let pairs: [(MarkerShape, [ShapesReference.Contour], Double)] = [
      // The thin outlined sparkle against the filled sparkle's outline.
      (Fixtures.shape(wireframe.levels[level: 2]), ShapesReference.figure(.wireframe, 0), 0.6),
      // The thick outline against the thin one: same outer star, different hole.
      (Fixtures.shape(wireframe.levels[level: 1]), ShapesReference.figure(.wireframe, 2), 0.9),
      // Sosh's disc against Orange's square of about the same size.
      (Fixtures.shape(sosh.levels[level: 0]), ShapesReference.figure(.orange, 0), 0.9),
      // Sosh's tick against Orange's.
      (Fixtures.shape(sosh.tick), ShapesReference.figure(.orange, 3), 0.9),
    ]
    for (shape, figure, ceiling) in pairs {
      let overlap = ShapesReference.overlap(
        try drawnCoverage(shape, size: 20), ShapesReference.coverage(figure, pixels: 60))
      #expect(overlap < ceiling, "\(shape.name): \(overlap)")
    }
  }

  @Test("the reference rasteriser gets known areas right: a square, a disc")
  func rasteriserAreas() {
    // Orange level 0 at 60 px: 9.4 × 9.4 units at 2.5 px per unit.
    let square = ShapesReference.coverage(ShapesReference.figure(.orange, 0), pixels: 60).reduce(
      0, +)
    #expect(abs(square - 9.4 * 9.4 * 6.25) < 0.5)
    let disc = ShapesReference.coverage(ShapesReference.figure(.sosh, 0), pixels: 60).reduce(0, +)
    #expect(abs(disc - Double.pi * 4.5 * 4.5 * 6.25) < 0.5)
    // The outlined sparkle's hole is subtracted (its contour winds the other way): about half
    // of the filled sparkle's ink is left.
    let filled = ShapesReference.coverage(ShapesReference.figure(.wireframe, 0), pixels: 60).reduce(
      0, +)
    let thin = ShapesReference.coverage(ShapesReference.figure(.wireframe, 2), pixels: 60).reduce(
      0, +)
    #expect(thin < 0.6 * filled && thin > 0.4 * filled)
  }
}

struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
