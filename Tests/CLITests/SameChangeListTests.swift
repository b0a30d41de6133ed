import Foundation
import PNG
import Testing

/// Issue 39 point 2: `verify --list` prints every failing id, and marks the references whose
/// change is the same as another's (one diff picture, the same layout lines).
@Suite("verify --list: every failing id, with the same-change marker")
struct SameChangeListTests {
  /// Paints the `side`×`side` square at (`at`, `at`) of the reference picture `id` magenta.
  static func paint(_ id: String, in snapshots: URL, at origin: Int, side: Int) throws {
    let png = snapshots.appendingPathComponent(id + ".png")
    var image = try PNGCodec.decode(Data(contentsOf: png))
    for y in origin..<(origin + side) {
      for x in origin..<(origin + side) {
        let i = (y * image.width + x) * 4
        image.pixels.replaceSubrange(i..<(i + 4), with: [255, 0, 255, 255])
      }
    }
    try PNGCodec.encode(image).write(to: png)
  }

  @Test(
    "two references of one list painted the same way form one group: --list prints both ids, the second marked 'the same change as' the first; a third, painted its own way, is unmarked"
  )
  func sameChangeInList() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let snapshots = root.appendingPathComponent("Snapshots")
    let cases = snapshots.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    let variants = #""variants": [{ "themes": ["orange"], "modes": ["light"] }]"#
    // twin-a and twin-b draw the same list, so the same pixels painted give one diff picture.
    for name in ["twin-a", "twin-b"] {
      try write(
        #"{ "items": [{ "label": "Same list" }, { "label": "Label 2" }], "# + variants + " }",
        "\(name).json", in: cases)
    }
    try write(
      #"{ "items": [{ "label": "Another list" }], "# + variants + " }", "other.json", in: cases)
    let themes = try copyOfThemes(in: root)
    let common = ["--snapshots", snapshots.path, "--themes", themes.path]
    let recorded = try run(["snapshot", "record"] + common, in: root)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    try Self.paint("twin-a/orange-light@2x", in: snapshots, at: 10, side: 10)
    try Self.paint("twin-b/orange-light@2x", in: snapshots, at: 10, side: 10)
    try Self.paint("other/orange-light@2x", in: snapshots, at: 4, side: 5)

    let listed = try run(["snapshot", "verify", "--list"] + common, in: root)
    #expect(listed.status == 1, "\(listed.stderr)")
    // --list's lines follow the table: `<status> <id>`, one space (the table pads its columns).
    let ids = listed.stdout.split(separator: "\n").map(String.init).filter {
      $0.hasPrefix("changed ") && !$0.hasPrefix("changed  ")
    }
    #expect(
      ids == [
        "changed other/orange-light@2x",
        "changed twin-a/orange-light@2x",
        "changed twin-b/orange-light@2x  the same change as twin-a/orange-light@2x",
      ], "\(listed.stdout)")
    // The table shows the group once, under its first reference.
    #expect(
      listed.stdout.contains(
        "2 references with the same change: 100 pixels changed, layout identical; the others: twin-b/orange-light@2x"
      ), "\(listed.stdout)")
    #expect(!listed.stdout.contains("\nCHANGED twin-b/"), "\(listed.stdout)")
  }
}
