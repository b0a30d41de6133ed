import Primitives

/// A file format a scene can be rendered to.
public enum OutputFormat: Hashable, Sendable {
  /// A PNG bitmap with `scale` pixels per point (``PixelScale/supported``: 1, 2 or 3).
  case png(scale: Int)
  /// An SVG 1.1 document measured in `px` (1 px per point).
  case svg
  /// A one-page PDF document measured in points.
  case pdf

  /// The format for a file extension (`png` at scale 1, `svg`, `pdf`; case-insensitive), or nil.
  public init?(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "png": self = .png(scale: 1)
    case "svg": self = .svg
    case "pdf": self = .pdf
    default: return nil
    }
  }

  /// Every format at `scale` (for PNG): PNG, SVG, PDF, in that order.
  public static func all(scale: Int) -> [OutputFormat] { [.png(scale: scale), .svg, .pdf] }

  /// The file extension, without the dot.
  public var fileExtension: String {
    switch self {
    case .png: "png"
    case .svg: "svg"
    case .pdf: "pdf"
    }
  }
}
