import Primitives
import SafeInput

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Selects references by id: comma-separated patterns, each a whole id (that reference only), a
/// glob on the whole id (with `*`, `?` or `[…]`), or else a substring of the id.
public struct SnapshotFilter: Hashable, Sendable, CustomStringConvertible {
  /// The patterns, as given.
  public var patterns: [String]

  /// Parses `text` (e.g. `sample-3`, `demo-*/sosh-dark*`, `sample-1,sample-2`).
  /// - Throws: `SnapshotError` for an empty filter.
  public init(_ text: String) throws(SnapshotError) {
    let parts = text.split(separator: ",").map { $0.trimmingWhitespace() }
      .filter { !$0.isEmpty }
    guard !parts.isEmpty else { throw .emptyFilter(text) }
    patterns = parts
  }

  /// The filter as typed.
  public var description: String { patterns.joined(separator: ",") }

  /// Whether a broken case (which has no reference ids) is selected: a substring pattern found in
  /// its name, or a glob whose part before the first `/` matches the name.
  public func matchesCase(_ name: String) -> Bool {
    patterns.contains { pattern in
      if pattern.contains(where: { "*?[".contains($0) }) {
        let casePart =
          pattern.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first.map(
            String.init) ?? pattern
        return fnmatch(casePart, name, 0) == 0
      }
      return name.contains(pattern) || pattern.hasPrefix(name + "/")
    }
  }

  /// Whether a reference id matches one of the patterns: a glob the whole id, a whole id
  /// (``isWholeID(_:)``) only itself, any other pattern a substring of the id.
  public func matches(_ id: String) -> Bool {
    patterns.contains { pattern in
      if pattern.contains(where: { "*?[".contains($0) }) {
        return fnmatch(pattern, id, 0) == 0
      }
      if Self.isWholeID(pattern) { return id == pattern }
      return id.contains(pattern)
    }
  }

  /// Whether `pattern` has the form of a whole reference id, `<case>/<theme>-<mode>[-<suffix>]@<scale>x`:
  /// a valid case name, one `/`, and a variant name that ends in `@` and a scale followed by `x`.
  ///
  /// Such a pattern selects that one reference, not every id that holds it: `rich-text/orange-light@2x`
  /// does not select `android-rich-text/orange-light@2x`, so an accept command accepts what it names.
  public static func isWholeID(_ pattern: String) -> Bool {
    let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, SnapshotCatalogue.isValidName(String(parts[0])) else { return false }
    let variant = parts[1]
    guard variant.hasSuffix("x"), let at = variant.lastIndex(of: "@"), at != variant.startIndex
    else { return false }
    let scale = variant[variant.index(after: at)..<variant.index(before: variant.endIndex)]
    return !scale.isEmpty && scale.allSatisfy { $0.isASCII && $0.isNumber }
  }
}

/// Shard `index` of `count` (1-based, `--shard 2/4`): every `count`-th reference of the sorted list.
///
/// References are dealt out round-robin by id order, so shards differ in size by at most one and
/// the `count` shards together hold every reference exactly once.
public struct SnapshotShard: Hashable, Sendable, CustomStringConvertible {
  /// 1-based shard number.
  public var index: Int
  /// Number of shards.
  public var count: Int

  /// Creates shard `index` of `count`.
  /// - Throws: `SnapshotError` unless 1 ≤ index ≤ count.
  public init(index: Int, count: Int) throws(SnapshotError) {
    guard count >= 1, index >= 1, index <= count else {
      throw .shardOutOfRange(index: index, count: count)
    }
    self.index = index
    self.count = count
  }

  /// Parses `i/n`.
  /// - Throws: `SnapshotError` naming the text.
  public init(parsing text: String) throws(SnapshotError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = DecimalNumber.integer(String(parts[0])),
      let count = DecimalNumber.integer(String(parts[1]))
    else {
      throw .malformedShard(text)
    }
    try self.init(index: index, count: count)
  }

  /// `i/n`.
  public var description: String { "\(index)/\(count)" }

  /// The part of `references` (sorted by id) that belongs to this shard.
  public func split(_ references: [SnapshotReference]) -> [SnapshotReference] {
    references.sorted { $0.id < $1.id }.enumerated()
      .filter { $0.offset % count == index - 1 }
      .map(\.element)
  }
}
