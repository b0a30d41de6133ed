import Foundation
import Testing

/// `--shrink` and the catalogue key `shrink`: the canvas only as wide as the content, as
/// Paparazzi's `RenderingMode.SHRINK`.
@Suite("--shrink on the binary")
struct ShrinkCLITests {
  /// The width and height of a PNG file's header.
  static func size(_ path: String) throws -> (width: Int, height: Int) {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let number = { (range: Range<Int>) in data[range].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16..<20), number(20..<24))
  }

  @Test(
    "render --shrink: the PNG is as wide as the layout's content, the variant key says the same")
  func renderAndVariant() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      #"{"type": "bare", "items": [{"label": "One"}, {"label": "Two words"}], "variants": [{"shrink": true, "themes": ["orange"], "modes": ["light"]}]}"#,
      "list.json", in: folder)
    let layout = try run(["layout", list, "--theme", "orange", "--shrink"])
    #expect(layout.status == 0, "\(layout.stderr)")
    let scene = try #require(
      try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any])
    let rows = try #require(scene["rows"] as? [[String: Any]])
    let ends = try rows.map { row in
      let label = try #require(row["label"] as? [String: Double])
      return (label["x"] ?? 0) + (label["width"] ?? 0)
    }
    let width = try #require(scene["width"] as? Double)
    #expect(abs(width - (ends.max() ?? 0)) < 0.01)
    #expect(width < 360)
    let png = folder.appendingPathComponent("list.png").path
    let render = try run([
      "render", list, "--theme", "orange", "--shrink", "--scale", "2", "-o", png,
    ])
    #expect(render.status == 0, "\(render.stderr)")
    #expect(try Self.size(png).width == Int((width * 2).rounded(.up)))
    // The variant: its name says shrink, and it draws the same width.
    let variant = folder.appendingPathComponent("variant.png").path
    let drawn = try run([
      "render", list, "--variant", "orange-light-shrink@2x", "-o", variant,
    ])
    #expect(drawn.status == 0, "\(drawn.stderr)")
    #expect(try Self.size(variant).width == Int((width * 2).rounded(.up)))
    let bad = try write(
      #"{"items": [{"label": "One"}], "variants": {"shrink": "yes"}}"#, "bad.json", in: folder)
    let refused = try run(["layout", bad, "--variant", "1"])
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "variants.shrink: expected true (the canvas only as wide as the content) or false"),
      "\(refused.stderr)")
  }
}
