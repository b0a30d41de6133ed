import StrictJSON
import Threads

/// One failure of a run, as the review page offers it.
public struct ReviewItem: Sendable, Equatable {
  /// The reference's id, `<case>/<variant>`.
  public var id: String
  /// `changed`, `layout`, `missing` or `error`.
  public var status: String
  /// One line saying why it failed.
  public var reason: String
  /// The pictures the run kept of it (`expected`, `actual`, `diff`), in that order.
  public var images: [String]
  /// Whether the run kept a render of it to accept (an error has none).
  public var canAccept: Bool

  /// Creates an item.
  public init(id: String, status: String, reason: String, images: [String], canAccept: Bool) {
    self.id = id
    self.status = status
    self.reason = reason
    self.images = images
    self.canAccept = canAccept
  }
}

/// Failures of one cause, accepted or rejected together: a title and a list of ids.
public struct ReviewGroup: Sendable, Equatable {
  /// What the failures share (the cause), one line.
  public var title: String
  /// The ids of its items.
  public var ids: [String]

  /// Creates a group.
  public init(title: String, ids: [String]) {
    self.title = title
    self.ids = ids
  }
}

/// What accepting some ids did.
public struct ReviewAcceptance: Sendable, Equatable {
  /// Whether the references were written (the accept command's exit status was 0).
  public var succeeded: Bool
  /// The command's last line: its summary, or its one-line refusal.
  public var message: String

  /// Creates an outcome.
  public init(succeeded: Bool, message: String) {
    self.succeeded = succeeded
    self.message = message
  }
}

/// The run a review page shows, supplied by the command: its failures, their pictures, and the
/// accepting itself.
public protocol ReviewContent: AnyObject, Sendable {
  /// The page's heading: which run, which folders.
  var title: String { get }
  /// The failures, in the run's order.
  var items: [ReviewItem] { get }
  /// The groups of one cause (none when the results carry none).
  var groups: [ReviewGroup] { get }
  /// The PNG `name` (`expected`, `actual`, `diff`) of the failure `id`, or why not (one line).
  func image(_ name: String, of id: String) -> Result<[UInt8], PreviewFailure>
  /// The command line that accepts `ids`.
  func command(accepting ids: [String]) -> String
  /// Writes the run's renders of `ids` as the references; called one at a time.
  func accept(_ ids: [String]) -> ReviewAcceptance
}

/// The review site of `snapshot review`: a page that shows a run's failures with Accept and
/// Reject, their pictures and the decisions taken; nothing else.
///
/// Accept and Reject mark failures; "Write" then accepts every failure marked Accept in one
/// ``ReviewContent/accept(_:)``. One write per run: `snapshot accept` takes a run only while the
/// catalogue is the one it verified, and writing references changes it; after the write, the
/// rest waits for a new verify run.
///
/// Checks as ``PreviewSite`` does: the `Host` header (against DNS rebinding), repeated headers and
/// methods; a request with an `Origin` other than the page's own is refused, and so is a POST with
/// `Origin: null`. A POST (accept, reject) must also carry the secret generated at start, which
/// only the page served here holds (in a `<meta>` the script reads), as the header
/// ``secretHeader``: another site's page can neither read it nor send the header without the
/// browser asking this server first, which it never allows. The decisions live in the server's
/// memory; the references accepted are on disk, and so survive a restart.
public final class ReviewSite: HTTPSite, @unchecked Sendable {
  private let content: any ReviewContent
  private let secret: String
  private let guardian = SiteGuard(site: "review", nullOriginMayRead: true)
  private let state = Locked(ReviewState())
  /// Held while an accept runs: one at a time.
  private let accepting = Locked(())

  /// The header a POST carries the page's secret in.
  public static let secretHeader = "X-OUDS-Review-Secret"
  /// The largest body of a POST (a list of ids, one a line).
  public static let maximumBody = 256 * 1024

  /// What was decided, kept in memory: `accepted` (to write), `rejected`, `written`.
  struct ReviewState {
    var decisions: [String: String] = [:]
    var written = false
    var log: [(action: String, ids: [String], succeeded: Bool, message: String, command: String)] =
      []
  }

  /// A site for `content`; `secret` (random, made at start) is what a POST must carry.
  public init(content: any ReviewContent, secret: String) {
    self.content = content
    self.secret = secret
  }

  /// 32 random bytes in hex, from the system's secure generator (`getrandom` on Linux).
  public static func makeSecret() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let hex = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }

  /// Accepts requests whose `Host` is one of `names` at `port`, as ``PreviewSite/accept(names:port:)``.
  public func accept(names: [String], port: UInt16) { guardian.accept(names: names, port: port) }

  /// How many failures were written, rejected, and accepted but not written.
  public var counts: (written: Int, rejected: Int, unwritten: Int) {
    state.withLock { state in
      let values = state.decisions.values
      return (
        values.filter { $0 == "written" }.count, values.filter { $0 == "rejected" }.count,
        values.filter { $0 == "accepted" }.count
      )
    }
  }

  /// `Host`, `Origin` and the secret's header.
  public var headerNames: [String] { ["Host", "Origin", Self.secretHeader] }
  /// The failure and picture of `/image`.
  public var queryKeys: [String] { ["id", "name"] }
  /// The largest list of ids.
  public var maximumBodyBytes: Int { Self.maximumBody }

  /// The response to `request`.
  public func respond(to request: HTTPRequest) -> HTTPResponse {
    var response = route(request)
    response.headers = PreviewSite.commonHeaders + response.headers
    return response
  }

  private func route(_ request: HTTPRequest) -> HTTPResponse {
    if let refusal = guardian.refusal(of: request) { return refusal }
    let method = request.method
    let reading = method == "GET" || method == "HEAD"
    switch request.path {
    case "/", "/review.js", "/review.css", "/state.json", "/image":
      guard reading else { return Self.notAllowed(method, "GET") }
      return read(request)
    case "/accept", "/reject", "/write":
      guard method == "POST" else { return Self.notAllowed(method, "POST") }
      guard let given = request.headers[Self.secretHeader], Self.same(given, secret) else {
        return .text(
          403, "a decision must come from the review page (its secret, header \(Self.secretHeader))"
        )
      }
      if let size = request.oversizedBody {
        return .text(
          413, "the list of ids is \(size) bytes, over the limit of \(Self.maximumBody)")
      }
      return request.path == "/write" ? write() : decide(String(request.path.dropFirst()), request)
    default:
      return .text(404, "no such page: '\(PreviewSite.printable(request.path))'")
    }
  }

  private func read(_ request: HTTPRequest) -> HTTPResponse {
    switch request.path {
    case "/":
      return HTTPResponse(
        status: 200, contentType: "text/html; charset=utf-8",
        body: Array(ReviewPage.html(secret: secret).utf8))
    case "/review.js":
      return HTTPResponse(
        status: 200, contentType: "text/javascript; charset=utf-8",
        body: Array(ReviewPage.script.utf8))
    case "/review.css":
      return HTTPResponse(
        status: 200, contentType: "text/css; charset=utf-8", body: Array(ReviewPage.style.utf8))
    case "/state.json":
      return HTTPResponse(
        status: 200, contentType: "application/json", body: Array(stateJSON().utf8))
    default:
      let id = request.query["id"] ?? ""
      let name = request.query["name"] ?? ""
      guard let item = content.items.first(where: { $0.id == id }), item.images.contains(name)
      else {
        return .text(
          404,
          "no picture '\(PreviewSite.printable(name))' of '\(PreviewSite.printable(id))' in this run"
        )
      }
      switch content.image(name, of: item.id) {
      case .success(let png): return HTTPResponse(status: 200, contentType: "image/png", body: png)
      case .failure(let failure): return .text(422, failure.message)
      }
    }
  }

  /// Marks the ids of the body (one a line) as accepted (to write) or rejected.
  private func decide(_ action: String, _ request: HTTPRequest) -> HTTPResponse {
    let ids = String(decoding: request.body, as: UTF8.self).split(separator: "\n").map {
      String($0)
    }.filter { !$0.isEmpty }
    guard !ids.isEmpty else { return .text(422, "no id given: one id a line") }
    let items = content.items
    for id in ids {
      guard let item = items.first(where: { $0.id == id }) else {
        return .text(422, "no failure '\(PreviewSite.printable(id))' in this run")
      }
      if action == "accept" && !item.canAccept {
        return .text(
          422, "\(id) failed with an error: the run kept no render of it to accept")
      }
    }
    let verdict = action == "accept" ? "accepted" : "rejected"
    return state.withLock { state in
      if state.written {
        return .text(409, Self.writtenAlready)
      }
      for id in ids { state.decisions[id] = verdict }
      state.log.append(
        (
          action, ids, true,
          action == "accept" ? "marked to write" : "marked as reviewed, nothing written", ""
        ))
      let what = ids.count == 1 ? ids[0] : "\(ids.count) failures"
      return .text(
        200,
        action == "accept"
          ? "accepted \(what): Write the accepted references writes \(ids.count == 1 ? "it" : "them")"
          : "rejected \(what): nothing written")
    }
  }

  private static let writtenAlready =
    "the run's renders were written already: the catalogue changed since the run, so run verify again to review the rest"

  /// Accepts every failure marked accepted, in one go.
  private func write() -> HTTPResponse {
    accepting.withLock { _ in
      let (written, ids) = state.withLock { state in
        (state.written, content.items.map(\.id).filter { state.decisions[$0] == "accepted" })
      }
      if written { return .text(409, Self.writtenAlready) }
      guard !ids.isEmpty else { return .text(422, "nothing to write: accept a failure first") }
      let command = content.command(accepting: ids)
      let outcome = content.accept(ids)
      state.withLock { state in
        if outcome.succeeded {
          state.written = true
          for id in ids { state.decisions[id] = "written" }
        }
        state.log.append(("write", ids, outcome.succeeded, outcome.message, command))
      }
      return .text(outcome.succeeded ? 200 : 409, outcome.message)
    }
  }

  /// The run and the decisions, for the page.
  func stateJSON() -> String {
    let (decisions, log, written) = state.withLock { ($0.decisions, $0.log, $0.written) }
    let staged = content.items.map(\.id).filter { decisions[$0] == "accepted" }
    let items = content.items.map { item in
      """
      {"id":\(JSONText.string(item.id)),"status":\(JSONText.string(item.status)),\
      "reason":\(JSONText.string(item.reason)),"images":[\(item.images.map(JSONText.string).joined(separator: ","))],\
      "canAccept":\(item.canAccept),"decision":\(decisions[item.id].map(JSONText.string) ?? "null")}
      """
    }
    let groups = content.groups.map { group in
      "{\"title\":\(JSONText.string(group.title)),\"ids\":[\(group.ids.map(JSONText.string).joined(separator: ","))]}"
    }
    let entries = log.map { entry in
      """
      {"action":\(JSONText.string(entry.action)),"ids":[\(entry.ids.map(JSONText.string).joined(separator: ","))],\
      "succeeded":\(entry.succeeded),"message":\(JSONText.string(entry.message)),"command":\(JSONText.string(entry.command))}
      """
    }
    return """
      {"title":\(JSONText.string(content.title)),"items":[\(items.joined(separator: ","))],\
      "groups":[\(groups.joined(separator: ","))],"log":[\(entries.joined(separator: ","))],\
      "written":\(written),"toWrite":\(staged.isEmpty ? "null" : JSONText.string(content.command(accepting: staged)))}
      """
  }

  /// Whether `a` equals `b`, in a time that does not depend on where they differ.
  static func same(_ a: String, _ b: String) -> Bool {
    let left = Array(a.utf8)
    let right = Array(b.utf8)
    var difference = UInt8(left.count == right.count ? 0 : 1)
    for index in 0..<right.count {
      difference |= (index < left.count ? left[index] : 0) ^ right[index]
    }
    return difference == 0
  }

  private static func notAllowed(_ method: String, _ allowed: String) -> HTTPResponse {
    var response = HTTPResponse.text(
      405, "method \(PreviewSite.printable(method)) is not allowed here (only \(allowed))")
    response.headers.append(("Allow", allowed == "GET" ? "GET, HEAD" : allowed))
    return response
  }
}

/// The page's JSON strings, as the package writes them (`<` escaped: the text never closes a tag).
enum JSONText {
  /// `text` as a JSON string.
  static func string(_ text: String) -> String { JSONStringLiteral.quoted(text, forHTML: true) }
}
