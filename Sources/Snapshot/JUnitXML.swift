import Foundation

/// The JUnit XML form of a run, the format CI systems (GitHub, GitLab, Jenkins) display.
public enum JUnitXML {
  /// One `<testsuite>` with one `<testcase>` per reference (`classname` = case, `name` = variant),
  /// a failing `environment/tokens` case when the token digest differs, and the `sources` line as a property.
  public static func document(_ report: SnapshotRunReport, suiteName: String = "ouds-snapshots") -> String {
    // A token difference fails the run: it is one more failing test case, so CI shows it.
    let tokenCase = report.tokenDifference == nil ? 0 : 1
    let failures = report.count(.changed) + report.count(.missing) + tokenCase
    let errors = report.count(.error) + report.caseErrors.count
    let skipped = report.count(.skipped)
    let tests = report.outcomes.count + tokenCase + report.caseErrors.count
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(time(report.seconds))\">\n"
    xml += "  <testsuite name=\"\(escape(suiteName))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time(report.seconds))\">\n"
    var properties: [(String, String)] = []
    if let sources = report.sources { properties.append(("sources", sources)) }
    if let tokens = report.tokenDifference { properties.append(("environment-tokens", tokens)) }
    for (index, line) in report.environmentDifferences.enumerated() {
      properties.append(("environment-difference-\(index + 1)", line))
    }
    if !properties.isEmpty {
      xml += "    <properties>\n"
      for (name, value) in properties {
        xml += "      <property name=\"\(name)\" value=\"\(escape(value))\"/>\n"
      }
      xml += "    </properties>\n"
    }
    if let tokens = report.tokenDifference {
      xml += "    <testcase classname=\"environment\" name=\"tokens\" file=\"\(SnapshotEnvironment.fileName)\" time=\"0.000\">\n"
      xml += "      <failure type=\"environment-differs\" message=\"\(escape("environment differs: " + tokens))\">"
      xml += escape(report.sources.map { $0 + "\n" } ?? "", attribute: false)
      xml += escape("environment differs: " + tokens, attribute: false)
      xml += "</failure>\n    </testcase>\n"
    }
    for caseError in report.caseErrors {
      xml += "    <testcase classname=\"\(escape(caseError.name))\" name=\"(case file)\" file=\"\(escape(caseError.file))\" time=\"0.000\">\n"
      xml += "      <error type=\"case-error\" message=\"\(escape(caseError.message))\">\(escape(caseError.message, attribute: false))</error>\n"
      xml += "    </testcase>\n"
    }
    for outcome in report.outcomes {
      let reference = outcome.reference
      xml += "    <testcase classname=\"\(escape(reference.caseName))\" name=\"\(escape(reference.variant.name))\" file=\"\(escape(reference.imagePath))\" time=\"\(time(outcome.seconds))\""
      switch outcome.status {
      case .passed, .recorded:
        xml += "/>\n"
      case .skipped:
        xml += ">\n      <skipped message=\"\(escape(outcome.reason))\"/>\n    </testcase>\n"
      case .changed, .missing:
        let type = outcome.status == .missing ? "missing-reference" : "snapshot-changed"
        xml += ">\n      <failure type=\"\(type)\" message=\"\(escape(outcome.reason))\">"
        xml += escape(details(outcome, environment: report.environmentHeadline), attribute: false)
        xml += "</failure>\n    </testcase>\n"
      case .error:
        xml += ">\n      <error type=\"render-error\" message=\"\(escape(outcome.reason))\">"
        xml += escape(details(outcome, environment: report.environmentHeadline), attribute: false)
        xml += "</error>\n    </testcase>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  private static func details(_ outcome: SnapshotOutcome, environment: String?) -> String {
    var lines: [String] = []
    if let environment { lines.append(environment) }
    lines.append("\(outcome.reference.id): \(outcome.reason)")
    lines.append("artifacts: \(SnapshotArtifacts.folder(for: outcome.reference))/")
    lines += outcome.layoutDiff.prefix(SnapshotSummary.maxLayoutLines)
    return lines.joined(separator: "\n")
  }

  private static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

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
