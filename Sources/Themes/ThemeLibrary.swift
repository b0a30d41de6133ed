import Primitives
import SafeInput
import StrictJSON
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The themes of a `Themes/` directory: reads the DTCG resolver, then each file the first time a
/// theme needs it, and hands out resolved themes.
///
/// `init(directory:)` parses `themes.resolver.json` alone and checks that every file it references
/// exists inside the directory. Everything else is read when first needed, once: a theme × mode
/// reads the token files of its resolver context (the core set and its own brand files, never
/// another theme's), `components/bullet-list.spec.json` and the marker asset files it names for
/// that theme, and `fonts/<theme>.fonts.json` when its fonts are asked for. So rendering one
/// theme parses none of the other three themes' files. A problem (a file that is not valid JSON,
/// a broken alias, a cycle, a missing token) is thrown by the calls that need the file or the
/// context, for those only; ``readAll()`` reads everything at once and throws the first problem
/// of a file. A library and its copies share what they have read; it is safe to use from
/// several threads.
public struct ThemeLibrary: Sendable {
  /// The themes directory this library was read from.
  public let directory: URL

  /// Name of the resolver document inside the themes directory.
  public static let resolverFileName = "themes.resolver.json"
  /// Non-DTCG file naming each theme's marker asset files and its italic rule, relative to the themes directory.
  public static let specFileName = "components/bullet-list.spec.json"
  /// Name of the modifier whose contexts are `<theme>-<mode>`.
  public static let themeModifierName = "theme"

  private let reader: FileReader
  private let resolver: ResolverDocument
  private let state: Locked<LoadState>

  private struct ResolvedContext: Sendable {
    var theme: Theme
    var tokens: [ResolvedToken]
    var warnings: [String]
  }

  /// What has been read so far; every entry is computed once, holding the lock.
  private struct LoadState: Sendable {
    var tokenFiles: [String: Result<GroupNode, ThemeError>] = [:]
    var spec: Result<JSON, ThemeError>?
    var markers: MarkerLoader
    var shapes: [ThemeName: Result<(MarkerShapes, Bool), ThemeError>] = [:]
    var contexts: [String: Result<ResolvedContext, ThemeError>] = [:]
    var manifests: [ThemeName: Result<FontManifest, ThemeError>] = [:]
    var files: [URL]?
    /// The files parsed so far, relative to the directory, in the order first read.
    var parsed: [String] = []
  }

  /// Reads the resolver of `directory` (the folder that holds `themes.resolver.json`).
  /// - Throws: `ThemeError` when the resolver cannot be read or is not valid, or names a file
  ///   that does not exist or is outside the directory.
  public init(directory: URL) throws(ThemeError) {
    self.directory = directory.standardizedFileURL
    reader = FileReader(directory: self.directory)
    resolver = try ResolverDocument(json: try reader.json(Self.resolverFileName), reader: reader)
    var initial = LoadState(markers: MarkerLoader(directory: self.directory))
    initial.parsed = [Self.resolverFileName]
    state = Locked(initial)
  }

  /// The files parsed so far, relative to the directory, each once, in the order first read
  /// (the resolver first): what a command really read of the themes folder.
  public var filesRead: [String] { state.withLock { $0.parsed } }

  /// Every file of the directory the library reads or may read (resolver, token files the
  /// resolver references, spec, the marker assets it names, font manifests), each once: the
  /// inputs an output must never replace. Lists the spec's marker files without reading them.
  public var files: [URL] {
    state.withLock { state in
      if let files = state.files { return files }
      var markerFiles: [String] = []
      if case .success(let spec) = loadSpec(&state) {
        for name in ThemeName.allCases {
          guard let entry = try? SpecReader.read(spec, theme: name) else { continue }
          for file in entry.markers.levels + [entry.markers.tick]
          where !markerFiles.contains(file) {
            markerFiles.append(file)
          }
        }
      }
      let relative =
        [Self.resolverFileName] + resolver.files + [Self.specFileName]
        + markerFiles.map { "\(MarkerLoader.folder)/\($0)" }
        + ThemeName.allCases.map(Self.fontManifestFileName(for:))
      let files = relative.compactMap { try? reader.path($0) }.map { URL(fileURLWithPath: $0) }
      state.files = files
      return files
    }
  }

  /// Reads every file now (token files, spec, marker assets, font manifests) and resolves every
  /// theme × mode, for commands that use them all and stop at a broken file (`snapshot`,
  /// `gallery`, `--compare-themes`).
  /// - Throws: the first token file that cannot be read or parsed, in the resolver's order, else
  ///   the spec's problem. A problem of one context (a broken alias, a missing token, a marker
  ///   asset) or of one manifest is left to ``theme(_:mode:)`` and ``fontManifest(for:)``.
  public func readAll() throws(ThemeError) {
    try state.withLock { (state) throws(ThemeError) in
      for file in resolver.files { _ = try loadTokenFile(file, &state).get() }
      _ = try loadSpec(&state).get()
      for name in ThemeName.allCases {
        for mode in ColorMode.allCases { _ = resolve(Self.contextName(name, mode), &state) }
        _ = loadManifest(name, &state)
      }
    }
  }

  /// The name of the resolver context for a theme and mode, e.g. `orange-compact-dark`.
  public static func contextName(_ name: ThemeName, _ mode: ColorMode) -> String {
    "\(name.rawValue)-\(mode.rawValue)"
  }

  /// The font manifest file of a theme, relative to the themes directory, e.g. `fonts/sosh.fonts.json`.
  public static func fontManifestFileName(for name: ThemeName) -> String {
    "fonts/\(name.rawValue).fonts.json"
  }

  /// The theme `name` resolved for `mode`: the core set merged with the `<name>-<mode>` context, aliases resolved.
  public func theme(_ name: ThemeName, mode: ColorMode) throws(ThemeError) -> Theme {
    try context(name, mode).theme
  }

  /// Every token of the theme `name` in `mode`, resolved, in document order of the merged files.
  public func tokens(_ name: ThemeName, mode: ColorMode) throws(ThemeError) -> [ResolvedToken] {
    try context(name, mode).tokens
  }

  /// What a person editing the tokens of `name` in `mode` should know although the theme loads,
  /// one line each naming the file and token: padding levels that collapse into one indent
  /// (`bullet-list.space.padding-inline.level-1` not greater than `level-0`). Empty when the
  /// context does not resolve (its error says why).
  public func warnings(_ name: ThemeName, mode: ColorMode) -> [String] {
    (try? context(name, mode).warnings) ?? []
  }

  /// The font files the theme `name` declares in `fonts/<name>.fonts.json`.
  public func fontManifest(for name: ThemeName) throws(ThemeError) -> FontManifest {
    try state.withLock { loadManifest(name, &$0) }.get()
  }

  /// Every resolved token of every theme × mode as canonical text: what a sheet's "edited"
  /// compares (``renderTokenText()`` is the part `Snapshots/ENVIRONMENT.json` digests).
  ///
  /// One block per context, in `ThemeName.allCases` × `ColorMode.allCases` order: `# <context>`,
  /// then one `<path>\t<type>\t<value>` line per token sorted by path. Numbers are written in
  /// Swift's shortest round-trip form, colours as upper-case hex, font families joined by `, `.
  /// A context that does not resolve is written as `error\t<message>`. File names, aliases and
  /// formatting of the token files do not enter it: only the resolved values.
  public func canonicalTokenText() -> String {
    canonicalText { _ in true }
  }

  /// The resolved tokens the renderer reads (``componentTokenPaths``) of every theme × mode as
  /// canonical text, in the form of ``canonicalTokenText()``: what the token digest of
  /// `Snapshots/ENVIRONMENT.json` is computed from.
  ///
  /// A token the renderer does not read (a raw palette entry no component token aliases, a
  /// link's pressed colour, `color.content.status.negative` that only `sheet --audit` draws) does
  /// not enter it, so adding or editing one leaves the references valid; a raw token that a read
  /// token aliases enters it
  /// through that token's resolved value.
  public func renderTokenText() -> String {
    let read = Set(Self.componentTokenPaths)
    return canonicalText { read.contains($0) }
  }

  /// One block per context of the resolved tokens whose path `includes` accepts.
  private func canonicalText(including includes: (String) -> Bool) -> String {
    var text = ""
    for name in ThemeName.allCases {
      for mode in ColorMode.allCases {
        let context = Self.contextName(name, mode)
        text += "# \(context)\n"
        switch state.withLock({ resolve(context, &$0) }) {
        case .success(let resolved):
          for token in resolved.tokens.sorted(by: { $0.path < $1.path }) where includes(token.path)
          {
            text += "\(token.path)\t\(token.type)\t\(Self.canonical(token.value))\n"
          }
        case .failure(let error):
          text += "error\t\(error)\n"
        }
      }
    }
    return text
  }

  private static func canonical(_ value: TokenValue) -> String {
    switch value {
    case .color(let color): return color.hex
    case .dimension(let value, let unit): return "\(value)\(unit)"
    case .number(let value): return "\(value)"
    case .fontWeight(let weight): return "\(weight)"
    case .fontFamily(let families): return families.joined(separator: ", ")
    case .duration(let value, let unit): return "\(value)\(unit)"
    case .cubicBezier(let points): return points.map { "\($0)" }.joined(separator: ",")
    case .composite(let type): return "composite \(type)"
    }
  }

  private func context(_ name: ThemeName, _ mode: ColorMode) throws(ThemeError) -> ResolvedContext {
    let context = Self.contextName(name, mode)
    return try state.withLock { resolve(context, &$0) }.get()
  }

  // MARK: Loading, with the lock held

  /// Records that `file` was parsed.
  private func noteParsed(_ file: String, _ state: inout LoadState) {
    if !state.parsed.contains(file) { state.parsed.append(file) }
  }

  private func loadTokenFile(_ file: String, _ state: inout LoadState) -> Result<
    GroupNode, ThemeError
  > {
    if let known = state.tokenFiles[file] { return known }
    noteParsed(file, &state)
    let result = Result { () throws(ThemeError) in
      try TokenFileParser.parse(try reader.json(file), file: file)
    }
    state.tokenFiles[file] = result
    return result
  }

  private func loadSpec(_ state: inout LoadState) -> Result<JSON, ThemeError> {
    if let known = state.spec { return known }
    noteParsed(Self.specFileName, &state)
    let result = Result { () throws(ThemeError) in try reader.json(Self.specFileName) }
    state.spec = result
    return result
  }

  private func loadShapes(_ name: ThemeName, _ state: inout LoadState) -> Result<
    (MarkerShapes, Bool), ThemeError
  > {
    if let known = state.shapes[name] { return known }
    let result = Result { () throws(ThemeError) in
      let entry = try SpecReader.read(try loadSpec(&state).get(), theme: name)
      let before = state.markers.files
      let shapes = try state.markers.shapes(entry.markers, theme: name)
      for file in state.markers.files where !before.contains(file) {
        noteParsed("\(MarkerLoader.folder)/\(file)", &state)
      }
      return (shapes, entry.allowsItalic)
    }
    state.shapes[name] = result
    return result
  }

  private func loadManifest(_ name: ThemeName, _ state: inout LoadState) -> Result<
    FontManifest, ThemeError
  > {
    if let known = state.manifests[name] { return known }
    let file = Self.fontManifestFileName(for: name)
    noteParsed(file, &state)
    let result = Result { () throws(ThemeError) in
      try FontManifestReader.read(reader: reader, file: file, theme: name)
    }
    state.manifests[name] = result
    return result
  }

  private func resolve(_ context: String, _ state: inout LoadState) -> Result<
    ResolvedContext, ThemeError
  > {
    if let known = state.contexts[context] { return known }
    guard
      let (name, mode) = ThemeName.allCases.lazy.flatMap({ name in
        ColorMode.allCases.map { (name, $0) }
      }).first(where: { Self.contextName($0.0, $0.1) == context })
    else {
      return .failure(
        ThemeError(
          file: Self.resolverFileName, message: "no context \(MessageText.quoted(context))"))
    }
    let result = Result { () throws(ThemeError) -> ResolvedContext in
      let merged = try resolver.merge(themeContext: context) { (file) throws(ThemeError) in
        try loadTokenFile(file, &state).get()
      }
      var tokenResolver = TokenResolver(merged: merged)
      let tokens = try tokenResolver.resolveAll()
      let (shapeNames, allowsItalic) = try loadShapes(name, &state).get()
      let builder = ThemeBuilder(context: context, tokens: tokens)
      let theme = try builder.build(
        name: name, mode: mode, shapes: shapeNames, allowsItalic: allowsItalic)
      return ResolvedContext(theme: theme, tokens: tokens, warnings: builder.paddingWarnings())
    }
    state.contexts[context] = result
    return result
  }
}

// MARK: - Files

/// Reads files of the themes directory and reports paths relative to it.
///
/// Every path is confined to the directory (see ``SafeInput/FolderReference``): an absolute path,
/// a `..` above it or a symbolic link out of it is refused, so a crafted themes folder cannot make
/// the tool read other files.
struct FileReader: Sendable {
  var directory: URL

  /// How messages name the directory.
  static let folderName = "the themes folder"

  /// Where a file path was written, for errors: the file, the location in it, and what names the path (`$ref`).
  struct Reference {
    var file: String
    var location: String
    var label: String
  }

  /// The path of `relative` inside the directory.
  /// - Throws: `ThemeError` naming `reference` (the file and location that wrote the path) or,
  ///   for a file the loader names itself, the file.
  func path(_ relative: String, reference: Reference? = nil) throws(ThemeError) -> String {
    switch FolderReference.resolve(relative, inside: directory) {
    case .success(let path):
      return path
    case .failure(let problem):
      if let reference {
        throw ThemeError(
          file: reference.file, token: reference.location,
          message:
            "\(reference.label) \(MessageText.quoted(relative)) \(problem.message(folder: Self.folderName))"
        )
      }
      throw ThemeError(file: relative, message: problem.message(folder: Self.folderName))
    }
  }

  /// Whether a file exists at the confined path of `relative`.
  func exists(_ relative: String, reference: Reference? = nil) throws(ThemeError) -> Bool {
    FileManager.default.fileExists(atPath: try path(relative, reference: reference))
  }

  /// Reads and parses a JSON file; errors name the file and, for syntax errors, the line.
  func json(_ relative: String) throws(ThemeError) -> JSON {
    let path = try path(relative)
    let data: Data
    do {
      data = try UserFile.read(
        path, kind: relative.hasSuffix(".fonts.json") ? .fontManifest : .tokens)
    } catch {
      if case .missing = error.problem {
        throw ThemeError(
          file: relative, message: "file not found (looked for \(MessageText.path(path)))")
      }
      throw ThemeError(file: relative, message: error.reason)
    }
    do {
      return try JSONParser.parse(Array(data))
    } catch {
      throw ThemeError(
        file: relative,
        message: "malformed JSON at line \(error.line), column \(error.column): \(error.reason)")
    }
  }
}

// MARK: - Resolver document

/// The subset of the DTCG 2025.10 resolver this loader implements: file `$ref` sources or inline
/// tokens in sets and modifier contexts, and a `resolutionOrder` of `#/sets/…` and `#/modifiers/…`.
struct ResolverDocument: Sendable {
  /// One source of a set or context: a token file (read when a context needs it) or inline tokens.
  private enum Source: Sendable {
    case file(String)
    case inline(GroupNode)
  }

  private enum Step: Sendable {
    case set([Source])
    case modifier(name: String, contexts: [String: [Source]], defaultContext: String?)
  }

  private let steps: [Step]
  private static let file = ThemeLibrary.resolverFileName
  /// The token files the sources reference, relative to the themes directory, each once, in
  /// the order first referenced.
  let files: [String]

  init(json: JSON, reader: FileReader) throws(ThemeError) {
    let file = Self.file
    func fail(_ location: String?, _ message: String) -> ThemeError {
      ThemeError(file: file, token: location, message: message)
    }
    guard json.members != nil else { throw fail(nil, "the resolver must be a JSON object") }
    guard let version = json["version"] else {
      throw fail("version", "missing (expected \"2025.10\")")
    }
    guard version.stringValue == "2025.10" else {
      throw fail(
        "version",
        "expected \"2025.10\", found \(version.stringValue.map { "\(MessageText.quoted($0))" } ?? version.kindName)"
      )
    }
    var files: [String] = []

    func sources(_ json: JSON?, at location: String) throws(ThemeError) -> [Source] {
      guard case .array(let items) = json else {
        throw fail(location, "expected an array of sources")
      }
      var out: [Source] = []
      for (i, item) in items.enumerated() {
        let here = "\(location)[\(i)]"
        guard item.members != nil else {
          throw fail(here, "a source must be an object, found \(item.kindName)")
        }
        if let ref = item["$ref"] {
          guard let path = ref.stringValue else { throw fail(here, "$ref must be a string") }
          if path.contains("://") {
            throw fail(
              here,
              "remote $ref \(MessageText.quoted(path)) is not supported (use a path relative to the themes directory)"
            )
          }
          if path.hasPrefix("#") {
            throw fail(
              here,
              "$ref \(MessageText.quoted(path)) inside a source list is not supported (reference token files)"
            )
          }
          if !files.contains(path) {
            let reference = FileReader.Reference(file: file, location: here, label: "$ref")
            guard try reader.exists(path, reference: reference) else {
              throw fail(here, "$ref \(MessageText.quoted(path)) points to no file")
            }
            files.append(path)
          }
          out.append(.file(path))
        } else {
          out.append(.inline(try TokenFileParser.parse(item, file: "\(file)#\(here)")))
        }
      }
      return out
    }

    var steps: [Step] = []
    guard case .array(let order) = json["resolutionOrder"] else {
      throw fail(
        "resolutionOrder",
        "missing (an array of {\"$ref\": \"#/sets/…\"} and {\"$ref\": \"#/modifiers/…\"})")
    }
    for (i, item) in order.enumerated() {
      let here = "resolutionOrder[\(i)]"
      guard let ref = item["$ref"]?.stringValue else {
        throw fail(
          here,
          "expected {\"$ref\": \"#/sets/<name>\"} or {\"$ref\": \"#/modifiers/<name>\"} (inline sets are not supported)"
        )
      }
      if ref.hasPrefix("#/sets/") {
        let name = String(ref.dropFirst("#/sets/".count))
        guard let set = json["sets"]?[name] else {
          throw fail(here, "$ref \(MessageText.quoted(ref)) points to no set")
        }
        steps.append(.set(try sources(set["sources"], at: "sets.\(name).sources")))
      } else if ref.hasPrefix("#/modifiers/") {
        let name = String(ref.dropFirst("#/modifiers/".count))
        guard let modifier = json["modifiers"]?[name] else {
          throw fail(here, "$ref \(MessageText.quoted(ref)) points to no modifier")
        }
        guard let contextMembers = modifier["contexts"]?.members, !contextMembers.isEmpty else {
          throw fail("modifiers.\(name).contexts", "expected an object of contexts")
        }
        var contexts: [String: [Source]] = [:]
        for (context, list) in contextMembers {
          contexts[context] = try sources(list, at: "modifiers.\(name).contexts.\(context)")
        }
        var defaultContext: String?
        if let d = modifier["default"] {
          guard let s = d.stringValue, contexts[s] != nil else {
            throw fail("modifiers.\(name).default", "must name one of the contexts")
          }
          defaultContext = s
        }
        steps.append(.modifier(name: name, contexts: contexts, defaultContext: defaultContext))
      } else {
        throw fail(here, "$ref \(MessageText.quoted(ref)) must start with #/sets/ or #/modifiers/")
      }
    }
    guard
      steps.contains(where: {
        if case .modifier(ThemeLibrary.themeModifierName, _, _) = $0 { true } else { false }
      })
    else {
      throw fail(
        "resolutionOrder", "does not include the modifier \"\(ThemeLibrary.themeModifierName)\"")
    }
    self.steps = steps
    self.files = files
  }

  /// Merges, in resolution order, the sets and the chosen context of each modifier (the
  /// `theme` modifier gets `themeContext`, any other modifier its default); `load` parses a
  /// referenced token file (each is asked for when its turn comes, so a context reads its own).
  func merge(
    themeContext: String, load: (String) throws(ThemeError) -> GroupNode
  ) throws(ThemeError) -> GroupNode {
    var root = GroupNode(type: nil, file: Self.file)
    for step in steps {
      let trees: [Source]
      switch step {
      case .set(let sources):
        trees = sources
      case .modifier(let name, let contexts, let defaultContext):
        let chosen = name == ThemeLibrary.themeModifierName ? themeContext : defaultContext
        guard let chosen, let sources = contexts[chosen] else {
          let known = contexts.keys.sorted().joined(separator: ", ")
          throw ThemeError(
            file: Self.file, token: "modifiers.\(name).contexts",
            message: chosen.map { "no context \(MessageText.quoted($0)) (known: \(known))" }
              ?? "no input and no default")
        }
        trees = sources
      }
      for source in trees {
        switch source {
        case .file(let path): try TokenResolver.merge(try load(path), into: &root)
        case .inline(let tree): try TokenResolver.merge(tree, into: &root)
        }
      }
    }
    return root
  }
}

// MARK: - Theme assembly

/// Reads the tokens the renderer needs out of a resolved context.
struct ThemeBuilder {
  let context: String
  private let byPath: [String: ResolvedToken]

  init(context: String, tokens: [ResolvedToken]) {
    self.context = context
    var byPath: [String: ResolvedToken] = [:]
    for token in tokens { byPath[token.path] = token }
    self.byPath = byPath
  }

  /// Every token path `build` reads, for documentation and tests.
  static let requiredTokens: [String] = {
    var paths = (0...2).map { "bullet-list.space.padding-inline.level-\($0)" }
    for style in TextStyle.allCases {
      let r = style.tokenName
      paths += [
        "bullet-list.space.column-gap.\(r)", "bullet-list.space.padding-block.\(r)",
        "bullet-list.size.bullet-container.\(r)", "bullet-list.size.icon.\(r)",
        "bullet-list.size.label-max-width.\(r)",
        "typography.\(r).font-size", "typography.\(r).line-height",
        "typography.\(r).letter-spacing",
        "typography.\(r).font-weight", "typography.\(r).font-weight-strong",
      ]
    }
    return paths + ["font.family.brand"] + ThemeColorRole.allCases.map(\.tokenPath)
  }()

  /// The token `sheet --audit` draws a failing figure in: read and type-checked when a context
  /// defines it, but not required (the component never draws it).
  static let negativeStatusToken = "color.content.status.negative"

  /// Every token path `build` reads although the renderer does not: review documents only.
  static let reviewTokens: [String] = [negativeStatusToken]

  private func token(_ path: String) throws(ThemeError) -> ResolvedToken {
    guard let t = byPath[path] else {
      throw ThemeError(
        file: ThemeLibrary.resolverFileName,
        message:
          "theme \(context) lacks required token \(path) (no source of the context defines it)")
    }
    return t
  }

  private func wrongType(_ t: ResolvedToken, _ expected: String, reader: String = "the renderer")
    -> ThemeError
  {
    ThemeError(
      file: t.file, token: t.path, message: "is a \(t.type) but \(reader) needs a \(expected)")
  }

  /// ` (from dimension.100 in core/dimension.tokens.json)` for an alias, empty for a literal.
  private func origin(_ t: ResolvedToken) -> String {
    aliasSource(t).map { " (\($0))" } ?? ""
  }

  /// `from dimension.100 in core/dimension.tokens.json` for an alias, nil for a literal.
  private func aliasSource(_ t: ResolvedToken) -> String? {
    guard let last = t.aliasChain.last else { return nil }
    let file = byPath[last].map { " in \($0.file)" } ?? ""
    return "from \(last)\(file)"
  }

  func px(_ path: String, in range: TokenRange) throws(ThemeError) -> Double {
    let t = try token(path)
    guard case .dimension(let value, let unit) = t.value else { throw wrongType(t, "dimension") }
    guard unit == "px" else {
      throw ThemeError(
        file: t.file, token: t.path,
        message:
          "unit \(MessageText.quoted(unit))\(origin(t)) is not supported by the renderer (use px)")
    }
    guard range.contains(value) else {
      throw ThemeError(
        file: t.file, token: t.path,
        message:
          "\(TokenRange.format(value)) px\(origin(t)) is out of range: the renderer needs \(range)")
    }
    return value
  }

  func weight(_ path: String) throws(ThemeError) -> Int {
    let t = try token(path)
    guard case .fontWeight(let w) = t.value else { throw wrongType(t, "fontWeight") }
    return w
  }

  func color(_ path: String, reader: String = "the renderer") throws(ThemeError) -> RGBAColor {
    let t = try token(path)
    guard case .color(let c) = t.value else { throw wrongType(t, "color", reader: reader) }
    return c
  }

  func families(_ path: String) throws(ThemeError) -> [String] {
    let t = try token(path)
    guard case .fontFamily(let f) = t.value else { throw wrongType(t, "fontFamily") }
    return f
  }

  /// Padding levels whose rows would not be indented from their parents' (level N not greater
  /// than level N−1), one warning each naming both tokens, their values and files.
  func paddingWarnings() -> [String] {
    var warnings: [String] = []
    for level in 1...2 {
      let inner = "bullet-list.space.padding-inline.level-\(level)"
      let outer = "bullet-list.space.padding-inline.level-\(level - 1)"
      guard let innerToken = byPath[inner], let outerToken = byPath[outer],
        case .dimension(let innerValue, let innerUnit) = innerToken.value,
        case .dimension(let outerValue, let outerUnit) = outerToken.value, innerUnit == outerUnit,
        innerValue <= outerValue
      else { continue }
      let relation = innerValue == outerValue ? "the same indent as" : "less than"
      let consequence =
        innerValue == outerValue
        ? "rows of levels \(level - 1) and \(level) collapse into one indent"
        : "rows of level \(level) start before the rows of level \(level - 1) they belong to"
      warnings.append(
        ThemeError(
          file: innerToken.file, token: inner,
          message:
            "\(Self.number(innerValue)) \(innerUnit)\(origin(innerToken)) is \(relation) \(outer) (\(([Self.number(outerValue) + " " + outerUnit + " in " + outerToken.file] + [aliasSource(outerToken)].compactMap { $0 }).joined(separator: ", "))): \(consequence)"
        ).description)
    }
    return warnings
  }

  /// `4` for 4.0, `4.5` for 4.5.
  private static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  func build(name: ThemeName, mode: ColorMode, shapes: MarkerShapes, allowsItalic: Bool)
    throws(ThemeError) -> Theme
  {
    // Report a missing token in the order of `requiredTokens`, before any value problem.
    for path in Self.requiredTokens where byPath[path] == nil {
      throw ThemeError(
        file: ThemeLibrary.resolverFileName,
        message:
          "theme \(context) lacks required token \(path) (no source of the context defines it)")
    }
    func level(_ level: Int) throws(ThemeError) -> Double {
      try px("bullet-list.space.padding-inline.level-\(level)", in: .spacing)
    }
    let paddingInline = PerLevel(try level(0), try level(1), try level(2))
    func metrics(_ style: TextStyle) throws(ThemeError) -> BulletListMetrics {
      let r = style.tokenName
      return BulletListMetrics(
        columnGap: try px("bullet-list.space.column-gap.\(r)", in: .spacing),
        paddingBlock: try px("bullet-list.space.padding-block.\(r)", in: .spacing),
        bulletBoxWidth: try px("bullet-list.size.bullet-container.\(r)", in: .spacing),
        iconSize: try px("bullet-list.size.icon.\(r)", in: .iconSize),
        labelMaxWidth: try px("bullet-list.size.label-max-width.\(r)", in: .labelWidth))
    }
    func typography(_ style: TextStyle) throws(ThemeError) -> Typography {
      let r = style.tokenName
      return Typography(
        fontSize: try px("typography.\(r).font-size", in: .fontSize),
        lineHeight: try px("typography.\(r).line-height", in: .lineHeight),
        letterSpacing: try px("typography.\(r).letter-spacing", in: .letterSpacing),
        regularWeight: try weight("typography.\(r).font-weight"),
        strongWeight: try weight("typography.\(r).font-weight-strong"))
    }
    // In the order of `requiredTokens`, so the first bad value reported is the first read.
    let large = (metrics: try metrics(.bodyLarge), typography: try typography(.bodyLarge))
    let medium = (metrics: try metrics(.bodyMedium), typography: try typography(.bodyMedium))
    let metrics = PerTextStyle(bodyLarge: large.metrics, bodyMedium: medium.metrics)
    let typography = PerTextStyle(bodyLarge: large.typography, bodyMedium: medium.typography)
    let colors = ThemeColors(
      contentDefault: try color(ThemeColorRole.contentDefault.tokenPath),
      contentBrandPrimary: try color(ThemeColorRole.contentBrandPrimary.tokenPath),
      backgroundPrimary: try color(ThemeColorRole.backgroundPrimary.tokenPath),
      linkEnabled: try color(ThemeColorRole.linkEnabled.tokenPath),
      contentStatusNegative: byPath[Self.negativeStatusToken] == nil
        ? nil : try color(Self.negativeStatusToken, reader: "sheet --audit"))
    return Theme(
      name: name, mode: mode, paddingInline: paddingInline, metrics: metrics,
      typography: typography,
      fontFamilies: try families("font.family.brand"), colors: colors, shapes: shapes,
      allowsItalic: allowsItalic)
  }
}

/// Reads `fonts/<theme>.fonts.json`.
enum FontManifestReader {
  /// The most font files one manifest may name.
  static let maxFiles = 64
  /// The keys a manifest may have; any other is refused (a misspelt `android` would otherwise
  /// silently draw Android in the iOS substitute).
  static let manifestKeys = ["$comment", "theme", "version", "files", "android"]
  /// The keys of one font file entry (`path` has an error of its own).
  static let fileKeys = ["$comment", "role", "family", "file", "sha256", "package", "path"]
  /// The keys of the `android` fallback.
  static let androidKeys = ["$comment", "families", "files"]
  /// The most families the `android` fallback may name.
  static let maxFamilies = 8

  static func read(reader: FileReader, file: String, theme: ThemeName) throws(ThemeError)
    -> FontManifest
  {
    let json = try reader.json(file)
    func fail(_ location: String?, _ message: String) -> ThemeError {
      ThemeError(file: file, token: location, message: message)
    }
    guard let members = json.members else {
      throw fail(nil, "expected an object with theme, version and files")
    }
    try refuseUnknownKeys(members, allowed: manifestKeys, at: nil, fail)
    guard json["theme"]?.stringValue == theme.rawValue else {
      throw fail("theme", "expected \"\(theme.rawValue)\"")
    }
    let files = try fontFiles(json["files"], at: "files", fail)
    var android: FontManifest.AndroidFallback?
    if let value = json["android"] {
      guard let androidMembers = value.members else {
        throw fail("android", "expected an object with families and files")
      }
      try refuseUnknownKeys(androidMembers, allowed: androidKeys, at: "android", fail)
      guard case .array(let names) = value["families"], !names.isEmpty,
        names.count <= maxFamilies
      else {
        throw fail(
          "android.families",
          "expected an array of 1 to \(maxFamilies) family names, such as [\"Roboto\"]")
      }
      var families: [String] = []
      for (i, name) in names.enumerated() {
        guard let family = name.stringValue, !family.isEmpty, family.utf8.count <= 255,
          !family.unicodeScalars.contains(where: {
            $0.value < 0x20 || $0.value == 0x7F || $0 == ","
          })
        else {
          throw fail(
            "android.families[\(i)]", "expected a family name such as \"Roboto\" (no comma)")
        }
        families.append(family)
      }
      android = FontManifest.AndroidFallback(
        families: families, files: try fontFiles(value["files"], at: "android.files", fail))
    }
    return FontManifest(theme: theme, files: files, android: android)
  }

  /// Refuses the first key of `members` that is not in `allowed`, naming it.
  private static func refuseUnknownKeys(
    _ members: [(key: String, value: JSONValue)], allowed: [String], at location: String?,
    _ fail: (String?, String) -> ThemeError
  ) throws(ThemeError) {
    for member in members where !allowed.contains(member.key) {
      let here = location.map { "\($0).\(member.key)" } ?? member.key
      throw fail(
        here,
        "unknown key \(MessageText.quoted(member.key)); a font manifest knows \(allowed.filter { $0 != "path" }.joined(separator: ", "))"
      )
    }
  }

  /// The font file entries of the array `value` (`files` or `android.files`).
  private static func fontFiles(
    _ value: JSONValue?, at location: String, _ fail: (String?, String) -> ThemeError
  ) throws(ThemeError) -> [FontFile] {
    guard case .array(let items) = value, !items.isEmpty else {
      throw fail(location, "expected a non-empty array of font files")
    }
    guard items.count <= maxFiles else {
      throw fail(
        location, "\(items.count) font files, more than the \(maxFiles) a manifest may name")
    }
    var files: [FontFile] = []
    for (i, item) in items.enumerated() {
      let here = "\(location)[\(i)]"
      guard let members = item.members else {
        throw fail(here, "expected an object with file, sha256 and role")
      }
      if item["path"] != nil {
        throw fail(
          "\(here).path",
          "font files are named by \"file\" (a file name) and \"sha256\", not by a path: a path ties the manifest to one machine"
        )
      }
      try refuseUnknownKeys(members, allowed: fileKeys, at: here, fail)
      guard let name = item["file"]?.stringValue, FontFile.isValidFileName(name) else {
        throw fail(
          "\(here).file", "expected a file name such as \"LiberationSans-Regular.ttf\" (no folder)")
      }
      guard let sha = item["sha256"]?.stringValue, sha.utf8.count == 64,
        sha.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
      else {
        throw fail("\(here).sha256", "expected 64 lower-case hex digits")
      }
      guard let role = item["role"]?.stringValue, !role.isEmpty else {
        throw fail("\(here).role", "expected a role such as \"latin-regular\"")
      }
      files.append(
        FontFile(
          fileName: name, sha256: sha, role: role, family: item["family"]?.stringValue,
          debianPackage: item["package"]?.stringValue))
    }
    return files
  }
}
