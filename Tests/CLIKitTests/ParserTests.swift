import Testing

@testable import CLIKit

/// A small command tree of its own: the parser, help, completions and references are tested on
/// it, not on ouds-render's commands (CLITests checks those and docs/cli.md).
enum Fixture {
  /// `--level 1|2|3`.
  static let level = OptionSpec(
    names: ["--level"], value: .integer(placeholder: "n", range: 1...3, default: 2),
    help: "how deep")
  /// `--colour red|green`.
  static let colour = OptionSpec(
    names: ["-c", "--colour"],
    value: .choice(Choices(kind: "colour", names: ["red", "green"]), default: "red"),
    help: "the colour")
  /// `--ratio <r>`, a number from 0 to 1.
  static let ratio = OptionSpec(
    names: ["--ratio"], value: .number(placeholder: "r", range: 0...1, default: nil),
    help: "a share")
  /// `--out <dir>`, required.
  static let out = OptionSpec(
    names: ["--out"], value: .text(placeholder: "dir", completion: .directory),
    help: "where to write", isRequired: true)
  /// `--even <n>`: a typed option whose parser refuses odd numbers.
  static let even = TypedOption<Int>(names: ["--even"], placeholder: "n", help: "an even number") {
    text throws(UsageError) in
    guard let number = Int(text), number % 2 == 0 else {
      throw UsageError("--even must be an even number, got \"\(text)\"")
    }
    return number
  }
  /// `--quiet`.
  static let quiet = OptionSpec(names: ["--quiet"], value: .flag, help: "say nothing")

  /// `tool draw <input.txt> --out <dir> [options]`.
  static let draw = CommandSpec(
    name: "draw", abstract: "Draw the input",
    arguments: [
      ArgumentSpec(name: "input.txt", help: "the input", completion: .file(extensions: ["txt"]))
    ],
    argumentsInWords: "one input file",
    options: [level, colour, ratio, out, even.spec, quiet],
    examples: [Example(command: "draw a.txt --out x", explanation: "draws a.txt into x")],
    run: { _ in 0 })
  /// The root.
  static let root = CommandSpec(
    name: "", abstract: "Tool that draws", overview: "Draws inputs.",
    subcommands: [draw, CommandSpec(name: "erase", abstract: "Erase", run: { _ in 0 })])

  /// The usage error `arguments` give `draw`, or nil when they parse.
  static func error(_ arguments: [String]) -> String? {
    do {
      _ = try ParsedArguments(arguments, spec: draw, command: "draw", tree: root)
      return nil
    } catch {
      return error.description
    }
  }
}

@Suite("The parser: typed values checked once, when the arguments are parsed")
struct ParserTests {
  @Test("values come back typed, with their defaults")
  func typedValues() throws {
    let parsed = try ParsedArguments(
      [
        "a.txt", "--out", "x", "--level=3", "-c", "GREEN", "--ratio", "0.25", "--even", "4",
        "--quiet",
      ],
      spec: Fixture.draw, command: "draw")
    #expect(parsed.positionals == ["a.txt"])
    #expect(parsed.integer(Fixture.level) == 3)
    #expect(parsed.choice(Fixture.colour) == "green")
    #expect(parsed.number(Fixture.ratio) == 0.25)
    #expect(parsed[Fixture.even] == 4)
    #expect(parsed.text(Fixture.even.spec) == "4")
    #expect(parsed.has(Fixture.quiet))
    let defaults = try ParsedArguments(
      ["a.txt", "--out", "x"], spec: Fixture.draw, command: "draw")
    #expect(defaults.integer(Fixture.level) == 2)
    #expect(defaults.choice(Fixture.colour) == "red")
    #expect(defaults[Fixture.even] == nil)
    #expect(!defaults.isGiven(Fixture.even.spec))
  }

  @Test(
    "every bad value is a usage error with its exact message",
    arguments: [
      (["a.txt", "--out", "x", "--even", "3"], "--even must be an even number, got \"3\""),
      (["a.txt", "--out", "x", "--level", "4"], "--level must be 1, 2 or 3, got \"4\""),
      (["a.txt", "--out", "x", "--level", "0x2"], "--level must be 1, 2 or 3, got \"0x2\""),
      (["a.txt", "--out", "x", "--ratio", "2"], "--ratio must be a number from 0 to 1, got \"2\""),
      (
        ["a.txt", "--out", "x", "-c", "blue"],
        "unknown colour \"blue\" (known: red, green)"
      ),
      (
        ["a.txt", "--out", "x", "--levle", "2"],
        "unknown option --levle for 'ouds-render draw'; did you mean --level?"
      ),
      (["a.txt"], "missing --out <dir>"),
      (["a.txt", "--out"], "--out needs a value"),
      (["a.txt", "--out", ""], "--out needs a folder name, got an empty one"),
      (["a.txt", "b.txt", "--out", "x"], "expected one input file, got 2: unexpected \"b.txt\""),
      (["--out", "x"], "missing <input.txt>"),
      (["a.txt", "--out", "x", "--quiet=yes"], "--quiet takes no value"),
    ])
  func usageErrors(arguments: [String], message: String) {
    #expect(Fixture.error(arguments) == message)
  }

  @Test("the typed option's parser runs once per value given, and the last value wins")
  func lastWins() throws {
    let parsed = try ParsedArguments(
      ["a.txt", "--out", "x", "--even", "2", "--even=8"], spec: Fixture.draw, command: "draw")
    #expect(parsed[Fixture.even] == 8)
    // an earlier bad value is refused even when a later one is good
    #expect(
      Fixture.error(["a.txt", "--out", "x", "--even", "1", "--even", "2"])
        == "--even must be an even number, got \"1\"")
  }

  @Test("help wins over bad values; `--` ends the options; `-` is an argument")
  func conventions() throws {
    let help = try ParsedArguments(["--even", "1", "--help"], spec: Fixture.draw, command: "draw")
    #expect(help.helpRequested)
    let ended = try ParsedArguments(
      ["--out", "x", "--", "-a.txt"], spec: Fixture.draw, command: "draw")
    #expect(ended.positionals == ["-a.txt"])
    #expect(
      try ParsedArguments(["-", "--out", "x"], spec: Fixture.draw, command: "draw").positionals == [
        "-"
      ])
  }

  @Test("an option of another command is named as such")
  func otherCommandsOption() {
    let erase = Fixture.root.subcommands[1]
    do {
      _ = try ParsedArguments(["--level", "2"], spec: erase, command: "erase", tree: Fixture.root)
      Issue.record("--level parsed for erase")
    } catch {
      #expect(
        error.description
          == "unknown option --level for 'ouds-render erase' (it is an option of draw)")
    }
  }

  @Test("edit distance: insertions, deletions, substitutions and swaps")
  func distance() {
    #expect(Suggestion.distance(Array("ornage"), Array("orange")) == 1)
    #expect(Suggestion.distance(Array("kitten"), Array("sitting")) == 3)
    #expect(Suggestion.distance(Array(""), Array("abc")) == 3)
    #expect(Suggestion.distance(Array("same"), Array("same")) == 0)
    #expect(Suggestion.closest(to: "xyz", among: ["render", "sheet"]) == nil)
    #expect(Suggestion.closest(to: "snap", among: ["render", "snapshot"]) == "snapshot")
    #expect(Suggestion.closest(to: String(repeating: "a", count: 100), among: ["a"]) == nil)
  }
}

@Suite("Help, completions and references are generated from the tables")
struct GeneratedTextTests {
  @Test("--help: usage, arguments, options with ranges and defaults, examples")
  func help() {
    let text = HelpText.text(for: Fixture.draw, path: ["draw"])
    #expect(
      text.hasPrefix(
        "OVERVIEW: Draw the input\n\nUSAGE: ouds-render draw <input.txt> --out <dir> [options]\n"))
    #expect(text.contains("\n  --level 1|2|3           how deep (default: 2)\n"))
    #expect(text.contains("\n  -c, --colour red|green  the colour (default: red)\n"))
    #expect(text.contains("\n  --ratio <r>             a share (0 to 1)\n"))
    #expect(text.contains("\n  --out <dir>             where to write (required)\n"))
    #expect(text.contains("\n  --even <n>              an even number\n"))
    #expect(text.contains("\n  -h, --help              show this help\n"))
    #expect(text.hasSuffix("EXAMPLES:\n  # draws a.txt into x\n  ouds-render draw a.txt --out x\n"))
  }

  @Test("completions offer the subcommands, options, choices and file extensions")
  func completions() {
    let bash = Completion.script(for: .bash, root: Fixture.root)
    for word in ["draw", "erase", "--level", "--colour", "--even", "red green"] {
      #expect(bash.contains(word), "bash: \(word)")
    }
    let zsh = Completion.script(for: .zsh, root: Fixture.root)
    #expect(zsh.contains("_ouds_render_draw"))
    #expect(zsh.contains("*.txt"))
    let fish = Completion.script(for: .fish, root: Fixture.root)
    #expect(fish.contains("-l colour"))
    #expect(fish.contains("red green"))
  }

  @Test("the man page escapes dashes and names every visible option")
  func manPage() {
    let page = Reference.manPage(root: Fixture.root, version: "9.9")
    #expect(page.hasPrefix(".TH OUDS-RENDER 1 \"\" \"ouds-render 9.9\" \"User Commands\"\n"))
    #expect(page.contains(".SH OUDS\\-RENDER DRAW\n"))
    #expect(page.contains(".B \\-c, \\-\\-colour red|green\n"))
    #expect(page.contains(".B \\-\\-even <n>\n"))
  }

  @Test("the Markdown reference has a section per command and a row per option")
  func markdown() {
    let text = Reference.markdown(root: Fixture.root)
    #expect(text.contains("\n## ouds-render draw\n"))
    #expect(text.contains("\n## ouds-render erase\n"))
    #expect(text.contains("| `-c, --colour"))
    #expect(text.contains("| `<input.txt>` | the input |"))
  }
}
