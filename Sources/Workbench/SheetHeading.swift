import BulletListRenderer
import Graphics
import Layout
import Primitives
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the tokens of the themes folder in use compare with the package's own copy.
public enum ThemesEdition: Hashable, Sendable {
  /// The folder is the package's copy.
  case packageCopy
  /// Another folder whose tokens resolve to the package's values (same token digest).
  case unedited
  /// Another folder whose tokens resolve to other values than the package's.
  case edited
  /// The package's copy is not installed (or cannot be read), so nothing was compared.
  case notCompared
}

/// The fonts a theme's text is drawn with on one platform: the brand family or a substitute,
/// and Android's fallback where the theme's manifest states one (Roboto and Noto Naskh Arabic for
/// Orange without its brand font).
public struct FontLegendEntry: Hashable, Sendable {
  /// The theme.
  public var theme: ThemeName
  /// The platform whose fonts these are.
  public var platform: Platform
  /// The brand family (`font.family.brand`'s first family), e.g. `Helvetica Neue`.
  public var brandFamily: String
  /// The family really drawn: the first of the theme's families a loaded font file declares.
  public var family: String
  /// The family of the Arabic text, when the platform's set has one of its own (Android's
  /// fallback, Noto Naskh Arabic); nil when the set's Arabic face is the theme's usual one.
  public var arabicFamily: String?
  /// Whether the sheet names the platform (it shows more than one).
  public var namesPlatform: Bool

  /// Creates an entry.
  public init(
    theme: ThemeName, platform: Platform = .ios, brandFamily: String, family: String,
    arabicFamily: String? = nil, namesPlatform: Bool = false
  ) {
    self.theme = theme
    self.platform = platform
    self.brandFamily = brandFamily
    self.family = family
    self.arabicFamily = arabicFamily
    self.namesPlatform = namesPlatform
  }

  /// Whether the brand font itself is drawn.
  public var isBrandFont: Bool { family.lowercased() == brandFamily.lowercased() }

  /// `Orange: Liberation Sans, substitute for Helvetica Neue`, `Sosh: Sosh, the brand font`, or
  /// on Android without the brand font `Orange (Android): Roboto, Arabic in Noto Naskh Arabic,
  /// Android's fallback for Helvetica Neue`.
  public var description: String {
    let name = theme.displayName + (namesPlatform ? " (\(platform.displayName))" : "")
    if isBrandFont { return "\(name): \(family), the brand font" }
    if let arabicFamily {
      return
        "\(name): \(family), Arabic in \(arabicFamily), Android's fallback for \(brandFamily)"
    }
    return "\(name): \(family), substitute for \(brandFamily)"
  }
}

/// What a rendering sheet says about itself, drawn above its grid: a title and lines of detail.
///
/// Nothing in it depends on the date or the run, so the same inputs give the same bytes.
public struct SheetHeading: Hashable, Sendable {
  /// The first line, in bold: the list's file name and the platforms.
  public var title: String
  /// The lines under it: the themes folder (and whether it is edited), the fonts of each theme.
  public var lines: [String]
  /// The fonts of each theme and platform the sheet shows; empty for a heading made of lines.
  public var fonts: [FontLegendEntry] = []

  /// Creates a heading.
  public init(title: String, lines: [String]) {
    self.title = title
    self.lines = lines
  }

  /// Creates a heading whose lines are `themesLine`, then `Fonts:` and the entries of `fonts`.
  public init(title: String, themesLine: String, fonts: [FontLegendEntry]) {
    self.title = title
    self.fonts = fonts
    lines = [themesLine, "Fonts: " + fonts.map(\.description).joined(separator: " · ")]
  }

  /// The lines of a page that shows only `themes`: the fonts line names those themes alone.
  public func lines(showing themes: [ThemeName]) -> [String] {
    guard !fonts.isEmpty, let themesLine = lines.first else { return lines }
    let shown = fonts.filter { themes.contains($0.theme) }
    return [themesLine, "Fonts: " + shown.map(\.description).joined(separator: " · ")]
  }
}

extension BulletListRenderer {
  /// Whether the tokens in use are the package's: compares the token digest
  /// (`Themes/ThemeLibrary/tokenDigest`) of the themes folder with that of `packageCopy`.
  /// - Parameter packageCopy: the package's copy of `Themes/`; by default the one installed
  ///   beside the executable (`Themes/ThemesLocation/packageCopy(candidates:)`).
  public func themesEdition(packageCopy: URL? = ThemesLocation.packageCopy()) -> ThemesEdition {
    if themesLocation.source == .package { return .packageCopy }
    guard let packageCopy else { return .notCompared }
    if packageCopy.standardizedFileURL.resolvingSymlinksInPath()
      == themesLocation.directory.resolvingSymlinksInPath()
    {
      return .packageCopy
    }
    guard let bundled = try? ThemeLibrary(directory: packageCopy) else { return .notCompared }
    return bundled.tokenDigest == themes.tokenDigest ? .unedited : .edited
  }

  /// The font each theme of `names` draws its Latin text with on each of `platforms`, and
  /// whether it is the brand font (a file of the brand font folder) or a substitute from the
  /// theme's manifest; on Android, the manifest's fallback (Roboto and its Arabic family) where
  /// it states one. With more than one platform each entry names its platform; a platform whose
  /// fonts are the iOS ones has no entry of its own.
  /// - Throws: `RenderError` when a theme or its fonts cannot be loaded.
  public func fontLegend(for names: [ThemeName], platforms: [Platform] = [.ios])
    throws(RenderError) -> [FontLegendEntry]
  {
    var entries: [FontLegendEntry] = []
    for name in names {
      let theme: Theme
      do {
        theme = try themes.theme(name, mode: .light)
      } catch {
        throw .theme(error)
      }
      let brandFamily = theme.fontFamilies.first
      var ownSets: [(platform: Platform, set: String)] = []
      for platform in platforms {
        let set = try fontSetName(for: name, platform: platform)
        if !ownSets.contains(where: { $0.set == set }) { ownSets.append((platform, set)) }
      }
      for (platform, _) in ownSets {
        let files = try fontSet(for: name, platform: platform).files
        let manifest: FontManifest
        do {
          manifest = try themes.fontManifest(for: name)
        } catch {
          throw .theme(error)
        }
        let families = manifest.fontFamilies(on: platform, brandFamilies: theme.fontFamilies)
        func first(_ roles: (String) -> Bool) -> String? {
          let loaded = Set(files.filter { roles($0.role) }.map { $0.family.lowercased() })
          return families.first { loaded.contains($0.lowercased()) }
            ?? files.first { roles($0.role) }?.family
        }
        let drawn = first { $0 == "brand" || $0.hasPrefix("latin") } ?? "none"
        // Android's own set (the manifest's `android` key): its Arabic family is named too.
        let isAndroidFallback = manifest.hasOwnFonts(on: platform)
        entries.append(
          FontLegendEntry(
            theme: name, platform: platform, brandFamily: brandFamily ?? drawn, family: drawn,
            arabicFamily: isAndroidFallback ? first { $0.hasPrefix("arabic") } : nil,
            namesPlatform: ownSets.count > 1))
      }
    }
    return entries
  }

  /// The heading of a sheet of the list `listName` (a file name, not a path) in `names` and
  /// `platforms`: `<list> · <platforms>`, then `Themes: <folder> (<why>)` with "edited" when
  /// its tokens differ from the package's copy, then each theme's font. The folder is written
  /// as ``SharedPaths`` writes it (relative to `currentDirectory`, nil: the process's current
  /// folder), so the sheet does not depend on where the checkout is.
  /// - Throws: `RenderError` when a theme or its fonts cannot be loaded.
  public func sheetHeading(
    listName: String, themes names: [ThemeName], platforms: [Platform],
    packageCopy: URL? = ThemesLocation.packageCopy(), currentDirectory: URL? = nil
  ) throws(RenderError) -> SheetHeading {
    let paths = SharedPaths(currentDirectory: currentDirectory, packageCopy: packageCopy)
    let folder: String
    switch themesEdition(packageCopy: packageCopy) {
    case .packageCopy:
      folder = SharedPaths.packageCopyName
    case .unedited:
      folder = "\(paths.themes(themesLocation)), same tokens as the package's copy"
    case .edited:
      folder = "\(paths.themes(themesLocation)), edited: its tokens differ from the package's copy"
    case .notCompared:
      folder =
        "\(paths.themes(themesLocation)), not compared: the package's copy is not installed"
    }
    let entries = try fontLegend(for: names, platforms: platforms)
    return SheetHeading(
      title:
        "\(RenderSources.printable(listName)) · \(platforms.map(\.displayName).joined(separator: " and "))",
      themesLine: "Themes: \(folder)", fonts: entries)
  }
}
