import Fonts
import Graphics
import Primitives
import SafeInput
import Snapshot
import Themes

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

/// What `snapshot accept` checks of a run's entries before it takes a render, and how it says
/// why a run is refused.
public enum AcceptChecks {
  /// The artifacts of a failure that accept takes.
  public static let acceptedArtifacts = ["actual.png", "actual.layout.json"]

  /// One entry, one picture: each entry's artifacts are in its own folder (`<id>/<name>`, as
  /// verify writes them), only failures carry artifacts, and the run's entries are as many as
  /// the references its selection covers.
  /// - Parameter files: the `results.json` files handed in, as the refusal names them.
  /// - Throws: ``SnapshotError/cannotAccept(reason:)`` naming the entry and, for an artifact of
  ///   another entry, that one too.
  public static func entries(_ merged: SnapshotRunResults, files: String) throws(SnapshotError) {
    let ids = Set(merged.references.map(\.id))
    for reference in merged.references {
      for name in reference.artifacts.keys.sorted() {
        guard let path = reference.artifacts[name] else { continue }
        if path == reference.id + "/" + name { continue }
        let folder = PathText.deletingLastComponent(path)
        let owner =
          ids.contains(folder)
          ? "an artifact of \(folder)"
          : "not in its own folder \(MessageText.path(reference.id + "/"))"
        throw .cannotAccept(
          reason:
            "\(files): \(reference.id)'s \(name) is \(MessageText.path(path)), \(owner): each entry's artifacts are its own, named as verify names them; the results were edited, nothing written"
        )
      }
      if !reference.isFailure,
        let name = acceptedArtifacts.first(where: { reference.artifacts[$0] != nil })
      {
        throw .cannotAccept(
          reason:
            "\(files): \(reference.id) \(reference.status.rawValue) but carries an \(name), which verify keeps only of failures; the results were edited, nothing written"
        )
      }
    }
    if merged.selection.filter == nil,
      merged.references.count != merged.selection.catalogueReferences
    {
      throw .cannotAccept(
        reason:
          "\(files): selection.catalogueReferences is \(merged.selection.catalogueReferences), but the run's entries are \(merged.references.count) with no --filter: the counts disagree, nothing written"
      )
    }
  }

  /// When the oldest of `folders`' `results.json` was last modified, seconds since 1970.
  public static func resultsTime(_ folders: [String]) -> Double? {
    folders.compactMap { folder -> Double? in
      var status = stat()
      guard
        lstat(
          URL(fileURLWithPath: folder).appendingPathComponent(SnapshotRunResults.fileName).path,
          &status) == 0
      else { return nil }
      return Double(status.st_mtim.tv_sec)
    }.min()
  }

  /// Why a run with no changed or missing reference (and no --filter) has nothing to accept.
  public static func nothingToAccept(_ merged: SnapshotRunResults, files: String) -> String {
    if let first = merged.caseErrors.first {
      let count = merged.caseErrors.count
      return
        "\(files): the run has nothing to accept: its only failure\(count == 1 ? " is" : "s are") \(count) broken case file\(count == 1 ? "" : "s"), which \(count == 1 ? "has" : "have") no render (\(MessageText.value(first.message, limit: 200))); fix \(count == 1 ? "it" : "them") and run verify again"
    }
    return
      "\(files): the run has nothing to accept: its \(merged.references.count) reference\(merged.references.count == 1 ? "" : "s") passed"
  }

  /// What changed here since the run, as far as this checkout tells: the tokens (named, when
  /// `ENVIRONMENT.json` still records the run's token values), references whose PNG is not the
  /// `expected.png` the run compared, references recorded since, `ENVIRONMENT.json`, and case
  /// files newer than the results (`resultsTime`, seconds since 1970, the oldest `results.json`
  /// handed in). Nil when none of these is found.
  public static func whatDiffers(
    _ merged: SnapshotRunResults, snapshots: URL, themes: ProtectedPlace?, root: RepositoryRoot,
    resultsTime: Double?
  ) -> String? {
    var found: [String] = []
    let recorded = try? SnapshotEnvironment.read(from: snapshots)
    if let themes, let library = try? ThemeLibrary(directory: URL(fileURLWithPath: themes.path)),
      SnapshotEnvironment.tokenDigest(of: library) != merged.tokensSHA256
    {
      if let recorded, recorded.tokensSHA256 == merged.tokensSHA256,
        let changed = recorded.changedTokens(in: library), !changed.isEmpty
      {
        let shown = changed.prefix(3).joined(separator: "; ")
        found.append(
          "tokens changed: \(shown)\(changed.count > 3 ? "; … and \(changed.count - 3) more" : "")")
      } else {
        found.append("the tokens of \(MessageText.path(root.relative(themes.path))) changed")
      }
    }
    if let recorded, recorded.tokensSHA256 != merged.recordedEnvironment?.tokensSHA256 {
      found.append("\(SnapshotEnvironment.fileName) re-recorded")
    }
    var references: [String] = []
    for reference in merged.references {
      let path = snapshots.appendingPathComponent(reference.imagePath).path
      let here = UserFile.type(atPath: path) != nil
      if reference.status == .missing, here {
        references.append("\(reference.id) (recorded since)")
      } else if let expected = reference.referenceDigests.png
        ?? reference.artifactDigests["expected.png"],
        let digest = try? SHA256Digest.hex(
          ofUserFile: path, kind: UserFileKind(name: "reference", maximumBytes: 256 << 20)),
        digest != expected
      {
        references.append("\(reference.id) (re-recorded)")
      }
    }
    if !references.isEmpty {
      found.append(
        "reference\(references.count == 1 ? "" : "s") "
          + references.prefix(3).joined(separator: ", ")
          + (references.count > 3 ? " and \(references.count - 3) more" : ""))
    }
    // Case files edited after the results were written (a download keeps no time: a hint only).
    let cases = snapshots.appendingPathComponent(SnapshotCatalogue.casesFolderName)
    if let written = resultsTime,
      let names = try? FileManager.default.contentsOfDirectory(atPath: cases.path)
    {
      let edited = names.sorted().filter { name in
        var status = stat()
        guard !name.hasPrefix("."),
          lstat(cases.appendingPathComponent(name).path, &status) == 0
        else { return false }
        return Double(status.st_mtim.tv_sec) > written
      }
      if !edited.isEmpty {
        found.append(
          "case file\(edited.count == 1 ? "" : "s") edited after the results: "
            + edited.prefix(3).map { "\(SnapshotCatalogue.casesFolderName)/\($0)" }.joined(
              separator: ", ") + (edited.count > 3 ? " and \(edited.count - 3) more" : ""))
      }
    }
    return found.isEmpty ? nil : found.joined(separator: "; ")
  }
}
