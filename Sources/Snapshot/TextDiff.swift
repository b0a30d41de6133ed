/// A line diff of two texts in unified style, for the layout JSON references.
public enum TextDiff {
  /// The lines of a unified diff (`@@ -a,b +c,d @@`, then ` `, `-` and `+` lines) from `old` to `new`; empty when equal.
  ///
  /// Common leading and trailing lines are trimmed; the edit script of the rest is the standard
  /// library's `difference(from:)` (Myers' algorithm, O((n+m)·d) for d changed lines) over line
  /// numbers, each distinct line numbered once so that lines compare as integers. Between two
  /// unchanged lines, removed lines come before added ones; `context` unchanged lines surround each
  /// hunk, and hunks closer than `2 × context` merge.
  public static func unified(old: String, new: String, context: Int = 2) -> [String] {
    if old == new { return [] }
    let a = old.split(separator: "\n", omittingEmptySubsequences: false)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false)
    return hunks(script(a, b), context: context)
  }

  private enum Kind { case same, removed, added }

  /// The edit script from `a` to `b`: every line of both, in order, marked kept, removed or added.
  ///
  /// Common leading and trailing lines are kept as they are; the changed middle is diffed.
  private static func script(_ a: [Substring], _ b: [Substring]) -> [(kind: Kind, text: Substring)]
  {
    var prefix = 0
    while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix, suffix < b.count - prefix,
      a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
    {
      suffix += 1
    }
    var numbers: [Substring: Int] = [:]
    func number(_ line: Substring) -> Int {
      if let known = numbers[line] { return known }
      numbers[line] = numbers.count
      return numbers.count - 1
    }
    let oldIDs = a[prefix..<(a.count - suffix)].map(number)
    let newIDs = b[prefix..<(b.count - suffix)].map(number)
    var removed = Set<Int>()
    var inserted = Set<Int>()
    for change in newIDs.difference(from: oldIDs) {
      switch change {
      case .remove(let offset, _, _): removed.insert(prefix + offset)
      case .insert(let offset, _, _): inserted.insert(prefix + offset)
      }
    }
    var script: [(kind: Kind, text: Substring)] = []
    script.reserveCapacity(a.count + inserted.count)
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count, removed.contains(i) {
        script.append((.removed, a[i]))
        i += 1
      } else if j < b.count, inserted.contains(j) {
        script.append((.added, b[j]))
        j += 1
      } else {
        // Neither removed nor inserted: the same line in both texts.
        script.append((.same, a[i]))
        i += 1
        j += 1
      }
    }
    return script
  }

  /// The unified-diff lines of `script`: changes grouped into hunks with `context` lines around them.
  private static func hunks(_ script: [(kind: Kind, text: Substring)], context: Int) -> [String] {
    var positions: [(a: Int, b: Int)] = []
    positions.reserveCapacity(script.count)
    var lineA = 1
    var lineB = 1
    for entry in script {
      positions.append((lineA, lineB))
      switch entry.kind {
      case .same:
        lineA += 1
        lineB += 1
      case .removed: lineA += 1
      case .added: lineB += 1
      }
    }
    var output: [String] = []
    var index = 0
    while index < script.count {
      guard let firstChange = script[index...].firstIndex(where: { $0.kind != .same }) else {
        break
      }
      let start = max(firstChange - context, index)
      var end = firstChange
      var sameRun = 0
      var cursor = firstChange
      while cursor < script.count {
        if script[cursor].kind == .same {
          sameRun += 1
          if sameRun > 2 * context { break }
        } else {
          sameRun = 0
          end = cursor
        }
        cursor += 1
      }
      let stop = min(end + context + 1, script.count)
      let countA = script[start..<stop].filter { $0.kind != .added }.count
      let countB = script[start..<stop].filter { $0.kind != .removed }.count
      output.append("@@ -\(positions[start].a),\(countA) +\(positions[start].b),\(countB) @@")
      for entry in script[start..<stop] {
        switch entry.kind {
        case .same: output.append(" " + entry.text)
        case .removed: output.append("-" + entry.text)
        case .added: output.append("+" + entry.text)
        }
      }
      index = stop
    }
    return output
  }
}
