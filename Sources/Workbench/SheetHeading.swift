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

/// The font a theme's Latin text is drawn with: the brand family or a substitute.
public struct FontLegendEntry: Hashable, Sendable {
  /// The theme.
  public var theme: ThemeName
  /// The brand family (`font.family.brand`'s first family), e.g. `Helvetica Neue`.
  public var brandFamily: String
  /// The family really drawn: the first of the theme's families a loaded font file declares.
  public var family: String

  /// Creates an entry.
  public init(theme: ThemeName, brandFamily: String, family: String) {
    self.theme = theme
    self.brandFamily = brandFamily
    self.family = family
  }

  /// Whether the brand font itself is drawn.
  public var isBrandFont: Bool { family.lowercased() == brandFamily.lowercased() }

  /// `Orange: Liberation Sans, substitute for Helvetica Neue` or `Sosh: Sosh, the brand font`.
  public var description: String {
    "\(theme.displayName): \(family), "
      + (isBrandFont ? "the brand font" : "substitute for \(brandFamily)")
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

  /// Creates a heading.
  public init(title: String, lines: [String]) {
    self.title = title
    self.lines = lines
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

  /// The font each theme of `names` draws its Latin text with, and whether it is the brand font
  /// (a file of the brand font folder) or a substitute from the theme's manifest.
  /// - Throws: `RenderError` when a theme or its fonts cannot be loaded.
  public func fontLegend(for names: [ThemeName]) throws(RenderError) -> [FontLegendEntry] {
    var entries: [FontLegendEntry] = []
    for name in names {
      let theme: Theme
      do {
        theme = try themes.theme(name, mode: .light)
      } catch {
        throw .theme(error)
      }
      let loaded = try fontSet(for: name).files.filter {
        $0.role == "brand" || $0.role.hasPrefix("latin")
      }
      let families = Set(loaded.map { $0.family.lowercased() })
      let drawn =
        theme.fontFamilies.first { families.contains($0.lowercased()) } ?? loaded.first?.family
        ?? "none"
      entries.append(
        FontLegendEntry(theme: name, brandFamily: theme.fontFamilies.first ?? drawn, family: drawn))
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
    let legend = try fontLegend(for: names).map(\.description).joined(separator: " · ")
    return SheetHeading(
      title:
        "\(RenderSources.printable(listName)) · \(platforms.map(\.displayName).joined(separator: " and "))",
      lines: ["Themes: \(folder)", "Fonts: \(legend)"])
  }
}
