import Foundation

/// The repository's folders the diff tests read pictures from.
enum Repo {
  /// The package root (…/Tests/PixelDiffTests/Support.swift → …).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  /// `Snapshots/`.
  static let snapshots = root.appendingPathComponent("Snapshots")
}

/// A fresh empty folder in the system's temporary folder; the caller removes it.
func temporaryFolder(_ label: String = "pixel-diff-tests") throws -> URL {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "\(label)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}
