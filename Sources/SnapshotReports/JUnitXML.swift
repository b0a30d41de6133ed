import Primitives
import SafeInput
import Snapshot

/// The JUnit XML form of a run, the format CI systems (GitHub, GitLab, Jenkins) display.
///
/// It follows the conventions of Jenkins' `junit-10.xsd` (the schema the xUnit plugin validates
/// with), plus the `file` attribute on `<testcase>` that GitLab shows: one `<testcase>` per
/// reference (`classname` = case, `name` = variant, `file` = the reference PNG relative to the
/// repository root), a `<failure>` or `<error>` whose `message` is one line, and the diff, actual
/// and expected images attached in `<system-out>` as `[[ATTACHMENT|path]]` lines (the Jenkins
/// JUnit Attachments plugin and GitLab's test reports show them). It holds no durations, so one
/// run and the merge of its shards write the same file.
public enum JUnitXML {
  /// The document of a run's report, paths as the run saw them: see ``document(_:suiteName:attachments:)-swift.type.method``.
  public static func document(_ report: SnapshotRunReport, suiteName: String = "ouds-snapshots")
    -> String
  {
    document(SnapshotRunResults(report, root: nil), suiteName: suiteName)
  }

  /// One `<testsuite>` with one `<testcase>` per reference, a failing `environment/tokens` case
  /// when the token digest differs, an `error` case per broken case file, and the `sources` line
  /// and the environment differences as properties.
  ///
  /// - Parameter attachments: the paths (relative to the repository root) of the images attached
  ///   to a failure, in the order diff, actual, expected.
  public static func document(
    _ results: SnapshotRunResults, suiteName: String = "ouds-snapshots",
    attachments: (ReferenceResult) -> [String] = { _ in [] }
  ) -> String {
    var text = ""
    write(results, suiteName: suiteName, attachments: attachments) { text += $0 }
    return text
  }

  /// Writes the document of ``document(_:suiteName:attachments:)-swift.type.method`` to `path`
  /// atomically, one test case at a time: the text of a run with many failures is never held
  /// whole.
  public static func write(
    _ results: SnapshotRunResults, suiteName: String = "ouds-snapshots",
    attachments: (ReferenceResult) -> [String] = { _ in [] }, to path: String,
    protecting inputs: InputFiles
  ) throws(FileWriteError) {
    try AtomicFile.write(to: path, createDirectories: true, protecting: inputs) {
      (stream: AtomicFile.Stream) throws(FileWriteError) in
      try write(results, suiteName: suiteName, attachments: attachments, emit: stream.write)
    }
  }

  /// Hands the document to `emit` in pieces: the suite's head, then each test case.
  private static func write<Failure: Error>(
    _ results: SnapshotRunResults, suiteName: String,
    attachments: (ReferenceResult) -> [String], emit: (String) throws(Failure) -> Void
  ) throws(Failure) {
    // A token difference fails the run: it is one more failing test case, so CI shows it.
    let tokenCase = results.tokenDifference == nil ? 0 : 1
    let failures = results.count(.changed) + results.count(.missing) + tokenCase
    let errors = results.count(.error) + results.caseErrors.count
    let skipped = results.count(.skipped)
    let tests = results.references.count + tokenCase + results.caseErrors.count
    let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\""
    func file(_ path: String) -> String {
      escape(results.snapshots.map { joinPath($0, path) } ?? path)
    }
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites name=\"\(escape(suiteName))\" \(counts)>\n"
    // The time of a suite is the sum of its test cases' (the shards of a merge ran apart).
    let time = String(cFormat: "%.3f", results.references.map(\.seconds).reduce(0, +))
    xml +=
      "  <testsuite name=\"\(escape(suiteName))\" \(counts) skipped=\"\(skipped)\" time=\"\(time)\">\n"
    var properties: [(String, String)] = []
    if let sources = results.sourcesSummary { properties.append(("sources", sources)) }
    if let tokens = results.tokenDifference { properties.append(("environment-tokens", tokens)) }
    for (index, line) in results.environmentDifferences.enumerated() {
      properties.append(("environment-difference-\(index + 1)", line))
    }
    if !properties.isEmpty {
      xml += "    <properties>\n"
      for (name, value) in properties {
        xml += "      <property name=\"\(name)\" value=\"\(escape(value))\"/>\n"
      }
      xml += "    </properties>\n"
    }
    if let tokens = results.tokenDifference {
      let message = "environment differs: " + tokens
      xml +=
        "    <testcase classname=\"environment\" name=\"tokens\" file=\"\(file(SnapshotEnvironment.fileName))\">\n"
      xml += "      <failure type=\"environment-differs\" message=\"\(escape(oneLine(message)))\">"
      xml += escape(results.sourcesSummary.map { $0 + "\n" } ?? "", attribute: false)
      xml += escape(message, attribute: false)
      xml += "</failure>\n    </testcase>\n"
    }
    for caseError in results.caseErrors {
      xml +=
        "    <testcase classname=\"\(escape(caseError.name))\" name=\"(case file)\" file=\"\(file(caseError.file))\">\n"
      xml += "      <error type=\"case-error\" message=\"\(escape(oneLine(caseError.message)))\">"
      xml += "\(escape(caseError.message, attribute: false))</error>\n"
      xml += "    </testcase>\n"
    }
    for reference in results.references {
      // Each test case is handed on as it is made.
      try emit(xml)
      xml = ""
      xml +=
        "    <testcase classname=\"\(escape(reference.caseName))\" name=\"\(escape(reference.variant))\""
      xml += " file=\"\(file(reference.imagePath))\""
      xml += " time=\"\(String(cFormat: "%.3f", reference.seconds))\""
      let element: String
      let type: String
      switch reference.status {
      case .passed, .recorded:
        // A pass within a tolerance says so (GitLab shows a test case's output).
        if reference.isWithinTolerance {
          xml += ">\n      <system-out>"
          xml += escape(SnapshotSummary.withinTolerance(reference), attribute: false)
          xml += "</system-out>\n    </testcase>\n"
        } else {
          xml += "/>\n"
        }
        continue
      case .skipped:
        xml +=
          ">\n      <skipped message=\"\(escape(oneLine(reference.reason)))\"/>\n    </testcase>\n"
        continue
      case .changed, .missing:
        element = "failure"
        type = reference.status == .missing ? "missing-reference" : "snapshot-changed"
      case .error:
        element = "error"
        type = "render-error"
      }
      xml +=
        ">\n      <\(element) type=\"\(type)\" message=\"\(escape(oneLine(reference.reason)))\">"
      xml += escape(details(reference, environment: results.environmentHeadline), attribute: false)
      xml += "</\(element)>\n"
      let attached = attachments(reference)
      if !attached.isEmpty {
        xml += "      <system-out>"
        xml += escape(attached.map { "[[ATTACHMENT|\($0)]]\n" }.joined(), attribute: false)
        xml += "</system-out>\n"
      }
      xml += "    </testcase>\n"
    }
    xml += "  </testsuite>\n</testsuites>\n"
    try emit(xml)
  }

  /// `folder/path`, or `path` alone when the folder is `.` or empty.
  public static func joinPath(_ folder: String, _ path: String) -> String {
    folder.isEmpty || folder == "."
      ? path : (folder.hasSuffix("/") ? folder + path : folder + "/" + path)
  }

  /// `text` on one line: line breaks and other control characters escaped.
  static func oneLine(_ text: String) -> String {
    MessageText.escaped(text)
  }

  /// The text of a failure: its own reason first. An explained change then names what explains it
  /// and the environment difference; an unexplained one says that the difference does not.
  private static func details(_ reference: ReferenceResult, environment: String?) -> String {
    var lines: [String] = ["\(reference.id): \(reference.reason)"]
    if reference.isExplained {
      lines.append("explained by: \(reference.explainedBy.joined(separator: ", "))")
      if let environment { lines.append(environment) }
    } else if environment != nil, reference.status == .changed {
      lines.append(
        "not explained by the environment difference: its list reads no token changed in \(reference.theme)/\(reference.mode), and its fonts and render stack are the references'"
      )
    }
    if let message = reference.message, !reference.reason.contains(message) {
      lines.append(message)
    }
    lines += reference.layoutDiff.prefix(SnapshotSummary.maxLayoutLines)
    if reference.layoutDiffCount > SnapshotSummary.maxLayoutLines {
      lines.append(
        "… \(reference.layoutDiffCount - SnapshotSummary.maxLayoutLines) more lines in layout.diff"
      )
    }
    return lines.joined(separator: "\n")
  }

  /// Escapes text for an XML attribute or element, dropping characters XML 1.0 forbids.
  public static func escape(_ text: String, attribute: Bool = true) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += attribute ? "&#10;" : "\n"
      case "\t": out += "&#9;"
      default:
        if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
