import Fonts
import Graphics
import Primitives
import Snapshot
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
    var sameAs: [String: String] = [:]
    for group in changeGroups {
      guard let first = group.references.first else { continue }
      for reference in group.references.dropFirst() { sameAs[reference.id] = first.id }
    }
    let lines =
      unexplainedFailures.map { reference in
        "\(reference.displayStatus) \(reference.id)"
          + (sameAs[reference.id].map { "  the same change as \($0)" } ?? "")
      }
      + failureGroups.flatMap { group in
        group.references.map {
          "\($0.displayStatus) \($0.id)  explained by \($0.explainedBy.joined(separator: ", "))"
        }
      }
    return lines.map { $0 + "\n" }.joined()
  }
}

/// Unexplained `changed` failures that show one change: the same diff picture (the same changed
/// pixels over the same reference picture: one `diff.png` SHA-256) and the same changed lines of
/// the layout JSON. A reviewer judges the change once; each reference still keeps its own accept.
public struct ChangeGroup: Hashable, Sendable {
  /// The references, sorted by id, at least two.
  public var references: [ReferenceResult]

  /// Creates a group.
  public init(references: [ReferenceResult]) {
    self.references = references
  }

  /// `3 references with the same change: 120 pixels changed, layout identical`.
  public var headline: String {
    let count = references.count
    let first = references.first
    let pixels = first?.pixels?.changedPixels ?? 0
    let layout = first?.layoutDiff.filter { Self.isChangedLine($0) }.count ?? 0
    return
      "\(FailureGroup.grouped(count)) references with the same change: \(pixels) pixel\(pixels == 1 ? "" : "s") changed, "
      + (layout == 0
        ? "layout identical" : "the same \(layout) layout line\(layout == 1 ? "" : "s")")
  }

  /// A `+` or `-` line of a unified diff, not its `+++`/`---` header.
  static func isChangedLine(_ line: String) -> Bool {
    (line.hasPrefix("+") && !line.hasPrefix("+++"))
      || (line.hasPrefix("-") && !line.hasPrefix("---"))
  }

  /// What two references of one group share: their diff picture's SHA-256 and the changed
  /// lines of their layout diff; nil for a reference with neither to compare by.
  static func key(_ reference: ReferenceResult) -> String? {
    guard reference.status == .changed, !reference.isExplained else { return nil }
    let diff = reference.artifactDigests[ReferenceResult.Image.diff.fileName]
    let layout = reference.layoutDiff.filter(isChangedLine)
    guard diff != nil || !layout.isEmpty else { return nil }
    // Changed pixels with no diff picture's digest to compare: never grouped by layout alone
    // (a light and a dark picture of one edit have the same layout lines but other pixels).
    if diff == nil, (reference.pixels?.changedPixels ?? 0) > 0 { return nil }
    return "pixels \(diff ?? "identical")\nlayout "
      + SHA256Digest.hex(of: Data(layout.joined(separator: "\n").utf8))
  }
}

extension SnapshotRunResults {
  /// The unexplained failures that share one change (``ChangeGroup``), the largest first.
  public var changeGroups: [ChangeGroup] {
    var byKey: [String: [ReferenceResult]] = [:]
    for reference in unexplainedFailures {
      if let key = ChangeGroup.key(reference) { byKey[key, default: []].append(reference) }
    }
    return byKey.values.filter { $0.count > 1 }.map {
      ChangeGroup(references: $0.sorted { $0.id < $1.id })
    }.sorted { a, b in
      a.references.count != b.references.count
        ? a.references.count > b.references.count
        : (a.references.first?.id ?? "") < (b.references.first?.id ?? "")
    }
  }
}
