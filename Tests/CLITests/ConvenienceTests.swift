import Foundation
import Graphics
import Testing

/// `zsh` and `fish`, which the completion tests load their scripts into (installed by `scripts/test`).
enum Shells {
  static func path(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Whether the tests of `name` run: always under CI (where a missing shell is a failure), else only when installed.
  static func testRuns(_ name: String) -> Bool {
    path(name) != nil
      || ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } == true
  }
}

/// Runs `shell` with `arguments` in `directory`, with `home` as its HOME (where fish and zsh keep
/// their files); the status, standard output and error.
private func runInShell(
  _ shell: String, _ arguments: [String], in directory: URL, home: URL,
  environment extra: [String: String] = [:]
) throws -> (status: Int32, output: String, errors: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: shell)
  process.arguments = arguments
  process.currentDirectoryURL = directory
  var environment = ProcessInfo.processInfo.environment
  environment["HOME"] = home.path
  environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
  environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
  for (key, value) in extra { environment[key] = value }
  process.environment = environment
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let errors = DispatchQueue(label: "stderr")
  nonisolated(unsafe) var errorData = Data()
  errors.async { errorData = err.fileHandleForReading.readDataToEndOfFile() }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  errors.sync {}
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self),
    String(decoding: errorData, as: UTF8.self)
  )
}

@Suite("CLI conveniences: completion scripts, help, suggestions, -o -", .serialized)
final class ConvenienceTests {
  /// The temporary folder: the shells' home, and `work`, where they run.
  let root: URL
  /// Where the commands and shells run: a list, a text file and a folder to complete.
  let folder: URL

  init() throws {
    root = try temporaryFolder()
    folder = root.appendingPathComponent("work")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("themes-copy"), withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: folder.appendingPathComponent("list.json"))
    try Data().write(to: folder.appendingPathComponent("notes.txt"))
  }
  deinit { try? FileManager.default.removeItem(at: root) }

  func runShell(_ shell: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> (status: Int32, output: String, errors: String)
  {
    try runInShell(shell, arguments, in: folder, home: root, environment: environment)
  }

  /// The script `ouds-render completion <shell>` prints, saved in the test folder.
  func script(_ shell: String) throws -> String {
    let result = try run(["completion", shell])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("\n"))
    let path = root.appendingPathComponent("completion.\(shell)").path
    try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(
    "bash: the script loaded in 'bash -c' completes subcommands, options, names, folders and list files"
  )
  func bash() throws {
    let path = try script("bash")
    let probe = """
      source "$0" || exit 9
      complete -p ouds-render
      t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _ouds_render; echo "$*|${COMPREPLY[*]}"; }
      t ouds-render ""
      t ouds-render sn
      t ouds-render render --th
      t ouds-render render --theme ""
      t ouds-render render --mode d
      t ouds-render render --mode = d
      t ouds-render render --scale ""
      t ouds-render render ""
      t ouds-render render --themes ""
      t ouds-render snapshot ""
      t ouds-render snapshot verify --ju
      t ouds-render snapshot prune --
      t ouds-render completion ""
      """
    let result = try runShell("/bin/bash", ["-c", probe, path])
    #expect(result.status == 0, "\(result.errors)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "complete -F _ouds_render ouds-render",
        "ouds-render |render sheet preview gallery layout audit themes snapshot diff completion docs",
        "ouds-render sn|snapshot",
        "ouds-render render --th|--theme --themes",
        "ouds-render render --theme |orange orange-compact sosh wireframe all",
        "ouds-render render --mode d|dark",
        "ouds-render render --mode = d|dark",
        "ouds-render render --scale |1 2 3",
        "ouds-render render |themes-copy list.json",
        "ouds-render render --themes |themes-copy",
        "ouds-render snapshot |verify record prune list merge accept review",
        "ouds-render snapshot verify --ju|--junit",
        "ouds-render snapshot prune --|--dry-run --snapshots --help",
        "ouds-render completion |bash zsh fish",
      ])
  }

  @Test(
    "bash: folder and file names with spaces or glob characters complete as one word each, never expanded"
  )
  func bashQuoting() throws {
    for name in ["my themes", "*", "a[b]"] {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
    }
    try Data("{}".utf8).write(to: folder.appendingPathComponent("my list.json"))
    try Data("{}".utf8).write(to: folder.appendingPathComponent("*.json"))
    let path = try script("bash")
    // Each completion is printed between < and >, so a word split in two shows.
    let probe = """
      source "$0" || exit 9
      t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _ouds_render; printf '%s|' "$*"; printf '<%s>' "${COMPREPLY[@]}"; echo; }
      t ouds-render render --themes my
      t ouds-render render --themes 'my\\ th'
      t ouds-render render --themes '"my th'
      t ouds-render render --themes '*'
      t ouds-render render --themes 'a['
      t ouds-render render my
      t ouds-render render '*'
      """
    let result = try runShell("/bin/bash", ["-c", probe, path])
    #expect(result.status == 0, "\(result.errors)")
    #expect(
      result.output.split(separator: "\n").map(String.init) == [
        "ouds-render render --themes my|<my themes>",
        "ouds-render render --themes my\\ th|<my themes>",
        "ouds-render render --themes \"my th|<my themes>",
        "ouds-render render --themes *|<*>",
        "ouds-render render --themes a[|<a[b]>",
        "ouds-render render my|<my themes><my list.json>",
        "ouds-render render *|<*><*.json>",
      ])
  }

  @Test(
    "zsh: the script has no syntax error, registers with compdef and hands _arguments every option",
    .enabled(
      if: Shells.testRuns("zsh"),
      "zsh is not installed (scripts/test installs it: apt-get install -y zsh)"))
  func zsh() throws {
    let zsh = try #require(
      Shells.path("zsh"), "CI is set and zsh is not installed: scripts/test installs it")
    let path = try script("zsh")
    let syntax = try runShell(zsh, ["-n", path])
    #expect(syntax.status == 0, "\(syntax.errors)")
    let loaded = try runShell(
      zsh,
      [
        "-f", "-c",
        "autoload -U compinit && compinit -u -D && source \"$0\" && print -r -- $_comps[ouds-render]",
        path,
      ])
    #expect(loaded.output == "_ouds_render\n", "\(loaded.errors)")
    // _arguments replaced by a stub that prints its specs: the render table, as zsh receives it.
    let specs = try runShell(
      zsh,
      [
        "-f", "-c",
        "compdef() { :; }; source \"$0\"; _arguments() { print -rl -- \"$@\"; }; _ouds_render_render",
        path,
      ])
    #expect(specs.status == 0, "\(specs.errors)")
    let lines = specs.output.split(separator: "\n").map(String.init)
    #expect(
      lines.contains("--theme[the theme]:theme|all:(orange orange-compact sosh wireframe all)"))
    #expect(lines.contains("--themes[a Themes/ folder to read tokens from]:dir:_files -/"))
    #expect(
      lines.contains(
        "--scale[PNG pixels per point; under the Android rules also the pixel grid of the text (glyph advances rounded to whole pixels), in SVG and PDF too]:1|2|3:(1 2 3)"
      ))
    #expect(lines.contains("1:list.json|list.md:_files -g \"*.json *.md *.markdown\""))
    for option in [
      "-o", "--output", "--format", "--mode", "--width", "--background", "--locale", "--direction",
      "--text-style", "--platform", "--font-dir", "--help",
    ] {
      #expect(
        lines.contains { $0.hasPrefix(option + "[") }, "\(option) missing from zsh's render specs")
    }
  }

  @Test(
    "fish: the script has no syntax error and 'complete -C' completes subcommands, options and names",
    .enabled(
      if: Shells.testRuns("fish"),
      "fish is not installed (scripts/test installs it: apt-get install -y fish)"))
  func fish() throws {
    let fish = try #require(
      Shells.path("fish"), "CI is set and fish is not installed: scripts/test installs it")
    let path = try script("fish")
    let syntax = try runShell(fish, ["--no-execute", path])
    #expect(syntax.status == 0, "\(syntax.errors)")
    func complete(_ line: String) throws -> [String] {
      let result = try runShell(
        fish, ["--no-config", "-c", "source $argv[1]; complete -C$argv[2]", path, line])
      #expect(result.errors.isEmpty, "\(result.errors)")
      return result.output.split(separator: "\n").map {
        String($0.split(separator: "\t").first ?? "")
      }
    }
    #expect(try complete("ouds-render ren") == ["render"])
    #expect(try complete("ouds-render render --the") == ["--theme", "--themes"])
    #expect(
      try complete("ouds-render render --theme ").sorted() == [
        "all", "orange", "orange-compact", "sosh", "wireframe",
      ])
    #expect(
      try complete("ouds-render snapshot ").sorted() == [
        "accept", "list", "merge", "prune", "record", "review", "verify",
      ])
    #expect(try complete("ouds-render snapshot verify --ju") == ["--junit"])
    #expect(try complete("ouds-render completion ").sorted() == ["bash", "fish", "zsh"])
    #expect(try complete("ouds-render render list.json --themes ") == ["themes-copy/"])
  }

  @Test("an unknown shell is a usage error with a suggestion")
  func unknownShell() throws {
    let result = try run(["completion", "zhs"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "error: unknown shell \"zhs\" (known: bash, zsh, fish); did you mean zsh?\nSee 'ouds-render completion --help'.\n"
    )
  }

  @Test(
    "every --help, through the binary, has examples and ends with exactly one newline",
    arguments: [
      [], ["render"], ["sheet"], ["preview"], ["layout"], ["themes"], ["snapshot"],
      ["snapshot", "verify"],
      ["snapshot", "record"],
      ["snapshot", "prune"], ["snapshot", "list"], ["diff"], ["completion"], ["docs"],
    ])
  func help(path: [String]) throws {
    let result = try run(path + ["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("OVERVIEW: "))
    #expect(result.stdout.contains("USAGE: " + (["ouds-render"] + path).joined(separator: " ")))
    #expect(result.stdout.contains("\nEXAMPLES:\n"))
    #expect(result.stdout.hasSuffix("\n") && !result.stdout.hasSuffix("\n\n"))
    #expect(
      try run(["help"] + path, in: folder).stdout == result.stdout,
      "'help \(path)' differs from '--help'")
  }

  @Test(
    "a mistyped subcommand gets the closest one",
    arguments: [
      (
        ["rendr"],
        "error: unknown subcommand \"rendr\" for 'ouds-render' (expected render, sheet, preview, gallery, layout, audit, themes, snapshot, diff, completion or docs); did you mean render?\nSee 'ouds-render --help'.\n"
      ),
      (
        ["snapshot", "verfy"],
        "error: unknown subcommand \"verfy\" for 'ouds-render snapshot' (expected verify, record, prune, list, merge, accept or review); did you mean verify?\nSee 'ouds-render snapshot --help'.\n"
      ),
      (
        ["paint"],
        "error: unknown subcommand \"paint\" for 'ouds-render' (expected render, sheet, preview, gallery, layout, audit, themes, snapshot, diff, completion or docs)\nSee 'ouds-render --help'.\n"
      ),
    ])
  func mistypedSubcommand(arguments: [String], stderr: String) throws {
    let result = try run(arguments)
    #expect(result.status == 2)
    #expect(result.stderr == stderr)
  }

  @Test("a missing subcommand prints the group's help on stderr")
  func missingSubcommand() throws {
    let top = try run([])
    #expect(top.status == 2)
    #expect(
      top.stderr.hasPrefix(
        "error: missing subcommand (render, sheet, preview, gallery, layout, audit, themes, snapshot, diff, completion or docs)\nOVERVIEW: "
      ))
    #expect(top.stdout.isEmpty)
    let snapshot = try run(["snapshot"])
    #expect(snapshot.status == 2)
    #expect(
      snapshot.stderr.hasPrefix(
        "error: missing subcommand (verify, record, prune, list, merge, accept or review)\nOVERVIEW: "
      ))
  }

  @Test("render -o - and sheet -o - write the picture to standard output, byte for byte the file")
  func standardOutput() throws {
    let list = repositoryRoot.appendingPathComponent("Snapshots/cases/sample-2.json").path
    for (command, format) in [("render", "png"), ("render", "svg"), ("sheet", "png")] {
      let file = folder.appendingPathComponent("\(command).\(format)").path
      let written = try run([command, list, "--theme", "sosh", "--scale", "1", "-o", file])
      #expect(written.status == 0, "\(written.stderr)")
      let piped = try run([
        command, list, "--theme", "sosh", "--scale", "1", "--format", format, "-o", "-",
      ])
      #expect(piped.status == 0, "\(piped.stderr)")
      #expect(
        piped.stdoutData == (try Data(contentsOf: URL(fileURLWithPath: file))),
        "\(command) \(format)")
      #expect(piped.stderr.hasPrefix("themes: "))
    }
    let png = try run(["render", list, "-o", "-"])
    #expect(
      png.stdoutData.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
      "-o - defaults to PNG")
    let matrix = try run(["render", list, "--theme", "all", "-o", "-"])
    #expect(matrix.status == 2)
    #expect(
      matrix.stderr
        == "error: -o - writes one picture to standard output, but --theme all, --mode all or --platform all make several: give a folder\nSee 'ouds-render render --help'.\n"
    )
    #expect(matrix.stdout.isEmpty)
  }

  @Test(
    "-o - refuses to write a PNG to a terminal",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
  func terminal() throws {
    let binary = try BuiltBinary.url.get().path
    let list = repositoryRoot.appendingPathComponent("Snapshots/cases/sample-2.json").path
    // script(1) gives the command a pseudo-terminal as standard output.
    let result = try runShell(
      "/usr/bin/script",
      ["-qec", "\"$OUDS_BIN\" render \(list) -o -; echo status=$?", "/dev/null"],
      environment: ["OUDS_BIN": binary])
    #expect(
      result.output.contains(
        "error: standard output is a terminal: redirect it (> out.png) or give -o <file> for PNG data"
      ))
    #expect(result.output.contains("status=2"))
  }
}
