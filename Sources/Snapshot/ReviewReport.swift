import BulletListRenderer
import Dispatch
import Foundation
import Graphics
import SafeInput

/// The HTML review page: one self-contained `index.html` (inline CSS and JS, no network) with the images beside it.
///
/// For each failure it shows expected, actual and diff side by side, a slider and a toggle between
/// expected and actual, the numbers (changed pixels, ratio, regions, sizes, layout JSON diff), and
/// the exact command that accepts it; check boxes build one command that accepts a selection.
public enum ReviewReport {
  /// How the page words its accept commands.
  public struct Commands: Sendable {
    /// The command for one failure, e.g. `ouds-render snapshot record --failed --filter 'sample-3/orange-light@2x'`.
    public var accept: @Sendable (SnapshotOutcome) -> String
    /// The command without `--filter`, to which the page appends `--filter '<id>,<id>'` for a selection.
    public var acceptSelectedPrefix: String
    /// The command that accepts every failure of the run.
    public var acceptAll: String

    /// Creates the commands.
    public init(
      accept: @escaping @Sendable (SnapshotOutcome) -> String, acceptSelectedPrefix: String, acceptAll: String
    ) {
      self.accept = accept
      self.acceptSelectedPrefix = acceptSelectedPrefix
      self.acceptAll = acceptAll
    }

    /// Commands for the CLI with `extraArguments` (e.g. `--snapshots X --themes Y`), already shell-quoted.
    public static func cli(extraArguments: String = "", filter: String? = nil) -> Commands {
      let extra = extraArguments.isEmpty ? "" : " " + extraArguments
      let base = "ouds-render snapshot record"
      return Commands(
        accept: { outcome in
          let mode = outcome.status == .missing ? "--missing" : "--failed"
          return "\(base) \(mode)\(extra) --filter \(shellQuote(outcome.reference.id))"
        },
        acceptSelectedPrefix: "\(base) --failed\(extra)",
        acceptAll: "\(base) --failed\(extra)" + (filter.map { " --filter \(shellQuote($0))" } ?? ""))
    }
  }

  /// Writes `<directory>/index.html` and `<directory>/images/…` for `report`.
  /// - Returns: the path of `index.html`.
  @discardableResult
  public static func write(
    _ report: SnapshotRunReport, to directory: URL, commands: Commands = .cli(), title: String = "OUDS snapshot review"
  ) throws -> String {
    let failures = report.failures
    let images = directory.appendingPathComponent("images")
    if FileManager.default.fileExists(atPath: images.path) {
      try? FileManager.default.removeItem(at: images)
    }
    let errors = ParallelItems<WriteFailure>()
    DispatchQueue.concurrentPerform(iterations: failures.count) { index in
      let outcome = failures[index]
      let folder = images.appendingPathComponent(imageFolder(outcome.reference))
      do {
        for (name, data) in try SnapshotArtifacts.files(for: outcome) where name.hasSuffix(".png") && name != "side-by-side.png" {
          try AtomicFile.write(
            data, to: folder.appendingPathComponent(name).path, createDirectories: true, protecting: report.inputFiles)
        }
      } catch {
        errors.append((outcome.reference.id, "\(error)"))
      }
    }
    if let first = firstFailure(errors.all) {
      throw SnapshotError.reviewImagesNotWritten(reference: first.reference, reason: first.reason)
    }
    let html = page(report, commands: commands, title: title)
    let path = directory.appendingPathComponent("index.html").path
    try AtomicFile.write(Data(html.utf8), to: path, createDirectories: true, protecting: report.inputFiles)
    return path
  }

  /// The folder of one failure's images, relative to `images/`: the id with `/` turned into `__`.
  static func imageFolder(_ reference: SnapshotReference) -> String {
    reference.id.replacingOccurrences(of: "/", with: "__")
  }

  /// The page's HTML.
  static func page(_ report: SnapshotRunReport, commands: Commands, title: String) -> String {
    let failures = report.failures
    var body = ""
    body += "<header><h1>\(html(title))</h1>"
    body += "<p class=\"totals\" id=\"totals\">\(html(SnapshotSummary.totals(report)))</p>"
    if let sources = report.sources {
      body += "<p class=\"sources\" id=\"sources\">\(html(sources))</p>"
    }
    if let headline = report.environmentHeadline {
      body += "<p class=\"environment\" id=\"environment\">\(html(headline))</p>"
    }
    if !report.caseErrors.isEmpty {
      body += "<section class=\"case-errors\" id=\"case-errors\"><h2>Case files that could not be read</h2><ul>"
      for caseError in report.caseErrors {
        body += "<li class=\"case-error\" data-id=\"\(html(caseError.id))\"><code>\(html(caseError.file))</code> <span class=\"badge error\">error</span> <span class=\"message\">\(html(caseError.message))</span></li>"
      }
      body += "</ul></section>"
    }
    if failures.isEmpty && report.succeeded {
      body += "<p class=\"ok\" id=\"all-passed\">Every reference matches.</p>"
    } else if failures.isEmpty && report.tokenDifference != nil {
      body += "<p class=\"environment\" id=\"no-failing-reference\">Every reference matches, but the run fails: the environment differs (above). "
      body += "Once reviewed, record again: <code>\(html(commands.acceptAll))</code></p>"
    } else if !failures.isEmpty {
      body += "<div class=\"bulk\"><label><input type=\"checkbox\" id=\"select-all\"> select all</label> "
      body += "<code id=\"selected-command\" data-prefix=\"\(html(commands.acceptSelectedPrefix))\">\(html(commands.acceptAll))</code> "
      body += "<button type=\"button\" class=\"copy\" data-copy=\"selected-command\">copy</button>"
      body += "<span class=\"keys\">keys: j/k next/previous, t toggle, 1/2/3 side by side/slider/toggle</span></div>"
      body += "<nav id=\"index\"><ol>"
      for (index, outcome) in failures.enumerated() {
        body += "<li><a href=\"#f\(index)\">\(html(outcome.reference.id))</a> <span class=\"badge \(outcome.status.rawValue)\">\(outcome.status.rawValue)</span></li>"
      }
      body += "</ol></nav>"
    }
    body += "</header><main>"
    for (index, outcome) in failures.enumerated() {
      body += card(outcome, index: index, command: commands.accept(outcome))
    }
    let passed = report.outcomes.filter { !$0.isFailure }
    if !passed.isEmpty {
      body += "<details class=\"passed\"><summary>\(passed.count) passing reference\(passed.count == 1 ? "" : "s")</summary><ul>"
      for outcome in passed { body += "<li>\(html(outcome.reference.id)) <span class=\"badge \(outcome.status.rawValue)\">\(outcome.status.rawValue)</span></li>" }
      body += "</ul></details>"
    }
    body += "</main>"
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(html(title))</title>
      <style>\(css)</style>
      </head>
      <body data-failures="\(failures.count)" data-state="loading">
      \(body)
      <script>\(script)</script>
      </body>
      </html>

      """
  }

  private static func card(_ outcome: SnapshotOutcome, index: Int, command: String) -> String {
    let folder = "images/" + imageFolder(outcome.reference)
    let hasExpected = outcome.expectedPNG != nil
    let hasActual = outcome.actualImage != nil
    let hasDiff = outcome.expectedImage != nil && outcome.actualImage != nil && outcome.diff != nil
    var s = "<section class=\"failure\" id=\"f\(index)\" data-id=\"\(html(outcome.reference.id))\" data-status=\"\(outcome.status.rawValue)\" data-view=\"side\">"
    s += "<h2><input type=\"checkbox\" class=\"pick\" value=\"\(html(outcome.reference.id))\" aria-label=\"select \(html(outcome.reference.id))\"> "
    s += "\(html(outcome.reference.id)) <span class=\"badge \(outcome.status.rawValue)\">\(outcome.status.rawValue)</span></h2>"
    s += "<dl class=\"numbers\">"
    s += "<dt>case</dt><dd>\(html(outcome.reference.caseName))</dd>"
    s += "<dt>variant</dt><dd>\(html(outcome.reference.variant.name))</dd>"
    s += "<dt>reason</dt><dd class=\"reason\">\(html(outcome.reason))</dd>"
    if let diff = outcome.diff {
      switch diff {
      case .sizeMismatch(let expected, let actual):
        s += "<dt>size</dt><dd class=\"size\">reference \(expected), render \(actual)</dd>"
      case .identical:
        s += "<dt>pixels</dt><dd>identical</dd>"
      default:
        s += "<dt>changed pixels</dt><dd class=\"changed-pixels\">\(diff.changedPixels)</dd>"
        s += "<dt>ratio</dt><dd class=\"ratio\">\(String(format: "%.5f", diff.changedRatio)) (\(String(format: "%.3f", diff.changedRatio * 100)) %)</dd>"
        if let statistics = diff.statistics {
          s += "<dt>size</dt><dd>\(statistics.size)</dd>"
          let regions = statistics.regions.map { "\($0.width)×\($0.height) at (\($0.x),\($0.y)): \($0.changedPixels) px" }
          s += "<dt>regions</dt><dd class=\"regions\">\(html(regions.joined(separator: "; ")))\(statistics.omittedRegions > 0 ? " and \(statistics.omittedRegions) more" : "")</dd>"
        }
      }
    }
    s += "</dl>"
    s += "<p class=\"accept\">accept: <code id=\"cmd\(index)\">\(html(command))</code> <button type=\"button\" class=\"copy\" data-copy=\"cmd\(index)\">copy</button></p>"
    if hasExpected && hasActual {
      s += "<div class=\"modes\" role=\"tablist\">"
      s += "<button type=\"button\" data-mode=\"side\" class=\"on\">side by side</button>"
      s += "<button type=\"button\" data-mode=\"slider\">slider</button>"
      s += "<button type=\"button\" data-mode=\"toggle\">toggle</button></div>"
    }
    // Side by side.
    s += "<div class=\"view side\">"
    if hasExpected { s += figure("expected", "\(folder)/expected.png", outcome) }
    if hasActual { s += figure("actual", "\(folder)/actual.png", outcome) }
    if hasDiff { s += figure("diff", "\(folder)/diff.png", outcome) }
    s += "</div>"
    if hasExpected && hasActual {
      // Slider: actual over expected, clipped from the left by the range input.
      s += "<div class=\"view slider\"><div class=\"stack\">"
      s += "<img class=\"under\" src=\"\(folder)/expected.png\" alt=\"expected\">"
      s += "<div class=\"over\" style=\"clip-path: inset(0 0 0 50%)\"><img src=\"\(folder)/actual.png\" alt=\"actual\"></div>"
      s += "</div><input type=\"range\" min=\"0\" max=\"100\" value=\"50\" class=\"slide\" aria-label=\"slider: expected on the left, actual on the right\">"
      s += "<p class=\"hint\">left: expected · right: actual</p></div>"
      // Toggle: one image, flipped by the button, the t key or a click on the image.
      s += "<div class=\"view toggle\"><button type=\"button\" class=\"flip\">showing <b>expected</b> — flip</button>"
      s += "<label><input type=\"checkbox\" class=\"blink\"> blink</label><br>"
      s += "<img class=\"flipped\" src=\"\(folder)/expected.png\" data-expected=\"\(folder)/expected.png\" data-actual=\"\(folder)/actual.png\" alt=\"expected\"></div>"
    }
    if !outcome.layoutDiff.isEmpty {
      s += "<details class=\"layout\" open><summary>layout JSON diff (\(html(outcome.reference.layoutPath)))</summary><pre>"
      for line in outcome.layoutDiff {
        let kind = line.hasPrefix("+") ? "add" : line.hasPrefix("-") ? "del" : line.hasPrefix("@@") ? "hunk" : "ctx"
        s += "<span class=\"\(kind)\">\(html(line))</span>\n"
      }
      s += "</pre></details>"
    }
    if let message = outcome.message { s += "<p class=\"message\">\(html(message))</p>" }
    s += "</section>"
    return s
  }

  private static func figure(_ label: String, _ src: String, _ outcome: SnapshotOutcome) -> String {
    "<figure class=\"\(label)\"><figcaption>\(label)</figcaption><img src=\"\(src)\" alt=\"\(label) \(html(outcome.reference.id))\"></figure>"
  }

  /// Escapes text for HTML content and attributes (the XML escaping of the JUnit writer).
  static func html(_ text: String) -> String {
    JUnitXML.escape(text, attribute: false)
  }

  static let css = """
    :root { color-scheme: light dark; --bg: #fff; --fg: #111; --muted: #666; --line: #ddd; --accent: #f16e00; }
    @media (prefers-color-scheme: dark) { :root { --bg: #141414; --fg: #eee; --muted: #aaa; --line: #333; } }
    body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
    header, main { padding: 12px 20px; }
    header { border-bottom: 1px solid var(--line); position: sticky; top: 0; background: var(--bg); z-index: 2; }
    h1 { font-size: 20px; margin: 0 0 4px; }
    h2 { font-size: 16px; margin: 0 0 8px; font-family: ui-monospace, monospace; }
    .environment { background: #fff3cd; color: #5c4400; padding: 6px 10px; border-radius: 4px; }
    .sources { font-family: ui-monospace, monospace; font-size: 12px; color: #444; overflow-wrap: anywhere; }
    .ok { color: #0a7d32; font-weight: bold; }
    .bulk code, .accept code { background: rgba(127,127,127,.15); padding: 2px 6px; border-radius: 3px; user-select: all; }
    .keys { color: var(--muted); margin-left: 12px; }
    nav ol { margin: 6px 0 0; padding-left: 28px; max-height: 140px; overflow-y: auto; }
    .badge { font-size: 11px; padding: 1px 6px; border-radius: 8px; color: #fff; background: #888; }
    .badge.changed { background: #c0392b; } .badge.missing { background: #8e44ad; } .badge.error { background: #000; }
    .badge.passed { background: #0a7d32; } .badge.recorded { background: #2471a3; }
    .failure { border: 1px solid var(--line); border-radius: 6px; padding: 12px; margin: 0 0 16px; }
    .failure.current { outline: 3px solid var(--accent); }
    .numbers { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px; }
    .numbers dt { color: var(--muted); } .numbers dd { margin: 0; font-family: ui-monospace, monospace; }
    .modes button.on { background: var(--accent); color: #fff; border-color: var(--accent); }
    .view { display: none; margin-top: 8px; }
    .failure[data-view=side] .view.side, .failure[data-view=slider] .view.slider, .failure[data-view=toggle] .view.toggle { display: block; }
    .view.side { display: none; gap: 12px; align-items: flex-start; overflow-x: auto; }
    .failure[data-view=side] .view.side { display: flex; }
    figure { margin: 0; } figcaption { color: var(--muted); font-size: 12px; }
    img { max-width: 100%; image-rendering: pixelated; background: repeating-conic-gradient(#ccc 0 25%, #fff 0 50%) 0 0/16px 16px; display: block; }
    .view.side img { max-width: 32vw; }
    .stack { position: relative; display: inline-block; }
    .stack .over { position: absolute; inset: 0; }
    .stack img { max-width: none; }
    .slide { width: 100%; max-width: 720px; display: block; }
    .hint { color: var(--muted); margin: 2px 0; }
    pre { overflow: auto; max-height: 320px; background: rgba(127,127,127,.08); padding: 8px; }
    pre .add { color: #0a7d32; } pre .del { color: #c0392b; } pre .hunk { color: #2471a3; }
    """

  static let script = """
    (function () {
      const cards = Array.from(document.querySelectorAll('.failure'));
      let current = -1;
      function setView(card, mode) {
        card.dataset.view = mode;
        card.querySelectorAll('.modes button').forEach(b => b.classList.toggle('on', b.dataset.mode === mode));
      }
      function flip(card) {
        const img = card.querySelector('img.flipped');
        if (!img) return;
        const showActual = img.alt === 'expected';
        img.src = showActual ? img.dataset.actual : img.dataset.expected;
        img.alt = showActual ? 'actual' : 'expected';
        const b = card.querySelector('.flip b'); if (b) b.textContent = img.alt;
      }
      cards.forEach(card => {
        card.querySelectorAll('.modes button').forEach(b => b.addEventListener('click', () => setView(card, b.dataset.mode)));
        const slide = card.querySelector('.slide');
        const over = card.querySelector('.over');
        if (slide && over) slide.addEventListener('input', () => { over.style.clipPath = 'inset(0 0 0 ' + slide.value + '%)'; });
        const button = card.querySelector('.flip');
        if (button) button.addEventListener('click', () => flip(card));
        const img = card.querySelector('img.flipped');
        if (img) img.addEventListener('click', () => flip(card));
        let timer = null;
        const blink = card.querySelector('.blink');
        if (blink) blink.addEventListener('change', () => {
          if (timer) { clearInterval(timer); timer = null; }
          if (blink.checked) timer = setInterval(() => flip(card), 600);
        });
      });
      const command = document.getElementById('selected-command');
      const all = document.getElementById('select-all');
      function updateCommand() {
        if (!command) return;
        const ids = Array.from(document.querySelectorAll('.pick:checked')).map(p => p.value);
        command.textContent = ids.length ? command.dataset.prefix + " --filter '" + ids.join(',') + "'" : command.dataset.prefix;
      }
      document.querySelectorAll('.pick').forEach(p => p.addEventListener('change', updateCommand));
      if (all) all.addEventListener('change', () => { document.querySelectorAll('.pick').forEach(p => { p.checked = all.checked; }); updateCommand(); });
      document.querySelectorAll('button.copy').forEach(b => b.addEventListener('click', () => {
        const text = document.getElementById(b.dataset.copy).textContent;
        if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => { b.textContent = 'copied'; }, () => {});
      }));
      function focus(i) {
        if (!cards.length) return;
        current = (i + cards.length) % cards.length;
        cards.forEach((c, k) => c.classList.toggle('current', k === current));
        cards[current].scrollIntoView({ block: 'start' });
      }
      document.addEventListener('keydown', e => {
        if (e.target.tagName === 'INPUT' && e.target.type !== 'checkbox') return;
        const card = cards[current];
        if (e.key === 'j') focus(current + 1);
        else if (e.key === 'k') focus(current - 1);
        else if (card && e.key === 't') { setView(card, 'toggle'); flip(card); }
        else if (card && e.key === '1') setView(card, 'side');
        else if (card && e.key === '2') setView(card, 'slider');
        else if (card && e.key === '3') setView(card, 'toggle');
      });
      function settle() {
        const images = Array.from(document.images);
        const loaded = images.filter(i => i.complete && i.naturalWidth > 0).length;
        document.body.dataset.imagesTotal = String(images.length);
        document.body.dataset.imagesLoaded = String(loaded);
        document.body.dataset.state = loaded === images.length ? 'ready' : 'broken-images';
      }
      if (document.readyState === 'complete') settle(); else window.addEventListener('load', settle);
    })();
    """
}

/// Quotes `text` for a POSIX shell when it holds anything but safe characters.
public func shellQuote(_ text: String) -> String {
  let safe = text.unicodeScalars.allSatisfy {
    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "@%+=:,./-_".unicodeScalars.contains($0)
  }
  if safe && !text.isEmpty { return text }
  return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
