import Fonts
import Graphics
import SafeInput
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How files people share (sheets and their SVG description and PDF subject, token reviews,
/// gallery pages and PDFs) name the folders they were made from, so that the same inputs give
/// the same bytes in any checkout on any machine.
///
/// A folder inside the current folder is written relative to it (`Themes`, `edited-Themes`,
/// `.` for the current folder itself); the package's bundled themes folder is
/// ``packageCopyName``; any other folder (a system font folder such as `/usr/share/fonts/…`,
/// which is the same on every machine of a distribution) is written as its absolute path. The
/// line printed on the terminal (``RenderSources``) keeps absolute paths.
public struct SharedPaths: Hashable, Sendable {
  /// The folder paths are written relative to.
  public var currentDirectory: URL
  /// The package's own copy of the themes folder, when it is installed.
  public var packageCopy: URL?

  /// How the package's bundled themes folder is written: `the package's own copy`.
  public static let packageCopyName = "the package's own copy"

  /// Paths relative to `currentDirectory` (nil: the process's current folder), with
  /// `packageCopy` (by default the one installed beside the executable) named by its role.
  public init(currentDirectory: URL? = nil, packageCopy: URL? = ThemesLocation.packageCopy()) {
    self.currentDirectory =
      (currentDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
      .standardizedFileURL
    self.packageCopy = packageCopy?.standardizedFileURL
  }

  /// `folder` as a shared file writes it: ``packageCopyName``, a path relative to the current
  /// folder when inside it, else its absolute path; control characters escaped.
  public func folder(_ folder: URL) -> String {
    let folder = folder.standardizedFileURL
    if let packageCopy, RelativePath.inside(folder, folder: packageCopy) == "." {
      return Self.packageCopyName
    }
    // From `/`, every path is "inside": an absolute path says more.
    if currentDirectory.pathComponents.count > 1,
      let relative = RelativePath.inside(folder, folder: currentDirectory)
    {
      return RenderSources.printable(relative)
    }
    return RenderSources.printable(folder.path)
  }

  /// ``folder(_:)`` of a path (absolute, or relative to the process's current folder).
  public func folder(_ path: String) -> String { folder(URL(fileURLWithPath: path)) }

  /// The themes folder and why it was chosen, `Themes (found from the current folder)`, or
  /// ``packageCopyName`` alone when the search fell back to it.
  public func themes(_ location: ThemesLocation) -> String {
    location.source == .package
      ? Self.packageCopyName : "\(folder(location.directory)) (\(location.source.reason))"
  }

  /// The `themes: … · fonts: …` line (``RenderSources``) with its folders written as here.
  public func sourcesLine(themes: ThemesLocation, fonts: [LoadedFont], rules: [String] = [])
    -> String
  {
    RenderSources.line(
      themesText: self.themes(themes),
      fonts: fonts.map {
        RenderSources.FontFile(
          name: $0.fileName, folder: folder($0.folder), isBrand: $0.role == "brand")
      }, rules: rules)
  }
}
