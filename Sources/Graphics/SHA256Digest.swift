import CCrypto
import Foundation
import Primitives
import SafeInput

/// SHA-256 digests through OpenSSL's libcrypto, which uses the CPU's SHA instructions (about
/// 1.4 GB/s here, against 0.2 GB/s for GLib's). Only the font files a render uses are hashed.
public enum SHA256Digest {
  /// The SHA-256 of `data` as lower-case hex, or "" if libcrypto fails (it does not for SHA-256).
  public static func hex(of data: Data) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let succeeded = data.withUnsafeBytes { bytes in
      digest.withUnsafeMutableBufferPointer { out in
        EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, EVP_sha256(), nil) == 1
      }
    }
    guard succeeded, length == 32 else { return "" }
    return Hex.string(digest)
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
    guard let context = EVP_MD_CTX_new() else {
      throw UserFileError(
        path: path, kind: kind, problem: .unreadable(reason: "libcrypto has no digest context"))
    }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
      throw UserFileError(
        path: path, kind: kind, problem: .unreadable(reason: "libcrypto refused SHA-256"))
    }
    var updated = true
    let identity = try UserFile.read(path, kind: kind, chunkSize: 1 << 20) { chunk in
      if updated { updated = EVP_DigestUpdate(context, chunk.baseAddress, chunk.count) == 1 }
    }
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let finished =
      updated
      && digest.withUnsafeMutableBufferPointer {
        EVP_DigestFinal_ex(context, $0.baseAddress, &length) == 1
      }
    guard finished, length == 32 else {
      throw UserFileError(
        path: path, kind: kind, problem: .unreadable(reason: "libcrypto failed to hash it"))
    }
    return (Hex.string(digest), identity)
  }
}
