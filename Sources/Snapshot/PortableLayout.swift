import Scene

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Makes the layout JSON of a reference independent of where the repository is checked out.
public enum SnapshotLayout {
  /// `scene` with every `row.glyph.imageFile` rewritten: relative to `snapshotsDirectory` when the file is
  /// inside it (`cases/heart.svg`), else relative to `sourceDirectory` (the case or test file's folder)
  /// when inside that, else the file name alone.
  public static func portable(_ scene: Scene, snapshotsDirectory: URL, sourceDirectory: URL?)
    -> Scene
  {
    var copy = scene
    for index in copy.rows.indices {
      guard let glyph = copy.rows[index].glyph, case .image(let file) = glyph.content else {
        continue
      }
      copy.rows[index].glyph?.content = .image(
        file: portablePath(
          of: file, snapshotsDirectory: snapshotsDirectory, sourceDirectory: sourceDirectory))
    }
    return copy
  }

  /// The location-independent form of one icon path (see ``portable(_:snapshotsDirectory:sourceDirectory:)``).
  public static func portablePath(of file: String, snapshotsDirectory: URL, sourceDirectory: URL?)
    -> String
  {
    let url = URL(fileURLWithPath: file)
    for folder in [snapshotsDirectory] + (sourceDirectory.map { [$0] } ?? []) {
      if let relative = relativePath(of: url, inside: folder) { return relative }
    }
    return url.lastPathComponent
  }

  /// `file` relative to `folder` when it is strictly inside it (comparing standardized, then symlink-resolved paths).
  static func relativePath(of file: URL, inside folder: URL) -> String? {
    let candidates = [
      (file.standardizedFileURL, folder.standardizedFileURL),
      (file.resolvingSymlinksInPath(), folder.resolvingSymlinksInPath()),
    ]
    for (file, folder) in candidates {
      let fileParts = file.pathComponents
      let folderParts = folder.pathComponents
      if fileParts.count > folderParts.count,
        Array(fileParts.prefix(folderParts.count)) == folderParts
      {
        return fileParts.dropFirst(folderParts.count).joined(separator: "/")
      }
    }
    return nil
  }
}
