import Primitives

/// The `--help` text of a command, generated from its ``CommandSpec``.
///
/// Sections: OVERVIEW, USAGE, the discussion, ARGUMENTS, SUBCOMMANDS, OPTIONS (choices, ranges
/// and defaults taken from the table), the footer and EXAMPLES. It always ends with a newline.
public enum HelpText {
  /// Lines are wrapped to this many columns.
  public static let width = 100
  /// Option help starts in this column (after a two-space indent and the names).
  public static let helpColumn = 26

  /// The help of `spec`, reached by `path` (the words after `ouds-render`).
  public static func text(for spec: CommandSpec, path: [String]) -> String {
    var sections: [String] = []
    sections.append(
      wrap("OVERVIEW: " + (spec.overview.isEmpty ? spec.abstract : spec.overview), indent: ""))
    sections.append("USAGE: " + usage(for: spec, path: path))
    if !spec.discussion.isEmpty { sections.append(spec.discussion) }
    if !spec.arguments.isEmpty {
      sections.append(
        "ARGUMENTS:\n"
          + spec.arguments.map { row($0.usage, argumentHelp($0)) }.joined(separator: "\n"))
    }
    if !spec.subcommands.isEmpty {
      let rows = spec.subcommands.map { "  " + pad($0.name, to: 10) + "  " + $0.abstract }
      sections.append("SUBCOMMANDS:\n" + rows.joined(separator: "\n"))
    }
    let options = spec.allOptions.filter { !$0.isHidden }
    sections.append(
      "OPTIONS:\n" + options.map { row(column(for: $0), help(for: $0)) }.joined(separator: "\n"))
    if !spec.footer.isEmpty { sections.append(spec.footer) }
    if !spec.examples.isEmpty {
      let lines = spec.examples.map { "  # \($0.explanation)\n  ouds-render \($0.command)" }
      sections.append("EXAMPLES:\n" + lines.joined(separator: "\n"))
    }
    return sections.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }.joined(
      separator: "\n\n") + "\n"
  }

  /// `ouds-render render <list.json> -o <file|dir> [options]`.
  public static func usage(for spec: CommandSpec, path: [String]) -> String {
    var words = ["ouds-render"] + path
    if !spec.subcommands.isEmpty {
      let names = spec.subcommands.map(\.name).joined(separator: "|")
      words.append(names.count <= 30 ? "<\(names)>" : "<subcommand>")
    }
    words += spec.arguments.map(\.usage)
    for option in spec.options where option.isRequired {
      words.append("\(option.messageName) \(placeholder(option.value))")
    }
    words.append("[options]")
    return words.joined(separator: " ")
  }

  /// What follows an option's names: `<dir>`, `light|dark|all`, `<theme>|all`, `1|2|3`.
  public static func placeholder(_ value: OptionValue) -> String {
    switch value {
    case .flag:
      return ""
    case .text(let placeholder, _):
      return "<\(placeholder)>"
    case .choice(let choices, _):
      if showsNames(choices) { return choices.accepted.joined(separator: "|") }
      return (["<\(choices.kind.replacingEvery(" ", with: "-"))>"] + choices.extra)
        .joined(separator: "|")
    case .integer(let placeholder, let range, _):
      return listsValues(range) ? range.map(String.init).joined(separator: "|") : "<\(placeholder)>"
    case .number(let placeholder, _, _), .numberList(let placeholder, _):
      return "<\(placeholder)>"
    case .choiceList(let choices):
      return "<\(choices.kind.replacingEvery(" ", with: "-"))>[,…]"
    }
  }

  /// Whether the names of `choices` fit in the options column.
  private static func showsNames(_ choices: Choices) -> Bool {
    choices.accepted.joined(separator: "|").count <= 22
  }

  /// Whether the values of `range` are few enough to list (`1, 2 or 3`).
  private static func listsValues(_ range: ClosedRange<Int>) -> Bool {
    range.upperBound < Int.max && range.count <= 5
  }

  /// `1, 2 or 3`, `a whole number from 1 to 256`, `a whole number of 0 or more`.
  public static func describe(_ range: ClosedRange<Int>) -> String {
    if listsValues(range) { return words(range.map(String.init), joinedBy: "or") }
    if range.upperBound == Int.max { return "a whole number of \(range.lowerBound) or more" }
    return "a whole number from \(range.lowerBound) to \(range.upperBound)"
  }

  /// `a number from 40 to 10000`.
  public static func describe(_ range: ClosedRange<Double>) -> String {
    "a number from \(plain(range.lowerBound)) to \(plain(range.upperBound))"
  }

  /// `a, b or c`.
  public static func words(_ list: [String], joinedBy conjunction: String) -> String {
    guard let last = list.last else { return "" }
    if list.count == 1 { return last }
    return list.dropLast().joined(separator: ", ") + " \(conjunction) " + last
  }

  /// `40` for 40.0, `0.5` for 0.5: a number without a useless `.0`.
  public static func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// `-o, --output <file|dir>`.
  public static func column(for option: OptionSpec) -> String {
    let value = placeholder(option.value)
    return option.names.joined(separator: ", ") + (value.isEmpty ? "" : " " + value)
  }

  /// The help line of `option`: its sentence, then the names it takes (when the column cannot show
  /// them), its range, its default and whether it is required.
  public static func help(for option: OptionSpec) -> String {
    var text = option.help
    var notes: [String] = []
    var defaultText = option.defaultDescription
    switch option.value {
    case .flag, .text:
      break
    case .choice(let choices, let fallback):
      if !showsNames(choices) { text += ": " + words(choices.accepted, joinedBy: "or") }
      defaultText = defaultText ?? fallback
    case .integer(_, let range, let fallback):
      if !listsValues(range) {
        notes.append(
          range.upperBound == Int.max
            ? "\(range.lowerBound) or more" : "\(range.lowerBound) to \(range.upperBound)")
      }
      defaultText = defaultText ?? fallback.map(String.init)
    case .number(_, let range, let fallback):
      notes.append("\(plain(range.lowerBound)) to \(plain(range.upperBound))")
      defaultText = defaultText ?? fallback.map(plain)
    case .numberList(_, let range):
      notes.append("\(plain(range.lowerBound)) to \(plain(range.upperBound))")
    case .choiceList(let choices):
      text += ": " + words(choices.accepted, joinedBy: "or")
    }
    if let defaultText { notes.append("default: \(defaultText)") }
    if option.isRequired { notes.append("required") }
    return notes.isEmpty ? text : text + " (" + notes.joined(separator: "; ") + ")"
  }

  /// The help line of an argument, with the names it takes.
  private static func argumentHelp(_ argument: ArgumentSpec) -> String {
    guard let choices = argument.choices else { return argument.help }
    return argument.help + ": " + words(choices.accepted, joinedBy: "or")
  }

  /// One row of a two-column list: the names, then the help from ``helpColumn``, wrapped.
  private static func row(_ names: String, _ help: String) -> String {
    let lead = "  " + names
    let wrapped = wrap(help, indent: String(repeating: " ", count: helpColumn))
    if lead.count < helpColumn - 1 {
      return pad(lead, to: helpColumn) + wrapped.dropFirst(helpColumn)
    }
    return lead + "\n" + wrapped
  }

  private static func pad(_ text: String, to count: Int) -> String {
    text + String(repeating: " ", count: max(0, count - text.count))
  }

  /// `text` wrapped at ``width`` on spaces, each line starting with `indent`.
  public static func wrap(_ text: String, indent: String) -> String {
    var lines: [String] = []
    var line = indent
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if line.count > indent.count, line.count + 1 + word.count > width {
        lines.append(line)
        line = indent
      }
      line += (line.count > indent.count ? " " : "") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
