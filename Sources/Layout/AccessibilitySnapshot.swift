import Primitives
import Scene
import Themes

/// The accessibility snapshot of a laid-out list: each spoken element's frame tinted in its own
/// colour and, beside the list, a legend that lists in reading order what the screen reader says
/// for each element, under a heading naming the reader and the language. This is the picture
/// Paparazzi's `AccessibilityRenderExtension` (Android) and cashapp/AccessibilitySnapshot (iOS)
/// draw.
///
/// Each row of the list is one element on both platforms (TalkBack merges the row into one node;
/// VoiceOver combines the row's children), so each row gets one frame: the union of its marker
/// box and its label. The legend stands on the end side of the list (right in LTR, left in RTL)
/// and is written in the list's direction. Everything is ordinary scene content: the tints and
/// swatches are panels, the legend's lines are panel captions, so the layout JSON of an
/// accessibility snapshot holds the spoken text and a change in it is a readable diff.
public enum AccessibilitySnapshot {
  /// The tints, in the order rows take them (cycling), opaque; frames are drawn at
  /// ``frameAlpha``. Eight hues that stay apart in both colour modes.
  public static let palette: [RGBAColor] = [
    RGBAColor(red: 0xE6, green: 0x19, blue: 0x4B),
    RGBAColor(red: 0x3C, green: 0xB4, blue: 0x4B),
    RGBAColor(red: 0x43, green: 0x63, blue: 0xD8),
    RGBAColor(red: 0xF5, green: 0x82, blue: 0x31),
    RGBAColor(red: 0x91, green: 0x1E, blue: 0xB4),
    RGBAColor(red: 0x42, green: 0xD4, blue: 0xF4),
    RGBAColor(red: 0xF0, green: 0x32, blue: 0xE6),
    RGBAColor(red: 0xBF, green: 0xEF, blue: 0x45),
  ]
  /// The opacity of a frame's tint over the list (about 30 %).
  public static let frameAlpha: UInt8 = 77
  /// The legend's width, in points.
  public static let legendWidth = 240.0
  /// The space between the list and the legend, and around the legend's entries, in points.
  public static let gap = 16.0
  /// How much wider than the list the snapshot is: the gap and the legend, in points.
  public static var extraWidth: Double { gap + legendWidth }
  /// The side of a legend entry's colour swatch, in points.
  public static let swatchSize = 14.0

  /// The tint of the element at `index` in reading order.
  public static func tint(at index: Int) -> RGBAColor {
    palette[index % palette.count]
  }
}

extension ListLayout {
  /// `scene` (this layout's list) with its accessibility frames and legend (see
  /// ``AccessibilitySnapshot``): wider by the gap and the legend, and as tall as the taller of
  /// the list and the legend.
  func accessibilitySnapshot(of scene: Scene, frame: Frame) -> Scene {
    typealias Snapshot = AccessibilitySnapshot
    let typography = theme.typography.bodyMedium
    let appearance = TextAppearance(
      fontFamilies: theme.fontFamilies, fontSize: typography.fontSize,
      lineHeight: typography.lineHeight, letterSpacing: 0, weight: typography.regularWeight,
      color: theme.colors.contentDefault, language: frame.language)
    let reader = ScreenReader(platform: frame.platform)
    let textWidth = Snapshot.legendWidth - Snapshot.swatchSize - Snapshot.gap / 2
    let isLTR = frame.direction == .ltr
    // The legend's own x range, before the list is moved right in RTL.
    let legendX = isLTR ? scene.width + Snapshot.gap : 0
    let listShift = isLTR ? 0 : Snapshot.legendWidth + Snapshot.gap

    func paragraph(_ text: String, weight: Int) -> StyledText {
      var styled = appearance
      styled.weight = weight
      return StyledText(spans: [TextSpan(text)], appearance: styled, direction: frame.direction)
    }

    var legend: [ScenePanel] = []
    var y = 0.0
    let headingText = paragraph(
      "\(reader.rawValue) · \(frame.accessibility.language.rawValue)",
      weight: typography.strongWeight)
    let heading = measurer.measure(headingText, wrapWidth: Snapshot.legendWidth)
    legend.append(
      ScenePanel(
        rect: Rect(x: legendX, y: y, width: Snapshot.legendWidth, height: heading.height),
        fill: nil,
        caption: SceneText(
          origin: Point(x: legendX, y: y), wrapWidth: Snapshot.legendWidth,
          alignment: isLTR ? .left : .right, content: headingText)))
    y += heading.height + Snapshot.gap / 2

    var frames: [ScenePanel] = []
    for (index, row) in scene.rows.enumerated() {
      let tint = Snapshot.tint(at: index)
      var translucent = tint
      translucent.alpha = Snapshot.frameAlpha
      frames.append(
        ScenePanel(
          rect: row.marker.rect.union(row.label).offsetBy(dx: listShift, dy: 0),
          fill: translucent, caption: nil))
      let text = paragraph(row.accessibilityLabel, weight: typography.regularWeight)
      let measured = measurer.measure(text, wrapWidth: textWidth)
      let lineHeight = min(measured.height, typography.lineHeight)
      let swatchX = isLTR ? legendX : legendX + Snapshot.legendWidth - Snapshot.swatchSize
      let textX = isLTR ? legendX + Snapshot.swatchSize + Snapshot.gap / 2 : legendX
      legend.append(
        ScenePanel(
          rect: Rect(
            x: swatchX, y: y + (lineHeight - Snapshot.swatchSize) / 2, width: Snapshot.swatchSize,
            height: Snapshot.swatchSize),
          fill: tint, caption: nil))
      legend.append(
        ScenePanel(
          rect: Rect(x: textX, y: y, width: textWidth, height: measured.height), fill: nil,
          caption: SceneText(
            origin: Point(x: textX, y: y), wrapWidth: textWidth,
            alignment: isLTR ? .left : .right, content: text)))
      y += measured.height + Snapshot.gap / 2
    }

    var composed = scene.translated(dx: listShift, dy: 0)
    composed.width = scene.width + Snapshot.extraWidth
    composed.height = max(scene.height, y - Snapshot.gap / 2)
    composed.panels = frames + legend
    return composed
  }
}
