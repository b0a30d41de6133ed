import Primitives
import Snapshot
import Themes

/// The failures of a run that one cause explains: the references whose ``ReferenceResult/explainedBy``
/// lists the same changed tokens, render-stack libraries and font files. Every output (the terminal
/// table, the Markdown summary, the review page, JUnit, the annotations) shows a group once, headed by
/// its cause and count, and every unexplained failure on its own.
public struct FailureGroup: Hashable, Sendable {
  /// What explains the group's references: their common ``ReferenceResult/explainedBy``.
  public var cause: [String]
  /// The references, sorted by id.
  public var references: [ReferenceResult]

  /// Creates a group.
  public init(cause: [String], references: [ReferenceResult]) {
    self.cause = cause
    self.references = references
  }

  /// The most causes named in a headline; the rest are counted.
  public static let causesShown = 4

  /// `1,248 references changed by color.raw.orange.orange-550 #F15E00 → #7B2FBE (orange,
  /// orange-compact; light, dark)`: the count, each cause with its values when one change holds in
  /// every theme × mode of the group, and the themes and modes of its references.
  public func headline(_ results: SnapshotRunResults) -> String {
    let themes = ThemeName.allCases.map(\.rawValue).filter { theme in
      references.contains { $0.theme == theme }
    }
    let modes = ColorMode.allCases.map(\.rawValue).filter { mode in
      references.contains { $0.mode == mode }
    }
    let contexts = Set(references.map { "\($0.theme)/\($0.mode)" })
    let named = cause.prefix(Self.causesShown).map { name -> String in
      let changes = Set(
        results.tokenCauses.filter { $0.token == name && contexts.contains($0.context) }.map {
          "\($0.before) → \($0.after)"
        })
      if changes.count == 1, let change = changes.first { return "\(name) \(change)" }
      return name
    }
    let more = cause.count > Self.causesShown ? " and \(cause.count - Self.causesShown) more" : ""
    let count = references.count
    return
      "\(Self.grouped(count)) reference\(count == 1 ? "" : "s") changed by \(named.joined(separator: ", "))\(more) (\(themes.joined(separator: ", ")); \(modes.joined(separator: ", ")))"
  }

  /// `1248` as `1,248`.
  public static func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { text += "," }
      text.append(digit)
    }
    return text
  }
}

extension SnapshotRunResults {
  /// The explained failures, one group per cause, the largest first (then by cause).
  public var failureGroups: [FailureGroup] {
    var byCause: [[String]: [ReferenceResult]] = [:]
    for reference in failures where reference.isExplained {
      byCause[reference.explainedBy, default: []].append(reference)
    }
    return byCause.map { FailureGroup(cause: $0.key, references: $0.value) }.sorted { a, b in
      a.references.count != b.references.count
        ? a.references.count > b.references.count : a.cause.lexicographicallyPrecedes(b.cause)
    }
  }

  /// The failures no token, stack or font difference of their own explains: each is its own
  /// regression (or a missing reference, an error), shown first and accepted on its own.
  public var unexplainedFailures: [ReferenceResult] {
    failures.filter { !$0.isExplained }
  }

  /// Every failing reference id, one line each: `<status> <id>`, then `  explained by <causes>`
  /// for an explained one; unexplained first. What `verify --list` and `merge --list` print.
  public var failureList: String {
    let lines =
      unexplainedFailures.map { "\($0.displayStatus) \($0.id)" }
      + failureGroups.flatMap { group in
        group.references.map {
          "\($0.displayStatus) \($0.id)  explained by \($0.explainedBy.joined(separator: ", "))"
        }
      }
    return lines.map { $0 + "\n" }.joined()
  }
}
