import SafeInput

/// Finds the command the arguments name in the tree of ``CommandSpec``s, parses its arguments
/// against its table, prints its help or runs it, and turns errors into messages and exit codes.
public struct Dispatcher {
  /// The tree of commands.
  public let root: CommandSpec
  /// Writes one line to standard error (the program's own: escaped, coloured on a terminal).
  public let printError: (String) -> Void
  /// Called once the command is found, before its arguments are parsed, for a command that
  /// ``CommandSpec/draws`` (unless its help is asked): the program starts loading its drawing
  /// libraries then.
  public let willDraw: () -> Void

  /// Creates a dispatcher over the tree `root`.
  public init(
    root: CommandSpec, printError: @escaping (String) -> Void,
    willDraw: @escaping () -> Void = {}
  ) {
    self.root = root
    self.printError = printError
    self.willDraw = willDraw
  }

  /// Runs the command `arguments` (those after the program's name) name under ``root``; returns
  /// the exit status.
  public func run(_ arguments: [String]) -> Int32 {
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
      willDraw()
    }
    if rest.isEmpty, !spec.subcommands.isEmpty {
      printError("error: missing subcommand (\(subcommandList(spec)))")
      writeErrorText(HelpText.text(for: spec, path: path))
      return ExitStatus.usage
    }
    return runReportingErrors(command: command, printError: printError) {
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
  private func help(_ words: [String], from group: CommandSpec, path: [String]) -> Int32 {
    var spec = group
    var path = path
    for word in words {
      guard let subcommand = spec.subcommand(word) else {
        return unknownSubcommand(word, of: spec, path: path)
      }
      spec = subcommand
      path.append(word)
    }
    return runReportingErrors(command: path.joined(separator: " "), printError: printError) {
      try writeOutput(HelpText.text(for: spec, path: path))
      return ExitStatus.success
    }
  }

  private func unknownSubcommand(_ word: String, of group: CommandSpec, path: [String])
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
  private func subcommandList(_ group: CommandSpec) -> String {
    HelpText.words(group.subcommands.map(\.name), joinedBy: "or")
  }
}

/// Exit codes of every subcommand.
public enum ExitStatus {
  /// Success.
  public static let success: Int32 = 0
  /// Bad input, a failed render, or differences found.
  public static let failure: Int32 = 1
  /// A usage mistake on the command line.
  public static let usage: Int32 = 2
}

/// Runs a command body, mapping errors to messages (through `printError`) and exit codes: a
/// ``UsageError`` is followed by a pointer to the command's `--help` and exits 2, any other error
/// exits 1.
public func runReportingErrors(
  command: String, printError: (String) -> Void, _ body: () throws -> Int32
) -> Int32 {
  do {
    return try body()
  } catch let error as UsageError {
    printError("error: \(error)")
    printError("See '\(ParsedArguments.commandLine(command)) --help'.")
    return ExitStatus.usage
  } catch {
    printError("error: \(error)")
    return ExitStatus.failure
  }
}
