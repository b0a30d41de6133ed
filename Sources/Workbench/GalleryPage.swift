import BulletListRenderer
import Graphics
import Layout
import PNG
import PixelDiff
import Primitives
import SafeInput
import Snapshot
import SnapshotReports
import Themes
import WebAssets

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The gallery as one self-contained `index.html` (inline CSS and script, no network) with its
/// pictures in `images/`.
///
/// Each case shows its file's text (escaped: markup and control characters stay text) beside its
/// pictures, one card per variant; a tool bar filters the cards by case, theme, mode and platform
/// (and, with an old themes folder, changed or not). After the pictures, per theme, a table lists the tokens the
/// component reads in both modes (colours with a swatch and their hex, sizes, weights, font
/// families) and the font files really drawn. With an old themes folder, a changed card shows
/// before, after and diff with the rows that moved or changed colour, an unchanged card one line
/// (its picture folded), and the token tables show old → new.
///
/// The filter lives in the URL fragment, so a link shares a view:
/// `index.html#case=sample-3&theme=sosh&mode=dark&platform=android&changed=changed`; the text
/// size filter (`size=font%20scale%202`, `size=accessibility5`) picks accessibility sizes.
public enum GalleryPage {
  /// The file in `images/` that marks the folder as written by a gallery, so a later one may clear it.
  static let imagesMarker = ".ouds-gallery-images"

  /// The filter keys, in tool-bar order, with their labels.
  static let filterKeys = [
    ("case", "case"), ("theme", "theme"), ("mode", "mode"), ("platform", "platform"),
    ("size", "text size"),
  ]

  /// A variant's text size as the filter and the caption name it: `standard`, Android's
  /// `font scale 1.5` or iOS's `accessibility5`.
  public static func textSize(_ options: LayoutOptions) -> String {
    switch options.platform {
    case .android:
      options.fontScale == FontScale.standard
        ? "standard" : "font scale \(FontScale.text(options.fontScale))"
    case .ios: options.contentSize == .large ? "standard" : options.contentSize.rawValue
    }
  }

  /// The page's file name in the gallery folder: `index.html`.
  public static let fileName = "index.html"

  /// Writes `<directory>/index.html` and `<directory>/images/…`.
  ///
  /// An `images/` folder left by an earlier gallery (it holds the marker file) is cleared first;
  /// one this tool did not write is written into without clearing, and no input is ever replaced.
  /// - Returns: the path of `index.html`.
  @discardableResult
  public static func write(
    _ gallery: Gallery, to directory: URL, title: String = "OUDS bullet list gallery"
  ) throws
    -> String
  {
    let images = directory.appendingPathComponent("images")
    if FileManager.default.fileExists(atPath: images.appendingPathComponent(imagesMarker).path) {
      try? FileManager.default.removeItem(at: images)
    }
    try AtomicFile.write(
      Data(), to: images.appendingPathComponent(imagesMarker).path, createDirectories: true,
      protecting: gallery.inputFiles)
    for item in gallery.items {
      for (name, data) in try files(item) {
        try AtomicFile.write(
          data, to: images.appendingPathComponent(name).path, createDirectories: true,
          protecting: gallery.inputFiles)
      }
    }
    let path = directory.appendingPathComponent(fileName).path
    try AtomicFile.write(
      Data(page(gallery, title: title).utf8), to: path, createDirectories: true,
      protecting: gallery.inputFiles)
    return path
  }

  /// The image files of one item, relative to `images/`: `<case>/<stem>.png`, and with a
  /// comparison `<stem>.before.png` and `<stem>.diff.png`.
  static func files(_ item: Gallery.Item) throws -> [(String, Data)] {
    var files: [(String, Data)] = []
    let base = "\(item.reference.caseName)/\(item.reference.variant.stem)"
    if let png = item.png { files.append(("\(base).png", png)) }
    if let review = item.review, !review.isUnchanged {
      files.append(("\(base).before.png", try PNGCodec.encode(review.before)))
      if let diff = review.diffImage {
        files.append(("\(base).diff.png", try PNGCodec.encode(diff)))
      }
    }
    return files
  }

  /// The page's HTML.
  static func page(_ gallery: Gallery, title: String) -> String {
    let items = gallery.items
    let comparing = gallery.oldThemes != nil
    var body = "<header id=\"top\"><h1>\(html(title))</h1>"
    body += "<p class=\"sources\" id=\"sources\">\(html(gallery.sharedSources))</p>"
    let themes = Set(items.map(\.reference.variant.theme)).count
    body +=
      "<p class=\"totals\" id=\"totals\">\(items.count) picture\(items.count == 1 ? "" : "s") of "
    body +=
      "\(gallery.cases.count) case\(gallery.cases.count == 1 ? "" : "s") in \(themes) theme\(themes == 1 ? "" : "s")"
    let failed = items.filter { $0.error != nil }.count
    if failed > 0 { body += "; \(failed) could not be rendered" }
    body += "</p>"
    if let old = gallery.oldThemes {
      let changed = items.filter(\.isChanged).count
      body +=
        "<p class=\"compare-note\" id=\"compare\">Compared with the tokens of <code>\(html(gallery.paths.folder(old)))</code>: "
      body += "\(changed) of \(items.count) picture\(items.count == 1 ? "" : "s") changed; "
      body +=
        "\(gallery.tokenLines.count) changed token value\(gallery.tokenLines.count == 1 ? "" : "s").</p>"
    }
    if !gallery.brokenCases.isEmpty {
      body +=
        "<section class=\"case-errors\" id=\"case-errors\"><h2>Case files that could not be read</h2><ul>"
      for broken in gallery.brokenCases {
        body += "<li><code>\(html(broken.file))</code> \(html(broken.message))</li>"
      }
      body += "</ul></section>"
    }
    body += "</header>"
    body += toolbar(gallery, comparing: comparing)
    // The pictures first; the token tables after them, folded.
    body += "<main>"
    let fonts = cardFonts(gallery)
    for galleryCase in gallery.cases {
      body += caseSection(galleryCase, comparing: comparing, fonts: fonts)
    }
    body += tokenSection(gallery, comparing: comparing)
    body += "</main>"
    return HTMLPage.document(
      title: title, css: WebAssets.galleryStyle,
      bodyAttributes: " data-items=\"\(items.count)\" data-shown=\"\(items.count)\"", body: body,
      script: HTMLPage.settleImagesScript + WebAssets.galleryScript)
  }

  /// The sticky bar: one select per filter, the count shown.
  private static func toolbar(_ gallery: Gallery, comparing: Bool) -> String {
    let items = gallery.items
    var s = "<div class=\"toolbar\" id=\"toolbar\" role=\"search\">"
    var choices: [(key: String, label: String, values: [(String, String)])] = [
      ("case", "case", gallery.cases.map { ($0.name, $0.name) }),
      (
        "theme", "theme",
        ThemeName.allCases.filter { t in items.contains { $0.reference.variant.theme == t } }.map {
          ($0.rawValue, $0.displayName)
        }
      ),
      (
        "mode", "mode",
        ColorMode.allCases.filter { m in items.contains { $0.reference.variant.mode == m } }.map {
          ($0.rawValue, $0.rawValue)
        }
      ),
      (
        "platform", "platform",
        Platform.allCases.filter { p in
          items.contains { $0.reference.variant.options.platform == p }
        }.map { ($0.rawValue, $0.displayName) }
      ),
      (
        "size", "text size",
        items.map { textSize($0.reference.variant.options) }.reduce(into: [String]()) {
          if !$0.contains($1) { $0.append($1) }
        }.map { ($0, $0) }
      ),
    ]
    if comparing {
      choices.append(("changed", "changes", [("changed", "changed"), ("unchanged", "unchanged")]))
    }
    for choice in choices {
      s += "<label>\(choice.label) <select id=\"filter-\(choice.key)\" data-key=\"\(choice.key)\">"
      s += "<option value=\"\">all</option>"
      for (value, label) in choice.values {
        s += "<option value=\"\(html(value))\">\(html(label))</option>"
      }
      s += "</select></label> "
    }
    s +=
      "<output id=\"shown\" aria-live=\"polite\">\(items.count) of \(items.count) picture\(items.count == 1 ? "" : "s") shown</output>"
    s += "</div>"
    return s
  }

  /// Per theme: the component's tokens in both modes, the fonts drawn, the changed tokens.
  private static func tokenSection(_ gallery: Gallery, comparing: Bool) -> String {
    var s = "<section class=\"tokens\" id=\"tokens\"><h2>Tokens and fonts</h2>"
    for table in gallery.themeTables {
      s +=
        "<section class=\"theme-tokens\" id=\"tokens-\(table.theme.rawValue)\" data-theme=\"\(table.theme.rawValue)\">"
      s += "<h3>\(html(table.theme.displayName))</h3>"
      for error in table.errors { s += "<p class=\"error\">\(html(error))</p>" }
      s += "<table class=\"token-table\"><thead><tr><th>token</th>"
      for mode in ColorMode.allCases { s += "<th>\(mode.rawValue)</th>" }
      s += "<th>file</th></tr></thead><tbody>"
      for row in table.rows {
        let changed =
          comparing
          && ColorMode.allCases.contains { row.values[$0]?.value != row.oldValues[$0]?.value }
        let kind = row.values.values.first?.type ?? ""
        s +=
          "<tr data-path=\"\(html(row.path))\" data-type=\"\(html(kind))\"\(changed ? " class=\"changed\"" : "")>"
        s += "<td><code>\(html(row.path))</code></td>"
        for mode in ColorMode.allCases {
          s += "<td class=\"value\" data-mode=\"\(mode.rawValue)\">"
          if comparing, row.values[mode]?.value != row.oldValues[mode]?.value {
            s += "<del>\(value(row.oldValues[mode]))</del> → "
          }
          s += "\(value(row.values[mode]))</td>"
        }
        let files = Set(ColorMode.allCases.compactMap { row.values[$0]?.file }).sorted()
        s +=
          "<td class=\"file\">\(files.map { "<code>\(html($0))</code>" }.joined(separator: " "))</td></tr>"
      }
      s += "</tbody></table>"
      s += "<h4>Font files really drawn</h4><ul class=\"fonts\">"
      for use in table.fonts {
        s +=
          "<li data-text=\"\(html(use.text))\">\(html(use.text)) (<span lang=\"\(use.text.contains("Arabic") ? "ar" : "en")\">\(html(use.sample))</span>): "
        s += use.files.map { font in
          "<code class=\"font-file\">\(html(font.fileName))</code>"
            + (font.family.isEmpty
              ? "" : " (\(html(font.family))\(font.role == "brand" ? ", brand font" : ""))")
            + " in <code>\(html(gallery.paths.folder(font.folder)))</code>"
        }.joined(separator: ", ")
        if use.files.isEmpty { s += "none" }
        s += "</li>"
      }
      s += "</ul>"
      if comparing {
        s += "<h4>Changed tokens</h4>"
        if table.changes.isEmpty {
          s += "<p class=\"unchanged\">none</p>"
        } else {
          s += "<ul class=\"changes\">"
          for change in table.changes {
            s += "<li class=\"token-change\">\(html(change.line))</li>"
          }
          s += "</ul>"
        }
      }
      s += "</section>"
    }
    s += "</section>"
    return s
  }

  /// A token's value: colours with a swatch and their hex.
  private static func value(_ token: ResolvedToken?) -> String {
    guard let token else { return "<span class=\"missing\">(none)</span>" }
    let text = html(MessageText.line(token.value.displayText))
    if case .color(let color) = token.value {
      return
        "<span class=\"swatch\" style=\"background:\(color.cssColor)\"></span><code>\(text)</code>"
    }
    return "<code>\(text)</code>"
  }

  /// One case: its file's text beside its cards.
  /// The font families each theme draws on each platform, as a card's caption names them
  /// (`Roboto, Noto Naskh Arabic` for an Android card of Orange without its brand font), keyed
  /// `<theme>/<platform>`: from the token tables' font files really drawn.
  static func cardFonts(_ gallery: Gallery) -> [String: String] {
    var result: [String: String] = [:]
    for table in gallery.themeTables {
      for platform in Platform.allCases {
        let prefix = "\(platform.displayName): "
        var uses = table.fonts.filter { $0.text.hasPrefix(prefix) }
        if uses.isEmpty { uses = table.fonts.filter { !$0.text.contains(": ") } }
        var families: [String] = []
        for file in uses.flatMap(\.files) where !file.family.isEmpty {
          if !families.contains(file.family) { families.append(file.family) }
        }
        result["\(table.theme.rawValue)/\(platform.rawValue)"] = families.joined(separator: ", ")
      }
    }
    return result
  }

  private static func caseSection(
    _ galleryCase: Gallery.Case, comparing: Bool, fonts: [String: String]
  ) -> String {
    var s =
      "<section class=\"case\" id=\"case-\(html(galleryCase.name))\" data-case=\"\(html(galleryCase.name))\">"
    s += "<h2>\(html(galleryCase.name)) <small><code>\(html(galleryCase.file))</code></small></h2>"
    s +=
      "<div class=\"case-body\"><pre class=\"source\" tabindex=\"0\">\(html(PageComposer.printable(galleryCase.source)))"
    if galleryCase.omittedLines > 0 {
      s +=
        "\n<span class=\"omitted\">… \(galleryCase.omittedLines) more line\(galleryCase.omittedLines == 1 ? "" : "s")</span>"
    }
    s += "</pre><div class=\"cards\">"
    for item in galleryCase.items { s += card(item, comparing: comparing, fonts: fonts) }
    s += "</div></div></section>"
    return s
  }

  /// One variant's card.
  private static func card(_ item: Gallery.Item, comparing: Bool, fonts: [String: String])
    -> String
  {
    let reference = item.reference
    let variant = reference.variant
    let base = "images/\(reference.caseName)/\(variant.stem)"
    let state = item.error != nil ? "error" : item.isChanged ? "changed" : "unchanged"
    var s =
      "<figure class=\"card \(state)\" id=\"\(html("c-\(reference.caseName)__\(variant.stem)"))\""
    s += " data-case=\"\(html(reference.caseName))\" data-theme=\"\(variant.theme.rawValue)\""
    s +=
      " data-mode=\"\(variant.mode.rawValue)\" data-platform=\"\(variant.options.platform.rawValue)\""
    s += " data-size=\"\(html(textSize(variant.options)))\""
    s += " data-variant=\"\(html(variant.stem))\""
    if comparing { s += " data-changed=\"\(item.isChanged ? "changed" : "unchanged")\"" }
    s += ">"
    s +=
      "<figcaption><b>\(html(variant.theme.displayName)) · \(variant.mode.rawValue) · \(variant.options.platform.displayName)</b>"
    s += " <span class=\"variant\">\(html(variant.stem))</span>"
    if let families = fonts["\(variant.theme.rawValue)/\(variant.options.platform.rawValue)"],
      !families.isEmpty
    {
      s += " <span class=\"fonts\">\(html(families))</span>"
    }
    if comparing { s += " <span class=\"badge \(state)\">\(state)</span>" }
    s += "</figcaption>"
    if let error = item.error {
      s += "<p class=\"error\">\(html(error))</p></figure>"
      return s
    }
    guard let size = item.size else { return s + "</figure>" }
    let displayed = sizeAttributes(size)
    let alt = html(reference.id)
    if let review = item.review, !review.isUnchanged {
      let diffSize = review.diffImage.map { PixelSize(width: $0.width, height: $0.height) } ?? size
      s += "<div class=\"compare\">"
      s +=
        "<div class=\"shot\"><span>before</span><img src=\"\(html(base)).before.png\"\(sizeAttributes(PixelSize(width: review.before.width, height: review.before.height))) alt=\"before \(alt)\"></div>"
      s +=
        "<div class=\"shot\"><span>after</span><img src=\"\(html(base)).png\"\(displayed) alt=\"after \(alt)\"></div>"
      if review.diffImage != nil {
        s +=
          "<div class=\"shot\"><span>diff</span><img src=\"\(html(base)).diff.png\"\(sizeAttributes(diffSize)) alt=\"diff \(alt)\"></div>"
      }
      s += "</div><ul class=\"review\">"
      for line in review.summary { s += "<li class=\"summary\">\(html(line))</li>" }
      for change in review.rowChanges {
        s +=
          "<li class=\"row-change\" data-path=\"\(html(change.path))\">\(html(change.description))</li>"
      }
      s += "</ul>"
    } else if comparing {
      s +=
        "<details class=\"unchanged\"><summary>unchanged: same tokens drawn, same pixels</summary>"
      s += "<img src=\"\(html(base)).png\"\(displayed) alt=\"\(alt)\"></details>"
    } else {
      s += "<img src=\"\(html(base)).png\"\(displayed) alt=\"\(alt)\">"
    }
    for warning in item.warnings { s += "<p class=\"warning\">warning: \(html(warning))</p>" }
    s += "</figure>"
    return s
  }

  /// ` width="W" height="H"` in CSS pixels: the picture at its size in points.
  private static func sizeAttributes(_ size: PixelSize) -> String {
    " width=\"\(max(1, size.width / Gallery.scale))\" height=\"\(max(1, size.height / Gallery.scale))\""
  }

  /// Escapes text for HTML content and attributes.
  static func html(_ text: String) -> String { HTMLPage.escape(text) }
}

extension RGBAColor {
  /// The colour as CSS: `#RRGGBB`, or `rgba(r, g, b, a)` when not opaque.
  var cssColor: String {
    alpha == 255
      ? String(hex.prefix(7))
      : "rgba(\(red), \(green), \(blue), \(String(cFormat: "%.3f", Double(alpha) / 255)))"
  }
}
