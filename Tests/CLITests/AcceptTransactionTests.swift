import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 40: `snapshot accept` is all or nothing, checks under its lock, and takes one entry's
/// own picture. A small catalogue (sample-3's eight references) in which four references are
/// replaced by other pictures, verified by two shards with `--results`: the run then has four
/// changed references to accept.
@Suite("snapshot accept: all or nothing, under its lock, one entry one picture")
final class AcceptTransactionTests {
  /// The references the fixture breaks (each replaced by another theme's picture).
  static let broken = ["orange-light@2x", "sosh-dark@2x", "wireframe-light@2x", "orange-dark@2x"]
  static let accept = ["snapshot", "accept", "out/shard-1", "out/shard-2"]

  let root: URL
  /// The checkout with the run in `out/`.
  let checkout: URL
  /// The references as the fixture breaks them, and as the run wants them.
  let before: [String: Data]
  let wanted: [String: Data]

  init() throws {
    root = try temporaryFolder()
    let original = root.appendingPathComponent("original")
    let snapshots = original.appendingPathComponent("Snapshots")
    let manager = FileManager.default
    try manager.createDirectory(
      at: snapshots.appendingPathComponent("cases"), withIntermediateDirectories: true)
    let repository = repositoryRoot.appendingPathComponent("Snapshots")
    try manager.copyItem(
      at: repository.appendingPathComponent("cases/sample-3.json"),
      to: snapshots.appendingPathComponent("cases/sample-3.json"))
    try manager.copyItem(
      at: repository.appendingPathComponent("sample-3"),
      to: snapshots.appendingPathComponent("sample-3"))
    try manager.copyItem(
      at: repository.appendingPathComponent("ENVIRONMENT.json"),
      to: snapshots.appendingPathComponent("ENVIRONMENT.json"))
    _ = try copyOfThemes(in: original)
    wanted = try Self.contents(snapshots)
    checkout = root.appendingPathComponent("checkout")
    try manager.copyItem(at: original, to: checkout)
    let references = checkout.appendingPathComponent("Snapshots/sample-3")
    for (index, name) in Self.broken.enumerated() {
      let other = Self.broken[(index + 1) % Self.broken.count]
      try manager.removeItem(at: references.appendingPathComponent(name + ".png"))
      try manager.copyItem(
        at: references.appendingPathComponent("../../../original/Snapshots/sample-3/\(other).png")
          .standardizedFileURL,
        to: references.appendingPathComponent(name + ".png"))
    }
    before = try Self.contents(checkout.appendingPathComponent("Snapshots"))
    for shard in 1...2 {
      let verify = try run(
        [
          "snapshot", "verify", "--shard", "\(shard)/2", "--run-id", "ci-40", "--results",
          "out/shard-\(shard)",
        ], in: checkout)
      #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
    }
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  /// Every file under `folder` (names starting with a dot left out) with its bytes.
  static func contents(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return files }
    while let relative = walker.nextObject() as? String {
      if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
      let url = folder.appendingPathComponent(relative)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
        !isFolder.boolValue
      else { continue }
      files[relative] = try Data(contentsOf: url)
    }
    return files
  }

  /// The hidden files accept may leave (its journal, new and kept files), relative.
  static func hidden(_ folder: URL) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var found: [String] = []
    while let relative = walker.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(".") && name != ".record.lock" { found.append(relative) }
    }
    return found.sorted()
  }

  /// A copy of the checkout, run and all.
  func copy(_ name: String) throws -> URL {
    let copy = root.appendingPathComponent(name)
    try FileManager.default.copyItem(at: checkout, to: copy)
    return copy
  }

  func snapshots(_ copy: URL) -> URL { copy.appendingPathComponent("Snapshots") }

  @Test(
    "the run's four changes are accepted, then verify passes and the same accept finds nothing left"
  )
  func accepts() throws {
    let copy = try copy("plain")
    let accepted = try run(Self.accept, in: copy)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(
      accepted.stdout.hasSuffix(
        "4 references accepted from the run ci-40; review and commit Snapshots\n"),
      "\(accepted.stdout)")
    #expect(try Self.contents(snapshots(copy)) == wanted)
    #expect(Self.hidden(snapshots(copy)).isEmpty)
    let again = try run(Self.accept, in: copy)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      again.stdout
        == "nothing left to accept: the 4 renders of the run ci-40 are already the references in Snapshots\n"
    )
    #expect(try run(["snapshot", "verify"], in: copy).status == 0)
  }

  @Test("a destination that is a symbolic link is refused before anything is written")
  func linkDestination() throws {
    let copy = try copy("link")
    // The last reference accept would write: on main, the three before it were replaced.
    let reference = snapshots(copy).appendingPathComponent("sample-3/wireframe-light@2x.png")
    let elsewhere = root.appendingPathComponent("elsewhere.png")
    try FileManager.default.moveItem(at: reference, to: elsewhere)
    try FileManager.default.createSymbolicLink(at: reference, withDestinationURL: elsewhere)
    let refused = try run(Self.accept, in: copy)
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "error: cannot accept: \(snapshots(copy).path)/sample-3/wireframe-light@2x.png: a symbolic link (to \(elsewhere.path)), not a reference file: accept replaces only regular files (replace the link by the file it names); nothing written\n"
    )
    #expect(try Self.contents(snapshots(copy)) == before)
    #expect(Self.hidden(snapshots(copy)).isEmpty)
  }

  /// Whether this process may make a file immutable (`chattr +i`: root, a file system with it).
  static let immutableAllowed: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else {
      return false
    }
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-chattr-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else { return false }
    defer { try? FileManager.default.removeItem(at: probe) }
    let root = URL(fileURLWithPath: "/")
    guard (try? Shell.run(["/usr/bin/chattr", "+i", probe.path], in: root))?.status == 0 else {
      return false
    }
    _ = try? Shell.run(["/usr/bin/chattr", "-i", probe.path], in: root)
    return true
  }()

  @Test(
    "a destination the system refuses to replace (immutable), found after three files were staged: all undone, nothing written",
    .enabled(if: immutableAllowed, "needs root and a file system with chattr +i"))
  func failureWhileWriting() throws {
    let copy = try copy("immutable")
    let reference = snapshots(copy).appendingPathComponent("sample-3/wireframe-light@2x.png")
    let root = URL(fileURLWithPath: "/")
    #expect(try Shell.run(["/usr/bin/chattr", "+i", reference.path], in: root).status == 0)
    defer { _ = try? Shell.run(["/usr/bin/chattr", "-i", reference.path], in: root) }
    let refused = try run(Self.accept, in: copy)
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "error: cannot accept: \(snapshots(copy).path)/sample-3/wireframe-light@2x.png: Operation not permitted while writing the new files beside the references; nothing written\n",
      "\(refused.stderr)")
    #expect(try Self.contents(snapshots(copy)) == before)
    #expect(Self.hidden(snapshots(copy)).isEmpty, "\(Self.hidden(snapshots(copy)))")
  }

  /// Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN), tried once.
  static let tmpfsAllowed: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else {
      return false
    }
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-tmpfs-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: probe) }
    let mounted =
      (try? Shell.run(
        ["/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path],
        in: URL(fileURLWithPath: "/")))?.status == 0
    if mounted { _ = try? Shell.run(["/bin/umount", probe.path], in: URL(fileURLWithPath: "/")) }
    return mounted
  }()

  @Test(
    "on a disk too full for the new files, accept is refused before anything is written",
    .enabled(if: tmpfsAllowed, "needs root allowed to mount a small tmpfs (mount -t tmpfs)"))
  func fullDisk() throws {
    let disk = root.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
    // Room for the checkout and a little more, not for four new references.
    let used = try Self.contents(checkout).values.reduce(0) { $0 + ($1.count + 4095) / 4096 * 4096 }
    let size = used + 256 * 1024
    let mount = try Shell.run(
      ["/bin/mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", disk.path],
      in: URL(fileURLWithPath: "/"))
    try #require(mount.status == 0, "\(mount.output)")
    defer { _ = try? Shell.run(["/bin/umount", disk.path], in: URL(fileURLWithPath: "/")) }
    let copy = disk.appendingPathComponent("checkout")
    let copied = try Shell.run(["/bin/cp", "-a", checkout.path, copy.path], in: root)
    try #require(copied.status == 0, "\(copied.output)")
    // Fill what is left but a few blocks.
    var space = statvfs()
    try #require(statvfs(disk.path, &space) == 0)
    let free = Int(space.f_bavail) * Int(space.f_frsize)
    try Data(count: max(0, free - 3 * 4096)).write(to: disk.appendingPathComponent("filler"))
    let refused = try run(Self.accept, in: copy)
    #expect(refused.status == 1)
    #expect(
      refused.stderr.hasPrefix("error: cannot accept: \(copy.path)/Snapshots: "),
      "\(refused.stderr)")
    #expect(refused.stderr.contains(" bytes are needed for the 4 new files, but the disk has "))
    #expect(refused.stderr.hasSuffix(" free; nothing written\n"), "\(refused.stderr)")
    #expect(try Self.contents(snapshots(copy)) == before)
    #expect(Self.hidden(snapshots(copy)).isEmpty)
  }

  @Test(
    "killed at every step, accept leaves the old or the new references or a journal the next command finishes"
  )
  func killedAtEveryStep() throws {
    // 1 journal, 4 staged files, 1 ready, 4 renames, 1 before clean-up: 11 steps.
    for step in 1...12 {
      let copy = try copy("kill-\(step)")
      let killed = try run(
        Self.accept, in: copy, environment: ["OUDS_TEST_ACCEPT_KILL_AT": "\(step)"])
      let state = try Self.contents(snapshots(copy))
      let journal = Self.hidden(snapshots(copy)).contains(".accept-journal.json")
      if step <= 11 {
        #expect(killed.status == SIGKILL, "step \(step): \(killed.stderr)")
        #expect(killed.stdout.isEmpty, "step \(step)")
      } else {
        #expect(killed.status == 0, "step \(step): \(killed.stderr)")
      }
      if !journal {
        #expect(state == before || state == wanted, "step \(step): old or new, whole")
      }
      // Each reference's PNG is the old one or the new one.
      for (path, data) in state where path.hasSuffix(".png") {
        #expect(data == before[path] || data == wanted[path], "step \(step): \(path)")
      }
      // The next command finishes or undoes it, in one line; the same accept then finishes it.
      let next = try run(step % 2 == 0 ? ["snapshot", "verify"] : Self.accept, in: copy)
      if journal {
        let notes = next.stderr.split(separator: "\n").filter {
          $0.hasPrefix("note: an interrupted snapshot accept of the run ci-40 was ")
        }
        #expect(notes.count == 1, "step \(step): \(next.stderr)")
      }
      #expect(!Self.hidden(snapshots(copy)).contains(".accept-journal.json"), "step \(step)")
      let finished = try run(Self.accept, in: copy)
      #expect(finished.status == 0, "step \(step): \(finished.stderr)")
      #expect(try Self.contents(snapshots(copy)) == wanted, "step \(step): finished")
      #expect(Self.hidden(snapshots(copy)).isEmpty, "step \(step): \(Self.hidden(snapshots(copy)))")
    }
  }

  @Test(
    "accept takes the lock before it checks the catalogue: a case edited while it waits is seen")
  func editedWhileWaiting() throws {
    let copy = try copy("waiting")
    let lockPath = snapshots(copy).appendingPathComponent(".record.lock").path
    let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
    try #require(descriptor >= 0)
    #expect(flock(descriptor, LOCK_EX) == 0)
    let process = Process()
    process.executableURL = try BuiltBinary.url.get()
    process.arguments = Self.accept
    process.currentDirectoryURL = copy
    let errors = Pipe()
    let output = Pipe()
    process.standardError = errors
    process.standardOutput = output
    try process.run()
    // Wait until it says it waits for the lock (it polls the lock every 50 ms).
    var said = Data()
    while !String(decoding: said, as: UTF8.self).contains("\n") {
      let chunk = errors.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      said += chunk
    }
    #expect(
      String(decoding: said, as: UTF8.self).hasPrefix(
        "waiting for Snapshots/.record.lock: another process is writing this snapshots folder"),
      "\(String(decoding: said, as: UTF8.self))")
    let caseFile = snapshots(copy).appendingPathComponent("cases/sample-3.json")
    let text = try String(contentsOf: caseFile, encoding: .utf8)
    try Data((text + "\n").utf8).write(to: caseFile)
    // Newer than the results by the clock's second.
    var times = [
      timespec(tv_sec: time(nil) + 2, tv_nsec: 0), timespec(tv_sec: time(nil) + 2, tv_nsec: 0),
    ]
    utimensat(AT_FDCWD, caseFile.path, &times, 0)
    flock(descriptor, LOCK_UN)
    close(descriptor)
    let rest = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let stderr = String(decoding: said + rest, as: UTF8.self)
    #expect(process.terminationStatus == 1)
    let lines = stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(stderr)")
    #expect(
      lines.last.map {
        $0.hasPrefix(
          "error: cannot accept: out/shard-1/results.json, out/shard-2/results.json: run.catalogueSHA256 is "
        )
          && $0.hasSuffix(
            "the run verified another catalogue than Snapshots here (case file edited after the results: cases/sample-3.json); nothing written"
          )
      } == true, "\(stderr)")
    #expect(output.fileHandleForReading.readDataToEndOfFile().isEmpty)
    var expected = before
    expected["cases/sample-3.json"] = Data((text + "\n").utf8)
    #expect(try Self.contents(snapshots(copy)) == expected)
  }

  @Test("two accepts of one run at once: one writes, the other finds nothing left")
  func twoAtOnce() throws {
    let copy = try copy("twice")
    let binary = try BuiltBinary.url.get()
    var processes: [(Process, Pipe, Pipe)] = []
    for _ in 0..<2 {
      let process = Process()
      process.executableURL = binary
      process.arguments = Self.accept
      process.currentDirectoryURL = copy
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      processes.append((process, output, errors))
    }
    for (process, _, _) in processes { try process.run() }
    var outputs: [String] = []
    for (process, output, errors) in processes {
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      _ = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(text)")
      outputs.append(text)
    }
    let wrote = outputs.filter {
      $0.hasSuffix("4 references accepted from the run ci-40; review and commit Snapshots\n")
    }
    let nothing = outputs.filter {
      $0
        == "nothing left to accept: the 4 renders of the run ci-40 are already the references in Snapshots\n"
    }
    #expect(wrote.count == 1 && nothing.count == 1, "\(outputs)")
    #expect(try Self.contents(snapshots(copy)) == wanted)
  }

  @Test("a refused accept names what changed since the run: the tokens, a re-recorded reference")
  func refusalNamesTheChange() throws {
    let copy = try copy("changed")
    let tokens = copy.appendingPathComponent("Themes/brands/wireframe/light.tokens.json")
    let text = try String(contentsOf: tokens, encoding: .utf8)
    let old = #""$value": "{color.raw.wireframe.functional-gray-dark-960}""#
    try #require(text.contains(old))
    try Data(
      text.replacingOccurrences(
        of: old, with: #""$value": "{color.raw.wireframe.royal-blue-800}""#
      ).utf8
    ).write(to: tokens)
    let reference = snapshots(copy).appendingPathComponent("sample-3/orange-light@2x.png")
    try FileManager.default.removeItem(at: reference)
    try FileManager.default.copyItem(
      at: snapshots(copy).appendingPathComponent("sample-3/sosh-light@2x.png"), to: reference)
    let edited = try Self.contents(snapshots(copy))
    let refused = try run(Self.accept, in: copy)
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "the run verified another catalogue than Snapshots here (tokens changed: wireframe/light color.content.default: #08090D → #223CAB (brands/wireframe/light.tokens.json); reference sample-3/orange-light@2x (re-recorded)); nothing written\n"
      ), "\(refused.stderr)")
    #expect(try Self.contents(snapshots(copy)) == edited)
  }

  @Test(
    "a reference that passed in the run and was painted since is found, though no shard hashed the others' pictures (issue 39 point 5)"
  )
  func passedReferencePaintedSince() throws {
    let copy = try copy("painted")
    // sosh-light passed in the run; shard 1 or 2 compared it, the other never read it.
    let painted = snapshots(copy).appendingPathComponent("sample-3/sosh-light@2x.png")
    try FileManager.default.removeItem(at: painted)
    try FileManager.default.copyItem(
      at: snapshots(copy).appendingPathComponent("sample-3/wireframe-dark@2x.png"), to: painted)
    let edited = try Self.contents(snapshots(copy))
    let refused = try run(Self.accept, in: copy)
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "error: cannot accept: out/shard-1/results.json, out/shard-2/results.json: 1 reference here differs from what the run compared: sample-3/sosh-light@2x (PNG changed since): the run verified another catalogue than Snapshots here (reference sample-3/sosh-light@2x (re-recorded)); nothing written\n",
      "\(refused.stderr)")
    #expect(try Self.contents(snapshots(copy)) == edited)
    // Merge says the same of the shards.
    let merged = try run(["snapshot", "merge", "out/shard-1", "out/shard-2"], in: copy)
    #expect(merged.status == 1)
    #expect(
      merged.stderr.hasPrefix(
        "error: cannot merge: 1 reference here differs from what the run compared: sample-3/sosh-light@2x (PNG changed since); the shards do not describe the catalogue in "
      ), "\(merged.stderr)")
    // Each entry holds the digest of the bytes its shard compared, passed or not.
    let (_, document, index) = try entry("sample-3/sosh-light@2x", in: copy)
    let entries = try #require(document["references"] as? [[String: Any]])
    let digests = try #require(entries[index]["referenceSHA256"] as? [String: String])
    #expect(digests["png"]?.count == 64 && digests["layout"]?.count == 64)
  }

  /// The results file of the shard that holds `id`, its document and the entry's index.
  func entry(_ id: String, in copy: URL) throws -> (URL, [String: Any], Int) {
    for shard in 1...2 {
      let file = copy.appendingPathComponent("out/shard-\(shard)/results.json")
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
      let entries = document["references"] as? [[String: Any]] ?? []
      if let index = entries.firstIndex(where: { $0["id"] as? String == id }) {
        return (file, document, index)
      }
    }
    throw CLIError("no shard holds \(id)")
  }

  @Test("an entry that carries another entry's picture is refused, naming both")
  func borrowedPicture() throws {
    let copy = try copy("borrowed")
    // A passed reference of the same shard as a changed one takes its status, pixels and artifacts.
    let (file, document, changedIndex) = try entry("sample-3/orange-light@2x", in: copy)
    var entries = document["references"] as? [[String: Any]] ?? []
    let changed = entries[changedIndex]
    let passedIndex = try #require(entries.firstIndex { $0["status"] as? String == "passed" })
    let passedID = try #require(entries[passedIndex]["id"] as? String)
    for key in [
      "status", "reason", "message", "pixels", "layoutCompared", "layoutDiff", "images",
      "artifacts", "artifactsSHA256",
    ] {
      entries[passedIndex][key] = changed[key]
    }
    var edited = document
    edited["references"] = entries
    try JSONSerialization.data(withJSONObject: edited).write(to: file)
    let refused = try run(Self.accept, in: copy)
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "error: cannot accept: out/shard-1/results.json, out/shard-2/results.json: \(passedID)'s actual.layout.json is sample-3/orange-light@2x/actual.layout.json, an artifact of sample-3/orange-light@2x: each entry's artifacts are its own, named as verify names them; the results were edited, nothing written\n",
      "\(refused.stderr)")
    #expect(try Self.contents(snapshots(copy)) == before)
  }

  @Test(
    "a reference whose pixels already equal the render keeps its bytes; only its layout is written")
  func samePixelsKept() throws {
    // A PNG with a text chunk: other bytes, the same pixels.
    let copy = root.appendingPathComponent("pixels")
    try FileManager.default.copyItem(at: root.appendingPathComponent("original"), to: copy)
    let png = snapshots(copy).appendingPathComponent("sample-3/sosh-light@2x.png")
    let chunked = Self.withTextChunk(try Data(contentsOf: png))
    try chunked.write(to: png)
    // Its layout JSON edited: verify reports it changed.
    let layout = snapshots(copy).appendingPathComponent("sample-3/sosh-light.layout.json")
    let original = try Data(contentsOf: layout)
    try (original + Data("\n".utf8)).write(to: layout)
    for shard in 1...2 {
      _ = try run(
        [
          "snapshot", "verify", "--shard", "\(shard)/2", "--run-id", "ci-pixels", "--results",
          "out/shard-\(shard)",
        ], in: copy)
    }
    let accepted = try run(Self.accept, in: copy)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(
      accepted.stdout.contains("accepted sample-3/sosh-light@2x (changed)\n"), "\(accepted.stdout)")
    #expect(try Data(contentsOf: png) == chunked, "the PNG keeps its bytes")
    #expect(try Data(contentsOf: layout) == original, "the layout is written")
  }

  /// `png` with a `tEXt` chunk after its header: the same pixels in other bytes.
  static func withTextChunk(_ png: Data) -> Data {
    let body = Array("tEXt".utf8) + Array("Comment\u{0}same pixels".utf8)
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in body {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    crc ^= 0xFFFF_FFFF
    func bigEndian(_ value: UInt32) -> [UInt8] {
      [
        UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
        UInt8(value & 0xFF),
      ]
    }
    let chunk = bigEndian(UInt32(body.count - 4)) + body + bigEndian(crc)
    // 8-byte signature, then IHDR: 4 length + 4 type + 13 data + 4 CRC.
    return png.prefix(33) + Data(chunk) + png.dropFirst(33)
  }
}
