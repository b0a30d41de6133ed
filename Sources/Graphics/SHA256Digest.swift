import CCrypto
import Foundation

/// SHA-256 digests through OpenSSL's libcrypto, which uses the CPU's SHA instructions (about
/// 1.4 GB/s here, against 0.2 GB/s for GLib's): every font file is hashed at start-up.
enum SHA256Digest {
  /// The SHA-256 of `data` as lower-case hex, or "" if libcrypto fails (it does not for SHA-256).
  static func hex(of data: Data) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let succeeded = data.withUnsafeBytes { bytes in
      digest.withUnsafeMutableBufferPointer { out in
        EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, EVP_sha256(), nil) == 1
      }
    }
    guard succeeded, length == 32 else { return "" }
    return digest.map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
  }
}
