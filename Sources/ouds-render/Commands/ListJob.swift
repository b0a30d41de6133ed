import BulletList
import BulletListRenderer
import CLIKit
import Graphics
import Layout
import Primitives
import SafeInput
import Scene
import Snapshot
import Themes
import Workbench

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the commands that read a list (`render`, `sheet`, `layout`) were asked for: the list, the
/// renderer, the themes, modes and platforms, and the layout settings.
struct ListJob {
  /// The list file as read.
  var document: BulletListDocument
  /// The renderer, on the themes folder and fonts the options name.
  var renderer: BulletListRenderer
  /// The themes asked for: one, or every theme with `--theme all`.
  var themes: [ThemeName]
  /// The modes asked for: one, or both with `--mode all`.
  var modes: [ColorMode]
  /// The platforms asked for: one, or both with `--platform all`.
  var platforms: [Platform]
  /// The layout settings of the first platform (see ``platforms``) and the first text sizes.
  var options: LayoutOptions
  /// The text sizes asked for: Android's font scales and iOS content sizes (several only for
  /// `sheet`).
  var textSizes: SheetTextSizes
  /// Whether `all` was given to `--theme`, `--mode` or `--platform`.
  var isMatrix: Bool
  /// The list file's path as given.
  var listPath: String
  /// The catalogue variant `--variant` chose, whose theme, mode, scale and layout settings apply
  /// where no option is given; nil without `--variant`.
  var variant: SnapshotVariant?
  /// The list file as a catalogue case file: the variants `snapshot record` would record.
  var caseFile: CaseListFile
  /// Whether `--verbose` was given: the sources line lists every font file.
  var verbose = false

  /// Whether `arguments` select several pictures (`all` for a theme, mode or platform).
  static func isMatrix(_ arguments: ParsedArguments) -> Bool {
    [ListOptions.theme, ListOptions.mode, ListOptions.platform].contains(
      where: arguments.selectsAll)
  }

  /// Reads the list (the command's one argument) and sets up the renderer for `arguments`, or
  /// takes `existing` (`preview` keeps one until a file of the themes folder changes).
  init(arguments: ParsedArguments, renderer existing: BulletListRenderer? = nil) throws {
    let locale = arguments.text(ListOptions.locale)
    if let locale, !LocaleTag.isValid(locale) {
      throw UsageError(
        "--locale \(MessageText.quoted(locale)) is not a language tag such as en, fr-FR or ar-MA")
    }
    listPath = arguments.positionals.first ?? ""
    verbose = arguments.has(ListOptions.verbose)
    let themesDirectory = arguments.text(ListOptions.themesDirectory).map {
      URL(fileURLWithPath: $0)
    }
    let fontDirectory = arguments.text(ListOptions.fontDirectory).map { URL(fileURLWithPath: $0) }
    renderer =
      try existing
      ?? BulletListRenderer(
        themes: try ThemesLocation.resolve(explicit: themesDirectory),
        brandFontDirectory: fontDirectory)
    let format = arguments[ListOptions.inputFormatOption]
    // A catalogue case file is a list plus its `variants`: the list is drawn, with one variant
    // when --variant names it.
    let file = try CaseListFile.read(
      file: listPath, format: format, reader: renderer.listReader())
    document = file.document
    caseFile = file
    let variant = try Self.variant(arguments, of: file, path: listPath)
    self.variant = variant
    if let variant {
      // An option given replaces the variant's setting: say so, since the picture is then not
      // what verify compares.
      let given = [
        ListOptions.theme, ListOptions.mode, ListOptions.scale, ListOptions.width,
        ListOptions.background, ListOptions.locale.spec, ListOptions.direction,
        ListOptions.textStyle,
        ListOptions.platform, ListOptions.fontScale, ListOptions.contentSize,
      ].filter { arguments.isGiven($0) }.map(\.key)
      if !given.isEmpty {
        printError(
          "note: --variant \(variant.name): \(given.joined(separator: ", ")) given on the command line replace\(given.count == 1 ? "s" : "") the variant's, so this is not what snapshot verify compares"
        )
      }
    }
    // SVG icons outside what the renderer fills itself are drawn with librsvg: its loading
    // overlaps the tokens, fonts and layout
    if BulletListRenderer.iconsNeedSVGLibrary(document.list.iconFiles) {
      GraphicsLibraries.preloadSVG()
    }

    /// The values the option selects when given (or without a variant), else the variant's.
    func selection<Value: NamedValue>(
      _ option: TypedOption<[Value]>, _ fromVariant: (SnapshotVariant) -> Value?
    ) -> [Value]? {
      guard let variant, !arguments.isGiven(option.spec) else { return arguments[option] }
      return fromVariant(variant).map { [$0] }
    }
    /// The value of the option when given (or without a variant), else the variant's.
    func value<Value: NamedValue>(
      _ option: TypedOption<Value>, _ fromVariant: (SnapshotVariant) -> Value?
    ) -> Value? {
      guard let variant, !arguments.isGiven(option.spec) else { return arguments[option] }
      return fromVariant(variant)
    }
    themes = selection(ListOptions.themeOption) { $0.theme } ?? [.orange]
    modes = selection(ListOptions.modeOption) { $0.mode } ?? [.light]
    platforms =
      selection(ListOptions.platformOption) { $0.options.platform } ?? [document.platform ?? .ios]
    isMatrix = Self.isMatrix(arguments)

    let width =
      variant.flatMap { arguments.isGiven(ListOptions.width) ? nil : $0.options.width }
      ?? arguments[ListOptions.widthOption] ?? Vocabulary.standardCanvasWidth
    options = LayoutOptions(
      width: width,
      background: value(ListOptions.backgroundOption) { $0.options.background } ?? .theme,
      locale: locale ?? variant?.options.locale ?? document.locale,
      direction: value(ListOptions.directionOption) { $0.options.direction },
      textStyleOverride: value(ListOptions.textStyleOption) { $0.options.textStyleOverride },
      platform: platforms.first ?? .ios,
      accessibilitySnapshot: arguments.has(ListOptions.accessibility)
        || (variant?.options.accessibilitySnapshot ?? false),
      shrink: arguments.has(ListOptions.shrink) || (variant?.options.shrink ?? false))
    textSizes = try Self.textSizes(
      arguments, document: document, variant: variant, platforms: platforms)
    options.fontScale = textSizes.fontScales?.first ?? FontScale.standard
    options.contentSize = textSizes.contentSizes?.first ?? .large
    // Android's text is set on the pixels of the picture: --scale, the variant's, or 2.
    options.textPixelScale = scale(arguments)
    WatchLoop.note(inputFiles.paths)
  }

  /// The text sizes: `--font-scale` and `--content-size`, else the variant's, else the list's
  /// `fontScale` and `contentSize`, else the defaults (nil). One each, except for `sheet`.
  /// - Throws: ``UsageError`` for several sizes outside `sheet`, or a size of a platform none of
  ///   the pictures is drawn with (it would change nothing).
  static func textSizes(
    _ arguments: ParsedArguments, document: BulletListDocument, variant: SnapshotVariant?,
    platforms: [Platform]
  ) throws -> SheetTextSizes {
    let fontScales =
      arguments[ListOptions.fontScaleOption]
      ?? (variant.map { [$0.options.fontScale] } ?? document.fontScale.map { [$0] })
    let contentSizes =
      arguments[ListOptions.contentSizeOption]
      ?? (variant.map { [$0.options.contentSize] } ?? document.contentSize.map { [$0] })
    let checks: [(OptionSpec, String, Int, Bool, Platform)] = [
      (
        ListOptions.fontScale, "fontScale", fontScales?.count ?? 0,
        fontScales?.contains { $0 != FontScale.standard } ?? false, .android
      ),
      (
        ListOptions.contentSize, "contentSize", contentSizes?.count ?? 0,
        contentSizes?.contains { $0 != .large } ?? false, .ios
      ),
    ]
    for (option, key, count, changes, platform) in checks {
      let given = arguments.isGiven(option)
      let name = given ? option.messageName : "the list's \"\(key)\""
      if count > 1, arguments.command != SheetCommand.spec.name {
        throw UsageError(
          "\(name): \(ParsedArguments.commandLine(arguments.command)) draws one size; sheet takes several"
        )
      }
      if changes, !platforms.contains(platform) {
        throw UsageError(
          platform == .android
            ? "\(name) is Android's font scale: add --platform android (or all); iOS uses --content-size"
            : "\(name) is iOS Dynamic Type: add --platform ios (or all); Android uses --font-scale")
      }
    }
    return SheetTextSizes(fontScales: fontScales, contentSizes: contentSizes)
  }

  /// The PNG scale: `--scale`, else the `--variant`'s, else 2.
  func scale(_ arguments: ParsedArguments) -> Int {
    if let variant, !arguments.isGiven(ListOptions.scale) { return variant.scale }
    return arguments[ListOptions.scaleOption] ?? Vocabulary.standardPixelScale
  }

  /// The variant `--variant` names among the variants of the case file `file` (at `path`); nil
  /// without `--variant`, after saying once on stderr that a case file's variants are not applied.
  /// - Throws: ``UsageError`` for a number or name the file has no variant for.
  private static func variant(_ arguments: ParsedArguments, of file: CaseListFile, path: String)
    throws(UsageError) -> SnapshotVariant?
  {
    let variants = file.variants
    let name = MessageText.path(PathText.lastComponent(path))
    guard let choice = arguments[ListOptions.variantOption] else {
      if file.hasVariantsKey {
        let count = variants.count
        printError(
          "note: \(name) is a catalogue case: its list is drawn with the options given, not its \(count) variant\(count == 1 ? "" : "s") (--variant 1\(count == 1 ? "" : " to \(count)") draws one)"
        )
      }
      return nil
    }
    let text = choice.text
    switch choice {
    case .number(let number) where variants.indices.contains(number - 1):
      return variants[number - 1]
    case .number:
      break
    case .name(let name):
      // A name, with or without its scale when that is unique.
      if let named = variants.first(where: { $0.name == name }) { return named }
      let stems = variants.filter { $0.stem == name }
      if stems.count == 1 { return stems[0] }
    }
    let listed = variants.prefix(6).enumerated().map { "\($0.offset + 1) \($0.element.name)" }
    throw UsageError(
      "--variant \(MessageText.quoted(text)): \(name) has no such variant; it has \(variants.count): "
        + listed.joined(separator: ", ") + (variants.count > 6 ? ", …" : ""))
  }

  /// Whether `--platform all` was asked for.
  var allPlatforms: Bool { platforms.count > 1 }

  /// The files this run reads, which no output may replace: the list file first, then its icons,
  /// the themes folder's files and the font files.
  var inputFiles: InputFiles {
    InputFiles([listPath]).union(renderer.inputFiles(for: document.list, themes: themes))
  }

  /// Runs `body`, attributing list errors found after reading (a fourth level, rich text in a
  /// bold list) and render errors (a canvas too large, an unreadable icon, with the theme and
  /// mode) to the list file, so every message names the file (and, for a Markdown list, the
  /// item's line).
  func attributingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as BulletListError where error.file == nil {
      throw document.locating(error).inFile(listPath)
    } catch let error as RenderError where error.file == nil {
      if case .list(let listError) = error {
        throw RenderError.list(document.locating(listError)).inFile(listPath)
      }
      throw error.inFile(listPath)
    }
  }

  /// Every (theme, mode) pair asked for, theme first.
  var combinations: [(ThemeName, ColorMode)] {
    themes.flatMap { theme in modes.map { (theme, $0) } }
  }

  /// Finds the fonts of the selected themes (one error listing every missing file, before
  /// anything renders) and returns the line that says where tokens and fonts come from; commands
  /// print it on stderr once their output is written, before the warnings.
  func sourcesLine() throws -> String {
    // the font sets on threads of their own (once the libraries are loaded) while this thread
    // resolves the tokens, which need no C library
    try renderer.prepare(fontsFor: themes, resolving: combinations, platforms: platforms)
    return try renderer.sourcesLine(for: themes, platforms: platforms, verbose: verbose)
  }
}

/// Prints each warning once, in the order they came.
func printWarnings(_ warnings: [String]) {
  var seen = Set<String>()
  for warning in warnings where seen.insert(warning).inserted {
    printError("warning: \(warning)")
  }
}

/// Under `--verbose`, prints the renderer's ``BulletListRenderer/fontNotes`` (`note: …`), after
/// the warnings.
func printNotes(of renderer: BulletListRenderer, _ arguments: ParsedArguments) {
  guard arguments.has(ListOptions.verbose) else { return }
  for note in renderer.fontNotes { printError("note: \(note)") }
}
