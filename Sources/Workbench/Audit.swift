import BulletList
import BulletListRenderer
import Layout
import Primitives
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension BulletListRenderer {
  /// The accessibility audit of `list` in one theme and mode (see `Layout/AccessibilityAudit`):
  /// the list is laid out as it would be drawn, then every colour, link, italic and spoken text
  /// is checked.
  /// - Throws: `RenderError` as ``layout(_:theme:mode:options:)``.
  public func audit(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode,
    options: LayoutOptions = LayoutOptions()
  ) throws(RenderError) -> (audit: AccessibilityAudit, warnings: [String]) {
    let laidOut = try layout(list, theme: theme, mode: mode, options: options)
    let resolved: Theme
    let tokens: [ResolvedToken]
    do {
      resolved = try themes.theme(theme, mode: mode)
      tokens = try themes.tokens(theme, mode: mode)
    } catch {
      throw .theme(error)
    }
    do {
      return (
        try AccessibilityAudit(
          list: list, scene: laidOut.scene, theme: resolved, tokens: tokens, options: options),
        laidOut.warnings
      )
    } catch {
      throw RenderError(error, theme: theme, mode: mode)
    }
  }

  /// The audits of `list` for every theme × mode given, each for every platform of `platforms`
  /// (nil: `options.platform` alone), in that order.
  /// - Throws: `RenderError` for the first combination that cannot be laid out.
  public func auditReport(
    _ list: OUDSBulletList, listName: String, combinations: [(ThemeName, ColorMode)],
    platforms: [Platform]? = nil, options: LayoutOptions = LayoutOptions()
  ) throws(RenderError) -> AuditReport {
    var audits: [AccessibilityAudit] = []
    var warnings: [String] = []
    for (theme, mode) in combinations {
      for platform in platforms ?? [options.platform] {
        let options = options.on(platform)
        let result = try audit(list, theme: theme, mode: mode, options: options)
        audits.append(result.audit)
        warnings += result.warnings.filter { !warnings.contains($0) }
      }
    }
    return AuditReport(listName: listName, audits: audits, warnings: warnings)
  }
}

/// The accessibility audits of one list: a readable table per theme, mode and platform, or a
/// stable JSON document.
public struct AuditReport: Sendable {
  /// The list's file name as the heading shows it.
  public var listName: String
  /// One audit per theme × mode × platform.
  public var audits: [AccessibilityAudit]
  /// Layout and token warnings met while laying the list out, once each.
  public var warnings: [String]

  /// Creates a report.
  public init(listName: String, audits: [AccessibilityAudit], warnings: [String] = []) {
    self.listName = listName
    self.audits = audits
    self.warnings = warnings
  }

  /// Every failure, prefixed with its theme, mode and platform (`Orange · light · iOS: …`).
  public var failures: [String] {
    audits.flatMap { audit in audit.failures.map { "\(Self.context(audit)): \($0)" } }
  }

  /// `Orange · light · iOS`, `Orange · light · Android · font scale 2`: an audit's title.
  public static func context(_ audit: AccessibilityAudit) -> String {
    "\(audit.theme.displayName) · \(audit.mode.rawValue) · \(audit.platform.displayName)"
      + (audit.textSize.map { " · \($0)" } ?? "")
  }

  /// The name of a spoken-text language.
  static func languageName(_ code: String) -> String {
    switch code {
    case "fr": "French"
    case "ar": "Arabic"
    default: "English"
    }
  }

  /// The report as text: per theme, mode and platform, a table of every colour (element,
  /// colour as drawn, ratio, requirement, result, rows, token and file), the link rule and
  /// italic; then the screen-reader text of every row, once for the combinations that read
  /// the same; then the failures.
  public var text: String {
    var out =
      "Accessibility audit of \(MessageText.value(listName)): WCAG 2.2 contrast against color.bg.primary, links, italic, screen-reader text\n"
    for audit in audits {
      out +=
        "\n\(Self.context(audit)): background \(audit.background.hex), \(audit.backgroundToken)\n"
      let table = [Self.tableHeader] + Self.lines(of: audit).map(\.cells)
      out += Self.aligned(table, indent: "  ")
      for note in Self.notes(of: audit) { out += "  \(note)\n" }
    }
    for group in spokenGroups {
      out +=
        "\nScreen-reader text (\(group.reader.rawValue)'s rules, \(group.languageName)), \(group.contexts), in reading order:\n"
      // The spoken text is what the audit is for: escaped, never cut.
      let table = group.rows.map { [$0.row, "\"" + MessageText.escaped($0.text) + "\""] }
      out += Self.aligned(table, indent: "  ")
    }
    let failures = failures
    let notChecked = notCheckedCount
    out += "\n"
    if notChecked > 0 {
      out +=
        "Not checked: \(notChecked) colour\(notChecked == 1 ? "" : "s") of the theme that this list does not draw (\"not checked\" above): never a failure.\n"
    }
    if failures.isEmpty {
      out += "No failures in \(audits.count) audit\(audits.count == 1 ? "" : "s").\n"
    } else {
      out += "\(failures.count) failure\(failures.count == 1 ? "" : "s"):\n"
      for failure in failures { out += "  \(failure)\n" }
    }
    return out
  }

  /// The heading of an audit's contrast table.
  public static let tableHeader = [
    "element", "colour", "ratio", "needs", "result", "used by", "token",
  ]

  /// The lines of `audit`'s contrast table, as ``text`` prints them and the preview's docs view
  /// shows them: every colour (element, colour as drawn, ratio, requirement, result, rows,
  /// token and file), then the link against the text around it.
  public static func lines(of audit: AccessibilityAudit) -> [AuditLine] {
    var lines = audit.contrast.map { check in
      AuditLine(
        element: check.element.words,
        colour: check.color == check.drawn
          ? check.drawn.hex : "\(check.color.hex)→\(check.drawn.hex)",
        swatches: [check.drawn],
        ratio: WCAGContrast.formatted(check.ratio) + ":1",
        needs: "\(check.requirement.minimumText):1 \(check.requirement.words)",
        result: check.rows.isEmpty ? "not checked" : check.passes ? "pass" : "FAIL",
        usedBy: rowsText(check.rows), token: check.token.description)
    }
    let link = audit.linkDistinction
    lines.append(
      AuditLine(
        element: "link vs text", colour: "\(link.link.hex)/\(link.text.hex)",
        swatches: [link.link, link.text], ratio: WCAGContrast.formatted(link.ratio) + ":1",
        needs: link.requiresRatio ? "3:1 colour only" : "none: \(cues(link))",
        result: link.rows.isEmpty && link.requiresRatio
          ? "not checked" : link.passes ? "pass" : "FAIL",
        usedBy: rowsText(link.rows), token: "\(link.linkToken.path) vs \(link.textToken.path)"))
    return lines
  }

  /// The lines under `audit`'s table: each text size, the link rule, the marker's size under
  /// Dynamic Type, italic.
  public static func notes(of audit: AccessibilityAudit) -> [String] {
    var notes: [String] = []
    for size in audit.textSizes {
      notes.append(
        "text size: \(TokenRange.format(size.fontSize)) px, \(size.passes ? "pass" : "FAIL") (at least \(TokenRange.format(AccessibilityAudit.minimumFontSize)) px to be seen), \(rowsText(size.rows)), \(size.token)"
      )
    }
    notes.append("links: \(audit.linkDistinction.rule)")
    if audit.markerKeepsTokenSize {
      notes.append("marker: \(AccessibilityAudit.markerSizeNote)")
    }
    if audit.allowsItalic {
      notes.append("italic: allowed by the \(audit.theme.displayName) brand")
    } else if audit.italic.isEmpty {
      notes.append("italic: forbidden by the \(audit.theme.displayName) brand; none in this list")
    } else {
      for finding in audit.italic {
        notes.append(
          "italic: FAIL \(finding.row) emphasises \(MessageText.quoted(finding.text)); the \(audit.theme.displayName) brand forbids italic (drawn upright)"
        )
      }
    }
    return notes
  }

  /// What the screen readers say: the spoken text does not depend on the colours, so the
  /// audits that read the same (same rows, language and reader) form one group, in the audits'
  /// order.
  public var spokenGroups: [SpokenGroup] {
    var groups: [SpokenGroup] = []
    var contexts: [[String]] = []
    for audit in audits {
      let reader = ScreenReader(platform: audit.platform)
      if let index = groups.firstIndex(where: {
        $0.rows == audit.spoken && $0.language == audit.language && $0.reader == reader
      }) {
        contexts[index].append(Self.context(audit))
      } else {
        groups.append(
          SpokenGroup(
            reader: reader, language: audit.language,
            languageName: Self.languageName(audit.language), contexts: "", rows: audit.spoken))
        contexts.append([Self.context(audit)])
      }
    }
    for index in groups.indices {
      groups[index].contexts =
        contexts[index].count < audits.count
        ? contexts[index].joined(separator: ", ")
        : Set(audits.map(\.platform)).count > 1
          ? "every theme, mode and platform" : "every theme and mode"
    }
    return groups
  }

  /// How many colours of the theme the list does not draw, over every audit ("not checked":
  /// never a failure).
  public var notCheckedCount: Int { audits.reduce(0) { $0 + $1.notChecked.count } }

  /// `underlined, bold`.
  static func cues(_ link: LinkDistinction) -> String {
    [link.isUnderlined ? "underlined" : nil, link.isBolder ? "bold" : nil].compactMap { $0 }.joined(
      separator: ", ")
  }

  /// `items[0]`, `items[0], items[1]`, `5 rows (items[0] …)`, or `not in this list`.
  static func rowsText(_ rows: [String]) -> String {
    switch rows.count {
    case 0: "not in this list"
    case 1...3: rows.joined(separator: ", ")
    default: "\(rows.count) rows from \(rows[0])"
    }
  }

  /// Rows of cells padded to their column's width (the last column is not padded).
  static func aligned(_ rows: [[String]], indent: String) -> String {
    guard let columns = rows.map(\.count).max() else { return "" }
    var widths = [Int](repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() where index < columns - 1 {
        widths[index] = max(widths[index], cell.count)
      }
    }
    var out = ""
    for row in rows {
      var line = indent
      for (index, cell) in row.enumerated() {
        line +=
          index < row.count - 1
          ? cell.padded(toLength: widths[index] + 2) : cell
      }
      out += line + "\n"
    }
    return out
  }

  /// The stable JSON document: sorted keys, two-decimal ratios rounded down, colours as hex.
  ///
  /// `{"list", "failures": [...], "passed", "audits": [{"theme", "mode", "platform", "language",
  /// "background", "backgroundToken", "contrast": [...], "textSizes": [...], "linkDistinction",
  /// "allowsItalic", "italic": [...], "spoken": [...]}]}`.
  public func json() throws -> String {
    let document = Document(
      list: listName, passed: failures.isEmpty, failures: failures,
      audits: audits.map(AuditJSON.init))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
  }

  private struct Document: Encodable {
    var list: String
    var passed: Bool
    var failures: [String]
    var audits: [AuditJSON]
  }

  /// An audit with its ratios rounded down to hundredths (as shown), so the document is stable.
  private struct AuditJSON: Encodable {
    var theme: String
    var mode: String
    var platform: String
    var language: String
    var background: RGBAColor
    var backgroundToken: TokenReference
    var contrast: [CheckJSON]
    var textSizes: [SizeJSON]
    var linkDistinction: LinkJSON
    var allowsItalic: Bool
    var italic: [ItalicFinding]
    var spoken: [SpokenRow]

    init(_ audit: AccessibilityAudit) {
      theme = audit.theme.rawValue
      mode = audit.mode.rawValue
      platform = audit.platform.rawValue
      language = audit.language
      background = audit.background
      backgroundToken = audit.backgroundToken
      contrast = audit.contrast.map(CheckJSON.init)
      textSizes = audit.textSizes.map(SizeJSON.init)
      linkDistinction = LinkJSON(audit.linkDistinction)
      allowsItalic = audit.allowsItalic
      italic = audit.italic
      spoken = audit.spoken
    }
  }

  private struct CheckJSON: Encodable {
    var element: String
    var token: TokenReference
    var color: RGBAColor
    var drawn: RGBAColor
    var ratio: Double
    var requirement: String
    var minimum: Double
    var criterion: String
    var passes: Bool
    var rows: [String]

    init(_ check: ContrastCheck) {
      element = check.element.rawValue
      token = check.token
      color = check.color
      drawn = check.drawn
      ratio = AuditReport.hundredths(check.ratio)
      requirement = check.requirement.rawValue
      minimum = check.requirement.minimum
      criterion = check.requirement.criterion
      passes = check.passes
      rows = check.rows
    }
  }

  private struct SizeJSON: Encodable {
    var token: TokenReference
    var fontSize: Double
    var minimum: Double
    var passes: Bool
    var rows: [String]

    init(_ size: TextSizeCheck) {
      token = size.token
      fontSize = size.fontSize
      minimum = AccessibilityAudit.minimumFontSize
      passes = size.passes
      rows = size.rows
    }
  }

  private struct LinkJSON: Encodable {
    var linkToken: TokenReference
    var textToken: TokenReference
    var link: RGBAColor
    var text: RGBAColor
    var ratio: Double
    var isUnderlined: Bool
    var isBolder: Bool
    var requiresRatio: Bool
    var passes: Bool
    var rule: String
    var rows: [String]

    init(_ link: LinkDistinction) {
      linkToken = link.linkToken
      textToken = link.textToken
      self.link = link.link
      text = link.text
      ratio = AuditReport.hundredths(link.ratio)
      isUnderlined = link.isUnderlined
      isBolder = link.isBolder
      requiresRatio = link.requiresRatio
      passes = link.passes
      rule = link.rule
      rows = link.rows
    }
  }

  /// `ratio` rounded down to hundredths, as ``Primitives/WCAGContrast/formatted(_:)`` shows it.
  static func hundredths(_ ratio: Double) -> Double {
    Double(WCAGContrast.formatted(ratio)) ?? ratio
  }
}

/// One line of an audit's contrast table (see ``AuditReport/lines(of:)``).
public struct AuditLine: Hashable, Sendable {
  /// What is checked: `label`, `bullet (branded)`, `link vs text`.
  public var element: String
  /// The colour as the token gives it, and as drawn over the background when translucent
  /// (`#F15E0080→#F8AE7F`); the link's and the text's for the link line.
  public var colour: String
  /// The colours as drawn, for swatches: one, or the link's and the text's.
  public var swatches: [RGBAColor]
  /// The contrast ratio, rounded down: `4.53:1`.
  public var ratio: String
  /// What WCAG asks: `4.5:1 text (1.4.3)`.
  public var needs: String
  /// `pass`, `FAIL` or `not checked` (a colour the list does not draw).
  public var result: String
  /// The rows that draw it: `items[0], items[1]`, or `not in this list`.
  public var usedBy: String
  /// The token and the file that defines it, then each alias with its file.
  public var token: String

  /// The line's cells, in ``AuditReport/tableHeader`` order.
  public var cells: [String] { [element, colour, ratio, needs, result, usedBy, token] }
}

/// What one screen reader says of the rows in the audits that read alike (see
/// ``AuditReport/spokenGroups``).
public struct SpokenGroup: Hashable, Sendable {
  /// VoiceOver (iOS) or TalkBack (Android).
  public var reader: ScreenReader
  /// The language code of the spoken text: `en`, `fr`, `ar`.
  public var language: String
  /// The language's name: `English`.
  public var languageName: String
  /// The audits that read so: `Orange · light · iOS, Sosh · dark · iOS`, or
  /// `every theme and mode`.
  public var contexts: String
  /// The spoken text of every row, in reading order.
  public var rows: [SpokenRow]
}
