import BulletListRenderer
import CLIKit
import FileWatch
import Graphics
import LivePreview
import PreviewDocs
import PreviewServer
import Primitives
import SafeInput
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render preview`: a local web page that shows a list in every theme and mode, and draws
/// it again as its files are saved.
enum PreviewCommand {
  /// `--port <n>`.
  static let portOption = TypedOption.integer(
    names: ["--port"], placeholder: "n", range: 0...65535, default: 8740,
    help: "the port to listen on; 0 takes any free one (the URL printed says which)")
  /// `--port` as the table lists it.
  static let port = portOption.spec
  /// `--host <address>`.
  static let host = TypedOption.text(
    names: ["--host"], placeholder: "address",
    help:
      "listen on this IP address of the machine instead (192.168.1.20, ::1): others who reach it see your lists, so a warning says so; the page answers only to that address, 127.0.0.1 and localhost",
    defaultDescription: "127.0.0.1: this machine alone")

  /// The rows whose values make up the page's state (its controls and URL), from the options of
  /// `render`: given on the command line, they are the state the page opens with.
  static let stateOptions: [OptionSpec] = [
    ListOptions.theme.defaulting(to: Vocabulary.all),
    ListOptions.mode.defaulting(to: Vocabulary.all), ListOptions.platform, ListOptions.width,
    ListOptions.fontScale, ListOptions.contentSize, ListOptions.direction, ListOptions.textStyle,
    ListOptions.accessibility.spec, ListOptions.shrink.spec, ListOptions.background,
    ListOptions.locale.spec,
  ]
  /// The rows that hold for the whole run.
  static let fixedOptions: [OptionSpec] = [
    ListOptions.scale, ListOptions.inputFormat, ListOptions.fontDirectory.spec,
    ListOptions.themesDirectory.spec,
  ]

  /// The command's table.
  static let spec = CommandSpec(
    name: "preview",
    abstract: "Preview a list in the browser, every theme and mode, redrawn on each save",
    overview: """
      Start a local web server and print its URL: the page shows the list in every theme and \
      mode side by side, with controls for the theme, mode, platform, width, text size, \
      direction, text style and the accessibility overlay.
      """,
    arguments: [
      ArgumentSpec(
        name: "list|folder",
        help:
          "the list to preview (JSON or Markdown), or a folder of lists to choose from (default: \(PreviewLists.defaultFolder), the snapshot catalogue's cases, when the current folder has one)",
        completion: .file(extensions: ["json", "md", "markdown"]), isOptional: true)
    ],
    argumentsInWords: "at most one list file or folder",
    discussion: """
      Saving the list, one of its icons or a file of the themes folder draws the pictures again:
      the open page updates without a reload, and an error takes the place of the picture until
      the next good save. The URL holds what the page shows; "Copy command" gives the equivalent
      'ouds-render render' line; the Docs view (view=docs) shows the list's source, case
      variants, tokens, contrast figures and screen-reader text. A Markdown list pasted into the
      page is drawn with the limits
      and errors of a file. The options of render set what the page opens with. Ctrl-C (or
      SIGTERM) stops the server, exit 0. See docs/preview.md.
      """,
    options: [port, host.spec] + stateOptions + fixedOptions,
    examples: [
      Example(command: "preview list.md", explanation: "every theme and mode of list.md"),
      Example(
        command: "preview Snapshots/cases --platform android --port 0",
        explanation: "a folder of lists, Android's rules, any free port"),
      Example(
        command: "preview list.json --themes my-themes/",
        explanation: "try token edits in a copy of Themes/"),
    ],
    draws: true,
    run: run)

  /// The table a picture's arguments are checked with: `render`'s list options.
  static let pictureSpec = CommandSpec(
    name: "render", abstract: "", arguments: [ListOptions.listArgument],
    argumentsInWords: "one list file", options: ListOptions.all + [ListOptions.scale])

  /// Serves the preview until SIGINT or SIGTERM; exit status 0 once stopped.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    var address = arguments.text(host) ?? "127.0.0.1"
    if let ipv4 = IPAddress.unmapped(address) {
      printError("note: --host \(address) is the IPv4 address \(ipv4): listening on \(ipv4)")
      address = ipv4
    }
    guard IPAddress.family(address) != nil else {
      throw UsageError(
        "--host \(MessageText.quoted(address)) is not an IP address (such as 127.0.0.1, ::1 or 192.168.1.20)"
      )
    }
    if IPAddress.isUnspecified(address) {
      throw UsageError(
        "--host \(address) listens everywhere: give the address others reach this machine at (such as 192.168.1.20), which the page checks requests against"
      )
    }
    let target: (path: String, isFolder: Bool)
    do {
      target = try PreviewLists.target(arguments.positionals.first)
    } catch {
      throw UsageError(error.message)
    }
    let lists = try PreviewLists(
      target: target.path, isFolder: target.isFolder, options: options(arguments),
      drawing: PreviewPictures())
    defer { lists.removeTemporaryFolder() }
    try lists.checkStartingState()
    if let left = lists.leftOut() { printError("note: " + left.reason) }
    GraphicsLibraries.finishPreloading()
    // SIGINT, SIGTERM, SIGHUP and SIGQUIT are blocked from here on, in the server's threads too
    let signals = try StopSignals()
    let session = try PreviewSession(
      lists: lists, address: address, port: UInt16(arguments[portOption] ?? 8740))
    defer { session.stop() }
    if !IPAddress.isLoopback(address) {
      printError(
        "warning: --host \(address): anyone who can reach this address sees the lists and renders this preview serves"
      )
    }
    let url = session.url
    try writeOutput(url + "\n")
    var targets = lists.watchTargets
    WatchOption.addThemes(
      arguments, explicit: ListOptions.themesDirectory, snapshots: nil, to: &targets)
    let watched = HelpText.words(
      [WatchTargets.describe([lists.target]), "its icons"] + WatchOption.themesSummary(targets),
      joinedBy: "or")
    let updates = try PreviewWatch(lists: lists, events: session.events).run(
      targets, signals: signals,
      announcement:
        "preview of \(lists.target) at \(url): drawn again when \(watched) change; Ctrl-C stops",
      log: printError)
    let plural = updates == 1 ? "" : "s"
    printError(
      "stopped the preview (\(signals.firstSignalName ?? "SIGINT")) after \(updates) update\(plural)"
    )
    return ExitStatus.success
  }

  /// The options of the page (its state, controls and starting state) and of the whole run.
  static func options(_ arguments: ParsedArguments) -> PreviewOptions {
    var state: [String: String] = [:]
    let named = stateOptions.map { option in
      let row = PreviewOption(name: option.key, isFlag: option.value == .flag)
      if row.isFlag {
        if arguments.isGiven(option) { state[row.key] = "1" }
      } else if let text = arguments.givenText(option) {
        state[row.key] = text
      }
      return row
    }
    if state["theme"] == nil { state["theme"] = Vocabulary.all }
    if state["mode"] == nil { state["mode"] = Vocabulary.all }
    return PreviewOptions(
      state: named,
      fixedWords: fixedOptions.flatMap { option in
        arguments.givenText(option).map { [option.key, $0] } ?? []
      },
      startingState: state, listFormatOption: ListOptions.inputFormat.key,
      everyValue: Vocabulary.all,
      pixelScale: arguments[ListOptions.scaleOption] ?? Vocabulary.standardPixelScale)
  }
}

/// The preview's pictures, drawn as `render` draws them: the words are parsed with `render`'s
/// list options and read by ``ListJob``; the renderer is kept while the generation lasts.
final class PreviewPictures: PreviewDrawing, @unchecked Sendable {
  // The render thread's own: the renderer of the current generation, the lines printed.
  private var renderer: (generation: Int, renderer: BulletListRenderer)?
  private var printed: Set<String> = []

  /// Runs `body` with the error lines held, then prints each line once per preview.
  private func printingHeldLines<T>(_ body: () throws -> T) rethrows -> T {
    heldErrorLines.withLock { $0 = [] }
    defer {
      let lines = heldErrorLines.withLock { held in
        defer { held = nil }
        return held ?? []
      }
      for line in lines where printed.insert(line).inserted { printError(line) }
    }
    return try body()
  }

  /// The job of `words` (`render`'s list options), on the renderer of `generation`.
  private func job(_ arguments: ParsedArguments, generation: Int, note: ([String]) -> Void) throws
    -> ListJob
  {
    let cached = renderer?.generation == generation ? renderer?.renderer : nil
    let job = try ListJob(arguments: arguments, renderer: cached)
    renderer = (generation, job.renderer)
    note(job.inputFiles.paths)
    return job
  }

  func picture(words: [String], generation: Int, note: ([String]) -> Void) throws -> [UInt8] {
    try printingHeldLines { try drawPicture(words: words, generation: generation, note: note) }
  }

  func docs(words: [String], listName: String, generation: Int, note: ([String]) -> Void) throws
    -> String
  {
    try printingHeldLines {
      let arguments = try ParsedArguments(
        words, spec: PreviewCommand.pictureSpec, command: "render")
      let job = try job(arguments, generation: generation, note: note)
      let format =
        arguments[ListOptions.inputFormatOption]
        ?? ListFormat(fileName: job.listPath)
      let docs = try job.attributingErrors {
        try ListDocs.make(
          listName: listName, file: URL(fileURLWithPath: job.listPath), format: format,
          document: job.document, variants: job.caseFile.variants,
          variantsDeclared: job.caseFile.hasVariantsKey, renderer: job.renderer,
          combinations: job.combinations, platforms: job.platforms, options: job.options)
      }
      return docs.json()
    }
  }

  private func drawPicture(words: [String], generation: Int, note: ([String]) -> Void) throws
    -> [UInt8]
  {
    let arguments = try ParsedArguments(
      words, spec: PreviewCommand.pictureSpec, command: "render")
    if ListJob.isMatrix(arguments) {
      throw PreviewFailure("one picture per request: give one theme, mode and platform")
    }
    let job = try job(arguments, generation: generation, note: note)
    let picture = try job.attributingErrors {
      try job.renderer.render(
        job.document.list, theme: job.themes.first ?? .orange, mode: job.modes.first ?? .light,
        options: job.options, format: .png(scale: job.scale(arguments)))
    }
    return [UInt8](picture.data)
  }

  func checkPicture(_ words: [String]) throws {
    _ = try ParsedArguments(words, spec: PreviewCommand.pictureSpec, command: "render")
  }

  func checkCommand(_ words: [String]) -> String? {
    do {
      _ = try ParsedArguments(words, spec: RenderCommand.spec, command: "render")
    } catch {
      return "\(error)"
    }
    return nil
  }
}
