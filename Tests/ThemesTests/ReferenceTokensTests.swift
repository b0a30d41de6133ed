import Foundation
import Primitives
import Testing

@testable import Themes

/// Every number and colour of every theme and mode equals the OUDS reference token files.
@Suite("Themes match the OUDS reference tokens")
struct ReferenceTokensTests {
  static let contexts: [(ThemeName, ColorMode)] = ThemeName.allCases.flatMap { n in
    ColorMode.allCases.map { (n, $0) }
  }

  /// `bulletList.spacePaddingInlineLevel0` → `bullet-list.space.padding-inline.level-0`,
  /// `size.icon.withBody.large.sizeMedium` → `size.icon.with-body.large.size-medium`,
  /// `link.colorContentEnabled -> color.action.enabled` → both sides.
  static func tokenPaths(forReferenceName name: String) -> [String] {
    name.components(separatedBy: " -> ").map { part in
      let segments = part.split(separator: ".").map(String.init)
      func words(_ s: String) -> [String] {
        var out: [String] = []
        var current = ""
        for ch in s {
          if (ch.isUppercase || (ch.isNumber && !(current.last?.isNumber ?? true)))
            && !current.isEmpty
          {
            out.append(current)
            current = ""
          }
          current.append(Character(ch.lowercased()))
        }
        if !current.isEmpty { out.append(current) }
        return out
      }
      if segments.first == "bulletList", segments.count == 2 {
        // spacePaddingInlineLevel0 → space.padding-inline.level-0
        let w = words(segments[1])
        return
          (["bullet-list", w[0], w[1..<(w.count - 2)].joined(separator: "-")]
          + [w[(w.count - 2)...].joined(separator: "-")]).joined(separator: ".")
      }
      if segments.first == "link", segments.count == 2 {
        return (["link"] + words(segments[1])).joined(separator: ".")
      }
      return segments.map { words($0).joined(separator: "-") }.joined(separator: ".")
    }
  }

  /// Every `{value, token}` leaf of a reference document, with its JSON location.
  static func referenceLeaves(_ json: Any, at location: String = "") -> [(String, Any, String)] {
    if let dict = json as? [String: Any] {
      if let value = dict["value"], let token = dict["token"] as? String {
        return [(location, value, token)]
      }
      return dict.keys.sorted().flatMap {
        referenceLeaves(dict[$0] as Any, at: location.isEmpty ? $0 : "\(location).\($0)")
      }
    }
    return []
  }

  static func matches(_ value: TokenValue, _ expected: Any) -> Bool {
    switch value {
    case .dimension(let v, "px"): (expected as? NSNumber)?.doubleValue == v
    case .fontWeight(let w): (expected as? NSNumber)?.intValue == w
    case .color(let c): (expected as? String) == c.hex
    default: false
    }
  }

  @Test(
    "every reference token exists under its OUDS name and has the reference value",
    arguments: contexts)
  func everyReferenceToken(name: ThemeName, mode: ColorMode) throws {
    let library = try Fixture.loadLibrary()
    let tokens = Dictionary(
      try library.tokens(name, mode: mode).map { ($0.path, $0) }, uniquingKeysWith: { _, b in b })
    let reference = try Fixture.reference(name)
    var leaves =
      Self.referenceLeaves(reference["spacing"] as Any, at: "spacing")
      + Self.referenceLeaves(reference["sizes"] as Any, at: "sizes")
      + Self.referenceLeaves(reference["typography"] as Any, at: "typography")
    let colors = try #require((reference["colors"] as? [String: Any])?[mode.rawValue])
    leaves += Self.referenceLeaves(colors, at: "colors.\(mode.rawValue)")
    #expect(leaves.count >= 25)
    for (location, expected, referenceName) in leaves {
      for path in Self.tokenPaths(forReferenceName: referenceName) {
        let token = try #require(tokens[path], "\(name)-\(mode): \(location): no token \(path)")
        #expect(
          Self.matches(token.value, expected),
          "\(name)-\(mode): \(path) = \(token.value), reference \(location) = \(expected)")
      }
    }
    // Icon sizes listed without token names.
    let iconReference = try #require(
      (reference["sizes"] as? [String: Any])?["iconWithBodyReference"] as? [String: [String: Any]])
    for (style, sizes) in iconReference {
      for (size, expected) in sizes {
        let path =
          "size.icon.with-body.\(style == "bodyLarge" ? "large" : "medium").\(Self.tokenPaths(forReferenceName: size)[0])"
        let token = try #require(tokens[path], "\(name)-\(mode): no token \(path)")
        #expect(
          Self.matches(token.value, expected),
          "\(name)-\(mode): \(path) = \(token.value), reference \(expected)")
      }
    }
  }

  @Test("the Theme value holds the reference numbers and colours", arguments: contexts)
  func themeValue(name: ThemeName, mode: ColorMode) throws {
    let theme = try Fixture.loadLibrary().theme(name, mode: mode)
    let reference = try Fixture.reference(name)
    func number(_ path: String) throws -> Double {
      var node: Any? = reference
      for key in path.split(separator: ".") { node = (node as? [String: Any])?[String(key)] }
      return try #require(
        (node as? NSNumber)?.doubleValue, "reference \(name).json has no number at \(path)")
    }
    func string(_ path: String) throws -> String {
      var node: Any? = reference
      for key in path.split(separator: ".") { node = (node as? [String: Any])?[String(key)] }
      return try #require(node as? String, "reference \(name).json has no string at \(path)")
    }
    #expect(theme.name == name)
    #expect(theme.mode == mode)
    #expect(
      theme.paddingInline.values == [
        try number("spacing.paddingInlineStart.level0.value"),
        try number("spacing.paddingInlineStart.level1.value"),
        try number("spacing.paddingInlineStart.level2.value"),
      ])
    for (style, key) in [(TextStyle.bodyLarge, "bodyLarge"), (.bodyMedium, "bodyMedium")] {
      let m = theme.metrics[style]
      #expect(m.columnGap == (try number("spacing.columnGap.\(key).value")))
      #expect(m.paddingBlock == (try number("spacing.paddingBlock.\(key).value")))
      #expect(m.bulletBoxWidth == (try number("sizes.bulletContainerMinWidth.\(key).value")))
      #expect(m.iconSize == (try number("sizes.bulletIconSize.\(key).value")))
      #expect(m.labelMaxWidth == (try number("sizes.labelMaxWidth.\(key).value")))
      let t = theme.typography[style]
      #expect(t.fontSize == (try number("typography.\(key).fontSize.value")))
      #expect(t.lineHeight == (try number("typography.\(key).lineHeight.value")))
      #expect(t.lineHeight == (try number("sizes.bulletContainerMaxHeight.\(key).value")))
      #expect(t.letterSpacing == (try number("typography.\(key).letterSpacing.value")))
      #expect(Double(t.regularWeight) == (try number("typography.\(key).weightDefault.value")))
      #expect(Double(t.strongWeight) == (try number("typography.\(key).weightStrong.value")))
      // The derived layout of the reference follows from these numbers.
      let labelX = try #require(
        ((reference["derivedLayoutLTR"] as? [String: Any])?["values"] as? [String: Any])
          .flatMap { ($0[key] as? [String: Any])?["labelStartX"] as? [NSNumber] })
      #expect(
        labelX.map(\.doubleValue)
          == theme.paddingInline.values.map { $0 + m.bulletBoxWidth + m.columnGap })
      let pitch = try number("derivedLayoutLTR.values.\(key).singleLineRowHeight")
      #expect(pitch == 2 * m.paddingBlock + t.lineHeight)
    }
    let c = "colors.\(mode.rawValue)"
    #expect(theme.colors.contentDefault.hex == (try string("\(c).text.value")))
    #expect(theme.colors.contentDefault.hex == (try string("\(c).bulletDefault.value")))
    #expect(theme.colors.contentBrandPrimary.hex == (try string("\(c).bulletBrand.value")))
    #expect(theme.colors.backgroundPrimary.hex == (try string("\(c).background.value")))
    #expect(theme.colors.linkEnabled.hex == (try string("\(c).link.enabled.value")))
    #expect(theme.fontFamilies.first == (try string("typography.fontFamily.family")))
  }

  @Test("font families: brand, open substitute, Arabic")
  func fontFamilies() throws {
    let library = try Fixture.loadLibrary()
    let expected: [ThemeName: [String]] = [
      .orange: ["Helvetica Neue", "Liberation Sans", "Noto Sans Arabic UI"],
      .orangeCompact: ["Helvetica Neue", "Liberation Sans", "Noto Sans Arabic UI"],
      .sosh: ["Sosh", "Inter", "Noto Sans Arabic UI"],
      .wireframe: ["Shantell Sans", "Comic Neue", "Noto Sans Arabic UI"],
    ]
    for (name, families) in expected {
      for mode in ColorMode.allCases {
        #expect(try library.theme(name, mode: mode).fontFamilies == families)
      }
    }
  }

  @Test("marker files and the italic rule come from components/bullet-list.spec.json")
  func shapesAndItalic() throws {
    let library = try Fixture.loadLibrary()
    let orange = [
      "orange/square.svg", "orange/bar.svg", "orange/small-square.svg", "orange/tick.svg",
    ]
    let expected: [ThemeName: ([String], Bool)] = [
      .orange: (orange, false),
      .orangeCompact: (orange, false),
      .sosh: (["sosh/disc.svg", "sosh/pill.svg", "sosh/small-disc.svg", "sosh/tick.svg"], true),
      .wireframe: (
        [
          "wireframe/sparkle.svg", "wireframe/sparkle-thick-outline.svg",
          "wireframe/sparkle-thin-outline.svg",
          "wireframe/tick.svg",
        ], true
      ),
    ]
    for (name, (files, italic)) in expected {
      for mode in ColorMode.allCases {
        let theme = try library.theme(name, mode: mode)
        let assets = theme.shapes.levels.values + [theme.shapes.tick]
        #expect(assets.map(\.file) == files)
        // The scene name is the folder and the file name without extension.
        #expect(
          assets.map(\.name)
            == files.map {
              $0.replacingOccurrences(of: ".svg", with: "").replacingOccurrences(of: "/", with: ".")
            })
        #expect(assets.allSatisfy { !$0.outline.paths.isEmpty && $0.outline.viewBox.width == 24 })
        #expect(theme.allowsItalic == italic)
      }
    }
    // Orange Compact reuses Orange's files: the same outlines.
    #expect(
      try library.theme(.orangeCompact, mode: .light).shapes
        == library.theme(.orange, mode: .dark).shapes)
  }

  @Test("Orange Compact overrides only values that differ from Orange")
  func compactOverridesOnlyDifferences() throws {
    let library = try Fixture.loadLibrary()
    for mode in ColorMode.allCases {
      let orange = Dictionary(
        try library.tokens(.orange, mode: mode).map { ($0.path, $0.value) },
        uniquingKeysWith: { _, b in b })
      let compact = try library.tokens(.orangeCompact, mode: mode)
      #expect(Set(compact.map(\.path)) == Set(orange.keys))
      let overridden = compact.filter { $0.file == "brands/orange-compact/brand.tokens.json" }
      #expect(!overridden.isEmpty)
      for token in overridden {
        #expect(
          orange[token.path] != token.value, "\(token.path) is overridden with Orange's own value")
      }
    }
  }

  @Test("the link colour aliases color.action.enabled, except in Sosh (color.content.default)")
  func linkAlias() throws {
    let library = try Fixture.loadLibrary()
    for name in ThemeName.allCases {
      for mode in ColorMode.allCases {
        let link = try #require(
          try library.tokens(name, mode: mode).first { $0.path == "link.color.content.enabled" })
        #expect(
          link.aliasChain.first
            == (name == .sosh ? "color.content.default" : "color.action.enabled"))
      }
    }
  }

  @Test("every token the renderer reads is present in every context")
  func requiredTokensPresent() throws {
    let library = try Fixture.loadLibrary()
    for (name, mode) in Self.contexts {
      let paths = Set(try library.tokens(name, mode: mode).map(\.path))
      for required in ThemeBuilder.requiredTokens {
        #expect(paths.contains(required), "\(name)-\(mode) lacks \(required)")
      }
    }
  }
}
