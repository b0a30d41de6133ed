import Graphics
import PreviewServer
import Primitives
import SafeInput

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ouds-render preview`: a local web page that shows a list in every theme and mode, and draws
/// it again as its files are saved.
enum PreviewCommand {
  /// `--port <n>`.
  static let port = OptionSpec(
    names: ["--port"],
    value: .integer(placeholder: "n", range: 0...65535, default: 8740),
    help: "the port to listen on; 0 takes any free one (the URL printed says which)")
  /// `--host <address>`.
  static let host = OptionSpec(
    names: ["--host"], value: .text(placeholder: "address", completion: .none),
    help:
      "listen on this IP address of the machine instead (192.168.1.20, ::1): others who reach it see your lists, so a warning says so; the page answers only to that address, 127.0.0.1 and localhost",
    defaultDescription: "127.0.0.1: this machine alone")

  /// The rows whose values make up the page's state (its controls and URL), from the options of
  /// `render`: given on the command line, they are the state the page opens with.
  static let stateOptions: [OptionSpec] = [
    ListOptions.theme.defaulting(to: Vocabulary.all),
    ListOptions.mode.defaulting(to: Vocabulary.all), ListOptions.platform, ListOptions.width,
    ListOptions.fontScale, ListOptions.contentSize, ListOptions.direction, ListOptions.textStyle,
    ListOptions.accessibility, ListOptions.background, ListOptions.locale,
  ]
  /// The rows that hold for the whole run.
  static let fixedOptions: [OptionSpec] = [
    ListOptions.scale, ListOptions.inputFormat, ListOptions.fontDirectory,
    ListOptions.themesDirectory,
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
      'ouds-render render' line. A Markdown list pasted into the page is drawn with the limits
      and errors of a file. The options of render set what the page opens with. Ctrl-C (or
      SIGTERM) stops the server, exit 0. See docs/preview.md.
      """,
    options: [port, host] + stateOptions + fixedOptions,
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

  /// The quiet time that ends a burst of changes: 50 ms (an editor's save is several events).
  static let quietPeriod: UInt64 = 50_000_000

  /// Serves the preview until SIGINT or SIGTERM; exit status 0 once stopped.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let address = arguments.text(host) ?? "127.0.0.1"
    guard let family = IPAddress.family(address) else {
      throw UsageError(
        "--host \(MessageText.quoted(address)) is not an IP address (such as 127.0.0.1, ::1 or 192.168.1.20)"
      )
    }
    if IPAddress.isUnspecified(address) {
      throw UsageError(
        "--host \(address) listens everywhere: give the address others reach this machine at (such as 192.168.1.20), which the page checks requests against"
      )
    }
    let lists = try PreviewLists(arguments)
    defer { lists.removeTemporaryFolder() }
    try lists.checkStartingState()
    GraphicsLibraries.finishPreloading()
    // SIGINT and SIGTERM are blocked from here on, in the server's threads too
    let signals = try StopSignals()
    let events = PreviewEvents(data: PreviewLists.changeData(""))
    let queue = RenderQueue(limit: 16)
    let site = PreviewSite(content: lists, events: events, queue: queue)
    let server: HTTPServer
    do {
      server = try HTTPServer(
        site: site, address: address, port: UInt16(arguments.integer(port) ?? 8740))
    } catch {
      throw PreviewError(description: "preview: \(error)")
    }
    defer {
      events.stop()
      queue.stop()
      server.stop()
    }
    var names = ["127.0.0.1", "localhost"]
    if !names.contains(address) { names.append(address) }
    site.accept(names: names, port: server.port)
    if !IPAddress.isLoopback(address) {
      printError(
        "warning: --host \(address): anyone who can reach this address sees the lists and renders this preview serves"
      )
    }
    let shown = family == AF_INET6 ? "[\(address)]" : address
    let url = "http://\(shown):\(server.port)/"
    try writeOutput(url + "\n")
    let watch = PreviewWatch(lists: lists, events: events)
    let updates = try watch.run(arguments, signals: signals, url: url)
    let plural = updates == 1 ? "" : "s"
    printError(
      "stopped the preview (\(signals.firstSignalName ?? "SIGINT")) after \(updates) update\(plural)"
    )
    return ExitStatus.success
  }
}

/// The preview could not start: one line, exit 1.
struct PreviewError: Error, CustomStringConvertible {
  /// The message.
  var description: String
}

/// IP address literals, as `--host` takes them (no name is looked up).
enum IPAddress {
  /// `AF_INET` or `AF_INET6` for an address literal, else nil.
  static func family(_ text: String) -> Int32? {
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return AF_INET }
    if inet_pton(AF_INET6, text, &v6) == 1 { return AF_INET6 }
    return nil
  }

  /// Whether `text` is a loopback address (127.0.0.0/8, ::1): this machine alone.
  static func isLoopback(_ text: String) -> Bool {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
    return text == "::1"
  }

  /// Whether `text` is 0.0.0.0 or `::` (every interface).
  static func isUnspecified(_ text: String) -> Bool {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return v4.s_addr == 0 }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return false }
    return withUnsafeBytes(of: &v6) { $0.allSatisfy { $0 == 0 } }
  }
}
