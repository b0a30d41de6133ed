import Primitives

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A problem in path data, at a character offset of the attribute value.
struct PathDataError: Error, Hashable, Sendable {
  /// What is wrong.
  var message: String
  /// The 1-based character (byte) position in the path data.
  var position: Int
}

/// Reads SVG path data (the `d` attribute, VectorDrawable `android:pathData`) into absolute
/// commands: M L H V C S Q T A Z, upper case absolute and lower case relative, with implicit
/// repetition; quadratic segments become cubics, elliptical arcs become cubics of at most 90°
/// each (SVG 1.1 implementation notes F.6.5–F.6.6).
///
/// Strict: any syntax error refuses the whole path (browsers draw up to the error), every number
/// must be within ±``coordinateLimit``, and there may be at most ``maximumSegments`` segments.
struct PathData {
  /// The largest magnitude of a number.
  static let coordinateLimit = 1_000_000.0
  /// The most drawing commands a path may produce.
  static let maximumSegments = 100_000

  private typealias Point = VectorPath.Point

  private let bytes: [UInt8]
  private var index = 0
  private var commands: [VectorPath.Command] = []
  private var current = Point(x: 0, y: 0)
  private var subpathStart = Point(x: 0, y: 0)
  /// Whether the last command was a close path: the next drawing command starts a new contour.
  private var closed = false
  /// The second control point of the previous C/S segment, for S.
  private var lastCubicControl: Point?
  /// The control point of the previous Q/T segment, for T.
  private var lastQuadraticControl: Point?

  private init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// The absolute commands of `text`.
  static func parse(_ text: String) throws(PathDataError) -> [VectorPath.Command] {
    var parser = PathData(text)
    try parser.run()
    return parser.commands
  }

  // MARK: Grammar

  private mutating func run() throws(PathDataError) {
    skipSpace()
    guard index < bytes.count else {
      throw PathDataError(message: "the path data is empty", position: 1)
    }
    var command: UInt8 = 0
    while true {
      skipSpace()
      guard index < bytes.count else { return }
      let byte = bytes[index]
      if Self.isCommand(byte) {
        command = byte
        index += 1
        if commands.isEmpty && command != UInt8(ascii: "M") && command != UInt8(ascii: "m") {
          throw fail(
            "path data must start with M or m, found '\(Character(UnicodeScalar(byte)))'",
            at: index - 1)
        }
      } else if command == 0 {
        throw fail("path data must start with M or m, found \(describe(index))")
      } else {
        // Another set of parameters for the same command, after an optional comma.
        let mark = index
        if byte == UInt8(ascii: ",") {
          index += 1
          skipSpace()
        }
        guard command != UInt8(ascii: "Z"), command != UInt8(ascii: "z"), startsNumber() else {
          throw fail("expected a command letter, found \(describe(mark))", at: mark)
        }
      }
      try segment(command)
      // After the first pair of a move, further pairs are lines.
      if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
      if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
      guard commands.count <= Self.maximumSegments else {
        throw fail("more than \(Self.maximumSegments) path segments")
      }
    }
  }

  private mutating func segment(_ command: UInt8) throws(PathDataError) {
    let relative = command >= UInt8(ascii: "a")
    let origin = relative ? current : Point(x: 0, y: 0)
    let start = index
    // A relative command's point is the sum of every step before it: bounded as a number is,
    // so that steps each within the limit cannot carry the outline past it.
    func bounded(_ p: Point) throws(PathDataError) -> Point {
      guard abs(p.x) <= Self.coordinateLimit, abs(p.y) <= Self.coordinateLimit else {
        throw fail(
          "the point (\(Echo.value("\(p.x)")), \(Echo.value("\(p.y)"))) is out of range (at most ±\(Int(Self.coordinateLimit)))",
          at: start)
      }
      return p
    }
    func offset(_ p: Point) throws(PathDataError) -> Point {
      try bounded(Point(x: p.x + origin.x, y: p.y + origin.y))
    }
    var cubicControl: Point?
    var quadraticControl: Point?
    switch command | 0x20 {
    case UInt8(ascii: "m"):
      let p = try offset(try pair(first: true))
      commands.append(.move(to: p))
      current = p
      subpathStart = p
      closed = false
    case UInt8(ascii: "z"):
      commands.append(.close)
      current = subpathStart
      closed = true
    case UInt8(ascii: "l"):
      line(to: try offset(try pair(first: true)))
    case UInt8(ascii: "h"):
      let x = try number(first: true) + origin.x
      line(to: try bounded(Point(x: x, y: current.y)))
    case UInt8(ascii: "v"):
      let y = try number(first: true) + origin.y
      line(to: try bounded(Point(x: current.x, y: y)))
    case UInt8(ascii: "c"):
      let c1 = try offset(try pair(first: true))
      let c2 = try offset(try pair())
      let p = try offset(try pair())
      curve(to: p, c1, c2)
      cubicControl = c2
    case UInt8(ascii: "s"):
      let c1 = reflection(of: lastCubicControl)
      let c2 = try offset(try pair(first: true))
      let p = try offset(try pair())
      curve(to: p, c1, c2)
      cubicControl = c2
    case UInt8(ascii: "q"):
      let q = try offset(try pair(first: true))
      let p = try offset(try pair())
      quadratic(to: p, q)
      quadraticControl = q
    case UInt8(ascii: "t"):
      let q = reflection(of: lastQuadraticControl)
      let p = try offset(try pair(first: true))
      quadratic(to: p, q)
      quadraticControl = q
    case UInt8(ascii: "a"):
      let rx = try number(first: true)
      let ry = try number()
      let rotation = try number()
      let largeArc = try flag()
      let sweep = try flag()
      let p = try offset(try pair())
      arc(to: p, rx: rx, ry: ry, rotation: rotation, largeArc: largeArc, sweep: sweep)
    default:
      throw fail("unknown command", at: index - 1)
    }
    lastCubicControl = cubicControl
    lastQuadraticControl = quadraticControl
  }

  // MARK: Segments

  /// Starts a new contour at the last start point when a close path was the previous command.
  private mutating func startIfClosed() {
    if closed {
      commands.append(.move(to: subpathStart))
      closed = false
    }
  }

  private mutating func line(to p: Point) {
    startIfClosed()
    commands.append(.line(to: p))
    current = p
  }

  private mutating func curve(to p: Point, _ c1: Point, _ c2: Point) {
    startIfClosed()
    commands.append(.curve(to: p, control1: c1, control2: c2))
    current = p
  }

  /// A quadratic Bézier as the cubic that draws the same curve.
  private mutating func quadratic(to p: Point, _ q: Point) {
    let c1 = Point(
      x: current.x + 2 / 3 * (q.x - current.x), y: current.y + 2 / 3 * (q.y - current.y))
    let c2 = Point(x: p.x + 2 / 3 * (q.x - p.x), y: p.y + 2 / 3 * (q.y - p.y))
    curve(to: p, c1, c2)
  }

  /// The previous control point reflected about the current point, or the current point.
  private func reflection(of control: Point?) -> Point {
    guard let control else { return current }
    return Point(x: 2 * current.x - control.x, y: 2 * current.y - control.y)
  }

  /// An elliptical arc from the current point, as cubics of at most 90° each.
  private mutating func arc(
    to p: Point, rx: Double, ry: Double, rotation: Double, largeArc: Bool, sweep: Bool
  ) {
    let p0 = current
    if p0 == p { return }  // F.6.2: no arc at all
    var rx = abs(rx)
    var ry = abs(ry)
    guard rx > 0, ry > 0 else { return line(to: p) }
    let phi = rotation * Double.pi / 180
    let cosPhi = cos(phi)
    let sinPhi = sin(phi)
    // F.6.5, step 1: the midpoint in the ellipse's axes.
    let dx = (p0.x - p.x) / 2
    let dy = (p0.y - p.y) / 2
    let x1 = cosPhi * dx + sinPhi * dy
    let y1 = -sinPhi * dx + cosPhi * dy
    // F.6.6: radii too small to reach are scaled up.
    let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if lambda > 1 {
      rx *= lambda.squareRoot()
      ry *= lambda.squareRoot()
    }
    // Step 2: the centre in the ellipse's axes.
    let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
    let root = (max(0, numerator / denominator)).squareRoot() * (largeArc == sweep ? -1 : 1)
    let cxPrime = root * rx * y1 / ry
    let cyPrime = -root * ry * x1 / rx
    // Step 3: the centre.
    let cx = cosPhi * cxPrime - sinPhi * cyPrime + (p0.x + p.x) / 2
    let cy = sinPhi * cxPrime + cosPhi * cyPrime + (p0.y + p.y) / 2
    // Step 4: start angle and sweep.
    let ux = (x1 - cxPrime) / rx
    let uy = (y1 - cyPrime) / ry
    let vx = (-x1 - cxPrime) / rx
    let vy = (-y1 - cyPrime) / ry
    let start = atan2(uy, ux)
    var delta = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    if !sweep && delta > 0 { delta -= 2 * Double.pi }
    if sweep && delta < 0 { delta += 2 * Double.pi }

    let pieces = max(1, Int((abs(delta) / (Double.pi / 2) - 1e-9).rounded(.up)))
    let step = delta / Double(pieces)
    let k = 4.0 / 3.0 * tan(step / 4)
    func point(_ a: Double) -> Point {
      Point(
        x: cx + rx * cosPhi * cos(a) - ry * sinPhi * sin(a),
        y: cy + rx * sinPhi * cos(a) + ry * cosPhi * sin(a))
    }
    func derivative(_ a: Double) -> Point {
      Point(
        x: -rx * cosPhi * sin(a) - ry * sinPhi * cos(a),
        y: -rx * sinPhi * sin(a) + ry * cosPhi * cos(a))
    }
    for piece in 0..<pieces {
      let a0 = start + step * Double(piece)
      let a1 = a0 + step
      let q0 = point(a0)
      let d0 = derivative(a0)
      let q1 = piece == pieces - 1 ? p : point(a1)
      let d1 = derivative(a1)
      curve(
        to: q1, Point(x: q0.x + k * d0.x, y: q0.y + k * d0.y),
        Point(x: q1.x - k * d1.x, y: q1.y - k * d1.y))
    }
  }

  // MARK: Tokens

  private static func isCommand(_ byte: UInt8) -> Bool {
    switch byte | 0x20 {
    case UInt8(ascii: "m"), UInt8(ascii: "z"), UInt8(ascii: "l"), UInt8(ascii: "h"),
      UInt8(ascii: "v"),
      UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"):
      return true
    default:
      return false
    }
  }

  private func startsNumber() -> Bool {
    guard index < bytes.count else { return false }
    let b = bytes[index]
    return (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
      || b == UInt8(ascii: ".")
  }

  private mutating func pair(first: Bool = false) throws(PathDataError) -> Point {
    let x = try number(first: first)
    let y = try number()
    return Point(x: x, y: y)
  }

  /// A number, after white space (and, unless it is a command's first, one optional comma).
  private mutating func number(first: Bool = false) throws(PathDataError) -> Double {
    separator(allowComma: !first)
    let start = index
    func digits() -> Int {
      let from = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
      return index - from
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      index += 1
    }
    var mantissa = digits()
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      mantissa += digits()
    }
    guard mantissa > 0 else {
      index = start
      throw fail("expected a number, found \(describe(start))", at: start)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      let mark = index
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
      {
        index += 1
      }
      if digits() == 0 { index = mark }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard index - start <= 64, let value = Double(text), value.isFinite,
      abs(value) <= Self.coordinateLimit
    else {
      throw fail(
        "number \(Echo.value(text)) is out of range (at most ±\(Int(Self.coordinateLimit)))",
        at: start)
    }
    return value
  }

  /// An arc flag: the single character 0 or 1.
  private mutating func flag() throws(PathDataError) -> Bool {
    separator(allowComma: true)
    guard index < bytes.count,
      bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1")
    else {
      throw fail("expected an arc flag 0 or 1, found \(describe(index))")
    }
    index += 1
    return bytes[index - 1] == UInt8(ascii: "1")
  }

  private mutating func separator(allowComma: Bool) {
    skipSpace()
    if allowComma, index < bytes.count, bytes[index] == UInt8(ascii: ",") {
      index += 1
      skipSpace()
    }
  }

  private mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[index]) { index += 1 }
  }

  private func describe(_ offset: Int) -> String {
    guard offset < bytes.count else { return "the end" }
    let end = min(bytes.count, offset + 4)
    let character =
      String(decoding: bytes[offset..<end], as: UTF8.self).first.map { String($0) } ?? "?"
    return "'\(Echo.value(character))'"
  }

  private func fail(_ message: String, at offset: Int? = nil) -> PathDataError {
    PathDataError(message: message, position: (offset ?? index) + 1)
  }
}
