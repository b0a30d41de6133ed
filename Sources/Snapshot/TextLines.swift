/// Lines of text held as one string, for what a run keeps of every failure until its end.
///
/// A layout diff is some 80 short lines; as `[String]`, each line over 15 bytes is a heap object
/// of its own (about 96 bytes for a 30-character line), so 10,000 failures held 100 MB of diff
/// lines. Joined, they take their own bytes and one header. ``lines`` splits them again on use.
/// A line holding a line break comes back as two lines: the diff never makes one, and the
/// results reader refuses one (a control character).
public struct TextLines: Hashable, Sendable {
  private var text: String
  /// The number of lines.
  public private(set) var count: Int

  /// Holds `lines`.
  public init(_ lines: [String] = []) {
    text = lines.joined(separator: "\n")
    count = lines.isEmpty ? 0 : text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
  }

  /// The lines, in order.
  public var lines: [String] {
    count == 0 ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
}
