internal import CGraphics
internal import CGraphicsLoader
import Primitives
import SafeInput

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// SHA-256 digests through GLib's `GChecksum` (GLib is loaded anyway, under Pango).
///
/// About 0.2 GB/s here, a seventh of OpenSSL's libcrypto; but font files are hashed only when the
/// ``FontHashCache`` does not know them (the first run, or after a font changed), while linking
/// libcrypto cost every process about 0.8 ms of start-up (its loading and 3,400 relocations).
public enum SHA256Digest {
  /// The SHA-256 of `data` as lower-case hex.
  public static func hex(of data: Data) -> String {
    let checksum = Checksum()
    data.withUnsafeBytes { checksum.update($0) }
    return checksum.hex
  }

  /// The SHA-256 of a font file's bytes as lower-case hex; nil when it is not a readable regular
  /// file within the font size limit (see ``hex(ofUserFile:kind:)``).
  public static func hex(ofFileAt url: URL) -> String? {
    try? hex(ofUserFile: url.path, kind: .font)
  }

  /// The SHA-256 of a user file's bytes as lower-case hex, read in 1 MiB pieces through
  /// ``SafeInput/UserFile`` (memory stays bounded whatever the file's size): only a regular file,
  /// at most `kind.maximumBytes`, opened without blocking (a FIFO never hangs, a device is refused).
  /// - Throws: `UserFileError` naming the file and the problem.
  public static func hex(ofUserFile path: String, kind: UserFileKind) throws(UserFileError)
    -> String
  {
    try hexAndIdentity(ofUserFile: path, kind: kind).sha256
  }

  /// The SHA-256 of a user file as ``hex(ofUserFile:kind:)``, with the identity of the file read
  /// (from its open descriptor): what ``FontHashCache`` remembers it by.
  /// - Throws: `UserFileError` naming the file and the problem.
  public static func hexAndIdentity(ofUserFile path: String, kind: UserFileKind)
    throws(UserFileError) -> (sha256: String, identity: FileIdentity)
  {
    let checksum = Checksum()
    let identity = try UserFile.read(path, kind: kind, chunkSize: 1 << 20) { chunk in
      checksum.update(chunk)
    }
    return (checksum.hex, identity)
  }
}

/// A GLib SHA-256 checksum; freed in `deinit`.
private final class Checksum {
  private let handle: OpaquePointer

  init() {
    // g_checksum_new returns NULL only for an unknown checksum type, and SHA-256 is built in.
    handle = ouds_g_checksum_new(G_CHECKSUM_SHA256)
  }

  deinit {
    ouds_g_checksum_free(handle)
  }

  func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    ouds_g_checksum_update(handle, base.assumingMemoryBound(to: guchar.self), gssize(bytes.count))
  }

  /// The digest as lower-case hex.
  var hex: String {
    var digest = [UInt8](repeating: 0, count: 32)
    var length = gsize(32)
    ouds_g_checksum_get_digest(handle, &digest, &length)
    return Hex.string(Array(digest.prefix(Int(length))))
  }
}

extension FontHashCache {
  /// A cache kept in `file` (nil: in this process only) that hashes font files with GLib's
  /// SHA-256 (``SHA256Digest``).
  public convenience init(file: URL?) {
    self.init(file: file, racyWindow: 2_000_000_000)
  }

  /// The same, trusting a hash only for a file unchanged `racyWindow` nanoseconds before it was
  /// hashed (tests use 0).
  convenience init(file: URL?, racyWindow: Int64) {
    self.init(file: file, racyWindow: racyWindow) { path in
      try SHA256Digest.hexAndIdentity(ofUserFile: path, kind: .font)
    }
  }
}
