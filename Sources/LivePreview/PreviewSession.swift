import PreviewServer

/// `preview`'s web server on the lists, listening: the site, its events and its render queue.
public final class PreviewSession {
  /// The events the pages listen to.
  public let events: PreviewEvents
  private let queue: RenderQueue
  private let server: HTTPServer
  /// The page's address: `http://127.0.0.1:8740/`, `http://[::1]:8740/`.
  public let url: String

  /// Serves `lists` at `address` (an IP address literal) and `port` (0 takes any free one); the
  /// page answers to that address, 127.0.0.1 and localhost only.
  /// - Throws: ``PreviewError`` when the server cannot listen.
  public init(lists: PreviewLists, address: String, port: UInt16) throws(PreviewError) {
    events = PreviewEvents(data: PreviewLists.changeData(""))
    queue = RenderQueue(limit: 16)
    let site = PreviewSite(content: lists, events: events, queue: queue)
    do {
      server = try HTTPServer(site: site, address: address, port: port)
    } catch {
      throw PreviewError(description: "preview: \(error)")
    }
    var names = ["127.0.0.1", "localhost"]
    if !names.contains(address) { names.append(address) }
    site.accept(names: names, port: server.port)
    // an IPv6 literal, and only one, holds a colon
    let shown = address.contains(":") ? "[\(address)]" : address
    url = "http://\(shown):\(server.port)/"
  }

  /// Stops the events, the render queue and the server.
  public func stop() {
    events.stop()
    queue.stop()
    server.stop()
  }
}
