import SafeInput

/// A problem with a list spec; the description is one line naming where it is.
public struct BulletListError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file the list came from, when it came from a file.
  public var file: String?
  /// The 1-based line of the file where the problem is, when the reader knows it (Markdown lists).
  public var line: Int?
  /// Where in the list or JSON document the problem is, e.g. `items[0].items[1]`.
  public var path: String
  /// What is wrong.
  public var message: String

  /// Creates an error.
  public init(file: String? = nil, line: Int? = nil, path: String, message: String) {
    self.file = file
    self.line = line
    self.path = path
    self.message = message
  }

  /// `file: line N: path: message`, leaving out the parts that are unknown; control characters
  /// are escaped and the file name cut as in ``SafeInput/MessageText``.
  public var description: String {
    [
      file.map(MessageText.path), line.map { "line \($0)" },
      path.isEmpty ? nil : MessageText.escaped(path),
      MessageText.escaped(message),
    ]
    .compactMap { $0 }.joined(separator: ": ")
  }

  /// The same error attributed to `file`.
  public func inFile(_ file: String) -> BulletListError {
    var copy = self
    copy.file = file
    return copy
  }
}
