import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import Primitives
import SafeInput
import Scene
@_exported import TestSupport
import Themes
import Threads

/// Width of `text` in the label style of `role`, measured by the real text engine.
func measuredWidth(_ text: String, theme: ThemeName, role: TextStyle, bold: Bool) throws -> Double {
  try SharedRenderer.shared.with { renderer in
    let t = try renderer.themes.theme(theme, mode: .light)
    let typography = t.typography[role]
    let engine = TextEngine(fonts: try renderer.fontSet(for: theme))
    let appearance = TextAppearance(
      fontFamilies: t.fontFamilies, fontSize: typography.fontSize,
      lineHeight: typography.lineHeight,
      letterSpacing: typography.letterSpacing,
      weight: bold ? typography.strongWeight : typography.regularWeight,
      color: RGBAColor(red: 0, green: 0, blue: 0), language: "en")
    return engine.measure(
      StyledText(spans: [TextSpan(text)], appearance: appearance, direction: .ltr), wrapWidth: nil
    ).width
  }
}

/// A three-level list of short single-line labels of one type and style.
func threeLevelList(_ type: OUDSBulletList.ListType, _ style: OUDSBulletList.TextStyle)
  -> OUDSBulletList
{
  OUDSBulletList(type: type, textStyle: style, isBold: false) {
    OUDSBulletList.Item("One") {
      OUDSBulletList.Item("Two") {
        OUDSBulletList.Item("Three")
        OUDSBulletList.Item("Four")
      }
    }
    OUDSBulletList.Item("Five")
  }
}
