import BulletListRenderer
import Fonts
import Graphics
import Primitives
import SafeInput
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The render-stack fingerprint stored as `Snapshots/ENVIRONMENT.json`: library versions, font
/// hashes and the digest of the resolved token values.
///
/// References are only comparable pixel for pixel with renders made by the same stack; when the
/// machine differs, verify says so first ("environment differs: …") and still reports the pixels.
/// When the tokens differ, verify fails whatever the pixels say: the references were recorded
/// from other theme data. Nothing in it depends on where files live (font files are named, not
/// located).
public struct SnapshotEnvironment: Codable, Hashable, Sendable {
  /// One font file a theme loaded: role, family, file name and SHA-256 (no folder).
  public struct Font: Codable, Hashable, Sendable {
    /// The manifest role (`latin-regular`…) or `brand`.
    public var role: String
    /// The family fontconfig reads from the file.
    public var family: String
    /// The file name.
    public var file: String
    /// The SHA-256 of the file, lower-case hex.
    public var sha256: String

    /// Creates a record.
    public init(role: String, family: String, file: String, sha256: String) {
      self.role = role
      self.family = family
      self.file = file
      self.sha256 = sha256
    }

    /// The record of a loaded font.
    public init(_ font: LoadedFont) {
      self.init(role: font.role, family: font.family, file: font.fileName, sha256: font.sha256)
    }
  }

  /// The versions of cairo, pango, harfbuzz, freetype, fontconfig, librsvg and libspng.
  public var renderStack: RenderStack
  /// The font files of each font set, keyed by its name: the theme's (`orange`, `sosh`…), or
  /// `<theme>/android` for a theme whose manifest states Android's fallback.
  public var fonts: [String: [Font]]

  /// Font set names in theme order, each theme's own set before its platform sets
  /// (`orange`, `orange/android`, `orange-compact`…); unknown names last, sorted.
  public static func fontSetOrder(_ names: some Sequence<String>) -> [String] {
    func rank(_ name: String) -> (Int, String) {
      let theme = name.split(separator: "/").first.map(String.init) ?? name
      let index = ThemeName.allCases.firstIndex { $0.rawValue == theme }
      return (index ?? ThemeName.allCases.count, name)
    }
    return names.sorted { rank($0) < rank($1) }
  }
  /// The SHA-256 of the resolved values of the tokens the renderer reads, of every theme × mode
  /// (``Themes/ThemeLibrary/renderTokenText()``); nil in a fingerprint that predates it.
  public var tokensSHA256: String?
  /// The resolved value of every token (``Themes/TokenValue/displayText``), by context
  /// (`orange/light`) then token path: what verify compares to name the tokens that changed since
  /// the references were recorded. Nil in a fingerprint that predates it.
  public var tokens: [String: [String: String]]?

  /// The name of the file inside the snapshots folder.
  public static let fileName = "ENVIRONMENT.json"

  /// Creates a fingerprint.
  public init(
    renderStack: RenderStack, fonts: [String: [Font]], tokensSHA256: String? = nil,
    tokens: [String: [String: String]]? = nil
  ) {
    self.renderStack = renderStack
    self.fonts = fonts
    self.tokensSHA256 = tokensSHA256
    self.tokens = tokens
  }

  /// The resolved value of every token of `library`, by context (`orange/light`) and path; a
  /// context that does not resolve is left out.
  public static func tokenValues(of library: ThemeLibrary) -> [String: [String: String]] {
    var values: [String: [String: String]] = [:]
    for theme in ThemeName.allCases {
      for mode in ColorMode.allCases {
        guard let tokens = try? library.tokens(theme, mode: mode) else { continue }
        var context: [String: String] = [:]
        for token in tokens { context[token.path] = token.value.displayText }
        values["\(theme.rawValue)/\(mode.rawValue)"] = context
      }
    }
    return values
  }

  /// What separates the first part of a token difference from its list of changed tokens (each
  /// `<theme>/<mode> <path>: <old> → <new> (<file>)`, separated by `; `).
  public static let changedTokensMarker = " (ENVIRONMENT.json), changed: "

  /// Changed tokens named in a token difference, at most.
  public static let changedTokensShown = 20

  /// The tokens whose value differs between the recorded values (`self`) and `library`, one line
  /// each as `--compare-themes` prints them (`orange/light space.x: 8px → 16px (brands/…json)`),
  /// by context then path; nil when no values were recorded.
  public func changedTokens(in library: ThemeLibrary) -> [String]? {
    guard let recorded = tokens else { return nil }
    var lines: [String] = []
    for theme in ThemeName.allCases {
      for mode in ColorMode.allCases {
        let context = "\(theme.rawValue)/\(mode.rawValue)"
        let before = recorded[context] ?? [:]
        let now = (try? library.tokens(theme, mode: mode)) ?? []
        let after = Dictionary(now.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        for path in Set(before.keys).union(after.keys).sorted() {
          let old = before[path]
          let new = after[path]
          if let old, let new, old == new.value.displayText { continue }
          let file = new.map { " (\($0.file))" } ?? ""
          lines.append(
            MessageText.escaped(
              "\(context) \(path): \(old ?? "(none)") → \(new?.value.displayText ?? "(none)")\(file)"
            ))
        }
      }
    }
    return lines
  }

  /// One cause of a token change, in one theme × mode: the token whose own value changed (the
  /// furthest changed token of the alias chain of a token the renderer reads), with its values.
  public struct TokenCause: Hashable, Sendable {
    /// The theme × mode, `sosh/light`.
    public var context: String
    /// The token path, `color.content.brand-primary` or `color.raw.orange.orange-550`.
    public var token: String
    /// Its value in the references' `ENVIRONMENT.json`, `(none)` when absent.
    public var before: String
    /// Its value now, `(none)` when absent.
    public var after: String
    /// The token file that defines it now (relative to the themes folder), empty when absent.
    public var file: String

    /// Creates a record.
    public init(context: String, token: String, before: String, after: String, file: String) {
      self.context = context
      self.token = token
      self.before = before
      self.after = after
      self.file = file
    }
  }

  /// Why the resolved tokens the renderer reads (``Themes/ThemeLibrary/componentTokenPaths``)
  /// differ from the recorded values, per theme × mode: for each read token whose value changed,
  /// the furthest token of its alias chain whose own value changed (re-aliasing
  /// `color.content.brand-primary` names it; editing `color.raw.orange.orange-550` names the raw
  /// token, once for every token that aliases it). Sorted by context then token; nil when no
  /// values were recorded.
  public func tokenCauses(in library: ThemeLibrary) -> [TokenCause]? {
    tokenCauseReads(in: library)?.map(\.cause)
  }

  /// A token cause and the read tokens whose value it changes.
  public typealias CauseReads = (cause: TokenCause, reads: Set<String>)

  /// ``tokenCauses(in:)``, each with the tokens the renderer reads whose value it changes
  /// (`color.content.brand-primary` for a re-aliased brand-primary; every read alias of an edited
  /// raw colour): a reference is explained by a cause only when its list reads one of them
  /// (`ListLayout.tokenPaths(readBy:options:)`).
  public func tokenCauseReads(in library: ThemeLibrary) -> [CauseReads]? {
    guard let recorded = tokens else { return nil }
    let read = Set(ThemeLibrary.componentTokenPaths)
    var causes: [CauseReads] = []
    for theme in ThemeName.allCases {
      for mode in ColorMode.allCases {
        let context = "\(theme.rawValue)/\(mode.rawValue)"
        guard let now = try? library.tokens(theme, mode: mode) else { continue }
        let before = recorded[context] ?? [:]
        let after = Dictionary(now.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        func changed(_ path: String) -> Bool { before[path] != after[path]?.value.displayText }
        var names: [String: Set<String>] = [:]
        for path in read where changed(path) {
          let chain = [path] + (after[path]?.aliasChain ?? [])
          names[chain.last(where: changed) ?? path, default: []].insert(path)
        }
        for name in names.keys.sorted() {
          let cause = TokenCause(
            context: context, token: name, before: before[name] ?? "(none)",
            after: after[name]?.value.displayText ?? "(none)", file: after[name]?.file ?? "")
          causes.append((cause, names[name] ?? []))
        }
      }
    }
    return causes
  }

  /// What a reference drawn with the font set `fontSet` (`sosh`, `orange/android`) is changed
  /// by among `differences` (lines of ``differences(from:)``): the library of each render-stack
  /// line (`pango`) — librsvg only when it `drawsMarkers` (bullets, ticks and icons are SVG; a
  /// bare or ordered list draws none) — and `<set> font <role>` (or `<set>`) of each line about
  /// its own font set.
  public static func stackAndFontCauses(
    _ differences: [String], fontSet: String, drawsMarkers: Bool = true
  ) -> [String] {
    differences.compactMap { line in
      guard isFontDifference(line) else {
        let library = line.split(separator: " ").first.map(String.init)
        return library == "librsvg" && !drawsMarkers ? nil : library
      }
      return fontSetOfDifference(line) == fontSet ? differenceName(line) : nil
    }
  }

  /// The name a line of ``differences(from:)`` is blamed by: the library (`pango`) of a stack
  /// line, the text before `:` of a font line (`sosh font latin-regular`, `sosh`).
  public static func differenceName(_ line: String) -> String {
    guard isFontDifference(line) else {
      return line.split(separator: " ").first.map(String.init) ?? line
    }
    return line.split(separator: ":", maxSplits: 1).first.map(String.init) ?? line
  }

  /// The font set a font line of ``differences(from:)`` is about: its first word.
  static func fontSetOfDifference(_ line: String) -> String {
    String(line.prefix { $0 != " " && $0 != ":" })
  }

  /// The token digest of a theme library: SHA-256 of the resolved tokens its renderer reads
  /// (``Themes/ThemeLibrary/renderTokenText()``).
  public static func tokenDigest(of library: ThemeLibrary) -> String {
    library.renderTokenDigest
  }

  /// Reads `ENVIRONMENT.json` from a snapshots folder; nil when there is none.
  /// - Throws: `SnapshotError` when the file exists but cannot be read.
  public static func read(from snapshotsDirectory: URL) throws(SnapshotError)
    -> SnapshotEnvironment?
  {
    let url = snapshotsDirectory.appendingPathComponent(fileName)
    let data: Data
    do {
      data = try UserFile.read(url.path, kind: .environment)
    } catch {
      if case .missing = error.problem { return nil }
      throw .environmentUnreadable(error)
    }
    do {
      return try JSONDecoder().decode(SnapshotEnvironment.self, from: data)
    } catch {
      throw .environmentInvalid(path: url.path)
    }
  }

  /// The JSON text of the fingerprint: sorted keys, pretty-printed, ending with a newline.
  public func jsonText() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
  }

  /// Writes the fingerprint atomically into a snapshots folder, never over one of `inputs`.
  public func write(to snapshotsDirectory: URL, protecting inputs: InputFiles = InputFiles()) throws
  {
    try AtomicFile.write(
      Data(try jsonText().utf8), to: snapshotsDirectory.appendingPathComponent(Self.fileName).path,
      createDirectories: true, protecting: inputs)
  }

  /// This fingerprint with the font records of `other`'s themes replaced by `other`'s, and
  /// `other`'s stack; the token digest becomes `other`'s when `takingTokens`.
  public func merging(_ other: SnapshotEnvironment, takingTokens: Bool = true)
    -> SnapshotEnvironment
  {
    var merged = self
    merged.renderStack = other.renderStack
    for (theme, files) in other.fonts { merged.fonts[theme] = files }
    if takingTokens || merged.tokensSHA256 == nil {
      merged.tokensSHA256 = other.tokensSHA256
      merged.tokens = other.tokens
    }
    return merged
  }

  /// Why the tokens of `themes` are not the ones the references were recorded with, or nil when
  /// the digests are equal: `tokens: <folder> (<why>) resolves to sha256 … , the references were
  /// recorded with …`.
  ///
  /// With `library` (the tokens of `current`) and the token values recorded, the difference names
  /// the changed tokens (``changedTokens(in:)``, at most ``changedTokensShown``) after
  /// ``changedTokensMarker`` rather than two digests.
  public func tokenDifference(
    from current: SnapshotEnvironment, themes: ThemesLocation, library: ThemeLibrary? = nil
  ) -> String? {
    guard let here = current.tokensSHA256, tokensSHA256 != here else { return nil }
    let folder = "\(RenderSources.printable(themes.directory.path)) (\(themes.source.reason))"
    guard let recorded = tokensSHA256 else {
      return
        "tokens: \(Self.fileName) records no token digest; \(folder) resolves to sha256 \(here.prefix(12))… (re-record to add it)"
    }
    if let library, let changed = changedTokens(in: library), !changed.isEmpty {
      let shown = changed.prefix(Self.changedTokensShown)
      let more = changed.count - shown.count
      return
        "tokens: \(folder) differ from the values the references were recorded with"
        + Self.changedTokensMarker + shown.joined(separator: "; ")
        + (more > 0 ? "; … and \(more) more" : "")
    }
    let why =
      tokens == nil
      ? " (\(Self.fileName) predates token values: record the references again with this version so that verify names the changed tokens)"
      : ""
    return
      "tokens: \(folder) resolve to sha256 \(here.prefix(12))…, the references were recorded with \(recorded.prefix(12))…\(why)"
  }

  /// Whether a line of ``differences(from:)`` is about a font file (not a library version).
  public static func isFontDifference(_ line: String) -> Bool {
    !stackNames.contains { line.hasPrefix($0 + " ") }
  }

  private static let stackNames = [
    "cairo", "pango", "harfbuzz", "freetype", "fontconfig", "librsvg", "libspng",
  ]

  /// What differs between the recorded fingerprint (`self`) and `current`, one line each; empty when equal.
  ///
  /// Only the themes present in `current` are compared, so a filtered run does not complain about
  /// the fonts of themes it did not render. Fonts are matched by role and compared by SHA-256; a
  /// file found in another folder with the same hash is not a difference. Tokens are compared by
  /// ``tokenDifference(from:themes:)``.
  public func differences(from current: SnapshotEnvironment) -> [String] {
    var lines: [String] = []
    let stacks: [(String, KeyPath<RenderStack, String>)] = [
      ("cairo", \.cairo), ("pango", \.pango), ("harfbuzz", \.harfbuzz), ("freetype", \.freetype),
      ("fontconfig", \.fontconfig), ("librsvg", \.librsvg), ("libspng", \.libspng),
    ]
    for (name, path) in stacks
    where renderStack[keyPath: path] != current.renderStack[keyPath: path] {
      lines.append(
        "\(name) \(renderStack[keyPath: path]) in the references, \(current.renderStack[keyPath: path]) here"
      )
    }
    for theme in current.fonts.keys.sorted() {
      let here = current.fonts[theme] ?? []
      guard let recorded = fonts[theme] else {
        lines.append("\(theme): no fonts recorded for this theme")
        continue
      }
      let recordedByRole = Dictionary(
        recorded.map { ($0.role + "|" + $0.file, $0) }, uniquingKeysWith: { a, _ in a })
      let recordedRoles = Dictionary(
        recorded.map { ($0.role, $0) }, uniquingKeysWith: { a, _ in a })
      for font in here {
        let old = recordedByRole[font.role + "|" + font.file] ?? recordedRoles[font.role]
        guard let old else {
          lines.append("\(theme) font \(font.role): \(font.file) is new (not in the references)")
          continue
        }
        if old.sha256 != font.sha256 {
          let file = old.file == font.file ? font.file : "\(old.file) → \(font.file)"
          lines.append(
            "\(theme) font \(font.role): \(file) sha256 \(old.sha256.prefix(12))… in the references, \(font.sha256.prefix(12))… here"
          )
        }
      }
      let hereRoles = Set(here.map(\.role))
      for font in recorded where !hereRoles.contains(font.role) {
        lines.append(
          "\(theme) font \(font.role): \(font.file) is in the references but not loaded here")
      }
    }
    return lines
  }
}
