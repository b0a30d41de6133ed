import Threads

/// What a preview shows, supplied by the command: the page's choices, the pictures, the
/// equivalent command line and pasted lists.
public protocol PreviewContent: AnyObject, Sendable {
  /// The query keys that make up the page's state (`theme`, `mode`, `width`…).
  var stateKeys: [String] { get }
  /// The largest pasted list, in bytes.
  var maximumPasteBytes: Int { get }
  /// The page's choices and starting state, as one JSON object.
  func configuration() -> String
  /// The PNG picture for one state, or why it cannot be drawn (one line). Called on the render
  /// thread only.
  func picture(for state: [String: String]) -> Result<[UInt8], PreviewFailure>
  /// The `ouds-render render …` line that draws what the page shows in `state`.
  func command(for state: [String: String]) -> Result<String, PreviewFailure>
  /// The docs view of the list `state` names, as one JSON object (see ``PreviewDocsPage``), or
  /// why it cannot be made (one line). Called on the render thread only.
  func docs(for state: [String: String]) -> Result<String, PreviewFailure>
  /// Keeps `text` as the pasted list; nil when it is kept, else why not (`oversized`: the length
  /// of a paste over ``maximumPasteBytes``, of which `text` holds the start). Called on the render
  /// thread only.
  func paste(_ text: [UInt8], oversized: Int?) -> PreviewFailure?
}

/// Why a picture, a command or a paste failed: one line, shown in the page.
public struct PreviewFailure: Error, Equatable, Sendable {
  /// The message.
  public var message: String
  /// Creates a failure.
  public init(_ message: String) { self.message = message }
}

/// The preview's web site: its page, script and style, the pictures, the events, the pasted list;
/// nothing else. Checks the `Host` header (against DNS rebinding), the `Origin` of a paste (against
/// other sites' forms) and the methods; renders go through one ``RenderQueue``.
public final class PreviewSite: HTTPSite, @unchecked Sendable {
  private let content: any PreviewContent
  /// The events the pages listen to.
  public let events: PreviewEvents
  private let queue: RenderQueue
  private let guardian = SiteGuard(site: "preview", nullOriginMayRead: false)

  /// The header a paste must carry: a form of another site cannot set it without the browser
  /// asking first (which this server never allows).
  public static let pasteHeader = "X-OUDS-Preview"

  /// A site for `content`, rendering through `queue`.
  public init(content: any PreviewContent, events: PreviewEvents, queue: RenderQueue) {
    self.content = content
    self.events = events
    self.queue = queue
  }

  /// Accepts requests whose `Host` is one of `names` at `port` (`127.0.0.1:8740`…): set once the
  /// server listens, before that nothing is answered.
  public func accept(names: [String], port: UInt16) { guardian.accept(names: names, port: port) }

  /// The hosts accepted, sorted.
  public var acceptedHosts: [String] { guardian.acceptedHosts }

  /// `Host`, `Origin` and the paste header.
  public var headerNames: [String] { ["Host", "Origin", Self.pasteHeader] }
  /// The state keys of the content.
  public var queryKeys: [String] { content.stateKeys }
  /// The largest pasted list (a larger one is refused with the list file's message).
  public var maximumBodyBytes: Int { content.maximumPasteBytes }

  /// Headers every response carries: nothing cached, nothing sniffed, no other site's content.
  static let commonHeaders: [(String, String)] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    (
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
  ]

  /// The response to `request`.
  public func respond(to request: HTTPRequest) -> HTTPResponse {
    var response = route(request)
    response.headers = Self.commonHeaders + response.headers
    return response
  }

  private func route(_ request: HTTPRequest) -> HTTPResponse {
    if let refusal = guardian.refusal(of: request) { return refusal }
    let method = request.method
    let reading = method == "GET" || method == "HEAD"
    switch request.path {
    case "/":
      guard reading else { return Self.notAllowed(method, "GET") }
      return HTTPResponse(
        status: 200, contentType: "text/html; charset=utf-8", body: Array(PreviewPage.html.utf8))
    case "/preview.js":
      guard reading else { return Self.notAllowed(method, "GET") }
      return HTTPResponse(
        status: 200, contentType: "text/javascript; charset=utf-8",
        body: Array(PreviewPage.script.utf8))
    case "/preview.css":
      guard reading else { return Self.notAllowed(method, "GET") }
      return HTTPResponse(
        status: 200, contentType: "text/css; charset=utf-8", body: Array(PreviewPage.style.utf8))
    case "/docs.js", "/docs.css", "/docs.json":
      guard reading else { return Self.notAllowed(method, "GET") }
      return docsRoute(request)
    case "/config.json":
      guard reading else { return Self.notAllowed(method, "GET") }
      return HTTPResponse(
        status: 200, contentType: "application/json", body: Array(content.configuration().utf8))
    case "/events":
      guard reading else { return Self.notAllowed(method, "GET") }
      return HTTPResponse(
        status: 200, contentType: "text/event-stream", body: [], events: events)
    case "/picture.png":
      guard reading else { return Self.notAllowed(method, "GET") }
      let state = request.query
      guard let result = queue.run({ [content] in content.picture(for: state) }) else {
        return Self.busy
      }
      switch result {
      case .success(let png):
        return HTTPResponse(status: 200, contentType: "image/png", body: png)
      case .failure(let failure):
        return .text(422, failure.message)
      }
    case "/command.txt":
      guard reading else { return Self.notAllowed(method, "GET") }
      switch content.command(for: request.query) {
      case .success(let line): return .text(200, line)
      case .failure(let failure): return .text(422, failure.message)
      }
    case "/paste":
      guard method == "POST" else { return Self.notAllowed(method, "POST") }
      guard request.headers[Self.pasteHeader] == "1" else {
        return .text(403, "a paste must come from the preview page (header \(Self.pasteHeader))")
      }
      let body = request.body
      let oversized = request.oversizedBody
      guard let refusal = queue.run({ [content] in content.paste(body, oversized: oversized) })
      else { return Self.busy }
      if let failure = refusal { return .text(oversized == nil ? 422 : 413, failure.message) }
      return .text(200, "pasted")
    default:
      return .text(404, "no such page: '\(Self.printable(request.path))'")
    }
  }

  /// The docs view's script, style and content (``PreviewDocsPage``).
  private func docsRoute(_ request: HTTPRequest) -> HTTPResponse {
    switch request.path {
    case "/docs.js":
      return HTTPResponse(
        status: 200, contentType: "text/javascript; charset=utf-8",
        body: Array(PreviewDocsPage.script.utf8))
    case "/docs.css":
      return HTTPResponse(
        status: 200, contentType: "text/css; charset=utf-8",
        body: Array(PreviewDocsPage.style.utf8))
    default:
      let state = request.query
      guard let result = queue.run({ [content] in content.docs(for: state) }) else {
        return Self.busy
      }
      switch result {
      case .success(let json):
        return HTTPResponse(status: 200, contentType: "application/json", body: Array(json.utf8))
      case .failure(let failure):
        return .text(422, failure.message)
      }
    }
  }

  private static let busy = HTTPResponse.text(
    503, "busy: too many renders waiting (or the preview is stopping); try again")

  private static func notAllowed(_ method: String, _ allowed: String) -> HTTPResponse {
    var response = HTTPResponse.text(
      405, "method \(printable(method)) is not allowed here (only \(allowed))")
    response.headers.append(("Allow", allowed == "GET" ? "GET, HEAD" : allowed))
    return response
  }

  /// `text` with control characters and quotes escaped, cut at 200 characters: echoed request
  /// text never carries markup or terminal codes.
  static func printable(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars.prefix(200) {
      if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "'" || scalar == "\\" {
        result += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return text.unicodeScalars.count > 200 ? result + "…" : result
  }
}
