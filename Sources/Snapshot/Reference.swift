import BulletList
import BulletListRenderer
import Layout

/// One reference the catalogue produces: a case rendered in one variant, and where its files live.
public struct SnapshotReference: Hashable, Sendable, Identifiable {
  /// The case name (its file name without `.json` or `.md`).
  public var caseName: String
  /// How it is rendered.
  public var variant: SnapshotVariant
  /// The list to render.
  public var list: OUDSBulletList
  /// For a Markdown case, the file line of each item by item path, so that a list error found
  /// while rendering names its line (see ``BulletList/BulletListDocument/itemLines``).
  public var itemLines: [String: Int]

  /// Creates a reference.
  public init(
    caseName: String, variant: SnapshotVariant, list: OUDSBulletList, itemLines: [String: Int] = [:]
  ) {
    self.caseName = caseName
    self.variant = variant
    self.list = list
    self.itemLines = itemLines
  }

  /// `<case>/<theme>-<mode>[-<suffix>]@<scale>x`: stable, readable, unique in a catalogue.
  public var id: String { "\(caseName)/\(variant.name)" }

  /// The PNG reference, relative to the snapshots folder: `<case>/<stem>@<scale>x.png`.
  public var imagePath: String { "\(caseName)/\(variant.name).png" }

  /// The layout JSON reference, relative to the snapshots folder: `<case>/<stem>.layout.json`.
  ///
  /// The layout does not depend on the scale, so the scales of one variant share this file.
  public var layoutPath: String { "\(caseName)/\(variant.stem).layout.json" }

  /// A render error of this reference in words; a list error of a Markdown case names the
  /// item's line (and, for rich text in bold, the front matter key to change).
  package func describing(_ error: any Error) -> String {
    guard case .list(let listError)? = error as? RenderError else { return "\(error)" }
    return BulletListDocument(list: list, itemLines: itemLines).locating(listError).description
  }
}

extension SnapshotReference {
  /// The token paths its list reads in its variant (`ListLayout.tokenPaths(readBy:options:)`):
  /// a changed token explains a changed picture of this reference only when it is among them.
  public var tokenPathsRead: Set<String> {
    ListLayout.tokenPaths(readBy: list, options: variant.options)
  }
}
