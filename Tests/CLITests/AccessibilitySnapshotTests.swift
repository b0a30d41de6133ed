import Foundation
import PNG
import Testing

/// `--accessibility` and the catalogue's `accessibility` variant key: each spoken element's frame
/// tinted, and a legend of what VoiceOver or TalkBack says, recorded and verified like any
/// reference.
@Suite("ouds-render --accessibility", .serialized)
struct AccessibilitySnapshotTests {
  let list = """
    {"type": "ordered", "items": [
      {"label": "Appels illimités", "subListType": "unordered",
       "items": [{"label": "En France"}, {"label": "Vers l'Europe"}]},
      {"label": "SMS"}
    ]}
    """

  /// The scene `ouds-render layout` printed.
  func scene(_ result: RunResult) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
  }

  /// The legend's captions, in order: the heading, then one per spoken element.
  func legend(_ scene: [String: Any]) throws -> [String] {
    let panels = try #require(scene["panels"] as? [[String: Any]])
    return panels.compactMap { panel in
      ((panel["caption"] as? [String: Any])?["content"] as? [String: Any])
        .flatMap { $0["spans"] as? [[String: Any]] }?.compactMap { $0["text"] as? String }
        .joined()
    }
  }

  @Test("VoiceOver under the iOS rules and TalkBack under Android's, in the locale's language")
  func readers() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write(list, "list.json", in: folder)
    let ios = try run(["layout", path, "--accessibility", "--locale", "fr"])
    #expect(ios.status == 0, "\(ios.stderr)")
    #expect(
      try legend(scene(ios)) == [
        "VoiceOver · fr", "1., Appels illimités, 2 sous-éléments", "En France, niveau 2",
        "Vers l'Europe, niveau 2", "2., SMS",
      ])
    let android = try run([
      "layout", path, "--accessibility", "--locale", "fr", "--platform", "android",
    ])
    #expect(android.status == 0, "\(android.stderr)")
    // TalkBack: no "." after a prefix, "Niveau" always, even at the top level of a bare list
    #expect(
      try legend(scene(android)) == [
        "TalkBack · fr", "1, Appels illimités, 2 sous-éléments", "En France, Niveau 2",
        "Vers l'Europe, Niveau 2", "2, SMS",
      ])
    let english = try run(["layout", path, "--accessibility", "--platform", "android"])
    #expect(try legend(scene(english))[1] == "1, Appels illimités, 2 subitems")
    let arabic = try run(["layout", path, "--accessibility", "--locale", "ar"])
    let arabicLegend = try legend(scene(arabic))
    #expect(arabicLegend[0] == "VoiceOver · ar")
    #expect(arabicLegend[1] == "1., Appels illimités, عنصران فرعيان")
    #expect(arabicLegend[2] == "En France, المستوى 2")
  }

  @Test("the picture: the list as it is, each row's frame tinted, the legend beside it")
  func picture() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write(list, "list.json", in: folder)
    let plain = folder.appendingPathComponent("plain.png").path
    let overlay = folder.appendingPathComponent("overlay.png").path
    let common = ["--theme", "orange", "--mode", "light", "--scale", "1"]
    #expect(try run(["render", path, "-o", plain] + common).status == 0)
    let result = try run(["render", path, "--accessibility", "-o", overlay] + common)
    #expect(result.status == 0, "\(result.stderr)")
    let before = try PNGCodec.decode(Data(contentsOf: URL(fileURLWithPath: plain)))
    let after = try PNGCodec.decode(Data(contentsOf: URL(fileURLWithPath: overlay)))
    // 360 pt of list, a 16 pt gap and a 240 pt legend; the list is taller than its 4 entries
    #expect(after.width == 360 + 16 + 240)
    #expect(after.height == before.height)
    let layout = try scene(try run(["layout", path, "--accessibility"] + common.dropLast(2)))
    let rows = try #require(layout["rows"] as? [[String: Any]])
    let marker = try #require(
      (rows[0]["marker"] as? [String: Any])?["rect"] as? [String: Double])
    // A point of the first row's frame where nothing is drawn (the start of the marker box; the
    // prefix hugs its end): white before, the first tint (#E6194B at 77/255) over white after.
    let x = Int(try #require(marker["x"])) + 1
    let y = Int(try #require(marker["y"])) + 1
    #expect(before.pixel(x: x, y: y) == (255, 255, 255, 255))
    func over(_ channel: Int) -> Int { (channel * 77 + 255 * (255 - 77) + 127) / 255 }
    let tinted = after.pixel(x: x, y: y)
    for (got, want) in [(tinted.0, 0xE6), (tinted.1, 0x19), (tinted.2, 0x4B)] {
      #expect(abs(Int(got) - over(want)) <= 1, "\(tinted)")
    }
    // the first legend entry's swatch is the opaque tint: 14 pt square at x 376, after the
    // heading line
    let panels = try #require(layout["panels"] as? [[String: Any]])
    let swatch = try #require(
      panels.first { ($0["fill"] as? String) == "#E6194B" }?["rect"] as? [String: Double])
    #expect(swatch["x"] == 376 && swatch["width"] == 14)
    let centre = after.pixel(
      x: Int(try #require(swatch["x"])) + 7, y: Int(try #require(swatch["y"])) + 7)
    #expect(centre == (0xE6, 0x19, 0x4B, 255))
    // the list's own pixels are untouched outside the frames: the top-left corner stays white
    #expect(after.pixel(x: 0, y: 0) == before.pixel(x: 0, y: 0))
  }

  @Test("right to left: the legend on the left, the list moved right by the legend and the gap")
  func rightToLeft() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try write(list, "list.json", in: folder)
    let plain = try scene(try run(["layout", path, "--locale", "ar"]))
    let overlay = try scene(try run(["layout", path, "--locale", "ar", "--accessibility"]))
    let plainRow = try #require(
      (plain["rows"] as? [[String: Any]])?.first?["label"] as? [String: Double])
    let row = try #require(
      (overlay["rows"] as? [[String: Any]])?.first?["label"] as? [String: Double])
    #expect(row["x"] == plainRow["x"].map { $0 + 256 })
    let heading = try #require(
      (overlay["panels"] as? [[String: Any]])?.first { $0["caption"] != nil })
    let rect = try #require(heading["rect"] as? [String: Double])
    #expect(rect["x"] == 0 && rect["width"] == 240)
  }

  @Test("a catalogue variant: recorded, and a change in what is spoken fails verify with the text")
  func catalogueVariant() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let snapshots = folder.appendingPathComponent("Snapshots")
    let cases = snapshots.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    func writeCase(_ label: String) throws {
      _ = try write(
        #"{"items": [{"label": "\#(label)"}], "variants": {"accessibility": true, "themes": ["sosh"], "modes": ["light"], "platform": ["ios", "android"]}}"#,
        "spoken.json", in: cases)
    }
    try writeCase("Appels")
    let common = [
      "--snapshots", snapshots.path, "--themes",
      repositoryRoot.appendingPathComponent("Themes").path,
    ]
    let record = try run(["snapshot", "record"] + common, in: folder)
    #expect(record.status == 0, "\(record.stderr)")
    #expect(
      record.stdout.contains("wrote spoken/sosh-light-accessibility@2x.png"), "\(record.stdout)")
    #expect(record.stdout.contains("wrote spoken/sosh-light-accessibility-android@2x.png"))
    #expect(try run(["snapshot", "verify"] + common, in: folder).status == 0)
    try writeCase("SMS")
    let verify = try run(["snapshot", "verify"] + common, in: folder)
    #expect(verify.status == 1)
    #expect(
      verify.stdout.contains(#"spoken text changed: items[0]: "Appels" → "SMS""#),
      "\(verify.stdout)")
    #expect(
      verify.stdout.contains(#"spoken text changed: items[0]: "Appels, Level 1" → "SMS, Level 1""#))
    let bad = try write(
      #"{"items": [{"label": "One"}], "variants": {"accessibility": "yes"}}"#, "bad.json",
      in: folder)
    let refused = try run(["layout", bad, "--variant", "1"])
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "variants.accessibility: expected true (draw the accessibility snapshot) or false"),
      "\(refused.stderr)")
  }
}
