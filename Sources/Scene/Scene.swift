/// Everything a renderer needs to draw one list: a plain value, dumpable as JSON.
///
/// Coordinates are absolute, in points, with the origin at the canvas' top-left corner, whatever
/// the list's direction. `ouds-render layout` prints this value.
public struct Scene: Codable, Hashable, Sendable {
  /// Canvas width in points.
  public var width: Double
  /// Canvas height in points (fits the content).
  public var height: Double
  /// The list's direction.
  public var direction: LayoutDirection
  /// Theme identifier the scene was laid out with (e.g. `orange-compact`).
  public var theme: String
  /// Colour mode the scene was laid out with (`light` or `dark`).
  public var mode: String
  /// Whose rules the scene was laid out with (`ios` or `android`; a sheet joins several with `,`).
  public var platform: String
  /// Canvas fill; nil leaves the canvas transparent.
  public var background: RGBAColor?
  /// The rows, in reading order (depth first).
  public var rows: [SceneRow]
  /// Filled rectangles with captions drawn under the rows (the cells of a rendering sheet).
  public var panels: [ScenePanel]

  /// Creates a scene.
  public init(
    width: Double, height: Double, direction: LayoutDirection, theme: String, mode: String,
    platform: String = "ios", background: RGBAColor?, rows: [SceneRow], panels: [ScenePanel] = []
  ) {
    self.width = width
    self.height = height
    self.direction = direction
    self.theme = theme
    self.mode = mode
    self.platform = platform
    self.background = background
    self.rows = rows
    self.panels = panels
  }

  enum CodingKeys: String, CodingKey {
    case width, height, direction, theme, mode, platform, background, rows, panels
  }

  /// Decodes a scene; an absent `platform` is `ios`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    width = try c.decode(Double.self, forKey: .width)
    height = try c.decode(Double.self, forKey: .height)
    direction = try c.decode(LayoutDirection.self, forKey: .direction)
    theme = try c.decode(String.self, forKey: .theme)
    mode = try c.decode(String.self, forKey: .mode)
    platform = try c.decodeIfPresent(String.self, forKey: .platform) ?? "ios"
    background = try c.decodeIfPresent(RGBAColor.self, forKey: .background)
    rows = try c.decode([SceneRow].self, forKey: .rows)
    panels = try c.decodeIfPresent([ScenePanel].self, forKey: .panels) ?? []
  }

  /// Encodes a scene with numbers rounded to 2 decimals, `background` and `platform` always present.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(width.roundedToHundredths, forKey: .width)
    try c.encode(height.roundedToHundredths, forKey: .height)
    try c.encode(direction, forKey: .direction)
    try c.encode(theme, forKey: .theme)
    try c.encode(mode, forKey: .mode)
    try c.encode(platform, forKey: .platform)
    try c.encode(background, forKey: .background)
    try c.encode(rows, forKey: .rows)
    if !panels.isEmpty { try c.encode(panels, forKey: .panels) }
  }

  /// The same scene moved by (`dx`, `dy`): every rect and text origin shifts.
  public func translated(dx: Double, dy: Double) -> Scene {
    func move(_ r: Rect) -> Rect { Rect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
    func move(_ t: SceneText) -> SceneText {
      var t = t
      t.origin = Point(x: t.origin.x + dx, y: t.origin.y + dy)
      return t
    }
    var copy = self
    copy.rows = rows.map { row in
      var row = row
      row.marker.rect = move(row.marker.rect)
      row.icon = row.icon.map(move)
      row.markerText = row.markerText.map(move)
      row.label = move(row.label)
      row.text = move(row.text)
      return row
    }
    copy.panels = panels.map { panel in
      ScenePanel(rect: move(panel.rect), fill: panel.fill, caption: panel.caption.map(move))
    }
    return copy
  }
}

/// A filled rectangle with an optional caption, drawn before the rows.
public struct ScenePanel: Codable, Hashable, Sendable {
  /// Where the panel is.
  public var rect: Rect
  /// Its fill; nil leaves it transparent.
  public var fill: RGBAColor?
  /// A caption drawn inside it.
  public var caption: SceneText?

  /// Creates a panel.
  public init(rect: Rect, fill: RGBAColor?, caption: SceneText?) {
    self.rect = rect
    self.fill = fill
    self.caption = caption
  }
}

/// What kind of marker a row shows in its bullet box.
public enum MarkerKind: String, Codable, Sendable {
  /// A theme bullet shape (square, disc, sparkle…).
  case bullet
  /// The theme's check mark.
  case tick
  /// A free icon from a file.
  case icon
  /// An ordered prefix such as "1.", "A." or "(أ).".
  case ordered
  /// Nothing: a bare list keeps an empty box.
  case none
}

/// The marker column of a row: its kind, its text for ordered lists, and the bullet box.
public struct SceneMarker: Codable, Hashable, Sendable {
  /// The kind of marker.
  public var kind: MarkerKind
  /// The ordered prefix, nil for other kinds.
  public var text: String?
  /// The bullet box (at least the theme's bullet box width, one line tall).
  public var rect: Rect

  /// Creates a marker.
  public init(kind: MarkerKind, text: String?, rect: Rect) {
    self.kind = kind
    self.text = text
    self.rect = rect
  }

  enum CodingKeys: String, CodingKey { case kind, text, rect }

  /// Decodes a marker.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    kind = try c.decode(MarkerKind.self, forKey: .kind)
    text = try c.decodeIfPresent(String.self, forKey: .text)
    rect = try c.decode(Rect.self, forKey: .rect)
  }

  /// Encodes a marker with `text` always present (null when there is none).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(kind, forKey: .kind)
    try c.encode(text, forKey: .text)
    try c.encode(rect, forKey: .rect)
  }
}

/// The vector or image drawn in a row's icon square, tinted with one colour.
public struct SceneGlyph: Codable, Hashable, Sendable {
  /// A theme marker shape; nil when `imageFile` is set.
  public var shape: SceneShape?
  /// Absolute path of a free icon (SVG or PNG); nil when `shape` is set.
  public var imageFile: String?
  /// The single colour the glyph is drawn in (only the glyph's alpha matters).
  public var tint: RGBAColor

  /// Creates a glyph from a theme marker shape.
  public init(shape: SceneShape, tint: RGBAColor) {
    self.shape = shape
    self.imageFile = nil
    self.tint = tint
  }

  /// Creates a glyph from an image file.
  public init(imageFile: String, tint: RGBAColor) {
    self.shape = nil
    self.imageFile = imageFile
    self.tint = tint
  }
}

/// A paragraph placed on the canvas: the top-left of its wrap box, the wrap width, alignment.
public struct SceneText: Codable, Hashable, Sendable {
  /// Top-left corner of the wrap box.
  public var origin: Point
  /// Width at which lines wrap; lines are aligned inside it.
  public var wrapWidth: Double
  /// Visual alignment of each line inside the wrap box.
  public var alignment: TextAlignment
  /// The text itself.
  public var content: StyledText

  /// Creates a placed paragraph.
  public init(origin: Point, wrapWidth: Double, alignment: TextAlignment, content: StyledText) {
    self.origin = origin
    self.wrapWidth = wrapWidth
    self.alignment = alignment
    self.content = content
  }

  enum CodingKeys: String, CodingKey { case origin, wrapWidth, alignment, content }

  /// Decodes a placed paragraph.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    origin = try c.decode(Point.self, forKey: .origin)
    wrapWidth = try c.decode(Double.self, forKey: .wrapWidth)
    alignment = try c.decode(TextAlignment.self, forKey: .alignment)
    content = try c.decode(StyledText.self, forKey: .content)
  }

  /// Encodes a placed paragraph with 2-decimal numbers.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(origin, forKey: .origin)
    try c.encode(wrapWidth.roundedToHundredths, forKey: .wrapWidth)
    try c.encode(alignment, forKey: .alignment)
    try c.encode(content, forKey: .content)
  }
}

/// One item of the list, fully placed.
public struct SceneRow: Codable, Hashable, Sendable {
  /// Where the item is in the list, e.g. `items[1].items[0]`.
  public var path: String
  /// Nesting depth: 0, 1 or 2.
  public var level: Int
  /// The marker column.
  public var marker: SceneMarker
  /// The square the glyph is drawn in (icon size, at the end side of the box), or nil.
  public var icon: Rect?
  /// What is drawn in `icon`, or nil.
  public var glyph: SceneGlyph?
  /// The ordered prefix paragraph, or nil.
  public var markerText: SceneText?
  /// The block of the label's line boxes.
  public var label: Rect
  /// The label paragraph.
  public var text: SceneText
  /// Number of label lines.
  public var lines: Int
  /// Distance from the top of `label` to the first line's baseline.
  public var firstBaseline: Double
  /// What a screen reader says for this row.
  public var accessibilityLabel: String

  /// Creates a row.
  public init(
    path: String, level: Int, marker: SceneMarker, icon: Rect?, glyph: SceneGlyph?,
    markerText: SceneText?, label: Rect, text: SceneText, lines: Int, firstBaseline: Double,
    accessibilityLabel: String
  ) {
    self.path = path
    self.level = level
    self.marker = marker
    self.icon = icon
    self.glyph = glyph
    self.markerText = markerText
    self.label = label
    self.text = text
    self.lines = lines
    self.firstBaseline = firstBaseline
    self.accessibilityLabel = accessibilityLabel
  }

  enum CodingKeys: String, CodingKey {
    case path, level, marker, icon, glyph, markerText, label, text, lines, firstBaseline,
      accessibilityLabel
  }

  /// Decodes a row.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    path = try c.decode(String.self, forKey: .path)
    level = try c.decode(Int.self, forKey: .level)
    marker = try c.decode(SceneMarker.self, forKey: .marker)
    icon = try c.decodeIfPresent(Rect.self, forKey: .icon)
    glyph = try c.decodeIfPresent(SceneGlyph.self, forKey: .glyph)
    markerText = try c.decodeIfPresent(SceneText.self, forKey: .markerText)
    label = try c.decode(Rect.self, forKey: .label)
    text = try c.decode(SceneText.self, forKey: .text)
    lines = try c.decode(Int.self, forKey: .lines)
    firstBaseline = try c.decode(Double.self, forKey: .firstBaseline)
    accessibilityLabel = try c.decode(String.self, forKey: .accessibilityLabel)
  }

  /// Encodes a row; `icon` is always present (null when there is none), numbers have 2 decimals.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(path, forKey: .path)
    try c.encode(level, forKey: .level)
    try c.encode(marker, forKey: .marker)
    try c.encode(icon, forKey: .icon)
    try c.encodeIfPresent(glyph, forKey: .glyph)
    try c.encodeIfPresent(markerText, forKey: .markerText)
    try c.encode(label, forKey: .label)
    try c.encode(text, forKey: .text)
    try c.encode(lines, forKey: .lines)
    try c.encode(firstBaseline.roundedToHundredths, forKey: .firstBaseline)
    try c.encode(accessibilityLabel, forKey: .accessibilityLabel)
  }
}

extension Double {
  /// The value rounded to 2 decimals, as printed in the layout JSON.
  public var roundedToHundredths: Double {
    let r = (self * 100).rounded() / 100
    return r == 0 ? 0 : r  // no "-0"
  }
}

extension Rect {
  enum CodingKeys: String, CodingKey { case x, y, width, height }

  /// Encodes the rectangle with 2 decimals.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(x.roundedToHundredths, forKey: .x)
    try c.encode(y.roundedToHundredths, forKey: .y)
    try c.encode(width.roundedToHundredths, forKey: .width)
    try c.encode(height.roundedToHundredths, forKey: .height)
  }
}

extension Point {
  enum CodingKeys: String, CodingKey { case x, y }

  /// Encodes the point with 2 decimals.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(x.roundedToHundredths, forKey: .x)
    try c.encode(y.roundedToHundredths, forKey: .y)
  }
}
