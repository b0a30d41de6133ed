import Foundation
import Testing

/// `--platform ios|android|all` and the list's `"platform"` key, from the command line.
@Suite("ouds-render --platform", .serialized)
struct PlatformCLITests {
  let ordered = #"{"type": "ordered", "items": [{"label": "One", "items": [{"label": "Two"}]}]}"#

  /// The PNG's width and height, from its IHDR chunk.
  func pngSize(_ path: String) throws -> (Int, Int) {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    return (
      data[16..<20].reduce(0) { $0 << 8 | Int($1) }, data[20..<24].reduce(0) { $0 << 8 | Int($1) }
    )
  }

  /// The scenes `ouds-render layout` printed, one or an array.
  func scenes(_ result: RunResult) throws -> [[String: Any]] {
    let json = try JSONSerialization.jsonObject(with: result.stdoutData)
    if let array = json as? [[String: Any]] { return array }
    return [try #require(json as? [String: Any])]
  }

  func markers(_ scene: [String: Any]) -> [String] {
    (scene["rows"] as? [[String: Any]] ?? []).compactMap {
      ($0["marker"] as? [String: Any])?["text"] as? String
    }
  }

  @Test("render --platform all writes <theme>-<mode>-<platform>.<ext>, and the two differ")
  func renderAll() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(ordered, "list.json", in: folder)
    let out = folder.appendingPathComponent("out").path
    let result = try run([
      "render", list, "--platform", "all", "--direction", "rtl", "--scale", "1", "-o", out,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [
        "orange-light-android.png", "orange-light-ios.png",
      ])
    #expect(try pngSize(out + "/orange-light-ios.png").0 == 360)
    let ios = try Data(contentsOf: URL(fileURLWithPath: out + "/orange-light-ios.png"))
    let android = try Data(contentsOf: URL(fileURLWithPath: out + "/orange-light-android.png"))
    #expect(ios != android)

    let every = folder.appendingPathComponent("every").path
    let all = try run([
      "render", list, "--theme", "all", "--mode", "all", "--platform", "all", "--format", "svg",
      "-o", every,
    ])
    #expect(all.status == 0, "\(all.stderr)")
    let expected = ["orange", "orange-compact", "sosh", "wireframe"].flatMap { theme in
      ["light", "dark"].flatMap { mode in ["ios", "android"].map { "\(theme)-\(mode)-\($0).svg" } }
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: every).sorted() == expected.sorted())
    let lines = all.stderr.split(separator: "\n")
    #expect(lines.first == "wrote 16 files to \(every)")
    #expect(
      lines.count == 2 && lines.last?.hasPrefix("themes: ") == true,
      "then where tokens and fonts came from")
  }

  @Test("layout names the platform: ios by default, android, or one scene per platform with all")
  func layoutKey() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(ordered, "list.json", in: folder)
    let ios = try run(["layout", list, "--direction", "rtl"])
    #expect(ios.status == 0, "\(ios.stderr)")
    #expect(try scenes(ios).map { $0["platform"] as? String } == ["ios"])
    #expect(try markers(scenes(ios)[0]) == ["1.", "A."])  // iOS: Latin letters, the locale is en
    let android = try run(["layout", list, "--direction", "rtl", "--platform", "android"])
    #expect(try scenes(android).map { $0["platform"] as? String } == ["android"])
    #expect(try markers(scenes(android)[0]) == ["1.", "\u{0623}."])  // Android: RTL → Arabic
    let both = try run(["layout", list, "--platform", "all", "--mode", "all"])
    #expect(both.status == 0, "\(both.stderr)")
    let all = try scenes(both)
    #expect(
      all.map { "\($0["mode"] ?? "")-\($0["platform"] ?? "")" } == [
        "light-ios", "light-android", "dark-ios", "dark-android",
      ])
  }

  @Test("the list's \"platform\" key is the default; --platform overrides it")
  func jsonKey() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      #"{"platform": "android", "isBold": true, "items": [{"markdown": "a [link](https://example.com)"}]}"#,
      "android.json", in: folder)
    let android = try run(["layout", list])
    #expect(android.status == 0, "\(android.stderr)")
    #expect(try scenes(android).first?["platform"] as? String == "android")
    // The iOS rules refuse rich text in bold text, with the exact error.
    let ios = try run(["layout", list, "--platform", "ios"])
    #expect(ios.status == 1)
    #expect(
      ios.stderr
        == "error: \(list): items[0]: rich text is allowed only when the text is not bold (set isBold or subListHasBoldText to false)\n"
    )
  }

  @Test("a bad \"platform\" in the list names the file and the JSON path")
  func badJSONValue() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(#"{"platform": "web", "items": [{"label": "A"}]}"#, "web.json", in: folder)
    let result = try run(["render", list, "-o", folder.appendingPathComponent("out.png").path])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "error: \(list): platform: unknown platform \"web\" (expected \"ios\" or \"android\")\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["web.json"])
  }

  @Test(
    "a bad --platform is a usage error naming the allowed values, in every command",
    arguments: ["render", "sheet", "layout"])
  func badOption(command: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(ordered, "list.json", in: folder)
    let output = command == "layout" ? [] : ["-o", folder.appendingPathComponent("out.png").path]
    let result = try run([command, list, "--platform", "andriod"] + output)
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "error: unknown platform \"andriod\" (known: ios, android); did you mean android?\nSee 'ouds-render \(command) --help'.\n"
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["list.json"])
  }

  @Test("--platform follows the names' one leniency rule: Android names android")
  func lenientName() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(ordered, "list.json", in: folder)
    let result = try run(["layout", list, "--platform", "Android"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try scenes(result).map { $0["platform"] as? String } == ["android"])
  }

  @Test("sheet --platform all puts an iOS and an Android column side by side for each mode")
  func sheet() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(ordered, "list.json", in: folder)
    let out = folder.appendingPathComponent("sheet.png").path
    let result = try run([
      "sheet", list, "--theme", "orange", "--platform", "all", "--scale", "1", "-o", out,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // margins 16, cells 360, gutters 16: light-iOS, light-Android, dark-iOS, dark-Android
    #expect(try pngSize(out).0 == 16 + 4 * 360 + 3 * 16 + 16)
  }
}
