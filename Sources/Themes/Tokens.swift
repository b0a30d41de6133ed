import Primitives
import SafeInput

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A token value resolved for one theme and mode (aliases followed, types checked).
public enum TokenValue: Hashable, Sendable {
  /// An sRGB colour (8 bits per component, straight alpha).
  case color(RGBAColor)
  /// A length; the unit is `px` or `rem` (the renderer accepts only `px`).
  case dimension(value: Double, unit: String)
  /// A plain number.
  case number(Double)
  /// A font weight from 1 to 1000 (keywords such as `bold` are converted).
  case fontWeight(Int)
  /// Font families in preference order.
  case fontFamily([String])
  /// A duration; the unit is `ms` or `s`.
  case duration(value: Double, unit: String)
  /// A cubic Bézier easing `[x1, y1, x2, y2]`.
  case cubicBezier([Double])
  /// A composite DTCG type (typography, shadow, border…) kept as is and not interpreted.
  case composite(type: String)
}

/// One token of a resolved theme, with where it comes from.
public struct ResolvedToken: Hashable, Sendable {
  /// Dotted token path, e.g. `bullet-list.space.column-gap.body-large`.
  public var path: String
  /// The DTCG `$type`, own, inherited from a group, or taken from the alias target.
  public var type: String
  /// The resolved value.
  public var value: TokenValue
  /// The file (relative to the themes directory) whose definition won the merge.
  public var file: String
  /// The aliases followed, in order, e.g. `["space.column-gap.small", "dimension.100"]`; empty for a literal.
  public var aliasChain: [String]

  /// Creates a resolved token.
  public init(path: String, type: String, value: TokenValue, file: String, aliasChain: [String]) {
    self.path = path
    self.type = type
    self.value = value
    self.file = file
    self.aliasChain = aliasChain
  }
}

// MARK: - Parsed token files

/// The DTCG 2025.10 token types.
let knownTokenTypes: [String] = [
  "color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number",
  "strokeStyle", "border", "transition", "shadow", "gradient", "typography",
]

/// A token as written in one file.
struct TokenNode: Sendable {
  var type: String?
  var value: JSON
  var file: String
}

/// A group as written in one file, or merged from several.
struct GroupNode: Sendable {
  var type: String?
  var file: String
  var order: [String] = []
  var children: [String: TokenTreeNode] = [:]
}

/// A member of a group.
indirect enum TokenTreeNode: Sendable {
  case group(GroupNode)
  case token(TokenNode)
}

/// Reads DTCG token documents into trees, rejecting what this loader does not implement.
enum TokenFileParser {
  /// Parses the root group of a token document.
  static func parse(_ json: JSON, file: String) throws(ThemeError) -> GroupNode {
    guard json.members != nil else {
      throw ThemeError(
        file: file, message: "a token file must be a JSON object, found \(json.kindName)")
    }
    return try parseGroup(json, path: [], file: file, isRoot: true)
  }

  private static func parseGroup(_ json: JSON, path: [String], file: String, isRoot: Bool)
    throws(ThemeError) -> GroupNode
  {
    var group = GroupNode(type: nil, file: file)
    let here = path.isEmpty ? nil : path.joined(separator: ".")
    for (key, value) in json.members ?? [] {
      switch key {
      case "$type":
        group.type = try parseType(value, file: file, token: here)
      case "$description", "$extensions", "$deprecated":
        continue
      case "$schema" where isRoot:
        continue
      case "$extends":
        throw ThemeError(
          file: file, token: here,
          message:
            "$extends is not supported by this loader (alias the tokens with {a.b.c} instead)")
      case "$ref":
        throw ThemeError(
          file: file, token: here,
          message: "JSON Pointer $ref is not supported by this loader (use a curly alias {a.b.c})")
      case "$root":
        try add(key, value, to: &group, path: path, file: file)
      default:
        if key.hasPrefix("$") {
          throw ThemeError(
            file: file, token: here,
            message: "unknown property \(MessageText.quoted(key)) in a group")
        }
        try add(key, value, to: &group, path: path, file: file)
      }
    }
    return group
  }

  private static func add(
    _ name: String, _ value: JSON, to group: inout GroupNode, path: [String], file: String
  ) throws(ThemeError) {
    let childPath = path + [name]
    let dotted = childPath.joined(separator: ".")
    if name.contains(".") || name.contains("{") || name.contains("}") || name.isEmpty {
      throw ThemeError(
        file: file, token: dotted,
        message:
          "invalid name \(MessageText.quoted(name)) (names must not be empty or contain '.', '{' or '}')"
      )
    }
    guard value.members != nil else {
      throw ThemeError(
        file: file, token: dotted,
        message: "expected a token or a group (an object), found \(value.kindName)")
    }
    let node: TokenTreeNode
    if let tokenValue = value["$value"] {
      node = .token(try parseToken(value, value: tokenValue, path: dotted, file: file))
    } else if name == "$root" {
      throw ThemeError(
        file: file, token: dotted, message: "$root must be a token (it has no $value)")
    } else {
      node = .group(try parseGroup(value, path: childPath, file: file, isRoot: false))
    }
    group.order.append(name)
    group.children[name] = node
  }

  private static func parseToken(_ json: JSON, value: JSON, path: String, file: String)
    throws(ThemeError) -> TokenNode
  {
    var type: String?
    for (key, member) in json.members ?? [] {
      switch key {
      case "$value", "$description", "$extensions", "$deprecated": continue
      case "$type": type = try parseType(member, file: file, token: path)
      default:
        let what =
          key.hasPrefix("$")
          ? "unknown property \(MessageText.quoted(key)) in a token"
          : "a token cannot contain \(MessageText.quoted(key)) (tokens have no children)"
        throw ThemeError(file: file, token: path, message: what)
      }
    }
    if containsPointerRef(value) {
      throw ThemeError(
        file: file, token: path,
        message:
          "JSON Pointer $ref in $value is not supported by this loader (use a curly alias {a.b.c})")
    }
    return TokenNode(type: type, value: value, file: file)
  }

  private static func parseType(_ json: JSON, file: String, token: String?) throws(ThemeError)
    -> String
  {
    guard let type = json.stringValue else {
      throw ThemeError(
        file: file, token: token, message: "$type must be a string, found \(json.kindName)")
    }
    guard knownTokenTypes.contains(type) else {
      throw ThemeError(
        file: file, token: token,
        message:
          "unknown $type \(MessageText.quoted(type)) (known: \(knownTokenTypes.joined(separator: ", ")))"
      )
    }
    return type
  }

  private static func containsPointerRef(_ json: JSON) -> Bool {
    switch json {
    case .object(let members):
      members.contains { $0.key == "$ref" || containsPointerRef($0.value) }
    case .array(let items): items.contains(where: containsPointerRef)
    default: false
    }
  }
}

// MARK: - Merging and resolving

/// Merges token trees in order (last wins) and resolves the aliases of the result.
struct TokenResolver {
  /// A flattened token with the type it inherits from its groups.
  private struct FlatToken {
    var path: String
    var node: TokenNode
    var groupType: String?
  }

  private var flat: [FlatToken] = []
  private var indexByPath: [String: Int] = [:]
  private var resolved: [String: ResolvedToken] = [:]

  /// Deep-merges `source` into `target`: groups merge member by member, a token replaces a token.
  static func merge(_ source: GroupNode, into target: inout GroupNode, path: [String] = [])
    throws(ThemeError)
  {
    if let type = source.type { target.type = type }
    for name in source.order {
      guard let incoming = source.children[name] else { continue }
      let childPath = path + [name]
      guard let existing = target.children[name] else {
        target.order.append(name)
        target.children[name] = incoming
        continue
      }
      switch (existing, incoming) {
      case (.group(var mine), .group(let theirs)):
        try merge(theirs, into: &mine, path: childPath)
        target.children[name] = .group(mine)
      case (.token, .token):
        target.children[name] = incoming
      case (.group(let mine), .token(let theirs)):
        throw ThemeError(
          file: theirs.file, token: childPath.joined(separator: "."),
          message: "is a token here but a group in \(mine.file)")
      case (.token(let mine), .group(let theirs)):
        throw ThemeError(
          file: theirs.file, token: childPath.joined(separator: "."),
          message: "is a group here but a token in \(mine.file)")
      }
    }
  }

  /// Prepares the resolution of a merged tree.
  init(merged root: GroupNode) {
    flatten(root, path: [], inherited: root.type)
  }

  private mutating func flatten(_ group: GroupNode, path: [String], inherited: String?) {
    for name in group.order {
      guard let child = group.children[name] else { continue }
      let childPath = path + [name]
      switch child {
      case .group(let g):
        flatten(g, path: childPath, inherited: g.type ?? inherited)
      case .token(let t):
        let dotted = childPath.joined(separator: ".")
        indexByPath[dotted] = flat.count
        flat.append(FlatToken(path: dotted, node: t, groupType: inherited))
      }
    }
  }

  /// The longest chain of aliases followed to reach a value (`a` → `b` → … → literal).
  static let maxAliasDepth = 64

  /// Resolves every token, in document order; the first problem is thrown.
  mutating func resolveAll() throws(ThemeError) -> [ResolvedToken] {
    var out: [ResolvedToken] = []
    out.reserveCapacity(flat.count)
    for token in flat {
      out.append(try resolve(token.path))
    }
    return out
  }

  /// Resolves `path`, following its aliases iteratively (no recursion, so a long chain cannot
  /// overflow the stack) up to ``maxAliasDepth`` links; every token met on the way is resolved too.
  private mutating func resolve(_ path: String) throws(ThemeError) -> ResolvedToken {
    if let done = resolved[path] { return done }
    // The tokens whose values are aliases, from `path` on, with their targets.
    var chain: [(token: FlatToken, target: String)] = []
    var positions: [String: Int] = [:]
    var current = path
    var end: ResolvedToken
    while true {
      if let done = resolved[current] {
        end = done
        break
      }
      guard let index = indexByPath[current] else {
        // Callers check existence first; this is a defensive message.
        throw ThemeError(token: current, message: "no such token")
      }
      let token = flat[index]
      let file = token.node.file
      guard let target = try Self.aliasTarget(token.node.value, file: file, path: current) else {
        guard let declared = token.node.type ?? token.groupType else {
          throw ThemeError(
            file: file, token: current,
            message:
              "token has no $type (set it on the token or a parent group, or alias a typed token)")
        }
        let value = try TokenValueParser.parse(
          token.node.value, type: declared, file: file, path: current)
        end = ResolvedToken(path: current, type: declared, value: value, file: file, aliasChain: [])
        resolved[current] = end
        break
      }
      positions[current] = chain.count
      chain.append((token, target))
      if let cycleStart = positions[target] {
        let cycle = (chain[cycleStart...].map(\.token.path) + [target]).joined(separator: " -> ")
        throw ThemeError(
          file: file, token: current, message: "alias cycle \(MessageText.value(cycle, limit: 400))"
        )
      }
      guard indexByPath[target] != nil else {
        throw ThemeError(
          file: file, token: current,
          message: "alias {\(MessageText.value(target))} points to no token")
      }
      if chain.count > Self.maxAliasDepth {
        throw ThemeError(
          file: chain[0].token.node.file, token: path,
          message:
            "alias chain longer than \(Self.maxAliasDepth) links (\(MessageText.value(path)) -> \(MessageText.value(chain[1].token.path)) -> … -> \(MessageText.value(target))); shorten it"
        )
      }
      current = target
    }
    // Back along the chain: each alias takes its target's value and type.
    for (token, target) in chain.reversed() {
      let file = token.node.file
      if let declared = token.node.type ?? token.groupType, declared != end.type {
        throw ThemeError(
          file: file, token: token.path,
          message: "is a \(declared) but its alias {\(MessageText.value(target))} is a \(end.type)")
      }
      end = ResolvedToken(
        path: token.path, type: end.type, value: end.value, file: file,
        aliasChain: [target] + end.aliasChain)
      resolved[token.path] = end
    }
    return end
  }

  /// The target of a whole-value curly alias, nil for a literal value.
  static func aliasTarget(_ value: JSON, file: String, path: String) throws(ThemeError) -> String? {
    guard case .string(let s) = value, s.contains("{") || s.contains("}") else { return nil }
    guard s.hasPrefix("{"), s.hasSuffix("}"), s.count > 2 else {
      throw ThemeError(
        file: file, token: path,
        message:
          "malformed alias \(MessageText.quoted(s)) (an alias is the whole value, like {a.b.c})")
    }
    let inner = String(s.dropFirst().dropLast())
    guard !inner.contains("{"), !inner.contains("}"),
      !inner.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
    else {
      throw ThemeError(
        file: file, token: path,
        message:
          "malformed alias \(MessageText.quoted(s)) (an alias is the whole value, like {a.b.c})")
    }
    return inner
  }
}

/// Checks a literal `$value` against its `$type`.
enum TokenValueParser {
  static func parse(_ json: JSON, type: String, file: String, path: String) throws(ThemeError)
    -> TokenValue
  {
    func fail(_ message: String) -> ThemeError {
      ThemeError(file: file, token: path, message: message)
    }
    switch type {
    case "color":
      return .color(try parseColor(json, fail: fail))
    case "dimension", "duration":
      let units = type == "dimension" ? ["px", "rem"] : ["ms", "s"]
      guard let members = json.members else {
        throw fail(
          "a \(type) must be an object {\"value\": number, \"unit\": \(units.map { "\"\($0)\"" }.joined(separator: "|"))}, found \(json.kindName)"
        )
      }
      for (key, _) in members where key != "value" && key != "unit" {
        throw fail("unknown member \(MessageText.quoted(key)) in a \(type) value")
      }
      guard let value = json["value"]?.numberValue else {
        throw fail("a \(type) needs a numeric \"value\"")
      }
      guard value.isFinite else { throw fail("a \(type) value must be a finite number") }
      guard let unit = json["unit"]?.stringValue, units.contains(unit) else {
        throw fail(
          "a \(type) needs \"unit\" \(units.map { "\"\($0)\"" }.joined(separator: " or "))")
      }
      return type == "dimension"
        ? .dimension(value: value, unit: unit) : .duration(value: value, unit: unit)
    case "number":
      guard let n = json.numberValue else {
        throw fail("a number token needs a number, found \(json.kindName)")
      }
      guard n.isFinite else { throw fail("a number token must be a finite number") }
      return .number(n)
    case "fontWeight":
      if let n = json.numberValue {
        guard n >= 1, n <= 1000, n.rounded() == n else {
          throw fail("font weight \(n) is not an integer from 1 to 1000")
        }
        return .fontWeight(Int(n))
      }
      if let keyword = json.stringValue, let n = fontWeightKeywords[keyword] {
        return .fontWeight(n)
      }
      throw fail(
        "a fontWeight must be a number from 1 to 1000 or a keyword such as \"regular\" or \"bold\"")
    case "fontFamily":
      if let s = json.stringValue, !s.isEmpty { return .fontFamily([s]) }
      if case .array(let items) = json, !items.isEmpty {
        var names: [String] = []
        for item in items {
          guard let s = item.stringValue, !s.isEmpty else {
            throw fail("a fontFamily array must hold non-empty strings")
          }
          names.append(s)
        }
        return .fontFamily(names)
      }
      throw fail("a fontFamily must be a non-empty string or array of strings")
    case "cubicBezier":
      guard case .array(let items) = json, items.count == 4 else {
        throw fail("a cubicBezier must be an array of 4 numbers")
      }
      var values: [Double] = []
      for item in items {
        guard let n = item.numberValue, n.isFinite else {
          throw fail("a cubicBezier must be an array of 4 finite numbers")
        }
        values.append(n)
      }
      return .cubicBezier(values)
    default:
      return .composite(type: type)
    }
  }

  static let fontWeightKeywords: [String: Int] = [
    "thin": 100, "hairline": 100, "extra-light": 200, "ultra-light": 200, "light": 300,
    "normal": 400, "regular": 400, "book": 400, "medium": 500, "semi-bold": 600, "demi-bold": 600,
    "bold": 700, "extra-bold": 800, "ultra-bold": 800, "black": 900, "heavy": 900,
    "extra-black": 950, "ultra-black": 950,
  ]

  /// A DTCG colour: `colorSpace` `srgb` with `components` (three numbers from 0 to 1), `hex`
  /// (`#RRGGBB`), or both; what is left out is derived from the other. `colorSpace` may be left
  /// out when `hex` is given (a hex colour is sRGB). When both are written they must agree: the
  /// error gives the components that match the hex.
  private static func parseColor(_ json: JSON, fail: (String) -> ThemeError) throws(ThemeError)
    -> RGBAColor
  {
    let shape = "{\"colorSpace\": \"srgb\", \"components\": [r, g, b]} or {\"hex\": \"#RRGGBB\"}"
    guard let members = json.members else {
      throw fail("a color must be an object \(shape), found \(json.kindName)")
    }
    for (key, _) in members where !["colorSpace", "components", "alpha", "hex"].contains(key) {
      throw fail("unknown member \(MessageText.quoted(key)) in a color value")
    }
    if let spaceJSON = json["colorSpace"] {
      guard let space = spaceJSON.stringValue else {
        throw fail("colorSpace must be a string such as \"srgb\"")
      }
      guard space == "srgb" else {
        throw fail("colorSpace \(MessageText.quoted(space)) is not supported (use \"srgb\")")
      }
    }
    var written: RGBAColor?
    if let hexJSON = json["hex"] {
      // `#RRGGBB` exactly: the DTCG hex has no alpha.
      guard let hex = hexJSON.stringValue, hex.utf8.count == 7, hex.hasPrefix("#"),
        let color = RGBAColor(hex: hex)
      else {
        throw fail(
          "invalid hex \(hexJSON.stringValue.map { "\(MessageText.quoted($0))" } ?? hexJSON.kindName) (expected \"#RRGGBB\")"
        )
      }
      written = color
    }
    var fromComponents: (color: RGBAColor, shown: String)?
    if let componentsJSON = json["components"] {
      guard json["colorSpace"] != nil else {
        throw fail(
          "a color with \"components\" needs \"colorSpace\": \"srgb\" (or write \"hex\" alone)")
      }
      guard case .array(let items) = componentsJSON, items.count == 3 else {
        throw fail("a color needs \"components\": three numbers from 0 to 1")
      }
      var bytes: [UInt8] = []
      var shown: [String] = []
      for item in items {
        guard let c = item.numberValue, c >= 0, c <= 1 else {
          throw fail("a color needs \"components\": three numbers from 0 to 1")
        }
        shown.append(String(c))
        bytes.append(UInt8((c * 255).rounded()))
      }
      fromComponents = (
        RGBAColor(red: bytes[0], green: bytes[1], blue: bytes[2]), shown.joined(separator: ", ")
      )
    }
    let opaque: RGBAColor
    switch (written, fromComponents) {
    case (let hex?, let components?):
      guard hex == components.color else {
        throw fail(
          "hex \(hex.hex) does not match components [\(components.shown)] (\(components.color.hex)); the components of \(hex.hex) are \(componentsText(of: hex))"
        )
      }
      opaque = hex
    case (let hex?, nil):
      opaque = hex
    case (nil, let components?):
      opaque = components.color
    case (nil, nil):
      throw fail(
        "a color needs \"hex\" (\"#RRGGBB\") or \"colorSpace\": \"srgb\" with \"components\" (three numbers from 0 to 1)"
      )
    }
    var alphaByte: UInt8 = 255
    if let alpha = json["alpha"] {
      guard let a = alpha.numberValue, a >= 0, a <= 1 else {
        throw fail("alpha must be a number from 0 to 1")
      }
      alphaByte = UInt8((a * 255).rounded())
    }
    return RGBAColor(red: opaque.red, green: opaque.green, blue: opaque.blue, alpha: alphaByte)
  }

  /// The sRGB components of `color` as a DTCG `components` array, four decimals each (enough to
  /// give back the same byte): `[0.9451, 0.4314, 0]` for `#F16E00`.
  static func componentsText(of color: RGBAColor) -> String {
    "["
      + [color.red, color.green, color.blue].map { byte -> String in
        let tenThousandths = Int((Double(byte) / 255 * 10000).rounded())
        guard tenThousandths % 10000 != 0 else { return String(tenThousandths / 10000) }
        var fraction = String(tenThousandths % 10000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "0." + fraction
      }.joined(separator: ", ") + "]"
  }

}
