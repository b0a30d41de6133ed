import Foundation
import Testing

@Suite("preview's docs view in headless Chromium (Playwright, Tests/Browser/preview_docs.py)")
struct PreviewDocsBrowserTests {
  @Test(
    "the Docs link opens the docs view of the list, keeping the URL's state: its source, its 8 variants, Orange light's tokens and swatches, the audit's figures and both readers' words; a token edit updates it without a reload; a link reproduces it; a pasted list's error shows in its place, a good one its docs; wide tables are tab stops only when they scroll"
  )
  func docsView() throws {
    let tools = try BrowserTools.find()

    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    let list = folder.appendingPathComponent("onboarding.md")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Snapshots/cases/onboarding.md"), to: list)
    let preview = try PreviewProcess(["preview", "onboarding.md", "--port", "0"], in: folder)
    let port = try preview.port()

    let (status, report) = try tools.run(
      "preview_docs.py",
      [
        "http://127.0.0.1:\(port)/?theme=orange&mode=light", list.path,
        themes.appendingPathComponent("brands/orange/light.tokens.json").path, tools.chromium,
      ])
    #expect(status == 0, "\(report)\npreview: \(preview.stderr)")
    #expect(report.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == 24, "\(report)")
    #expect(preview.stop() == 0)
    #expect(preview.lines.contains("update 1: Themes/brands/orange/light.tokens.json changed"))
  }
}
