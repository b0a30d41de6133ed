// Pages written by the tests, opened in headless Chromium: what the review page's tests
// (SnapshotTests) and the gallery's (WorkbenchTests) share.
import Foundation
import PNG

/// A page written to a file, as a browser opens it.
public enum WebPage {
  /// The `file:` URL of `page`, with `fragment` (without `#`) when not empty.
  public static func url(_ page: URL, _ fragment: String = "") -> String {
    page.absoluteString + (fragment.isEmpty ? "" : "#" + fragment)
  }

  /// A copy of the page beside it that runs `script` once the page has loaded and laid out (what a
  /// person does: scroll, press keys).
  public static func driven(_ page: URL, name: String, script: String) throws -> URL {
    let html = try String(contentsOf: page, encoding: .utf8)
    let hook =
      "<script>window.addEventListener('load', () => setTimeout(() => {\n\(script)\n}, 0));</script>\n</body>"
    let copy = page.deletingLastPathComponent().appendingPathComponent(name)
    try Data(html.replacingOccurrences(of: "</body>", with: hook).utf8).write(to: copy)
    return copy
  }
}

/// Headless Chromium, one page at a time.
public enum Browser {
  static func common(_ profile: String) -> [String] {
    [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
      "--user-data-dir=\(profile)", "--virtual-time-budget=5000", "--force-device-scale-factor=1",
    ]
  }

  /// Chromium's path, or a failure saying it is missing.
  static func chromium() throws -> String {
    guard let path = Chromium.path else {
      throw SupportFailure("CI is set and chromium is not installed: scripts/test installs it")
    }
    return path
  }

  /// The DOM after the page's scripts ran.
  public static func dom(_ url: String, window: String = "1400,900") throws -> String {
    let chromium = try chromium()
    let profile = try temporaryFolder("chromium-profile")
    defer { try? FileManager.default.removeItem(at: profile) }
    return try runProcess(
      chromium, common(profile.path) + ["--window-size=\(window)", "--dump-dom", url])
  }

  /// A screenshot of the window.
  public static func screenshot(_ url: String, window: String) throws -> RasterImage {
    let chromium = try chromium()
    let profile = try temporaryFolder("chromium-profile")
    defer { try? FileManager.default.removeItem(at: profile) }
    let shot = profile.appendingPathComponent("shot.png")
    _ = try runProcess(
      chromium,
      common(profile.path) + ["--window-size=\(window)", "--screenshot=\(shot.path)", url])
    return try PNGCodec.decode(Data(contentsOf: shot))
  }
}

/// The text of the element with `id` in a DOM dump (no markup inside).
public func elementText(_ dom: String, id: String) -> String? {
  guard let start = dom.range(of: "id=\"\(id)\"") else { return nil }
  guard let open = dom[start.upperBound...].firstIndex(of: ">") else { return nil }
  guard let close = dom[open...].range(of: "</") else { return nil }
  return String(dom[dom.index(after: open)..<close.lowerBound])
    .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
    .replacingOccurrences(of: "&gt;", with: ">")
}
