/// "Did you mean …": the known word closest to a mistyped one.
public enum Suggestion {
  /// The candidate closest to `word`, or nil when none is close.
  ///
  /// Close means an edit distance (insertions, deletions, substitutions and swaps of two
  /// neighbouring characters, ignoring case) of at most 1 for words of up to 4 characters, 2 up
  /// to 8, else 3; or `word` (3 characters or more, dashes aside) being the start of exactly one
  /// candidate. Ties go to the candidate listed first. Words longer than 64 characters get no
  /// suggestion (the distance is quadratic).
  public static func closest(to word: String, among candidates: [String]) -> String? {
    let typed = Array(word.lowercased())
    guard !typed.isEmpty, typed.count <= 64 else { return nil }
    let core = typed.drop { $0 == "-" }.count
    let allowed = core <= 4 ? 1 : core <= 8 ? 2 : 3
    var best: (candidate: String, distance: Int)?
    for candidate in candidates where candidate != word {
      let distance = Self.distance(typed, Array(candidate.lowercased()))
      if distance <= allowed, distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    if let best { return best.candidate }
    if core >= 3 {
      let extensions = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
      if extensions.count == 1 { return extensions.first }
    }
    return nil
  }

  /// `; did you mean <word>?` for the candidate closest to `word`, or an empty string.
  public static func clause(for word: String, among candidates: [String]) -> String {
    closest(to: word, among: candidates).map { "; did you mean \($0)?" } ?? ""
  }

  /// The optimal string alignment distance between `a` and `b`: Levenshtein's edits plus the swap
  /// of two neighbouring characters.
  public static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, previous2[j - 2] + 1)
        }
        current[j] = value
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
