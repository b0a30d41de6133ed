import Foundation
import Testing

/// `--font-scale`, `--content-size`, the list keys `fontScale` and `contentSize`, and the
/// catalogue's variant keys, from the command line.
@Suite("ouds-render --font-scale and --content-size", .serialized)
struct TextSizeCLITests {
  let list = #"{"type": {"unordered": {"asset": "bullet"}}, "items": [{"label": "One"}]}"#

  /// The first row of the scene `ouds-render layout` printed: font size, line height, icon side.
  func firstRow(_ result: RunResult) throws -> (Double, Double, Double) {
    let scene = try #require(
      try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    let row = try #require((scene["rows"] as? [[String: Any]])?.first)
    let appearance = try #require(
      ((row["text"] as? [String: Any])?["content"] as? [String: Any])?["appearance"]
        as? [String: Any])
    let icon = try #require(row["icon"] as? [String: Any])
    return (
      try #require(appearance["fontSize"] as? Double),
      try #require(appearance["lineHeight"] as? Double), try #require(icon["width"] as? Double)
    )
  }

  @Test("layout --platform android --font-scale 2: Body Large text 28, line 36, icon 40")
  func fontScaleInLayoutJSON() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write(list, "list.json", in: folder)
    let two = try run(["layout", path, "--platform", "android", "--font-scale", "2"])
    #expect(two.status == 0, "\(two.stderr)")
    let (size, line, icon) = try firstRow(two)
    #expect(size == 28 && line == 36 && icon == 40)
    let half = try run(["layout", path, "--platform", "android", "--font-scale", "1.5"])
    let (size15, line15, icon15) = try firstRow(half)
    #expect(size15 == 23 && line15 == 28 && icon15 == 30)
    // the same from the list's own keys
    let keyed = try write(
      #"{"platform": "android", "fontScale": 2, "items": [{"label": "One"}]}"#, "keyed.json",
      in: folder)
    let fromKeys = try run(["layout", keyed])
    #expect(fromKeys.status == 0, "\(fromKeys.stderr)")
    let (keyedSize, keyedLine, keyedIcon) = try firstRow(fromKeys)
    #expect(keyedSize == 28 && keyedLine == 36 && keyedIcon == 40)
  }

  @Test("layout --content-size accessibility5: 16 × 53/17 pt, and from the list's key")
  func contentSizeInLayoutJSON() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write(list, "list.json", in: folder)
    let result = try run(["layout", path, "--content-size", "accessibility5"])
    #expect(result.status == 0, "\(result.stderr)")
    let (size, line, icon) = try firstRow(result)
    #expect(abs(size - 16 * 53 / 17) < 0.01 && abs(line - 24 * 53 / 17) < 0.01 && icon == 20)
    let keyed = try write(
      #"{"contentSize": "accessibility5", "items": [{"label": "One"}]}"#, "keyed.json", in: folder)
    let (keyedSize, _, _) = try firstRow(try run(["layout", keyed]))
    #expect(keyedSize == size)
  }

  @Test("the exact error for a size of the other platform, several sizes, or a bad value")
  func refusals() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write(list, "list.json", in: folder)
    let out = folder.appendingPathComponent("out.png").path
    let cases: [([String], Int32, String)] = [
      (
        ["render", path, "--font-scale", "2", "-o", out], 2,
        "error: --font-scale is Android's font scale: add --platform android (or all); iOS uses --content-size"
      ),
      (
        ["render", path, "--platform", "android", "--content-size", "xLarge", "-o", out], 2,
        "error: --content-size is iOS Dynamic Type: add --platform ios (or all); Android uses --font-scale"
      ),
      (
        ["render", path, "--platform", "android", "--font-scale", "1,2", "-o", out], 2,
        "error: --font-scale: ouds-render render draws one size; sheet takes several"
      ),
      (
        ["render", path, "--platform", "android", "--font-scale", "9", "-o", out], 2,
        #"error: --font-scale must be a number from 0.85 to 4, or several separated by commas, got "9""#
      ),
      (
        ["render", path, "--content-size", "huge", "-o", out], 2,
        #"error: unknown content size "huge" (known: xSmall, small, medium, large, xLarge, xxLarge, xxxLarge, accessibility1, accessibility2, accessibility3, accessibility4, accessibility5)"#
      ),
    ]
    for (arguments, status, message) in cases {
      let result = try run(arguments)
      #expect(result.status == status, "\(arguments)")
      #expect(result.stderr.split(separator: "\n").first.map(String.init) == message)
    }
    #expect(!FileManager.default.fileExists(atPath: out))
    // the list's keys: a value out of range names the file and the key; a size of the other
    // platform says which key
    let bad = try write(
      #"{"platform": "android", "fontScale": 0, "items": [{"label": "One"}]}"#, "bad.json",
      in: folder)
    let badResult = try run(["render", bad, "-o", out])
    #expect(badResult.status == 1)
    #expect(
      badResult.stderr.split(separator: "\n").first.map(String.init)
        == "error: \(bad): fontScale: expected Android's font scale, a number from 0.85 to 4 (1 is the default)"
    )
    let ios = try write(
      #"{"fontScale": 2, "items": [{"label": "One"}]}"#, "ios.json", in: folder)
    let iosResult = try run(["render", ios, "-o", out])
    #expect(iosResult.status == 2)
    #expect(
      iosResult.stderr.split(separator: "\n").first.map(String.init)
        == #"error: the list's "fontScale" is Android's font scale: add --platform android (or all); iOS uses --content-size"#
    )
  }

  @Test("sheet --platform all --font-scale 1,2 --content-size large,accessibility3: a column each")
  func sheetColumns() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write(list, "list.json", in: folder)
    let out = folder.appendingPathComponent("sheet.png").path
    let result = try run([
      "sheet", path, "--theme", "sosh", "--mode", "light", "--platform", "all", "--font-scale",
      "1,2", "--content-size", "large,accessibility3", "--scale", "1", "-o", out,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let data = try Data(contentsOf: URL(fileURLWithPath: out))
    let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
    // 4 columns of 360 pt, 3 gutters and 2 margins of 16 pt
    #expect(width == 16 + 4 * 360 + 3 * 16 + 16)
  }

  @Test("a case's variant keys: fontScale needs Android, contentSize iOS; names carry the size")
  func variantKeys() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = try write(
      #"{"items": [{"label": "One"}], "variants": [{"platform": "android", "fontScale": 1.5, "themes": ["sosh"], "modes": ["light"]}, {"contentSize": "accessibility5", "themes": ["sosh"], "modes": ["light"]}]}"#,
      "good.json", in: folder)
    let first = try run(["layout", good, "--variant", "sosh-light-font-scale-1.5-android@2x"])
    #expect(first.status == 0, "\(first.stderr)")
    let (size, _, icon) = try firstRow(first)
    #expect(size == 23 && icon == 30)  // Body Large 16 sp at 1.5 (SPEC §6b)
    let second = try run(["layout", good, "--variant", "sosh-light-accessibility5@2x"])
    #expect(second.status == 0, "\(second.stderr)")
    let bad = try write(
      #"{"items": [{"label": "One"}], "variants": {"fontScale": 2}}"#, "bad.json", in: folder)
    let refused = try run(["layout", bad, "--variant", "1"])
    #expect(refused.status != 0)
    #expect(
      refused.stderr.contains(
        #"variants.fontScale: Android's font scale needs "platform": "android" (iOS: "contentSize")"#
      ),
      "\(refused.stderr)")
  }

  @Test("audit per size: the heading names it, and larger text is held to WCAG's large-text ratio")
  func auditPerSize() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write(list, "list.json", in: folder)
    func labelLine(_ arguments: [String]) throws -> (heading: String?, label: String?) {
      let result = try run(
        ["audit", path, "--theme", "orange", "--platform", "android"] + arguments)
      #expect(result.status == 0, "\(result.stderr)")
      let lines = result.stdout.split(separator: "\n").map(String.init)
      return (
        lines.first { $0.hasPrefix("Orange · light") },
        lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("label ") }
      )
    }
    let plain = try labelLine([])
    #expect(plain.heading?.hasPrefix("Orange · light · Android: ") == true)
    #expect(plain.label?.contains("4.5:1 text") == true, "\(plain.label ?? "")")
    let scaled = try labelLine(["--font-scale", "2"])
    #expect(scaled.heading?.hasPrefix("Orange · light · Android · font scale 2: ") == true)
    #expect(scaled.label?.contains("3:1 large text") == true, "\(scaled.label ?? "")")
  }
}
