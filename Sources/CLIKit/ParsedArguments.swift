import Primitives
import SafeInput

/// A usage mistake on the command line: printed with a pointer to `--help`, exit code 2.
///
/// The one usage-error type of every command.
public struct UsageError: Error, CustomStringConvertible {
  /// The message, one line.
  public let description: String
  /// Creates an error with its message.
  public init(_ description: String) { self.description = description }
}

/// The arguments of one command, parsed and checked against its ``CommandSpec``.
///
/// Follows swift-argument-parser's conventions: `--name value` or `--name=value`, `-o value`,
/// flags without values, `--` ends the options, a lone `-` is an argument (or a value). Unknown
/// options, missing values, values outside their choices or range, a wrong number of arguments
/// and missing required options are ``UsageError``s, found before the command touches a file.
/// Numbers are strict decimals (``DecimalNumber``): `0x28`, `4e2` and `+2` are refused.
public struct ParsedArguments {
  /// A value as checked by its ``OptionValue``.
  public enum Value: Hashable {
    case text(String)
    case choice(String)
    case integer(Int)
    case number(Double)
    case numbers([Double])
    case choices([String])
  }

  /// The command path after `ouds-render`, as in messages: `render`, `snapshot verify`.
  public let command: String
  /// Whether `-h` or `--help` was given: the command prints its help and nothing is checked.
  public private(set) var helpRequested = false
  /// The positional arguments.
  public private(set) var positionals: [String] = []
  private var values: [String: Value] = [:]
  /// The values of options with a ``ValueParser``, by key, as their parsers made them.
  private var typedValues: [String: any Sendable] = [:]
  private var flags: Set<String> = []
  /// The command's own options by key, for their defaults (commands share options, not defaults).
  private let table: [String: OptionSpec]

  /// Parses `arguments` (those after the command's name) against `spec`; `tree` (the whole
  /// command line) lets an option of other commands be named as such.
  public init(_ arguments: [String], spec: CommandSpec, command: String, tree: CommandSpec? = nil)
    throws(UsageError)
  {
    self.command = command
    let known = spec.allOptions
    table = Dictionary(known.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    var given: [(option: OptionSpec, name: String, text: String)] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = known.first(where: { $0.names.contains(name) }) else {
        let names = known.filter { !$0.isHidden }.flatMap(\.names)
        let owners = tree.map { Self.commands(taking: name, in: $0) } ?? []
        throw UsageError(
          "unknown option \(MessageText.value(name)) for '\(Self.commandLine(command))'"
            + (owners.isEmpty
              ? Suggestion.clause(for: name, among: names)
              : " (it is an option of \(HelpText.words(owners, joinedBy: "and")))"))
      }
      if option.value.takesValue {
        if let inlineValue {
          given.append((option, name, inlineValue))
        } else {
          guard index < arguments.count else {
            throw UsageError("\(MessageText.value(name)) needs a value")
          }
          given.append((option, name, arguments[index]))
          index += 1
        }
      } else {
        guard inlineValue == nil else {
          throw UsageError("\(MessageText.value(name)) takes no value")
        }
        flags.insert(option.key)
      }
    }
    if flags.contains(OptionSpec.help.key) {
      helpRequested = true
      return
    }
    for (option, _, text) in given {
      values[option.key] = try Self.check(text, for: option)
      if let parser = option.parser { typedValues[option.key] = try parser.parse(text) }
    }
    try checkPositionals(spec)
    for option in spec.options where option.isRequired && values[option.key] == nil {
      throw UsageError("missing \(option.messageName) \(HelpText.placeholder(option.value))")
    }
  }

  /// The commands under `tree` (paths after `ouds-render`, in tree order) that take the option
  /// `name` in their table (hidden ones and `--help` aside).
  public static func commands(taking name: String, in tree: CommandSpec) -> [String] {
    var found: [String] = []
    func visit(_ spec: CommandSpec, _ path: [String]) {
      if spec.options.contains(where: { !$0.isHidden && $0.names.contains(name) }) {
        found.append(path.isEmpty ? "ouds-render" : path.joined(separator: " "))
      }
      for subcommand in spec.subcommands { visit(subcommand, path + [subcommand.name]) }
    }
    visit(tree, [])
    return found
  }

  /// `ouds-render <command>`, or `ouds-render` for the top level.
  public static func commandLine(_ command: String) -> String {
    command.isEmpty ? "ouds-render" : "ouds-render \(command)"
  }

  /// The command's version of `option` (with its own default).
  private func own(_ option: OptionSpec) -> OptionSpec { table[option.key] ?? option }

  /// Checks the value `text` given to `option`.
  private static func check(_ text: String, for option: OptionSpec) throws(UsageError) -> Value {
    let name = option.messageName
    switch option.value {
    case .flag:
      return .text(text)
    case .text(_, let completion):
      if text.isEmpty {
        switch completion {
        case .file: throw UsageError("\(name) needs a file name, got an empty one")
        case .directory: throw UsageError("\(name) needs a folder name, got an empty one")
        case .none: break
        }
      }
      return .text(text)
    case .choice(let choices, _):
      return .choice(try Self.choice(text, in: choices))
    case .integer(_, let range, _):
      guard let value = DecimalNumber.integer(text), range.contains(value) else {
        throw UsageError(
          "\(name) must be \(HelpText.describe(range)), got \(MessageText.quoted(text))")
      }
      return .integer(value)
    case .number(_, let range, _):
      guard let value = DecimalNumber.number(text), range.contains(value) else {
        throw UsageError(
          "\(name) must be \(HelpText.describe(range)), got \(MessageText.quoted(text))")
      }
      return .number(value)
    case .numberList(_, let range):
      var numbers: [Double] = []
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard let value = DecimalNumber.number(String(part)), range.contains(value) else {
          throw UsageError(
            "\(name) must be \(HelpText.describe(range)), or several separated by commas, got \(MessageText.quoted(text))"
          )
        }
        if !numbers.contains(value) { numbers.append(value) }
      }
      return .numbers(numbers)
    case .choiceList(let choices):
      var names: [String] = []
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        let name = try Self.choice(String(part), in: choices)
        if !names.contains(name) { names.append(name) }
      }
      return .choices(names)
    }
  }

  /// The accepted word `text` names in `choices`, or the error listing the names.
  public static func choice(_ text: String, in choices: Choices) throws(UsageError) -> String {
    if let match = choices.match(text) { return match }
    throw UsageError(
      "unknown \(choices.kind) \(MessageText.quoted(text)) (known: \(choices.names.joined(separator: ", ")))"
        + Suggestion.clause(for: text, among: choices.accepted))
  }

  /// Checks the number of positional arguments, and their choices.
  private mutating func checkPositionals(_ spec: CommandSpec) throws(UsageError) {
    let expected = spec.arguments.count
    if spec.arguments.last?.isOptional == true, positionals.count == expected - 1 {
      // the optional last argument left out: the command takes its default
    } else if spec.arguments.last?.isVariadic == true {
      if positionals.count < expected, let argument = spec.arguments.last {
        throw UsageError("missing <\(argument.name)> (\(spec.argumentsInWords))")
      }
    } else if positionals.count != expected {
      if expected == 0 {
        throw UsageError("unexpected argument \(MessageText.quoted(positionals[0]))")
      }
      if expected == 1, positionals.isEmpty, let argument = spec.arguments.first {
        throw UsageError("missing <\(argument.name)>")
      }
      var message = "expected \(spec.argumentsInWords), got \(positionals.count)"
      if positionals.count > expected {
        message += ": unexpected \(MessageText.quoted(positionals[expected]))"
      }
      throw UsageError(message)
    }
    for position in positionals.indices {
      guard let argument = spec.arguments[safe: position] ?? spec.arguments.last else { break }
      if positionals[position].isEmpty {
        throw UsageError("<\(argument.name)> is empty")
      }
      if let choices = argument.choices {
        positionals[position] = try Self.choice(positionals[position], in: choices)
      }
    }
  }

  /// Whether the flag `option` was given.
  public func has(_ option: FlagOption) -> Bool { has(option.spec) }

  /// Whether the flag of `option` was given.
  func has(_ option: OptionSpec) -> Bool { flags.contains(option.key) }

  /// Whether the typed `option` was given a value on the command line (its default does not
  /// count).
  public func isGiven<Typed>(_ option: TypedOption<Typed>) -> Bool { isGiven(option.spec) }

  /// Whether the flag `option` was given.
  public func isGiven(_ option: FlagOption) -> Bool { isGiven(option.spec) }

  /// Whether `option` was given on the command line: a value, or a flag (its default does not
  /// count).
  public func isGiven(_ option: OptionSpec) -> Bool {
    values[option.key] != nil || flags.contains(option.key)
  }

  /// The value of the typed `option`: as its parser made it, or its choice as the type it was
  /// declared with (else its default); nil when neither.
  public subscript<Typed>(option: TypedOption<Typed>) -> Typed? {
    option.read(self, option.spec)
  }

  /// What the parser of `option` (a ``ValueParser``) made of its text; nil when not given.
  func parsedValue(_ option: OptionSpec) -> (any Sendable)? {
    typedValues[option.key]
  }

  /// The text given to the text option `option`, if any.
  public func text(_ option: TypedOption<String>) -> String? { self[option] }

  /// The text given to `option`, if any.
  func text(_ option: OptionSpec) -> String? {
    if case .text(let text)? = values[option.key] { return text }
    return nil
  }

  /// The choice given to `option` (as spelled in its ``Choices``), else its default.
  public func choice(_ option: OptionSpec) -> String? {
    if case .choice(let name)? = values[option.key] { return name }
    if case .choice(_, let fallback) = own(option).value { return fallback }
    return nil
  }

  /// Whether `all` was given to the choice `option` (or is its default).
  public func selectsAll(_ option: OptionSpec) -> Bool { choice(option) == Choices.all }

  /// The whole number given to `option`, else its default (read through a typed option).
  func integer(_ option: OptionSpec) -> Int? {
    if case .integer(let value)? = values[option.key] { return value }
    if case .integer(_, _, let fallback) = own(option).value { return fallback }
    return nil
  }

  /// The numbers given to the list `option`, in the order given, without repeats; nil when not
  /// given.
  func numbers(_ option: OptionSpec) -> [Double]? {
    if case .numbers(let value)? = values[option.key] { return value }
    return nil
  }

  /// The names given to the list `option`, as its ``Choices`` spell them, in the order given,
  /// without repeats; nil when not given.
  func choiceNames(_ option: OptionSpec) -> [String]? {
    guard case .choices(let names)? = values[option.key] else { return nil }
    return names
  }

  /// The number given to `option`, else its default.
  func number(_ option: OptionSpec) -> Double? {
    if case .number(let value)? = values[option.key] { return value }
    if case .number(_, _, let fallback) = own(option).value { return fallback }
    return nil
  }

  /// The value given to `option` as command-line text (a choice as its table spells it, numbers
  /// in their shortest form), nil when not given: what `preview` hands on to `render`.
  public func givenText(_ option: OptionSpec) -> String? {
    switch values[option.key] {
    case .text(let text)?, .choice(let text)?: return text
    case .integer(let value)?: return String(value)
    case .number(let value)?: return Self.numberText(value)
    case .numbers(let value)?: return value.map(Self.numberText).joined(separator: ",")
    case .choices(let names)?: return names.joined(separator: ",")
    case nil: return nil
    }
  }

  /// `2`, `1.15`: a number as a command line writes it.
  public static func numberText(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

extension Array {
  /// The element at `index`, or nil outside the array.
  subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
