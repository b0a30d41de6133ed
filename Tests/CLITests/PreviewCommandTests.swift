import Foundation
import PNG
import Testing
import Threads

#if canImport(Glibc)
  import Glibc
#endif

/// The longest any wait of these tests lasts: a preview that never answers fails the test after
/// this long instead of hanging it.
private let patience: TimeInterval = 60

/// `ouds-render preview …` running in the background, its standard output and error collected.
final class PreviewProcess {
  let process = Process()
  private let output = Locked(Data())
  private let errors = Locked(Data())
  private let finished = DispatchSemaphore(value: 0)

  /// Starts `ouds-render arguments` in `folder`, with `environment` added.
  init(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws {
    process.executableURL = try BuiltBinary.url.get()
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var env = ProcessInfo.processInfo.environment
    env["OUDS_THEMES_DIR"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    process.standardInput = FileHandle.nullDevice
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.terminationHandler = { [finished] _ in finished.signal() }
    try process.run()
    for (pipe, sink) in [(out, output), (err, errors)] {
      let reader = pipe.fileHandleForReading
      Thread {
        while true {
          let chunk = reader.availableData
          if chunk.isEmpty { break }
          sink.withLock { $0.append(chunk) }
        }
      }.start()
    }
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      finished.wait()
    }
  }

  var stdout: String { String(decoding: output.withLock { $0 }, as: UTF8.self) }
  var stderr: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }
  var lines: [String] { stderr.split(separator: "\n").map(String.init) }

  /// Waits (at most ``patience``) until `condition` holds.
  func wait(until condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(patience)
    while Date() < deadline {
      if try condition() { return true }
      if !process.isRunning { return try condition() }
      usleep(20_000)
    }
    return try condition()
  }

  /// The port of the URL printed on standard output, once printed.
  func port() throws -> Int {
    _ = wait { stdout.hasSuffix("/\n") }
    let line = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    guard line.hasPrefix("http://"), line.hasSuffix("/"), let colon = line.lastIndex(of: ":"),
      let port = Int(line[line.index(after: colon)...].dropLast())
    else { throw CLIError("no URL on standard output: '\(stdout)', stderr: \(stderr)") }
    return port
  }

  /// Sends `signal` and waits (bounded) for the exit status.
  func stop(with signal: Int32 = SIGINT) -> Int32? {
    kill(process.processIdentifier, signal)
    guard finished.wait(timeout: .now() + patience) == .success else { return nil }
    _ = wait { stderr.hasSuffix("\n") }
    return process.terminationStatus
  }
}

/// What the server answered.
struct HTTPAnswer {
  /// The status code; 0 when the connection closed without an answer.
  var status: Int
  /// The head (status line and headers).
  var head: String
  var body: Data
  var text: String { String(decoding: body, as: UTF8.self) }

  /// The value of the header `name` (first one), case-insensitive.
  func header(_ name: String) -> String? {
    for line in head.split(separator: "\r\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == name.lowercased() {
        return parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }
}

/// A connection to `address` (127.0.0.1):`port`, with a receive time-out of ``patience``.
func connectLocal(_ port: Int, address text: String = "127.0.0.1") throws -> Int32 {
  let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard socket >= 0 else { throw CLIError("socket: \(errno)") }
  var timeout = timeval(tv_sec: Int(patience), tv_usec: 0)
  setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr(text)
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    close(socket)
    throw CLIError("cannot connect to port \(port): \(errno)")
  }
  return socket
}

/// Sends `request` as it is on a connection of its own (to `address`) and reads the answer to its end.
func exchange(_ port: Int, _ request: [UInt8], address: String = "127.0.0.1") throws
  -> HTTPAnswer
{
  let socket = try connectLocal(port, address: address)
  defer { close(socket) }
  var sent = 0
  while sent < request.count {
    let count = request[sent...].withUnsafeBytes {
      send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    if count <= 0 { break }  // the server may close early (a refused body)
    sent += count
  }
  var data = Data()
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = recv(socket, &buffer, buffer.count, 0)
    if count <= 0 { break }
    data.append(contentsOf: buffer[0..<count])
  }
  guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
    return HTTPAnswer(status: 0, head: "", body: data)
  }
  let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
  let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  return HTTPAnswer(status: status, head: head, body: data[end.upperBound...])
}

/// `GET path` with the right `Host`.
func get(_ port: Int, _ path: String) throws -> HTTPAnswer {
  try exchange(
    port, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
  )
}

/// `POST /paste` of `text`, as the page sends it.
func paste(_ port: Int, _ text: String) throws -> HTTPAnswer {
  let body = Array(text.utf8)
  return try exchange(
    port,
    Array(
      "POST /paste HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-OUDS-Preview: 1\r\nContent-Type: text/markdown\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        .utf8) + body)
}

/// The event stream of a preview, read on a thread of its own.
final class EventListener {
  private let socket: Int32
  private let received = Locked(Data())

  init(_ port: Int) throws {
    socket = try connectLocal(port)
    let request = Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
    let descriptor = socket
    let received = received
    Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received.withLock { $0.append(contentsOf: buffer[0..<count]) }
      }
    }.start()
  }

  deinit { shutdown(socket, Int32(SHUT_RDWR)) }

  var text: String { String(decoding: received.withLock { $0 }, as: UTF8.self) }

  /// Waits (bounded) for the event of generation `id`; its data line.
  func event(_ id: Int) -> String? {
    let deadline = Date().addingTimeInterval(patience)
    while Date() < deadline {
      if let range = text.range(of: "id: \(id)\ndata: ") {
        let rest = text[range.upperBound...]
        if let end = rest.firstIndex(of: "\n") { return String(rest[..<end]) }
      }
      usleep(10_000)
    }
    return nil
  }
}

/// One case of `Tests/Hostile/requests.json`.
struct HostileRequest: Decodable, Sendable {
  var name: String
  var request: String
  var status: Int
  var body: String?
}

/// `#RRGGBB` of the pixel at (x, y) of a PNG.
func pixelHex(_ png: Data, _ x: Int, _ y: Int) throws -> String {
  let image = try PNGCodec.decode(png)
  let pixel = image.pixel(x: x, y: y)
  return String(format: "#%02X%02X%02X", pixel.red, pixel.green, pixel.blue)
}

/// Replaces `old` by `new` in `file` by an atomic save, as an editor does.
func saveReplacing(_ old: String, _ new: String, in file: URL) throws {
  let text = try String(contentsOf: file, encoding: .utf8)
  #expect(text.components(separatedBy: old).count == 2, "\(old) in \(file.path)")
  let temporary = file.deletingLastPathComponent().appendingPathComponent(
    ".\(file.lastPathComponent).swp")
  try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: temporary)
  #expect(rename(temporary.path, file.path) == 0)
}

@Suite("preview: the local web server, run as a binary", .serialized)
final class PreviewCommandTests {
  let folder: URL
  let themes: URL

  init() throws {
    folder = try temporaryFolder()
    themes = try copyOfThemes(in: folder)
    try write("- First item\n- Second **item**\n  - A nested item\n", "list.md", in: folder)
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  @Test(
    "no argument: the catalogue's cases when the folder has Snapshots/cases, else exit 2 saying so")
  func defaultFolder() throws {
    let bare = try run(["preview", "--port", "0"], in: folder)
    #expect(bare.status == 2)
    #expect(
      bare.stderr.split(separator: "\n").first.map(String.init)
        == "error: no <list|folder> given and no Snapshots/cases/ here: give a list file or a folder of lists"
    )
    let cases = folder.appendingPathComponent("Snapshots/cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try write("- Only item\n", "one.md", in: cases)
    let preview = try PreviewProcess(
      ["preview", "--port", "0", "--themes", themes.path], in: folder)
    let port = try preview.port()
    #expect(
      preview.wait {
        preview.lines.contains { $0.hasPrefix("preview of Snapshots/cases at http://") }
      },
      "\(preview.stderr)")
    #expect(try get(port, "/").status == 200)
    #expect(preview.stop() == 0)
  }

  @Test(
    "serves its page and one picture per theme × mode, the bytes render writes; the command line it gives draws the same"
  )
  func pagesAndPictures() throws {
    let preview = try PreviewProcess(["preview", "list.md", "--port", "0"], in: folder)
    let port = try preview.port()
    let page = try get(port, "/")
    #expect(page.status == 200)
    #expect(page.header("Content-Type") == "text/html; charset=utf-8")
    #expect(page.text.contains(#"<script src="/preview.js" defer></script>"#))
    #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
    #expect(try get(port, "/preview.js").text.contains("new EventSource(\"/events\")"))
    #expect(try get(port, "/preview.css").status == 200)
    let config = try #require(
      try JSONSerialization.jsonObject(with: get(port, "/config.json").body) as? [String: Any])
    #expect((config["state"] as? [String: String]) == ["theme": "all", "mode": "all"])
    let keys = (config["controls"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
    #expect(
      keys == [
        "theme", "mode", "platform", "width", "font-scale", "content-size", "direction",
        "text-style", "accessibility", "shrink",
      ])
    // The shrink control: the picture only as wide as the list.
    // The IHDR width; nil for a body that is not a PNG (an error's text).
    func width(_ png: Data) -> Int? {
      let bytes = [UInt8](png)
      guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
      return bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
    }
    let full = try get(port, "/picture.png?theme=orange&mode=light")
    let shrunk = try get(port, "/picture.png?theme=orange&mode=light&shrink=1")
    #expect(full.status == 200, "\(full.text)")
    #expect(shrunk.status == 200, "\(shrunk.text)")
    #expect(width(full.body) != nil && width(shrunk.body) != nil)
    #expect((width(shrunk.body) ?? .max) < (width(full.body) ?? 0))
    for theme in ["orange", "orange-compact", "sosh", "wireframe"] {
      for mode in ["light", "dark"] {
        let picture = try get(port, "/picture.png?theme=\(theme)&mode=\(mode)")
        #expect(picture.status == 200, "\(theme) \(mode): \(picture.text)")
        #expect(picture.header("Content-Type") == "image/png")
        if mode == "light" {
          // every theme's light bg.primary is functional.white
          #expect(try pixelHex(picture.body, 0, 0) == "#FFFFFF", "\(theme)")
        }
      }
    }
    // The page's state as a render command line, which draws the very bytes served.
    let state = "theme=sosh&mode=dark&platform=android&width=320&font-scale=1.5"
    let command = try get(port, "/command.txt?" + state)
    #expect(
      command.text
        == "ouds-render render list.md --theme sosh --mode dark --platform android --width 320 --font-scale 1.5 -o preview.png\n"
    )
    let words = command.text.trimmingCharacters(in: .newlines).split(separator: " ").dropFirst()
      .map(String.init)
    let rendered = try run(words, in: folder, removing: ["OUDS_THEMES_DIR"])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    let served = try get(port, "/picture.png?" + state)
    #expect(served.body == (try Data(contentsOf: folder.appendingPathComponent("preview.png"))))
    #expect(
      try get(port, "/command.txt?theme=all&mode=all").text
        == "ouds-render render list.md --theme all --mode all -o preview/\n")
    #expect(preview.stop() == 0)
  }

  @Test(
    "live: a token edit, a broken list and its fix each send one update, and the pictures follow; SIGINT exits 0"
  )
  func live() throws {
    let preview = try PreviewProcess(["preview", "list.md", "--port", "0"], in: folder)
    let port = try preview.port()
    #expect(try pixelHex(get(port, "/picture.png?theme=orange&mode=light").body, 0, 0) == "#FFFFFF")
    let events = try EventListener(port)
    #expect(events.event(0) == #"{"changed":""}"#)

    // Orange light's canvas colour (color.bg.primary) becomes orange-550 (#F15E00).
    try saveReplacing(
      "\"primary\": {\n        \"$value\": \"{color.raw.functional.white}\"",
      "\"primary\": {\n        \"$value\": \"{color.raw.orange.orange-550}\"",
      in: themes.appendingPathComponent("brands/orange/light.tokens.json"))
    #expect(
      events.event(1) == #"{"changed":"Themes/brands/orange/light.tokens.json"}"#, "\(events.text)")
    #expect(try pixelHex(get(port, "/picture.png?theme=orange&mode=light").body, 0, 0) == "#F15E00")
    #expect(try pixelHex(get(port, "/picture.png?theme=sosh&mode=light").body, 0, 0) == "#FFFFFF")

    // A broken list: its error in place of the picture; fixed, the picture again.
    try write("# A heading\n- item\n", "list.md", in: folder)
    #expect(events.event(2) != nil, "\(events.text)")
    let broken = try get(port, "/picture.png?theme=orange&mode=light")
    #expect(broken.status == 422)
    #expect(broken.text.hasPrefix("list.md: line 1: a heading is not allowed"), "\(broken.text)")
    try write("- item\n", "list.md", in: folder)
    #expect(events.event(3) != nil, "\(events.text)")
    #expect(try get(port, "/picture.png?theme=orange&mode=light").status == 200)

    #expect(preview.stop() == 0)
    #expect(preview.lines.contains("update 1: Themes/brands/orange/light.tokens.json changed"))
    #expect(
      preview.lines.last == "stopped the preview (SIGINT) after 3 updates", "\(preview.stderr)")
  }

  @Test(
    "hostile requests (Tests/Hostile/requests.json) get their status and message, and the server goes on"
  )
  func hostileRequests() throws {
    struct Manifest: Decodable { var cases: [HostileRequest] }
    let manifest = try JSONDecoder().decode(
      Manifest.self,
      from: Data(contentsOf: hostileCorpus.appendingPathComponent("requests.json")))
    #expect(manifest.cases.count >= 20)
    let preview = try PreviewProcess(["preview", "list.md", "--port", "0"], in: folder)
    let port = try preview.port()
    for testCase in manifest.cases {
      func expand(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "{host}", with: "127.0.0.1:\(port)")
          .replacingOccurrences(of: "{port}", with: "\(port)")
        while let match = result.firstMatch(of: #/\{repeat:(.*?):(\d+)\}/#.dotMatchesNewlines()) {
          result.replaceSubrange(
            match.range, with: String(repeating: String(match.1), count: Int(match.2) ?? 0))
        }
        return result
      }
      let answer = try exchange(port, Array(expand(testCase.request).utf8))
      #expect(answer.status == testCase.status, "\(testCase.name): \(answer.head) \(answer.text)")
      if let body = testCase.body {
        #expect(answer.text.contains(expand(body)), "\(testCase.name): \(answer.text)")
      }
      if answer.header("Content-Type")?.hasPrefix("text/plain") == true {
        #expect(
          !answer.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" },
          "\(testCase.name): a control character in \(answer.text)")
      }
      #expect(try get(port, "/").status == 200, "after \(testCase.name)")
    }
    // many pictures at once: each is drawn or refused as busy, none hangs
    let statuses = Locked<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 24) { index in
      let theme = ["orange", "sosh", "wireframe", "orange-compact"][index % 4]
      let status = (try? get(port, "/picture.png?theme=\(theme)&mode=dark").status) ?? -1
      statuses.withLock { $0.append(status) }
    }
    #expect(
      statuses.withLock { $0 }.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses.withLock { $0 })")
    #expect(preview.stop(with: SIGTERM) == 0)
  }

  @Test(
    "a pasted Markdown list renders as a file does, with a file's errors (Markdown even when --input-format json names the files' format)"
  )
  func pasted() throws {
    let preview = try PreviewProcess(
      ["preview", "list.md", "--port", "0", "--input-format", "json"], in: folder)
    let port = try preview.port()
    let none = try get(port, "/picture.png?theme=orange&mode=light&source=pasted")
    #expect(none.status == 422)
    #expect(none.text == "nothing pasted yet: paste a Markdown list below\n")
    let text = "- Pasted one\n- Pasted *two*\n"
    #expect(try paste(port, text).status == 200)
    let pictured = try get(port, "/picture.png?theme=sosh&mode=dark&source=pasted")
    #expect(pictured.status == 200)
    try write(text, "same.md", in: folder)
    let rendered = try run(
      ["render", "same.md", "--theme", "sosh", "--mode", "dark", "-o", "same.png"], in: folder,
      removing: ["OUDS_THEMES_DIR"])
    #expect(rendered.status == 0)
    #expect(pictured.body == (try Data(contentsOf: folder.appendingPathComponent("same.png"))))
    // The pasted list is in no file of the user's: the command writes it first, then draws.
    let command = try get(port, "/command.txt?theme=sosh&mode=dark&source=pasted").text
    #expect(
      command
        == "cat > pasted.md <<'END_OF_LIST'\n\(text)END_OF_LIST\n"
        + "ouds-render render pasted.md --theme sosh --mode dark -o preview.png\n")
    // Runnable as it is, in an empty folder: it draws what the page showed.
    let empty = folder.appendingPathComponent("copied")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/bash")
    shell.arguments = ["-c", command]
    shell.currentDirectoryURL = empty
    var environment = ProcessInfo.processInfo.environment
    environment["OUDS_THEMES_DIR"] = nil
    environment["PATH"] = try BuiltBinary.buildFolder().path + ":" + (environment["PATH"] ?? "")
    shell.environment = environment
    shell.standardError = FileHandle.nullDevice
    try shell.run()
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 0)
    #expect(
      (try? Data(contentsOf: empty.appendingPathComponent("preview.png"))) == pictured.body,
      "the copied command draws the pasted list's picture")
    #expect(try paste(port, "# Title\n").status == 200)
    let refused = try get(port, "/picture.png?theme=sosh&mode=dark&source=pasted")
    #expect(refused.status == 422)
    #expect(
      refused.text.hasPrefix("pasted.md: line 1: a heading is not allowed"), "\(refused.text)")
    #expect(preview.stop() == 0)
  }

  @Test(
    "SIGTERM and SIGINT stop it with exit 0, an event stream open; the port is free after and the pasted list gone"
  )
  func signals() throws {
    let scratch = folder.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let first = try PreviewProcess(
      ["preview", "list.md", "--port", "0"], in: folder, environment: ["TMPDIR": scratch.path])
    let port = try first.port()
    #expect(try paste(first.port(), "- a\n").status == 200)
    let events = try EventListener(port)
    #expect(events.event(0) != nil)
    #expect(first.stop(with: SIGTERM) == 0, "\(first.stderr)")
    #expect(first.lines.last == "stopped the preview (SIGTERM) after 0 updates")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    let second = try PreviewProcess(["preview", "list.md", "--port", "\(port)"], in: folder)
    #expect(try second.port() == port, "\(second.stderr)")
    // the port is taken now: a third one says so, exit 1
    let third = try run(["preview", "list.md", "--port", "\(port)"], in: folder)
    #expect(third.status == 1)
    #expect(
      third.stderr
        == "error: preview: cannot listen on 127.0.0.1 port \(port): port \(port) is in use (give another with --port, or 0 for any)\n"
    )
    #expect(second.stop(with: SIGINT) == 0)
  }

  @Test(
    "--host another loopback address: its URL, its Host accepted beside 127.0.0.1 and localhost, no warning"
  )
  func loopbackHost() throws {
    let preview = try PreviewProcess(
      ["preview", "list.md", "--port", "0", "--host", "127.0.0.2"], in: folder)
    let port = try preview.port()
    #expect(preview.stdout == "http://127.0.0.2:\(port)/\n")
    let socket = try connectLocal(port, address: "127.0.0.2")
    close(socket)
    let refused = try exchange(
      port, Array("GET / HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n".utf8),
      address: "127.0.0.2")
    #expect(
      refused.text
        == "this preview answers only to 127.0.0.1:\(port), 127.0.0.2:\(port), localhost:\(port); the request named host 'attacker.example'\n"
    )
    let page = try exchange(
      port,
      Array("GET / HTTP/1.1\r\nHost: 127.0.0.2:\(port)\r\nConnection: close\r\n\r\n".utf8),
      address: "127.0.0.2")
    #expect(page.status == 200)
    #expect(preview.stop() == 0)
    #expect(!preview.stderr.contains("warning:"), "\(preview.stderr)")
  }

  @Test("a folder of lists: the page offers each, and nothing outside it")
  func folderOfLists() throws {
    let lists = folder.appendingPathComponent("lists")
    try FileManager.default.createDirectory(at: lists, withIntermediateDirectories: true)
    try write("- b\n", "b.md", in: lists)
    try write(#"{ "type": "unordered", "items": [ { "label": "a" } ] }"#, "a.json", in: lists)
    try write("not a list", "notes.txt", in: lists)
    let preview = try PreviewProcess(["preview", "lists", "--port", "0"], in: folder)
    let port = try preview.port()
    let config = try #require(
      try JSONSerialization.jsonObject(with: get(port, "/config.json").body) as? [String: Any])
    #expect(config["lists"] as? [String] == ["a.json", "b.md"])
    #expect(try get(port, "/picture.png?theme=orange&mode=light&list=b.md").status == 200)
    let outside = try get(port, "/picture.png?theme=orange&mode=light&list=../list.md")
    #expect(outside.status == 422)
    #expect(outside.text == "list \"../list.md\": no such list in lists\n")
    #expect(preview.stop() == 0)
  }

  @Test(
    "usage: an address that is not this machine's literal, a missing list, a bad starting option (exit 2)",
    arguments: [
      (
        ["--host", "0.0.0.0"],
        "error: --host 0.0.0.0 listens everywhere: give the address others reach this machine at (such as 192.168.1.20), which the page checks requests against\n"
      ),
      (
        ["--host", "localhost"],
        "error: --host \"localhost\" is not an IP address (such as 127.0.0.1, ::1 or 192.168.1.20)\n"
      ),
      (["--width", "5"], "error: --width must be a number from 40 to 10000, got \"5\""),
      (["--theme", "pink"], "error: unknown theme \"pink\""),
    ])
  func usage(arguments: [String], message: String) throws {
    let result = try run(["preview", "list.md"] + arguments, in: folder)
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    let missing = try run(["preview", "missing.md"], in: folder)
    #expect(missing.status == 2)
    #expect(missing.stderr.hasPrefix("error: missing.md: no such file or folder\n"))
  }
}

@Suite("preview in headless Chromium (Playwright, Tests/Browser/preview_page.py)")
struct PreviewBrowserTests {
  @Test(
    "every picture loads; a token edit changes Orange light's picture without a reload; the theme and platform controls change the URL and the pictures; a link reproduces the view; a pasted list renders"
  )
  func page() throws {
    let tools = try BrowserTools.find()

    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let themes = try copyOfThemes(in: folder)
    try write("- First item\n- Second **item**\n", "list.md", in: folder)
    let preview = try PreviewProcess(["preview", "list.md", "--port", "0"], in: folder)
    let port = try preview.port()

    let (status, report) = try tools.run(
      "preview_page.py",
      [
        "http://127.0.0.1:\(port)/",
        themes.appendingPathComponent("brands/orange/light.tokens.json").path, tools.chromium,
      ])
    #expect(status == 0, "\(report)\npreview: \(preview.stderr)")
    #expect(report.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == 21, "\(report)")
    #expect(preview.stop() == 0)
    #expect(preview.lines.contains("update 1: Themes/brands/orange/light.tokens.json changed"))
  }
}
