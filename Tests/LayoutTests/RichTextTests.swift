import BulletList
import Graphics
import Layout
import Primitives
import Scene
import Testing
import Themes

@Suite("Rich text")
struct RichTextTests {
  let rich = RichText(runs: [
    .init("Read the "), .init("strong", isStrong: true), .init(" part and the "),
    .init("documentation", link: "https://unified-design-system.orange.com"), .init(" now"),
  ])

  @Test("a link's underline pixels carry the link colour", arguments: themeModes)
  func linkUnderline(theme: ThemeName, mode: ColorMode) throws {
    let t = try tokens(theme, mode)
    let list = OUDSBulletList(type: .bare, isBold: false) { OUDSBulletList.Item(richText: rich) }
    let scale = 3
    let (image, scene) = try rasterize(
      list, theme, mode, scale: scale, options: LayoutOptions(width: 640))
    let row = scene.rows[0]
    #expect(row.lines == 1)
    let spans = row.text.content.spans
    #expect(spans[3].underline && spans[3].color?.hex == t.colors.linkEnabled.hex)
    #expect(spans[3].weight == t.typography[.bodyLarge].strongWeight)
    #expect(spans[1].weight == t.typography[.bodyLarge].strongWeight && !spans[1].underline)

    // Where the link sits: after the width of the text before it, measured with its own weights.
    let before =
      try measuredWidth("Read the ", theme: theme, role: .bodyLarge, bold: false)
      + measuredWidth("strong", theme: theme, role: .bodyLarge, bold: true)
      + measuredWidth(" part and the ", theme: theme, role: .bodyLarge, bold: false)
    let linkWidth = try measuredWidth("documentation", theme: theme, role: .bodyLarge, bold: true)
    let x0 = Int((row.label.x + before + 2) * Double(scale))
    let x1 = Int((row.label.x + before + linkWidth - 2) * Double(scale))
    let baseline = row.label.y + row.firstBaseline
    var bestCoverage = 0.0
    for y in Int(baseline * Double(scale))..<Int((baseline + 5) * Double(scale)) {
      var matching = 0
      for x in x0..<x1 {
        let p = image.pixel(x: x, y: y)
        if RGBAColor(red: p.red, green: p.green, blue: p.blue).hex == t.colors.linkEnabled.hex {
          matching += 1
        }
      }
      bestCoverage = max(bestCoverage, Double(matching) / Double(x1 - x0))
    }
    #expect(
      bestCoverage > 0.95, "no solid underline row of \(t.colors.linkEnabled.hex) below the link")
  }

  @Test("emphasis is italic where the brand allows it, upright with a warning where it does not")
  func emphasis() throws {
    let list = OUDSBulletList(isBold: false) {
      OUDSBulletList.Item(
        richText: RichText(runs: [.init("a "), .init("stressed", isEmphasis: true), .init(" word")])
      )
    }
    for theme in ThemeName.allCases {
      let result = try SharedRenderer.shared.with {
        try $0.layout(list, theme: theme, mode: .light)
      }
      let allows = theme == .sosh || theme == .wireframe
      #expect(result.scene.rows[0].text.content.spans[1].italic == allows)
      #expect(
        result.warnings
          == (allows
            ? []
            : [
              "items[0]: the \(theme.displayName) brand does not allow italic; emphasis is drawn upright"
            ]))
    }
  }
}
