import SafeInput

/// Why a theme could not be loaded: one line naming the file, the token and the problem.
///
/// The description reads `<file>: <token>: <problem>`, each part present when known, e.g.
/// `brands/sosh/light.tokens.json: color.content.default: alias {color.raw.nope} points to no token`.
/// File paths are relative to the themes directory.
public struct ThemeError: Error, CustomStringConvertible, Hashable, Sendable {
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
