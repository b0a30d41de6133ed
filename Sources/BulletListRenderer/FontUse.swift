import Fonts
import Graphics
import Primitives
import Scene
import Themes

/// One kind of text a theme draws (Latin or Arabic, regular or strong) and the font files Pango
/// really drew a sample of it with.
public struct FontUse: Hashable, Sendable {
  /// What was drawn, e.g. `Latin, weight 400`.
  public var text: String
  /// The sample drawn.
  public var sample: String
  /// The files of the faces Pango chose, in the order of the sample's runs.
  public var files: [LoadedFont]

  /// Creates a record.
  public init(text: String, sample: String, files: [LoadedFont]) {
    self.text = text
    self.sample = sample
    self.files = files
  }
}

extension BulletListRenderer {
  /// The font files the theme `name` really draws its labels with: a Latin and an Arabic sample
  /// in the Body Large size at the regular and the strong weight, laid out by the theme's own
  /// font set exactly as a label is, and the file of each face Pango chose (after fontconfig's
  /// fallback from the theme's families). A brand font of `--font-dir` shows here when it wins.
  /// On `platform` Android, a theme whose manifest states an Android fallback draws with it.
  /// - Throws: `RenderError` when the theme does not resolve or its fonts cannot be loaded.
  public func fontsUsed(by name: ThemeName, platform: Platform = .ios) throws(RenderError)
    -> [FontUse]
  {
    var theme: Theme
    do {
      theme = try themes.theme(name, mode: .light)
      theme.fontFamilies = try themes.fontManifest(for: name).fontFamilies(
        on: platform, brandFamilies: theme.fontFamilies)
    } catch {
      throw .theme(error)
    }
    let set = try fontSet(for: name, platform: platform)
    let engine = try textEngine(for: name, platform: platform)
    let typography = theme.typography.bodyLarge
    let samples: [(script: String, text: String, language: String, direction: LayoutDirection)] = [
      ("Latin", "Label 1 Aa", "en", .ltr), ("Arabic", "عنصر القائمة", "ar", .rtl),
    ]
    var uses: [FontUse] = []
    for sample in samples {
      for weight in [typography.regularWeight, typography.strongWeight] {
        let text = StyledText(
          spans: [TextSpan(sample.text)],
          appearance: TextAppearance(
            fontFamilies: theme.fontFamilies, fontSize: typography.fontSize,
            lineHeight: typography.lineHeight,
            letterSpacing: typography.letterSpacing, weight: weight,
            color: theme.colors.contentDefault,
            language: sample.language),
          direction: sample.direction)
        let files = engine.fontFiles(text).map { url in
          set.files.first { $0.url.standardizedFileURL.path == url.standardizedFileURL.path }
            ?? LoadedFont(url: url, sha256: "", family: "", role: "")
        }
        uses.append(
          FontUse(text: "\(sample.script), weight \(weight)", sample: sample.text, files: files))
      }
    }
    return uses
  }
}
