import Foundation

extension ThemeLibrary {
  /// Finds the repository's `Themes/` directory.
  ///
  /// In order: the environment variable `OUDS_THEMES_DIR`; the first `Themes/themes.resolver.json`
  /// found walking up from the current directory; the same walking up from the running
  /// executable (`CommandLine.arguments[0]`, then `/proc/self/exe`); finally the `Themes/` folder
  /// of the source checkout this file was compiled from (`…/Sources/Themes/X.swift` → `…/Themes`).
  public static func defaultDirectory() throws(ThemeError) -> URL {
    let fm = FileManager.default
    if let env = ProcessInfo.processInfo.environment["OUDS_THEMES_DIR"], !env.isEmpty {
      let url = URL(fileURLWithPath: env).standardizedFileURL
      guard fm.fileExists(atPath: url.appendingPathComponent(resolverFileName).path) else {
        throw ThemeError(message: "OUDS_THEMES_DIR=\(env) has no \(resolverFileName)")
      }
      return url
    }
    var starts: [URL] = [URL(fileURLWithPath: fm.currentDirectoryPath)]
    if let arg0 = CommandLine.arguments.first, arg0.contains("/") {
      starts.append(URL(fileURLWithPath: arg0).resolvingSymlinksInPath().deletingLastPathComponent())
    }
    if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      starts.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
    }
    for start in starts {
      if let found = findThemes(walkingUpFrom: start) { return found }
    }
    // …/Sources/Themes/ThemeLibrary+Directory.swift → …/Themes
    let fromSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Themes")
    if fm.fileExists(atPath: fromSource.appendingPathComponent(resolverFileName).path) {
      return fromSource.standardizedFileURL
    }
    throw ThemeError(
      message:
        "cannot find the Themes directory: set OUDS_THEMES_DIR or run from the repository (looked above \(starts.map(\.path).joined(separator: ", ")) and at \(fromSource.path))"
    )
  }

  private static func findThemes(walkingUpFrom start: URL) -> URL? {
    var dir = start.standardizedFileURL
    while true {
      let candidate = dir.appendingPathComponent("Themes")
      if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(resolverFileName).path) {
        return candidate
      }
      let parent = dir.deletingLastPathComponent()
      if parent.path == dir.path { return nil }
      dir = parent
    }
  }
}
