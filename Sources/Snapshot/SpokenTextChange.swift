import Primitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a screen reader would say differently between two layout JSON texts: the rows whose
/// `accessibilityLabel` changed, appeared or went, named by item path. Verify puts it first in a
/// changed reference's message, so a change in the spoken text reads as text, not as pixels.
public enum SpokenTextChange {
  /// How many rows the message names before "and N more".
  static let shownRows = 3

  /// One line (`spoken text changed: items[1]: "a, level 1" → "b, level 1"`), or nil when the
  /// spoken text of every row is the same or a text is not a layout JSON.
  public static func summary(expectedLayout: String, actualLayout: String) -> String? {
    guard let old = rows(expectedLayout), let new = rows(actualLayout) else { return nil }
    let oldByPath = Dictionary(old.map { ($0.path, $0.accessibilityLabel) }) { first, _ in first }
    let newByPath = Dictionary(new.map { ($0.path, $0.accessibilityLabel) }) { first, _ in first }
    var changes: [String] = []
    for row in new {
      switch oldByPath[row.path] {
      case nil:
        changes.append("\(row.path) added: \(MessageText.quoted(row.accessibilityLabel))")
      case let before? where before != row.accessibilityLabel:
        changes.append(
          "\(row.path): \(MessageText.quoted(before)) → \(MessageText.quoted(row.accessibilityLabel))"
        )
      default:
        break
      }
    }
    for row in old where newByPath[row.path] == nil {
      changes.append("\(row.path) gone: \(MessageText.quoted(row.accessibilityLabel))")
    }
    guard !changes.isEmpty else { return nil }
    let shown = changes.prefix(shownRows).joined(separator: "; ")
    let more = changes.count > shownRows ? "; and \(changes.count - shownRows) more" : ""
    return "spoken text changed: \(shown)\(more)"
  }

  private struct Layout: Decodable {
    struct Row: Decodable {
      var path: String
      var accessibilityLabel: String
    }
    var rows: [Row]
  }

  private static func rows(_ json: String) -> [Layout.Row]? {
    try? JSONDecoder().decode(Layout.self, from: Data(json.utf8)).rows
  }
}
