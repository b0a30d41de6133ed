/// Why a PNG could not be encoded or decoded, or was refused before decoding.
public enum PNGError: Error, Hashable, Sendable, CustomStringConvertible {
  /// An image could not be encoded (empty, too large for PNG, or igzip out of memory).
  case encodingFailed(reason: String)
  /// libspng could not decode the data.
  case decodingFailed(reason: String)
  /// The data is over a limit of ``PNGDecodeLimits`` (sides, pixels, ancillary chunks) and was
  /// refused before it was decoded.
  case overLimit(reason: String)

  /// One human-readable line.
  public var description: String {
    switch self {
    case .encodingFailed(let reason): return "PNG encoding failed: \(reason)"
    case .decodingFailed(let reason): return "PNG decoding failed: \(reason)"
    case .overLimit(let reason): return "PNG refused: \(reason)"
    }
  }
}
