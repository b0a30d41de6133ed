import Foundation
import SafeInput
import Testing

@testable import Fonts
@testable import Graphics

#if canImport(Glibc)
  import Glibc
#endif

/// The font hash cache: a font is hashed again exactly when its size, times, device or inode are
/// not those it was hashed with; a cache file that is corrupt, huge, a FIFO, a folder or a link
/// is never trusted and never breaks a run.
@Suite("Font hash cache")
struct FontHashCacheTests {
  /// A scratch folder with `font.ttf` (300 KB of varied bytes) and the cache path under it.
  struct Scratch {
    let root: URL
    let font: URL
    let cache: URL
    let bytes: Data

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "ouds-hash-cache-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      font = root.appendingPathComponent("font.ttf")
      cache = root.appendingPathComponent("cache/ouds-render/font-hashes")
      bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) })
      try bytes.write(to: font)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// A cache on `cache` that trusts a hash however soon after a change it was taken (the
    /// production window of 2 s is tested on its own).
    func makeCache() -> FontHashCache { FontHashCache(file: cache, racyWindow: 0) }
  }

  /// Lets the clock move past the file system's timestamp granularity.
  static func tick() { usleep(30_000) }

  /// The modification time of `url` as a `timespec`.
  static func modificationTime(_ url: URL) -> timespec {
    var status = stat()
    _ = stat(url.path, &status)
    return status.st_mtim
  }

  /// Sets the modification (and access) time of `url` exactly, as `touch -d` does.
  static func setModificationTime(_ url: URL, _ time: timespec) {
    var times = [time, time]
    _ = utimensat(AT_FDCWD, url.path, &times, 0)
  }

  @Test(
    "a cache file that cannot be written (a read-only home) costs the hashing only, and says why once"
  )
  func unwritable() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    // A regular file where the cache's folder should be: no write can succeed, even as root.
    let blocker = scratch.root.appendingPathComponent("cache")
    try Data("not a folder".utf8).write(to: blocker)
    let cache = scratch.makeCache()
    #expect(cache.unwritable == nil)
    Self.tick()
    let expected = SHA256Digest.hex(of: scratch.bytes)
    #expect(cache.sha256(of: scratch.font) == expected)
    #expect(
      cache.unwritable
        == "cannot write \(scratch.cache.path): \(blocker.path) is a regular file, not a folder")
    // Kept for this process: the same file is not hashed again.
    #expect(cache.sha256(of: scratch.font) == expected)
    #expect(cache.hashedPaths == [scratch.font.path])
    #expect(try Data(contentsOf: blocker) == Data("not a folder".utf8))
  }

  @Test("a second run reads no font: the hash comes from the cache file")
  func hit() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    Self.tick()
    let first = scratch.makeCache()
    let sha = try #require(first.sha256(of: scratch.font))
    #expect(sha == SHA256Digest.hex(of: scratch.bytes))
    #expect(first.hashedPaths == [scratch.font.path])
    let text = try String(contentsOf: scratch.cache, encoding: .utf8)
    #expect(text.hasPrefix("ouds-render font hashes 1\n\(sha)\t300000\t"))
    #expect(text.hasSuffix("\t\(scratch.font.path)\n"))
    let second = scratch.makeCache()
    #expect(second.sha256(of: scratch.font) == sha)
    #expect(second.hashedPaths.isEmpty)
    // the locator asks the cache once per path and keeps the answer for this process
    let locator = FontLocator(folders: [], hashCache: second)
    #expect(locator.sha256(of: scratch.font) == sha)
    #expect(second.hashedPaths.isEmpty)
  }

  @Test("a font changed to other bytes of the same size, with a new mtime, is hashed again")
  func sameSizeNewTime() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    Self.tick()
    _ = scratch.makeCache().sha256(of: scratch.font)
    Self.tick()
    var changed = scratch.bytes
    changed[1000] ^= 0xFF
    try changed.write(to: scratch.font)
    // another modification time (in the past: one in the future is never trusted)
    var other = Self.modificationTime(scratch.font)
    other.tv_sec -= 10
    Self.setModificationTime(scratch.font, other)
    let cache = scratch.makeCache()
    #expect(cache.sha256(of: scratch.font) == SHA256Digest.hex(of: changed))
    #expect(cache.hashedPaths == [scratch.font.path])
    // and the new hash is what the next run trusts
    let next = scratch.makeCache()
    #expect(next.sha256(of: scratch.font) == SHA256Digest.hex(of: changed))
    #expect(next.hashedPaths.isEmpty)
  }

  @Test("size and mtime put back after a change (touch -d) do not hide it: the ctime moved")
  func forgedTimes() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    Self.tick()
    let original = Self.modificationTime(scratch.font)
    _ = scratch.makeCache().sha256(of: scratch.font)
    Self.tick()
    var changed = scratch.bytes
    changed[0] ^= 0x01
    try changed.write(to: scratch.font)
    Self.setModificationTime(scratch.font, original)
    #expect(Self.modificationTime(scratch.font).tv_nsec == original.tv_nsec)
    #expect(UserFile.identity(atPath: scratch.font.path)?.size == 300_000)
    let cache = scratch.makeCache()
    #expect(cache.sha256(of: scratch.font) == SHA256Digest.hex(of: changed))
    #expect(cache.hashedPaths == [scratch.font.path])
  }

  @Test("a font hashed less than 2 s after it changed is hashed again by the next run")
  func racyWindow() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let cache = FontHashCache(file: scratch.cache)
    #expect(cache.sha256(of: scratch.font) == SHA256Digest.hex(of: scratch.bytes))
    let next = FontHashCache(file: scratch.cache)
    #expect(next.sha256(of: scratch.font) == SHA256Digest.hex(of: scratch.bytes))
    #expect(next.hashedPaths == [scratch.font.path])
  }

  /// Cache files that must be ignored whole; `entry` is a well-formed line for the font.
  static let hostileContents: [(String, @Sendable (String) -> Data)] = [
    ("garbage", { _ in Data("\u{0}\u{1}not a cache at all".utf8) }),
    ("another header", { entry in Data("ouds-render font hashes 2\n\(entry)\n".utf8) }),
    ("no final newline", { entry in Data("ouds-render font hashes 1\n\(entry)".utf8) }),
    (
      "a field missing",
      { entry in
        Data(
          "ouds-render font hashes 1\n\(entry.split(separator: "\t").dropLast(2).joined(separator: "\t"))\n"
            .utf8)
      }
    ),
    (
      "a hash in upper case",
      { entry in Data("ouds-render font hashes 1\n\(entry.uppercased())\n".utf8) }
    ),
    (
      "a relative path",
      { entry in
        Data(
          "ouds-render font hashes 1\n\(entry.replacingOccurrences(of: "\t/", with: "\t"))\n".utf8)
      }
    ),
    (
      "a 25-digit size",
      { entry in
        var fields = entry.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        fields[1] = String(repeating: "9", count: 25)
        return Data("ouds-render font hashes 1\n\(fields.joined(separator: "\t"))\n".utf8)
      }
    ),
    (
      "not UTF-8", { entry in Data("ouds-render font hashes 1\n".utf8) + Data([0xFF, 0xFE, 0x0A]) }
    ),
    (
      "over 1 MiB",
      { entry in
        Data(("ouds-render font hashes 1\n" + String(repeating: entry + "\n", count: 6_000)).utf8)
      }
    ),
  ]

  @Test(
    "a corrupt or huge cache file is ignored, the font hashed, and the file rewritten valid",
    arguments: hostileContents.indices)
  func hostileCacheFile(index: Int) throws {
    let (label, make) = Self.hostileContents[index]
    let scratch = try Scratch()
    defer { scratch.remove() }
    Self.tick()
    // a real entry, but with a forged hash: trusted only if the file were accepted
    let forged = String(repeating: "0", count: 64)
    let identity = try #require(UserFile.identity(atPath: scratch.font.path))
    let entry =
      "\(forged)\t\(identity.size)\t\(identity.modified)\t\(identity.changed)\t\(identity.device)\t\(identity.inode)\t\(identity.changed + 10_000_000_000)\t\(scratch.font.path)"
    try FileManager.default.createDirectory(
      at: scratch.cache.deletingLastPathComponent(), withIntermediateDirectories: true)
    try make(entry).write(to: scratch.cache)
    let cache = scratch.makeCache()
    #expect(cache.sha256(of: scratch.font) == SHA256Digest.hex(of: scratch.bytes), "\(label)")
    #expect(cache.hashedPaths == [scratch.font.path], "\(label)")
    let next = scratch.makeCache()
    #expect(next.sha256(of: scratch.font) == SHA256Digest.hex(of: scratch.bytes), "\(label)")
    #expect(next.hashedPaths.isEmpty, "\(label): the rewritten file is valid")
  }

  @Test("an entry whose size, times or inode differ from the file's is never trusted")
  func staleEntry() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    Self.tick()
    let identity = try #require(UserFile.identity(atPath: scratch.font.path))
    let forged = String(repeating: "a", count: 64)
    let variants = [
      (identity.size + 1, identity.modified, identity.changed, identity.inode),
      (identity.size, identity.modified - 1, identity.changed, identity.inode),
      (identity.size, identity.modified, identity.changed + 1, identity.inode),
      (identity.size, identity.modified, identity.changed, identity.inode + 1),
    ]
    try FileManager.default.createDirectory(
      at: scratch.cache.deletingLastPathComponent(), withIntermediateDirectories: true)
    for (size, modified, changed, inode) in variants {
      let line =
        "\(forged)\t\(size)\t\(modified)\t\(changed)\t\(identity.device)\t\(inode)\t\(identity.changed + 10_000_000_000)\t\(scratch.font.path)"
      try Data("ouds-render font hashes 1\n\(line)\n".utf8).write(to: scratch.cache)
      let cache = scratch.makeCache()
      #expect(cache.sha256(of: scratch.font) == SHA256Digest.hex(of: scratch.bytes))
      #expect(cache.hashedPaths == [scratch.font.path])
    }
  }

  @Test("a FIFO, a folder or a symbolic link at the cache path is left alone and never blocks")
  func nonRegularCachePath() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let folder = scratch.cache.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let sha = SHA256Digest.hex(of: scratch.bytes)

    #expect(mkfifo(scratch.cache.path, 0o600) == 0)
    #expect(scratch.makeCache().sha256(of: scratch.font) == sha)
    #expect(UserFile.type(atPath: scratch.cache.path) == .fifo)
    try FileManager.default.removeItem(at: scratch.cache)

    try FileManager.default.createDirectory(at: scratch.cache, withIntermediateDirectories: false)
    #expect(scratch.makeCache().sha256(of: scratch.font) == sha)
    #expect(UserFile.type(atPath: scratch.cache.path) == .directory)
    try FileManager.default.removeItem(at: scratch.cache)

    let victim = scratch.root.appendingPathComponent("victim.txt")
    try Data("keep me".utf8).write(to: victim)
    try FileManager.default.createSymbolicLink(at: scratch.cache, withDestinationURL: victim)
    #expect(scratch.makeCache().sha256(of: scratch.font) == sha)
    #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
    #expect(UserFile.type(atPath: scratch.cache.path) == .symbolicLink)

    // no cache file at all (no HOME): hashes for this process only
    let alone = FontHashCache(file: nil)
    #expect(alone.sha256(of: scratch.font) == sha)
    #expect(alone.sha256(of: scratch.root) == nil, "a folder has no hash")
  }

  @Test("the cache file is under XDG_CACHE_HOME when absolute, else ~/.cache")
  func location() {
    #expect(
      FontHashCache.defaultFile(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])?.path
        == "/c/ouds-render/font-hashes")
    #expect(
      FontHashCache.defaultFile(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"])?.path
        == "/h/.cache/ouds-render/font-hashes")
    #expect(
      FontHashCache.defaultFile(environment: ["HOME": "/h"])?.path
        == "/h/.cache/ouds-render/font-hashes")
    #expect(FontHashCache.defaultFile(environment: ["HOME": "h"]) == nil)
    #expect(FontHashCache.defaultFile(environment: [:]) == nil)
  }
}
