import BulletList
import Primitives
import Scene
import Themes

/// Where a colour comes from: the token, the file whose definition won, and each alias followed
/// with its file, down to the token that holds the value.
public struct TokenReference: Codable, Hashable, Sendable, CustomStringConvertible {
  /// One token of the chain: its path and the file (relative to the themes folder) defining it.
  public struct Step: Codable, Hashable, Sendable {
    /// The token path, e.g. `color.action.enabled`.
    public var path: String
    /// The file that defines it for this theme and mode, e.g. `brands/orange/light.tokens.json`.
    public var file: String

    /// Creates a step.
    public init(path: String, file: String) {
      self.path = path
      self.file = file
    }
  }

  /// The token path, e.g. `color.content.default`.
  public var path: String
  /// The file that defines the token for this theme and mode.
  public var file: String
  /// The aliases followed to the value, in order, each with its file (empty for a literal).
  public var aliases: [Step]

  /// Creates a reference.
  public init(path: String, file: String, aliases: [Step] = []) {
    self.path = path
    self.file = file
    self.aliases = aliases
  }

  /// The reference of `path` among a theme's resolved tokens; the path alone when it is missing.
  init(path: String, tokens: [String: ResolvedToken]) {
    guard let token = tokens[path] else {
      self.init(path: path, file: "")
      return
    }
    self.init(
      path: path, file: token.file,
      aliases: token.aliasChain.map { Step(path: $0, file: tokens[$0]?.file ?? "") })
  }

  /// `link.color.content.enabled (components/link.tokens.json) → color.action.enabled
  /// (brands/orange/light.tokens.json) → color.raw.functional.black (core/color.tokens.json)`:
  /// every place an edit changes the colour.
  public var description: String {
    ([Step(path: path, file: file)] + aliases).map {
      $0.file.isEmpty ? $0.path : "\($0.path) (\($0.file))"
    }
    .joined(separator: " → ")
  }
}

/// The WCAG 2.2 contrast requirement a colour is held to.
public enum ContrastRequirement: String, Codable, Hashable, Sendable {
  /// Text (1.4.3 Contrast (Minimum)): 4.5:1.
  case text
  /// Large text, at least 24 px, or 18.66 px in bold (1.4.3): 3:1.
  case largeText
  /// Graphical objects such as bullets, ticks and icons (1.4.11 Non-text Contrast): 3:1.
  case nonText

  /// The smallest ratio that passes.
  public var minimum: Double {
    switch self {
    case .text: 4.5
    case .largeText, .nonText: 3
    }
  }

  /// The minimum as written in WCAG: `4.5`, `3`.
  public var minimumText: String { self == .text ? "4.5" : "3" }

  /// The success criterion, e.g. `1.4.3`.
  public var criterion: String {
    switch self {
    case .text, .largeText: "1.4.3"
    case .nonText: "1.4.11"
    }
  }

  /// `text`, `large text`, `non-text`.
  public var words: String {
    switch self {
    case .text: "text"
    case .largeText: "large text"
    case .nonText: "non-text"
    }
  }

  /// The requirement of text of `fontSize` points (CSS px) and `weight`: large text is at least
  /// 24 px, or at least 18.66 px (14 pt) and bold (weight 700 or more).
  public static func forText(fontSize: Double, weight: Int) -> ContrastRequirement {
    fontSize >= 24 || (weight >= 700 && fontSize >= 18.66) ? .largeText : .text
  }
}

/// One colour of the list checked against the background.
public struct ContrastCheck: Codable, Hashable, Sendable {
  /// What is drawn in the colour.
  public enum Element: String, Codable, CaseIterable, Hashable, Sendable {
    /// Label text.
    case label
    /// Ordered prefix (`1.`, `A.`).
    case orderedPrefix
    /// Link text.
    case link
    /// Bullet of an unbranded list.
    case bullet
    /// Bullet of a branded list.
    case brandedBullet
    /// Check mark of an unbranded list.
    case tick
    /// Check mark of a branded list.
    case brandedTick
    /// Free icon, tinted, in an unbranded list.
    case icon
    /// Free icon, tinted, in a branded list.
    case brandedIcon

    /// `label`, `ordered prefix`, `branded bullet`…
    public var words: String {
      switch self {
      case .label: "label"
      case .orderedPrefix: "ordered prefix"
      case .link: "link"
      case .bullet: "bullet"
      case .brandedBullet: "branded bullet"
      case .tick: "tick"
      case .brandedTick: "branded tick"
      case .icon: "icon tint"
      case .brandedIcon: "branded icon tint"
      }
    }

    /// Whether the element is text (else a graphical mark).
    public var isText: Bool { self == .label || self == .orderedPrefix || self == .link }
  }

  /// What is drawn in the colour.
  public var element: Element
  /// The token the colour is read from.
  public var token: TokenReference
  /// The colour as the token resolves (may be translucent).
  public var color: RGBAColor
  /// The colour as drawn: composited over the background.
  public var drawn: RGBAColor
  /// The WCAG contrast ratio of `drawn` against the background.
  public var ratio: Double
  /// The requirement that applies.
  public var requirement: ContrastRequirement
  /// Whether `ratio` reaches the requirement's minimum.
  public var passes: Bool
  /// The item paths that draw it; empty when the list does not use it (it is checked for the
  /// theme all the same).
  public var rows: [String]
}

/// Whether links can be told from the text around them (WCAG 2.2 1.4.1 Use of Color).
///
/// A link told apart by its colour alone needs 3:1 against the surrounding text (technique
/// G183); a link that also has a non-colour cue (underline, bold) meets 1.4.1 through that cue,
/// and the ratio is shown for information.
public struct LinkDistinction: Codable, Hashable, Sendable {
  /// The link colour's token.
  public var linkToken: TokenReference
  /// The surrounding text's token.
  public var textToken: TokenReference
  /// The link colour as drawn.
  public var link: RGBAColor
  /// The text colour as drawn.
  public var text: RGBAColor
  /// The contrast ratio of the two.
  public var ratio: Double
  /// Whether links are underlined.
  public var isUnderlined: Bool
  /// Whether links are bolder than the text around them.
  public var isBolder: Bool
  /// Whether the 3:1 ratio is required (only when colour is the only cue).
  public var requiresRatio: Bool
  /// Whether 1.4.1 is met.
  public var passes: Bool
  /// The item paths with a link; empty when the list has none (the theme is checked all the same).
  public var rows: [String]

  /// The ratio required when colour is the only cue.
  public static let minimum = 3.0

  /// The rule that applies, in words.
  public var rule: String {
    var cues: [String] = []
    if isUnderlined { cues.append("underlined") }
    if isBolder { cues.append("bold") }
    if cues.isEmpty {
      return "colour is the only cue: WCAG 1.4.1 needs 3:1 against the surrounding text (G183)"
    }
    return
      "links are \(cues.joined(separator: " and ")): colour is not the only cue, so WCAG 1.4.1 is met without 3:1 (G183 does not apply)"
  }
}

/// Emphasis in a label of a brand that forbids italic (it is drawn upright).
public struct ItalicFinding: Codable, Hashable, Sendable {
  /// The item path.
  public var row: String
  /// The emphasised text.
  public var text: String

  /// Creates a finding.
  public init(row: String, text: String) {
    self.row = row
    self.text = text
  }
}

/// The size of the text of one text style as the list draws it, against the smallest size the
/// audit takes as readable (``AccessibilityAudit/minimumFontSize``).
public struct TextSizeCheck: Codable, Hashable, Sendable {
  /// The font-size token of the text style, e.g. `typography.body-large.font-size`, and its file.
  public var token: TokenReference
  /// The font size the text is drawn at, in px.
  public var fontSize: Double
  /// Whether `fontSize` is at least ``AccessibilityAudit/minimumFontSize``.
  public var passes: Bool
  /// The item paths whose label or ordered prefix is drawn at this size.
  public var rows: [String]
}

/// What a screen reader says for one row.
public struct SpokenRow: Codable, Hashable, Sendable {
  /// The item path.
  public var row: String
  /// The text, as ``AccessibilityText`` builds it (VoiceOver's rules for iOS, TalkBack's for
  /// Android).
  public var text: String

  /// Creates a spoken row.
  public init(row: String, text: String) {
    self.row = row
    self.text = text
  }
}

/// The accessibility audit of one list in one theme, mode and platform: the WCAG 2.2 contrast
/// of every text and marker colour against `color.bg.primary`, text too small to be seen,
/// whether links can be told from text, italic the brand forbids, and the screen-reader text of
/// every row in reading order.
///
/// Built from the laid-out scene (what is drawn, at which size and weight, and the
/// accessibility label Layout computed for each row), the list's rows (branded or not,
/// emphasis) and the theme's resolved tokens (which token and file each colour comes from).
public struct AccessibilityAudit: Codable, Hashable, Sendable {
  /// The theme.
  public var theme: ThemeName
  /// The mode.
  public var mode: ColorMode
  /// Whose rules the list was laid out with.
  public var platform: Platform
  /// The text size other than the default the list was laid out at (`font scale 2`,
  /// `accessibility5`), nil at the default: large text needs less contrast (WCAG 1.4.3).
  public var textSize: String?
  /// The language of the spoken text (`en`, `fr`, `ar`).
  public var language: String
  /// The background's token.
  public var backgroundToken: TokenReference
  /// The background colour (composited over white when translucent).
  public var background: RGBAColor
  /// Every text and marker colour against the background, in ``ContrastCheck/Element`` order.
  public var contrast: [ContrastCheck]
  /// The font size of every text style the list draws, in the order the rows first use them.
  public var textSizes: [TextSizeCheck]
  /// Links against the text around them.
  public var linkDistinction: LinkDistinction
  /// Whether the brand allows italic.
  public var allowsItalic: Bool
  /// Emphasis the brand forbids, in reading order.
  public var italic: [ItalicFinding]
  /// The screen-reader text of every row, in reading order.
  public var spoken: [SpokenRow]

  /// The smallest font size, in px, of text the audit takes as visible: 6 px.
  ///
  /// Text that cannot be seen is a failure, and WCAG sets no minimum size, so the audit sets one:
  /// a Latin font's lowercase letters are about half its size tall, and 3 device pixels is the
  /// least in which the smallest bitmap fonts draw them (3 × 5 pixel fonts), so below 6 px, at
  /// scale 1, lowercase letters are blurs that cannot be told apart. Text whose colour is the
  /// background's cannot be seen either: it fails its contrast check (1:1).
  public static let minimumFontSize = 6.0

  /// Audits `list` as laid out in `scene` for `theme` with `options`; `tokens` are the theme's
  /// resolved tokens (``Themes/ThemeLibrary/tokens(_:mode:)``).
  /// - Throws: `LayoutError.list` when the list's rows do not resolve for the platform.
  public init(
    list: OUDSBulletList, scene: Scene, theme: Theme, tokens: [ResolvedToken],
    options: LayoutOptions = LayoutOptions()
  ) throws(LayoutError) {
    var list = list
    if let override = options.textStyleOverride { list = list.overridingTextStyle(override) }
    let rows: [ResolvedRow]
    do {
      rows = try list.resolvedRows(platform: options.platform)
    } catch {
      throw .list(error)
    }
    var byPath: [String: ResolvedToken] = [:]
    for token in tokens { byPath[token.path] = token }
    func reference(_ role: ThemeColorRole) -> TokenReference {
      TokenReference(path: role.tokenPath, tokens: byPath)
    }

    self.theme = theme.name
    self.mode = theme.mode
    self.platform = options.platform
    switch options.platform {
    case .android:
      textSize =
        options.fontScale == FontScale.standard
        ? nil : "font scale \(FontScale.text(options.fontScale))"
    case .ios:
      textSize = options.contentSize == .large ? nil : options.contentSize.rawValue
    }
    self.language = AccessibilityText.Language(locale: options.locale).rawValue
    self.backgroundToken = reference(.backgroundPrimary)
    let background = WCAGContrast.composited(
      theme.colors.backgroundPrimary, over: RGBAColor(red: 255, green: 255, blue: 255))
    self.background = background
    self.allowsItalic = theme.allowsItalic

    // What each row draws, from the scene: (element, colour, requirement) → rows.
    struct Key: Hashable {
      var element: ContrastCheck.Element
      var color: RGBAColor
      var requirement: ContrastRequirement
    }
    var found: [Key: [String]] = [:]
    var order: [Key] = []
    func note(_ key: Key, _ row: String) {
      if found[key] == nil { order.append(key) }
      if found[key]?.last != row { found[key, default: []].append(row) }
    }
    let resolvedByPath = Dictionary(
      rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    var linkRows: [String] = []
    var linkCues: (underlined: Bool, bolder: Bool)?
    var italic: [ItalicFinding] = []
    var sizes: [(style: TextStyle, fontSize: Double, rows: [String])] = []
    func noteSize(_ style: TextStyle, _ fontSize: Double, _ row: String) {
      if let index = sizes.firstIndex(where: { $0.style == style && $0.fontSize == fontSize }) {
        if sizes[index].rows.last != row { sizes[index].rows.append(row) }
      } else {
        sizes.append((style, fontSize, [row]))
      }
    }
    for sceneRow in scene.rows {
      let appearance = sceneRow.text.content.appearance
      let textStyle = resolvedByPath[sceneRow.path]?.textStyle ?? list.textStyle
      if sceneRow.text.content.spans.contains(where: { !$0.text.isEmpty }) {
        noteSize(textStyle, appearance.fontSize, sceneRow.path)
      }
      if let prefix = sceneRow.markerText {
        noteSize(textStyle, prefix.content.appearance.fontSize, sceneRow.path)
      }
      for span in sceneRow.text.content.spans where span.link == nil && !span.text.isEmpty {
        let weight = span.weight ?? appearance.weight
        note(
          Key(
            element: .label, color: span.color ?? appearance.color,
            requirement: .forText(fontSize: appearance.fontSize, weight: weight)), sceneRow.path)
      }
      for span in sceneRow.text.content.spans where span.link != nil {
        let weight = span.weight ?? appearance.weight
        note(
          Key(
            element: .link, color: span.color ?? appearance.color,
            requirement: .forText(fontSize: appearance.fontSize, weight: weight)), sceneRow.path)
        if linkRows.last != sceneRow.path { linkRows.append(sceneRow.path) }
        let cues = (span.underline, weight > appearance.weight)
        linkCues = linkCues.map { ($0.underlined && cues.0, $0.bolder && cues.1) } ?? cues
      }
      if let prefix = sceneRow.markerText {
        let prefixAppearance = prefix.content.appearance
        note(
          Key(
            element: .orderedPrefix, color: prefixAppearance.color,
            requirement: .forText(
              fontSize: prefixAppearance.fontSize, weight: prefixAppearance.weight)),
          sceneRow.path)
      }
      let isBranded: Bool
      if case .unordered(_, let branded)? = resolvedByPath[sceneRow.path]?.listType {
        isBranded = branded
      } else {
        isBranded = false
      }
      if let glyph = sceneRow.glyph {
        let element: ContrastCheck.Element? =
          switch sceneRow.marker.kind {
          case .bullet: isBranded ? .brandedBullet : .bullet
          case .tick: isBranded ? .brandedTick : .tick
          case .icon: isBranded ? .brandedIcon : .icon
          case .ordered, .none: nil
          }
        if let element {
          note(Key(element: element, color: glyph.tint, requirement: .nonText), sceneRow.path)
        }
      }
      if !theme.allowsItalic, case .rich(let rich)? = resolvedByPath[sceneRow.path]?.label,
        rich.hasEmphasis
      {
        italic.append(
          ItalicFinding(
            row: sceneRow.path,
            text: rich.runs.filter(\.isEmphasis).map(\.text).joined(separator: " … ")))
      }
    }

    // Every element is checked, used or not; an unused one at the list's own text style.
    let baseTypography = theme.typography[list.textStyle]
    let baseWeight = list.isBold ? baseTypography.strongWeight : baseTypography.regularWeight
    var checks: [ContrastCheck] = []
    for element in ContrastCheck.Element.allCases {
      let role: ThemeColorRole =
        switch element {
        case .label, .orderedPrefix: ListLayout.textColorRole
        case .link: ListLayout.linkColorRole
        case .bullet, .tick, .icon: ListLayout.markerColorRole(isBranded: false)
        case .brandedBullet, .brandedTick, .brandedIcon: ListLayout.markerColorRole(isBranded: true)
        }
      var keys = order.filter { $0.element == element }
      if keys.isEmpty {
        let weight =
          element == .link && ListLayout.linkCues.isStrong
          ? baseTypography.strongWeight : baseWeight
        keys = [
          Key(
            element: element, color: theme.colors[role],
            requirement: element.isText
              ? .forText(fontSize: baseTypography.fontSize, weight: weight) : .nonText)
        ]
      }
      for key in keys {
        let drawn = WCAGContrast.composited(key.color, over: background)
        let ratio = WCAGContrast.ratio(drawn, on: background)
        checks.append(
          ContrastCheck(
            element: element, token: reference(role), color: key.color, drawn: drawn, ratio: ratio,
            requirement: key.requirement, passes: ratio >= key.requirement.minimum,
            rows: found[key] ?? []))
      }
    }
    self.contrast = checks
    self.textSizes = sizes.map { size in
      TextSizeCheck(
        token: TokenReference(path: "typography.\(size.style.tokenName).font-size", tokens: byPath),
        fontSize: size.fontSize, passes: size.fontSize >= Self.minimumFontSize, rows: size.rows)
    }

    let linkColor = WCAGContrast.composited(
      theme.colors[ListLayout.linkColorRole], over: background)
    let textColor = WCAGContrast.composited(
      theme.colors[ListLayout.textColorRole], over: background)
    let cues = linkCues ?? (ListLayout.linkCues.isUnderlined, ListLayout.linkCues.isStrong)
    let distinction = WCAGContrast.ratio(linkColor, on: textColor)
    let requiresRatio = !cues.underlined && !cues.bolder
    self.linkDistinction = LinkDistinction(
      linkToken: reference(ListLayout.linkColorRole),
      textToken: reference(ListLayout.textColorRole),
      link: linkColor, text: textColor, ratio: distinction, isUnderlined: cues.underlined,
      isBolder: cues.bolder, requiresRatio: requiresRatio,
      passes: !requiresRatio || distinction >= LinkDistinction.minimum, rows: linkRows)
    self.italic = italic
    self.spoken = scene.rows.map { SpokenRow(row: $0.path, text: $0.accessibilityLabel) }
  }

  /// Every failure, one line each: a contrast below its requirement of a colour the list draws
  /// (naming the token and its file), text under ``minimumFontSize`` (naming its font-size token
  /// and file), links told by colour alone below 3:1, italic the brand forbids. A colour the list
  /// does not draw is never a failure: it is in ``notChecked``.
  public var failures: [String] {
    var lines: [String] = []
    for check in contrast where !check.passes && !check.rows.isEmpty {
      lines.append(
        "\(check.element.words) \(check.token): \(check.color.hex) on \(background.hex) is \(WCAGContrast.formatted(check.ratio)):1, below the \(check.requirement.minimumText):1 WCAG \(check.requirement.criterion) requires for \(check.requirement.words)"
      )
    }
    for size in textSizes where !size.passes {
      lines.append(
        "text \(size.token): \(TokenRange.format(size.fontSize)) px, below the \(TokenRange.format(Self.minimumFontSize)) px text needs to be seen (\(size.rows.count <= 3 ? size.rows.joined(separator: ", ") : "\(size.rows.count) rows from \(size.rows[0])"))"
      )
    }
    if !linkDistinction.passes && !linkDistinction.rows.isEmpty {
      lines.append(
        "links \(linkDistinction.linkToken) against text \(linkDistinction.textToken): \(WCAGContrast.formatted(linkDistinction.ratio)):1, below the 3:1 WCAG 1.4.1 requires when colour is the only cue"
      )
    }
    for finding in italic {
      lines.append(
        "\(finding.row): emphasis \(MessageText.quoted(finding.text)) in the \(theme.displayName) brand, which forbids italic (drawn upright: the emphasis is lost)"
      )
    }
    return lines
  }

  /// The colours of the theme that this list does not draw, one line each (`branded bullet
  /// color.…: not drawn by this list, not checked (2.10:1)`): never failures, whatever their ratio.
  public var notChecked: [String] {
    var lines = contrast.filter(\.rows.isEmpty).map { check in
      "\(check.element.words) \(check.token): not drawn by this list, not checked (\(WCAGContrast.formatted(check.ratio)):1)"
    }
    if linkDistinction.rows.isEmpty && linkDistinction.requiresRatio {
      lines.append(
        "links \(linkDistinction.linkToken): no link in this list, not checked (\(WCAGContrast.formatted(linkDistinction.ratio)):1 against the text)"
      )
    }
    return lines
  }

  /// Whether iOS draws this audit's markers at their token size although the text is scaled:
  /// iOS under a Dynamic Type size other than `large` (ouds-ios sizes the marker assets from the
  /// size tokens, with no `@ScaledMetric`).
  public var markerKeepsTokenSize: Bool { platform == .ios && textSize != nil }

  /// The line that says so, for legends and reports.
  public static let markerSizeNote =
    "iOS keeps the marker (bullet, tick, icon) at its token size under Dynamic Type, as ouds-ios does (its Bullet.swift sizes the asset from the size tokens, without @ScaledMetric): only the text grows."
}
