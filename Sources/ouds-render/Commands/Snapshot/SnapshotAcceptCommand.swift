import BulletListRenderer
import CLIKit
import Fonts
import Graphics
import PNG
import SafeInput
import Snapshot
import SnapshotReports
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render snapshot accept`: writes the renders a CI run made of its changed and missing
/// references (its `verify --results` folders) as the new references, after checking that the
/// run verified this very catalogue, so that a change is accepted without the CI's render stack.
enum SnapshotAcceptCommand {
  /// The command's table.
  static let spec = CommandSpec(
    name: "accept",
    abstract: "Accept a CI run's renders of its changed and missing references as the new ones",
    overview:
      "Write the renders that a CI run made of its changed and missing references (the results folders of its 'snapshot verify --results' shards) into the snapshots folder, as 'snapshot record --failed' would in the CI's own render stack.",
    arguments: [
      ArgumentSpec(
        name: "dir", help: "a folder written by 'snapshot verify --results' (a CI artifact)",
        completion: .directory, isVariadic: true)
    ],
    argumentsInWords: "one or more results folders of one run",
    discussion: """
      The folders are read and merged as 'snapshot merge' does (one run, one catalogue, one
      environment, every check of merge), then held against this checkout: its snapshots and
      themes folders must be the ones the run verified (the catalogue digest, the token digest,
      the references' count and tolerances), so a render is never written over a reference it
      was not compared with. Each changed or missing reference then gets the run's actual.png and
      actual.layout.json, checked (inside their folder, not through a link out of it, a PNG of the
      size the results say, the SHA-256 results.json records of each), under the snapshots
      folder's record lock; ENVIRONMENT.json takes the run's token digest when the tokens
      changed. A run whose render stack or font files differ from ENVIRONMENT.json is
      refused: its pictures are not what verify compares here. References that failed with an
      error, and a --filter that leaves nothing, are refused; so is an entry whose artifacts are
      not in its own folder. The record lock is taken before the catalogue is checked and held to
      the last write. Every destination is checked (a regular file, no link, a folder this user
      may write, free space) and every new file written beside it before one is put in place:
      a refusal or a failure leaves the references as they were, and a killed accept leaves a
      journal that the next accept, record or verify completes or rolls back. A reference whose
      pixels and layout already equal the render is left untouched. Exit 0 when every selected
      change was written (or already was); review the pictures (the run's review page) first,
      then commit. The CI templates
      publish the results folders with the review page: downloaded into the checkout's root,
      they are out/shard-*.
      """,
    options: [SnapshotCommand.filter],
    examples: [
      Example(
        command: "snapshot accept out/shard-*",
        explanation: "after reviewing the CI's review page: every change of the run"),
      Example(
        command: "snapshot accept out/shard-* --filter sample-3",
        explanation: "only the references of one case"),
    ],
    run: run)

  /// Reads, checks and writes; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    var parts: [SnapshotRunResults.Part] = []
    var folders: [String: URL] = [:]
    var labels: [String: String] = [:]
    for label in arguments.positionals {
      let folder = URL(fileURLWithPath: label)
      let results = try SnapshotRunResults.read(from: folder)
      parts.append(SnapshotRunResults.Part(label: label, results: results))
      for reference in results.references {
        folders[reference.id] = folder
        labels[reference.id] = label
      }
    }
    let merged: SnapshotRunResults
    do {
      merged = try SnapshotRunResults.merge(parts)
    } catch {
      throw Self.accepting(error)
    }
    // One entry, one picture, and counts that agree with the entries (the results alone).
    let files = arguments.positionals.map {
      MessageText.path(($0.hasSuffix("/") ? $0 : $0 + "/") + SnapshotRunResults.fileName)
    }.joined(separator: ", ")
    try AcceptChecks.entries(merged, files: files)
    let root = RepositoryRoot.find()
    guard let snapshotsPath = merged.snapshots.map(root.absolute), PathText.isFolder(snapshotsPath)
    else {
      throw SnapshotError.cannotAccept(
        reason:
          "the run's snapshots folder \(MessageText.path(merged.snapshots ?? "(none)")) is not here: run accept from the root of the checkout the run verified"
      )
    }
    let snapshots = ProtectedPlace("snapshots folder", snapshotsPath)
    let themes = merged.themes.map { ProtectedPlace("themes folder", root.absolute($0.folder)) }
    // Without a run (results written by hand) there is no catalogue digest to hold them against,
    // and merge's check would only note it.
    guard let run = merged.run else {
      throw SnapshotError.cannotAccept(
        reason:
          "\(files): run is null: the results name no run nor the digest of the catalogue it verified, so nothing says they are of this catalogue; accept the results of a verify run (--results)"
      )
    }
    let filter = arguments[SnapshotCommand.filterOption]
    let changes = merged.references.filter {
      ($0.status == .changed || $0.status == .missing) && (filter?.matches($0.id) ?? true)
    }
    let errors = merged.references.filter {
      $0.status == .error && (filter?.matches($0.id) ?? true)
    }
    if let first = errors.first {
      throw SnapshotError.cannotAccept(
        reason:
          "\(errors.count) reference\(errors.count == 1 ? "" : "s") failed with an error, which has no render to accept (\(first.id): \(first.message ?? first.reason)); fix it and run verify again"
      )
    }
    guard !changes.isEmpty || merged.tokenDifference != nil else {
      if let given = arguments.givenText(SnapshotCommand.filter) {
        throw SnapshotError.nothingMatches(filter: given)
      }
      throw SnapshotError.cannotAccept(reason: AcceptChecks.nothingToAccept(merged, files: files))
    }
    // Every render is read and checked against the digests the run recorded (the results
    // folders only: no lock needed yet).
    let images = ArtifactImages(folders: folders)
    // Each render's files and digests, not their bytes: they are read again one at a time below,
    // so that accept holds one render in memory whatever the number of failures.
    var renders: [(reference: ReferenceResult, png: RunFile, layout: RunFile)] = []
    for reference in changes {
      guard let folder = folders[reference.id],
        let layout = reference.artifacts["actual.layout.json"]
      else {
        throw SnapshotError.cannotAccept(
          reason:
            "\(reference.id) has no actual.png and actual.layout.json in its results folder: the run kept no render of it"
        )
      }
      let png: Data
      let pngPath: String
      do {
        (pngPath, png) = try images.file(for: reference, image: .actual)
      } catch {
        throw SnapshotError.cannotAccept(reason: "\(reference.id): \(error)")
      }
      let layoutPath: String
      switch FolderReference.resolve(layout, inside: folder) {
      case .success(let path): layoutPath = path
      case .failure(let problem):
        throw SnapshotError.cannotAccept(
          reason: "\(reference.id): actual.layout.json \(MessageText.path(layout)): \(problem)")
      }
      let layoutData = try UserFile.read(layoutPath, kind: .list)
      // The bytes the run wrote, not a file changed or swapped since.
      for (name, data) in [("actual.png", png), ("actual.layout.json", layoutData)] {
        // As the folder was given (out/shard-2/…), as the user sees it.
        let base = labels[reference.id].map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
        let path = base + (reference.artifacts[name] ?? name)
        guard let recorded = reference.artifactDigests[name] else {
          throw SnapshotError.cannotAccept(
            reason:
              "\(MessageText.path(path)): results.json holds no SHA-256 of \(reference.id)'s \(name) (written by an older ouds-render): run verify again"
          )
        }
        let digest = SHA256Digest.hex(of: data)
        guard digest == recorded else {
          throw SnapshotError.cannotAccept(
            reason:
              "\(MessageText.path(path)): its SHA-256 is \(digest.prefix(12))…, but results.json says the run wrote \(recorded.prefix(12))…: the file was changed after the run"
          )
        }
      }
      renders.append(
        (
          reference,
          RunFile(path: pngPath, kind: .artifactImage, data: png),
          RunFile(path: layoutPath, kind: .list, data: layoutData)
        ))
    }
    // From here to the last write, under the record lock: the catalogue checked is the one written.
    let folder = URL(fileURLWithPath: snapshotsPath)
    let lock = try SnapshotLock.acquire(
      in: folder, timeout: 10, command: "snapshot accept",
      waiting: { holder in
        printError(
          "waiting for \(MessageText.path(root.relative(snapshotsPath) + "/" + SnapshotLock.fileName)): another process is \(holder)"
        )
      })
    defer { withExtendedLifetime(lock) {} }
    // An accept killed half-way (this one, run again, or another) is finished or undone first.
    if let note = try AcceptTransaction.recover(in: folder) { printError(note) }
    // What the run wants written, against what is there now.
    let environmentData =
      try merged.tokenDifference == nil ? nil : Self.environment(merged, themes, folder)
    var writes: [AcceptWrite] = []
    var unchanged: [String] = []
    for render in renders {
      let imagePath = render.reference.imagePath
      let layoutPath = render.reference.layoutPath
      let png = try render.png.read()
      let layout = try render.layout.read()
      let oldImage = Self.existing(folder, imagePath)
      let oldLayout = Self.existing(folder, layoutPath)
      // Kept by pixels, not bytes: a reference that already looks like the render stays.
      if let oldImage, let oldLayout, oldLayout == layout, SamePixels.equal(oldImage, png) {
        unchanged.append(render.reference.id)
        continue
      }
      if oldImage == nil || oldImage.map({ !SamePixels.equal($0, png) }) == true {
        writes.append(render.png.write(to: imagePath))
      }
      if oldLayout != layout, !writes.contains(where: { $0.path == layoutPath }) {
        writes.append(render.layout.write(to: layoutPath))
      }
    }
    if let environmentData, Self.existing(folder, SnapshotEnvironment.fileName) != environmentData {
      writes.append(AcceptWrite(path: SnapshotEnvironment.fileName, data: environmentData))
    }
    let written = renders.filter { !unchanged.contains($0.reference.id) }
    if writes.isEmpty {
      // Another accept of this run (or this one, interrupted and finished) wrote it all.
      try writeOutput(
        "nothing left to accept: the \(changes.count) render\(changes.count == 1 ? "" : "s") of the run \(run.id) \(changes.count == 1 ? "is" : "are") already the reference\(changes.count == 1 ? "" : "s") in \(root.relative(snapshotsPath))\n"
      )
      return ExitStatus.success
    }
    // The run verified this catalogue, these tokens, these references and tolerances: checked
    // under the lock, so no case edited or reference re-recorded meanwhile slips through.
    do {
      if let note = try SnapshotMergeCommand.checkAgainstCheckout(
        merged, snapshots: snapshots, themes: themes, root: root)
      {
        throw SnapshotError.cannotAccept(reason: "\(files): \(note)")
      }
    } catch SnapshotError.cannotMerge(let reason) {
      let reason =
        reason.components(separatedBy: "; the shards do not describe").first ?? reason
      let differs = AcceptChecks.whatDiffers(
        merged, snapshots: folder, themes: themes, root: root,
        resultsTime: AcceptChecks.resultsTime(arguments.positionals))
      throw SnapshotError.cannotAccept(
        reason:
          "\(files): \(reason): the run verified another catalogue than \(MessageText.path(root.relative(snapshots.path))) here (\(differs ?? "a case file, reference or theme changed since")); nothing written"
      )
    }
    if !merged.environmentDifferences.isEmpty {
      throw SnapshotError.cannotAccept(
        reason:
          "the run's render stack or font files differ from \(SnapshotEnvironment.fileName) (\(merged.environmentDifferences.joined(separator: "; "))): its pictures are not what verify compares here; record in that stack"
      )
    }
    try AcceptTransaction.apply(writes, in: folder, run: run.id)
    for render in written {
      try writeOutput("accepted \(render.reference.id) (\(render.reference.status.rawValue))\n")
    }
    let same =
      unchanged.isEmpty
      ? ""
      : ", \(unchanged.count) unchanged (the reference already has the render's pixels and layout)"
    try writeOutput(
      "\(written.count) reference\(written.count == 1 ? "" : "s") accepted from the run \(run.id)\(same)\(merged.tokenDifference == nil ? "" : ", and its tokens in \(SnapshotEnvironment.fileName)"); review and commit \(root.relative(snapshotsPath))\n"
    )
    return ExitStatus.success
  }

  /// The bytes of the file at `relative` under `folder`, nil when there is none (or it is not a
  /// regular file: the transaction's checks name it).
  private static func existing(_ folder: URL, _ relative: String) -> Data? {
    let path = folder.appendingPathComponent(relative).path
    guard UserFile.type(atPath: path) == .regular else { return nil }
    return try? UserFile.read(path, kind: .list)
  }

  /// `ENVIRONMENT.json` with the tokens the run verified (record --failed does the same).
  private static func environment(
    _ merged: SnapshotRunResults, _ themes: ProtectedPlace?, _ folder: URL
  ) throws -> Data? {
    guard let themes else { return nil }
    let library = try ThemeLibrary(directory: URL(fileURLWithPath: themes.path))
    var environment = merged.environment
    environment.tokensSHA256 = SnapshotEnvironment.tokenDigest(of: library)
    environment.tokens = SnapshotEnvironment.tokenValues(of: library)
    let existing = try SnapshotEnvironment.read(from: folder)
    return Data(
      try (existing?.merging(environment, takingTokens: true) ?? environment).jsonText().utf8)
  }

  /// merge's refusal, said as accept's.
  private static func accepting(_ error: any Error) -> any Error {
    if case .cannotMerge(let reason)? = error as? SnapshotError {
      return SnapshotError.cannotAccept(reason: reason)
    }
    return error
  }
}

/// A file of a run's results that accept checked against the digest the run recorded: read
/// again, and checked again, each time its bytes are needed.
private struct RunFile {
  var path: String
  var kind: UserFileKind
  var size: Int
  var sha256: String

  init(path: String, kind: UserFileKind, data: Data) {
    self.path = path
    self.kind = kind
    self.size = data.count
    self.sha256 = SHA256Digest.hex(of: data)
  }

  /// The file's bytes, still those that were checked.
  func read() throws(SnapshotError) -> Data {
    let data: Data
    do {
      data = try UserFile.read(path, kind: kind)
    } catch {
      throw SnapshotError.cannotAccept(reason: "\(error)")
    }
    guard data.count == size, SHA256Digest.hex(of: data) == sha256 else {
      throw SnapshotError.cannotAccept(
        reason: "\(MessageText.path(path)): the file was changed after it was checked")
    }
    return data
  }

  /// The write that puts this file's bytes at `destination` of the snapshots folder.
  func write(to destination: String) -> AcceptWrite {
    AcceptWrite(path: destination, copying: path, kind: kind, size: size, sha256: sha256)
  }
}
