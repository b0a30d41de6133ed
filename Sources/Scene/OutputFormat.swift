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

/// The kinds of ``OutputFormat`` by name (`png`, `svg`, `pdf`: the file extensions), for the
/// command line's `--format` and `-o` extension.
public enum OutputKind: String, Sendable, CaseIterable, NamedValue {
  /// PNG bitmap.
  case png
  /// SVG document.
  case svg
  /// PDF document.
  case pdf

  /// `format` in messages.
  public static var kindName: String { "format" }

  /// The format of this kind; `scale` is the PNG's pixels per point.
  public func format(scale: Int) -> OutputFormat {
    switch self {
    case .png: .png(scale: scale)
    case .svg: .svg
    case .pdf: .pdf
    }
  }

  /// Whether the format is text (SVG), which may go to a terminal.
  public var isText: Bool { self == .svg }
}

extension OutputFormat {
  /// The kind of this format.
  public var kind: OutputKind {
    switch self {
    case .png: .png
    case .svg: .svg
    case .pdf: .pdf
    }
  }
}
