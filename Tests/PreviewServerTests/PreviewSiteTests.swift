import PreviewServer
import Testing
import Threads

/// A content that draws nothing: a fixed picture and command line, and the pastes it was given.
final class StubContent: PreviewContent, @unchecked Sendable {
  let pastes = Locked<[[UInt8]]>([])
  var stateKeys: [String] { ["theme", "mode"] }
  var maximumPasteBytes: Int { 64 }
  func configuration() -> String { #"{"theme":"orange"}"# }
  func picture(for state: [String: String]) -> Result<[UInt8], PreviewFailure> {
    state["theme"] == "pink"
      ? .failure(PreviewFailure("unknown theme \"pink\"")) : .success([0x89, 0x50])
  }
  func command(for state: [String: String]) -> Result<String, PreviewFailure> {
    .success("ouds-render render list.json --theme \(state["theme"] ?? "orange")")
  }
  func docs(for state: [String: String]) -> Result<String, PreviewFailure> {
    state["theme"] == "pink"
      ? .failure(PreviewFailure("unknown theme \"pink\"")) : .success(#"{"list":"list.json"}"#)
  }
  func paste(_ text: [UInt8], oversized: Int?) -> PreviewFailure? {
    if let oversized { return PreviewFailure("the list is \(oversized) bytes, over 64") }
    pastes.withLock { $0.append(text) }
    return nil
  }
}

/// `PreviewSite` driven in process with request values: no socket, no browser.
@Suite("The preview site: Host and Origin checks, methods, routes, no path outside them")
struct PreviewSiteTests {
  let content = StubContent()
  let site: PreviewSite

  init() {
    site = PreviewSite(
      content: content, events: PreviewEvents(data: "{}"), queue: RenderQueue(limit: 4))
    site.accept(names: ["127.0.0.1", "localhost"], port: 8740)
  }

  func get(_ path: String, host: String? = "127.0.0.1:8740", headers: [String: String] = [:])
    -> HTTPResponse
  {
    var all = headers
    if let host { all["Host"] = host }
    return site.respond(to: HTTPRequest(method: "GET", path: path, headers: all))
  }

  func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

  @Test("a Host other than the ones listened on is refused with 421 (DNS rebinding)")
  func hostCheck() {
    let rebound = get("/", host: "evil.example:8740")
    #expect(rebound.status == 421)
    #expect(
      text(rebound).hasPrefix(
        "this preview answers only to 127.0.0.1:8740, localhost:8740; the request named host 'evil.example:8740'"
      ))
    #expect(get("/", host: nil).status == 421)
    #expect(text(get("/", host: nil)).contains("the request named no host"))
    // another port of the same machine is another site
    #expect(get("/", host: "127.0.0.1:8741").status == 421)
    #expect(get("/", host: "LOCALHOST:8740").status == 200)
  }

  @Test("a request from another site's page is refused with 403; the page's own origin passes")
  func originRefusal() {
    let foreign = get("/config.json", headers: ["Origin": "http://evil.example"])
    #expect(foreign.status == 403)
    #expect(
      text(foreign).hasPrefix(
        "requests from other sites are refused (origin 'http://evil.example')"))
    #expect(get("/config.json", headers: ["Origin": "http://127.0.0.1:8740"]).status == 200)
    // a paste needs the page's header, which a form of another site cannot set
    let formPost = site.respond(
      to: HTTPRequest(
        method: "POST", path: "/paste", headers: ["Host": "127.0.0.1:8740"],
        body: Array("- a\n".utf8)))
    #expect(formPost.status == 403)
    #expect(content.pastes.withLock { $0.isEmpty })
  }

  @Test("paths outside the routes are 404 and serve no file, whatever they climb to")
  func pathTraversal() {
    for path in [
      "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/preview.js/../../../etc/passwd",
      "//etc/passwd", "/index.html",
    ] {
      let response = get(path)
      #expect(response.status == 404, "\(path)")
      #expect(text(response).hasPrefix("no such page: '"), "\(path)")
      #expect(!text(response).contains("root:"), "\(path)")
    }
    // a control character in the path is echoed escaped, never raw
    let escaped = get("/\u{1b}[31m")
    #expect(text(escaped).hasPrefix("no such page: '/\\u{1b}[31m'"))
  }

  @Test(
    "the routes: page, script, style, configuration, picture, command, docs view, paste; methods checked"
  )
  func routes() {
    let page = get("/")
    #expect(page.status == 200 && page.contentType == "text/html; charset=utf-8")
    #expect(text(page).contains("preview.js") && text(page).contains("preview.css"))
    #expect(get("/preview.js").contentType == "text/javascript; charset=utf-8")
    #expect(get("/preview.css").contentType == "text/css; charset=utf-8")
    #expect(text(get("/config.json")) == #"{"theme":"orange"}"#)
    let picture = site.respond(
      to: HTTPRequest(
        method: "GET", path: "/picture.png", headers: ["Host": "127.0.0.1:8740"],
        query: ["theme": "sosh"]))
    #expect(
      picture.status == 200 && picture.contentType == "image/png" && picture.body == [0x89, 0x50])
    let refused = site.respond(
      to: HTTPRequest(
        method: "GET", path: "/picture.png", headers: ["Host": "127.0.0.1:8740"],
        query: ["theme": "pink"]))
    #expect(refused.status == 422 && text(refused).hasPrefix("unknown theme \"pink\""))
    let command = site.respond(
      to: HTTPRequest(
        method: "GET", path: "/command.txt", headers: ["Host": "127.0.0.1:8740"],
        query: ["theme": "sosh"]))
    #expect(text(command).hasPrefix("ouds-render render list.json --theme sosh"))
    // the docs view: its script and style (the page loads them), its content or the one-line
    // error in its place
    #expect(text(page).contains("/docs.js") && text(page).contains("/docs.css"))
    #expect(get("/docs.js").contentType == "text/javascript; charset=utf-8")
    #expect(text(get("/docs.js")).contains("fetch(\"/docs.json?\""))
    #expect(get("/docs.css").contentType == "text/css; charset=utf-8")
    let docs = get("/docs.json")
    #expect(docs.status == 200 && docs.contentType == "application/json")
    #expect(text(docs) == #"{"list":"list.json"}"#)
    let docsRefused = site.respond(
      to: HTTPRequest(
        method: "GET", path: "/docs.json", headers: ["Host": "127.0.0.1:8740"],
        query: ["theme": "pink"]))
    #expect(docsRefused.status == 422 && text(docsRefused) == "unknown theme \"pink\"\n")
    #expect(
      site.respond(
        to: HTTPRequest(method: "POST", path: "/docs.json", headers: ["Host": "127.0.0.1:8740"])
      ).status == 405)
    // every response: nothing cached, nothing sniffed, no other site's content
    let names = page.headers.map(\.0)
    for name in [
      "Cache-Control", "X-Content-Type-Options", "Referrer-Policy", "Content-Security-Policy",
    ] {
      #expect(names.contains(name), "\(name)")
    }
    // methods
    let post = site.respond(
      to: HTTPRequest(method: "POST", path: "/", headers: ["Host": "127.0.0.1:8740"]))
    #expect(post.status == 405 && post.headers.contains { $0 == ("Allow", "GET, HEAD") })
    let getPaste = get("/paste")
    #expect(getPaste.status == 405)
    // a paste from the page is kept; an oversized one is 413 with the content's message
    let headers = ["Host": "127.0.0.1:8740", PreviewSite.pasteHeader: "1"]
    let pasted = site.respond(
      to: HTTPRequest(method: "POST", path: "/paste", headers: headers, body: Array("- a\n".utf8)))
    #expect(pasted.status == 200)
    #expect(content.pastes.withLock { $0 } == [Array("- a\n".utf8)])
    let big = site.respond(
      to: HTTPRequest(
        method: "POST", path: "/paste", headers: headers, body: [0x2D], oversizedBody: 1000))
    #expect(big.status == 413 && text(big).hasPrefix("the list is 1000 bytes, over 64"))
  }

  @Test("a header given twice is refused before anything else")
  func repeatedHeader() {
    var request = HTTPRequest(method: "GET", path: "/", headers: ["Host": "127.0.0.1:8740"])
    request.repeatedHeaders = ["Host"]
    let response = site.respond(to: request)
    #expect(response.status == 400)
    #expect(text(response).hasPrefix("the request carries the Host header more than once"))
  }
}
