import BulletListRenderer
import CLIKit
import Fonts
import Graphics
import Primitives
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render themes`: lists the themes, their modes and fonts.
enum ThemesCommand {
  /// The command's table.
  static let spec = CommandSpec(
    name: "themes",
    abstract: "List the themes, their tokens and fonts",
    overview: "List the themes, their modes and the font files each one uses (file and folder).",
    options: [
      ListOptions.themesDirectory.spec,
      ListOptions.fontDirectory.describing(
        "dir", help: "a folder searched first for the manifests' font files"
      ).spec,
    ],
    examples: [
      Example(command: "themes", explanation: "the themes folder found from the current folder"),
      Example(
        command: "themes --themes ~/edited/Themes", explanation: "an edited copy of the tokens"),
    ],
    run: run)

  /// Prints the themes; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let location = try ThemesLocation.resolve(
      explicit: arguments.text(ListOptions.themesDirectory).map { URL(fileURLWithPath: $0) })
    let library = try ThemeLibrary(directory: location.directory)
    let locator = FontLocator(
      fontDirectory: arguments.text(ListOptions.fontDirectory).map { URL(fileURLWithPath: $0) })
    var text =
      "Themes in \(RenderSources.printable(location.directory.path)) (\(location.source.reason)):\n"
    for name in ThemeName.allCases {
      let light = try library.theme(name, mode: .light)
      let dark = try library.theme(name, mode: .dark)
      text += "\n\(name.rawValue) (\(name.displayName)): modes light, dark\n"
      text += "  fonts: \(light.fontFamilies.joined(separator: ", "))\n"
      for style in TextStyle.allCases {
        let t = light.typography[style]
        let m = light.metrics[style]
        text +=
          "  \(style.tokenName): \(format(t.fontSize))/\(format(t.lineHeight)) pt, letter spacing \(format(t.letterSpacing)), weights \(t.regularWeight)/\(t.strongWeight), bullet box \(format(m.bulletBoxWidth)), icon \(format(m.iconSize))\n"
      }
      text +=
        "  colours light: text \(light.colors.contentDefault), brand \(light.colors.contentBrandPrimary), background \(light.colors.backgroundPrimary)\n"
      text +=
        "  colours dark:  text \(dark.colors.contentDefault), brand \(dark.colors.contentBrandPrimary), background \(dark.colors.backgroundPrimary)\n"
      text += "  font files (\(ThemeLibrary.fontManifestFileName(for: name))):\n"
      let manifest = try library.fontManifest(for: name)
      for file in manifest.fontSources.sources {
        text += "    \(file.role): \(describe(file, locator: locator))\n"
      }
      if manifest.android != nil {
        let families = manifest.fontFamilies(on: .android, brandFamilies: light.fontFamilies)
        text += "  fonts on android without the brand font: \(families.joined(separator: ", "))\n"
        text +=
          "  android font files (\"android\" in \(ThemeLibrary.fontManifestFileName(for: name))):\n"
        for file in manifest.fontSources(on: .android).sources {
          text += "    \(file.role): \(describe(file, locator: locator))\n"
        }
      }
    }
    try writeOutput(text)
    return ExitStatus.success
  }

  /// `Name.ttf in <folder>`, with what is wrong when the file is missing or has another SHA-256,
  /// then one line per same-named file passed over (`passed over <file> (SHA-256 …)`): the
  /// machine's other copies, which renders do not warn about (`--verbose` notes).
  private static func describe(_ file: FontSource, locator: FontLocator) -> String {
    guard let found = locator.locate(file) else {
      return "\(file.fileName) MISSING (package \(file.package ?? "not named"))"
    }
    let folder = RenderSources.printable(found.url.deletingLastPathComponent().path)
    guard found.matchesManifest else {
      return
        "\(file.fileName) in \(folder) (SHA-256 \(found.sha256.prefix(12))…, not the manifest's \(file.sha256.prefix(12))…)"
    }
    return "\(file.fileName) in \(folder)"
      + found.otherCandidates.map { other in
        "\n      passed over \(RenderSources.printable(other.path)) (SHA-256 \((locator.sha256(of: other) ?? "").prefix(12))…, not the manifest's)"
      }.joined()
  }

  private static func format(_ value: Double) -> String { HelpText.plain(value) }
}
