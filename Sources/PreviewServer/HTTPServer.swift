internal import CHTTPLoader
import Threads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP request, as the server hands it to its ``HTTPSite``.
public struct HTTPRequest: Sendable {
  /// `GET`, `HEAD`, `POST`…
  public var method: String
  /// The path, without the query.
  public var path: String
  /// The request headers the site asked for (``HTTPSite/headerNames``), by name.
  public var headers: [String: String]
  /// The names among ``HTTPSite/headerNames`` the request carries more than once.
  public var repeatedHeaders: [String] = []
  /// The query arguments the site asked for (``HTTPSite/queryKeys``), decoded, by key.
  public var query: [String: String]
  /// The body, at most ``HTTPSite/maximumBodyBytes``.
  public var body: [UInt8]
  /// The body's length when it went over ``HTTPSite/maximumBodyBytes`` (the bytes past the limit
  /// are not kept); nil otherwise.
  public var oversizedBody: Int?

  /// Creates a request.
  public init(
    method: String, path: String, headers: [String: String] = [:], query: [String: String] = [:],
    body: [UInt8] = [], oversizedBody: Int? = nil
  ) {
    self.method = method
    self.path = path
    self.headers = headers
    self.query = query
    self.body = body
    self.oversizedBody = oversizedBody
  }
}

/// What the server sends back: bytes, or a stream of server-sent events.
public struct HTTPResponse: Sendable {
  /// The status code.
  public var status: Int
  /// The `Content-Type`.
  public var contentType: String
  /// The body (ignored for an event stream).
  public var body: [UInt8]
  /// More headers, in order.
  public var headers: [(String, String)]
  /// The event source of a `text/event-stream` response; nil for a plain one.
  public var events: PreviewEvents?

  /// A plain response.
  public init(
    status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = [],
    events: PreviewEvents? = nil
  ) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.headers = headers
    self.events = events
  }

  /// A `text/plain` response of one line.
  public static func text(_ status: Int, _ text: String) -> HTTPResponse {
    HTTPResponse(
      status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
  }
}

/// What answers the requests of an ``HTTPServer``.
public protocol HTTPSite: AnyObject, Sendable {
  /// The headers to hand over in ``HTTPRequest/headers``.
  var headerNames: [String] { get }
  /// The query keys to hand over in ``HTTPRequest/query``.
  var queryKeys: [String] { get }
  /// The largest body kept.
  var maximumBodyBytes: Int { get }
  /// The response to `request`; called on the connection's own thread.
  func respond(to request: HTTPRequest) -> HTTPResponse
}

/// The server could not start.
public struct HTTPServerError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The message, one line.
  public var description: String
}

/// The limits of an ``HTTPServer``.
public struct HTTPLimits: Sendable {
  /// Connections open at once; more wait in the kernel's queue.
  public var connections: UInt32 = 32
  /// Bytes of one request's head (request line and headers): a longer one is refused.
  public var headBytes = 32 * 1024
  /// Seconds a connection may stay idle.
  public var idleSeconds: UInt32 = 60

  /// The standard limits.
  public init() {}
}

/// An HTTP/1.1 server on libmicrohttpd (loaded when it starts), one thread per connection, that
/// hands every request to an ``HTTPSite``.
public final class HTTPServer: @unchecked Sendable {
  private let site: any HTTPSite
  private var daemon: OpaquePointer?
  /// The port listened on.
  public private(set) var port: UInt16 = 0

  /// Starts listening on `address` (an IPv4 or IPv6 literal) and `port` (0: any free port).
  /// - Throws: ``HTTPServerError``: the library cannot be loaded, the address is not a literal,
  ///   the port is taken.
  public init(site: any HTTPSite, address: String, port: UInt16, limits: HTTPLimits = HTTPLimits())
    throws(HTTPServerError)
  {
    self.site = site
    if let failure = ouds_http_load() {
      throw HTTPServerError(description: String(cString: failure))
    }
    var code: Int32 = 0
    let context = Unmanaged.passUnretained(self).toOpaque()
    let started = ouds_http_start(
      address, port, limits.connections, limits.headBytes, limits.idleSeconds,
      { context, connection, url, method, _, upload, uploadSize, request in
        guard let context, let connection, let uploadSize, let request else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        return server.handle(
          connection, url: url, method: method, upload: upload, size: uploadSize, state: request)
      }, context,
      { _, _, request, _ in
        guard let request, let state = request.pointee else { return }
        Unmanaged<RequestState>.fromOpaque(state).release()
        request.pointee = nil
      }, nil, &code)
    guard let started else {
      let reason: String
      switch code {
      case EINVAL: reason = "is not an IP address (such as 127.0.0.1 or ::1)"
      case EADDRINUSE: reason = "port \(port) is in use (give another with --port, or 0 for any)"
      default: reason = String(cString: strerror(code))
      }
      throw HTTPServerError(description: "cannot listen on \(address) port \(port): \(reason)")
    }
    daemon = started
    self.port = ouds_http_port(started)
  }

  /// Stops listening, ends the connections and waits for their threads; the port is free after.
  public func stop() {
    if let daemon { ouds_http_stop(daemon) }
    daemon = nil
  }

  deinit { stop() }

  /// What one request has received so far.
  private final class RequestState {
    var body: [UInt8] = []
    var length = 0
  }

  private func handle(
    _ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
    upload: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
    state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  ) -> MHD_Result {
    guard let pointer = state.pointee else {
      // the first call of a request: its headers are in, the body (if any) comes next
      state.pointee = Unmanaged.passRetained(RequestState()).toOpaque()
      // A body declared over the limit is answered (413) now, before a byte of it is read.
      if let declared = ouds_http_header_value(connection, "Content-Length").flatMap({
        Int(String(cString: $0))
      }), declared > site.maximumBodyBytes {
        return answer(
          connection, url: url, method: method, body: [], oversized: declared)
      }
      return .YES
    }
    let received = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    if size.pointee > 0 {
      let count = size.pointee
      received.length += count
      let room = max(0, site.maximumBodyBytes - received.body.count)
      if room > 0, let upload {
        upload.withMemoryRebound(to: UInt8.self, capacity: count) {
          received.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: min(room, count)))
        }
      }
      size.pointee = 0
      return .YES
    }
    return answer(
      connection, url: url, method: method, body: received.body,
      oversized: received.length > site.maximumBodyBytes ? received.length : nil)
  }

  /// Hands the request to the site and queues its answer.
  private func answer(
    _ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
    body: [UInt8], oversized: Int?
  ) -> MHD_Result {
    var headers: [String: String] = [:]
    var repeated: [String] = []
    for name in site.headerNames {
      if let value = ouds_http_header_value(connection, name) {
        headers[name] = String(cString: value)
      }
      if ouds_http_header_count(connection, name) > 1 { repeated.append(name) }
    }
    var query: [String: String] = [:]
    for key in site.queryKeys {
      if let value = ouds_http_query_value(connection, key) {
        query[key] = String(cString: value)
      }
    }
    var request = HTTPRequest(
      method: method.map { String(cString: $0) } ?? "",
      path: url.map { String(cString: $0) } ?? "", headers: headers, query: query,
      body: body, oversizedBody: oversized)
    request.repeatedHeaders = repeated
    let answer = site.respond(to: request)
    let response: OpaquePointer?
    if let events = answer.events {
      let reader = EventReader(events)
      response = ouds_http_stream(
        4096,
        { context, _, buffer, room in
          guard let context, let buffer else { return -1 }
          return Unmanaged<EventReader>.fromOpaque(context).takeUnretainedValue().read(
            into: buffer, room: room)
        }, Unmanaged.passRetained(reader).toOpaque(),
        { context in
          guard let context else { return }
          Unmanaged<EventReader>.fromOpaque(context).release()
        })
    } else {
      response = answer.body.withUnsafeBytes { ouds_http_bytes($0.count, $0.baseAddress) }
    }
    guard let response else { return .NO }
    defer { ouds_http_release(response) }
    _ = ouds_http_header(response, "Content-Type", answer.contentType)
    for (name, value) in answer.headers { _ = ouds_http_header(response, name, value) }
    return ouds_http_queue(connection, UInt32(answer.status), response)
  }
}

/// Writes the events of one `text/event-stream` response as the connection asks for bytes.
private final class EventReader {
  private let events: PreviewEvents
  private var seen: Int
  private var pending: [UInt8]

  init(_ events: PreviewEvents) {
    self.events = events
    let (generation, data) = events.latest
    seen = generation
    // reconnect soon after a dropped connection, and say where things stand now
    pending = Array("retry: 500\n\n\(Self.event(generation, data))".utf8)
  }

  static func event(_ generation: Int, _ data: String) -> String {
    "id: \(generation)\ndata: \(data)\n\n"
  }

  /// Blocks until there is something to send (an event, or a comment every 15 s that tells a
  /// dropped connection), then copies it; -1 (end of stream) once the events stop.
  func read(into buffer: UnsafeMutablePointer<CChar>, room: Int) -> Int {
    if pending.isEmpty {
      switch events.wait(after: seen, seconds: 15) {
      case .stopped: return -1
      case .quiet: pending = Array(": still here\n\n".utf8)
      case .event(let generation, let data):
        seen = generation
        pending = Array(Self.event(generation, data).utf8)
      }
    }
    let count = min(room, pending.count)
    pending.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: count)
    }
    pending.removeFirst(count)
    return count
  }
}
