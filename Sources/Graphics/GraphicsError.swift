import PNG
import Primitives

/// Everything that can go wrong while loading fonts, laying out text, drawing or coding images.
///
/// Each case's `description` is one line that names the problem and the file involved, so it can
/// be printed as is by a command-line tool or a test report.
public enum GraphicsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A font file (a ``FontSource``) that no font folder holds.
  public struct MissingFont: Hashable, Sendable {
    /// The file name the source gives.
    public var fileName: String
    /// The Debian package that provides it, when the source says.
    public var package: String?
    /// The owners (themes) whose source lists name it.
    public var themes: [String]

    /// Creates a record.
    public init(fileName: String, package: String?, themes: [String]) {
      self.fileName = fileName
      self.package = package
      self.themes = themes
    }
  }

  /// Font files the manifests name that no searched folder holds: every one of them, with its
  /// package, and the folders searched (`<folder> (<why>)`, in order); `searchStoppedIn` is the
  /// folder in which the search used up its ``FontLocator/maxEntries`` (then the files may be
  /// in the folders after it, and the message blames the option that named it first).
  case fontFilesMissing([MissingFont], searched: [String], searchStoppedIn: FontFolder?)
  /// Fontconfig refused a font file (unreadable or not a font).
  case fontFileUnreadable(path: String)
  /// The brand font folder given by the user does not exist or is not a folder.
  case fontDirectoryMissing(path: String)
  /// The private fontconfig configuration or the Pango font map could not be created.
  case fontSystemUnavailable(reason: String)
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
    case .fontFilesMissing(let files, let searched, let stoppedIn):
      let list = files.map { file in
        "\(file.fileName) (\(file.package.map { "package \($0)" } ?? "no package named"), for \(file.themes.joined(separator: ", ")))"
      }.joined(separator: ", ")
      let folders =
        searched.isEmpty ? "no folder (fontconfig lists none)" : searched.joined(separator: ", ")
      if let stoppedIn {
        // The cause first: the files may well be installed, in a folder the search never reached.
        let fix =
          switch stoppedIn.origin {
          case .fontDirectory: "give --font-dir a folder of font files, not a large tree"
          case .environment:
            "list folders of font files in \(FontLocator.environmentVariable), not large trees"
          case .fontconfig: "put the files in a folder given with --font-dir"
          }
        let unreached =
          searched.firstIndex(of: stoppedIn.description).map {
            Array(searched[(searched.index(after: $0))...])
          } ?? []
        let never =
          unreached.isEmpty ? "" : "; it never reached \(unreached.joined(separator: ", "))"
        return
          "the font search stopped after \(FontLocator.maxEntries) entries in \(ControlCharacters.escaped(stoppedIn.url.path)), a folder too large to search, given with \(stoppedIn.origin.label)\(never); font files not found: \(list); \(fix)"
      }
      let packages = Array(Set(files.compactMap(\.package))).sorted()
      let install =
        packages.isEmpty
        ? ""
        : "install the package\(packages.count == 1 ? "" : "s") (apt-get install \(packages.joined(separator: " "))) or "
      let noun = files.count == 1 ? "font file" : "\(files.count) font files"
      return "missing \(noun): \(list); looked in \(folders)"
        + "; \(install)put the files in a folder given with --font-dir or \(FontLocator.environmentVariable)"
    case .fontFileUnreadable(let path):
      return "font file could not be loaded by fontconfig: \(path)"
    case .fontDirectoryMissing(let path):
      return "brand font folder not found: \(path)"
    case .fontSystemUnavailable(let reason):
      return "could not set up the private font configuration: \(reason)"
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
