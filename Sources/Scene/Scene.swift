import Primitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
  /// The themes the scene was laid out with: one for a list, each row of a sheet for a sheet.
  /// JSON key `theme`, the names joined with `,` (e.g. `orange-compact`).
  public var themes: [ThemeName]
  /// The colour modes the scene was laid out with (JSON key `mode`, joined with `,`).
  public var modes: [ColorMode]
  /// Whose rules the scene was laid out with (JSON key `platform`, joined with `,`; absent is `ios`).
  public var platforms: [Platform]
  /// Canvas fill; nil leaves the canvas transparent.
  public var background: RGBAColor?
  /// The rows, in reading order (depth first).
  public var rows: [SceneRow]
  /// Filled rectangles with captions drawn under the rows (the cells of a rendering sheet).
  public var panels: [ScenePanel]
  /// Bitmaps drawn over the panels and under the rows (the before, after and diff pictures of a
  /// token review); JSON key `pictures`, present only when there are some.
  public var pictures: [ScenePicture] = []
  /// Other scenes drawn scaled inside this one, over the pictures and under the rows (a sheet's
  /// cells placed on a printed page); JSON key `insets`, present only when there are some.
  public var insets: [SceneInset] = []
  /// What the picture shows, in words (a sheet's heading): the SVG `<title>` and the PDF title.
  public var title: String? = nil
  /// Lines that say more (a sheet's themes folder and fonts): the SVG `<desc>` and the PDF subject.
  public var notes: [String] = []

  /// Creates the scene of one list laid out for one theme, mode and platform.
  public init(
    width: Double, height: Double, direction: LayoutDirection, theme: ThemeName, mode: ColorMode,
    platform: Platform = .ios, background: RGBAColor?, rows: [SceneRow], panels: [ScenePanel] = []
  ) {
    self.init(
      width: width, height: height, direction: direction, themes: [theme], modes: [mode],
      platforms: [platform], background: background, rows: rows, panels: panels)
  }

  /// Creates a scene that may join several themes, modes and platforms (a rendering sheet).
  public init(
    width: Double, height: Double, direction: LayoutDirection, themes: [ThemeName],
    modes: [ColorMode], platforms: [Platform], background: RGBAColor?, rows: [SceneRow],
    panels: [ScenePanel] = []
  ) {
    self.width = width
    self.height = height
    self.direction = direction
    self.themes = themes
    self.modes = modes
    self.platforms = platforms
    self.background = background
    self.rows = rows
    self.panels = panels
  }

  enum CodingKeys: String, CodingKey {
    case width, height, direction, theme, mode, platform, background, rows, panels, pictures,
      insets,
      title, notes
  }

  /// Decodes a scene; an absent `platform` is `ios`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    width = try c.decode(Double.self, forKey: .width)
    height = try c.decode(Double.self, forKey: .height)
    direction = try c.decode(LayoutDirection.self, forKey: .direction)
    themes = try Self.names(c, .theme)
    modes = try Self.names(c, .mode)
    platforms = c.contains(.platform) ? try Self.names(c, .platform) : [.ios]
    background = try c.decodeIfPresent(RGBAColor.self, forKey: .background)
    rows = try c.decode([SceneRow].self, forKey: .rows)
    panels = try c.decodeIfPresent([ScenePanel].self, forKey: .panels) ?? []
    pictures = try c.decodeIfPresent([ScenePicture].self, forKey: .pictures) ?? []
    insets = try c.decodeIfPresent([SceneInset].self, forKey: .insets) ?? []
    title = try c.decodeIfPresent(String.self, forKey: .title)
    notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
  }

  /// Encodes a scene with numbers rounded to 2 decimals, `background` and `platform` always
  /// present, `panels`, `pictures`, `insets`, `title` and `notes` only when there are some.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(width.roundedToHundredths, forKey: .width)
    try c.encode(height.roundedToHundredths, forKey: .height)
    try c.encode(direction, forKey: .direction)
    try c.encode(Self.joined(themes), forKey: .theme)
    try c.encode(Self.joined(modes), forKey: .mode)
    try c.encode(Self.joined(platforms), forKey: .platform)
    try c.encode(background, forKey: .background)
    try c.encode(rows, forKey: .rows)
    if !panels.isEmpty { try c.encode(panels, forKey: .panels) }
    if !pictures.isEmpty { try c.encode(pictures, forKey: .pictures) }
    if !insets.isEmpty { try c.encode(insets, forKey: .insets) }
    try c.encodeIfPresent(title, forKey: .title)
    if !notes.isEmpty { try c.encode(notes, forKey: .notes) }
  }

  private static func joined<Name: NamedValue>(_ names: [Name]) -> String {
    names.map(\.rawValue).joined(separator: ",")
  }

  /// The names of a `,`-joined key, each exactly as written by ``encode(to:)``.
  private static func names<Name: NamedValue>(
    _ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
  ) throws -> [Name] {
    let text = try c.decode(String.self, forKey: key)
    var names: [Name] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let name = Name(rawValue: String(part)) else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: c,
          debugDescription:
            "unknown \(Name.kindName) \"\(part)\" (known: \(Name.names.joined(separator: ", ")))")
      }
      names.append(name)
    }
    return names
  }

  /// The same scene moved by (`dx`, `dy`): every rect and text origin shifts.
  public func translated(dx: Double, dy: Double) -> Scene {
    func move(_ t: SceneText) -> SceneText {
      var t = t
      t.origin = Point(x: t.origin.x + dx, y: t.origin.y + dy)
      return t
    }
    var copy = self
    copy.rows = rows.map { row in
      var row = row
      row.marker.rect = row.marker.rect.offsetBy(dx: dx, dy: dy)
      row.icon = row.icon.map { $0.offsetBy(dx: dx, dy: dy) }
      row.markerText = row.markerText.map(move)
      row.label = row.label.offsetBy(dx: dx, dy: dy)
      row.text = move(row.text)
      return row
    }
    copy.panels = panels.map { $0.translated(dx: dx, dy: dy) }
    copy.pictures = pictures.map {
      ScenePicture(rect: $0.rect.offsetBy(dx: dx, dy: dy), png: $0.png)
    }
    copy.insets = insets.map { inset in
      var inset = inset
      inset.origin = Point(x: inset.origin.x + dx, y: inset.origin.y + dy)
      return inset
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

  /// The same panel moved by (`dx`, `dy`), its caption with it.
  public func translated(dx: Double, dy: Double) -> ScenePanel {
    let moved = caption.map { text -> SceneText in
      var text = text
      text.origin = Point(x: text.origin.x + dx, y: text.origin.y + dy)
      return text
    }
    return ScenePanel(rect: rect.offsetBy(dx: dx, dy: dy), fill: fill, caption: moved)
  }
}

/// A bitmap drawn into a rectangle (scaled to fill it): a picture inside a composed page.
///
/// The bytes are a PNG file's, as `ouds-render` writes them; in JSON they are Base64.
public struct ScenePicture: Codable, Hashable, Sendable {
  /// Where the bitmap is drawn, in points; its pixels are stretched to fill it.
  public var rect: Rect
  /// The PNG bytes.
  public var png: Data

  /// Creates a picture.
  public init(rect: Rect, png: Data) {
    self.rect = rect
    self.png = png
  }
}

/// A part of another scene drawn inside a scene, scaled: a sheet's cell on a printed page.
///
/// The rectangle `source` of `scene` (in the inner scene's points) is drawn with its top-left
/// corner at `origin` (in the outer scene's points), `scale` outer points per inner point, and
/// nothing of `scene` outside `source` shows. Vector output stays vector: text stays text.
public struct SceneInset: Codable, Hashable, Sendable {
  /// The scene drawn.
  public var scene: Scene
  /// The part of `scene` that shows, in its own points.
  public var source: Rect
  /// Where the top-left corner of `source` goes, in the outer scene's points.
  public var origin: Point
  /// Outer points per inner point (1 draws it at its size, 0.5 at half).
  public var scale: Double

  /// Creates an inset showing `source` of `scene` (nil: the whole scene).
  public init(scene: Scene, source: Rect? = nil, origin: Point, scale: Double) {
    self.scene = scene
    self.source = source ?? Rect(x: 0, y: 0, width: scene.width, height: scene.height)
    self.origin = origin
    self.scale = scale
  }

  /// The rectangle the inset covers in the outer scene.
  public var rect: Rect {
    Rect(x: origin.x, y: origin.y, width: source.width * scale, height: source.height * scale)
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
///
/// In JSON: `{"shape": "orange.square", "tint": "#F16E00"}` or `{"imageFile": "/path/heart.svg",
/// "tint": …}`, exactly one of `shape` and `imageFile`.
public struct SceneGlyph: Codable, Hashable, Sendable {
  /// What a glyph draws: a theme marker shape or a free icon file.
  public enum Content: Hashable, Sendable {
    /// A theme marker shape (bullet or tick).
    case shape(MarkerShape)
    /// A free icon (SVG or PNG) by absolute path.
    case image(file: String)
  }

  /// What is drawn.
  public var content: Content
  /// The single colour the glyph is drawn in (only the glyph's alpha matters).
  public var tint: RGBAColor

  /// Creates a glyph.
  public init(_ content: Content, tint: RGBAColor) {
    self.content = content
    self.tint = tint
  }

  /// Creates a glyph from a theme marker shape.
  public init(shape: MarkerShape, tint: RGBAColor) {
    self.init(.shape(shape), tint: tint)
  }

  /// Creates a glyph from an image file.
  public init(imageFile: String, tint: RGBAColor) {
    self.init(.image(file: imageFile), tint: tint)
  }

  /// The marker shape, when the glyph is one.
  public var shape: MarkerShape? {
    if case .shape(let shape) = content { shape } else { nil }
  }

  /// The icon file, when the glyph is one.
  public var imageFile: String? {
    if case .image(let file) = content { file } else { nil }
  }

  enum CodingKeys: String, CodingKey { case shape, imageFile, tint }

  /// Decodes a glyph; exactly one of `shape` and `imageFile` must be present.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    tint = try c.decode(RGBAColor.self, forKey: .tint)
    switch (
      try c.decodeIfPresent(MarkerShape.self, forKey: .shape),
      try c.decodeIfPresent(String.self, forKey: .imageFile)
    ) {
    case (let shape?, nil): content = .shape(shape)
    case (nil, let file?): content = .image(file: file)
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .shape, in: c,
        debugDescription: "a glyph has exactly one of \"shape\" and \"imageFile\"")
    }
  }

  /// Encodes `shape` or `imageFile`, and `tint`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch content {
    case .shape(let shape): try c.encode(shape, forKey: .shape)
    case .image(let file): try c.encode(file, forKey: .imageFile)
    }
    try c.encode(tint, forKey: .tint)
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

  // Decoding is synthesized (optional members may be absent or null); encoding is not:

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
