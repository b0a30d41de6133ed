import Graphics
import PixelDiff

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where references live and how renders are made and compared.
public struct SnapshotConfiguration: Sendable {
  /// The snapshots folder (references, `cases/`, `ENVIRONMENT.json`).
  public var snapshotsDirectory: URL
  /// A `Themes/` folder given explicitly (`--themes`); nil finds one by ``Themes/ThemesLocation``'s
  /// rules, where the `Themes/` beside the snapshots folder comes before the current folder's.
  public var themesDirectory: URL?
  /// A folder of licensed brand fonts, or nil for the open substitutes; searched first for the manifests' files.
  public var brandFontDirectory: URL?
  /// Worker threads, each with its own renderer (Pango is not thread-safe).
  public var jobs: Int
  /// How pixels are compared (exact by default).
  public var diffOptions: DiffOptions
  /// The environment read for `OUDS_THEMES_DIR` and `OUDS_FONT_DIRS`.
  public var environment: [String: String]
  /// How long `record` and `prune` wait for another run's lock on the snapshots folder, and
  /// `verify` for a `record` or `prune`: 10 s by default.
  public var lockTimeout: TimeInterval = 10

  /// Creates a configuration; `jobs` defaults to the number of active cores.
  public init(
    snapshotsDirectory: URL, themesDirectory: URL? = nil, brandFontDirectory: URL? = nil,
    jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
    diffOptions: DiffOptions = DiffOptions(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.snapshotsDirectory = snapshotsDirectory.standardizedFileURL
    self.themesDirectory = themesDirectory
    self.brandFontDirectory = brandFontDirectory
    self.jobs = max(1, jobs)
    self.diffOptions = diffOptions
    self.environment = environment
  }
}
