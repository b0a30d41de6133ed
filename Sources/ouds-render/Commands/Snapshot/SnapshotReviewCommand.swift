import FileWatch
import PreviewServer
import SafeInput
import Snapshot
import SnapshotReports

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
  static let port = OptionSpec(
    names: ["--port"],
    value: .integer(placeholder: "n", range: 0...65535, default: 8741),
    help: "the port to listen on; 0 takes any free one (the URL printed says which)")
  /// `--host <address>`.
  static let host = OptionSpec(
    names: ["--host"], value: .text(placeholder: "address", completion: .none),
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
      equivalent command line. A decision needs the secret the page holds
      and a request from the page's own origin: another site cannot accept for you. Ctrl-C (or
      SIGTERM) stops the server, exit 0. See docs/snapshots.md.
      """,
    options: [port, host],
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
      site: site, address: address, port: UInt16(arguments.integer(port) ?? 8741))
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

/// The failures of the run the folders hold, and their accepting through `snapshot accept`.
final class RunReview: ReviewContent, @unchecked Sendable {
  let title: String
  let items: [ReviewItem]
  /// None yet: when results.json carries groups of one cause, each becomes one here.
  let groups: [ReviewGroup] = []
  private let labels: [String]
  private let references: [String: ReferenceResult]
  private let images: ArtifactImages

  /// Reads and merges the folders as `snapshot accept` does (one run, every check of merge).
  init(labels: [String]) throws {
    var parts: [SnapshotRunResults.Part] = []
    var folders: [String: URL] = [:]
    for label in labels {
      let folder = URL(fileURLWithPath: label)
      let results = try SnapshotRunResults.read(from: folder)
      parts.append(SnapshotRunResults.Part(label: label, results: results))
      for reference in results.references { folders[reference.id] = folder }
    }
    let merged = try SnapshotRunResults.merge(parts)
    self.labels = labels
    images = ArtifactImages(folders: folders)
    let failures = merged.failures
    references = Dictionary(failures.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    items = failures.map { reference in
      ReviewItem(
        id: reference.id, status: reference.displayStatus,
        reason: reference.message ?? reference.reason,
        images: ArtifactImage.allCases.filter { reference.images[$0] != nil }.map(\.rawValue),
        canAccept: reference.status != .error)
    }
    title = "run \(merged.run?.id ?? "(none)") (\(labels.joined(separator: ", ")))"
  }

  func image(_ name: String, of id: String) -> Result<[UInt8], PreviewFailure> {
    guard let reference = references[id], let image = ArtifactImage(rawValue: name) else {
      return .failure(PreviewFailure("no picture \(name) of \(id)"))
    }
    do {
      return .success([UInt8](try images.data(for: reference, image: image)))
    } catch {
      return .failure(PreviewFailure("\(id): \(error)"))
    }
  }

  /// The words after `ouds-render` that accept `ids`.
  private func words(accepting ids: [String]) -> [String] {
    ["snapshot", "accept"] + labels + ["--filter", ids.joined(separator: ",")]
  }

  func command(accepting ids: [String]) -> String {
    (["ouds-render"] + words(accepting: ids)).map(shellQuote).joined(separator: " ")
  }

  /// Runs this very binary as `snapshot accept`, its output and errors read (the last 64 KiB).
  func accept(_ ids: [String]) -> ReviewAcceptance {
    if let id = ids.first(where: { $0.contains(",") }) {
      return ReviewAcceptance(
        succeeded: false, message: "\(id) holds a comma, which --filter cannot name")
    }
    switch ChildProcess.run(words(accepting: ids)) {
    case .failure(let reason):
      return ReviewAcceptance(succeeded: false, message: "cannot run snapshot accept: \(reason)")
    case .success(let (status, output)):
      let lines = output.split(separator: "\n").map(String.init)
      let line =
        status == 0
        ? lines.last : lines.first(where: { $0.hasPrefix("error:") }) ?? lines.last
      return ReviewAcceptance(
        succeeded: status == 0,
        message: line ?? "snapshot accept ended with status \(status) and said nothing")
    }
  }
}

/// This binary run again with other words (`posix_spawn`), its standard output and error read
/// together: signals unblocked and at their default in the child, standard input empty.
enum ChildProcess {
  /// The exit status (128 + the signal for a killed child) and the output's last 64 KiB.
  static func run(_ words: [String]) -> Result<(Int32, String), ChildProcessError> {
    #if os(Linux)
      let executable = "/proc/self/exe"
    #else
      let executable = CommandLine.arguments[0]
    #endif
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return .failure(ChildProcessError(errno)) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(ends[0]) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var stops = sigset_t()
    sigemptyset(&stops)
    sigaddset(&stops, SIGINT)
    sigaddset(&stops, SIGTERM)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &stops)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = (["ouds-render"] + words).map { strdup($0) } + [nil]
    defer { for word in argv { free(word) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
    close(ends[1])
    guard spawned == 0 else { return .failure(ChildProcessError(spawned)) }
    var kept: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      kept += buffer[0..<count]
      if kept.count > 65536 { kept.removeFirst(kept.count - 65536) }
    }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return .success((exit, String(decoding: kept, as: UTF8.self)))
  }
}

/// A child process could not be started.
struct ChildProcessError: Error, CustomStringConvertible {
  /// The system's reason.
  var description: String
  init(_ code: Int32) { description = String(cString: strerror(code)) }
}
