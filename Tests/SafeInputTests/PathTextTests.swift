import Foundation
import SafeInput
import Testing

/// SafeInput's path helpers, which replace `NSString`'s path methods and `FileManager`'s
/// enumerator in the product, checked against Foundation itself.
@Suite("PathText: NSString's path methods and a folder walk, without Foundation")
struct PathTextTests {
  /// Paths holding a slash before their last component: Foundation 6.3 on Linux stops the process
  /// in `deletingLastPathComponent` for a bare name (`a`, `a/`), so those are checked by value.
  static let paths = [
    "", "/", "/a", "/a/", "a/b", "a//b", "/tmp/scratch.tiff", "/tmp/lock/", "x/.profile",
    "d/.tiff", "/a.b.c", "dir.d/file", "/a/b/c.tar.gz", "../up/x.svg", "./x.PNG",
  ]

  @Test("lastComponent, deletingLastComponent and pathExtension are NSString's")
  func components() {
    for (path, last, parent, pathExtension) in [
      ("a", "a", "", ""), ("a/", "a", "", ""), ("x.svg", "x.svg", "", "svg"),
      (".profile", ".profile", "", ""), ("//", "/", "/", ""), ("///a//", "a", "/", ""),
    ] {
      #expect(PathText.lastComponent(path) == last, "\(path)")
      #expect(PathText.deletingLastComponent(path) == parent, "\(path)")
      #expect(PathText.pathExtension(path) == pathExtension, "\(path)")
    }
    for path in Self.paths {
      let ns = path as NSString
      #expect(PathText.lastComponent(path) == ns.lastPathComponent, "\(path)")
      #expect(PathText.deletingLastComponent(path) == ns.deletingLastPathComponent, "\(path)")
      #expect(PathText.pathExtension(path) == ns.pathExtension, "\(path)")
    }
  }

  @Test("entries(under:) lists what FileManager's enumerator lists, skips where asked, not links")
  func walk() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    for folder in ["a/b/c", "cases/x", ".hidden/y", "z"] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    for file in ["a/1.png", "a/b/2.png", "a/b/c/3.json", "cases/x/4.json", ".hidden/y/5", "top"] {
      try Data("x".utf8).write(to: root.appendingPathComponent(file))
    }
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("z/link").path, withDestinationPath: root.path + "/a")

    let expected = try #require(FileManager.default.enumerator(atPath: root.path))
      .compactMap { $0 as? String }
    let entries = try #require(PathText.entries(under: root.path))
    #expect(entries.sorted() == expected.sorted())
    #expect(entries.contains("z/link") && !entries.contains("z/link/1.png"))

    let pruned = try #require(
      PathText.entries(under: root.path, descending: { $0 != "cases" && !$0.hasPrefix(".") }))
    #expect(pruned.contains("cases") && !pruned.contains("cases/x"))
    #expect(pruned.contains(".hidden") && !pruned.contains(".hidden/y"))
    #expect(pruned.contains("a/b/c/3.json"))
    #expect(PathText.entries(under: root.appendingPathComponent("none").path) == nil)
  }

  @Test("isFolder and isNonFolder follow links; a missing path is neither")
  func kinds() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let file = root.appendingPathComponent("f").path
    try Data().write(to: URL(fileURLWithPath: file))
    let link = root.appendingPathComponent("l").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: root.path)
    #expect(PathText.isFolder(root.path) && !PathText.isNonFolder(root.path))
    #expect(PathText.isFolder(link))
    #expect(PathText.isNonFolder(file) && !PathText.isFolder(file))
    #expect(!PathText.isFolder(file + "x") && !PathText.isNonFolder(file + "x"))
  }
}
