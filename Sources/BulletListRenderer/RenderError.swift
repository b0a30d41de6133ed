import BulletList
import Graphics
import Layout
import Primitives
import SafeInput
import Themes

/// Everything ``BulletListRenderer`` can fail with: the error of the stage that failed, with the
/// file, theme and mode it concerns. The description is one line.
public enum RenderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Which picture was being made: the list file (once the caller knows it), the theme and the
  /// mode. A nil theme or mode is a rendering sheet of several.
  public struct Context: Hashable, Sendable, CustomStringConvertible {
    /// The list file, when the list came from a file.
    public var file: String?
    /// The theme; nil for a sheet of several themes.
    public var theme: ThemeName?
    /// The mode; nil for a sheet of several modes.
    public var mode: ColorMode?

    /// Creates a context.
    public init(file: String? = nil, theme: ThemeName?, mode: ColorMode?) {
      self.file = file
      self.theme = theme
      self.mode = mode
    }

    /// `<file>: theme <theme> (<mode>)`, or `sheet (<mode>)`, `sheet`; the file left out when unknown.
    public var description: String {
      var parts: [String] = []
      if let file { parts.append(MessageText.path(file)) }
      switch (theme, mode) {
      case (let theme?, let mode?): parts.append("theme \(theme.rawValue) (\(mode.rawValue))")
      case (let theme?, nil): parts.append("theme \(theme.rawValue)")
      case (nil, let mode?): parts.append("sheet (\(mode.rawValue))")
      case (nil, nil): parts.append("sheet")
      }
      return parts.joined(separator: ": ")
    }
  }

  /// The list is not valid: a problem in its file (`file: path: problem`) or, found while laying
  /// it out, for the platform's rules (a fourth level, rich text in bold on iOS; `path: problem`).
  case list(BulletListError)
  /// No themes folder was found, or a theme, its spec, marker assets or font manifest does not
  /// load (`file: token: problem`).
  case theme(ThemeError)
  /// The canvas cannot hold the list (its width, or a label that does not fit; names the item).
  case layout(LayoutError, Context)
  /// Fonts, icons, drawing or encoding failed: missing font files (each with its package), a
  /// brand font folder that does not exist, an unreadable icon (named), a canvas too large. The
  /// context is nil when no picture was being made yet (setting up the renderer or its fonts).
  case graphics(GraphicsError, Context?)
  /// A sheet is refused before it is drawn: too many rows (items × cells) for its memory, or, on
  /// pages (PDF), a row taller than a page, which would be cut through its label; `reason` says
  /// which and the limit.
  case sheetTooLarge(reason: String, Context)
  /// A font file that a theme's manifest (`fonts/<theme>.fonts.json`) names was found, but
  /// fontconfig cannot load it.
  case font(manifest: String, GraphicsError, Context?)

  /// One line: the context, then the stage's error (escaped), e.g.
  /// `list.json: theme sosh (dark): canvas of 360×9000 points at scale 3 is …`.
  public var description: String {
    func line(_ context: Context?, _ message: String) -> String {
      let text = MessageText.escaped(message)
      guard let context else { return text }
      return "\(context): \(text)"
    }
    switch self {
    case .list(let error): return error.description
    case .theme(let error): return error.description
    case .layout(let error, let context): return line(context, error.description)
    case .graphics(let error, let context): return line(context, error.description)
    case .font(let manifest, let error, let context): return line(context, "\(manifest): \(error)")
    case .sheetTooLarge(let reason, let context): return line(context, reason)
    }
  }

  /// The list file the error is attributed to, if any.
  public var file: String? {
    switch self {
    case .list(let error): error.file
    case .theme: nil
    case .layout(_, let context): context.file
    case .graphics(_, let context), .font(_, _, let context): context?.file
    case .sheetTooLarge(_, let context): context.file
    }
  }

  /// The same error attributed to the list file `file` (a list error, or a layout or drawing
  /// error of a picture; set-up and theme errors do not concern the list).
  public func inFile(_ file: String) -> RenderError {
    switch self {
    case .list(let error): return .list(error.inFile(file))
    case .theme: return self
    case .layout(let error, var context):
      context.file = file
      return .layout(error, context)
    case .graphics(let error, var context?):
      context.file = file
      return .graphics(error, context)
    case .font(let manifest, let error, var context?):
      context.file = file
      return .font(manifest: manifest, error, context)
    case .graphics, .font: return self
    case .sheetTooLarge(let reason, var context):
      context.file = file
      return .sheetTooLarge(reason: reason, context)
    }
  }

  /// The same error, said to concern the picture of `theme` and `mode` when it concerned no
  /// picture yet.
  package func attributed(theme: ThemeName?, mode: ColorMode?) -> RenderError {
    let context = Context(theme: theme, mode: mode)
    switch self {
    case .graphics(let error, nil): return .graphics(error, context)
    case .font(let manifest, let error, nil): return .font(manifest: manifest, error, context)
    default: return self
    }
  }

  /// The error a layout failure of `theme` and `mode` is reported as: list problems as
  /// ``list(_:)``, the others as ``layout(_:_:)``.
  package init(_ error: LayoutError, theme: ThemeName, mode: ColorMode) {
    if case .list(let listError) = error {
      self = .list(listError)
    } else {
      self = .layout(error, Context(theme: theme, mode: mode))
    }
  }
}
