import BulletList
import BulletListRenderer
import Primitives
import SafeInput
import StrictJSON

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The catalogue: every case of a snapshots folder, expanded into references sorted by id.
///
/// A case file that cannot be read (malformed JSON, a bad variant, an invalid name, a FIFO) does
/// not stop the others: it is listed in ``brokenCases`` and reported as an error row.
public struct SnapshotCatalogue: Sendable {
  /// The snapshots folder (holds `cases/`, the references and `ENVIRONMENT.json`).
  public var directory: URL
  /// The cases, sorted by name.
  public var cases: [SnapshotCase]
  /// The case files that could not be read, sorted by file name.
  public var brokenCases: [SnapshotCaseError]

  /// The name of the folder of case files inside the snapshots folder.
  public static let casesFolderName = "cases"

  /// The longest case or snapshot name: 100 characters.
  public static let maximumNameLength = 100

  /// The extensions of case files, in lower case: a JSON list (`.json`) or a Markdown list
  /// (`.md`, `.markdown`, as `render` reads them), each with its variants (the JSON object's or
  /// the front matter's `variants` key).
  public static let caseFileExtensions = [".json", ".md", ".markdown"]

  /// Reads every `*.json`, `*.md` and `*.markdown` file of `<directory>/cases/` and expands its
  /// variants.
  ///
  /// Every other file under `cases/` must be an icon a case draws: anything else (another
  /// extension, an extension in another letter case such as `.JSON`, a file in a sub-folder that
  /// no case draws) is a broken case naming the file, so that no case is ever silently left out.
  /// - Parameter reader: the list reader (use `BulletListRenderer.listReader()` for Markdown labels).
  /// - Throws: `SnapshotError` when the case folder is missing or holds no case file at all.
  public init(directory: URL, reader: ListReader) throws(SnapshotError) {
    self.directory = directory.standardizedFileURL
    let casesFolder = self.directory.appendingPathComponent(Self.casesFolderName)
    guard PathText.isFolder(casesFolder.path) else {
      throw SnapshotError.noCaseFolder(path: casesFolder.path)
    }
    // Every entry at any depth: a case file sits directly in `cases/`, anything else must be an
    // icon of a case (checked once the cases are read).
    guard let entries = PathText.entries(under: casesFolder.path) else {
      throw SnapshotError.folderUnreadable(path: casesFolder.path)
    }
    let names = entries.filter { !$0.contains("/") }
    // Names of the snapshots folder's own files (README.md, ENVIRONMENT.json…): a case folder
    // of the same name (in any letter case) would collide with them.
    let root = self.directory
    let topLevelFiles = Set(
      ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
        .filter { UserFile.type(atPath: root.appendingPathComponent($0).path) != .directory }
        .map { $0.lowercased() })
    var cases: [SnapshotCase] = []
    var broken: [SnapshotCaseError] = []
    var caseFiles: [String: String] = [:]
    var others: [String] = []
    for fileName in names.sorted() {
      guard let fileExtension = Self.caseFileExtensions.first(where: { fileName.hasSuffix($0) })
      else {
        others.append(fileName)
        continue
      }
      let file = casesFolder.appendingPathComponent(fileName)
      let name = String(fileName.dropLast(fileExtension.count))
      let displayPath = "\(Self.casesFolderName)/\(MessageText.value(fileName))"
      func fail(_ message: String) {
        broken.append(
          SnapshotCaseError(name: MessageText.value(name), file: displayPath, message: message))
      }
      if let problem = Self.nameProblem(name, reserved: topLevelFiles) {
        fail("\(displayPath): \(problem)")
        continue
      }
      // `x.json` and `x.md` would both write their references into `x/`.
      if let other = caseFiles[name.lowercased()] {
        let otherPath = "\(Self.casesFolderName)/\(MessageText.value(other))"
        fail("\(displayPath): the case name is also the name of \(otherPath); rename one")
        continue
      }
      caseFiles[name.lowercased()] = fileName
      // A case file, like a token file, is read only inside its folder: a link out of it could
      // put another file of the machine into the references, the gallery or an error message.
      if case .failure(let problem) = FolderReference.resolve(
        "\(Self.casesFolderName)/\(fileName)", inside: self.directory)
      {
        fail("\(displayPath): \(problem.message(folder: "the snapshots folder"))")
        continue
      }
      // A case file is a list plus the catalogue's `variants` key (a Markdown list's is in its
      // front matter), which the list reader sets aside.
      let document: BulletListDocument
      let variants: JSONValue?
      do {
        let read = try reader.read(
          file: file.path, kind: .caseFile, format: ListFormat(fileName: fileName),
          settingAside: [VariantParser.key])
        document = read.document
        variants = read.setAside[VariantParser.key]
      } catch {
        fail(error.inFile(displayPath).description)
        continue
      }
      if let outside = document.list.iconFiles.lazy.compactMap({
        FolderReference.outside($0, folder: root)
      }).first {
        fail(
          "\(displayPath): icon \(MessageText.path(outside)) is outside the snapshots folder; a case draws only icons inside it"
        )
        continue
      }
      do {
        let parsed = try VariantParser.variants(
          of: variants, document: document, file: displayPath)
        if let unused = VariantParser.unusedTextSize(of: document, in: parsed) {
          fail("\(displayPath): \(unused)")
          continue
        }
        cases.append(
          SnapshotCase(name: name, file: file, document: document, variants: parsed))
      } catch {
        fail(error.description)
      }
    }
    broken += Self.filesNotRead(
      entries.filter { $0.contains("/") } + others, in: casesFolder,
      icons: Set(
        cases.flatMap(\.document.list.iconFiles).map {
          URL(fileURLWithPath: $0).standardizedFileURL.path
        }))
    broken.sort { $0.file < $1.file }
    guard !cases.isEmpty || !broken.isEmpty else {
      throw SnapshotError.noCaseFiles(folder: casesFolder.path)
    }
    self.cases = cases
    self.brokenCases = broken
  }

  /// The entries of the case folder (paths relative to it) that are neither a case file nor an
  /// icon a case draws (`icons`, absolute standardized paths), each as a broken case naming it;
  /// folders are skipped (their files are entries of their own).
  static func filesNotRead(_ entries: [String], in casesFolder: URL, icons: Set<String>)
    -> [SnapshotCaseError]
  {
    var errors: [SnapshotCaseError] = []
    for relative in entries.sorted() {
      let path = casesFolder.appendingPathComponent(relative).standardizedFileURL.path
      guard UserFile.type(atPath: path) != .directory, !icons.contains(path) else { continue }
      let displayPath = "\(casesFolderName)/\(MessageText.value(relative))"
      let fileName = relative.split(separator: "/").last.map(String.init) ?? relative
      let lowered = fileName.lowercased()
      let why: String
      if relative.contains("/"),
        caseFileExtensions.contains(where: { lowered.hasSuffix($0) })
      {
        why =
          "a case file in a sub-folder is not read; move it into \(casesFolderName)/ (no case draws it as an icon either)"
      } else if let wanted = caseFileExtensions.first(where: { lowered.hasSuffix($0) }) {
        let stem = fileName.dropLast(wanted.count)
        why =
          "not read as a case file: case files end in \(caseFileExtensions.joined(separator: ", ")) in lower case; rename it \(MessageText.value(stem + wanted))"
      } else {
        why =
          "not a case file (\(caseFileExtensions.joined(separator: ", "))) and no case draws it as an icon; remove it or move it out of \(casesFolderName)/"
      }
      errors.append(
        SnapshotCaseError(
          name: MessageText.value(relative), file: displayPath, message: "\(displayPath): \(why)"))
    }
    return errors
  }

  /// Reads the catalogue with a list reader that understands `markdown` labels (libcmark).
  /// - Throws: `SnapshotError` when the case folder is missing or empty.
  public init(directory: URL) throws(SnapshotError) {
    try self.init(directory: directory, reader: BulletListRenderer.markdownListReader())
  }

  /// Every reference of the catalogue, sorted by id.
  public var references: [SnapshotReference] {
    cases.flatMap(\.references).sorted { $0.id < $1.id }
  }

  /// The references that pass `filter` and belong to `shard`, sorted by id.
  ///
  /// The filter applies first, then the shard splits what is left.
  public func select(filter: SnapshotFilter? = nil, shard: SnapshotShard? = nil)
    -> [SnapshotReference]
  {
    var selected = references
    if let filter { selected = selected.filter { filter.matches($0.id) } }
    if let shard { selected = shard.split(selected) }
    return selected
  }

  /// The broken cases a run with `filter` and `shard` reports: those whose name the filter
  /// selects (``SnapshotFilter/matchesCase(_:)``), all in shard 1 and none in the other shards,
  /// so that the shards together report each once.
  public func selectBroken(filter: SnapshotFilter? = nil, shard: SnapshotShard? = nil)
    -> [SnapshotCaseError]
  {
    if let shard, shard.index != 1 { return [] }
    guard let filter else { return brokenCases }
    return brokenCases.filter { filter.matchesCase($0.name) }
  }

  /// Whether `name` can be a case or snapshot name (see ``nameProblem(_:reserved:)``).
  public static func isValidName(_ name: String) -> Bool {
    nameProblem(name, reserved: []) == nil
  }

  /// Why `name` cannot be a case or snapshot name, or nil when it can.
  ///
  /// A name holds 1 to 100 ASCII letters, digits, `.`, `_` and `-`, starts with a letter or a
  /// digit, holds no `..`, is not `cases` (the case folder) and, ignoring letter case, is not the
  /// name of a file of the snapshots folder (`reserved`, lower-case), since each case has a folder
  /// of its own name there.
  public static func nameProblem(_ name: String, reserved: Set<String>) -> String? {
    let allowed = "only letters, digits, '.', '_' and '-', and starts with a letter or a digit"
    guard !name.isEmpty else { return "the case name is empty" }
    guard name.unicodeScalars.count <= maximumNameLength else {
      return "the case name is longer than \(maximumNameLength) characters"
    }
    let valid = name.unicodeScalars.allSatisfy {
      ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0)
        || "._-".unicodeScalars.contains($0)
    }
    guard valid, let first = name.unicodeScalars.first, first.isASCII,
      first.properties.isAlphabetic || ("0"..."9").contains(first)
    else { return "a case name holds \(allowed)" }
    guard !name.contains("..") else { return "a case name may not hold '..'" }
    let lowered = name.lowercased()
    guard lowered != casesFolderName else {
      return
        "a case may not be named '\(casesFolderName)': its references would go into the case folder"
    }
    guard !reserved.contains(lowered) else {
      return "the case name collides with the file \(name) of the snapshots folder"
    }
    return nil
  }
}
