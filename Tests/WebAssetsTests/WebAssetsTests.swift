import Foundation
import Testing
import WebAssets

/// The web pages' files (`Sources/WebAssets`): what the pages embed is each file's text, and every
/// script is valid JavaScript for node (Debian's `nodejs`, installed by
/// `scripts/setup --with-test-tools`).
@Suite("Web assets: the pages' files, embedded as written, and their scripts' syntax")
struct WebAssetsTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/WebAssets")

  /// Every file of the folder but the Swift accessor, by name.
  static func assetFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { !$0.hasSuffix(".swift") && !$0.hasPrefix(".") }.sorted()
  }

  /// `node --check <file>`: its exit status and what it printed on standard error.
  static func nodeCheck(_ file: URL) throws -> (status: Int32, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["node", "--check", file.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test("each accessor holds its file's text, without the file's final newline")
  func embeddedAsWritten() throws {
    let accessors: [String: String] = [
      "settle-images.js": WebAssets.settleImagesScript,
      "review-report.css": WebAssets.reviewReportStyle,
      "review-report.js": WebAssets.reviewReportScript,
      "gallery.css": WebAssets.galleryStyle,
      "gallery.js": WebAssets.galleryScript,
      "snapshot-review.html": WebAssets.snapshotReviewTemplate,
      "snapshot-review.css": WebAssets.snapshotReviewStyle,
      "snapshot-review.js": WebAssets.snapshotReviewScript,
      "preview.html": WebAssets.previewPage,
      "preview.css": WebAssets.previewStyle,
      "preview.js": WebAssets.previewScript,
      "preview-docs.js": WebAssets.previewDocsScript,
      "preview-docs.css": WebAssets.previewDocsStyle,
    ]
    // no file left out of the accessors (and so of Package.swift's embedInCode list)
    #expect(try Self.assetFiles() == accessors.keys.sorted())
    for (name, text) in accessors {
      let file = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
      #expect(file.hasSuffix("\n"), "\(name) ends without a newline")
      #expect(text + "\n" == file, "\(name) differs from what the pages embed")
      #expect(!text.isEmpty)
    }
  }

  @Test("the snapshot review page holds the secret in its meta and no placeholder")
  func snapshotReviewSecret() {
    let page = WebAssets.snapshotReviewPage(secret: "00ff00ff00ff00ff")
    #expect(page.contains(#"<meta name="review-secret" content="00ff00ff00ff00ff">"#))
    #expect(!page.contains("{{"))
    #expect(page.hasPrefix("<!DOCTYPE html>\n"))
    #expect(page.contains(#"<script src="/review.js" defer></script>"#))
  }

  @Test("node --check passes every script of the pages")
  func scriptsParse() throws {
    let scripts = try Self.assetFiles().filter { $0.hasSuffix(".js") }
    #expect(scripts.count == 6)
    for name in scripts {
      let result = try Self.nodeCheck(Self.folder.appendingPathComponent(name))
      #expect(
        result.status == 0,
        "node --check \(name) failed (node missing? scripts/setup --with-test-tools): \(result.errors)"
      )
    }
  }

  @Test("node --check fails a script with a syntax error, naming the line")
  func checkCanFail() throws {
    let broken = FileManager.default.temporaryDirectory
      .appendingPathComponent("web-assets-\(getpid())-broken.js")
    defer { try? FileManager.default.removeItem(at: broken) }
    // the review page's script with its last closing parenthesis dropped
    var text = WebAssets.reviewReportScript
    let last = try #require(text.lastIndex(of: ")"))
    text.remove(at: last)
    try text.write(to: broken, atomically: true, encoding: .utf8)
    let result = try Self.nodeCheck(broken)
    #expect(result.status != 0)
    #expect(result.errors.contains("SyntaxError"))
    #expect(result.errors.contains(broken.lastPathComponent))
  }
}
