import Primitives
import Scene
import Snapshot
import SnapshotReports

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How one row of a list differs between two layouts of it (before and after a token change),
/// found by comparing the rows of the two scenes that have the same item path.
public struct RowChange: Hashable, Sendable, CustomStringConvertible {
  /// The item path, e.g. `items[1].items[0]`.
  public var path: String
  /// The row before; nil when only the new layout has it.
  public var before: SceneRow?
  /// The row after; nil when only the old layout has it.
  public var after: SceneRow?
  /// What changed, in words, in a fixed order: `marker moved 12 pt right`,
  /// `label 300×24 → 288×48 pt`, `marker colour #F16E00 → #FF00FF`…
  public var changes: [String]
  /// Whether the marker box, the icon square or the label block moved.
  public var moved: Bool
  /// Whether the marker box, the icon square or the label block changed size.
  public var resized: Bool
  /// Whether a colour the row draws (text, ordered prefix, marker, link) changed.
  public var recoloured: Bool

  /// `<path>: <change>; <change>…`.
  public var description: String { "\(path): " + changes.joined(separator: "; ") }

  /// The rows of `after` that differ from the row of the same path in `before`, in the order of
  /// `after` (then rows only `before` has), each with what changed. Positions and sizes are
  /// compared to a hundredth of a point, as the layout JSON writes them.
  public static func changes(before: Scene, after: Scene) -> [RowChange] {
    var old: [String: SceneRow] = [:]
    for row in before.rows where old[row.path] == nil { old[row.path] = row }
    var seen = Set<String>()
    var result: [RowChange] = []
    for row in after.rows where seen.insert(row.path).inserted {
      guard let was = old[row.path] else {
        result.append(
          RowChange(
            path: row.path, before: nil, after: row, changes: ["added"], moved: false,
            resized: false, recoloured: false))
        continue
      }
      if let change = compare(was, row) { result.append(change) }
    }
    for row in before.rows where !seen.contains(row.path) {
      seen.insert(row.path)
      result.append(
        RowChange(
          path: row.path, before: row, after: nil, changes: ["removed"], moved: false,
          resized: false, recoloured: false))
    }
    return result
  }

  /// What differs between two rows of the same path, or nil when nothing a reader sees does.
  static func compare(_ was: SceneRow, _ now: SceneRow) -> RowChange? {
    var changes: [String] = []
    var moved = false
    var resized = false
    var recoloured = false
    var boxes: [(name: String, before: Rect, after: Rect)] = [
      ("marker", was.marker.rect, now.marker.rect), ("label", was.label, now.label),
    ]
    if let a = was.icon, let b = now.icon { boxes.insert(("icon", a, b), at: 1) }
    let shifts = boxes.map {
      (
        name: $0.name, dx: hundredths($0.after.x - $0.before.x),
        dy: hundredths($0.after.y - $0.before.y)
      )
    }
    let moving = shifts.filter { $0.dx != 0 || $0.dy != 0 }
    if !moving.isEmpty {
      moved = true
      if moving.count == shifts.count, Set(moving.map { "\($0.dx),\($0.dy)" }).count == 1,
        let first = moving.first
      {
        changes.append("moved \(distance(first.dx, first.dy))")
      } else {
        for shift in moving {
          changes.append("\(shift.name) moved \(distance(shift.dx, shift.dy))")
        }
      }
    }
    for box in boxes {
      let sizes = (before: size(box.before), after: size(box.after))
      if sizes.before != sizes.after {
        resized = true
        changes.append("\(box.name) \(sizes.before) → \(sizes.after) pt")
      }
    }
    if (was.icon == nil) != (now.icon == nil) {
      resized = true
      changes.append(now.icon == nil ? "icon square removed" : "icon square added")
    }
    func colour(_ name: String, _ a: RGBAColor?, _ b: RGBAColor?) {
      guard a != b else { return }
      recoloured = true
      changes.append("\(name) colour \(a?.hex ?? "none") → \(b?.hex ?? "none")")
    }
    colour("text", was.text.content.appearance.color, now.text.content.appearance.color)
    colour(
      "prefix", was.markerText?.content.appearance.color, now.markerText?.content.appearance.color)
    colour("marker", was.glyph?.tint, now.glyph?.tint)
    let wasLinks = was.text.content.spans.compactMap(\.color)
    let nowLinks = now.text.content.spans.compactMap(\.color)
    if wasLinks != nowLinks {
      colour("link", wasLinks.first, nowLinks.first)
    }
    if was.glyph?.content != now.glyph?.content {
      changes.append("marker \(glyphName(was.glyph)) → \(glyphName(now.glyph))")
    }
    if was.lines != now.lines {
      changes.append("\(was.lines) → \(now.lines) line\(now.lines == 1 ? "" : "s")")
    }
    guard !changes.isEmpty else { return nil }
    return RowChange(
      path: now.path, before: was, after: now, changes: changes, moved: moved, resized: resized,
      recoloured: recoloured)
  }

  private static func hundredths(_ value: Double) -> Double { value.roundedToHundredths }

  private static func number(_ value: Double) -> String {
    let rounded = value.roundedToHundredths
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  private static func size(_ rect: Rect) -> String {
    "\(number(rect.width))×\(number(rect.height))"
  }

  /// `12 pt right`, `4 pt down`, `12 pt right and 4 pt down`.
  private static func distance(_ dx: Double, _ dy: Double) -> String {
    var parts: [String] = []
    if dx != 0 { parts.append("\(number(abs(dx))) pt \(dx > 0 ? "right" : "left")") }
    if dy != 0 { parts.append("\(number(abs(dy))) pt \(dy > 0 ? "down" : "up")") }
    return parts.joined(separator: " and ")
  }

  private static func glyphName(_ glyph: SceneGlyph?) -> String {
    switch glyph?.content {
    case .shape(let shape)?: shape.name
    case .image(let file)?: URL(fileURLWithPath: file).lastPathComponent
    case nil: "none"
    }
  }
}
