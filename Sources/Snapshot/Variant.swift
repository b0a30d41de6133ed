import Layout
import Primitives

/// One way to render a case: a theme, a mode, a scale and the layout settings, with a readable name.
public struct SnapshotVariant: Hashable, Sendable {
  /// The theme.
  public var theme: ThemeName
  /// Light or dark.
  public var mode: ColorMode
  /// PNG pixels per point.
  public var scale: Int
  /// The suffix that tells this variant from the plain one (e.g. `body-medium`, `ar`, `android`); nil for the plain one.
  public var suffix: String?
  /// Width, background, locale, direction, text-style override and platform of the render.
  public var options: LayoutOptions

  /// Creates a variant.
  public init(
    theme: ThemeName, mode: ColorMode, scale: Int = 2, suffix: String? = nil,
    options: LayoutOptions = LayoutOptions()
  ) {
    self.theme = theme
    self.mode = mode
    self.scale = scale
    self.suffix = suffix
    self.options = options
  }

  /// `<theme>-<mode>[-<suffix>]`, the file name of the reference without scale and extension.
  public var stem: String {
    "\(theme.rawValue)-\(mode.rawValue)" + (suffix.map { "-\($0)" } ?? "")
  }

  /// `<theme>-<mode>[-<suffix>]@<scale>x`, the variant part of a reference id.
  public var name: String { "\(stem)@\(scale)x" }
}
