import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import Primitives
import SafeInput
import Scene
import Themes
import Threads

/// The repository root, found from this file's location.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// One renderer for the whole suite (fonts are loaded once); tests run in parallel, so each uses
/// it while holding its lock (a renderer is not thread-safe, which is why this is `@unchecked`).
final class SharedRenderer: @unchecked Sendable {
  static let shared = SharedRenderer()
  private let renderer = Locked<BulletListRenderer?>(nil)

  func with<T>(_ body: (BulletListRenderer) throws -> T) throws -> T {
    try renderer.withLock { (cached: inout BulletListRenderer?) throws -> T in
      let renderer =
        try cached
        ?? BulletListRenderer(themesDirectory: repositoryRoot.appendingPathComponent("Themes"))
      cached = renderer
      return try body(renderer)
    }
  }
}

func layout(
  _ list: OUDSBulletList, _ theme: ThemeName, _ mode: ColorMode = .light,
  options: LayoutOptions = LayoutOptions()
) throws -> Scene {
  try SharedRenderer.shared.with {
    try $0.layout(list, theme: theme, mode: mode, options: options).scene
  }
}

func tokens(_ theme: ThemeName, _ mode: ColorMode = .light) throws -> Theme {
  try SharedRenderer.shared.with { try $0.themes.theme(theme, mode: mode) }
}

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
