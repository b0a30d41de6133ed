import Foundation
import Graphics
import PNG
import Testing

/// The README's promise: copy Themes/, drop a VectorDrawable in, point the spec at it, render
/// with `--themes`: no rebuild.
@Suite("Marker assets from a Themes copy", .serialized)
struct MarkerAssetCLITests {
  /// A bullet list of one branded level-0 bullet.
  static let list = #"{"type": "unordered", "items": [{"label": "Label"}]}"#

  /// Renders `list` with `themes` at scale 3 and returns the image and the row's icon square
  /// and tint, read from the layout JSON of the same run's arguments.
  func render(themes: URL, in folder: URL, name: String) throws -> (
    RasterImage, [String: Double], String
  ) {
    let list = try write(Self.list, "list.json", in: folder)
    let themeArguments = ["--themes", themes.path]
    let out = folder.appendingPathComponent("\(name).png").path
    let result = try run(
      ["render", list, "--theme", "sosh", "--scale", "3", "-o", out] + themeArguments, in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let layout = try run(["layout", list, "--theme", "sosh"] + themeArguments, in: folder)
    let json = try #require(
      try JSONSerialization.jsonObject(with: layout.stdoutData) as? [String: Any])
    let row = try #require((json["rows"] as? [[String: Any]])?.first)
    let icon = try #require(row["icon"] as? [String: Double])
    let glyph = try #require(row["glyph"] as? [String: Any])
    let image = try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: out)))
    return (image, icon, "\(glyph["shape"] ?? "") \(glyph["tint"] ?? "")")
  }

  /// `#RRGGBB` of a pixel.
  func hex(_ image: RasterImage, _ x: Int, _ y: Int) -> String {
    let p = image.pixel(x: x, y: y)
    return String(format: "#%02X%02X%02X", p.red, p.green, p.blue)
  }

  @Test("a dropped-in VectorDrawable named by the spec file is drawn, without rebuilding")
  func droppedIn() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    // A square over nearly the whole viewport, where Sosh's disc (radius 4.5) leaves the corners empty.
    try write(
      """
      <vector xmlns:android="http://schemas.android.com/apk/res/android"
          android:width="24dp" android:height="24dp" android:viewportWidth="24" android:viewportHeight="24">
        <path android:fillColor="#FF000000" android:pathData="M2,2h20v20h-20z"/>
      </vector>
      """, "markers/sosh/ic_sosh_component_bullet_list_level0.xml", in: themes)
    let spec = themes.appendingPathComponent("components/bullet-list.spec.json")
    let text = try String(contentsOf: spec, encoding: .utf8)
    try text.replacingOccurrences(
      of: "\"sosh/disc.svg\"", with: "\"sosh/ic_sosh_component_bullet_list_level0.xml\""
    )
    .write(to: spec, atomically: true, encoding: .utf8)

    // The repository's folder, named explicitly (the copy is the first Themes/ above the folder).
    let (before, icon, glyphBefore) = try render(
      themes: repositoryRoot.appendingPathComponent("Themes"), in: folder, name: "before")
    let (after, iconAfter, glyphAfter) = try render(themes: themes, in: folder, name: "after")
    #expect(icon == iconAfter)
    let tint = try #require(glyphBefore.split(separator: " ").last.map(String.init))
    #expect(glyphBefore == "sosh.disc \(tint)")
    #expect(glyphAfter == "sosh.ic_sosh_component_bullet_list_level0 \(tint)")
    // Viewport unit (4, 4) of the icon square, at scale 3: inside the new square, outside the disc.
    let x = Int(((icon["x"] ?? 0) + (icon["width"] ?? 0) * 4 / 24) * 3)
    let y = Int(((icon["y"] ?? 0) + (icon["height"] ?? 0) * 4 / 24) * 3)
    #expect(hex(after, x, y) == tint)
    #expect(hex(before, x, y) != tint)
    // The centre is brand-coloured in both.
    let cx = Int(((icon["x"] ?? 0) + (icon["width"] ?? 0) / 2) * 3)
    let cy = Int(((icon["y"] ?? 0) + (icon["height"] ?? 0) / 2) * 3)
    #expect(hex(after, cx, cy) == tint && hex(before, cx, cy) == tint)
  }

  @Test("an asset with a stroke in a Themes copy is one line on stderr naming the file, exit 1")
  func strokeRefused() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    try write(
      """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">
        <path d="M4 12h16" stroke="#000" stroke-width="3"/>
      </svg>
      """, "markers/sosh/disc.svg", in: themes)
    let list = try write(Self.list, "list.json", in: folder)
    let result = try run(
      ["render", list, "--theme", "sosh", "--themes", themes.path, "-o", "out.png"], in: folder)
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "error: markers/sosh/disc.svg: line 2: attribute stroke on <path> is not allowed: strokes are not supported (a marker is a filled outline: convert the stroke to a path)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }
}
