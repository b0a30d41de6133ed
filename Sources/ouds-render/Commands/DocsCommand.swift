import CLIKit

/// `ouds-render docs markdown|man`: prints the option reference made from the command tables, as
/// the Markdown of `docs/cli.md` or as the man page `ouds-render.1`.
enum DocsCommand {
  /// The formats the reference is printed in.
  static let formats = Choices(kind: "format", names: ["markdown", "man"])

  /// The command's table.
  static let spec = CommandSpec(
    name: "docs",
    abstract: "Print the option reference of every command (Markdown or a man page)",
    overview: """
      Print the reference of every command and option, made from the same tables as --help and \
      the completion scripts: as Markdown (docs/cli.md) or as a man page (ouds-render.1).
      """,
    arguments: [ArgumentSpec(name: "format", help: "the format", choices: formats)],
    argumentsInWords: "one format name",
    examples: [
      Example(command: "docs markdown > docs/cli.md", explanation: "the option reference page"),
      Example(
        command: "docs man | man -l -", explanation: "read the man page without installing it"),
    ],
    run: run)

  /// Prints the reference; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    if arguments.positionals.first == "man" {
      try writeOutput(Reference.manPage(root: CommandTree.root, version: CommandTree.version))
    } else {
      try writeOutput(Reference.markdown(root: CommandTree.root))
    }
    return ExitStatus.success
  }
}
