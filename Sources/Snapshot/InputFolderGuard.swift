import SafeInput
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The snapshots and themes folders an output must stay out of, whichever command writes it: a
/// picture from `render`, `sheet` or `diff` written over a reference or a case file would make
/// the next `verify` compare the output with itself, and a report among the tokens would change
/// the themes' digest.
public enum InputFolderGuard {
  /// The folders near `output` no output goes into: `given` (a `--snapshots` value),
  /// `./Snapshots`, the `Snapshots` folder beside `themes`, and any folder above the output (or
  /// the output itself) that holds an `ENVIRONMENT.json`, as every recorded snapshots folder
  /// does, or a `themes.resolver.json`, as every themes folder does. Only folders that exist are
  /// returned; `themes` itself is the caller's to add, named as it was found.
  public static func places(around output: String, given: URL? = nil, themes: URL? = nil)
    -> [ProtectedPlace]
  {
    var candidates: [(String, URL)] = []
    if let given { candidates.append(("snapshots folder", given)) }
    candidates.append(("snapshots folder", URL(fileURLWithPath: "Snapshots")))
    if let themes {
      candidates.append(
        (
          "snapshots folder",
          themes.standardizedFileURL.deletingLastPathComponent().appendingPathComponent("Snapshots")
        ))
    }
    let markers = [
      ("snapshots folder", SnapshotEnvironment.fileName),
      ("themes folder", ThemeLibrary.resolverFileName),
    ]
    var folder = URL(fileURLWithPath: OutputPlace.realPath(output))
    while folder.path != "/" && !folder.path.isEmpty {
      for (what, marker) in markers
      where FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path) {
        candidates.append((what, folder))
      }
      folder = folder.deletingLastPathComponent()
    }
    var seen: Set<String> = []
    return candidates.compactMap { what, url in
      guard PathText.isFolder(url.path) else { return nil }
      guard seen.insert(OutputPlace.realPath(url.path)).inserted else { return nil }
      return ProtectedPlace(what, url.path)
    }
  }

  /// Refuses `output` (given with `option`) inside one of `others` or a folder near it (see
  /// ``places(around:given:themes:)``).
  /// - Throws: `OutputPlaceError` naming the option, the path and the folder.
  public static func check(
    _ output: String, option: String, given: URL? = nil, themes: URL? = nil,
    others: [ProtectedPlace] = []
  ) throws(OutputPlaceError) {
    try OutputPlace.check(
      output, option: option,
      against: others + places(around: output, given: given, themes: themes))
  }
}
