import BulletListRenderer
import CLIKit
import Workbench

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render audit`: the accessibility audit of a list in every theme and mode.
enum AuditCommand {
  /// `--strict`: exit 1 when a check fails.
  static let strict = FlagOption(
    names: ["--strict"],
    help: "exit 1 when any check fails (without it, exit 0 and say how many failed)")
  /// `--json`: one JSON document instead of the tables.
  static let json = FlagOption(
    names: ["--json"], help: "print one stable JSON document instead of the tables")

  /// The command's table.
  static let spec = CommandSpec(
    name: "audit",
    abstract: "Check contrast, links, italic and screen-reader text in every theme and mode",
    overview: """
      Audit a list's accessibility in every theme and mode: the WCAG 2.2 contrast of every text \
      colour (label, ordered prefix, link) and marker colour (bullet, tick, icon tint, branded or \
      not) against color.bg.primary, links against the text around them, italic in a brand that \
      forbids it, and the screen-reader text of every row in reading order.
      """,
    arguments: [ListOptions.listArgument],
    argumentsInWords: "one list file",
    discussion: """
      Text needs 4.5:1, large text (24 px, or 18.66 px in bold) 3:1 (WCAG 1.4.3); bullets, ticks
      and icons 3:1 (1.4.11). Text that cannot be seen fails: text under 6 px (its lowercase
      letters under 3 pixels tall at scale 1), and text in the background's colour (1:1). A
      translucent colour is composited over the background first; ratios are shown rounded down.
      Links are underlined and bold, so WCAG 1.4.1 does not ask 3:1 between links and text (the
      ratio is shown). Each colour names its token and the file that defines it, then each alias
      with its file. The screen-reader text follows VoiceOver's rules in the list's locale
      (English, French, Arabic). Prints a table per theme, mode and platform on stdout, or with
      --json one JSON document; exit status 0 even when checks fail (stderr says how many), 1 with
      --strict.
      """,
    options: [strict.spec, json.spec]
      + [
        ListOptions.inputFormat, ListOptions.variant, ListOptions.theme, ListOptions.mode,
        ListOptions.locale.spec,
        ListOptions.direction,
        ListOptions.textStyle, ListOptions.platform, ListOptions.fontScale,
        ListOptions.contentSize, ListOptions.fontDirectory.spec,
        ListOptions.themesDirectory.spec, ListOptions.verbose.spec,
      ].map { option in
        option == ListOptions.theme || option == ListOptions.mode
          ? option.defaulting(to: Vocabulary.all) : option
      },
    footer: ListOptions.sourcesFooter,
    examples: [
      Example(command: "audit list.json", explanation: "every theme and mode, as tables"),
      Example(
        command: "audit list.json --themes my-themes --strict",
        explanation: "fail (exit 1) when an edited token breaks a contrast"),
      Example(
        command: "audit list.json --theme sosh --mode dark --json",
        explanation: "one JSON document for Sosh in dark mode"),
    ],
    draws: true,
    run: run)

  /// Audits the list and prints the report; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let job = try ListJob(arguments: arguments)
    let sources = try job.sourcesLine()
    let report = try job.attributingErrors {
      try job.renderer.auditReport(
        job.document.list, listName: URL(fileURLWithPath: job.listPath).lastPathComponent,
        combinations: job.combinations, platforms: job.platforms, options: job.options)
    }
    try writeOutput(arguments.has(json) ? try report.json() : report.text)
    printError(sources)
    printWarnings(report.warnings)
    let failures = report.failures.count
    guard failures > 0 else { return ExitStatus.success }
    if arguments.has(strict) {
      printError("audit: \(counted(failures)) (--strict: exit 1)")
      return ExitStatus.failure
    }
    printError(
      "audit: \(counted(failures)); exit 0 without --strict (add --strict to fail on them)")
    return ExitStatus.success
  }

  /// `3 accessibility checks failed`.
  static func counted(_ failures: Int) -> String {
    "\(failures) accessibility check\(failures == 1 ? "" : "s") failed"
  }
}
