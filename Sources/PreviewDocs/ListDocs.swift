import BulletList
import BulletListRenderer
import Layout
import Primitives
import Snapshot
import Themes
import Workbench

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The preview's docs view of one list, in one document: its source, the variants `snapshot`
/// would record for it as a case, the tokens it reads per theme and mode, the audit's contrast
/// figures and what VoiceOver and TalkBack say.
///
/// Nothing here is computed again: the source is the gallery's (``Workbench/Gallery/source(of:)``),
/// the variants the catalogue's (``Snapshot/CaseListFile``), the tokens the gallery's and token
/// review's tables (``Workbench/Gallery/table(_:library:old:renderer:platforms:)``), the contrast
/// lines, notes and spoken text those of `audit` (``Workbench/AuditReport``).
public struct ListDocs: Encodable, Sendable {
  /// The list as the page names it: its path, or `pasted.md`.
  public var list: String
  /// `JSON` or `Markdown`.
  public var format: String
  /// The file's text, cut as the gallery cuts it (at most 400 lines).
  public var source: String
  /// How many lines of the file ``source`` leaves out.
  public var omittedLines: Int
  /// The case the list would be in `Snapshots/cases/`: its file name without the extension.
  public var caseName: String
  /// Whether the file says its variants (a `variants` key); without one a case is recorded in
  /// every theme and both modes at scale 2.
  public var variantsDeclared: Bool
  /// The variants `snapshot record` would record, in the file's order.
  public var variants: [Variant]
  /// One table per theme shown: the tokens the component reads in each mode shown.
  public var tokens: [TokenTable]
  /// One audit per theme × mode × platform shown.
  public var audits: [Audit]
  /// The failed checks of those audits, each prefixed with its theme, mode and platform.
  public var failures: [String]
  /// How many colours of the themes the list does not draw (never a failure).
  public var notChecked: Int
  /// What each screen reader says, VoiceOver then TalkBack, whatever the platform shown.
  public var spoken: [Spoken]
  /// Layout and token warnings, once each.
  public var warnings: [String]

  /// One variant of the case.
  public struct Variant: Encodable, Sendable, Hashable {
    /// `orange-light@2x`.
    public var name: String
    /// The reference file in the snapshots folder: `sample-3/orange-light@2x.png`.
    public var reference: String
    /// `Orange`.
    public var theme: String
    /// `light`.
    public var mode: String
    /// `iOS`.
    public var platform: String
    /// PNG pixels per point.
    public var scale: Int
    /// `standard`, `font scale 1.5`, `accessibility5` (as the gallery names it).
    public var textSize: String
    /// The width in points: `360`.
    public var width: String
    /// The other settings that differ from the defaults: `direction rtl`, `locale ar`…
    public var settings: [String]
  }

  /// The tokens of one theme.
  public struct TokenTable: Encodable, Sendable, Hashable {
    /// `Orange`.
    public var theme: String
    /// The modes shown, one column each: `light`, `dark`.
    public var modes: [String]
    /// One row per token, in the order the renderer reads them.
    public var rows: [TokenRow]
    /// Why the theme (or a mode of it) could not be read, one line each.
    public var errors: [String]
  }

  /// One token in each mode shown.
  public struct TokenRow: Encodable, Sendable, Hashable {
    /// `color.content.default`.
    public var path: String
    /// Its value in each mode of ``TokenTable/modes``, in order.
    public var values: [TokenValueText]
  }

  /// A token's value as the page shows it.
  public struct TokenValueText: Encodable, Sendable, Hashable {
    /// `#000000`, `16px`, `700`, or `(none)` where the mode lacks it.
    public var text: String
    /// The colour of a swatch (`#RRGGBB` or `#RRGGBBAA`), for a colour token.
    public var color: String?
    /// The file (relative to the themes folder) whose definition won.
    public var file: String?
    /// The aliases followed, in order: `color.raw.functional.white`.
    public var aliases: [String]
  }

  /// The audit of one theme, mode and platform.
  public struct Audit: Encodable, Sendable, Hashable {
    /// `Orange · light · iOS`.
    public var title: String
    /// The background the contrasts are measured against: `#FFFFFF`.
    public var background: String
    /// Its token and file.
    public var backgroundToken: String
    /// The contrast table, in ``Workbench/AuditReport/tableHeader`` order.
    public var lines: [Line]
    /// The text sizes, link rule, marker and italic lines.
    public var notes: [String]
  }

  /// One line of an audit's contrast table (``Workbench/AuditLine``).
  public struct Line: Encodable, Sendable, Hashable {
    /// The element checked.
    public var element: String
    /// The colour as written (and as drawn).
    public var colour: String
    /// The drawn colours, for swatches.
    public var swatches: [String]
    /// `4.53:1`.
    public var ratio: String
    /// `4.5:1 text (1.4.3)`.
    public var needs: String
    /// `pass`, `FAIL` or `not checked`.
    public var result: String
    /// The rows that draw it.
    public var usedBy: String
    /// The token and its file.
    public var token: String
  }

  /// What one screen reader says (``Workbench/SpokenGroup``).
  public struct Spoken: Encodable, Sendable, Hashable {
    /// `VoiceOver` or `TalkBack`.
    public var reader: String
    /// `iOS` or `Android`.
    public var platform: String
    /// `English`.
    public var language: String
    /// The language's code: `en`, `fr`, `ar`.
    public var languageCode: String
    /// The audits that read so: `every theme and mode`, or their titles.
    public var contexts: String
    /// Each row and what is said of it, in reading order.
    public var rows: [SpokenRow]
  }

  /// The docs of the list `document`, read from `file` (named `listName` on the page) in
  /// `format`, whose case file would record `variants` (`variantsDeclared`: from its own
  /// `variants` key): its tokens in each theme × mode of `combinations`, its audits in those and
  /// each of `platforms` with `options`, and what both screen readers say.
  /// - Throws: `RenderError` when a theme does not resolve or the list cannot be laid out.
  public static func make(
    listName: String, file: URL, format: ListFormat, document: BulletListDocument,
    variants: [SnapshotVariant], variantsDeclared: Bool, renderer: BulletListRenderer,
    combinations: [(ThemeName, ColorMode)], platforms: [Platform], options: LayoutOptions
  ) throws(RenderError) -> ListDocs {
    let source = Gallery.source(of: file)
    let base = URL(fileURLWithPath: listName).lastPathComponent
    let caseName =
      SnapshotCatalogue.caseFileExtensions.lazy.compactMap { ext in
        base.lowercased().hasSuffix(ext) ? String(base.dropLast(ext.count)) : nil
      }.first ?? base
    let report = try renderer.auditReport(
      document.list, listName: base, combinations: combinations, platforms: platforms,
      options: options)
    // Both readers whatever the platform shown. The words depend on neither the theme nor the
    // mode: a reader whose platform is not shown is heard in one audit (its layout alone).
    var spoken: [Spoken] = []
    for platform in Platform.allCases {
      var audits = report.audits.filter { $0.platform == platform }
      if audits.isEmpty, let first = combinations.first {
        audits =
          try renderer.auditReport(
            document.list, listName: base, combinations: [first], platforms: [platform],
            options: options
          ).audits
      }
      for group in AuditReport(listName: base, audits: audits).spokenGroups {
        spoken.append(
          Spoken(
            reader: group.reader.rawValue, platform: platform.displayName,
            language: group.languageName, languageCode: group.language,
            contexts: group.contexts, rows: group.rows))
      }
    }
    var themes: [ThemeName] = []
    var modes: [ColorMode] = []
    for (theme, mode) in combinations {
      if !themes.contains(theme) { themes.append(theme) }
      if !modes.contains(mode) { modes.append(mode) }
    }
    // No platform: the token rows alone, not the fonts the gallery lists beside them.
    let tables = themes.map { theme in
      tokenTable(
        Gallery.table(theme, library: renderer.themes, old: nil, renderer: renderer, platforms: []),
        modes: modes)
    }
    return ListDocs(
      list: listName, format: format == .markdown ? "Markdown" : "JSON", source: source.text,
      omittedLines: source.omittedLines, caseName: caseName, variantsDeclared: variantsDeclared,
      variants: variants.map { variant(caseName: caseName, list: document.list, $0) },
      tokens: tables,
      audits: report.audits.map(audit), failures: report.failures,
      notChecked: report.notCheckedCount, spoken: spoken, warnings: report.warnings)
  }

  /// The document as the page reads it: one JSON object.
  public func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Every value is a string, number, boolean or array of them: encoding cannot fail.
    guard let data = try? encoder.encode(self) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  static func variant(caseName: String, list: OUDSBulletList, _ variant: SnapshotVariant)
    -> Variant
  {
    let options = variant.options
    var settings: [String] = []
    if let direction = options.direction { settings.append("direction \(direction.rawValue)") }
    if let locale = options.locale { settings.append("locale \(locale)") }
    if let style = options.textStyleOverride { settings.append("text style \(style.rawValue)") }
    if options.background != .theme {
      settings.append("background \(options.background.rawValue)")
    }
    if options.accessibilitySnapshot { settings.append("accessibility overlay") }
    if options.shrink { settings.append("shrink to content") }
    if let tolerance = variant.tolerance { settings.append("tolerance \(tolerance)") }
    let reference = SnapshotReference(caseName: caseName, variant: variant, list: list)
    return Variant(
      name: variant.name, reference: reference.imagePath, theme: variant.theme.displayName,
      mode: variant.mode.rawValue, platform: options.platform.displayName, scale: variant.scale,
      textSize: GalleryPage.textSize(options), width: TokenRange.format(options.width),
      settings: settings)
  }

  static func tokenTable(_ table: Gallery.ThemeTable, modes: [ColorMode]) -> TokenTable {
    return TokenTable(
      theme: table.theme.displayName, modes: modes.map(\.rawValue),
      rows: table.rows.map { row in
        TokenRow(
          path: row.path,
          values: modes.map { mode in
            guard let token = row.values[mode] else {
              return TokenValueText(text: "(none)", color: nil, file: nil, aliases: [])
            }
            var color: String?
            if case .color(let value) = token.value { color = value.hex }
            return TokenValueText(
              text: MessageText.line(token.value.displayText), color: color, file: token.file,
              aliases: token.aliasChain)
          })
      }, errors: table.errors)
  }

  static func audit(_ audit: AccessibilityAudit) -> Audit {
    Audit(
      title: AuditReport.context(audit), background: audit.background.hex,
      backgroundToken: audit.backgroundToken.description,
      lines: AuditReport.lines(of: audit).map { line in
        Line(
          element: line.element, colour: line.colour, swatches: line.swatches.map(\.hex),
          ratio: line.ratio, needs: line.needs, result: line.result, usedBy: line.usedBy,
          token: line.token)
      }, notes: AuditReport.notes(of: audit))
  }
}
