import Foundation

/// Paths and folders shared by the BulletList tests.
enum Fixture {
  /// The package root: …/Tests/BulletListTests/Support.swift → …
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A fresh temporary folder, removed by the caller.
  static func temporaryFolder(_ label: String = "ouds-bullet-list") throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}
