import Foundation
import Testing
import Themes

@testable import Fonts
@testable import Graphics

/// Font files are found by name in an ordered list of folders and chosen by SHA-256.
@Suite("Font locator")
struct FontLocatorTests {
  static let regular = Fixtures.manifest.sources[0]

  /// A scratch folder, removed by the caller.
  func folder(_ name: String = "fonts") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-locator-\(UUID().uuidString)/\(name)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The installed Liberation Sans Regular, found through fontconfig's folders.
  func installedRegular() throws -> URL {
    try #require(FontLocator(environment: [:]).locate(Self.regular)).url
  }

  @Test(
    "folders are searched in order --font-dir, OUDS_FONT_DIRS, fontconfig; the first file with the manifest's hash wins"
  )
  func order() throws {
    let first = try folder("first")
    let second = try folder("second")
    defer { try? FileManager.default.removeItem(at: first.deletingLastPathComponent()) }
    defer { try? FileManager.default.removeItem(at: second.deletingLastPathComponent()) }
    try FileManager.default.createDirectory(
      at: second.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: try installedRegular(),
      to: second.appendingPathComponent("deep/er/LiberationSans-Regular.ttf"))
    let locator = FontLocator(
      fontDirectory: first,
      environment: [FontLocator.environmentVariable: "\(second.path)::/nonexistent"])
    #expect(
      locator.folders.prefix(3).map(\.origin) == [.fontDirectory, .environment, .environment])
    #expect(locator.folders.prefix(3).map(\.url.path) == [first.path, second.path, "/nonexistent"])
    #expect(locator.folders.dropFirst(3).allSatisfy { $0.origin == .fontconfig })
    #expect(
      Set(locator.folders.dropFirst(3).map(\.url))
        == Set(FontLocator.fontconfigFolders().map(\.standardizedFileURL)))
    let found = try #require(locator.locate(Self.regular))
    #expect(
      found.url.path == second.appendingPathComponent("deep/er/LiberationSans-Regular.ttf").path)
    #expect(found.matchesManifest && found.otherCandidates.isEmpty)
  }

  @Test(
    "a same-named file with another hash earlier in the order is passed over, and recorded as such")
  func hashChooses() throws {
    let early = try folder()
    defer { try? FileManager.default.removeItem(at: early.deletingLastPathComponent()) }
    let impostor = early.appendingPathComponent("LiberationSans-Regular.ttf")
    try Data("not a font".utf8).write(to: impostor)
    let locator = FontLocator(fontDirectory: early, environment: [:])
    let found = try #require(locator.locate(Self.regular))
    #expect(found.url == (try installedRegular()))
    // First the impostor; then, on a machine with another same-named font installed (Debian's
    // fonts-liberation 1 beside fonts-liberation2), the machine's copies, from fontconfig's folders.
    #expect(found.otherCandidates.first?.path == impostor.path)
    #expect(locator.folder(containing: impostor)?.origin == .fontDirectory)
    #expect(
      found.otherCandidates.dropFirst().allSatisfy {
        locator.folder(containing: $0)?.origin == .fontconfig
      })
    // With only the impostor, it is the file taken, flagged as not the manifest's.
    let alone = FontLocator(folders: [FontFolder(url: early, origin: .environment)])
    let taken = try #require(alone.locate(Self.regular))
    #expect(taken.url.path == impostor.path)
    #expect(!taken.matchesManifest)
    #expect(taken.sha256 == SHA256Digest.hex(of: Data("not a font".utf8)))
  }

  @Test(
    "a FIFO named like a font is never opened, and a symbolic-link loop ends the walk",
    .timeLimit(.minutes(1)))
  func hostileFolders() throws {
    let hostile = try folder()
    defer { try? FileManager.default.removeItem(at: hostile.deletingLastPathComponent()) }
    #expect(mkfifo(hostile.appendingPathComponent("LiberationSans-Regular.ttf").path, 0o600) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: hostile.appendingPathComponent("loop").path, withDestinationPath: hostile.path)
    let locator = FontLocator(folders: [FontFolder(url: hostile, origin: .environment)])
    #expect(locator.locate(Self.regular) == nil, "the FIFO is not a font file")
    #expect(!locator.searchWasTruncated)
    #expect {
      _ = try locator.locate([Fixtures.manifest])
    } throws: { error in
      "\(error)".hasPrefix(
        "missing 4 font files: LiberationSans-Regular.ttf (package fonts-liberation2, for orange), "
      )
        && "\(error)".contains(
          "; looked in \(hostile.path) (OUDS_FONT_DIRS); install the packages (apt-get install fonts-liberation2 fonts-noto-ui-core) "
        )
    }
  }

  @Test(
    "a folder too large to search is named with the option that gave it, before the files not found, without install advice"
  )
  func budgetSpentByOption() throws {
    let large = try folder("large")
    let after = try folder("after")
    defer { try? FileManager.default.removeItem(at: large.deletingLastPathComponent()) }
    defer { try? FileManager.default.removeItem(at: after.deletingLastPathComponent()) }
    // Empty files made with open(2): FileManager writes each through a temporary file.
    for index in 0...FontLocator.maxEntries {
      let descriptor = open(
        large.appendingPathComponent("f\(index)").path, O_CREAT | O_WRONLY, 0o644)
      try #require(descriptor >= 0)
      close(descriptor)
    }
    try FileManager.default.copyItem(
      at: try installedRegular(), to: after.appendingPathComponent("LiberationSans-Regular.ttf"))
    let locator = FontLocator(folders: [
      FontFolder(url: large, origin: .fontDirectory), FontFolder(url: after, origin: .environment),
    ])
    #expect(locator.searchStoppedIn == FontFolder(url: large, origin: .fontDirectory))
    #expect(locator.locate(Self.regular) == nil, "the folder after the large one is never reached")
    #expect {
      _ = try locator.locate([Fixtures.manifest])
    } throws: { error in
      let message = "\(error)"
      return message.hasPrefix(
        "the font search stopped after \(FontLocator.maxEntries) entries in \(large.path), a folder too large to search, given with --font-dir; it never reached \(after.path) (OUDS_FONT_DIRS); font files not found: LiberationSans-Regular.ttf (package fonts-liberation2, for orange), "
      ) && message.hasSuffix("; give --font-dir a folder of font files, not a large tree")
        && !message.contains("apt-get")
    }
  }

  @Test("folder names with control characters stay on one line in the error")
  func escapedFolder() throws {
    let odd = try folder("line\nbreak\u{1B}[31m")
    defer { try? FileManager.default.removeItem(at: odd.deletingLastPathComponent()) }
    let locator = FontLocator(folders: [FontFolder(url: odd, origin: .fontDirectory)])
    #expect {
      _ = try locator.locate([Fixtures.manifest])
    } throws: { error in
      !"\(error)".contains("\n") && "\(error)".contains("line\\u{a}break\\u{1b}[31m (--font-dir)")
    }
  }
}
