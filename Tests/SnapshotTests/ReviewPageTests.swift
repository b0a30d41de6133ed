import Foundation
import Graphics
import PNG
import PixelDiff
import RunReports
import SafeInput
import Snapshot
import SnapshotReports
import Testing

/// A review page with every kind of card the page must handle, written once for the tests below.
///
/// Real failures of a small catalogue whose case `more-sample-3`'s ids end with `sample-3`'s, so a
/// command that names `sample-3/orange-light@2x` as a substring would also accept
/// `more-sample-3/orange-light@2x`:
/// - `more-sample-3/orange-light@2x`, `sample-3/orange-light@2x`: changed (orange light's background
///   turned magenta in a copy of the themes);
/// - `sample-3/sosh-light@2x`: missing (its PNG deleted);
/// - `more-sample-3/sosh-light@2x` passes.
///
/// And three made-up failures no render produces:
/// - `tall-list/orange-light@2x`: a 1080×6000 picture, sky blue at the top, amber at the bottom,
///   green between, whose render has a black band across rows 3000–3099;
/// - `white-list/sosh-dark@2x`: missing, the render an all-white 600×300 picture;
/// - `hostile/wireframe-light@2x`: an error whose message and layout diff hold markup.
enum ReviewPage {
  struct Fixture {
    /// The snapshots folder the page's commands name: a copy of the failing one, for the commands to change.
    var snapshots: URL
    /// The themes with the edited background.
    var themes: URL
    /// The report the page shows.
    var report: SnapshotRunReport
    /// The page.
    var page: URL
  }

  static let tallID = "tall-list/orange-light@2x"
  static let whiteID = "white-list/sosh-dark@2x"
  static let hostileID = "hostile/wireframe-light@2x"
  static let hostileText = #"<img src=x onerror="alert(1)"> & 'quoted' </script>"#

  static let sky: (UInt8, UInt8, UInt8) = (0, 170, 255)
  static let green: (UInt8, UInt8, UInt8) = (30, 150, 60)
  static let amber: (UInt8, UInt8, UInt8) = (255, 200, 0)

  static let fixture: Result<Fixture, any Error> = Result {
    let folder = try makeSnapshotsFolder(cases: ["sample-3"])
    let cases = folder.appendingPathComponent("cases")
    let variants = #"{ "themes": ["orange", "sosh"], "modes": ["light"] }"#
    let text = replacingVariants(
      in: try String(contentsOf: cases.appendingPathComponent("sample-3.json"), encoding: .utf8),
      with: variants)
    for name in ["sample-3", "more-sample-3"] {
      try Data(text.utf8).write(to: cases.appendingPathComponent("\(name).json"))
    }
    let recorded = try engine(snapshots: folder).record(
      try engine(snapshots: folder).catalogue.references, mode: .all)
    guard recorded.succeeded, recorded.outcomes.count == 4 else {
      throw SupportFailure(
        "ReviewPage: recording the baseline failed: \(SnapshotSummary.text(recorded))")
    }
    try FileManager.default.removeItem(
      at: folder.appendingPathComponent("sample-3/sosh-light@2x.png"))
    let themes = try copyOfThemes()
    try edit(
      themes.appendingPathComponent("brands/orange/light.tokens.json"),
      replacing:
        "\"$value\": \"{color.raw.functional.white}\",\n        \"$description\": \"Canvas background",
      with:
        "\"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, 0, 1], \"hex\": \"#ff00ff\"},\n        \"$description\": \"Canvas background"
    )
    let real = try engine(snapshots: folder, themes: themes).verify(
      try engine(snapshots: folder).catalogue.references)
    guard let template = real.outcomes.first?.reference else {
      throw SupportFailure("ReviewPage: no outcome")
    }

    var tall = template
    tall.caseName = "tall-list"
    tall.variant = SnapshotVariant(theme: .orange, mode: .light)
    let expected = bands(width: 1080, height: 6000, black: nil)
    let actual = bands(width: 1080, height: 6000, black: 3000..<3100)
    let tallEvidence = FailureEvidence(
      actualImage: actual, actualLayout: "", expectedPNG: try PNGCodec.encode(expected),
      expectedImage: expected)
    let tallOutcome = SnapshotOutcome(
      reference: tall,
      result: .failed(
        SnapshotFailure(
          kind: .changed, diff: ImageDiff.compare(expected: expected, actual: actual),
          evidence: tallEvidence)))

    var white = template
    white.caseName = "white-list"
    white.variant = SnapshotVariant(theme: .sosh, mode: .dark)
    let whiteImage = RasterImage(
      width: 600, height: 300, pixels: [UInt8](repeating: 255, count: 600 * 300 * 4))
    let whiteOutcome = SnapshotOutcome(
      reference: white,
      result: .failed(
        SnapshotFailure(
          kind: .missing, message: "no reference: white-list/sosh-dark@2x.png missing",
          evidence: FailureEvidence(actualImage: whiteImage, actualLayout: ""))))

    var hostile = template
    hostile.caseName = "hostile"
    hostile.variant = SnapshotVariant(theme: .wireframe, mode: .light)
    let hostileOutcome = SnapshotOutcome(
      reference: hostile,
      result: .failed(
        SnapshotFailure(
          kind: .error,
          layoutDiff: ["@@ -1 +1 @@", "-</pre><script>alert(2)</script>", "+" + hostileText],
          message: hostileText)))

    let outcomes = (real.outcomes + [tallOutcome, whiteOutcome, hostileOutcome]).sorted {
      $0.reference.id < $1.reference.id
    }
    let report = SnapshotRunReport(
      outcomes: outcomes, sources: real.sources, tokenDifference: real.tokenDifference,
      inputFiles: real.inputFiles)

    // The page's commands name a copy, so that running one leaves the fixture as it is.
    let copy = try temporaryFolder("review-copy").appendingPathComponent("Snapshots")
    try FileManager.default.copyItem(at: folder, to: copy)
    let out = try temporaryFolder("review-page")
    let commands = ReviewReport.Commands.cli(
      extraArguments: "--snapshots \(shellQuote(copy.path)) --themes \(shellQuote(themes.path))")
    let page = try ReviewReport.write(report, to: out, commands: commands)
    return Fixture(
      snapshots: copy, themes: themes, report: report, page: URL(fileURLWithPath: page))
  }

  /// Sky blue rows 0–299, amber rows from height − 300, green between; black rows in `black`.
  static func bands(width: Int, height: Int, black: Range<Int>?) -> RasterImage {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      let colour =
        black?.contains(y) == true ? (0, 0, 0) : y < 300 ? sky : y >= height - 300 ? amber : green
      for x in 0..<width {
        let i = (y * width + x) * 4
        pixels[i] = colour.0
        pixels[i + 1] = colour.1
        pixels[i + 2] = colour.2
      }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  /// A page beside `page` that shows it, with `fragment`, in a frame filling the window.
  ///
  /// Headless Chromium's `--screenshot` draws a scrolled top-level page from its top (blank, sticky
  /// bars misplaced); a page scrolled inside a frame is drawn as a person sees it.
  static func framed(_ page: URL, _ fragment: String) throws -> String {
    let wrapper = page.deletingPathExtension().appendingPathExtension("frame.html")
    let html = """
      <!DOCTYPE html><html><body style="margin:0;overflow:hidden">
      <iframe src="\(page.lastPathComponent)#\(fragment)" style="border:0;display:block;width:100vw;height:100vh"></iframe>
      </body></html>
      """
    try Data(html.utf8).write(to: wrapper)
    return wrapper.absoluteString
  }
}

/// What the DOM dump says about the cards: id → whether hidden, and the opening tag.
func cardTags(_ dom: String) -> [String: String] {
  var tags: [String: String] = [:]
  for match in dom.matches(of: /<section class="failure[^"]*"[^>]*>/) {
    let tag = String(match.output)
    if let id = tag.firstMatch(of: /data-id="([^"]*)"/) { tags[String(id.1)] = tag }
  }
  return tags
}

/// Counts the pixels of `image` within `tolerance` of `colour`, in rows `rows` (all by default).
func count(
  _ image: RasterImage, _ colour: (UInt8, UInt8, UInt8), tolerance: Int = 8, rows: Range<Int>? = nil
) -> Int {
  var n = 0
  for y in rows ?? 0..<image.height where y < image.height {
    for x in 0..<image.width {
      let p = image.pixel(x: x, y: y)
      if abs(Int(p.red) - Int(colour.0)) <= tolerance
        && abs(Int(p.green) - Int(colour.1)) <= tolerance
        && abs(Int(p.blue) - Int(colour.2)) <= tolerance
      {
        n += 1
      }
    }
  }
  return n
}

/// The page's accent (the pressed view button, the slider) and the frame round every picture.
let accent: (UInt8, UInt8, UInt8) = (241, 110, 0)
let frame: (UInt8, UInt8, UInt8) = (127, 135, 148)

@Suite("The review page: fitting, sticky controls, frames, filter, selection, keys", .serialized)
struct ReviewPageTests {
  @Test(
    "the page carries each card's case, theme, mode, variant, status and picture sizes, and escapes what it shows"
  )
  func content() throws {
    let fixture = try ReviewPage.fixture.get()
    let html = try String(contentsOf: fixture.page, encoding: .utf8)
    #expect(
      !html.contains("http://") && !html.contains("https://") && !html.contains("<link")
        && !html.contains(" src=\"/"))
    let tags = cardTags(html)
    #expect(tags.count == 6)
    let tall = try #require(tags[ReviewPage.tallID])
    for attribute in [
      #"data-case="tall-list""#, #"data-theme="orange""#, #"data-mode="light""#,
      #"data-variant="orange-light@2x""#, #"data-status="changed""#,
    ] {
      #expect(tall.contains(attribute), "\(attribute)")
    }
    #expect(tags["sample-3/sosh-light@2x"]?.contains(#"data-status="missing""#) == true)
    #expect(
      html.contains(
        #"src="images/tall-list__orange-light@2x/expected.png" width="1080" height="6000""#))
    #expect(
      html.contains(
        #"<button type="button" class="chip" data-status="changed" aria-pressed="false"><span class="badge changed">changed</span> 3</button>"#
      ))
    #expect(
      html.contains(
        #"data-status="missing" aria-pressed="false"><span class="badge missing">missing</span> 2</button>"#
      ))
    #expect(
      html.contains(
        #"data-status="error" aria-pressed="false"><span class="badge error">error</span> 1</button>"#
      ))
    #expect(
      html.contains(
        #"<output id="shown" for="filter" aria-live="polite">6 of 6 failures shown</output>"#))
    // Each card's own command names a whole id, which --filter takes as that reference only.
    #expect(html.contains("--filter sample-3/orange-light@2x</code>"))
    // The made-up markup is text, never markup: in the message, the layout diff and the attributes.
    #expect(!html.contains("<img src=x") && !html.contains("<script>alert"))
    #expect(
      html.contains(
        "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &apos;quoted&apos; &lt;/script&gt;"))
    #expect(html.contains("-&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;"))
    #expect(html.components(separatedBy: "<script>").count == 2, "only the page's own script")
    // No side-by-side picture: the page shows the three pictures itself.
    let images = fixture.page.deletingLastPathComponent().appendingPathComponent(
      "images/tall-list__orange-light@2x")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: images.path).sorted() == [
        "actual.png", "diff.png", "expected.png",
      ])
  }

  @Test(
    "filter and selection from the URL fragment: the count shown, the hidden cards, one command that accepts exactly the selection",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func filterAndSelection() throws {
    let fixture = try ReviewPage.fixture.get()
    let selected = ["sample-3/orange-light@2x", "sample-3/sosh-light@2x"]
    let dom = try Browser.dom(
      WebPage.url(
        fixture.page,
        "filter=orange%20light&status=changed&select=\(selected.joined(separator: ","))"))
    #expect(dom.contains(#"data-state="ready""#), "every image loaded")
    #expect(elementText(dom, id: "shown") == "3 of 6 failures shown")
    #expect(dom.contains(#"data-shown="3""#))
    let tags = cardTags(dom)
    let visible = Set(tags.filter { !$0.value.contains(" hidden") }.keys)
    #expect(
      visible == ["more-sample-3/orange-light@2x", "sample-3/orange-light@2x", ReviewPage.tallID])
    #expect(
      elementText(dom, id: "selected-count") == "accept the 2 selected (1 hidden by the filter):")
    let command = try #require(elementText(dom, id: "selected-command"))
    let expected =
      "ouds-render snapshot record --failed --snapshots \(shellQuote(fixture.snapshots.path)) --themes \(shellQuote(fixture.themes.path))"
      + " --filter sample-3/sosh-light@2x,sample-3/orange-light@2x"
    // In the page's order: the failures no token change explains (the missing one) come first.
    #expect(command == expected)

    // A status chip alone, and words that name fields.
    let missing = try Browser.dom(WebPage.url(fixture.page, "status=missing"))
    #expect(elementText(missing, id: "shown") == "2 of 6 failures shown")
    #expect(missing.contains(#"data-status="missing" aria-pressed="true""#))
    let sosh = try Browser.dom(WebPage.url(fixture.page, "filter=theme:sosh%20case:sample-3"))
    #expect(
      Set(cardTags(sosh).filter { !$0.value.contains(" hidden") }.keys) == [
        "sample-3/sosh-light@2x"
      ])

    // Run the command as a person would paste it: it writes the two selected references and nothing else.
    let before = try Data(
      contentsOf: fixture.snapshots.appendingPathComponent("more-sample-3/orange-light@2x.png"))
    let binary = try builtBinary()
    let output = try runShell(command, path: binary.deletingLastPathComponent().path)
    let written = output.split(separator: "\n").filter { $0.hasPrefix("wrote ") }.map {
      String($0.dropFirst(6))
    }
    #expect(
      Set(written.filter { $0.hasSuffix(".png") }) == [
        "sample-3/orange-light@2x.png", "sample-3/sosh-light@2x.png",
      ])
    #expect(
      written.allSatisfy { $0.hasPrefix("sample-3/") || $0 == "ENVIRONMENT.json" }, "\(written)")
    #expect(
      try Data(
        contentsOf: fixture.snapshots.appendingPathComponent("more-sample-3/orange-light@2x.png"))
        == before)
    let after = try engine(snapshots: fixture.snapshots, themes: fixture.themes)
    let report = try after.verify(after.catalogue.references)
    #expect(
      report.failures.map(\.reference.id) == ["more-sample-3/orange-light@2x"],
      "only the unselected failure is left")
  }

  @Test(
    "a 1080×6000 picture fits the window under its controls; at actual size the controls stay in view mid-picture",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func tallPicture() throws {
    let fixture = try ReviewPage.fixture.get()
    // Scroll the picture's top right under the card's controls, as far as they stick.
    let toPicture = """
      const card = document.querySelector('.failure:not([hidden])');
      const view = card.querySelector('.view.side');
      const bars = document.getElementById('toolbar').getBoundingClientRect().height
        + card.querySelector('.controls').getBoundingClientRect().height;
      window.scrollBy(0, view.getBoundingClientRect().top - bars - 4);
      """
    let fit = try WebPage.driven(fixture.page, name: "fit.html", script: toPicture)
    let shot = try Browser.screenshot(
      ReviewPage.framed(fit, "filter=case:tall-list"), window: "1400,700")
    #expect(
      count(shot, accent, rows: 0..<200) > 1500, "the pressed 'side by side' button is in view")
    #expect(count(shot, ReviewPage.sky) > 1000, "the picture's top is in view")
    #expect(count(shot, ReviewPage.amber) > 1000, "the picture's bottom is in view")
    #expect(count(shot, ReviewPage.green) > 20000)

    // Actual size, slider view, scrolled 2900 px into the picture: the controls are still at the top.
    let middle = try WebPage.driven(
      fixture.page, name: "middle.html",
      script: """
        const card = document.querySelector('.failure:not([hidden])');
        const picture = card.querySelector('.view.slider');
        window.scrollBy(0, picture.getBoundingClientRect().top + 2900 - 200);
        """)
    let deep = try Browser.screenshot(
      ReviewPage.framed(middle, "filter=case:tall-list&view=slider&zoom=actual"), window: "1400,700"
    )
    #expect(
      count(deep, ReviewPage.sky) == 0 && count(deep, ReviewPage.amber) == 0,
      "the picture's ends are out of view")
    #expect(count(deep, ReviewPage.green) > 300_000, "the picture fills the window")
    #expect(
      count(deep, accent, rows: 0..<200) > 2000,
      "the pressed buttons and the slider stick at the top")
    // The slider at 50 %: the render's black band shows on the right half only.
    let blackRows = (0..<deep.height).filter { y in
      (0..<deep.width).filter { x in deep.pixel(x: x, y: y) == (0, 0, 0, 255) }.count > 500
    }
    #expect(blackRows.count == 100, "the black band is in view")
    if let row = blackRows.dropFirst(50).first {
      let black = (0..<deep.width).filter { deep.pixel(x: $0, y: row) == (0, 0, 0, 255) }
      let green = (0..<deep.width).filter { x in
        let p = deep.pixel(x: x, y: row)
        return p.red == ReviewPage.green.0 && p.green == ReviewPage.green.1
          && p.blue == ReviewPage.green.2
      }
      #expect(
        abs(black.count - 540) <= 2 && abs(green.count - 540) <= 2,
        "half expected, half render: \(black.count), \(green.count)")
      #expect(
        (green.max() ?? .max) < (black.min() ?? 0), "expected on the left, the render on the right")
    }
  }

  @Test(
    "a white picture is framed, so it shows against the white page",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func whitePicture() throws {
    let fixture = try ReviewPage.fixture.get()
    let shot = try Browser.screenshot(
      WebPage.url(fixture.page, "filter=case:white-list"), window: "1400,1200")
    var xs: [Int] = []
    var ys: [Int] = []
    for y in 0..<shot.height {
      for x in 0..<shot.width {
        let p = shot.pixel(x: x, y: y)
        if (p.red, p.green, p.blue) == frame {
          xs.append(x)
          ys.append(y)
        }
      }
    }
    let left = try #require(xs.min())
    let right = try #require(xs.max())
    let top = try #require(ys.min())
    let bottom = try #require(ys.max())
    #expect(
      right - left + 1 == 602 && bottom - top + 1 == 302,
      "a 1-pixel frame round the 600×300 picture")
    #expect(xs.count == 2 * 602 + 2 * 300, "the frame is whole and nothing else has its colour")
    #expect(
      shot.pixel(x: (left + right) / 2, y: (top + bottom) / 2) == (255, 255, 255, 255),
      "the picture is white")
    #expect(
      shot.pixel(x: left - 3, y: (top + bottom) / 2) == (255, 255, 255, 255), "so is the page")
  }

  @Test(
    "keys: j/k move between the shown failures, x selects, 2 slider, z actual size, / the filter",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func keys() throws {
    let fixture = try ReviewPage.fixture.get()
    let keys = try WebPage.driven(
      fixture.page, name: "keys.html",
      script: """
        const press = key => document.dispatchEvent(new KeyboardEvent('keydown', { key: key, bubbles: true }));
        ['j', 'x', '2', 'z', 'j', 'j', 'x', 'k', '/'].forEach(press);
        document.body.dataset.focused = document.activeElement ? document.activeElement.id : '';
        """)
    // Only the changed failures are shown: j goes to the first, j j to the third, k back to the
    // second. The unexplained one (the made-up tall list) comes before those the token change
    // of orange light explains.
    let dom = try Browser.dom(WebPage.url(keys, "status=changed"))
    let tags = cardTags(dom)
    let first = try #require(tags[ReviewPage.tallID])
    #expect(first.contains(#"data-view="slider""#) && first.contains(#"data-zoom="actual""#))
    #expect(tags["more-sample-3/orange-light@2x"]?.contains("current") == true)
    #expect(tags.filter { $0.value.contains("current") }.count == 1)
    let command = try #require(elementText(dom, id: "selected-command"))
    #expect(command.hasSuffix(" --filter \(ReviewPage.tallID),sample-3/orange-light@2x"))
    #expect(dom.contains(#"data-focused="filter""#))
    #expect(dom.contains(#"data-selected="2""#))
  }

  @Test(
    "markup typed into the filter stays text",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func hostileFilter() throws {
    let fixture = try ReviewPage.fixture.get()
    let fragment =
      "filter=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&select=%3Cb%3E,sample-3%2Fsosh-light%402x"
    let dom = try Browser.dom(WebPage.url(fixture.page, fragment))
    #expect(elementText(dom, id: "shown") == "0 of 6 failures shown")
    #expect(!dom.contains("src=\"x\"") && !dom.contains("<img src=x"))
    // An id that is not a failure's selects nothing.
    #expect(
      elementText(dom, id: "selected-command")?.hasSuffix(" --filter sample-3/sosh-light@2x")
        == true)
  }
}

/// `ouds-render` in the running test bundle's build folder (SnapshotTests depends on the target, so
/// SwiftPM builds it there).
func builtBinary() throws -> URL {
  let candidates =
    [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
    + Bundle.allBundles.map(\.bundleURL)
  let xctest = try #require(
    candidates.compactMap { $0 }.first { $0.pathExtension == "xctest" }, "the running .xctest")
  let binary = xctest.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(
    "ouds-render")
  #expect(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path) is built")
  return binary
}

/// Runs `command` with `/bin/sh` with `path` first on `PATH`; returns its standard output, throws when it fails.
func runShell(_ command: String, path: String) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  var environment = ProcessInfo.processInfo.environment
  environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
  process.environment = environment
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = errors.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    throw SupportFailure(
      "\(command) exited with \(process.terminationStatus): \(String(decoding: errorData, as: UTF8.self))"
    )
  }
  return String(decoding: data, as: UTF8.self)
}
