import CLIKit
import Testing

@testable import ouds_render

/// Every command of the tree with the words that reach it.
private let allCommands = Completion.walk(CommandTree.root, path: [])

/// Parses `arguments` for the command at `path`; the usage error's message, or nil when it parses.
private func usageError(_ path: [String], _ arguments: [String]) -> String? {
  guard let spec = allCommands.first(where: { $0.path == path })?.spec else {
    return "no command \(path)"
  }
  do {
    _ = try ParsedArguments(arguments, spec: spec, command: path.joined(separator: " "))
    return nil
  } catch {
    return error.description
  }
}

/// Parses `arguments` for the command at `path`.
private func parsed(_ path: [String], _ arguments: [String]) throws -> ParsedArguments {
  let spec = try #require(allCommands.first { $0.path == path }?.spec)
  return try ParsedArguments(arguments, spec: spec, command: path.joined(separator: " "))
}

/// The words of an example as a shell splits them, up to a pipe or a redirection.
private func shellWords(_ command: String) -> [String] {
  var words: [String] = []
  var word = ""
  var quote: Character?
  var inWord = false
  for character in command {
    if let open = quote {
      if character == open { quote = nil } else { word.append(character) }
    } else if character == "'" || character == "\"" {
      quote = character
      inWord = true
    } else if character == " " {
      if inWord { words.append(word) }
      word = ""
      inWord = false
    } else {
      word.append(character)
      inWord = true
    }
  }
  if inWord { words.append(word) }
  if let end = words.firstIndex(where: { $0 == "|" || $0 == ">" || $0.hasPrefix(">") }) {
    words.removeSubrange(end...)
  }
  return words
}

@Suite("The option tables: help, parsing and messages come from one place")
struct OptionTableTests {
  @Test(
    "every command's help shows every option, its choices and default, examples, and ends with one newline",
    arguments: allCommands.map { $0.path.joined(separator: " ") })
  func helpListsEveryOption(command: String) throws {
    let path = command.isEmpty ? [] : command.split(separator: " ").map(String.init)
    let spec = try #require(allCommands.first { $0.path == path }?.spec)
    let help = HelpText.text(for: spec, path: path)
    // The help text with its line breaks and indents as single spaces, for phrases that wrap.
    let flat = help.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    #expect(help.hasPrefix("OVERVIEW: "))
    #expect(help.contains("USAGE: ouds-render\(command.isEmpty ? "" : " " + command)"))
    #expect(
      help.hasSuffix("\n") && !help.hasSuffix("\n\n"), "help must end with exactly one newline")
    #expect(help.contains("\nEXAMPLES:\n  # "), "no examples")
    for option in spec.allOptions where !option.isHidden {
      for name in option.names {
        #expect(
          help.contains("  \(name)") || help.contains(", \(name)"),
          "\(name) is not in the help of '\(command)'")
      }
      switch option.value {
      case .choice(let choices, let fallback):
        for word in choices.accepted { #expect(help.contains(word), "\(option.key): \(word)") }
        if let fallback {
          #expect(flat.contains("default: \(fallback)"), "\(option.key)'s default")
        }
      case .integer(_, let range, let fallback):
        #expect(help.contains("\(range.lowerBound)"))
        if let fallback { #expect(flat.contains("default: \(fallback)")) }
      case .number(_, let range, let fallback):
        #expect(
          flat.contains(
            "\(HelpText.plain(range.lowerBound)) to \(HelpText.plain(range.upperBound))"))
        if let fallback { #expect(flat.contains("default: \(HelpText.plain(fallback))")) }
      default:
        break
      }
    }
    let optionsSection =
      help.components(separatedBy: "\nOPTIONS:\n").last?.components(separatedBy: "\n\n").first ?? ""
    for option in spec.allOptions where option.isHidden {
      #expect(
        !optionsSection.contains(option.key), "hidden \(option.key) is in the options of the help")
    }
    for argument in spec.arguments { #expect(help.contains("<\(argument.name)>")) }
    for subcommand in spec.subcommands { #expect(help.contains("  \(subcommand.name)  ")) }
    for line in help.split(separator: "\n") {
      #expect(line.count <= HelpText.width, "a help line of \(line.count) columns: \(line)")
    }
  }

  @Test("no two options of a command share a name, and every command has a run or subcommands")
  func namesAreUnique() {
    for (path, spec) in allCommands {
      let names = spec.allOptions.flatMap(\.names)
      #expect(Set(names).count == names.count, "\(path): \(names)")
      #expect((spec.run == nil) != spec.subcommands.isEmpty || path.isEmpty, "\(path)")
      for option in spec.allOptions {
        #expect(
          option.names.allSatisfy { $0.hasPrefix("--") || ($0.count == 2 && $0.hasPrefix("-")) })
      }
    }
  }

  @Test("main's early check names exactly the commands that draw, as the dispatcher reads them")
  func drawingCommandsMatchTheTree() {
    let drawing = allCommands.filter(\.spec.draws).map(\.path)
    #expect(Set(CommandTree.drawingCommands) == Set(drawing))
    #expect(CommandTree.drawingCommands.count == drawing.count)
    for (path, spec) in allCommands {
      for tail in [[], ["list.json"], ["list.json", "--theme", "all", "-o", "out/"], ["-"]] {
        #expect(CommandTree.draws(path + tail) == spec.draws, "\(path + tail)")
      }
      for help in ["-h", "--help"] {
        #expect(!CommandTree.draws(path + [help]), "\(path) \(help)")
        #expect(!CommandTree.draws(path + ["list.json", "-o", "a.png", help]), "\(path) … \(help)")
      }
      #expect(!CommandTree.draws(["help"] + path), "help \(path)")
      #expect(!CommandTree.draws(["--version"] + path), "--version \(path)")
    }
    #expect(!CommandTree.draws([]))
    #expect(!CommandTree.draws(["snapshot"]))
    #expect(!CommandTree.draws(["rendering", "list.json"]))
  }

  @Test("every example in every help parses against its command's table")
  func examplesParse() throws {
    var count = 0
    for (_, spec) in allCommands {
      for example in spec.examples {
        var words = shellWords(example.command)
        if words.first == "help" { words.removeFirst() }
        var node = CommandTree.root
        var path: [String] = []
        while let word = words.first, let subcommand = node.subcommand(word) {
          node = subcommand
          path.append(word)
          words.removeFirst()
        }
        if example.command.hasPrefix("help ") {
          #expect(words.isEmpty, "\(example.command)")
        } else {
          #expect(
            usageError(path, words) == nil,
            "ouds-render \(example.command): \(usageError(path, words) ?? "")")
        }
        count += 1
      }
    }
    #expect(count >= 25)
  }

  @Test(
    "an unknown option names the command and the closest option",
    arguments: [
      (
        ["render"], ["l.json", "--widht", "9", "-o", "x.png"],
        "unknown option --widht for 'ouds-render render'; did you mean --width?"
      ),
      (
        ["render"], ["l.json", "--them", "sosh", "-o", "x.png"],
        "unknown option --them for 'ouds-render render'; did you mean --theme?"
      ),
      (
        ["render"], ["l.json", "--colour", "red"],
        "unknown option --colour for 'ouds-render render'"
      ),
      (
        ["snapshot", "prune"], ["--dryrun"],
        "unknown option --dryrun for 'ouds-render snapshot prune'; did you mean --dry-run?"
      ),
      (
        ["diff"], ["a.png", "b.png", "--treshold", "0.2"],
        "unknown option --treshold for 'ouds-render diff'; did you mean --threshold?"
      ),
      (
        ["diff"], ["a.png", "b.png", "--perc"],
        "unknown option --perc for 'ouds-render diff'; did you mean --perceptual?"
      ),
      ([], ["--verison"], "unknown option --verison for 'ouds-render'; did you mean --version?"),
    ])
  func unknownOption(path: [String], arguments: [String], message: String) {
    #expect(usageError(path, arguments) == message)
  }

  @Test(
    "a mistyped name gets the closest one; names follow one leniency rule (case, '-', '_', spaces)")
  func names() throws {
    #expect(
      usageError(["render"], ["l.json", "--theme", "ornage", "-o", "x.png"])
        == "unknown theme \"ornage\" (known: orange, orange-compact, sosh, wireframe); did you mean orange?"
    )
    #expect(
      usageError(["layout"], ["l.json", "--mode", "drak"])
        == "unknown mode \"drak\" (known: light, dark); did you mean dark?")
    #expect(
      usageError(["layout"], ["l.json", "--mode", "dusk"])
        == "unknown mode \"dusk\" (known: light, dark)")
    #expect(
      usageError(["layout"], ["l.json", "--platform", "andriod"])
        == "unknown platform \"andriod\" (known: ios, android); did you mean android?")
    #expect(
      usageError(["render"], ["l.json", "--format", "jpg", "-o", "x"])
        == "unknown format \"jpg\" (known: png, svg, pdf)")
    #expect(
      usageError(["completion"], ["bsh"])
        == "unknown shell \"bsh\" (known: bash, zsh, fish); did you mean bash?")
    let lenient = try parsed(
      ["render"],
      [
        "l.json", "--theme", "Orange_Compact", "--mode", "DARK", "--platform", "Android",
        "--format", "PNG",
        "--text-style", "body-medium", "--direction", "RTL", "--background", "None", "-o", "-",
      ])
    #expect(lenient.choice(ListOptions.theme) == "orange-compact")
    #expect(lenient.choice(ListOptions.mode) == "dark")
    #expect(lenient.choice(ListOptions.platform) == "android")
    #expect(lenient.choice(ListOptions.format) == "png")
    #expect(lenient.choice(ListOptions.textStyle) == "bodyMedium")
    #expect(lenient.choice(ListOptions.direction) == "rtl")
    #expect(lenient.choice(ListOptions.background) == "none")
    #expect(
      try parsed(["render"], ["l.json", "--theme", "ALL", "-o", "out"]).choice(ListOptions.theme)
        == "all")
  }

  @Test(
    "numbers are strict decimals within the table's range",
    arguments: [
      "0x28", "4e2", "+40", " 40", "40 ", "inf", "nan", "", "٤٠", "40.", ".5", "1_000",
    ])
  func strictNumbers(text: String) {
    #expect(
      usageError(["render"], ["l.json", "--width", text, "-o", "x.png"])
        == "--width must be a number from 40 to 10000, got \"\(text)\"")
    #expect(
      usageError(["render"], ["l.json", "--scale", text, "-o", "x.png"])
        == "--scale must be 1, 2 or 3, got \"\(text)\"")
    #expect(
      usageError(["snapshot", "verify"], ["--jobs", text])
        == "--jobs must be a whole number from 1 to 256, got \"\(text)\"")
    #expect(
      usageError(["diff"], ["a.png", "b.png", "--threshold", text])
        == "--threshold must be a number from 0 to 1, got \"\(text)\"")
    #expect(
      usageError(["diff"], ["a.png", "b.png", "--max-diff-pixels", text])
        == "--max-diff-pixels must be a whole number of 0 or more, got \"\(text)\"")
  }

  @Test("numbers in range parse; the ranges are the shared ones")
  func numbersInRange() throws {
    let arguments = try parsed(["render"], ["l.json", "--width", "40", "--scale=3", "-o", "x.png"])
    #expect(arguments[ListOptions.widthOption] == 40)
    #expect(arguments[ListOptions.scaleOption] == 3)
    #expect(
      try parsed(["render"], ["l.json", "--width", "10000", "-o", "x.png"])[
        ListOptions.widthOption] == 10000)
    #expect(usageError(["render"], ["l.json", "--width", "10000.5", "-o", "x.png"]) != nil)
    #expect(usageError(["render"], ["l.json", "--width", "39.99", "-o", "x.png"]) != nil)
    // Defaults come from the table when the option is not given.
    let defaults = try parsed(["sheet"], ["l.json", "-o", "x.png"])
    #expect(defaults[ListOptions.widthOption] == Vocabulary.standardCanvasWidth)
    #expect(defaults[ListOptions.scaleOption] == Vocabulary.standardPixelScale)
    #expect(defaults.choice(ListOptions.theme) == "all")
    #expect(
      try parsed(["render"], ["l.json", "-o", "x.png"]).choice(ListOptions.theme) == "orange")
    #expect(Vocabulary.pixelScales == 1...3)
    #expect(
      usageError(["render"], ["l.json", "--scale", "4", "-o", "x.png"])
        == "--scale must be 1, 2 or 3, got \"4\"")
  }

  @Test(
    "arguments, values and required options",
    arguments: [
      (["render"], [String](), "missing <list.json|list.md>"),
      (
        ["render"], ["a.json", "b.json", "-o", "x.png"],
        "expected one list file, got 2: unexpected \"b.json\""
      ),
      (["render"], ["a.json"], "missing -o <file|dir>"),
      (["render"], ["a.json", "-o"], "-o needs a value"),
      (["render"], ["a.json", "-o", ""], "-o needs a file name, got an empty one"),
      (["render"], ["", "-o", "x.png"], "<list.json|list.md> is empty"),
      (["render"], ["a.json", "--help=yes"], "--help takes no value"),
      (["diff"], [String](), "expected two PNG files, got 0"),
      (
        ["diff"], ["a.png", "b.png", "c.png"], "expected two PNG files, got 3: unexpected \"c.png\""
      ),
      (["snapshot", "verify"], ["extra"], "unexpected argument \"extra\""),
      (
        ["snapshot", "verify"], ["--snapshots", ""],
        "--snapshots needs a folder name, got an empty one"
      ),
      (["completion"], [String](), "missing <shell>"),
    ])
  func argumentErrors(path: [String], arguments: [String], message: String) {
    #expect(usageError(path, arguments) == message)
  }

  @Test("help wins over bad values; `--` ends the options; `-` is an argument; the last value wins")
  func conventions() throws {
    #expect(try parsed(["render"], ["--scale", "9", "--help"]).helpRequested)
    let ended = try parsed(["diff"], ["--", "-a.png", "--b.png"])
    #expect(ended.positionals == ["-a.png", "--b.png"])
    #expect(try parsed(["diff"], ["-", "b.png"]).positionals == ["-", "b.png"])
    let twice = try parsed(
      ["render"], ["l.json", "--theme", "sosh", "--theme=wireframe", "-o", "-"])
    #expect(twice.choice(ListOptions.theme) == "wireframe")
    #expect(twice.text(ListOptions.output) == "-")
  }
}

@Suite("The option table of docs/commands.md agrees with the command tables")
struct ReadmeOptionTableTests {
  /// The commands whose every option must have a row (`all` in the table means these).
  static let commands = ["render", "sheet", "layout", "audit", "themes"]
  /// The commands a row may name.
  static let commandsInTable = Set(commands + ["gallery"])

  /// The rows of docs/commands.md's table of render/sheet/layout options: option name → (commands, row).
  func rows() throws -> [String: (commands: Set<String>, text: String)] {
    let readme = try String(
      contentsOf: repositoryRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
    var rows: [String: (Set<String>, String)] = [:]
    for line in readme.split(separator: "\n") where line.hasPrefix("| `-") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      // The first cell is split at '\|' too; the commands are the cell before the meaning.
      func words(_ cell: String) -> [String] {
        cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      }
      guard let name = line.dropFirst(3).split(separator: " ").first?.split(separator: "`").first,
        let commandsCell = cells.first(where: {
          $0 == "all" || (!$0.isEmpty && words($0).allSatisfy(Self.commandsInTable.contains))
        })
      else { continue }
      let commands: Set<String> =
        commandsCell == "all"
        ? ["render", "sheet", "layout", "audit", "themes"] : Set(words(commandsCell))
      rows[String(name)] = (commands, String(line))
    }
    return rows
  }

  @Test(
    "every option of render, sheet, layout, audit and themes has a row naming its commands, choices, range and default"
  )
  func everyOptionHasARow() throws {
    let rows = try rows()
    #expect(rows.count >= 13)
    for command in Self.commands {
      let spec = try #require(CommandTree.root.subcommand(command))
      for option in spec.options {
        let row = try #require(
          rows[option.messageName], "docs/commands.md has no row for \(option.messageName)")
        #expect(
          row.commands.contains(command),
          "docs/commands.md's \(option.messageName) row does not name \(command)")
        switch option.value {
        case .choice(let choices, _):
          for name in choices.names {
            #expect(row.text.contains(name), "\(option.messageName): \(name)")
          }
        case .integer(_, let range, let fallback):
          for value in range { #expect(row.text.contains("\(value)")) }
          if let fallback { #expect(row.text.contains("`\(fallback)`")) }
        case .number(_, let range, let fallback):
          #expect(
            row.text.contains(
              "\(HelpText.plain(range.lowerBound))–\(HelpText.plain(range.upperBound))"))
          if let fallback { #expect(row.text.contains("`\(HelpText.plain(fallback))`")) }
        default:
          break
        }
      }
    }
    for (name, row) in rows {
      for command in row.commands {
        let spec = try #require(CommandTree.root.subcommand(command))
        #expect(
          spec.options.contains { $0.names.contains(name) },
          "docs/commands.md says \(command) takes \(name)")
      }
    }
  }
}

@Suite("The generated references are current")
struct GeneratedReferenceTests {
  @Test("docs/cli.md is exactly what `ouds-render docs markdown` prints")
  func cliReference() throws {
    let committed = try String(
      contentsOf: repositoryRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
    let printed = try run(["docs", "markdown"])
    #expect(printed.status == 0, "\(printed.stderr)")
    #expect(
      committed == printed.stdout,
      "docs/cli.md is stale: run `ouds-render docs markdown > docs/cli.md`")
    // every command of the tree has its section, every visible option its row
    for (path, spec) in Reference.commands(of: CommandTree.root) {
      let title = (["ouds-render"] + path).joined(separator: " ")
      #expect(committed.contains("\n## \(title)\n"), "no section for \(title)")
      for option in spec.allOptions where !option.isHidden {
        #expect(
          committed.contains("| `\(option.names.joined(separator: ", "))"), "\(title) \(option.key)"
        )
      }
    }
  }

  @Test("the man page names every command and option, with roff escapes for dashes")
  func manPage() throws {
    let printed = try run(["docs", "man"])
    #expect(printed.status == 0, "\(printed.stderr)")
    #expect(printed.stdout.hasPrefix(".TH OUDS-RENDER 1 "))
    #expect(printed.stdout.contains(".SH OUDS\\-RENDER SNAPSHOT VERIFY\n"))
    #expect(printed.stdout.contains(".B \\-\\-theme <theme>|all\n"))
    let unknown = try run(["docs", "pdf"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.hasPrefix("error: unknown format \"pdf\" (known: markdown, man)"))
  }
}
