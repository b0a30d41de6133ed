import Primitives

/// The option reference of the whole command line, generated from the command tables like
/// ``HelpText`` and ``Completion``: as Markdown (`docs/cli.md`, which a test keeps equal to this
/// output) and as a man page (`ouds-render.1`, for packages).
public enum Reference {
  /// Every command of `root` that runs or groups others, depth first, with the words that reach
  /// it (empty for the root).
  public static func commands(of root: CommandSpec) -> [(path: [String], spec: CommandSpec)] {
    var found: [(path: [String], spec: CommandSpec)] = []
    func visit(_ spec: CommandSpec, _ path: [String]) {
      found.append((path, spec))
      for subcommand in spec.subcommands { visit(subcommand, path + [subcommand.name]) }
    }
    visit(root, [])
    return found
  }

  /// The reference as Markdown: one section per command with its usage, arguments, options
  /// (values, ranges, defaults) and examples.
  public static func markdown(root: CommandSpec) -> String {
    var text = """
      # Option reference

      Generated from the command tables by `ouds-render docs markdown > docs/cli.md` (the same
      tables make `--help` and the completion scripts); a test fails when this file is not what the
      command prints. Commands in depth, with examples: [commands.md](commands.md).

      """
    let all = commands(of: root)
    text += "\n" + all.map { "- [\(title($0.path))](#\(anchor($0.path)))" }.joined(separator: "\n")
    text += "\n"
    for (path, spec) in all {
      text += "\n## \(title(path))\n\n"
      text += escape(spec.overview.isEmpty ? spec.abstract : spec.overview) + "\n\n"
      text += "```\n" + HelpText.usage(for: spec, path: path) + "\n```\n"
      if !spec.arguments.isEmpty {
        text += "\n| argument | meaning |\n|---|---|\n"
        for argument in spec.arguments {
          var help = argument.help
          if let choices = argument.choices {
            help += ": " + HelpText.words(choices.accepted.map { "`\($0)`" }, joinedBy: "or")
          }
          text += "| `\(escape(argument.usage))` | \(escape(help)) |\n"
        }
      }
      if !spec.subcommands.isEmpty {
        text += "\n| subcommand | what it does |\n|---|---|\n"
        for subcommand in spec.subcommands {
          text += "| [`\(subcommand.name)`](#\(anchor(path + [subcommand.name]))) | "
          text += escape(subcommand.abstract) + " |\n"
        }
      }
      let options = spec.allOptions.filter { !$0.isHidden }
      text += "\n| option | meaning |\n|---|---|\n"
      for option in options {
        text +=
          "| `\(escape(HelpText.column(for: option)))` | \(escape(HelpText.help(for: option))) |\n"
      }
      if !spec.examples.isEmpty {
        text += "\nExamples:\n\n```sh\n"
        for example in spec.examples {
          text += "ouds-render \(example.command)   # \(example.explanation)\n"
        }
        text += "```\n"
      }
    }
    return text
  }

  /// The reference as a man page (section 1, `man` macros).
  public static func manPage(root: CommandSpec, version: String) -> String {
    var text = """
      .TH OUDS-RENDER 1 "" "ouds-render \(version)" "User Commands"
      .SH NAME
      ouds-render \\- \(roff(root.abstract.lowercasedFirst))
      .SH SYNOPSIS
      .B ouds-render
      .I subcommand
      [\\fIoptions\\fR]
      .SH DESCRIPTION
      \(roff(root.overview))
      .PP
      Exit status: 0 on success, 1 on an input, render or comparison failure, 2 on a usage error.

      """
    for (path, spec) in commands(of: root) where !path.isEmpty {
      text += ".SH \(roff(title(path).uppercased()))\n"
      text += roff(spec.overview.isEmpty ? spec.abstract : spec.overview) + "\n"
      text += ".PP\n.B \(roff(HelpText.usage(for: spec, path: path)))\n"
      for argument in spec.arguments {
        text += ".TP\n.I \(roff(argument.usage))\n\(roff(argument.help))\n"
      }
      for option in spec.allOptions where !option.isHidden {
        text +=
          ".TP\n.B \(roff(HelpText.column(for: option)))\n\(roff(HelpText.help(for: option)))\n"
      }
      for example in spec.examples {
        text +=
          ".PP\n\(roff(example.explanation)):\n.RS\n.B ouds-render \(roff(example.command))\n.RE\n"
      }
    }
    text +=
      ".SH SEE ALSO\nThe documents in /usr/share/doc/ouds-render and `ouds-render <subcommand> --help`.\n"
    return text
  }

  /// `ouds-render snapshot verify`.
  private static func title(_ path: [String]) -> String {
    (["ouds-render"] + path).joined(separator: " ")
  }

  /// The anchor GitHub makes of ``title(_:)``: `ouds-render-snapshot-verify`.
  private static func anchor(_ path: [String]) -> String {
    (["ouds-render"] + path).joined(separator: "-")
  }

  /// Text for a Markdown table cell: `|` escaped, lines joined.
  private static func escape(_ text: String) -> String {
    text.replacingEvery("\n", with: " ").replacingEvery("|", with: "\\|")
  }

  /// Text for a roff line: backslashes and leading dots or quotes made literal, lines joined.
  private static func roff(_ text: String) -> String {
    var line = text.replacingEvery("\\", with: "\\e").replacingEvery("\n", with: " ")
    line = line.replacingEvery("-", with: "\\-")
    if line.hasPrefix(".") || line.hasPrefix("'") { line = "\\&" + line }
    return line
  }
}

extension String {
  /// The string with its first character lower-cased: `render …` from `Render …`.
  fileprivate var lowercasedFirst: String {
    guard let first else { return self }
    return first.lowercased() + dropFirst()
  }
}
