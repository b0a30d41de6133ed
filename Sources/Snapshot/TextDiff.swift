/// A line diff of two texts in unified style, for the layout JSON references.
public enum TextDiff {
  /// The lines of a unified diff (`@@ -a,b +c,d @@`, then ` `, `-` and `+` lines) from `old` to `new`; empty when equal.
  ///
  /// Common leading and trailing lines are trimmed first, so the longest-common-subsequence table
  /// only covers the changed middle; `context` unchanged lines surround each hunk.
  public static func unified(old: String, new: String, context: Int = 2) -> [String] {
    if old == new { return [] }
    let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var prefix = 0
    while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix, suffix < b.count - prefix,
      a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
    {
      suffix += 1
    }
    let midA = Array(a[prefix..<(a.count - suffix)])
    let midB = Array(b[prefix..<(b.count - suffix)])

    // Edit script over the whole texts: (kind, line).
    enum Kind { case same, removed, added }
    var script: [(kind: Kind, text: String)] = a[0..<prefix].map { (.same, $0) }
    if midA.count * midB.count <= 4_000_000 {
      var table = [[Int32]](repeating: [Int32](repeating: 0, count: midB.count + 1), count: midA.count + 1)
      if !midA.isEmpty && !midB.isEmpty {
        for i in stride(from: midA.count - 1, through: 0, by: -1) {
          for j in stride(from: midB.count - 1, through: 0, by: -1) {
            table[i][j] = midA[i] == midB[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
          }
        }
      }
      var i = 0
      var j = 0
      while i < midA.count || j < midB.count {
        if i < midA.count, j < midB.count, midA[i] == midB[j] {
          script.append((.same, midA[i]))
          i += 1
          j += 1
        } else if i < midA.count, j == midB.count || table[i + 1][j] >= table[i][j + 1] {
          script.append((.removed, midA[i]))
          i += 1
        } else {
          script.append((.added, midB[j]))
          j += 1
        }
      }
    } else {
      script += midA.map { (.removed, $0) } + midB.map { (.added, $0) }
    }
    script += a[(a.count - suffix)...].map { (.same, $0) }

    // Group changes into hunks with context.
    var output: [String] = []
    var index = 0
    var lineA = 1
    var lineB = 1
    var positions: [(a: Int, b: Int)] = []
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
    while index < script.count {
      guard let firstChange = script[index...].firstIndex(where: { $0.kind != .same }) else { break }
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
