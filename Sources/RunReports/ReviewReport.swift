import BulletListRenderer
import Dispatch
import Fonts
import Graphics
import PixelDiff
import Primitives
import SafeInput
import Snapshot
import SnapshotReports
import Threads
import WebAssets

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ReviewReport {
  /// The file in `images/` that marks the folder as written by this page, so a later write may clear it.
  static let imagesMarker = ".ouds-review-images"

  /// Writes `<directory>/index.html` and `<directory>/images/…` for a run's report, its pictures
  /// encoded from memory and its paths relative to `root`: see ``write(_:images:to:commands:title:protecting:)``.
  @discardableResult
  public static func write(
    _ report: SnapshotRunReport, to directory: URL, commands: Commands = .cli(),
    title: String = "OUDS snapshot review",
    root: RepositoryRoot = .find()
  ) throws -> String {
    try write(
      SnapshotRunResults(report, root: root), images: OutcomeImages(report), to: directory,
      commands: commands,
      title: title, protecting: report.inputFiles)
  }

  /// Writes `<directory>/index.html` and `<directory>/images/…` for `results`, the pictures of
  /// each failure taken from `images`.
  ///
  /// An `images/` folder left by an earlier page (it holds the marker file) is cleared first; one
  /// that this tool did not write is left alone, and none of `inputs` is ever replaced.
  /// - Returns: the path of `index.html`.
  @discardableResult
  public static func write(
    _ results: SnapshotRunResults, images source: any ReviewImageSource, to directory: URL,
    commands: Commands = .cli(),
    title: String = "OUDS snapshot review", protecting inputs: InputFiles = InputFiles()
  ) throws -> String {
    let failures = results.failures
    let images = directory.appendingPathComponent("images")
    if FileManager.default.fileExists(atPath: images.appendingPathComponent(imagesMarker).path) {
      removeStaleImages(in: images)
    }
    if !failures.isEmpty {
      try AtomicFile.write(
        Data(), to: images.appendingPathComponent(imagesMarker).path, createDirectories: true,
        protecting: inputs)
    }
    // Each picture once: the failures that share a picture (its SHA-256) share its file.
    var seen = Set<String>()
    var pictures: [(reference: ReferenceResult, image: ReferenceResult.Image, path: String)] = []
    for reference in failures {
      for image in reference.images.keys.sorted() {
        let path = imagePath(reference, image)
        if seen.insert(path).inserted { pictures.append((reference, image, path)) }
      }
    }
    let unique = pictures
    let errors = Locked<[WriteFailure]>([])
    DispatchQueue.concurrentPerform(iterations: unique.count) { index in
      let (reference, image, path) = unique[index]
      do {
        let data = try source.data(for: reference, image: image)
        if let digest = reference.artifactDigests[image.fileName],
          SHA256Digest.hex(of: data) != digest
        {
          throw ReviewImageDigestMismatch(image: image, digest: digest)
        }
        try AtomicFile.write(
          data, to: directory.appendingPathComponent(path).path, createDirectories: true,
          protecting: inputs)
      } catch {
        errors.withLock { $0.append((reference.id, "\(error)")) }
      }
    }
    if let first = firstFailure(errors.withLock { $0 }) {
      throw SnapshotError.reviewImagesNotWritten(reference: first.reference, reason: first.reason)
    }
    let html = page(results, commands: commands, title: title)
    let path = directory.appendingPathComponent("index.html").path
    try AtomicFile.write(Data(html.utf8), to: path, createDirectories: true, protecting: inputs)
    return path
  }

  /// Removes the per-failure folders an earlier page wrote into `images` (real folders holding
  /// only its pictures), and nothing else of a folder that happens to hold the marker.
  static func removeStaleImages(in images: URL) {
    // Only in a real folder: through a link it would reach wherever the link leads.
    guard UserFile.type(atPath: images.path) == .directory else { return }
    let fm = FileManager.default
    let pictures = Set(ReferenceResult.Image.attachmentOrder.map(\.fileName))
    for name in (try? fm.contentsOfDirectory(atPath: images.path)) ?? [] where !name.hasPrefix(".")
    {
      let folder = images.appendingPathComponent(name)
      if isDigestName(name), UserFile.type(atPath: folder.path) == .regular {
        try? fm.removeItem(at: folder)
        continue
      }
      guard UserFile.type(atPath: folder.path) == .directory,
        let files = try? fm.contentsOfDirectory(atPath: folder.path),
        files.allSatisfy({
          pictures.contains($0)
            && UserFile.type(atPath: folder.appendingPathComponent($0).path) == .regular
        })
      else { continue }
      try? fm.removeItem(at: folder)
    }
  }

  /// Where the page keeps `image` of `reference`, relative to the page's folder:
  /// `images/<sha256>.png` when the results record the artifact's SHA-256, so that a picture the
  /// same in several failures (the diff of a token recolouring often is) is stored once, else
  /// `images/<id with / as __>/<file>`.
  public static func imagePath(_ reference: ReferenceResult, _ image: ReferenceResult.Image)
    -> String
  {
    if let digest = reference.artifactDigests[image.fileName] { return "images/\(digest).png" }
    return "images/\(imageFolder(reference.id))/\(image.fileName)"
  }

  /// Whether `name` is a picture file ``imagePath(_:_:)`` names by its SHA-256.
  static func isDigestName(_ name: String) -> Bool {
    name.hasSuffix(".png") && name.utf8.count == 68
      && name.utf8.prefix(64).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// The folder of one failure's images, relative to `images/`: the id with `/` turned into `__`.
  public static func imageFolder(_ id: String) -> String {
    id.replacingEvery("/", with: "__")
  }

  /// The cards drawn for each group of one cause; its other references are listed on demand.
  public static let cardsPerGroup = 3

  /// The statuses a person reads (``SnapshotSummary/displayStatus(_:)``), in the order the chips show them.
  static let statusOrder = ["changed", "layout", "missing", "error"]

  /// The page's HTML.
  static func page(_ report: SnapshotRunResults, commands: Commands, title: String) -> String {
    let failures = report.failures
    var body = "<header id=\"top\"><h1>\(html(title))</h1>"
    body += "<p class=\"totals\" id=\"totals\">\(html(SnapshotSummary.counts(report)))</p>"
    if let sources = report.sourcesSummary {
      body += "<p class=\"sources\" id=\"sources\">\(html(sources))</p>"
    }
    if let headline = report.environmentHeadline {
      body += "<p class=\"environment\" id=\"environment\">\(html(headline))</p>"
    }
    if !report.caseErrors.isEmpty {
      body +=
        "<section class=\"case-errors\" id=\"case-errors\"><h2>Case files that could not be read</h2><ul>"
      for caseError in report.caseErrors {
        let file = report.snapshots.map { JUnitXML.joinPath($0, caseError.file) } ?? caseError.file
        body +=
          "<li class=\"case-error\" data-id=\"\(html(caseError.id))\"><code>\(html(file))</code> "
        body += "<span class=\"badge error\">error</span> "
        body += "<span class=\"message\">\(html(caseError.message))</span></li>"
      }
      body += "</ul></section>"
    }
    if failures.isEmpty && report.succeeded {
      body += "<p class=\"ok\" id=\"all-passed\">Every reference matches.</p>"
    } else if failures.isEmpty && report.tokenDifference != nil {
      body +=
        "<p class=\"environment\" id=\"no-failing-reference\">Every reference matches, but the run fails: "
      body += "the environment differs (above). Once reviewed, record again: "
      body += "<code>\(html(commands.acceptAll))</code></p>"
    }
    let groups = report.failureGroups
    // One change seen in several references is a group of its own (issue 39 point 2).
    let changeGroups = report.changeGroups
    let sameChange = Set(changeGroups.flatMap { $0.references.map(\.id) })
    let unexplained = report.unexplainedFailures.filter { !sameChange.contains($0.id) }
    if !groups.isEmpty || !changeGroups.isEmpty {
      // The causes and their counts come before any picture.
      body += "<section class=\"causes\" id=\"causes\"><h2>Causes</h2><ul>"
      if !unexplained.isEmpty {
        body += "<li class=\"cause unexplained\"><a href=\"#unexplained\">"
        body +=
          "\(FailureGroup.grouped(unexplained.count)) failure\(unexplained.count == 1 ? "" : "s") that no token, font or stack difference explains</a>"
        body += " <span class=\"badge changed\">review each</span></li>"
      }
      for (index, group) in groups.enumerated() {
        body += "<li class=\"cause\" data-count=\"\(group.references.count)\">"
        body += "<a href=\"#g\(index)\">\(html(group.headline(report)))</a></li>"
      }
      for (index, group) in changeGroups.enumerated() {
        body += "<li class=\"cause same-change\" data-count=\"\(group.references.count)\">"
        body += "<a href=\"#c\(index)\">\(html(group.headline))</a></li>"
      }
      body += "</ul></section>"
    }
    if !failures.isEmpty {
      body +=
        "<p class=\"keys\">keys: <kbd>/</kbd> filter · <kbd>j</kbd>/<kbd>k</kbd> next/previous failure · "
      body +=
        "<kbd>x</kbd> select it · <kbd>1</kbd>/<kbd>2</kbd>/<kbd>3</kbd> side by side/slider/toggle · "
      body += "<kbd>t</kbd> flip · <kbd>z</kbd> fit/actual size</p>"
      // The cards the page draws: every unexplained failure, and the first few of each group;
      // the rest of a group is a list that opens on demand.
      let shown =
        unexplained + changeGroups.flatMap { $0.references.prefix(cardsPerGroup) }
        + groups.flatMap { $0.references.prefix(cardsPerGroup) }
      body += "<nav id=\"index\" aria-label=\"failures\"><ol>"
      for (index, reference) in shown.enumerated() {
        let status = reference.displayStatus
        body += "<li data-for=\"f\(index)\"><a href=\"#f\(index)\">\(html(reference.id))</a> "
        body += "<span class=\"badge \(status)\">\(status)</span></li>"
      }
      body += "</ol></nav>"
    }
    body += "</header>"
    if !failures.isEmpty { body += toolbar(failures, commands: commands) }
    body += "<main>"
    var index = 0
    if !groups.isEmpty && !unexplained.isEmpty {
      body +=
        "<h2 class=\"group-title\" id=\"unexplained\">Not explained by the environment difference: review each</h2>"
    }
    for reference in unexplained {
      body += card(
        reference, index: index, command: commands.accept(reference), snapshots: report.snapshots)
      index += 1
    }
    let sections =
      changeGroups.enumerated().map {
        ("c\($0.offset)", $0.element.headline, $0.element.references)
      }
      + groups.enumerated().map {
        ("g\($0.offset)", $0.element.headline(report), $0.element.references)
      }
    for (anchor, headline, references) in sections {
      let group = (references: references, headline: headline)
      body += "<section class=\"group\" id=\"\(anchor)\" data-count=\"\(group.references.count)\">"
      body += "<h2 class=\"group-title\">\(html(group.headline))</h2>"
      for reference in group.references.prefix(cardsPerGroup) {
        body += card(
          reference, index: index, command: commands.accept(reference),
          snapshots: report.snapshots)
        index += 1
      }
      let rest = group.references.dropFirst(cardsPerGroup)
      if !rest.isEmpty {
        body +=
          "<details class=\"more\"><summary>\(FailureGroup.grouped(rest.count)) more reference\(rest.count == 1 ? "" : "s") with this cause</summary><ul class=\"rest\">"
        for reference in rest {
          body +=
            "<li data-id=\"\(html(reference.id))\">\(html(reference.id)): \(html(reference.reason))"
          for image in ReferenceResult.Image.allCases where reference.images[image] != nil {
            body +=
              " <a href=\"\(imagePath(reference, image))\">\(image.rawValue)</a>"
          }
          body += "</li>"
        }
        body += "</ul></details>"
      }
      body += "</section>"
    }
    let passed = report.references.filter { !$0.isFailure }
    if !passed.isEmpty {
      // Collapsed, filterable, each with its time; a pass within a tolerance says so.
      body += "<details class=\"passed\" id=\"passed\"><summary>\(passed.count) passing "
      body += "reference\(passed.count == 1 ? "" : "s")</summary>"
      body +=
        "<p><input id=\"passed-filter\" type=\"search\" placeholder=\"filter passing references\" aria-label=\"filter passing references\"></p><ul>"
      for reference in passed {
        let status = reference.status.rawValue
        body += "<li data-id=\"\(html(reference.id))\">\(html(reference.id)) "
        body += "<span class=\"badge \(status)\">\(status)</span> "
        body += "<span class=\"time\">\(String(cFormat: "%.2f", reference.seconds)) s</span>"
        if reference.isWithinTolerance {
          body +=
            " <span class=\"tolerance\">\(html(SnapshotSummary.withinTolerance(reference)))</span>"
        }
        body += "</li>"
      }
      body += "</ul></details>"
    }
    body += "</main>"
    return HTMLPage.document(
      title: title, css: WebAssets.reviewReportStyle,
      bodyAttributes: " data-failures=\"\(failures.count)\" data-shown=\"\(failures.count)\"",
      body: body,
      script: HTMLPage.settleImagesScript + WebAssets.reviewReportScript)
  }

  /// The sticky bar: the filter box, the status chips, the count shown, and the selection's command.
  private static func toolbar(_ failures: [ReferenceResult], commands: Commands) -> String {
    var s = "<div class=\"toolbar\" id=\"toolbar\" role=\"search\"><div class=\"row\">"
    s += "<input type=\"search\" id=\"filter\" autocomplete=\"off\" spellcheck=\"false\" "
    s += "placeholder=\"filter: words, or case: theme: mode: status: variant:\" "
    s += "aria-label=\"filter the failures by case, theme, mode, variant or status\">"
    s += "<span class=\"chips\" role=\"group\" aria-label=\"status\">"
    let statuses = failures.map(\.displayStatus)
    for status in statusOrder where statuses.contains(status) {
      let count = statuses.filter { $0 == status }.count
      s +=
        "<button type=\"button\" class=\"chip\" data-status=\"\(status)\" aria-pressed=\"false\">"
      s += "<span class=\"badge \(status)\">\(status)</span> \(count)</button>"
    }
    s += "</span><output id=\"shown\" for=\"filter\" aria-live=\"polite\">"
    s +=
      "\(failures.count) of \(failures.count) failure\(failures.count == 1 ? "" : "s") shown</output></div>"
    s +=
      "<div class=\"row\"><label><input type=\"checkbox\" id=\"select-all\"> select all shown</label> "
    s += "<span id=\"selected-count\">accept every failure of this run:</span> "
    s += "<code id=\"selected-command\" data-prefix=\"\(html(commands.acceptSelectedPrefix))\" "
    s += "data-all=\"\(html(commands.acceptAll))\">\(html(commands.acceptAll))</code> "
    s += "<button type=\"button\" class=\"copy\" data-copy=\"selected-command\">copy</button></div>"
    if let acceptRun = commands.acceptRun {
      s +=
        "<div class=\"row\">or take this run's own renders, made in its render stack: put its results folders in the root of your checkout (the CI templates publish them with this page, as out/shard-*), then "
      s += "<code id=\"accept-run\">\(html(acceptRun))</code> "
      s += "<button type=\"button\" class=\"copy\" data-copy=\"accept-run\">copy</button></div>"
    }
    s += "</div>"
    return s
  }

  private static func card(
    _ reference: ReferenceResult, index: Int, command: String, snapshots: String?
  ) -> String {
    let expectedPath = imagePath(reference, .expected)
    let actualPath = imagePath(reference, .actual)
    let id = html(reference.id)
    let status = reference.displayStatus
    let expectedSize = reference.images[.expected]
    let actualSize = reference.images[.actual]
    let diffSize = reference.images[.diff]
    let both = expectedSize != nil && actualSize != nil
    var s = "<section class=\"failure\" id=\"f\(index)\" tabindex=\"-1\" data-id=\"\(id)\""
    s += " data-case=\"\(html(reference.caseName))\" data-theme=\"\(html(reference.theme))\""
    s += " data-mode=\"\(html(reference.mode))\" data-variant=\"\(html(reference.variant))\""
    s += " data-status=\"\(status)\" data-view=\"side\" data-zoom=\"fit\">"
    s += "<h2><input type=\"checkbox\" class=\"pick\" value=\"\(id)\" aria-label=\"select \(id)\"> "
    s += "\(id) <span class=\"badge \(status)\">\(status)</span></h2>"
    s += "<dl class=\"numbers\">"
    s += "<dt>case</dt><dd>\(html(reference.caseName))</dd>"
    s += "<dt>variant</dt><dd>\(html(reference.variant))</dd>"
    s += "<dt>reason</dt><dd class=\"reason\">\(html(reference.reason))</dd>"
    if let pixels = reference.pixels {
      switch pixels {
      case .sizeMismatch(let expected, let actual):
        s += "<dt>size</dt><dd class=\"size\">reference \(expected), render \(actual)</dd>"
      case .identical:
        s += "<dt>pixels</dt><dd>identical</dd>"
      default:
        s += "<dt>changed pixels</dt><dd class=\"changed-pixels\">\(pixels.changedPixels)</dd>"
        s += "<dt>ratio</dt><dd class=\"ratio\">\(String(cFormat: "%.5f", pixels.changedRatio))"
        s += " (\(String(cFormat: "%.3f", pixels.changedRatio * 100)) %)</dd>"
        if let statistics = pixels.statistics {
          s += "<dt>size</dt><dd>\(statistics.size)</dd>"
          let regions = statistics.regions.map {
            "\($0.width)×\($0.height) at (\($0.x),\($0.y)): \($0.changedPixels) px"
          }
          s += "<dt>regions</dt><dd class=\"regions\">\(html(regions.joined(separator: "; ")))"
          s +=
            "\(statistics.omittedRegions > 0 ? " and \(statistics.omittedRegions) more" : "")</dd>"
        }
      }
    }
    s += "</dl>"
    s += "<p class=\"accept\">accept: <code id=\"cmd\(index)\">\(html(command))</code> "
    s += "<button type=\"button\" class=\"copy\" data-copy=\"cmd\(index)\">copy</button></p>"
    if expectedSize != nil || actualSize != nil {
      // The controls stick below the tool bar while the card's pictures scroll by.
      s += "<div class=\"controls\" role=\"toolbar\" aria-label=\"view of \(id)\">"
      if both {
        s += "<span class=\"modes\" role=\"group\" aria-label=\"view\">"
        s +=
          "<button type=\"button\" data-mode=\"side\" class=\"on\" aria-pressed=\"true\">side by side</button>"
        s += "<button type=\"button\" data-mode=\"slider\" aria-pressed=\"false\">slider</button>"
        s +=
          "<button type=\"button\" data-mode=\"toggle\" aria-pressed=\"false\">toggle</button></span>"
        s += "<label class=\"for-slider\">expected "
        s += "<input type=\"range\" min=\"0\" max=\"100\" value=\"50\" class=\"slide\" "
        s += "aria-label=\"slider: expected on the left, actual on the right\"> actual</label>"
        s +=
          "<button type=\"button\" class=\"flip for-toggle\">showing <b>expected</b> — flip</button>"
        s += "<label class=\"for-toggle\"><input type=\"checkbox\" class=\"blink\"> blink</label>"
      }
      s += "<button type=\"button\" class=\"zoom\" aria-pressed=\"false\">actual size</button>"
      // Which failure the controls belong to, once the card's title has scrolled away.
      s += "<span class=\"which\" aria-hidden=\"true\">\(id)</span></div>"
    }
    s += "<div class=\"view side\">"
    if let expectedSize {
      s += figure("expected", expectedPath, expectedSize, reference)
    }
    if let actualSize { s += figure("actual", actualPath, actualSize, reference) }
    if let diffSize { s += figure("diff", imagePath(reference, .diff), diffSize, reference) }
    s += "</div>"
    if both {
      // Slider: actual over expected, clipped from the left by the range input.
      s += "<div class=\"view slider\"><div class=\"stack\">"
      s +=
        "<img class=\"shot under\" loading=\"lazy\" src=\"\(expectedPath)\"\(sizeAttributes(expectedSize))"
      s += " alt=\"expected \(id)\">"
      s += "<div class=\"over\" style=\"clip-path: inset(0 0 0 50%)\">"
      s +=
        "<img class=\"shot\" loading=\"lazy\" src=\"\(actualPath)\"\(sizeAttributes(actualSize)) alt=\"actual \(id)\"></div>"
      s += "</div></div>"
      // Toggle: one image, flipped by the button, the t key or a click on the image.
      s += "<div class=\"view toggle\">"
      s +=
        "<img class=\"shot flipped\" loading=\"lazy\" src=\"\(expectedPath)\"\(sizeAttributes(expectedSize)) "
      s +=
        "data-expected=\"\(expectedPath)\" data-actual=\"\(actualPath)\" alt=\"expected\"></div>"
    }
    if reference.layoutDiffCount > 0 {
      let layoutPath =
        snapshots.map { JUnitXML.joinPath($0, reference.layoutPath) } ?? reference.layoutPath
      s +=
        "<details class=\"layout\" open><summary>layout JSON diff (\(html(layoutPath)))</summary><pre tabindex=\"0\">"
      for line in reference.layoutDiff {
        let kind =
          line.hasPrefix("+")
          ? "add" : line.hasPrefix("-") ? "del" : line.hasPrefix("@@") ? "hunk" : "ctx"
        s += "<span class=\"\(kind)\">\(html(line))</span>\n"
      }
      s += "</pre></details>"
    }
    if let message = reference.message { s += "<p class=\"message\">\(html(message))</p>" }
    s += "</section>"
    return s
  }

  private static func figure(
    _ label: String, _ src: String, _ size: PixelSize?, _ reference: ReferenceResult
  ) -> String {
    "<figure class=\"\(label)\"><figcaption>\(label)</figcaption>"
      + "<img class=\"shot\" loading=\"lazy\" src=\"\(src)\"\(sizeAttributes(size)) alt=\"\(label) \(html(reference.id))\"></figure>"
  }

  /// ` width="W" height="H"` when the size is known, so the page lays out before the images load.
  private static func sizeAttributes(_ size: PixelSize?) -> String {
    size.map { " width=\"\($0.width)\" height=\"\($0.height)\"" } ?? ""
  }

  /// Escapes text for HTML content and attributes (the XML escaping of the JUnit writer: `&`, `<`,
  /// `>`, both quotes; control characters dropped).
  static func html(_ text: String) -> String { HTMLPage.escape(text) }
}

/// A picture whose bytes are not the SHA-256 the results record for it (edited after the run).
struct ReviewImageDigestMismatch: Error, CustomStringConvertible {
  var image: ReferenceResult.Image
  var digest: String
  var description: String {
    "\(image.fileName) is not the file the run wrote (its SHA-256 is not \(digest.prefix(12))…, which results.json records)"
  }
}
