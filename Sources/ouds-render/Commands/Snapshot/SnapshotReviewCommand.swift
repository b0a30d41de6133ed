import CLIKit
import FileWatch
import PreviewServer
import Primitives
import SafeInput
import SnapshotReview

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

/// `ouds-render snapshot review`: serves a run's failures (its `verify --results` folders) on a
/// local page with Accept and Reject; Accept runs `snapshot accept` itself, so every check of
/// accept holds.
enum SnapshotReviewCommand {
  /// `--port <n>`.
  static let portOption = TypedOption.integer(
    names: ["--port"], placeholder: "n", range: 0...65535, default: 8741,
    help: "the port to listen on; 0 takes any free one (the URL printed says which)")
  /// `--port` as the table lists it.
  static let port = portOption.spec
  /// `--host <address>`.
  static let host = TypedOption.text(
    names: ["--host"], placeholder: "address",
    help:
      "listen on this IP address of the machine instead (192.168.1.20, ::1): whoever reaches it sees the run's pictures, so a warning says so; the page answers only to that address, 127.0.0.1 and localhost",
    defaultDescription: "127.0.0.1: this machine alone")

  /// The command's table.
  static let spec = CommandSpec(
    name: "review",
    abstract: "Review a run's failures in the browser and accept or reject each",
    overview:
      "Serve the failures of a run (the results folders of its 'snapshot verify --results' shards, or the CI's artifact) on a local web page and print its URL: each failure shows its reference, render and difference, with Accept and Reject.",
    arguments: [
      ArgumentSpec(
        name: "dir",
        help: "a folder written by 'snapshot verify --results' (default: ./out/shard-*)",
        completion: .directory, isVariadic: true, isOptional: true)
    ],
    argumentsInWords: "results folders of one run",
    discussion: """
      Accept and Reject mark a failure (Accept all shown: every failure the filter shows); Write
      then runs 'ouds-render snapshot accept <dir>... --filter <the accepted ids>' and shows its
      last line: the run must be of this catalogue and unchanged since, exactly as for accept,
      and the catalogue is found as accept finds it (run it from the checkout's root). One write
      per run: writing references changes the catalogue, so what remains waits for a new verify
      run. Reject writes nothing. The marks live in the server's memory only (a restart shows
      them again; what was written is on disk). The page lists what was done with the
      equivalent command line. A decision needs the secret the page holds and a request from
      the page's own origin: another site cannot accept for you. Ctrl-C (or SIGTERM) stops the
      server, exit 0. See docs/snapshots.md.
      """,
    options: [port, host.spec],
    examples: [
      Example(
        command: "snapshot review out/shard-*",
        explanation: "the CI's artifact, downloaded into out/"),
      Example(
        command: "snapshot review out/results --port 0",
        explanation: "one local verify --results run, any free port"),
    ],
    run: run)

  /// Serves the review until SIGINT or SIGTERM; exit status 0 once stopped.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    let address = arguments.text(host) ?? "127.0.0.1"
    guard IPAddress.family(address) != nil, !IPAddress.isUnspecified(address) else {
      throw UsageError(
        "--host \(MessageText.quoted(address)) is not the IP address of one interface (such as 127.0.0.1, ::1 or 192.168.1.20)"
      )
    }
    var labels = arguments.positionals
    if labels.isEmpty {
      labels = ((try? FileManager.default.contentsOfDirectory(atPath: "out")) ?? [])
        .filter { $0.hasPrefix("shard-") }.sorted().map { "out/" + $0 }
      guard !labels.isEmpty else {
        throw UsageError(
          "no results folder given, and no out/shard-* here: give the folders 'snapshot verify --results' wrote"
        )
      }
    }
    let content = try RunReview(labels: labels)
    if content.items.isEmpty {
      try writeOutput("nothing to review: the run has no failure\n")
      return ExitStatus.success
    }
    // SIGINT and SIGTERM are blocked from here on, in the server's threads too.
    let signals = try StopSignals()
    let site = ReviewSite(content: content, secret: ReviewSite.makeSecret())
    let server = try HTTPServer(
      site: site, address: address, port: UInt16(arguments[portOption] ?? 8741))
    defer { server.stop() }
    site.accept(
      names: Array(Set(["127.0.0.1", "localhost", address])), port: server.port)
    if !IPAddress.isLoopback(address) {
      printError(
        "warning: --host \(address): anyone who can reach this address sees the run's pictures; accepting needs the page's secret"
      )
    }
    let url = "http://\(address.contains(":") ? "[\(address)]" : address):\(server.port)/"
    try writeOutput(url + "\n")
    printError(
      "review of \(content.title) at \(url): \(content.items.count) failures; Ctrl-C stops")
    var wait = pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)
    while !signals.stopRequested { _ = poll(&wait, 1, -1) }
    let (written, rejected, unwritten) = site.counts
    printError(
      "stopped the review (\(signals.firstSignalName ?? "SIGINT")): \(written) written, \(rejected) rejected\(unwritten == 0 ? "" : ", \(unwritten) accepted but not written")"
    )
    return ExitStatus.success
  }
}
