import BulletListRenderer
import CLIKit
import Graphics
import SafeInput
import Snapshot
import Themes
import Workbench

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `--compare-themes <dir>` of `sheet` and `gallery`: the themes folder a token change is
/// reviewed against (the old tokens; `--themes` or the usual search gives the new ones).
enum CompareThemes {
  /// `--compare-themes <dir>`.
  static let option = TypedOption.text(
    names: ["--compare-themes"], placeholder: "dir", completion: .directory,
    help:
      "review a token change: for each theme and mode, before (this themes folder), after (the current one) and a diff picture, the changed tokens (also on standard output, one line each) and the rows that moved or changed colour; unchanged combinations are one line"
  )

  /// A renderer over the old themes folder `path`, sharing the current renderer's font search.
  /// - Throws: ``Snapshot/TokenReviewError`` naming the folder when it cannot be read.
  static func renderer(_ path: String, like current: BulletListRenderer) throws
    -> BulletListRenderer
  {
    let folder = URL(fileURLWithPath: path).standardizedFileURL
    guard
      UserFile.type(atPath: folder.appendingPathComponent(ThemeLibrary.resolverFileName).path)
        == .regular
    else {
      throw FolderError(
        description:
          "--compare-themes \(MessageText.path(path)): not a themes folder (no \(ThemeLibrary.resolverFileName) in it)"
      )
    }
    let library: ThemeLibrary
    do {
      library = try ThemeLibrary(directory: folder)
      try library.readAll()
    } catch {
      throw TokenReviewError.oldTokens(error, themes: path)
    }
    return try BulletListRenderer(
      themes: ThemesLocation(directory: folder, source: .explicit), library: library,
      brandFontDirectory: current.brandFontDirectory, fontLocator: current.fontLocator)
  }

  /// A folder given to `--compare-themes` that is not a themes folder.
  struct FolderError: Error, CustomStringConvertible {
    /// The message, naming the folder.
    var description: String
  }

  /// Prints the changed tokens on standard output, one line each; when none changed, one line
  /// that says so, naming the two folders (as ``BulletListRenderer/SharedPaths`` writes them)
  /// and, when not every theme and mode was compared, those that were.
  static func printTokenLines(
    _ lines: [String], old: URL, new: ThemesLocation,
    themes: [ThemeName] = ThemeName.allCases, modes: [ColorMode] = ColorMode.allCases
  ) throws {
    guard lines.isEmpty else {
      try writeOutput(lines.map { $0 + "\n" }.joined())
      return
    }
    let paths = SharedPaths()
    var scope = ""
    if Set(themes) != Set(ThemeName.allCases) || Set(modes) != Set(ColorMode.allCases) {
      scope =
        " in " + themes.map(\.displayName).joined(separator: ", ") + " "
        + modes.map(\.rawValue).joined(separator: " and ")
    }
    try writeOutput(
      "no token changed\(scope): \(paths.folder(old)) (--compare-themes) and \(paths.themes(new)) resolve to the same values\n"
    )
  }
}
