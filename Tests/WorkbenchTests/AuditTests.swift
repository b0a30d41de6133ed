import BulletList
import BulletListRenderer
import Foundation
import Layout
import Primitives
import Scene
import TestSupport
import Testing
import Themes
import Workbench

/// WCAG 2.2 luminance and ratio written out here, independently of `WCAGContrast`, so the audit's
/// figures are checked against the definition rather than against themselves.
private func referenceRatio(_ foreground: RGBAColor, _ background: RGBAColor) -> Double {
  func channel(_ v: UInt8) -> Double {
    let c = Double(v) / 255
    return c <= 0.04045 ? c / 12.92 : Foundation.pow((c + 0.055) / 1.055, 2.4)
  }
  func luminance(_ c: RGBAColor) -> Double {
    0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue)
  }
  let a = Double(foreground.alpha) / 255
  func over(_ f: UInt8, _ b: UInt8) -> UInt8 {
    UInt8((Double(f) * a + Double(b) * (1 - a)).rounded())
  }
  let drawn = RGBAColor(
    red: over(foreground.red, background.red), green: over(foreground.green, background.green),
    blue: over(foreground.blue, background.blue))
  let (l1, l2) = (luminance(drawn), luminance(background))
  return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
}

@Suite("Accessibility audit: contrast from the tokens, links, italic, spoken text")
struct AuditTests {
  /// Ordered top level with a link; branded bullets, an unbranded tick and a branded icon below.
  static let list = OUDSBulletList(type: .ordered, textStyle: .bodyLarge, isBold: false) {
    OUDSBulletList.Item(
      richText: RichText(runs: [
        .init("Read "), .init("the guide", link: "https://example.com"), .init(" now"),
      ]),
      subListType: .unordered(asset: .bullet, isBranded: true)
    ) {
      OUDSBulletList.Item("Branded bullet", subListType: .unordered(asset: .tick, isBranded: false))
      {
        OUDSBulletList.Item("Tick")
      }
      OUDSBulletList.Item("Second branded bullet")
    }
    OUDSBulletList.Item(
      "Icons below",
      subListType: .unordered(
        asset: .icon(
          .init(file: repositoryRoot.appendingPathComponent("Snapshots/cases/heart.svg").path)),
        isBranded: true)
    ) {
      OUDSBulletList.Item("Branded icon")
    }
  }

  func audit(
    list: OUDSBulletList = AuditTests.list, _ theme: ThemeName, _ mode: ColorMode,
    options: LayoutOptions = LayoutOptions()
  ) throws -> (AccessibilityAudit, Scene, [String: ResolvedToken]) {
    try SharedRenderer.shared.with { renderer in
      let audit = try renderer.audit(list, theme: theme, mode: mode, options: options).audit
      let scene = try renderer.layout(list, theme: theme, mode: mode, options: options).scene
      var tokens: [String: ResolvedToken] = [:]
      for token in try renderer.themes.tokens(theme, mode: mode) { tokens[token.path] = token }
      return (audit, scene, tokens)
    }
  }

  func color(_ path: String, _ tokens: [String: ResolvedToken]) throws -> RGBAColor {
    guard case .color(let c)? = tokens[path]?.value else {
      throw CLIFailure("\(path) is not a colour token")
    }
    return c
  }

  struct CLIFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  @Test(
    "every theme and mode: each colour's ratio, requirement, pass/fail, token and file come from the tokens",
    arguments: ThemeName.allCases.flatMap { theme in ColorMode.allCases.map { (theme, $0) } })
  func figuresFromTokens(_ theme: ThemeName, _ mode: ColorMode) throws {
    let (audit, _, resolved) = try audit(theme, mode)
    let background = try color("color.bg.primary", resolved)
    #expect(audit.background == background)
    #expect(audit.backgroundToken.path == "color.bg.primary")
    #expect(audit.backgroundToken.file == resolved["color.bg.primary"]?.file)
    let typography = try tokens(theme, mode).typography.bodyLarge
    func textRequirement(weight: Int) -> ContrastRequirement {
      typography.fontSize >= 24 || (weight >= 700 && typography.fontSize >= 18.66)
        ? .largeText : .text
    }
    let expected: [(ContrastCheck.Element, String, ContrastRequirement, [String])] = [
      (
        .label, "color.content.default", textRequirement(weight: typography.regularWeight),
        [
          "items[0]", "items[0].items[0]", "items[0].items[0].items[0]", "items[0].items[1]",
          "items[1]", "items[1].items[0]",
        ]
      ),
      (
        .orderedPrefix, "color.content.default", textRequirement(weight: typography.regularWeight),
        ["items[0]", "items[1]"]
      ),
      (
        .link, "link.color.content.enabled", textRequirement(weight: typography.strongWeight),
        ["items[0]"]
      ),
      (.bullet, "color.content.default", .nonText, []),
      (
        .brandedBullet, "color.content.brand-primary", .nonText,
        ["items[0].items[0]", "items[0].items[1]"]
      ),
      (.tick, "color.content.default", .nonText, ["items[0].items[0].items[0]"]),
      (.brandedTick, "color.content.brand-primary", .nonText, []),
      (.icon, "color.content.default", .nonText, []),
      (.brandedIcon, "color.content.brand-primary", .nonText, ["items[1].items[0]"]),
    ]
    #expect(audit.contrast.map(\.element) == expected.map(\.0))
    for (check, (element, path, requirement, rows)) in zip(audit.contrast, expected) {
      let tokenColor = try color(path, resolved)
      let ratio = referenceRatio(tokenColor, background)
      #expect(check.token.path == path, "\(element)")
      #expect(check.token.file == resolved[path]?.file, "\(element)")
      #expect(check.token.aliases.map(\.path) == resolved[path]?.aliasChain, "\(element)")
      #expect(check.color == tokenColor, "\(element)")
      #expect(abs(check.ratio - ratio) < 1e-9, "\(element): \(check.ratio) vs \(ratio)")
      #expect(check.requirement == requirement, "\(element)")
      #expect(check.passes == (ratio >= requirement.minimum), "\(element)")
      #expect(check.rows == rows, "\(element)")
    }
    let link = audit.linkDistinction
    #expect(link.isUnderlined && link.isBolder && !link.requiresRatio && link.passes)
    #expect(
      abs(
        link.ratio
          - referenceRatio(
            try color("link.color.content.enabled", resolved),
            try color("color.content.default", resolved))) < 1e-9)
    #expect(link.rows == ["items[0]"])
    #expect(audit.italic.isEmpty)
    #expect(audit.failures.count == audit.contrast.filter { !$0.passes }.count)
  }

  @Test("the shipped themes pass every check in every theme and mode")
  func shippedThemesPass() throws {
    for theme in ThemeName.allCases {
      for mode in ColorMode.allCases {
        let (audit, scene, _) = try audit(theme, mode)
        #expect(audit.failures.isEmpty, "\(theme) \(mode): \(audit.failures)")
        // the checks ran: one contrast check per element, each passing by the WCAG ratio
        // computed here from its colours, the text sizes, the link and the spoken rows
        #expect(
          audit.contrast.map(\.element) == [
            .label, .orderedPrefix, .link, .bullet, .brandedBullet, .tick, .brandedTick, .icon,
            .brandedIcon,
          ], "\(theme) \(mode)")
        for check in audit.contrast {
          let ratio = referenceRatio(check.color, audit.background)
          #expect(ratio >= check.requirement.minimum, "\(theme) \(mode) \(check.element): \(ratio)")
          #expect(check.passes, "\(theme) \(mode) \(check.element)")
        }
        #expect(!audit.textSizes.isEmpty, "\(theme) \(mode)")
        for size in audit.textSizes {
          #expect(size.fontSize >= AccessibilityAudit.minimumFontSize && size.passes)
        }
        #expect(audit.linkDistinction.passes && audit.linkDistinction.rows == ["items[0]"])
        #expect(audit.spoken.count == scene.rows.count && !scene.rows.isEmpty)
      }
    }
  }

  @Test("spoken text is Layout's accessibility label of every row, in reading order, per locale")
  func spoken() throws {
    let (english, scene, _) = try audit(.orange, .light)
    #expect(english.spoken.map(\.text) == scene.rows.map(\.accessibilityLabel))
    #expect(english.spoken.map(\.row) == scene.rows.map(\.path))
    #expect(english.language == "en")
    #expect(english.spoken.first?.text == "1., Read the guide now, 2 sub-items")
    #expect(english.spoken[1].text == "Branded bullet, level 2, 1 sub-item")
    let (french, _, _) = try audit(.sosh, .dark, options: LayoutOptions(locale: "fr-FR"))
    #expect(french.language == "fr")
    #expect(french.spoken[1].text == "Branded bullet, niveau 2, 1 sous-élément")
    let (arabic, arabicScene, _) = try audit(
      .wireframe, .light, options: LayoutOptions(locale: "ar"))
    #expect(arabic.language == "ar")
    #expect(arabic.spoken.map(\.text) == arabicScene.rows.map(\.accessibilityLabel))
    #expect(arabic.spoken[0].text == "1., Read the guide now, عنصران فرعيان")
  }

  @Test("emphasis is a finding in Orange and Orange Compact (no italic), not in Sosh or Wireframe")
  func italic() throws {
    let list = OUDSBulletList(type: .unordered(), isBold: false) {
      OUDSBulletList.Item(
        richText: RichText(runs: [.init("a "), .init("stressed", isEmphasis: true), .init(" word")])
      )
      OUDSBulletList.Item("plain")
    }
    for theme in ThemeName.allCases {
      let (audit, _, _) = try audit(list: list, theme, .light)
      if theme == .orange || theme == .orangeCompact {
        #expect(!audit.allowsItalic)
        #expect(audit.italic == [ItalicFinding(row: "items[0]", text: "stressed")])
        #expect(audit.failures.contains { $0.hasPrefix("items[0]: emphasis \"stressed\"") })
      } else {
        #expect(audit.allowsItalic && audit.italic.isEmpty)
      }
    }
  }

  @Test("large text: 24 px, or 18.66 px and bold")
  func largeText() {
    #expect(ContrastRequirement.forText(fontSize: 24, weight: 400) == .largeText)
    #expect(ContrastRequirement.forText(fontSize: 23.9, weight: 400) == .text)
    #expect(ContrastRequirement.forText(fontSize: 18.66, weight: 700) == .largeText)
    #expect(ContrastRequirement.forText(fontSize: 18.6, weight: 700) == .text)
    #expect(ContrastRequirement.forText(fontSize: 20, weight: 600) == .text)
    #expect(ContrastRequirement.text.minimum == 4.5 && ContrastRequirement.largeText.minimum == 3)
    #expect(ContrastRequirement.nonText.minimum == 3)
  }

  @Test("a bold list's labels are held to the rule of their strong weight")
  func boldList() throws {
    let list = OUDSBulletList(type: .unordered(), isBold: true) { OUDSBulletList.Item("Bold") }
    for theme in ThemeName.allCases {
      let (audit, _, _) = try audit(list: list, theme, .light)
      let typography = try tokens(theme).typography.bodyLarge
      let label = try #require(audit.contrast.first { $0.element == .label })
      #expect(
        label.requirement
          == .forText(fontSize: typography.fontSize, weight: typography.strongWeight))
    }
  }

  @Test(
    "the report's text names each colour's token chain and file; its JSON is stable and complete")
  func report() throws {
    let report = try SharedRenderer.shared.with { renderer in
      try renderer.auditReport(
        AuditTests.list, listName: "list.json", combinations: [(.orange, .light), (.sosh, .dark)])
    }
    let text = report.text
    #expect(
      text.contains(
        "Orange · light · iOS: background #FFFFFF, color.bg.primary (brands/orange/light.tokens.json)"
      ))
    #expect(
      text.contains(
        "link.color.content.enabled (components/link.tokens.json) → color.action.enabled (brands/orange/light.tokens.json) → color.raw.functional.black (core/color.tokens.json)"
      ))
    #expect(text.contains("Sosh · dark · iOS"))
    #expect(
      text.contains(
        "Screen-reader text (VoiceOver's rules, English), every theme and mode, in reading order:"))
    #expect(text.contains("No failures in 2 audits."))
    let json = try report.json()
    #expect(json == (try report.json()))
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(document["passed"] as? Bool == true)
    #expect(document["list"] as? String == "list.json")
    let audits = try #require(document["audits"] as? [[String: Any]])
    #expect(audits.map { $0["theme"] as? String } == ["orange", "sosh"])
    let contrast = try #require(audits[0]["contrast"] as? [[String: Any]])
    #expect(contrast.count == 9)
    #expect(contrast[0]["ratio"] as? Double == 21)
    #expect(contrast[0]["minimum"] as? Double == 4.5)
    #expect((audits[1]["spoken"] as? [[String: Any]])?.count == 6)
  }
}
