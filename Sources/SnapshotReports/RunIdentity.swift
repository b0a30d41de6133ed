import Fonts
import Graphics
import Primitives
import SafeInput
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension SnapshotRunResults {
  /// Which run a `results.json` belongs to: what `snapshot merge` compares before it combines
  /// shards, so that a folder left from another run (yesterday's green one) is refused rather than
  /// merged over today's failures.
  public struct RunIdentity: Hashable, Sendable {
    /// The run id: the same for every shard of one CI run (``resolve(given:environment:)``).
    public var id: String
    /// Where the id came from: `--run-id`, an environment variable's name, or `random`.
    public var source: String
    /// The SHA-256 of the catalogue (``CatalogueDigest``): case files, icons, the references'
    /// paths, `ENVIRONMENT.json`, the themes folder's token and font manifest files, and the
    /// resolved token values; each reference's bytes are in its entry's
    /// ``ReferenceResult/referenceDigests``.
    public var catalogueSHA256: String

    /// Creates an identity.
    public init(id: String, source: String, catalogueSHA256: String) {
      self.id = id
      self.source = source
      self.catalogueSHA256 = catalogueSHA256
    }

    /// The source of an id made up for one process (no option, no CI variable).
    public static let randomSource = "random"

    /// The environment variables read for a run id, in order: the tool's own, then those CI
    /// servers set to one value for every job of a pipeline run (GitHub Actions' `GITHUB_RUN_ID`,
    /// the same for the re-run of a job; GitLab's `CI_PIPELINE_ID`).
    public static let environmentVariables = ["OUDS_RUN_ID", "GITHUB_RUN_ID", "CI_PIPELINE_ID"]

    /// The longest run id accepted, in characters.
    public static let idLimit = SnapshotError.runIDLimit

    /// The run id and its source: `given` (`--run-id`), else the first of
    /// ``environmentVariables`` set to a non-empty value, else a random UUID (shards run without
    /// an id never merge with each other).
    /// - Throws: `SnapshotError.invalidRunID` for an id that is empty, too long or holds a
    ///   character other than a letter, digit, `.`, `_`, `-`, `:`, `+` or `/`.
    public static func resolve(given: String?, environment: [String: String]) throws(SnapshotError)
      -> (id: String, source: String)
    {
      if let given {
        try check(given, source: "--run-id")
        return (given, "--run-id")
      }
      for name in environmentVariables {
        if let value = environment[name], !value.isEmpty {
          try check(value, source: name)
          return (value, name)
        }
      }
      return (UUID().uuidString.lowercased(), randomSource)
    }

    /// Whether `id` is a run id this tool writes and reads.
    public static func isValid(_ id: String) -> Bool {
      !id.isEmpty && id.count <= idLimit
        && id.unicodeScalars.allSatisfy {
          $0.isASCII
            && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
              || "._-:+/".unicodeScalars.contains($0))
        }
    }

    private static func check(_ id: String, source: String) throws(SnapshotError) {
      guard isValid(id) else { throw .invalidRunID(id: id, source: source) }
    }
  }
}

/// The SHA-256 of what a verify run compares against, the same on every machine and shard that
/// has the same files, made without reading the catalogue's pictures: every file under the
/// snapshots folder but the references (cases, icons, `ENVIRONMENT.json`) by its SHA-256, each
/// reference file (the PNG and layout JSON of a reference of the catalogue) by its path only,
/// every file under the themes folder (tokens, font manifests) by its SHA-256, and the digest of
/// the resolved token values. A reference's bytes are held by the entry of the shard that compared
/// it (``ReferenceResult/referenceDigests``), which `snapshot merge` and `snapshot accept` check
/// against the files here (``changedReferences(_:snapshots:)``): so a quarter shard reads a quarter
/// of the pictures. Names starting with a dot (the record lock, temporary files, `.git`) are left
/// out; a file that cannot be read counts by its problem, so the digest is always made and two
/// runs that saw different files get different digests.
public enum CatalogueDigest {
  /// The most files counted in one folder; beyond it, the count itself goes into the digest.
  public static let fileLimit = 100_000

  /// The digest, lower-case hex. `references` holds the paths (relative to `snapshots`) of the
  /// catalogue's reference files, counted by path only.
  public static func sha256(
    snapshots: URL, themes: URL?, tokensSHA256: String?, references: Set<String>
  ) -> String {
    var text = "ouds-render catalogue 2\n"
    text += "tokens \(tokensSHA256 ?? "none")\n"
    text += listing(of: snapshots, label: "snapshots", pathOnly: references)
    if let themes { text += listing(of: themes, label: "themes", pathOnly: []) }
    return SHA256Digest.hex(of: Data(text.utf8))
  }

  /// The entries of `results` whose reference files here are not what the run read: the PNG or
  /// layout JSON edited, re-recorded, removed or recorded since; `<id> (<what>)` each, in the
  /// results' order. Reads each reference file of the results once (the whole selection's: merge
  /// and accept, not a shard, call it).
  public static func changedReferences(_ results: SnapshotRunResults, snapshots: URL) -> [String] {
    let kind = UserFileKind(name: "reference", maximumBytes: 256 << 20)
    var layouts: [String: String?] = [:]
    func digest(_ relative: String) -> String? {
      let path = snapshots.appendingPathComponent(relative).path
      guard UserFile.type(atPath: path) != nil else { return nil }
      return (try? SHA256Digest.hex(ofUserFile: path, kind: kind)) ?? "unreadable"
    }
    var changed: [String] = []
    // An error's reference was not read (unreadable, a link out): there is nothing to hold it
    // against, and accept never takes its render.
    for reference in results.references where reference.status != .error {
      let recorded = reference.referenceDigests
      let png = digest(reference.imagePath)
      // The scales of one variant share their layout file: hashed once.
      let layout: String?
      if let known = layouts[reference.layoutPath] {
        layout = known
      } else {
        layout = digest(reference.layoutPath)
        layouts[reference.layoutPath] = layout
      }
      var what: [String] = []
      if png != recorded.png {
        what.append(
          recorded.png == nil
            ? "PNG recorded since" : png == nil ? "PNG removed since" : "PNG changed since")
      }
      if layout != recorded.layout {
        what.append(
          recorded.layout == nil
            ? "layout recorded since"
            : layout == nil ? "layout removed since" : "layout changed since")
      }
      if !what.isEmpty { changed.append("\(reference.id) (\(what.joined(separator: ", ")))") }
    }
    return changed
  }

  /// The reference files of `catalogue`: each reference's PNG and layout JSON paths.
  public static func referencePaths(_ catalogue: SnapshotCatalogue) -> Set<String> {
    Set(catalogue.references.flatMap { [$0.imagePath, $0.layoutPath] })
  }

  /// One line per file under `folder`, sorted by path: `<label> <sha256 or problem> <path>`, or
  /// `<label> reference <path>` for a path of `pathOnly`.
  private static func listing(of folder: URL, label: String, pathOnly: Set<String>) -> String {
    let root = folder.standardizedFileURL
    let kind = UserFileKind(name: "catalogue file", maximumBytes: 256 << 20)
    var paths: [String] = []
    var pending = [""]
    var truncated = false
    while let relative = pending.popLast() {
      let url = relative.isEmpty ? root : root.appendingPathComponent(relative)
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
        continue
      }
      for name in names where !name.hasPrefix(".") {
        let path = relative.isEmpty ? name : relative + "/" + name
        // Folders are walked, not followed when they are links (a case file link is refused anyway).
        if UserFile.type(atPath: root.appendingPathComponent(path).path) == .directory,
          (try? FileManager.default.destinationOfSymbolicLink(
            atPath: root.appendingPathComponent(path).path)) == nil
        {
          pending.append(path)
        } else if paths.count < fileLimit {
          paths.append(path)
        } else {
          truncated = true
        }
      }
    }
    var text = ""
    for path in paths.sorted() {
      if pathOnly.contains(path) {
        text += "\(label) reference \(path)\n"
        continue
      }
      let file = root.appendingPathComponent(path).path
      let digest: String
      do {
        digest = try SHA256Digest.hex(ofUserFile: file, kind: kind)
      } catch {
        digest = "unreadable:\(error.reason)"
      }
      text += "\(label) \(digest) \(path)\n"
    }
    if truncated { text += "\(label) more than \(fileLimit) files\n" }
    return text
  }
}
