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
    /// The SHA-256 of the catalogue's content (``CatalogueDigest``): case files, references,
    /// `ENVIRONMENT.json`, the themes folder's token and font manifest files, and the resolved
    /// token values.
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
/// has the same files: every file under the snapshots folder (cases, reference PNGs and layout
/// JSON, `ENVIRONMENT.json`, icons), every file under the themes folder (tokens, font manifests),
/// and the digest of the resolved token values. Names starting with a dot (the record lock,
/// temporary files, `.git`) are left out. Each file counts by its path relative to its folder and
/// the SHA-256 of its bytes; a file that cannot be read counts by its problem, so the digest is
/// always made and two runs that saw different files get different digests.
public enum CatalogueDigest {
  /// The most files counted in one folder; beyond it, the count itself goes into the digest.
  public static let fileLimit = 100_000

  /// The digest, lower-case hex.
  public static func sha256(snapshots: URL, themes: URL?, tokensSHA256: String?) -> String {
    var text = "ouds-render catalogue 1\n"
    text += "tokens \(tokensSHA256 ?? "none")\n"
    text += listing(of: snapshots, label: "snapshots")
    if let themes { text += listing(of: themes, label: "themes") }
    return SHA256Digest.hex(of: Data(text.utf8))
  }

  /// One line per file under `folder`, sorted by path: `<label> <sha256 or problem> <path>`.
  private static func listing(of folder: URL, label: String) -> String {
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
