import CLIKit

/// `ouds-render completion bash|zsh|fish`: prints a shell completion script made from the command
/// tables.
enum CompletionCommand {
  /// The command's table.
  static let spec = CommandSpec(
    name: "completion",
    abstract: "Print a shell completion script (bash, zsh or fish)",
    overview: """
      Print a completion script for bash, zsh or fish: subcommands, options, the names an option \
      takes (themes, modes, formats…), folders and files.
      """,
    arguments: [ArgumentSpec(name: "shell", help: "the shell", choices: Vocabulary.shells)],
    argumentsInWords: "one shell name",
    examples: [
      Example(
        command: "completion bash > /etc/bash_completion.d/ouds-render",
        explanation: "bash, for every user (as root)"),
      Example(
        command: "completion bash > ~/.local/share/bash-completion/completions/ouds-render",
        explanation: "bash, for you (create the folder first)"),
      Example(
        command: "completion zsh > ~/.zfunc/_ouds-render",
        explanation: "zsh, with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc"),
      Example(
        command: "completion fish > ~/.config/fish/completions/ouds-render.fish",
        explanation: "fish"),
    ],
    run: run)

  /// Prints the script; returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let shell = Shell.allCases.first { $0.rawValue == arguments.positionals.first } ?? .bash
    try writeOutput(Completion.script(for: shell, root: CommandTree.root))
    return ExitStatus.success
  }
}
