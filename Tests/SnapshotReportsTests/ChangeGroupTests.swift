import Fonts
import Foundation
import Graphics
import PNG
import RunReports
import Snapshot
import SnapshotReports
import TestSupport
import Testing

/// Issue 39 points 2 and 3: failures that no token explains but that show one change (the same
/// diff picture, the same layout lines) form one group in every output, and the review page
/// stores a picture that several failures share once.
@Suite("Failures with the same pixel and layout change form one group")
struct ChangeGroupTests {
  /// A 4×2 picture of one colour, as PNG bytes.
  static func png(_ red: UInt8) throws -> Data {
    try PNGCodec.encode(
      RasterImage(width: 4, height: 2, pixels: (0..<8).flatMap { _ in [red, 0, 0, 255] }))
  }

  /// Three references changed the same way (one diff picture), one changed its own way, one
  /// missing.
  static func results() throws -> (SnapshotRunResults, [String: Data]) {
    let shared = try png(200)
    let own = try png(10)
    var references: [ReferenceResult] = []
    var files: [String: Data] = [:]
    for (name, diff) in [("c-b", shared), ("c-a", shared), ("c-c", shared), ("d-own", own)] {
      var reference = SampleResults.reference(name, status: .changed, reason: "3 pixels")
      for image in ReferenceResult.Image.allCases {
        let data = image == .diff ? diff : try png(image == .expected ? 1 : 2)
        reference.artifactDigests[image.fileName] = SHA256Digest.hex(of: data)
        files["\(name)/orange-light@2x/\(image.fileName)"] = data
      }
      references.append(reference)
    }
    references.append(
      SampleResults.reference("e-missing", status: .missing, reason: "no reference"))
    return (SampleResults.results(references.sorted { $0.id < $1.id }), files)
  }

  struct Pictures: ReviewImageSource {
    var files: [String: Data]
    func data(for reference: ReferenceResult, image: ReferenceResult.Image) throws -> Data {
      guard let data = files["\(reference.id)/\(image.fileName)"] else {
        throw CocoaError(.fileNoSuchFile)
      }
      return data
    }
  }

  @Test("the group, its heading and ids: in results, the terminal, --list and the Markdown summary")
  func outputs() throws {
    let (results, _) = try Self.results()
    let groups = results.changeGroups
    #expect(
      groups.map { $0.references.map(\.id) } == [
        ["c-a/orange-light@2x", "c-b/orange-light@2x", "c-c/orange-light@2x"]
      ])
    #expect(
      groups.first?.headline
        == "3 references with the same change: 3 pixels changed, layout identical")
    // The terminal: one row for the group (its first reference), its others named under it.
    let text = SnapshotSummary.text(results)
    #expect(text.contains("CHANGED c-a/orange-light@2x\n"), "\(text)")
    #expect(!text.contains("CHANGED c-b/orange-light@2x"), "\(text)")
    #expect(
      text.contains(
        "        3 references with the same change: 3 pixels changed, layout identical; the others: c-b/orange-light@2x, c-c/orange-light@2x\n"
      ), "\(text)")
    #expect(text.contains("CHANGED d-own/orange-light@2x\n"), "\(text)")
    // --list: every id, the grouped ones saying which they match.
    #expect(
      results.failureList
        == """
        changed c-a/orange-light@2x
        changed c-b/orange-light@2x  the same change as c-a/orange-light@2x
        changed c-c/orange-light@2x  the same change as c-a/orange-light@2x
        changed d-own/orange-light@2x
        missing e-missing/orange-light@2x

        """)
    // The summary: one row for the group with the command that accepts its three.
    let summary = MarkdownSummary.document(results, commands: .cli())
    #expect(
      summary.contains(
        "| changed | `c-a/orange-light@2x`, `c-b/orange-light@2x`, `c-c/orange-light@2x` | 3 references with the same change: 3 pixels changed, layout identical | `ouds-render snapshot record --failed --filter 'c-a/orange-light@2x,c-b/orange-light@2x,c-c/orange-light@2x'` |"
      ), "\(summary)")
    #expect(summary.contains("| changed | `d-own/orange-light@2x` |"), "\(summary)")
  }

  @Test("the review page: the group among the causes, its section, and the shared diff stored once")
  func page() throws {
    let (results, files) = try Self.results()
    let folder = try temporaryFolder("change-groups")
    defer { try? FileManager.default.removeItem(at: folder) }
    let index = try ReviewReport.write(results, images: Pictures(files: files), to: folder)
    let html = try String(contentsOfFile: index, encoding: .utf8)
    #expect(
      html.contains(
        "<li class=\"cause same-change\" data-count=\"3\"><a href=\"#c0\">3 references with the same change: 3 pixels changed, layout identical</a></li>"
      ))
    #expect(html.contains("<section class=\"group\" id=\"c0\" data-count=\"3\">"))
    // 4 changed references × 3 pictures, but the three share one diff and all four one
    // expected and one actual picture: 2 + 1 + 1 = 4 files.
    let stored = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("images").path
    ).filter { $0.hasSuffix(".png") }
    #expect(stored.count == 4, "\(stored)")
    let diff = try Self.png(200)
    #expect(stored.contains(SHA256Digest.hex(of: diff) + ".png"))
    #expect(html.components(separatedBy: "images/\(SHA256Digest.hex(of: diff)).png").count - 1 == 3)
  }
}
