import CGraphics
import Foundation

/// SHA-256 digests through GLib's checksum functions (GLib is already linked for Pango).
enum SHA256Digest {
  /// The SHA-256 of `data` as lower-case hex.
  static func hex(of data: Data) -> String {
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> String in
      let bytes = buffer.bindMemory(to: guchar.self)
      guard
        let digest = g_compute_checksum_for_data(
          G_CHECKSUM_SHA256, bytes.baseAddress, gsize(bytes.count))
      else { return "" }
      defer { g_free(digest) }
      return String(cString: digest)
    }
  }
}
