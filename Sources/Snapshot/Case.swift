import BulletList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A case file of `Snapshots/cases/` (a JSON or a Markdown list): a list and the variants to
/// render it in.
public struct SnapshotCase: Hashable, Sendable {
  /// The file name without `.json` or `.md`, e.g. `sample-3`.
  public var name: String
  /// The case file.
  public var file: URL
  /// The list and its document-level settings.
  public var document: BulletListDocument
  /// Every variant of the case, in declaration order.
  public var variants: [SnapshotVariant]

  /// The references this case produces.
  public var references: [SnapshotReference] {
    variants.map {
      SnapshotReference(
        caseName: name, variant: $0, list: document.list, itemLines: document.itemLines)
    }
  }
}

/// A case file that could not be read: its name, where it is, and why. It fails only itself.
public struct SnapshotCaseError: Hashable, Sendable, CustomStringConvertible {
  /// The case name (the file name without `.json` or `.md`), escaped and cut for display.
  public var name: String
  /// The case file relative to the snapshots folder, e.g. `cases/sample-9.json`, escaped and cut.
  public var file: String
  /// Why the case cannot run, one line.
  public var message: String

  /// Creates a case error.
  public init(name: String, file: String, message: String) {
    self.name = name
    self.file = file
    self.message = message
  }

  /// The id under which the error is shown in tables, reports and JUnit: `<case>/(case file)`.
  public var id: String { "\(name)/(case file)" }

  /// `<message>`, which names the case file.
  public var description: String { message }
}
