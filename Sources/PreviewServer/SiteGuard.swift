import Threads

/// The checks both local sites (``PreviewSite``, ``ReviewSite``) make before routing a request:
/// no header twice, a `Host` the server listens on (against DNS rebinding), and no `Origin` but
/// the page's own (against other sites' pages and forms).
struct SiteGuard: Sendable {
  /// What the site is called in its refusals (`preview`, `review`).
  let site: String
  /// Whether a request with `Origin: null` (a sandboxed frame, a `file:` page, a redirect) that is
  /// not a POST passes: the review page's pictures may be fetched so, a decision never is.
  let nullOriginMayRead: Bool
  private let hosts = Locked<Set<String>>([])

  /// A guard for `site`.
  init(site: String, nullOriginMayRead: Bool) {
    self.site = site
    self.nullOriginMayRead = nullOriginMayRead
  }

  /// Accepts the hosts `names` at `port` (`127.0.0.1:8740`, `[::1]:8740`): set once the server
  /// listens, before that nothing is answered.
  func accept(names: [String], port: UInt16) {
    hosts.withLock { hosts in
      hosts = Set(names.map { name in (name.contains(":") ? "[\(name)]" : name) + ":\(port)" })
    }
  }

  /// The hosts accepted, sorted.
  var acceptedHosts: [String] { hosts.withLock { $0.sorted() } }

  /// The response that refuses `request` (400, 421 or 403), or nil when it passes.
  func refusal(of request: HTTPRequest) -> HTTPResponse? {
    if let name = request.repeatedHeaders.first {
      return .text(400, "the request carries the \(name) header more than once")
    }
    let accepted = acceptedHosts
    guard let host = request.headers["Host"], accepted.contains(host.lowercased()) else {
      let named = request.headers["Host"].map { "host '\(PreviewSite.printable($0))'" } ?? "no host"
      return .text(
        421,
        "this \(site) answers only to \(accepted.joined(separator: ", ")); the request named \(named)"
      )
    }
    if let origin = request.headers["Origin"] {
      let allowed =
        origin == "null"
        ? nullOriginMayRead && request.method != "POST"
        : accepted.contains { origin == "http://" + $0 }
      if !allowed {
        return .text(
          403, "requests from other sites are refused (origin '\(PreviewSite.printable(origin))')")
      }
    }
    return nil
  }
}
