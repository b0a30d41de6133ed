import Primitives
import SafeInput
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The GitHub-flavoured Markdown summary of a run, for a pull request (`$GITHUB_STEP_SUMMARY`, a
/// merge-request note): the counts; when anything failed, the environment difference, a table of
/// the failures (status, reference, reason, the command that accepts it) and one command that
/// accepts them all. When the tokens differ from the ones the references were recorded with, no
/// reference gets a command of its own (re-recording one cannot fix the others): the changed
/// references say so, and the one command that records them all again closes the summary. When
/// everything passes it is the line of counts alone.
///
/// Every text that comes from the input is escaped, so a message cannot break the table or add
/// markup; it holds no durations, so one run and the merge of its shards write the same file.
public enum MarkdownSummary {
  /// The document, ending with a newline.
  public static func document(_ results: SnapshotRunResults, commands: ReviewReport.Commands)
    -> String
  {
    let counts = SnapshotSummary.counts(results)
    // A tolerance that let changes through is said, whatever the verdict.
    let within = results.references.filter(\.isWithinTolerance)
    let withinBlock =
      within.isEmpty
      ? nil
      : within.map { "- \(code($0.id)): \(text(SnapshotSummary.withinTolerance($0)))" }
        .joined(separator: "\n")
    guard !results.succeeded else {
      return ([counts] + (withinBlock.map { [$0] } ?? [])).joined(separator: "\n\n") + "\n"
    }
    var blocks = ["**\(text(counts))**"]
    if let headline = results.environmentHeadline { blocks.append(text(headline)) }
    let failures = results.failures
    let tokensChanged = results.tokenDifference != nil
    if !failures.isEmpty || !results.caseErrors.isEmpty {
      var rows = ["| Status | Reference | Reason | Accept |", "|---|---|---|---|"]
      for caseError in results.caseErrors {
        let file = results.snapshots.map { JUnitXML.joinPath($0, caseError.file) } ?? caseError.file
        rows.append(
          "| error | \(code(caseError.id)) | \(text(caseError.message)) | fix \(code(file)) |")
      }
      // Unexplained failures first, each with its own command: no token, font or stack
      // difference of its own explains it, so accepting the others must not accept it.
      // One change seen in several references: one row, the change judged once.
      let changeGroups = results.changeGroups
      let grouped = Set(changeGroups.flatMap { $0.references.map(\.id) })
      for group in changeGroups {
        let shown = group.references.prefix(SnapshotSummary.EnvironmentRow.idsShown)
        let more =
          group.references.count > shown.count
          ? " and \(group.references.count - shown.count) more" : ""
        let ids = group.references.map(\.id).joined(separator: ",")
        let accept =
          "\(commands.acceptSelectedPrefix) --filter '\(ids.replacingEvery("'", with: "'\\''"))'"
        rows.append(
          "| changed | \(shown.map { code($0.id) }.joined(separator: ", "))\(text(more)) | \(text(group.headline)) | \(code(accept)) |"
        )
      }
      for reference in results.unexplainedFailures where !grouped.contains(reference.id) {
        let reason =
          reference.status == .changed && (tokensChanged || !results.environmentDifferences.isEmpty)
          ? "\(reference.reason) (not explained by the environment difference)" : reference.reason
        rows.append(
          "| \(reference.displayStatus) | \(code(reference.id)) | \(text(reason)) | \(code(commands.accept(reference))) |"
        )
      }
      // One row per cause for the explained ones, its first references named.
      for group in results.failureGroups {
        let shown = group.references.prefix(SnapshotSummary.EnvironmentRow.idsShown)
        let more =
          group.references.count > shown.count
          ? " and \(group.references.count - shown.count) more" : ""
        let accept = tokensChanged ? "with the tokens, below" : code(commands.acceptAll)
        rows.append(
          "| changed | \(shown.map { code($0.id) }.joined(separator: ", "))\(text(more)) | \(text(group.headline(results))) | \(accept) |"
        )
      }
      blocks.append(rows.joined(separator: "\n"))
    }
    if tokensChanged {
      blocks.append(
        failures.isEmpty
          ? "Every reference matches, but the tokens are not the ones the references were recorded with. Once reviewed, record again:"
          : "The tokens are not the ones the references were recorded with. Once the change is reviewed, record every reference again (from the repository root):"
      )
      blocks.append(fenced(commands.acceptAll, language: "sh"))
    } else if !failures.isEmpty {
      let ids = failures.map(\.id).joined(separator: ",")
      let command =
        "\(commands.acceptSelectedPrefix) --filter '\(ids.replacingEvery("'", with: "'\\''"))'"
      blocks.append("Accept every change above, after reviewing it (from the repository root):")
      blocks.append(fenced(command, language: "sh"))
    }
    if let acceptRun = commands.acceptRun, !failures.isEmpty {
      blocks.append(
        "Or take this run's own renders, made in its render stack: put its results folders in the root of your checkout (the CI templates publish them with the review page, as out/shard-*), then:"
      )
      blocks.append(fenced(acceptRun, language: "sh"))
    }
    if let withinBlock { blocks.append(withinBlock) }
    return blocks.joined(separator: "\n\n") + "\n"
  }

  /// `value` as Markdown text that shows as it is, on one line, also inside a table cell: control
  /// characters escaped, `&` and `<` (entities, HTML, autolinks) as entities, and behind a
  /// backslash only what GitHub's Markdown would read as markup there: `\\`, `` ` ``, `*`, `_`,
  /// `[`, `]` (no link or image can start without them), `|` (a cell's end), `~` (strikethrough),
  /// `$` (math); GitHub's extended autolinks are stopped by a backslash before the `:` of `…://`,
  /// the `.` of `www.` and every `@` (each shows as the character alone). Parentheses and the
  /// punctuation that is markup only at the start of a line (`#`, `+`, `>`, which no escaped text
  /// starts a line with) stay as they are, so the file also reads plainly in a CI log.
  static func text(_ value: String) -> String {
    var out = ""
    let characters = Array(MessageText.escaped(value))
    for (index, character) in characters.enumerated() {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case "\\", "`", "*", "_", "[", "]", "|", "~", "$", "@":
        out += "\\" + String(character)
      case ":" where characters[(index + 1)...].starts(with: "//"):
        out += "\\:"
      case "." where index >= 3 && String(characters[(index - 3)..<index]).lowercased() == "www":
        out += "\\."
      default: out.append(character)
      }
    }
    return out
  }

  /// `value` as an inline code span that survives a table cell: fenced with more backticks than
  /// it holds in a row, `|` written `\|` (which GitHub's tables read as a pipe inside code). The
  /// table splits cells before reading code spans, taking `\` plus any character as one escape,
  /// so a pipe after an odd run of backslashes gets one more backslash: the pipe stays escaped
  /// (the span then shows one backslash more than the value has, never a broken row).
  static func code(_ value: String) -> String {
    var line = ""
    var backslashes = 0
    for character in MessageText.escaped(value) {
      if character == "|" {
        line += backslashes % 2 == 1 ? "\\\\|" : "\\|"
      } else {
        line.append(character)
      }
      backslashes = character == "\\" ? backslashes + 1 : 0
    }
    let fence = String(repeating: "`", count: longestRun(of: "`", in: line) + 1)
    let pad = line.hasPrefix("`") || line.hasSuffix("`") ? " " : ""
    return fence + pad + line + pad + fence
  }

  /// A fenced code block holding `value`.
  static func fenced(_ value: String, language: String) -> String {
    let fence = String(repeating: "`", count: max(3, longestRun(of: "`", in: value) + 1))
    return "\(fence)\(language)\n\(MessageText.escaped(value))\n\(fence)"
  }

  private static func longestRun(of character: Character, in text: String) -> Int {
    var longest = 0
    var run = 0
    for c in text {
      run = c == character ? run + 1 : 0
      longest = max(longest, run)
    }
    return longest
  }
}
