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

/// The failures of the run the folders hold, and their accepting through `snapshot accept`.
public final class RunReview: ReviewContent, @unchecked Sendable {
  /// The run and its folders.
  public let title: String
  /// The failures.
  public let items: [ReviewItem]
  /// None yet: when results.json carries groups of one cause, each becomes one here.
  public let groups: [ReviewGroup] = []
  private let labels: [String]
  private let references: [String: ReferenceResult]
  private let images: ArtifactImages

  /// Reads and merges the folders as `snapshot accept` does (one run, every check of merge).
  /// - Throws: ``SnapshotError`` for a folder that is not a results folder, or folders of
  ///   different runs.
  public init(labels: [String]) throws {
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

  /// The picture `name` of `id`, read from the run's folder with its checks.
  public func image(_ name: String, of id: String) -> Result<[UInt8], PreviewFailure> {
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

  /// `ouds-render snapshot accept <dir>... --filter <ids>`, shell-quoted.
  public func command(accepting ids: [String]) -> String {
    (["ouds-render"] + words(accepting: ids)).map(shellQuote).joined(separator: " ")
  }

  /// Runs this very binary as `snapshot accept`, its output and errors read (the last 64 KiB).
  public func accept(_ ids: [String]) -> ReviewAcceptance {
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
public enum ChildProcess {
  /// The exit status (128 + the signal for a killed child) and the output's last 64 KiB.
  public static func run(_ words: [String]) -> Result<(Int32, String), ChildProcessError> {
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
public struct ChildProcessError: Error, CustomStringConvertible {
  /// The system's reason.
  public var description: String
  init(_ code: Int32) { description = String(cString: strerror(code)) }
}
