internal import CGraphics
internal import CGraphicsLoader
import PNG

/// The versions of the C libraries that produce the pixels, stored next to reference images.
///
/// Two renders can only be compared pixel for pixel when their stacks are equal; a difference is
/// reported as "environment differs" rather than as a visual regression.
public struct RenderStack: Codable, Hashable, Sendable {
  /// Cairo version, e.g. `1.16.0`.
  public var cairo: String
  /// Pango version, e.g. `1.50.12`.
  public var pango: String
  /// HarfBuzz version, e.g. `6.0.0`.
  public var harfbuzz: String
  /// FreeType version, e.g. `2.12.1`.
  public var freetype: String
  /// Fontconfig version, e.g. `2.14.1`.
  public var fontconfig: String
  /// librsvg version, e.g. `2.54.7`.
  public var librsvg: String
  /// libspng version, e.g. `0.7.3`.
  public var libspng: String

  /// Creates a render stack from version strings.
  public init(
    cairo: String, pango: String, harfbuzz: String, freetype: String, fontconfig: String,
    librsvg: String, libspng: String
  ) {
    self.cairo = cairo
    self.pango = pango
    self.harfbuzz = harfbuzz
    self.freetype = freetype
    self.fontconfig = fontconfig
    self.librsvg = librsvg
    self.libspng = libspng
  }

  /// The versions of the libraries loaded in this process (run-time versions, not headers).
  public static func current() -> RenderStack {
    RenderStack(
      cairo: text(ouds_cairo_version_string()),
      pango: text(ouds_pango_version_string()),
      harfbuzz: text(ouds_hb_version_string()),
      freetype: freetypeVersion(),
      fontconfig: dotted(packed: Int(ouds_FcGetVersion())),
      librsvg: GraphicsLibraries.librsvgVersion(),
      libspng: PNGCodec.libspngVersion)
  }

  /// FreeType reports its version through a library instance.
  private static func freetypeVersion() -> String {
    var library: FT_Library?
    guard ouds_FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
    defer { ouds_FT_Done_FreeType(library) }
    var major: FT_Int = 0
    var minor: FT_Int = 0
    var patch: FT_Int = 0
    ouds_FT_Library_Version(library, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }

  /// `21401` → `2.14.1` (fontconfig packs its version as major·10000 + minor·100 + revision).
  private static func dotted(packed: Int) -> String {
    "\(packed / 10000).\(packed / 100 % 100).\(packed % 100)"
  }

  private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? "unknown"
  }
}
