/// A closed set of names people type (on a command line, in a catalogue case file): themes, modes,
/// platforms, text styles, directions. All of them are read by ``parse(_:)``, with one rule.
public protocol NamedValue: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == String, AllCases == [Self] {
  /// What the names are called in a message, e.g. `theme` in `unknown theme "x"`.
  static var kindName: String { get }
}

extension NamedValue {
  /// Every name, in declaration order (the raw values).
  public static var names: [String] { allCases.map(\.rawValue) }

  /// The value named `text`.
  ///
  /// The one leniency rule: case, spaces, `-` and `_` do not count, so `orange-compact`,
  /// `Orange_Compact`, `orange compact` and `orangecompact` all name Orange Compact, `Dark` names
  /// dark, and `body-large` names bodyLarge.
  /// - Throws: ``UnknownNameError`` listing the known names.
  public static func parse(_ text: String) throws(UnknownNameError) -> Self {
    let key = NameKey.normalized(text)
    if let match = allCases.first(where: { NameKey.normalized($0.rawValue) == key }) {
      return match
    }
    throw UnknownNameError(kind: kindName, name: text, known: names)
  }
}

/// How ``NamedValue/parse(_:)`` compares names; the command line matches its other closed sets of
/// names (formats, shells) with the same rule.
public enum NameKey {
  /// `text` lower-cased, without spaces (any white space), `-` and `_`.
  public static func normalized(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.lowercased().unicodeScalars
    where scalar != "-" && scalar != "_" && !scalar.properties.isWhitespace {
      out.append(scalar)
    }
    return String(out)
  }
}

/// A name that is not one of the known names of its kind.
///
/// The description is one line: `unknown theme "foo" (known: orange, orange-compact, sosh,
/// wireframe)`, the given name escaped and cut by ``MessageText``, so an input can neither break
/// the message nor drive the terminal.
public struct UnknownNameError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was being named (`theme`, `mode`, `platform`…).
  public var kind: String
  /// The name as given.
  public var name: String
  /// The names that are known.
  public var known: [String]

  /// Creates an error.
  public init(kind: String, name: String, known: [String]) {
    self.kind = kind
    self.name = name
    self.known = known
  }

  /// `unknown <kind> "<name>" (known: a, b)`, the name as ``MessageText/quoted(_:limit:)`` writes it.
  public var description: String {
    "unknown \(kind) \(MessageText.quoted(name)) (known: \(known.joined(separator: ", ")))"
  }
}

/// One of the four OUDS themes this renderer knows.
public enum ThemeName: String, Codable, Sendable, CaseIterable, NamedValue {
  /// Orange.
  case orange
  /// Orange Compact (denser Orange).
  case orangeCompact = "orange-compact"
  /// Sosh.
  case sosh
  /// Wireframe.
  case wireframe

  /// `theme`, in messages about an unknown name.
  public static let kindName = "theme"

  /// The name people read, e.g. "Orange Compact".
  public var displayName: String {
    switch self {
    case .orange: "Orange"
    case .orangeCompact: "Orange Compact"
    case .sosh: "Sosh"
    case .wireframe: "Wireframe"
    }
  }
}

/// Light or dark mode.
public enum ColorMode: String, Codable, Sendable, CaseIterable, NamedValue {
  /// Light mode.
  case light
  /// Dark mode.
  case dark

  /// `mode`, in messages about an unknown name.
  public static let kindName = "mode"
}

/// Whose rules to draw with where the iOS and Android components differ (SPEC §2, §3, §6).
///
/// Everything else (tokens, sizes, colours, shapes, inheritance) is the same on both. The
/// differences, and only those:
///
/// | rule | `ios` | `android` |
/// |---|---|---|
/// | bullet asset level | nesting depth | depth − Ordered ancestors, at most 2 |
/// | Arabic letters in ordered prefixes | Arabic locale | right-to-left direction |
/// | rich text in bold text | refused | drawn; links underlined, link colour |
/// | extra leading of a line | split equally | in proportion to ascent : descent |
/// | marker taller than the first line | label at the top | label centred on the row |
public enum Platform: String, Codable, Hashable, Sendable, CaseIterable, NamedValue {
  /// The iOS `OUDSBulletList` (the default).
  case ios
  /// The Android `OudsBulletList` (Jetpack Compose).
  case android

  /// `platform`, in messages about an unknown name.
  public static let kindName = "platform"

  /// The name shown to people: `iOS`, `Android`.
  public var displayName: String {
    switch self {
    case .ios: "iOS"
    case .android: "Android"
    }
  }
}

/// The two text styles of the bullet list: what a list names (`bodyLarge`) and what the theme's
/// tokens are named after (`body-large`).
public enum TextStyle: String, Codable, Hashable, Sendable, CaseIterable, NamedValue {
  /// Body Large, for visual, engaging content.
  case bodyLarge
  /// Body Medium, for functional, task-oriented content.
  case bodyMedium

  /// `text style`, in messages about an unknown name.
  public static let kindName = "text style"

  /// The name in token paths: `body-large`, `body-medium`.
  public var tokenName: String {
    switch self {
    case .bodyLarge: "body-large"
    case .bodyMedium: "body-medium"
    }
  }
}

/// The pixel scales a PNG can be drawn at: pixels per point, the same range for the command
/// line, the snapshot catalogue and the Swift API.
public enum PixelScale {
  /// 1, 2 or 3 (the iOS scale factors).
  public static let supported: ClosedRange<Int> = 1...3
  /// The scale used when none is given.
  public static let standard = 2
  /// The supported scales in words: `1, 2 or 3`.
  public static var choices: String {
    let all = supported.map(String.init)
    return all.dropLast().joined(separator: ", ") + " or " + (all.last ?? "")
  }
}

/// The canvas widths a list can be laid out at, in points: the same range for the command line
/// (`--width`) and the snapshot catalogue (`"widths"`).
public enum CanvasWidth {
  /// 40 to 10000 points.
  public static let supported: ClosedRange<Double> = 40...10000
  /// The width used when none is given: 360 points, the width of the OUDS previews.
  public static let standard: Double = 360
}

/// The two formats a list file is written in: the JSON list format or a Markdown list.
public enum ListFormat: String, Codable, Hashable, Sendable, CaseIterable, NamedValue {
  /// The JSON list format (`Snapshots/bullet-list.schema.json`).
  case json
  /// A Markdown list (`-`, `*`, `+` or `1.` items) with an optional JSON front matter.
  case markdown

  /// `input format`, in messages about an unknown name.
  public static let kindName = "input format"

  /// The format a file name says: `markdown` for a name ending in `.md` or `.markdown` (any
  /// letter case), `json` for anything else.
  public init(fileName: String) {
    let lowered = fileName.lowercased()
    self = lowered.hasSuffix(".md") || lowered.hasSuffix(".markdown") ? .markdown : .json
  }
}
