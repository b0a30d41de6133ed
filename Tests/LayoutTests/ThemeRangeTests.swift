import BulletList
import BulletListRenderer
import Graphics
import Layout
import Primitives
import Scene
import Testing
import Themes

/// A `Theme` built in code gets the same range checks as one read from token files.
@Suite("Theme values in range")
struct ThemeRangeTests {
  /// A measurer that is never reached: the checks run before any text is measured.
  struct NoMeasurer: TextMeasuring {
    func measure(_ text: StyledText, wrapWidth: Double?) -> TextMetrics {
      TextMetrics(width: 10, height: 24, lineCount: 1, firstBaseline: 18)
    }
  }

  @Test("a zero font size or a negative padding in a hand-built theme is a layout error naming it")
  func handBuiltTheme() throws {
    let base = try tokens(.orange)
    let list = OUDSBulletList { OUDSBulletList.Item("Label") }
    var zeroFont = base
    var large = zeroFont.typography[.bodyLarge]
    large.fontSize = 0
    zeroFont.typography = PerTextStyle(
      bodyLarge: large, bodyMedium: zeroFont.typography[.bodyMedium])
    #expect(
      throws: LayoutError.valueOutOfRange(
        theme: "orange-light", value: "body-large font size", number: 0, range: .fontSize)
    ) {
      try ListLayout(theme: zeroFont, measurer: NoMeasurer()).layout(list)
    }
    #expect(
      LayoutError.valueOutOfRange(
        theme: "orange-light", value: "body-large font size", number: 0, range: .fontSize
      )
      .description
        == "theme orange-light: body-large font size 0 px is out of range: the renderer needs 1 ≤ value ≤ 200 px"
    )
    var negativePadding = base
    negativePadding.paddingInline = PerLevel(
      -4, base.paddingInline[level: 1], base.paddingInline[level: 2])
    #expect(
      throws: LayoutError.valueOutOfRange(
        theme: "orange-light", value: "body-large padding inline", number: -4, range: .spacing)
    ) {
      try ListLayout(theme: negativePadding, measurer: NoMeasurer()).layout(list)
    }
    // Positive is not enough: a 1e-9 px font or icon would draw nothing that can be seen.
    var tinyFont = base
    var medium = tinyFont.typography[.bodyLarge]
    medium.fontSize = 1e-9
    tinyFont.typography = PerTextStyle(
      bodyLarge: medium, bodyMedium: tinyFont.typography[.bodyMedium])
    #expect(
      throws: LayoutError.valueOutOfRange(
        theme: "orange-light", value: "body-large font size", number: 1e-9, range: .fontSize)
    ) {
      try ListLayout(theme: tinyFont, measurer: NoMeasurer()).layout(list)
    }
    var tinyIcon = base
    var metrics = tinyIcon.metrics[.bodyLarge]
    metrics.iconSize = 0
    tinyIcon.metrics = PerTextStyle(bodyLarge: metrics, bodyMedium: tinyIcon.metrics[.bodyMedium])
    #expect(
      throws: LayoutError.valueOutOfRange(
        theme: "orange-light", value: "body-large icon size", number: 0, range: .iconSize)
    ) {
      try ListLayout(theme: tinyIcon, measurer: NoMeasurer()).layout(list)
    }
    #expect(throws: Never.self) { try ListLayout(theme: base, measurer: NoMeasurer()).layout(list) }
  }
}
