import BulletList
import Layout
import Primitives
import Scene
import Testing
import Themes

/// Every theme × text style, for the numeric checks.
let themeStyles: [(ThemeName, OUDSBulletList.TextStyle)] = ThemeName.allCases.flatMap { theme in
  OUDSBulletList.TextStyle.allCases.map { (theme, $0) }
}

@Suite("Layout numbers come from the tokens")
struct LayoutNumberTests {
  @Test("label x, row pitch and icon rect at every level", arguments: themeStyles)
  func rowGeometry(theme: ThemeName, style: OUDSBulletList.TextStyle) throws {
    let t = try tokens(theme)
    let metrics = t.metrics[style]
    let typography = t.typography[style]
    let scene = try layout(
      threeLevelList(.unordered(asset: .bullet, isBranded: true), style), theme)
    #expect(scene.rows.map(\.level) == [0, 1, 2, 2, 0])

    var expectedTop = metrics.paddingBlock
    for row in scene.rows {
      let indent = t.paddingInline[level: row.level]
      #expect(row.lines == 1)
      #expect(abs(row.marker.rect.x - indent) < 0.001)
      #expect(row.marker.rect.width == metrics.bulletBoxWidth)
      #expect(row.marker.rect.height == typography.lineHeight)
      #expect(abs(row.label.x - (indent + metrics.bulletBoxWidth + metrics.columnGap)) < 0.001)
      #expect(abs(row.label.y - expectedTop) < 0.001)
      #expect(row.label.height == typography.lineHeight)
      let icon = try #require(row.icon)
      #expect(icon.width == metrics.iconSize && icon.height == metrics.iconSize)
      #expect(abs(icon.maxX - (indent + metrics.bulletBoxWidth)) < 0.001)  // end side of the box
      // centred on line 1
      #expect(abs(icon.midY - (row.label.y + typography.lineHeight / 2)) < 0.001)
      expectedTop += typography.lineHeight + 2 * metrics.paddingBlock  // row pitch
    }
    #expect(
      abs(
        scene.height - Double(scene.rows.count) * (typography.lineHeight + 2 * metrics.paddingBlock)
      ) < 0.001)
  }

  /// SPEC §5's table, an oracle independent of the token files: label x per level and pitch.
  @Test(
    "the SPEC §5 table",
    arguments: [
      (ThemeName.orange, OUDSBulletList.TextStyle.bodyLarge, [36.0, 68, 100], 36.0),
      (.orange, .bodyMedium, [32, 64, 96], 32),
      (.sosh, .bodyLarge, [36, 68, 100], 36),
      (.sosh, .bodyMedium, [32, 64, 96], 32),
      (.wireframe, .bodyLarge, [36, 68, 100], 36),
      (.wireframe, .bodyMedium, [32, 64, 96], 32),
      (.orangeCompact, .bodyLarge, [32, 64, 96], 32),
      (.orangeCompact, .bodyMedium, [32, 64, 96], 28),
    ])
  func specTable(theme: ThemeName, style: OUDSBulletList.TextStyle, labelX: [Double], pitch: Double)
    throws
  {
    let scene = try layout(threeLevelList(.bare, style), theme)
    #expect(scene.rows.prefix(3).map(\.label.x) == labelX)
    #expect(scene.rows[1].label.y - scene.rows[0].label.y == pitch)
    #expect(scene.rows.allSatisfy { $0.marker.kind == .none && $0.icon == nil })
  }

  @Test("Orange demo [2] is 720 pt tall (16 rows, 22 lines), as the Android snapshot")
  func demoHeight() throws {
    let scene = try layout(demoList("demo-unordered"), .orange)
    #expect(scene.rows.count == 16)
    #expect(scene.rows.map(\.lines).reduce(0, +) == 22)
    #expect(scene.height == 720)
  }

  @Test(
    "an ordered prefix wider than the box grows it and pushes the label",
    arguments: ThemeName.allCases)
  func boxGrowth(theme: ThemeName) throws {
    let t = try tokens(theme)
    let metrics = t.metrics[.bodyLarge]
    let list = OUDSBulletList(type: .ordered, isBold: true) {
      OUDSBulletList.Item("Parent") {
        for n in 0..<28 { OUDSBulletList.Item("Item \(n)") }
      }
      for n in 1...11 { OUDSBulletList.Item("Item \(n)") }
    }
    let scene = try layout(list, theme)
    let aa = try #require(scene.rows.first { $0.marker.text == "AA." })
    let a = try #require(scene.rows.first { $0.marker.text == "A." })
    let ten = try #require(scene.rows.first { $0.marker.text == "10." })
    for (row, text) in [(aa, "AA."), (a, "A."), (ten, "10.")] {
      let width = try measuredWidth(text, theme: theme, role: .bodyLarge, bold: true)
      let box = max(metrics.bulletBoxWidth, width)
      #expect(abs(row.marker.rect.width - box) < 0.001, "\(text)")
      #expect(
        abs(row.label.x - (t.paddingInline[level: row.level] + box + metrics.columnGap)) < 0.001,
        "\(text)")
    }
    if theme != .wireframe {  // "AA." in bold 16 is wider than 24, except in narrow Comic Neue
      #expect(aa.marker.rect.width > metrics.bulletBoxWidth)
    }
    #expect(a.marker.rect.width == metrics.bulletBoxWidth)
  }

  @Test("long labels wrap at min(available, 640) and the bullet stays on the first line")
  func wrapping() throws {
    let long = String(repeating: "wrap me please ", count: 12)
    let scene = try layout(OUDSBulletList { OUDSBulletList.Item(long) }, .orange)
    let row = scene.rows[0]
    #expect(row.lines > 1)
    #expect(row.label.height == Double(row.lines) * 24)
    #expect(row.text.wrapWidth == 360 - 36)
    #expect(row.label.width <= 360 - 36)
    #expect(row.icon.map { $0.midY } == row.label.y + 12)
    let wide = try layout(
      OUDSBulletList { OUDSBulletList.Item(long + long) }, .orange,
      options: LayoutOptions(width: 2000))
    #expect(wide.rows[0].text.wrapWidth == 640)
  }

  @Test("each row uses its own text style")
  func mixedStyles() throws {
    let list = OUDSBulletList(textStyle: .bodyLarge) {
      OUDSBulletList.Item("Large", subListTextStyle: .bodyMedium) {
        OUDSBulletList.Item("Medium")
      }
    }
    let scene = try layout(list, .sosh)
    #expect(scene.rows[0].marker.rect.width == 24 && scene.rows[0].icon?.width == 20)
    #expect(scene.rows[1].marker.rect.width == 20 && scene.rows[1].icon?.width == 16)
    #expect(scene.rows[1].label.height == 20)
    #expect(scene.rows[1].text.content.appearance.fontSize == 14)
  }

  @Test("shapes follow the nesting depth; tint is brand or default", arguments: ThemeName.allCases)
  func shapesAndTint(theme: ThemeName) throws {
    let t = try tokens(theme, .dark)
    let scene = try layout(
      threeLevelList(.unordered(asset: .bullet, isBranded: true), .bodyLarge), theme, .dark)
    #expect(
      scene.rows.prefix(3).map { $0.glyph?.shape?.name }
        == t.shapes.levels.values.map { Optional($0.name) })
    #expect(
      scene.rows.prefix(3).map { $0.glyph?.shape?.outline }
        == t.shapes.levels.values.map { Optional($0.outline) })
    #expect(scene.rows[0].glyph?.tint.hex == t.colors.contentBrandPrimary.hex)
    let plain = try layout(
      threeLevelList(.unordered(asset: .tick, isBranded: false), .bodyLarge), theme, .dark)
    #expect(
      plain.rows.allSatisfy {
        $0.glyph?.shape?.name == t.shapes.tick.name && $0.marker.kind == .tick
      })
    #expect(plain.rows[0].glyph?.tint.hex == t.colors.contentDefault.hex)
    #expect(scene.background?.hex == t.colors.backgroundPrimary.hex)
    #expect(
      try layout(
        threeLevelList(.bare, .bodyLarge), theme, options: LayoutOptions(background: .none)
      ).background == nil)
  }

  @Test("labels are kept literally: markup characters are plain text")
  func literalLabel() throws {
    let scene = try layout(OUDSBulletList { OUDSBulletList.Item("<b>&amp;") }, .orange)
    #expect(scene.rows[0].text.content.spans == [TextSpan("<b>&amp;")])
    let literal = try measuredWidth("<b>&amp;", theme: .orange, role: .bodyLarge, bold: true)
    #expect(abs(scene.rows[0].label.width - literal) < 0.001)
    #expect(literal > 3 * (try measuredWidth("&", theme: .orange, role: .bodyLarge, bold: true)))
  }
}
