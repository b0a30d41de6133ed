import Primitives
import SafeInput
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GitHub Actions workflow commands for a run's failures (`verify --annotations github`): one
/// `::error file=…,line=…,title=…::…` line per failing reference and broken case file (the
/// failures no token, font or stack difference explains before the explained ones), which a
/// workflow step's output turns into annotations on the pull request's files. GitLab reads the
/// JUnit file instead (`--junit`, `artifacts:reports:junit`).
public enum GitHubAnnotations {
  /// The most annotations written; GitHub shows 10 errors a step, the rest are counted.
  public static let limit = 50

  /// The lines, each ending with a newline, for `results` whose paths are relative to `root`.
  ///
  /// A reference's annotation is on its case file (`<snapshots>/cases/<case>.json`, `.md` or
  /// `.markdown`, the first that exists from `root`) at the line of its `variants` key (`"variants"`
  /// followed by `:`, not a label that says variants), else
  /// line 1; without a case file, on the reference PNG.
  public static func text(_ results: SnapshotRunResults, root: RepositoryRoot) -> String {
    var lines: [String] = []
    for caseError in results.caseErrors {
      let file = results.snapshots.map { JUnitXML.joinPath($0, caseError.file) } ?? caseError.file
      lines.append(
        command(file: file, line: 1, title: "broken case \(caseError.name)", [caseError.message]))
    }
    var located: [String: (file: String, line: Int)] = [:]
    // GitHub shows 10 annotations a step: the failures nothing explains come first.
    for reference in results.unexplainedFailures + results.failureGroups.flatMap(\.references) {
      let place =
        located[reference.caseName]
        ?? caseFile(reference.caseName, snapshots: results.snapshots, root: root)
        ?? (
          results.snapshots.map { JUnitXML.joinPath($0, reference.imagePath) }
            ?? reference.imagePath, 1
        )
      located[reference.caseName] = place
      var message = [reference.reason]
      if let detail = reference.message, detail != reference.reason { message.append(detail) }
      var title = "snapshot \(reference.displayStatus): \(reference.id)"
      if reference.isExplained {
        message.append("explained by: \(reference.explainedBy.joined(separator: ", "))")
        title += " (explained)"
      } else if reference.status == .changed,
        results.tokenDifference != nil || !results.environmentDifferences.isEmpty
      {
        message.append("not explained by the environment difference")
      }
      lines.append(command(file: place.file, line: place.line, title: title, message))
    }
    let shown = lines.prefix(limit)
    var text = shown.joined()
    if lines.count > limit {
      text +=
        "::warning title=more snapshot failures::\(lines.count - limit) more, see the summary\n"
    }
    return text
  }

  /// The case file of `name` relative to the root, and the line of its `variants` key (else 1).
  private static func caseFile(_ name: String, snapshots: String?, root: RepositoryRoot)
    -> (file: String, line: Int)?
  {
    guard let snapshots else { return nil }
    for fileExtension in ["json", "md", "markdown"] {
      let relative = JUnitXML.joinPath(snapshots, "cases/\(name).\(fileExtension)")
      let url =
        relative.hasPrefix("/")
        ? URL(fileURLWithPath: relative) : root.directory.appendingPathComponent(relative)
      guard UserFile.type(atPath: url.path) == .regular,
        let data = try? UserFile.read(url.path, kind: .list)
      else { continue }
      let text = String(decoding: data, as: UTF8.self)
      var line = 1
      for (index, content) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated() where content.firstMatch(of: #/"variants"\s*:/#) != nil
      {
        line = index + 1
        break
      }
      return (relative, line)
    }
    return nil
  }

  /// `::error file=F,line=L,title=T::M` with GitHub's escaping: `%`, CR and LF in the message;
  /// also `:` and `,` in the properties.
  static func command(file: String, line: Int, title: String, _ message: [String]) -> String {
    func data(_ text: String) -> String {
      text.replacingEvery("%", with: "%25").replacingEvery("\r", with: "%0D")
        .replacingEvery("\n", with: "%0A")
    }
    func property(_ text: String) -> String {
      data(text).replacingEvery(":", with: "%3A").replacingEvery(",", with: "%2C")
    }
    return
      "::error file=\(property(file)),line=\(line),title=\(property(title))::"
      + message.map { data(MessageText.escaped($0)) }.joined(separator: "%0A") + "\n"
  }
}
