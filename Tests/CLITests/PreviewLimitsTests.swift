import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 40's preview points: every list of a folder offered or the ones left out said, a
/// closed terminal (SIGHUP) or SIGQUIT stopping it as SIGTERM does, a dead preview's folder
/// removed at the next start, an IPv4-mapped `--host`.
@Suite("preview: lists past the limit, SIGHUP and SIGQUIT, leftovers, mapped hosts", .serialized)
final class PreviewLimitsTests {
  let folder: URL

  init() throws {
    folder = try temporaryFolder()
    _ = try copyOfThemes(in: folder)
    try write("- First item\n- Second item\n", "list.md", in: folder)
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  @Test("a folder of 10,002 lists: 10,000 offered, the page and stderr say 2 are left out and why")
  func listsPastTheLimit() throws {
    let lists = folder.appendingPathComponent("lists")
    try FileManager.default.createDirectory(at: lists, withIntermediateDirectories: true)
    // list-00000.md … list-10001.md, written by one shell (10,002 writes from here are slow).
    let made = try Shell.run(
      ["/bin/sh", "-c", "for i in $(seq -w 0 10001); do echo \"- item $i\" > list-$i.md; done"],
      in: lists)
    try #require(made.status == 0, "\(made.output)")
    let preview = try PreviewProcess(["preview", "lists", "--port", "0"], in: folder)
    let port = try preview.port()
    let reason =
      "2 lists of lists left out: the preview offers the first 10000 of its 10002 lists (by name); preview a smaller folder to see the others"
    #expect(preview.lines.contains("note: " + reason), "\(preview.stderr)")
    let config = try #require(
      try JSONSerialization.jsonObject(with: get(port, "/config.json").body) as? [String: Any])
    #expect((config["lists"] as? [String])?.count == 10_000)
    #expect((config["lists"] as? [String])?.last == "list-09999.md")
    #expect(config["leftOut"] as? Int == 2)
    #expect(config["leftOutReason"] as? String == reason)
    // The page shows the reason (the script fills this element from the configuration).
    #expect(try get(port, "/").text.contains("<p id=\"left-out\""))
    #expect(try get(port, "/preview.js").text.contains("config.leftOutReason"))
    let last = try get(port, "/picture.png?theme=orange&mode=light&list=list-10001.md")
    #expect(last.status == 422)
    #expect(
      last.text
        == "list \"list-10001.md\": not offered: the preview offers the first 10000 lists of lists by name, and this one comes after them; preview a smaller folder\n"
    )
    #expect(
      try get(port, "/picture.png?theme=orange&mode=light&list=list-09999.md").status == 200)
    #expect(preview.stop() == 0)
  }

  @Test(
    "SIGHUP and SIGQUIT stop it as SIGTERM does: exit 0, the pasted list removed",
    arguments: [SIGHUP, SIGQUIT])
  func hangUp(signal: Int32) throws {
    let scratch = folder.appendingPathComponent("tmp-\(signal)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let preview = try PreviewProcess(
      ["preview", "list.md", "--port", "0"], in: folder, environment: ["TMPDIR": scratch.path])
    let port = try preview.port()
    #expect(try paste(port, "- a\n").status == 200)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).count == 1)
    #expect(preview.stop(with: signal) == 0, "\(preview.stderr)")
    let name = signal == SIGHUP ? "SIGHUP" : "SIGQUIT"
    #expect(preview.lines.last == "stopped the preview (\(name)) after 0 updates")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
  }

  @Test("the folder a killed preview left is removed at the next start; a live one's is kept")
  func leftovers() throws {
    let scratch = folder.appendingPathComponent("tmp-kill")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let killed = try PreviewProcess(
      ["preview", "list.md", "--port", "0"], in: folder, environment: ["TMPDIR": scratch.path])
    #expect(try paste(killed.port(), "- a\n").status == 200)
    #expect(killed.stop(with: SIGKILL) == SIGKILL)
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
    #expect(
      left.count == 1 && left[0].hasPrefix("ouds-preview.\(killed.process.processIdentifier)."))
    let running = try PreviewProcess(
      ["preview", "list.md", "--port", "0"], in: folder, environment: ["TMPDIR": scratch.path])
    _ = try running.port()
    let now = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
    #expect(
      now.count == 1 && now[0].hasPrefix("ouds-preview.\(running.process.processIdentifier)."),
      "\(now)")
    // A third start leaves the running one's folder alone.
    let third = try PreviewProcess(
      ["preview", "list.md", "--port", "0"], in: folder, environment: ["TMPDIR": scratch.path])
    _ = try third.port()
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).count == 2)
    #expect(third.stop() == 0)
    #expect(running.stop() == 0)
  }

  @Test("--host ::ffff:127.0.0.1 listens on 127.0.0.1 and says so")
  func mappedHost() throws {
    let preview = try PreviewProcess(
      ["preview", "list.md", "--port", "0", "--host", "::ffff:127.0.0.1"], in: folder)
    let port = try preview.port()
    #expect(preview.stdout == "http://127.0.0.1:\(port)/\n")
    #expect(
      preview.lines.first
        == "note: --host ::ffff:127.0.0.1 is the IPv4 address 127.0.0.1: listening on 127.0.0.1",
      "\(preview.stderr)")
    #expect(try get(port, "/").status == 200)
    #expect(preview.stop() == 0)
    #expect(!preview.stderr.contains("warning:"))
  }
}
