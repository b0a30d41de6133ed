/// A filled vector drawing read from an asset file: one or more filled paths in a viewport.
///
/// `VectorAsset` reads these from SVG and VectorDrawable files; `Themes` loads a theme's marker
/// shapes with it, and `Graphics` fills them.
///
/// This is all a marker shape is: no strokes, no colours (the renderer tints it with one colour),
/// no transforms. Coordinates are in the file's own viewport, y pointing down.
public struct VectorOutline: Hashable, Sendable {
  /// The viewport the coordinates are given in (SVG `viewBox`, VectorDrawable
  /// `viewportWidth/Height`), fitted into the drawing box; its sides are positive.
  public var viewBox: Rect
  /// The filled paths, in drawing order; each has its own fill rule.
  public var paths: [VectorPath]

  /// Creates an outline.
  public init(viewBox: Rect, paths: [VectorPath]) {
    self.viewBox = viewBox
    self.paths = paths
  }
}

/// One filled path: absolute drawing commands and the rule that decides what is inside.
public struct VectorPath: Hashable, Sendable {
  /// A point in the outline's viewport (y down): the package's ``Primitives/Point``.
  public typealias Point = Primitives.Point

  /// One drawing command, in absolute coordinates.
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
    /// Non-zero winding (SVG `nonzero`, VectorDrawable `nonZero`, the default of both).
    case nonZero
    /// Even-odd (SVG `evenodd`, VectorDrawable `evenOdd`).
    case evenOdd
  }

  /// The commands, in drawing order; a contour left open is closed by the fill.
  public var commands: [Command]
  /// The fill rule.
  public var fillRule: FillRule

  /// Creates a path.
  public init(commands: [Command] = [], fillRule: FillRule = .nonZero) {
    self.commands = commands
    self.fillRule = fillRule
  }
}
