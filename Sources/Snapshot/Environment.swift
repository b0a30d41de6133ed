import BulletListRenderer
import Foundation
import Graphics
import Themes

/// The render-stack fingerprint stored as `Snapshots/ENVIRONMENT.json`: library versions and font hashes.
///
/// References are only comparable pixel for pixel with renders made by the same stack; when the
/// machine differs, verify says so first ("environment differs: …") and still reports the pixels.
public struct SnapshotEnvironment: Codable, Hashable, Sendable {
  /// One font file a theme loaded (role, family, path, SHA-256).
  public typealias Font = LoadedFont

  /// The versions of cairo, pango, harfbuzz, freetype, fontconfig, librsvg and libspng.
  public var renderStack: RenderStack
  /// The font files of each theme, keyed by theme name (`orange`, `sosh`…).
  public var fonts: [String: [Font]]

  /// The name of the file inside the snapshots folder.
  public static let fileName = "ENVIRONMENT.json"

  /// Creates a fingerprint.
  public init(renderStack: RenderStack, fonts: [String: [Font]]) {
    self.renderStack = renderStack
    self.fonts = fonts
  }

  /// Reads `ENVIRONMENT.json` from a snapshots folder; nil when there is none.
  /// - Throws: `SnapshotError` when the file exists but cannot be read.
  public static func read(from snapshotsDirectory: URL) throws(SnapshotError) -> SnapshotEnvironment? {
    let url = snapshotsDirectory.appendingPathComponent(fileName)
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    do {
      return try JSONDecoder().decode(SnapshotEnvironment.self, from: data)
    } catch {
      throw SnapshotError("\(url.path): not a valid environment fingerprint (re-record to rewrite it)")
    }
  }

  /// The JSON text of the fingerprint: sorted keys, pretty-printed, ending with a newline.
  public func jsonText() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
  }

  /// Writes the fingerprint atomically into a snapshots folder.
  public func write(to snapshotsDirectory: URL) throws {
    try AtomicFile.write(
      Data(try jsonText().utf8), to: snapshotsDirectory.appendingPathComponent(Self.fileName).path,
      createDirectories: true)
  }

  /// This fingerprint with the font records of `other`'s themes replaced by `other`'s, and `other`'s stack.
  public func merging(_ other: SnapshotEnvironment) -> SnapshotEnvironment {
    var merged = self
    merged.renderStack = other.renderStack
    for (theme, files) in other.fonts { merged.fonts[theme] = files }
    return merged
  }

  /// What differs between the recorded fingerprint (`self`) and `current`, one line each; empty when equal.
  ///
  /// Only the themes present in `current` are compared, so a filtered run does not complain about
  /// the fonts of themes it did not render. Fonts are matched by role and compared by SHA-256; a
  /// file found at another path with the same hash is not a difference.
  public func differences(from current: SnapshotEnvironment) -> [String] {
    var lines: [String] = []
    let stacks: [(String, KeyPath<RenderStack, String>)] = [
      ("cairo", \.cairo), ("pango", \.pango), ("harfbuzz", \.harfbuzz), ("freetype", \.freetype),
      ("fontconfig", \.fontconfig), ("librsvg", \.librsvg), ("libspng", \.libspng),
    ]
    for (name, path) in stacks where renderStack[keyPath: path] != current.renderStack[keyPath: path] {
      lines.append("\(name) \(renderStack[keyPath: path]) in the references, \(current.renderStack[keyPath: path]) here")
    }
    for theme in current.fonts.keys.sorted() {
      let here = current.fonts[theme] ?? []
      guard let recorded = fonts[theme] else {
        lines.append("\(theme): no fonts recorded for this theme")
        continue
      }
      let recordedByRole = Dictionary(recorded.map { ($0.role + "|" + $0.path, $0) }, uniquingKeysWith: { a, _ in a })
      let recordedRoles = Dictionary(recorded.map { ($0.role, $0) }, uniquingKeysWith: { a, _ in a })
      for font in here {
        let old = recordedByRole[font.role + "|" + font.path] ?? recordedRoles[font.role]
        guard let old else {
          lines.append("\(theme) font \(font.role): \(Self.fileName(font.path)) is new (not in the references)")
          continue
        }
        if old.sha256 != font.sha256 {
          let file = old.path == font.path ? Self.fileName(font.path) : "\(Self.fileName(old.path)) → \(Self.fileName(font.path))"
          lines.append(
            "\(theme) font \(font.role): \(file) sha256 \(old.sha256.prefix(12))… in the references, \(font.sha256.prefix(12))… here")
        }
      }
      let hereRoles = Set(here.map(\.role))
      for font in recorded where !hereRoles.contains(font.role) {
        lines.append("\(theme) font \(font.role): \(Self.fileName(font.path)) is in the references but not loaded here")
      }
    }
    return lines
  }

  private static func fileName(_ path: String) -> String {
    (path as NSString).lastPathComponent
  }
}
