import Primitives

/// The declarative description of the command line: one ``CommandSpec`` per command, each with
/// its options, arguments and examples. The parser (``ParsedArguments``), the `--help` text
/// (``HelpText``) and the shell completions (``Completion``) are all generated from these tables,
/// so they cannot drift apart (swift-argument-parser's key property, without the dependency).

/// A closed set of names an option or argument takes (themes, modes, formats, shells…).
///
/// Names are matched with the value types' one leniency rule (``Primitives/NamedValue/parse(_:)``):
/// case, spaces, `-` and `_` do not count, so `Orange_Compact` names `orange-compact` and `Dark`
/// names `dark`. ``extra`` holds words that are not names of the kind but are accepted too (`all`).
struct Choices: Sendable, Hashable {
  /// What the names are called in a message: `theme` in `unknown theme "pink"`.
  var kind: String
  /// The names, in the order help and completions list them.
  var names: [String]
  /// Further accepted words, such as `all`.
  var extra: [String] = []

  /// Every accepted word: the names, then the extra words.
  var accepted: [String] { names + extra }

  /// This set of names, also accepting `all`.
  var orAll: Choices { Choices(kind: kind, names: names, extra: extra + [Vocabulary.all]) }

  /// The accepted word `text` names (as spelled in ``accepted``), or nil.
  func match(_ text: String) -> String? {
    if accepted.contains(text) { return text }
    let key = Self.normalized(text)
    return accepted.first { Self.normalized($0) == key }
  }

  /// `text` lower-cased, without white space, `-` and `_`: the one leniency rule for names.
  static func normalized(_ text: String) -> String { NameKey.normalized(text) }
}

/// What a shell may offer for a value: nothing, files (optionally of some extensions), folders.
enum ValueCompletion: Sendable, Hashable {
  /// Free text: no completion.
  case none
  /// Any file or folder name; `extensions` (without dots) narrows the files offered.
  case file(extensions: [String])
  /// A folder name.
  case directory
}

/// What follows an option on the command line, how it is checked, and its typed default.
enum OptionValue: Sendable, Hashable {
  /// Nothing: the option is a flag.
  case flag
  /// Free text shown as `<placeholder>`; a path when `completion` is a file or a folder (then an
  /// empty value is refused).
  case text(placeholder: String, completion: ValueCompletion)
  /// One of `choices` (see ``Choices/match(_:)``), with an optional default.
  case choice(Choices, default: String?)
  /// A whole decimal number in `range` (no sign `+`, hexadecimal or exponent).
  case integer(placeholder: String, range: ClosedRange<Int>, default: Int?)
  /// A decimal number in `range` (no sign `+`, hexadecimal or exponent).
  case number(placeholder: String, range: ClosedRange<Double>, default: Double?)
  /// One or more decimal numbers in `range`, separated by commas (`1,1.5,2`).
  case numberList(placeholder: String, range: ClosedRange<Double>)
  /// One or more of `choices`, separated by commas (`large,accessibility5`).
  case choiceList(Choices)

  /// Whether the option takes a value.
  var takesValue: Bool {
    if case .flag = self { return false }
    return true
  }
}

/// One option of a command: its names, its value, its help line.
struct OptionSpec: Sendable, Hashable {
  /// The names, short first: `["-o", "--output"]`.
  ///
  /// Messages use the first, values are stored under the last (``key``).
  var names: [String]
  /// What follows the option.
  var value: OptionValue
  /// The help line (one sentence, no final period); choices, ranges and defaults are appended
  /// from ``value`` and ``defaultDescription``.
  var help: String
  /// A default said in words when it is not a plain value (`the list's "platform", else ios`).
  var defaultDescription: String? = nil
  /// Whether the command needs this option.
  var isRequired = false
  /// Parsed (so that the command can give a specific message) but neither in the help nor in
  /// the completions.
  var isHidden = false

  /// The name values are stored under: the last (long) name.
  var key: String { names.last ?? "" }
  /// The name used in messages: the first.
  var messageName: String { names.first ?? "" }

  /// `-h, --help`, which every command takes.
  static let help = OptionSpec(names: ["-h", "--help"], value: .flag, help: "show this help")

  /// The same option with its value shown as `<placeholder>` and another help line.
  func describing(_ placeholder: String, help: String) -> OptionSpec {
    var copy = self
    if case .text(_, let completion) = value {
      copy.value = .text(placeholder: placeholder, completion: completion)
    }
    copy.help = help
    return copy
  }

  /// The same option with another default (for commands that share an option but not its default).
  func defaulting(to text: String) -> OptionSpec {
    var copy = self
    switch value {
    case .choice(let choices, _): copy.value = .choice(choices, default: text)
    default: copy.defaultDescription = text
    }
    return copy
  }
}

/// A positional argument: `<list.json>`.
struct ArgumentSpec: Sendable, Hashable {
  /// The name shown in angle brackets: `list.json`.
  var name: String
  /// The help line.
  var help: String
  /// What a shell offers for it.
  var completion: ValueCompletion = .none
  /// The words it takes, when it is one of a closed set (`bash`, `zsh`, `fish`).
  var choices: Choices? = nil
  /// Whether it takes one or more words (`<dir>...`); only the last argument may.
  var isVariadic = false
  /// Whether the argument may be left out (the last one only); the command then uses its default.
  var isOptional = false

  /// `<name>`, or `<name>...` for a variadic argument.
  var usage: String {
    let word = "<\(name)>" + (isVariadic ? "..." : "")
    return isOptional ? "[\(word)]" : word
  }
}

/// An example shown at the end of `--help`: a command line and what it does.
struct Example: Sendable, Hashable {
  /// The arguments after `ouds-render`, as typed in a shell.
  var command: String
  /// What it does, one line.
  var explanation: String
}

/// One command or group of commands: what `--help` says, what the parser accepts, what a shell
/// completes, and what runs.
struct CommandSpec: Sendable {
  /// The word that selects it (`render`; `verify` under `snapshot`).
  var name: String
  /// One line, for the parent's list of subcommands.
  var abstract: String
  /// The OVERVIEW paragraph of `--help`; the abstract when empty.
  var overview: String = ""
  /// The positional arguments, in order; a command takes exactly these.
  var arguments: [ArgumentSpec] = []
  /// How the arguments are counted in a message: `one list file`, `two PNG files`.
  var argumentsInWords: String = ""
  /// Text between USAGE and the options.
  var discussion: String = ""
  /// The options, in help order (`-h, --help` is added to every command; see ``allOptions``).
  var options: [OptionSpec] = []
  /// Text after the options.
  var footer: String = ""
  /// Examples, at the end of `--help`.
  var examples: [Example] = []
  /// The subcommands of a group (`snapshot`).
  var subcommands: [CommandSpec] = []
  /// Whether the command draws or measures text: the drawing libraries then start loading
  /// (``Graphics/GraphicsLibraries/preload()``) while the command reads its input — from `main`,
  /// which finds the command in ``CommandTree/drawingCommands`` (kept equal to these flags by a
  /// test) before the tree is built, and again from the dispatcher for callers in the process.
  var draws: Bool = false
  /// What runs once the arguments are parsed; returns the exit status.
  ///
  /// Nil for a group.
  var run: (@Sendable (ParsedArguments) throws -> Int32)? = nil

  /// The options the parser accepts: the table's, then `-h, --help`.
  var allOptions: [OptionSpec] { options + [.help] }

  /// The subcommand called `name`.
  func subcommand(_ name: String) -> CommandSpec? {
    subcommands.first { $0.name == name }
  }
}
