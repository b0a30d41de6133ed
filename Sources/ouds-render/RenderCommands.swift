import BulletList
import BulletListRenderer
import Foundation
import Graphics
import Layout
import Primitives
import SafeInput
import Scene
import Themes

/// Options shared by `render` and `layout`: which list, themes, modes and layout settings.
struct ListJob {
  var document: BulletListDocument
  var renderer: BulletListRenderer
  var themes: [ThemeName]
  var modes: [ColorMode]
  /// The platforms asked for: one, or both with `--platform all`.
  var platforms: [Platform]
  var options: LayoutOptions
  var isMatrix: Bool
  var listPath: String

  static let valuedOptions: Set<String> = [
    "--theme", "--mode", "--width", "--background", "--font-dir", "--themes", "--locale",
    "--direction", "--text-style", "--platform",
  ]

  /// The options of commands that write pictures (`render`, `sheet`).
  static let pictureOptions = valuedOptions.union(["-o", "--output", "--format", "--scale"])

  static let optionsHelp = """
      --theme <name>|all      orange, orange-compact, sosh, wireframe, or all (default: orange)
      --mode light|dark|all   colour mode (default: light)
      --width <points>        canvas width in points (default: 360)
      --background theme|none theme background (bg.primary) or transparent (default: theme)
      --locale <tag>          spoken text and (iOS rules) the marker alphabet; an Arabic tag
                              (ar, ar-MA) also selects right-to-left (default: the list's
                              "locale", else en)
      --direction ltr|rtl     override the direction alone
      --text-style bodyLarge|bodyMedium
                              draw every level in this text style
      --platform ios|android|all
                              whose rules to follow where iOS and Android differ: bullet
                              level, Arabic letters, rich text in bold, leading, tall
                              markers (default: the list's "platform", else ios)
      --font-dir <dir>        a folder of font files, searched first for the manifests' files;
                              its other fonts are licensed brand fonts (Helvetica Neue, Sosh,
                              Shantell Sans) used instead of the open substitutes
      --themes <dir>          a Themes/ folder to read tokens from (default: $OUDS_THEMES_DIR,
                              else a Themes/ in the current folder or its parents, else the
                              package's copy)

    Once the output is written, one line on stderr says which themes folder was read (and why)
    and which font files were used (file and folder); warnings follow it.
    Font files are also looked for in $OUDS_FONT_DIRS (folders separated by ':') and in the
    font folders fontconfig lists.
    """

  init(arguments: ParsedArguments, listPath: String, defaultTheme: String = "orange", defaultMode: String = "light") throws {
    let platformChoices = ["ios", "android", "all"]
    _ = try arguments.choice("--platform", default: "ios", in: platformChoices)  // usage first
    let themesDirectory = arguments.value("--themes").map { URL(fileURLWithPath: $0) }
    let fontDirectory = arguments.value("--font-dir").map { URL(fileURLWithPath: $0) }
    self.listPath = listPath
    renderer = try BulletListRenderer(
      themes: try ThemesLocation.resolve(explicit: themesDirectory), brandFontDirectory: fontDirectory)
    document = try renderer.listReader().read(file: listPath)

    let themeName = arguments.value("--theme") ?? defaultTheme
    if themeName == "all" {
      themes = ThemeName.allCases
    } else {
      do { themes = [try ThemeName.parse(themeName)] } catch { throw UsageError("\(error)") }
    }
    let modeName = arguments.value("--mode") ?? defaultMode
    if modeName == "all" {
      modes = ColorMode.allCases
    } else {
      do { modes = [try ColorMode.parse(modeName)] } catch { throw UsageError("\(error)") }
    }
    let platformName = try arguments.choice(
      "--platform", default: document.platform?.rawValue ?? "ios", in: platformChoices)
    platforms =
      platformName == "all"
      ? Platform.allCases : [Platform(rawValue: platformName) ?? .ios]
    isMatrix = themeName == "all" || modeName == "all" || platformName == "all"

    let width = try arguments.number("--width", default: 360, in: 40...10000)
    let background = try arguments.choice("--background", default: "theme", in: ["theme", "none"])
    let direction = try arguments.value("--direction").map { _ in
      try arguments.choice("--direction", default: "ltr", in: ["ltr", "rtl"])
    }
    let textStyle = try arguments.value("--text-style").map { _ in
      try arguments.choice("--text-style", default: "bodyLarge", in: ["bodyLarge", "bodyMedium"])
    }
    let locale = arguments.value("--locale") ?? document.locale
    if let locale, !LocaleTag.isValid(locale) {
      throw UsageError("--locale \(MessageText.quoted(locale)) is not a language tag such as en, fr-FR or ar-MA")
    }
    options = LayoutOptions(
      width: width, background: background == "none" ? .none : .theme,
      locale: locale,
      direction: direction.flatMap(LayoutDirection.init(rawValue:)),
      textStyleOverride: textStyle.flatMap(OUDSBulletList.TextStyle.init(rawValue:)),
      platform: platforms.first ?? .ios)
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
  /// mode) to the list file, so every message names the file.
  func attributingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as BulletListError where error.file == nil {
      throw error.inFile(listPath)
    } catch let error as RenderError where error.file == nil {
      throw error.inFile(listPath)
    }
  }

  var combinations: [(ThemeName, ColorMode)] {
    themes.flatMap { theme in modes.map { (theme, $0) } }
  }

  /// Finds the fonts of the selected themes (one error listing every missing file, before
  /// anything renders) and returns the line that says where tokens and fonts come from; commands
  /// print it on stderr once their output is written, before the warnings.
  func sourcesLine() throws -> String {
    try renderer.sourcesLine(for: themes)
  }
}

/// `ouds-render render`: draws a list to PNG, SVG or PDF.
enum RenderCommand {
  static let help = """
    OVERVIEW: Render a bullet list (JSON) to PNG, SVG or PDF.

    USAGE: ouds-render render <list.json> -o <file|dir> [options]

    With --theme all or --mode all, -o is a folder and one process writes every combination
    as <theme>-<mode>.<ext>; with --platform all, as <theme>-<mode>-<platform>.<ext>
    (ios, android).

    OPTIONS:
      -o, --output <file|dir> where to write (required)
      --format png|svg|pdf    output format (default: from the -o extension, else png)
      --scale 1|2|3           PNG pixels per point (default: 2)
    \(ListJob.optionsHelp)
      -h, --help              show this help
    """

  static func run(_ rawArguments: [String]) -> Int32 {
    runReportingErrors(command: "render") {
      guard
        let (job, output, format, sources) = try pictureJob(
          rawArguments, command: "render", help: help, outputDescription: "file|dir",
          defaultTheme: "orange", defaultMode: "light", matrixWritesFolder: true)
      else { return ExitStatus.success }

      let rendered = try job.attributingErrors {
        try job.renderer.renderAll(
          job.document.list, combinations: job.combinations, platforms: job.platforms,
          options: job.options, format: format)
      }
      let inputs = job.inputFiles
      if job.isMatrix {
        for picture in rendered {
          let stem =
            "\(picture.theme.rawValue)-\(picture.mode.rawValue)"
            + (job.allPlatforms ? "-\(picture.platform.rawValue)" : "")
          let path = URL(fileURLWithPath: output)
            .appendingPathComponent("\(stem).\(format.fileExtension)").path
          try AtomicFile.write(picture.data, to: path, createDirectories: true, protecting: inputs)
        }
        printError("wrote \(rendered.count) files to \(output)")
      } else if let picture = rendered.first {
        try AtomicFile.write(picture.data, to: output, protecting: inputs)
      }
      printError(sources)
      printWarnings(rendered.flatMap(\.warnings))
      return ExitStatus.success
    }
  }
}

/// The output format: `--format`, else the extension of `-o`. With `all`, `-o` is a folder.
func outputFormat(_ arguments: ParsedArguments, output: String, scale: Int, isFolder: Bool) throws -> OutputFormat {
  let known = ["png", "svg", "pdf"]
  let extensionName = URL(fileURLWithPath: output).pathExtension.lowercased()
  let requested = try arguments.value("--format").map { _ in
    try arguments.choice("--format", default: "png", in: known)
  }
  let name: String
  if isFolder {
    if known.contains(extensionName) {
      throw UsageError("with --theme all, --mode all or --platform all, -o is a folder, but \(MessageText.path(output)) names a .\(extensionName) file")
    }
    name = requested ?? "png"
  } else if let requested {
    if known.contains(extensionName), extensionName != requested {
      throw UsageError("-o \(MessageText.path(output)) ends in .\(extensionName) but --format is \(requested)")
    }
    name = requested
  } else {
    guard known.contains(extensionName) else {
      throw UsageError("cannot tell the format of \(MessageText.path(output)): end it in .png, .svg or .pdf, or give --format")
    }
    name = extensionName
  }
  switch name {
  case "svg": return .svg
  case "pdf": return .pdf
  default: return .png(scale: scale)
  }
}

/// The set-up shared by the commands that write pictures (`render`, `sheet`): the arguments, the
/// list, the output path and its format; nil when help was printed.
func pictureJob(
  _ rawArguments: [String], command: String, help: String, outputDescription: String,
  defaultTheme: String, defaultMode: String, matrixWritesFolder: Bool
) throws -> (job: ListJob, output: String, format: OutputFormat, sources: String)? {
  guard
    let arguments = try ParsedArguments.parseOrShowHelp(
      rawArguments, command: command, valued: ListJob.pictureOptions, help: help)
  else { return nil }
  let listPath = try arguments.listPath()
  let output = try arguments.output(describedAs: outputDescription)
  let scale = try scaleOption(arguments)
  let job = try ListJob(
    arguments: arguments, listPath: listPath, defaultTheme: defaultTheme, defaultMode: defaultMode)
  let format = try outputFormat(
    arguments, output: output, scale: scale, isFolder: matrixWritesFolder && job.isMatrix)
  return (job, output, format, try job.sourcesLine())
}

/// Prints each warning once, in the order they came.
func printWarnings(_ warnings: [String]) {
  var seen = Set<String>()
  for warning in warnings where seen.insert(warning).inserted {
    printError("warning: \(warning)")
  }
}

/// The `--scale` option: ``PixelScale/supported`` (1, 2 or 3).
func scaleOption(_ arguments: ParsedArguments) throws -> Int {
  guard let text = arguments.value("--scale") else { return PixelScale.standard }
  guard let scale = DecimalNumber.integer(text), PixelScale.supported.contains(scale) else {
    throw UsageError("--scale must be \(PixelScale.choices), got \(MessageText.quoted(text))")
  }
  return scale
}

/// `ouds-render sheet`: one list in every theme and mode, side by side, in one picture.
enum SheetCommand {
  static let help = """
    OVERVIEW: Render a theme rendering sheet: one list in every theme (rows) and mode
    (columns), side by side, each cell captioned and on its mode's background. With
    --platform all, each mode has an iOS and an Android column side by side.

    USAGE: ouds-render sheet <list.json> -o <file> [options]

    OPTIONS:
      -o, --output <file>     where to write (required)
      --format png|svg|pdf    output format (default: from the -o extension, else png)
      --scale 1|2|3           PNG pixels per point (default: 2)
    \(ListJob.optionsHelp)
      (--theme and --mode default to all here)
      -h, --help              show this help
    """

  static func run(_ rawArguments: [String]) -> Int32 {
    runReportingErrors(command: "sheet") {
      guard
        let (job, output, format, sources) = try pictureJob(
          rawArguments, command: "sheet", help: help, outputDescription: "file",
          defaultTheme: "all", defaultMode: "all", matrixWritesFolder: false)
      else { return ExitStatus.success }
      let sheet = try job.attributingErrors {
        try job.renderer.renderSheet(
          job.document.list, themes: job.themes, modes: job.modes, platforms: job.platforms,
          options: job.options, format: format)
      }
      try AtomicFile.write(sheet.data, to: output, protecting: job.inputFiles)
      printError(sources)
      printWarnings(sheet.warnings)
      return ExitStatus.success
    }
  }
}

/// `ouds-render layout`: prints the scene as JSON.
enum LayoutCommand {
  static let help = """
    OVERVIEW: Print the laid-out scene of a list as JSON (points, 2 decimals).

    USAGE: ouds-render layout <list.json> [options]

    With --theme all, --mode all or --platform all, prints a JSON array with one scene per
    combination (theme, then mode, then platform). Each scene names its "platform".

    OPTIONS:
    \(ListJob.optionsHelp)
      -h, --help              show this help
    """

  static func run(_ rawArguments: [String]) -> Int32 {
    runReportingErrors(command: "layout") {
      guard
        let arguments = try ParsedArguments.parseOrShowHelp(
          rawArguments, command: "layout", valued: ListJob.valuedOptions, help: help)
      else { return ExitStatus.success }
      let listPath = try arguments.listPath()
      let job = try ListJob(arguments: arguments, listPath: listPath)
      let sources = try job.sourcesLine()
      var scenes: [Scene] = []
      var warnings: [String] = []
      for (theme, mode) in job.combinations {
        for platform in job.platforms {
          var options = job.options
          options.platform = platform
          let result = try job.attributingErrors {
            try job.renderer.layout(job.document.list, theme: theme, mode: mode, options: options)
          }
          warnings += result.warnings
          scenes.append(result.scene)
        }
      }
      let json = job.isMatrix ? try SceneJSON.encode(scenes) : try SceneJSON.encode(scenes[0])
      try writeOutput(json + "\n")
      printError(sources)
      printWarnings(warnings)
      return ExitStatus.success
    }
  }
}

/// `ouds-render themes`: lists the themes, their modes and fonts.
enum ThemesCommand {
  static let help = """
    OVERVIEW: List the themes, their modes and the font files each one uses (file and folder).

    USAGE: ouds-render themes [--themes <dir>] [--font-dir <dir>]

    OPTIONS:
      --themes <dir>          a Themes/ folder (default: $OUDS_THEMES_DIR, else a Themes/ in the
                              current folder or its parents, else the package's copy)
      --font-dir <dir>        a folder searched first for the manifests' font files
      -h, --help              show this help
    """

  static func run(_ rawArguments: [String]) -> Int32 {
    runReportingErrors(command: "themes") {
      guard
        let arguments = try ParsedArguments.parseOrShowHelp(
          rawArguments, command: "themes", valued: ["--themes", "--font-dir"], help: help)
      else { return ExitStatus.success }
      guard arguments.positionals.isEmpty else {
        throw UsageError("unexpected argument \(MessageText.quoted(arguments.positionals[0]))")
      }
      let location = try ThemesLocation.resolve(explicit: arguments.value("--themes").map { URL(fileURLWithPath: $0) })
      let library = try ThemeLibrary(directory: location.directory)
      let locator = FontLocator(fontDirectory: arguments.value("--font-dir").map { URL(fileURLWithPath: $0) })
      var text = "Themes in \(RenderSources.printable(location.directory.path)) (\(location.source.reason)):\n"
      for name in ThemeName.allCases {
        let light = try library.theme(name, mode: .light)
        let dark = try library.theme(name, mode: .dark)
        text += "\n\(name.rawValue) (\(name.displayName)): modes light, dark\n"
        text += "  fonts: \(light.fontFamilies.joined(separator: ", "))\n"
        for style in TextStyle.allCases {
          let t = light.typography[style], m = light.metrics[style]
          text += "  \(style.tokenName): \(format(t.fontSize))/\(format(t.lineHeight)) pt, letter spacing \(format(t.letterSpacing)), weights \(t.regularWeight)/\(t.strongWeight), bullet box \(format(m.bulletBoxWidth)), icon \(format(m.iconSize))\n"
        }
        text += "  colours light: text \(light.colors.contentDefault), brand \(light.colors.contentBrandPrimary), background \(light.colors.backgroundPrimary)\n"
        text += "  colours dark:  text \(dark.colors.contentDefault), brand \(dark.colors.contentBrandPrimary), background \(dark.colors.backgroundPrimary)\n"
        text += "  font files (\(ThemeLibrary.fontManifestFileName(for: name))):\n"
        for file in try library.fontManifest(for: name).fontSources.sources {
          text += "    \(file.role): \(describe(file, locator: locator))\n"
        }
      }
      try writeOutput(text)
      return ExitStatus.success
    }
  }

  /// `Name.ttf in <folder>`, with what is wrong when the file is missing or has another SHA-256.
  private static func describe(_ file: FontSource, locator: FontLocator) -> String {
    guard let found = locator.locate(file) else {
      return "\(file.fileName) MISSING (package \(file.package ?? "not named"))"
    }
    let folder = RenderSources.printable(found.url.deletingLastPathComponent().path)
    if found.matchesManifest { return "\(file.fileName) in \(folder)" }
    return "\(file.fileName) in \(folder) (SHA-256 \(found.sha256.prefix(12))…, not the manifest's \(file.sha256.prefix(12))…)"
  }

  private static func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
