import Fonts
import PNG
import Primitives

/// Everything that can go wrong while loading fonts, laying out text, drawing or coding images.
///
/// Each case's `description` is one line that names the problem and the file involved, so it can
/// be printed as is by a command-line tool or a test report.
public enum GraphicsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Font files could not be found or loaded (``Fonts/FontError``: missing files, a file
  /// fontconfig refuses, no brand folder, no private configuration).
  case font(FontError)
  /// A free icon file does not exist.
  case iconFileMissing(path: String)
  /// A free icon file exists but could not be read or decoded.
  case iconFileUnreadable(path: String, reason: String)
  /// A free icon file has an extension other than `svg` or `png`.
  case iconFormatUnsupported(path: String)
  /// A scene names a marker shape without its outline (a scene decoded from JSON carries only
  /// the shape's name).
  case shapeWithoutOutline(name: String)
  /// The canvas size is not drawable (zero, negative, not finite, or larger than Cairo allows:
  /// ``largestBitmapSide`` pixels for a bitmap, `scale` > 0; ``largestVectorSide`` points for
  /// SVG and PDF, `scale` 0).
  case invalidCanvasSize(width: Double, height: Double, scale: Int)
  /// A PDF page is larger than ``largestPDFPageSide`` points on a side: the document would be
  /// written, but PDF readers refuse or crop the page.
  case pdfPageTooLarge(width: Double, height: Double)
  /// The pixel scale is outside ``PixelScale/supported`` (1...3).
  case invalidScale(Int)
  /// Cairo reported an error while drawing; `stage` says what was being done.
  case drawingFailed(stage: String, reason: String)
  /// A drawing library (Cairo, Pango, fontconfig, FreeType, HarfBuzz, GLib, librsvg) could not
  /// be loaded when it was first needed; `reason` names it, its Debian package and the loader's
  /// message.
  case libraryUnavailable(reason: String)
  /// A PNG could not be encoded or decoded, or was refused by its limits (``PNGError``).
  case png(PNGError)

  /// Cairo's largest image side, in pixels.
  public static let largestBitmapSide = 32767.0

  /// The largest side of an SVG or PDF canvas, in points. Cairo holds coordinates in 24.8 fixed
  /// point: past 2²³ = 8,388,608 points they wrap, so an SVG loses what lies beyond and a PDF of
  /// that height never finishes (`cairo_surface_finish` loops). The margin below that covers
  /// what a row may draw past the canvas' edge (glyphs, antialiasing).
  public static let largestVectorSide = 8_000_000.0

  /// The largest side of a PDF page, in points: 14,400 (200 inches), the limit of PDF 1.7's
  /// Annex C that Acrobat, pdf.js and Poppler-based viewers apply; past it a reader refuses the
  /// page or shows part of it, so a longer list would silently look cut.
  public static let largestPDFPageSide = 14_400.0

  /// The coordinate where Cairo's 24.8 fixed point stops: 2²³ points.
  static let cairoCoordinateLimit = 8_388_608.0

  /// One human-readable line naming the problem and the file involved.
  public var description: String {
    switch self {
    case .font(let error):
      return error.description
    case .iconFileMissing(let path):
      return "icon file not found: \(path)"
    case .iconFileUnreadable(let path, let reason):
      let oneLine = reason.split(whereSeparator: \.isNewline).map {
        $0.trimmingWhitespace()
      }
      .filter { !$0.isEmpty }.joined(separator: " ")
      return "icon file could not be read: \(path): \(oneLine)"
    case .iconFormatUnsupported(let path):
      return "icon file is neither .svg nor .png: \(path)"
    case .shapeWithoutOutline(let name):
      return
        "marker shape \"\(name)\" has no outline to draw (a scene read back from JSON names its shapes only; lay the list out again)"
    case .pdfPageTooLarge(let width, let height):
      let side =
        height > Self.largestPDFPageSide
        ? "height, \(Self.number(height))" : "width, \(Self.number(width))"
      return
        "canvas of \(Self.number(width))×\(Self.number(height)) points cannot be a PDF page: its \(side) points, is over the \(Self.number(Self.largestPDFPageSide))-point page limit PDF readers apply; use SVG or PNG, or split the list into several files"
    case .invalidCanvasSize(let width, let height, let scale):
      let w = Self.number(width)
      let h = Self.number(height)
      guard width.isFinite, height.isFinite, width > 0, height > 0 else {
        return "canvas of \(w)×\(h) points cannot be drawn: both sides must be positive"
      }
      guard scale > 0 else {
        let side = height > Self.largestVectorSide ? "height, \(h)" : "width, \(w)"
        return
          "canvas of \(w)×\(h) points cannot be drawn as SVG or PDF: its \(side) points, is over the \(Self.number(Self.largestVectorSide))-point limit (Cairo's coordinates stop at \(Self.number(Self.cairoCoordinateLimit))); shorten the list or split it into several files"
      }
      let pixels =
        "\(Self.number((width * Double(scale)).rounded(.up)))×\(Self.number((height * Double(scale)).rounded(.up)))"
      return
        "canvas of \(w)×\(h) points at scale \(scale) is \(pixels) pixels, over the \(Int(Self.largestBitmapSide))-pixel limit of a bitmap: use a lower scale, or SVG or PDF"
    case .invalidScale(let scale):
      return "pixel scale \(scale) is not supported (use \(PixelScale.choices))"
    case .drawingFailed(let stage, let reason):
      return "drawing failed while \(stage): \(reason)"
    case .libraryUnavailable(let reason):
      return reason
    case .png(let error):
      return error.description
    }
  }

  /// A number as people write it: no ".0" on whole numbers, no grouping.
  private static func number(_ value: Double) -> String {
    value.isFinite && value == value.rounded() && abs(value) < 1e15
      ? String(Int(value)) : String(value)
  }
}
