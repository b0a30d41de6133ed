import CLIKit
import Layout
import Primitives
import SafeInput
import Scene

/// What `--variant` names: a variant of a catalogue case file by its number (1 is the first) or
/// by its name, with or without its scale (`orange-dark@2x`, `orange-dark`).
enum VariantChoice: Sendable, Hashable {
  /// The variant numbered so, from 1.
  case number(Int)
  /// The variant named so.
  case name(String)

  /// The choice `text` names: a whole number from 1, else a name; an empty text is a usage error.
  init(parsing text: String) throws(UsageError) {
    if text.isEmpty {
      throw UsageError("--variant needs a number or a variant name, got an empty one")
    }
    if let number = DecimalNumber.integer(text), number >= 1 {
      self = .number(number)
    } else {
      self = .name(text)
    }
  }

  /// As the command line wrote it.
  var text: String {
    switch self {
    case .number(let number): return String(number)
    case .name(let name): return name
    }
  }
}

/// The options of the commands that read a list (`render`, `sheet`, `layout`) and of those that
/// write pictures (`render`, `sheet`), one table row each.
enum ListOptions {
  /// `--input-format json|markdown`.
  static let inputFormatOption = TypedOption.choice(
    ListFormat.self, names: ["--input-format"],
    help: "how the list file is written: the JSON list format or a Markdown list",
    defaultDescription: "markdown for a file ending in .md or .markdown, else json")
  /// `--input-format` as the tables list it.
  static let inputFormat = inputFormatOption.spec
  /// `--theme <theme>|all`.
  static let themeOption = TypedOption.choiceOrAll(
    ThemeName.self, names: ["--theme"], default: .orange, help: "the theme")
  /// `--theme` as the tables list it.
  static let theme = themeOption.spec
  /// `--mode light|dark|all`.
  static let modeOption = TypedOption.choiceOrAll(
    ColorMode.self, names: ["--mode"], default: .light, help: "colour mode")
  /// `--mode` as the tables list it.
  static let mode = modeOption.spec
  /// `--width <points>`.
  static let widthOption = TypedOption.number(
    names: ["--width"], placeholder: "points", range: Vocabulary.canvasWidths,
    default: Vocabulary.standardCanvasWidth,
    help: "canvas width in points; the height fits the content")
  /// `--width` as the tables list it.
  static let width = widthOption.spec
  /// `--background theme|none`.
  static let backgroundOption = TypedOption.choice(
    BackgroundOption.self, names: ["--background"], default: .theme,
    help: "the mode's color.bg.primary (theme) or transparent (none)")
  /// `--background` as the tables list it.
  static let background = backgroundOption.spec
  /// `--locale <tag>`.
  static let locale = TypedOption.text(
    names: ["--locale"], placeholder: "tag",
    help:
      "spoken text and (iOS rules) the marker alphabet; an Arabic tag (ar, ar-MA) also selects right-to-left",
    defaultDescription: "the list's \"locale\", else en")
  /// `--direction ltr|rtl`.
  static let directionOption = TypedOption.choice(
    LayoutDirection.self, names: ["--direction"], help: "override the direction alone",
    defaultDescription: "from the locale")
  /// `--direction` as the tables list it.
  static let direction = directionOption.spec
  /// `--text-style bodyLarge|bodyMedium`.
  static let textStyleOption = TypedOption.choice(
    TextStyle.self, names: ["--text-style"], help: "draw every level in this text style",
    defaultDescription: "the list's")
  /// `--text-style` as the tables list it.
  static let textStyle = textStyleOption.spec
  /// `--platform ios|android|all`.
  static let platformOption = TypedOption.choiceOrAll(
    Platform.self, names: ["--platform"],
    help:
      "whose rules to follow where iOS and Android differ: bullet level, Arabic letters, rich text in bold, leading, tall markers",
    defaultDescription: "the list's \"platform\", else ios")
  /// `--platform` as the tables list it.
  static let platform = platformOption.spec
  /// `--font-scale <s>[,<s>…]`.
  static let fontScaleOption = TypedOption.numberList(
    names: ["--font-scale"], placeholder: "s[,s…]", range: FontScale.supported,
    help:
      "Android's font scale, for the Android rules: text sizes follow Android's non-linear tables, marker boxes and icons the scale; sheet takes several (1,1.5,2), one column each",
    defaultDescription: "the list's \"fontScale\", else 1")
  /// `--font-scale` as the tables list it.
  static let fontScale = fontScaleOption.spec
  /// `--content-size <size>[,<size>…]`.
  static let contentSizeOption = TypedOption.choiceList(
    ContentSizeCategory.self, names: ["--content-size"],
    help:
      "iOS Dynamic Type, for the iOS rules: font sizes, line heights and the ordered box scale by the body size of the category / 17; sheet takes several, one column each",
    defaultDescription: "the list's \"contentSize\", else large")
  /// `--content-size` as the tables list it.
  static let contentSize = contentSizeOption.spec
  /// `--accessibility`.
  static let accessibility = FlagOption(
    names: ["--accessibility"],
    help:
      "draw the accessibility snapshot: each spoken element's frame tinted in its own colour and, beside the list, what the screen reader says for each in reading order (VoiceOver under the iOS rules, TalkBack under the Android rules, in the locale's language)",
    defaultDescription: "a case variant's \"accessibility\", else off")
  /// `--shrink`.
  static let shrink = FlagOption(
    names: ["--shrink"],
    help:
      "make the canvas only as wide as the widest row needs, at most --width, as Paparazzi's RenderingMode.SHRINK: rows wrap as on the full width, a wrapped label takes its whole wrap width, a right-to-left list keeps its right edge on the canvas's",
    defaultDescription: "a case variant's \"shrink\", else off")
  /// `--font-dir <dir>`.
  static let fontDirectory = TypedOption.text(
    names: ["--font-dir"], placeholder: "dir", completion: .directory,
    help:
      "a folder of font files, searched first for the manifests' files; its other fonts are licensed brand fonts (Helvetica Neue, Sosh, Shantell Sans) used instead of the open substitutes"
  )
  /// `--verbose`: what was chosen and why, beyond the warnings.
  static let verbose = FlagOption(
    names: ["--verbose"],
    help:
      "the sources line names every font file and its folder (by default each font set and how many files it has); also say, after the warnings, each installed font file passed over for a same-named file with the manifest's SHA-256 (\"note: …\" lines; ouds-render themes lists them too)"
  )
  /// `--themes <dir>`.
  static let themesDirectory = TypedOption.text(
    names: ["--themes"], placeholder: "dir", completion: .directory,
    help: "a Themes/ folder to read tokens from",
    defaultDescription:
      "$OUDS_THEMES_DIR, else a Themes/ in the current folder or its parents, else the package's copy"
  )

  /// `--variant <n>|<name>`: one variant of a catalogue case file, by number or name (which
  /// variants the file has is checked once it is read).
  static let variantOption = TypedOption<VariantChoice>(
    names: ["--variant"], placeholder: "n|name",
    help:
      "for a catalogue case file (Snapshots/cases/): draw its variant n (1 is the first, in the order snapshot verify lists them) or the variant named (orange-dark@2x), with that variant's theme, mode, scale, width, shrink, background, locale, direction, text style, platform and text size; an option given on the command line wins over the variant",
    defaultDescription:
      "none: the case's list is drawn with the options given, and stderr says once that its variants are not applied",
    parse: VariantChoice.init(parsing:))
  /// `--variant` as the tables list it.
  static let variant = variantOption.spec

  /// The options of every command that reads a list.
  static let all: [OptionSpec] = [
    inputFormat, variant, theme, mode, width, background, locale.spec, direction, textStyle,
    platform,
    fontScale, contentSize, accessibility.spec, shrink.spec, fontDirectory.spec,
    themesDirectory.spec,
  ]

  /// `--format png|svg|pdf`.
  static let formatOption = TypedOption.choice(
    OutputKind.self, names: ["--format"], help: "output format",
    defaultDescription: "from the -o extension; png for -o -")
  /// `--format` as the tables list it.
  static let format = formatOption.spec
  /// `--scale 1|2|3`.
  static let scaleOption = TypedOption.integer(
    names: ["--scale"], placeholder: "n", range: Vocabulary.pixelScales,
    default: Vocabulary.standardPixelScale,
    help:
      "PNG pixels per point; under the Android rules also the pixel grid of the text (glyph advances rounded to whole pixels), in SVG and PDF too"
  )
  /// `--scale` as the tables list it.
  static let scale = scaleOption.spec
  /// `--scale 1|2|3` of `layout`: the pixel grid of Android's text.
  static let textScale = OptionSpec(
    names: ["--scale"],
    value: .integer(
      placeholder: "n", range: Vocabulary.pixelScales, default: Vocabulary.standardPixelScale),
    help:
      "under the Android rules, the pixels per point of the pixel grid of the text (glyph advances rounded to whole pixels), as in a PNG at that scale; the iOS rules ignore it"
  )

  /// `-o, --output <file>`, required: where the picture goes; `-` is standard output.
  static let output = TypedOption.text(
    names: ["-o", "--output"], placeholder: "file", completion: .file(extensions: []),
    help: "where to write; - writes to standard output", isRequired: true)

  /// The paragraph after the options of the commands that render.
  static let sourcesFooter = """
    Once the output is written, one line on stderr says which themes folder was read (and why)
    and which font files were used (file and folder); warnings follow it.
    Font files are also looked for in $OUDS_FONT_DIRS (folders separated by ':') and in the
    font folders fontconfig lists.
    """

  /// The list file argument.
  static let listArgument = ArgumentSpec(
    name: "list.json|list.md",
    help: "the list to draw (JSON or Markdown; see the README's list formats)",
    completion: .file(extensions: ["json", "md", "markdown"]))
}
