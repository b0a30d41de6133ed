import Foundation
import Snapshot
import Testing

@Suite("TextDiff: unified hunks of the layout JSON")
struct TextDiffTests {
  /// Fourteen lines shaped like layout JSON members.
  static let lines = (1...14).map { "  \"line\($0)\" : \($0)," }
  static let text = lines.joined(separator: "\n")

  /// `lines` with the lines at `offsets` (0-based) replaced by `edit`.
  static func changing(_ offsets: Set<Int>, _ edit: (String) -> String) -> String {
    lines.enumerated().map { offsets.contains($0.offset) ? edit($0.element) : $0.element }.joined(
      separator: "\n")
  }

  @Test("equal texts give no lines")
  func equal() {
    #expect(TextDiff.unified(old: Self.text, new: Self.text).isEmpty)
    #expect(TextDiff.unified(old: "", new: "").isEmpty)
  }

  @Test("one changed value: a hunk with two lines of context, numbered from 1")
  func oneValue() {
    let new = Self.changing([6]) { _ in "  \"line7\" : 56," }
    #expect(
      TextDiff.unified(old: Self.text, new: new) == [
        "@@ -5,5 +5,5 @@",
        "   \"line5\" : 5,",
        "   \"line6\" : 6,",
        "-  \"line7\" : 7,",
        "+  \"line7\" : 56,",
        "   \"line8\" : 8,",
        "   \"line9\" : 9,",
      ])
  }

  @Test("changes more than four unchanged lines apart get a hunk each")
  func twoHunks() {
    let new = Self.changing([1, 12]) { $0 + " // changed" }
    #expect(
      TextDiff.unified(old: Self.text, new: new) == [
        "@@ -1,4 +1,4 @@",
        "   \"line1\" : 1,",
        "-  \"line2\" : 2,",
        "+  \"line2\" : 2, // changed",
        "   \"line3\" : 3,",
        "   \"line4\" : 4,",
        "@@ -11,4 +11,4 @@",
        "   \"line11\" : 11,",
        "   \"line12\" : 12,",
        "-  \"line13\" : 13,",
        "+  \"line13\" : 13, // changed",
        "   \"line14\" : 14,",
      ])
  }

  @Test("changes four unchanged lines apart share one hunk")
  func mergedHunk() {
    let new = Self.changing([3, 8]) { $0 + " // changed" }
    #expect(
      TextDiff.unified(old: Self.text, new: new) == [
        "@@ -2,10 +2,10 @@",
        "   \"line2\" : 2,",
        "   \"line3\" : 3,",
        "-  \"line4\" : 4,",
        "+  \"line4\" : 4, // changed",
        "   \"line5\" : 5,",
        "   \"line6\" : 6,",
        "   \"line7\" : 7,",
        "   \"line8\" : 8,",
        "-  \"line9\" : 9,",
        "+  \"line9\" : 9, // changed",
        "   \"line10\" : 10,",
        "   \"line11\" : 11,",
      ])
  }

  @Test("a line added at the start and one removed at the end; removals come before additions")
  func edges() {
    #expect(
      TextDiff.unified(old: "b\nc\nd", new: "a\nb\nc") == [
        "@@ -1,3 +1,3 @@", "+a", " b", " c", "-d",
      ])
    #expect(
      TextDiff.unified(
        old: "{\n  \"a\" : 1,\n  \"b\" : 2,\n  \"c\" : 3\n}\n",
        new: "{\n  \"a\" : 1,\n  \"d\" : 4\n}\n") == [
          "@@ -1,6 +1,5 @@", " {", "   \"a\" : 1,", "-  \"b\" : 2,", "-  \"c\" : 3", "+  \"d\" : 4",
          " }", " ",
        ])
    // A final newline is a line of its own (empty), so adding one shows.
    #expect(TextDiff.unified(old: "a\nb", new: "a\nb\n") == ["@@ -1,2 +1,3 @@", " a", " b", "+"])
  }

  @Test(
    "the edit script is minimal: removed and added lines are those outside a longest common subsequence"
  )
  func minimal() {
    var generator = SeededGenerator(seed: 9)
    for _ in 0..<500 {
      let a = (0..<Int.random(in: 0...10, using: &generator)).map { _ in
        ["a", "b", "c", "}"].randomElement(using: &generator) ?? ""
      }
      let b = (0..<Int.random(in: 0...10, using: &generator)).map { _ in
        ["a", "b", "c", "}"].randomElement(using: &generator) ?? ""
      }
      let diff = TextDiff.unified(old: a.joined(separator: "\n"), new: b.joined(separator: "\n"))
      let common = Self.lcsLength(a.isEmpty ? [""] : a, b.isEmpty ? [""] : b)
      let removed = diff.filter { $0.hasPrefix("-") }.count
      let added = diff.filter { $0.hasPrefix("+") }.count
      // An empty text is one empty line.
      #expect(removed == max(a.count, 1) - common, "\(a) → \(b): \(diff)")
      #expect(added == max(b.count, 1) - common, "\(a) → \(b): \(diff)")
      // Every kept line is in both texts, in order.
      let kept = diff.filter { $0.hasPrefix(" ") }.map { String($0.dropFirst()) }
      #expect(kept.allSatisfy { a.contains($0) && b.contains($0) })
    }
  }

  @Test("large, very different texts still get a line-by-line diff (no size cap)")
  func large() {
    let old = (0..<3000).map { "  \"value\" : \($0)," }
    var new = old
    for index in stride(from: 0, to: new.count, by: 100) { new[index] = "  \"value\" : -\(index)," }
    new.insert("  \"added\" : true,", at: 1500)
    let diff = TextDiff.unified(old: old.joined(separator: "\n"), new: new.joined(separator: "\n"))
    #expect(diff.filter { $0.hasPrefix("-") }.count == 30)
    #expect(diff.filter { $0.hasPrefix("+") }.count == 31)
    #expect(diff.filter { $0.hasPrefix("@@") }.count == 30)
  }

  /// The length of a longest common subsequence, by the textbook table (the test's oracle).
  static func lcsLength(_ a: [String], _ b: [String]) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    return table[0][0]
  }
}

/// A deterministic random number generator for the property tests.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state
  }
}

extension TextDiffTests {
  @Test("a failure's diff lines held as one string come back line for line, with their count")
  func linesKeptAsOneString() {
    let diff = TextDiff.unified(
      old: "{\n  \"x\" : 8,\n  \"y\" : 0\n}", new: "{\n  \"x\" : 12,\n  \"y\" : 0\n}")
    #expect(diff.count == 6)
    for lines in [diff, [], [""], ["", ""], [" a", "", "-b", ""]] {
      let kept = TextLines(lines)
      #expect(kept.lines == lines)
      #expect(kept.count == lines.count)
    }
    let failure = SnapshotFailure(kind: .changed, layoutDiff: diff)
    #expect(failure.layoutDiff == diff)
    #expect(failure.layoutDiffLines.count == 6)
  }
}
