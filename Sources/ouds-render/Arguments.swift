import SafeInput

/// A usage mistake on the command line: printed with a pointer to `--help`, exit code 2.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Parsed command-line arguments of one subcommand: options with values, flags, positionals.
///
/// Follows swift-argument-parser's conventions: `--name value` or `--name=value`, `-o value`,
/// flags without values, `--` ends options, unknown options are usage errors.
struct ParsedArguments {
  private(set) var values: [String: String] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []

  /// Parses `arguments` against the options (`valued`) and flags the subcommand knows.
  init(_ arguments: [String], command: String, valued: Set<String>, flags knownFlags: Set<String>)
    throws(UsageError)
  {
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
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      if knownFlags.contains(name) {
        guard inlineValue == nil else { throw UsageError("\(MessageText.value(name)) takes no value") }
        flags.insert(name)
      } else if valued.contains(name) {
        if let inlineValue {
          values[name] = inlineValue
        } else {
          guard index < arguments.count else { throw UsageError("\(MessageText.value(name)) needs a value") }
          values[name] = arguments[index]
          index += 1
        }
      } else {
        throw UsageError("unknown option \(MessageText.value(name)) for 'ouds-render \(command)'")
      }
    }
  }

  /// The value of option `name`, if given.
  func value(_ name: String) -> String? { values[name] }

  /// Whether flag `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// The value of `name` as a decimal number (`40`, `12.5`; no hexadecimal, exponent or sign
  /// `+`) within `range`.
  func number(_ name: String, default fallback: Double, in range: ClosedRange<Double>) throws(UsageError)
    -> Double
  {
    guard let text = values[name] else { return fallback }
    guard let value = DecimalNumber.number(text), range.contains(value) else {
      throw UsageError("\(name) must be a number from \(plain(range.lowerBound)) to \(plain(range.upperBound)), got \(MessageText.quoted(text))")
    }
    return value
  }

  /// The value of `name` as a whole decimal number within `range`.
  func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
    guard let text = values[name] else { return fallback }
    guard let value = DecimalNumber.integer(text), range.contains(value) else {
      throw UsageError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(MessageText.quoted(text))")
    }
    return value
  }

  private func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// The value of `name`, which must be one of `choices`.
  func choice(_ name: String, default fallback: String, in choices: [String]) throws(UsageError) -> String {
    guard let text = values[name] else { return fallback }
    guard choices.contains(text) else {
      throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), got \(MessageText.quoted(text))")
    }
    return text
  }
}

extension ParsedArguments {
  /// Parses `arguments` for a subcommand that also takes `-h`/`--help`; prints `help` and
  /// returns nil when help was asked for.
  static func parseOrShowHelp(
    _ arguments: [String], command: String, valued: Set<String>, help: String
  ) throws -> ParsedArguments? {
    let parsed = try ParsedArguments(arguments, command: command, valued: valued, flags: ["-h", "--help"])
    if parsed.has("-h") || parsed.has("--help") {
      try writeOutput(help)
      return nil
    }
    return parsed
  }

  /// The single positional argument: the list file.
  func listPath() throws(UsageError) -> String {
    guard positionals.count == 1, let path = positionals.first else {
      throw UsageError(
        positionals.isEmpty ? "missing <list.json>" : "expected one list file, got \(positionals.count)")
    }
    guard !path.isEmpty else {
      throw UsageError("the list file name is empty")
    }
    return path
  }

  /// The value of `-o`/`--output`, which is required.
  func output(describedAs what: String) throws(UsageError) -> String {
    guard let output = value("-o") ?? value("--output") else {
      throw UsageError("missing -o <\(what)>")
    }
    guard !output.isEmpty else { throw UsageError("-o needs a file name, got an empty one") }
    return output
  }
}
