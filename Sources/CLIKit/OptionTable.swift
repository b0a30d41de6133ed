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
public struct Choices: Sendable, Hashable {
  /// What the names are called in a message: `theme` in `unknown theme "pink"`.
  public var kind: String
  /// The names, in the order help and completions list them.
  public var names: [String]
  /// Further accepted words, such as `all`.
  public var extra: [String] = []

  /// The word that selects every name of a set (``orAll``).
  public static let all = "all"

  /// A set of names called `kind` in messages, accepting `extra` words too.
  public init(kind: String, names: [String], extra: [String] = []) {
    self.kind = kind
    self.names = names
    self.extra = extra
  }

  /// Every accepted word: the names, then the extra words.
  public var accepted: [String] { names + extra }

  /// This set of names, also accepting `all`.
  public var orAll: Choices { Choices(kind: kind, names: names, extra: extra + [Choices.all]) }

  /// The accepted word `text` names (as spelled in ``accepted``), or nil.
  public func match(_ text: String) -> String? {
    if accepted.contains(text) { return text }
    let key = Self.normalized(text)
    return accepted.first { Self.normalized($0) == key }
  }

  /// `text` lower-cased, without white space, `-` and `_`: the one leniency rule for names.
  public static func normalized(_ text: String) -> String { NameKey.normalized(text) }
}

extension Choices {
  /// The names of a value type, and what they are called in messages.
  public init<Value: NamedValue>(_ type: Value.Type) {
    self.init(kind: Value.kindName, names: Value.names)
  }
}

/// What a shell may offer for a value: nothing, files (optionally of some extensions), folders.
public enum ValueCompletion: Sendable, Hashable {
  /// Free text: no completion.
  case none
  /// Any file or folder name; `extensions` (without dots) narrows the files offered.
  case file(extensions: [String])
  /// A folder name.
  case directory
}

/// What follows an option on the command line, how it is checked, and its typed default.
public enum OptionValue: Sendable, Hashable {
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
  public var takesValue: Bool {
    if case .flag = self { return false }
    return true
  }
}

/// One option of a command: its names, its value, its help line.
public struct OptionSpec: Sendable, Hashable {
  /// The names, short first: `["-o", "--output"]`.
  ///
  /// Messages use the first, values are stored under the last (``key``).
  public var names: [String]
  /// What follows the option.
  public var value: OptionValue
  /// The help line (one sentence, no final period); choices, ranges and defaults are appended
  /// from ``value`` and ``defaultDescription``.
  public var help: String
  /// A default said in words when it is not a plain value (`the list's "platform", else ios`).
  public var defaultDescription: String? = nil
  /// Whether the command needs this option.
  public var isRequired = false
  /// Parsed (so that the command can give a specific message) but neither in the help nor in
  /// the completions.
  public var isHidden = false
  /// What the checked text becomes, bound here where the option is declared (see
  /// ``TypedOption``); nil for an option read as its ``value`` says.
  public var parser: ValueParser? = nil

  /// An option called `names` (short first) taking `value`, with its help line.
  public init(
    names: [String], value: OptionValue, help: String, defaultDescription: String? = nil,
    isRequired: Bool = false, isHidden: Bool = false, parser: ValueParser? = nil
  ) {
    self.names = names
    self.value = value
    self.help = help
    self.defaultDescription = defaultDescription
    self.isRequired = isRequired
    self.isHidden = isHidden
    self.parser = parser
  }

  /// The name values are stored under: the last (long) name.
  public var key: String { names.last ?? "" }
  /// The name used in messages: the first.
  public var messageName: String { names.first ?? "" }

  /// `-h, --help`, which every command takes.
  public static let help = OptionSpec(
    names: ["-h", "--help"], value: .flag, help: "show this help")

  /// The same option with its value shown as `<placeholder>` and another help line.
  public func describing(_ placeholder: String, help: String) -> OptionSpec {
    var copy = self
    if case .text(_, let completion) = value {
      copy.value = .text(placeholder: placeholder, completion: completion)
    }
    copy.help = help
    return copy
  }

  /// The same option with another default (for commands that share an option but not its default).
  public func defaulting(to text: String) -> OptionSpec {
    var copy = self
    switch value {
    case .choice(let choices, _): copy.value = .choice(choices, default: text)
    default: copy.defaultDescription = text
    }
    return copy
  }
}

/// A positional argument: `<list.json>`.
public struct ArgumentSpec: Sendable, Hashable {
  /// The name shown in angle brackets: `list.json`.
  public var name: String
  /// The help line.
  public var help: String
  /// What a shell offers for it.
  public var completion: ValueCompletion = .none
  /// The words it takes, when it is one of a closed set (`bash`, `zsh`, `fish`).
  public var choices: Choices? = nil
  /// Whether it takes one or more words (`<dir>...`); only the last argument may.
  public var isVariadic = false
  /// Whether the argument may be left out (the last one only); the command then uses its default.
  public var isOptional = false

  /// The argument `<name>` with its help line and how it is completed and checked.
  public init(
    name: String, help: String, completion: ValueCompletion = .none, choices: Choices? = nil,
    isVariadic: Bool = false, isOptional: Bool = false
  ) {
    self.name = name
    self.help = help
    self.completion = completion
    self.choices = choices
    self.isVariadic = isVariadic
    self.isOptional = isOptional
  }

  /// `<name>`, or `<name>...` for a variadic argument.
  public var usage: String {
    let word = "<\(name)>" + (isVariadic ? "..." : "")
    return isOptional ? "[\(word)]" : word
  }
}

/// An example shown at the end of `--help`: a command line and what it does.
public struct Example: Sendable, Hashable {
  /// The arguments after `ouds-render`, as typed in a shell.
  public var command: String
  /// What it does, one line.
  public var explanation: String

  /// The example `ouds-render <command>`, which does `explanation`.
  public init(command: String, explanation: String) {
    self.command = command
    self.explanation = explanation
  }
}

/// One command or group of commands: what `--help` says, what the parser accepts, what a shell
/// completes, and what runs.
public struct CommandSpec: Sendable {
  /// The word that selects it (`render`; `verify` under `snapshot`).
  public var name: String
  /// One line, for the parent's list of subcommands.
  public var abstract: String
  /// The OVERVIEW paragraph of `--help`; the abstract when empty.
  public var overview: String = ""
  /// The positional arguments, in order; a command takes exactly these.
  public var arguments: [ArgumentSpec] = []
  /// How the arguments are counted in a message: `one list file`, `two PNG files`.
  public var argumentsInWords: String = ""
  /// Text between USAGE and the options.
  public var discussion: String = ""
  /// The options, in help order (`-h, --help` is added to every command; see ``allOptions``).
  public var options: [OptionSpec] = []
  /// Text after the options.
  public var footer: String = ""
  /// Examples, at the end of `--help`.
  public var examples: [Example] = []
  /// The subcommands of a group (`snapshot`).
  public var subcommands: [CommandSpec] = []
  /// Whether the command draws or measures text: the drawing libraries then start loading
  /// (`GraphicsLibraries.preload()`) while the command reads its input — from `main`,
  /// which finds the command in `CommandTree.drawingCommands` (kept equal to these flags by a
  /// test) before the tree is built, and again from the dispatcher for callers in the process.
  public var draws: Bool = false
  /// What runs once the arguments are parsed; returns the exit status.
  ///
  /// Nil for a group.
  public var run: (@Sendable (ParsedArguments) throws -> Int32)? = nil

  /// A command or group: its name and abstract, what `--help` shows, what it parses and runs.
  public init(
    name: String, abstract: String, overview: String = "", arguments: [ArgumentSpec] = [],
    argumentsInWords: String = "", discussion: String = "", options: [OptionSpec] = [],
    footer: String = "", examples: [Example] = [], subcommands: [CommandSpec] = [],
    draws: Bool = false, run: (@Sendable (ParsedArguments) throws -> Int32)? = nil
  ) {
    self.name = name
    self.abstract = abstract
    self.overview = overview
    self.arguments = arguments
    self.argumentsInWords = argumentsInWords
    self.discussion = discussion
    self.options = options
    self.footer = footer
    self.examples = examples
    self.subcommands = subcommands
    self.draws = draws
    self.run = run
  }

  /// The options the parser accepts: the table's, then `-h, --help`.
  public var allOptions: [OptionSpec] { options + [.help] }

  /// The subcommand called `name`.
  public func subcommand(_ name: String) -> CommandSpec? {
    subcommands.first { $0.name == name }
  }
}

/// How the text given to an option becomes a typed value: a parse closure that throws a
/// ``UsageError`` (exit 2) for a bad value, run once, when the arguments are parsed.
public struct ValueParser: Sendable, Hashable {
  /// The type the closure makes, for equality of option tables.
  public let typeName: String
  /// The closure.
  let parse: @Sendable (String) throws(UsageError) -> any Sendable

  /// A parser making `Value`s with `parse`.
  public init<Value: Sendable>(
    _ type: Value.Type, _ parse: @escaping @Sendable (String) throws(UsageError) -> Value
  ) {
    typeName = String(reflecting: type)
    self.parse = { text throws(UsageError) in try parse(text) }
  }

  /// Parsers are equal when they make the same type.
  public static func == (left: ValueParser, right: ValueParser) -> Bool {
    left.typeName == right.typeName
  }

  /// Hashes the type's name.
  public func hash(into hasher: inout Hasher) { hasher.combine(typeName) }
}

/// An option whose value has one type, bound where the option is declared: its text is parsed
/// once, with the other options, and a bad value is a ``UsageError`` before the command runs;
/// the command reads it as `arguments[option]`, already typed (reading it as another type does
/// not compile).
public struct TypedOption<Value: Sendable>: Sendable {
  /// The option as the command tables list it.
  public var spec: OptionSpec
  /// Reads the option's value (or the command's default) out of checked arguments.
  let read: @Sendable (ParsedArguments, OptionSpec) -> Value?

  /// The option `names` taking text shown as `<placeholder>`, made a `Value` by `parse`.
  public init(
    names: [String], placeholder: String, help: String, defaultDescription: String? = nil,
    isHidden: Bool = false,
    parse: @escaping @Sendable (String) throws(UsageError) -> Value
  ) {
    spec = OptionSpec(
      names: names, value: .text(placeholder: placeholder, completion: .none), help: help,
      defaultDescription: defaultDescription, isHidden: isHidden,
      parser: ValueParser(Value.self, parse))
    read = { arguments, spec in arguments.parsedValue(spec) as? Value }
  }

  /// An option of `spec` whose value `read` takes out of the checked arguments.
  init(spec: OptionSpec, read: @escaping @Sendable (ParsedArguments, OptionSpec) -> Value?) {
    self.spec = spec
    self.read = read
  }

  /// The name its value is stored under (the last, long name).
  public var key: String { spec.key }

  /// The same option with another help line.
  public func describing(help: String) -> TypedOption {
    var copy = self
    copy.spec.help = help
    return copy
  }
}

extension TypedOption where Value: NamedValue {
  /// One of the names of `Value` (``Primitives/NamedValue``), with an optional default: read
  /// as a `Value`.
  public static func choice(
    _ type: Value.Type, names: [String], default value: Value? = nil, help: String,
    defaultDescription: String? = nil
  ) -> TypedOption {
    TypedOption(
      spec: OptionSpec(
        names: names, value: .choice(Choices(Value.self), default: value?.rawValue), help: help,
        defaultDescription: defaultDescription)
    ) { arguments, spec in arguments.choice(spec).flatMap(Value.init(rawValue:)) }
  }
}

extension TypedOption {
  /// One of the names of `Choice` or `all`, with an optional default: read as what it selects,
  /// every value for `all`, else the one named.
  public static func choiceOrAll<Choice: NamedValue>(
    _ type: Choice.Type, names: [String], default value: Choice? = nil, help: String,
    defaultDescription: String? = nil
  ) -> TypedOption where Value == [Choice] {
    TypedOption(
      spec: OptionSpec(
        names: names, value: .choice(Choices(Choice.self).orAll, default: value?.rawValue),
        help: help, defaultDescription: defaultDescription)
    ) { arguments, spec in
      guard let name = arguments.choice(spec) else { return nil }
      if name == Choices.all { return Choice.allCases }
      return Choice(rawValue: name).map { [$0] }
    }
  }

  /// One or more of the names of `Choice`, separated by commas: read in the order given,
  /// without repeats.
  public static func choiceList<Choice: NamedValue>(
    _ type: Choice.Type, names: [String], help: String, defaultDescription: String? = nil
  ) -> TypedOption where Value == [Choice] {
    TypedOption(
      spec: OptionSpec(
        names: names, value: .choiceList(Choices(Choice.self)), help: help,
        defaultDescription: defaultDescription)
    ) { arguments, spec in arguments.choiceNames(spec)?.compactMap(Choice.init(rawValue:)) }
  }
}

extension TypedOption where Value == String {
  /// An option taking free text shown as `<placeholder>` (a path when `completion` is a file or a
  /// folder): read as the `String` given.
  public static func text(
    names: [String], placeholder: String, completion: ValueCompletion = .none, help: String,
    defaultDescription: String? = nil, isRequired: Bool = false, isHidden: Bool = false
  ) -> TypedOption {
    TypedOption(
      spec: OptionSpec(
        names: names, value: .text(placeholder: placeholder, completion: completion), help: help,
        defaultDescription: defaultDescription, isRequired: isRequired, isHidden: isHidden)
    ) { arguments, spec in arguments.text(spec) }
  }

  /// The same option shown as `<placeholder>`, with another help line (see
  /// ``OptionSpec/describing(_:help:)``).
  public func describing(_ placeholder: String, help: String) -> TypedOption {
    var copy = self
    copy.spec = spec.describing(placeholder, help: help)
    return copy
  }

  /// The same option with another default said in words (see ``OptionSpec/defaulting(to:)``).
  public func defaulting(to text: String) -> TypedOption {
    var copy = self
    copy.spec = spec.defaulting(to: text)
    return copy
  }
}

/// A flag (`--strict`), declared as one: ``ParsedArguments/has(_:)`` takes nothing else, so a
/// flag cannot be read as text nor a text option as a flag.
public struct FlagOption: Sendable {
  /// The flag as the command tables list it.
  public var spec: OptionSpec

  /// The flag `names` (short first) with its help line.
  public init(
    names: [String], help: String, defaultDescription: String? = nil, isHidden: Bool = false
  ) {
    spec = OptionSpec(
      names: names, value: .flag, help: help, defaultDescription: defaultDescription,
      isHidden: isHidden)
  }

  /// The name its presence is stored under.
  public var key: String { spec.key }
}

extension TypedOption where Value == Int {
  /// A whole decimal number in `range`, with an optional default: read as an `Int`.
  public static func integer(
    names: [String], placeholder: String, range: ClosedRange<Int>, default value: Int? = nil,
    help: String, defaultDescription: String? = nil
  ) -> TypedOption {
    TypedOption(
      spec: OptionSpec(
        names: names, value: .integer(placeholder: placeholder, range: range, default: value),
        help: help, defaultDescription: defaultDescription)
    ) { arguments, spec in arguments.integer(spec) }
  }
}

extension TypedOption where Value == Double {
  /// A decimal number in `range`, with an optional default: read as a `Double`.
  public static func number(
    names: [String], placeholder: String, range: ClosedRange<Double>, default value: Double? = nil,
    help: String, defaultDescription: String? = nil
  ) -> TypedOption {
    TypedOption(
      spec: OptionSpec(
        names: names, value: .number(placeholder: placeholder, range: range, default: value),
        help: help, defaultDescription: defaultDescription)
    ) { arguments, spec in arguments.number(spec) }
  }
}

extension TypedOption where Value == [Double] {
  /// One or more decimal numbers in `range`, separated by commas: read in the order given,
  /// without repeats.
  public static func numberList(
    names: [String], placeholder: String, range: ClosedRange<Double>, help: String,
    defaultDescription: String? = nil
  ) -> TypedOption {
    TypedOption(
      spec: OptionSpec(
        names: names, value: .numberList(placeholder: placeholder, range: range), help: help,
        defaultDescription: defaultDescription)
    ) { arguments, spec in arguments.numbers(spec) }
  }
}
