import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 40: a `Themes/` found by walking up from the current folder is passed over, in one
/// line, when another user could have put it there (as `/tmp/Themes` made by anyone).
@Suite("The themes search passes over a stranger's Themes/")
struct StrangerThemesTests {
  @Test(
    "a Themes/ writable by every user above the current folder is passed over, saying so once; --themes still takes it"
  )
  func writableByEveryone() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let themes = try copyOfThemes(in: root)
    #expect(chmod(themes.path, 0o777) == 0)
    let work = root.appendingPathComponent("work/deeper")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    try write("- one\n", "list.md", in: work)
    let result = try run(
      ["render", "list.md", "--theme", "orange", "--mode", "light", "-o", "out.png"], in: work,
      removing: ["OUDS_THEMES_DIR"])
    #expect(result.status == 0, "\(result.stderr)")
    let notes = result.stderr.split(separator: "\n").filter { $0.hasPrefix("note: passing over") }
    #expect(
      notes == [
        "note: passing over the themes folder \(themes.path) found from the current folder: it is writable by every user; pass --themes \(themes.path) or set OUDS_THEMES_DIR to use it"
      ], "\(result.stderr)")
    #expect(result.stderr.contains("(the package's copy)"), "\(result.stderr)")
    let named = try run(
      ["render", "list.md", "--themes", themes.path, "-o", "named.png"], in: work,
      removing: ["OUDS_THEMES_DIR"])
    #expect(named.status == 0)
    #expect(!named.stderr.contains("passing over"))
  }
}
