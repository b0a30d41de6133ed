import CLIKit
import Graphics
import SafeInput

/// Finds the command the arguments name in the tree of ``CommandSpec``s, parses its arguments
/// against its table, prints its help or runs it, and turns errors into messages and exit codes.
enum Dispatcher {
  /// Runs the command `arguments` (those after `ouds-render`) name under `root`; returns the exit
  /// status.
  static func run(_ arguments: [String], root: CommandSpec) -> Int32 {
    var spec = root
    var path: [String] = []
    var rest = arguments[...]
    while !spec.subcommands.isEmpty, let word = rest.first, !word.hasPrefix("-") || word == "-" {
      if word == "help" {
        return help(Array(rest.dropFirst()), from: spec, path: path)
      }
      guard let subcommand = spec.subcommand(word) else {
        return unknownSubcommand(word, of: spec, path: path)
      }
      spec = subcommand
      path.append(word)
      rest = rest.dropFirst()
    }
    let command = path.joined(separator: " ")
    // a command that draws starts loading the drawing libraries before it parses its options
    if spec.draws, !rest.contains(where: { OptionSpec.help.names.contains($0) }) {
      GraphicsLibraries.preload()
    }
    if rest.isEmpty, !spec.subcommands.isEmpty {
      printError("error: missing subcommand (\(subcommandList(spec)))")
      writeErrorText(HelpText.text(for: spec, path: path))
      return ExitStatus.usage
    }
    return runReportingErrors(command: command) {
      let parsed = try ParsedArguments(
        Array(rest), spec: spec, command: command, tree: root)
      if parsed.helpRequested {
        try writeOutput(HelpText.text(for: spec, path: path))
        return ExitStatus.success
      }
      guard let run = spec.run else {
        throw UsageError("missing subcommand (\(subcommandList(spec)))")
      }
      return try run(parsed)
    }
  }

  /// `ouds-render [group] help [subcommand…]`: the help of the subcommand the words name.
  private static func help(_ words: [String], from group: CommandSpec, path: [String]) -> Int32 {
    var spec = group
    var path = path
    for word in words {
      guard let subcommand = spec.subcommand(word) else {
        return unknownSubcommand(word, of: spec, path: path)
      }
      spec = subcommand
      path.append(word)
    }
    return runReportingErrors(command: path.joined(separator: " ")) {
      try writeOutput(HelpText.text(for: spec, path: path))
      return ExitStatus.success
    }
  }

  private static func unknownSubcommand(_ word: String, of group: CommandSpec, path: [String])
    -> Int32
  {
    let command = path.joined(separator: " ")
    let names = group.subcommands.map(\.name)
    printError(
      "error: unknown subcommand \(MessageText.quoted(word)) for '\(ParsedArguments.commandLine(command))'"
        + " (expected \(subcommandList(group)))" + Suggestion.clause(for: word, among: names))
    printError("See '\(ParsedArguments.commandLine(command)) --help'.")
    return ExitStatus.usage
  }

  /// `verify, record, prune or list`.
  private static func subcommandList(_ group: CommandSpec) -> String {
    HelpText.words(group.subcommands.map(\.name), joinedBy: "or")
  }
}
