import Foundation
import SafeInput

/// Why a theme could not be loaded: one line naming the file, the token and the problem.
///
/// The description reads `<file>: <token>: <problem>`, each part present when known, e.g.
/// `brands/sosh/light.tokens.json: color.content.default: alias {color.raw.nope} points to no token`.
/// File paths are relative to the themes directory.
public struct ThemeError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The file at fault, relative to the themes directory (or absolute when outside it), if any.
  public var file: String?
  /// The dotted token path at fault (or a location in a non-token file), if any.
  public var token: String?
  /// What is wrong, in words a person can act on.
  public var message: String

  /// Creates an error.
  public init(file: String? = nil, token: String? = nil, message: String) {
    self.file = file
    self.token = token
    self.message = message
  }

  /// The whole error on one line: `file: token: message`, control characters escaped and the
  /// file name and token path cut as in ``SafeInput/MessageText``.
  public var description: String {
    [file.map(MessageText.path), token.map(MessageText.path), MessageText.escaped(message)]
      .compactMap { $0 }.joined(separator: ": ")
  }
}

extension ThemeName {
  /// Parses a theme name as typed on a command line (`orange`, `orange-compact`, `Sosh`, `orange_compact`).
  public static func parse(_ string: String) throws(ThemeError) -> ThemeName {
    let key = string.trimmingCharacters(in: .whitespaces).lowercased()
      .replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: " ", with: "-")
    if let name = ThemeName(rawValue: key) { return name }
    if key == "orangecompact" { return .orangeCompact }
    let known = ThemeName.allCases.map(\.rawValue).joined(separator: ", ")
    throw ThemeError(message: "unknown theme \(MessageText.quoted(string)) (known: \(known))")
  }
}

extension ColorMode {
  /// Parses a colour mode as typed on a command line (`light`, `dark`, case-insensitive).
  public static func parse(_ string: String) throws(ThemeError) -> ColorMode {
    let key = string.trimmingCharacters(in: .whitespaces).lowercased()
    if let mode = ColorMode(rawValue: key) { return mode }
    let known = ColorMode.allCases.map(\.rawValue).joined(separator: ", ")
    throw ThemeError(message: "unknown mode \(MessageText.quoted(string)) (known: \(known))")
  }
}
