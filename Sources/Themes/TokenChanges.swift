import Primitives

extension TokenValue {
  /// The value as a designer writes it: colours as `#RRGGBB` (`#RRGGBBAA` when not opaque),
  /// dimensions and durations with their unit (`36px`), font families joined by `, `, weights
  /// and numbers in their shortest form, easings as `cubic-bezier(…)`, composites by type.
  public var displayText: String {
    switch self {
    case .color(let color): return color.hex
    case .dimension(let value, let unit): return Self.number(value) + unit
    case .number(let value): return Self.number(value)
    case .fontWeight(let weight): return String(weight)
    case .fontFamily(let families): return families.joined(separator: ", ")
    case .duration(let value, let unit): return Self.number(value) + unit
    case .cubicBezier(let points):
      return "cubic-bezier(" + points.map(Self.number).joined(separator: ", ") + ")"
    case .composite(let type): return "(\(type))"
    }
  }

  /// `36` for 36.0, `0.5` for 0.5.
  private static func number(_ value: Double) -> String {
    value.isFinite && value == value.rounded() && abs(value) < 1e15
      ? String(Int(value)) : String(value)
  }
}

/// One token whose resolved value differs between two themes folders, for one theme and mode.
public struct TokenChange: Hashable, Sendable {
  /// The theme.
  public var theme: ThemeName
  /// The mode.
  public var mode: ColorMode
  /// The dotted token path, e.g. `color.content.brand-primary`.
  public var path: String
  /// The token in the old folder; nil when the old folder does not define it.
  public var old: ResolvedToken?
  /// The token in the new folder; nil when the new folder does not define it.
  public var new: ResolvedToken?

  /// Creates a change.
  public init(
    theme: ThemeName, mode: ColorMode, path: String, old: ResolvedToken?, new: ResolvedToken?
  ) {
    self.theme = theme
    self.mode = mode
    self.path = path
    self.old = old
    self.new = new
  }

  /// The old value as text (``TokenValue/displayText``), `(none)` when absent.
  public var oldText: String { old.map { $0.value.displayText } ?? "(none)" }
  /// The new value as text, `(none)` when absent.
  public var newText: String { new.map { $0.value.displayText } ?? "(none)" }
  /// The file (relative to its themes folder) whose definition won: the new one, else the old one.
  public var file: String { new?.file ?? old?.file ?? "" }

  /// `<theme>/<mode> <token.path>: <old> → <new> (<file>)`, control characters escaped.
  public var line: String {
    MessageText.escaped(
      "\(theme.rawValue)/\(mode.rawValue) \(path): \(oldText) → \(newText) (\(file))")
  }
}

extension ThemeLibrary {
  /// Every token path the renderer reads to build a ``Theme`` (paddings, metrics, typography,
  /// the brand font families, the four colours), in the order it reads them.
  public static var componentTokenPaths: [String] { ThemeBuilder.requiredTokens }

  /// Token paths a theme reads for review documents only (`color.content.status.negative`, the
  /// colour of a failing figure under a `sheet --audit` cell): not required, not drawn by the
  /// component, not in ``renderTokenText()``.
  public static var reviewTokenPaths: [String] { ThemeBuilder.reviewTokens }

  /// The tokens of `name` in `mode` whose resolved value (or type) differs from the same context
  /// of `old`, and those only one of the two defines, sorted by path.
  ///
  /// Both sets are compared after aliases are resolved, so a token that aliases an edited one is
  /// listed too (its value changed); a token moved to another file with the same value is not.
  /// - Throws: `ThemeError` when the context does not resolve in either library.
  public func tokenChanges(from old: ThemeLibrary, theme name: ThemeName, mode: ColorMode)
    throws(ThemeError)
    -> [TokenChange]
  {
    let before = Dictionary(
      try old.tokens(name, mode: mode).map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
    let after = Dictionary(
      try tokens(name, mode: mode).map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
    var changes: [TokenChange] = []
    for path in Set(before.keys).union(after.keys).sorted() {
      let was = before[path]
      let now = after[path]
      if let was, let now, was.value == now.value, was.type == now.type { continue }
      changes.append(TokenChange(theme: name, mode: mode, path: path, old: was, new: now))
    }
    return changes
  }
}
