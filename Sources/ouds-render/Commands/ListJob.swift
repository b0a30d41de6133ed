import BulletList
import BulletListRenderer
import Graphics
import Layout
import Primitives
import SafeInput
import Scene
import Themes

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
  /// The layout settings of the first platform (see ``platforms``).
  var options: LayoutOptions
  /// Whether `all` was given to `--theme`, `--mode` or `--platform`.
  var isMatrix: Bool
  /// The list file's path as given.
  var listPath: String

  /// Whether `arguments` select several pictures (`all` for a theme, mode or platform).
  static func isMatrix(_ arguments: ParsedArguments) -> Bool {
    [ListOptions.theme, ListOptions.mode, ListOptions.platform].contains {
      arguments.choice($0) == Vocabulary.all
    }
  }

  /// Reads the list (the command's one argument) and sets up the renderer for `arguments`.
  init(arguments: ParsedArguments) throws {
    let locale = arguments.text(ListOptions.locale)
    if let locale, !LocaleTag.isValid(locale) {
      throw UsageError(
        "--locale \(MessageText.quoted(locale)) is not a language tag such as en, fr-FR or ar-MA")
    }
    listPath = arguments.positionals.first ?? ""
    let themesDirectory = arguments.text(ListOptions.themesDirectory).map {
      URL(fileURLWithPath: $0)
    }
    let fontDirectory = arguments.text(ListOptions.fontDirectory).map { URL(fileURLWithPath: $0) }
    renderer = try BulletListRenderer(
      themes: try ThemesLocation.resolve(explicit: themesDirectory),
      brandFontDirectory: fontDirectory)
    let format = arguments.choice(ListOptions.inputFormat).flatMap(ListFormat.init(rawValue:))
    document = try renderer.listReader().read(file: listPath, format: format)
    // SVG icons outside what the renderer fills itself are drawn with librsvg: its loading
    // overlaps the tokens, fonts and layout
    if BulletListRenderer.iconsNeedSVGLibrary(document.list.iconFiles) {
      GraphicsLibraries.preloadSVG()
    }

    themes = Self.selected(ThemeName.allCases, arguments.choice(ListOptions.theme))
    modes = Self.selected(ColorMode.allCases, arguments.choice(ListOptions.mode))
    let platformName = arguments.choice(ListOptions.platform) ?? document.platform?.rawValue
    platforms = Self.selected(Platform.allCases, platformName ?? Platform.ios.rawValue)
    isMatrix = Self.isMatrix(arguments)

    let background = arguments.choice(ListOptions.background)
    options = LayoutOptions(
      width: arguments.number(ListOptions.width) ?? Vocabulary.standardCanvasWidth,
      background: BackgroundOption.allCases.first { $0.rawValue == background } ?? .theme,
      locale: locale ?? document.locale,
      direction: arguments.choice(ListOptions.direction).flatMap(LayoutDirection.init(rawValue:)),
      textStyleOverride: arguments.choice(ListOptions.textStyle).flatMap(TextStyle.init(rawValue:)),
      platform: platforms.first ?? .ios)
    WatchLoop.note(inputFiles.paths)
  }

  /// Every case for `all`, else the case named `name` (a name the option's choices accepted).
  private static func selected<Value: RawRepresentable>(_ cases: [Value], _ name: String?)
    -> [Value]
  where Value.RawValue == String {
    name == Vocabulary.all ? cases : cases.filter { $0.rawValue == name }
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
    try renderer.prepare(fontsFor: themes, resolving: combinations)
    return try renderer.sourcesLine(for: themes)
  }
}

/// Prints each warning once, in the order they came.
func printWarnings(_ warnings: [String]) {
  var seen = Set<String>()
  for warning in warnings where seen.insert(warning).inserted {
    printError("warning: \(warning)")
  }
}
