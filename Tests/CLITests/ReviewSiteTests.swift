import Foundation
import PreviewServer
import Testing
import Threads

/// A run of two failures (one changed, one error) whose accepting is recorded, not run.
final class FakeReviewRun: ReviewContent, @unchecked Sendable {
  let title = "run t (out/r)"
  let items = [
    ReviewItem(
      id: "a/orange-light@2x", status: "changed", reason: "12 pixels differ",
      images: ["expected", "actual", "diff"], canAccept: true),
    ReviewItem(
      id: "b/sosh-dark@2x", status: "changed", reason: "3 pixels differ",
      images: ["expected", "actual", "diff"], canAccept: true),
    ReviewItem(
      id: "c/orange-dark@2x", status: "error", reason: "the list cannot be read", images: [],
      canAccept: false),
  ]
  let groups: [ReviewGroup] = []
  let accepted = Locked<[[String]]>([])
  var refusal: String?

  func image(_ name: String, of id: String) -> Result<[UInt8], PreviewFailure> {
    .success(Array("\(name) of \(id)".utf8))
  }
  func command(accepting ids: [String]) -> String {
    "ouds-render snapshot accept out/r --filter " + ids.joined(separator: ",")
  }
  func accept(_ ids: [String]) -> ReviewAcceptance {
    if let refusal { return ReviewAcceptance(succeeded: false, message: refusal) }
    accepted.withLock { $0.append(ids) }
    return ReviewAcceptance(
      succeeded: true, message: "\(ids.count) references accepted from the run t")
  }
}

@Suite("snapshot review's site: the secret, the origin and the host guard every decision")
struct ReviewSiteTests {
  static let secret = String(repeating: "ab", count: 32)
  let run = FakeReviewRun()
  let site: ReviewSite

  init() {
    site = ReviewSite(content: run, secret: Self.secret)
    site.accept(names: ["127.0.0.1", "localhost"], port: 8741)
  }

  func request(
    _ method: String, _ path: String, _ body: String = "", headers: [String: String] = [:],
    query: [String: String] = [:]
  ) -> (status: Int, text: String) {
    var all = ["Host": "127.0.0.1:8741"]
    for (key, value) in headers { all[key] = value }
    let response = site.respond(
      to: HTTPRequest(
        method: method, path: path, headers: all, query: query, body: Array(body.utf8)))
    return (response.status, String(decoding: response.body, as: UTF8.self))
  }

  var signed: [String: String] {
    [ReviewSite.secretHeader: Self.secret, "Origin": "http://127.0.0.1:8741"]
  }

  @Test("the page holds the secret; the state lists the failures, none decided")
  func page() throws {
    let page = request("GET", "/")
    #expect(page.status == 200)
    #expect(page.text.contains(#"<meta name="review-secret" content="\#(Self.secret)">"#))
    let state = request("GET", "/state.json")
    #expect(state.status == 200)
    #expect(!state.text.contains(Self.secret))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(state.text.utf8)) as? [String: Any])
    let items = try #require(json["items"] as? [[String: Any]])
    #expect(items.map { $0["id"] as? String } == run.items.map(\.id))
    #expect(items.allSatisfy { $0["decision"] is NSNull })
    #expect(
      request("GET", "/image", query: ["id": "a/orange-light@2x", "name": "diff"]).text
        == "diff of a/orange-light@2x")
    #expect(
      request("GET", "/image", query: ["id": "a/orange-light@2x", "name": "../x"]).status
        == 404)
  }

  @Test(
    "a decision without the secret, with a wrong one, from another origin or Origin: null is refused (403, one line), nothing accepted"
  )
  func forged() {
    let cases: [[String: String]] = [
      [:],
      [ReviewSite.secretHeader: String(repeating: "ab", count: 31) + "ac"],
      [ReviewSite.secretHeader: Self.secret + "00"],
      [ReviewSite.secretHeader: ""],
      [ReviewSite.secretHeader: Self.secret, "Origin": "http://evil.example"],
      [ReviewSite.secretHeader: Self.secret, "Origin": "null"],
      [ReviewSite.secretHeader: Self.secret, "Origin": "http://127.0.0.1:8742"],
    ]
    for headers in cases {
      for path in ["/accept", "/reject", "/write"] {
        let answer = request("POST", path, "a/orange-light@2x", headers: headers)
        #expect(answer.status == 403, "\(headers)")
        #expect(answer.text.split(separator: "\n").count == 1 && answer.text.hasSuffix("\n"))
      }
    }
    #expect(
      request("POST", "/accept", "a/orange-light@2x", headers: [:]).text
        == "a decision must come from the review page (its secret, header X-OUDS-Review-Secret)\n")
    #expect(
      request(
        "POST", "/accept", "x", headers: [ReviewSite.secretHeader: Self.secret, "Origin": "null"]
      ).text
        == "requests from other sites are refused (origin 'null')\n")
    #expect(run.accepted.withLock { $0 }.isEmpty)
    #expect(site.counts == (0, 0, 0))
  }

  @Test("another Host is refused (421), even with the secret; GET is refused on /accept (405)")
  func hostAndMethod() {
    let answer = site.respond(
      to: HTTPRequest(
        method: "POST", path: "/accept",
        headers: ["Host": "evil.example:8741", ReviewSite.secretHeader: Self.secret],
        body: Array("a/orange-light@2x".utf8)))
    #expect(answer.status == 421)
    #expect(
      String(decoding: answer.body, as: UTF8.self)
        == "this review answers only to 127.0.0.1:8741, localhost:8741; the request named host 'evil.example:8741'\n"
    )
    #expect(request("GET", "/accept").status == 405)
    #expect(request("POST", "/", headers: signed).status == 405)
    var repeated = HTTPRequest(
      method: "POST", path: "/accept",
      headers: ["Host": "127.0.0.1:8741", ReviewSite.secretHeader: Self.secret])
    repeated.repeatedHeaders = [ReviewSite.secretHeader]
    #expect(site.respond(to: repeated).status == 400)
    #expect(run.accepted.withLock { $0 }.isEmpty)
  }

  @Test(
    "accept, reject, write with the secret: the accepted ids are written together, once; the state says so with the command"
  )
  func decisions() throws {
    let one = request("POST", "/accept", "a/orange-light@2x\nb/sosh-dark@2x\n", headers: signed)
    #expect(one == (200, "accepted 2 failures: Write the accepted references writes them\n"))
    #expect(run.accepted.withLock { $0 }.isEmpty, "marked, not written")
    // Without Origin (a script's request, not a browser's) the secret is enough.
    let rejected = request(
      "POST", "/reject", "c/orange-dark@2x", headers: [ReviewSite.secretHeader: Self.secret])
    #expect(rejected.status == 200)
    #expect(site.counts == (0, 1, 2))
    var json = try state()
    #expect(
      json["toWrite"] as? String
        == "ouds-render snapshot accept out/r --filter a/orange-light@2x,b/sosh-dark@2x")
    let written = request("POST", "/write", headers: signed)
    #expect(written == (200, "2 references accepted from the run t\n"))
    #expect(run.accepted.withLock { $0 } == [["a/orange-light@2x", "b/sosh-dark@2x"]])
    #expect(site.counts == (2, 1, 0))
    json = try state()
    let items = try #require(json["items"] as? [[String: Any]])
    #expect(items.map { $0["decision"] as? String } == ["written", "written", "rejected"])
    let log = try #require(json["log"] as? [[String: Any]])
    #expect(
      log.last?["command"] as? String
        == "ouds-render snapshot accept out/r --filter a/orange-light@2x,b/sosh-dark@2x")
    // The catalogue changed with the write: the run is spent.
    #expect(request("POST", "/accept", "a/orange-light@2x", headers: signed).status == 409)
    #expect(request("POST", "/write", headers: signed).status == 409)
    #expect(run.accepted.withLock { $0 }.count == 1)
  }

  func state() throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(request("GET", "/state.json").text.utf8))
        as? [String: Any])
  }

  @Test(
    "an unknown id, an error's id, an empty or oversized list, and a refused accept change nothing")
  func refusals() {
    #expect(
      request("POST", "/accept", "z/none@2x", headers: signed)
        == (422, "no failure 'z/none@2x' in this run\n"))
    #expect(
      request("POST", "/accept", "c/orange-dark@2x", headers: signed)
        == (422, "c/orange-dark@2x failed with an error: the run kept no render of it to accept\n"))
    #expect(request("POST", "/accept", "\n", headers: signed).status == 422)
    var big = HTTPRequest(
      method: "POST", path: "/accept", headers: ["Host": "127.0.0.1:8741"].merging(signed) { $1 })
    big.oversizedBody = ReviewSite.maximumBody + 1
    #expect(site.respond(to: big).status == 413)
    #expect(
      request("POST", "/write", headers: signed)
        == (422, "nothing to write: accept a failure first\n"))
    run.refusal = "error: cannot accept: the run verified another catalogue"
    #expect(request("POST", "/accept", "a/orange-light@2x", headers: signed).status == 200)
    #expect(
      request("POST", "/write", headers: signed)
        == (409, "error: cannot accept: the run verified another catalogue\n"))
    #expect(run.accepted.withLock { $0 }.isEmpty)
    #expect(site.counts == (0, 0, 1), "still accepted, to write once the refusal is dealt with")
  }
}
