import BulletListRenderer
import Fonts
import Foundation
import Graphics
import PNG
import Primitives
import Scene
import Snapshot
import SnapshotReports
import TestSupport
import Testing
import Themes
import Workbench

/// Two galleries written once for the tests below.
///
/// The plain one shows a catalogue of three cases, eight variants:
/// - `sample-3`: Orange light and dark, Sosh light and dark (iOS), and Sosh dark on Android;
/// - `arabic-bare`: Orange dark on iOS and on Android;
/// - `hostile-label`: Wireframe light, a label of markup that must stay text.
///
/// The compared one shows `demo-unordered` in Orange, Sosh and Wireframe light, drawn with the
/// edited tokens of ``TokenChangeFixture`` and compared with the repository's.
enum GalleryFixture {
  static let hostileLabel = #"<script>alert(1)</script> & <img src=x onerror=alert(2)>"#
  static let sampleIDs = [
    "sample-3/orange-light", "sample-3/orange-dark", "sample-3/sosh-light", "sample-3/sosh-dark",
    "sample-3/sosh-dark-android",
  ]
  static let allIDs = Set(
    sampleIDs + [
      "arabic-bare/orange-dark", "arabic-bare/orange-dark-android", "hostile-label/wireframe-light",
    ])

  struct Written {
    var gallery: Gallery
    var page: URL
    var snapshots: URL
  }

  static let plain: Result<Written, any Error> = Result {
    let snapshots = try makeSnapshotsFolder(
      cases: ["sample-3", "arabic-bare"],
      variants: [
        "sample-3":
          #"[{ "themes": ["orange", "sosh"] }, { "themes": ["sosh"], "modes": ["dark"], "platform": "android" }]"#,
        "arabic-bare":
          #"{ "themes": ["orange"], "modes": ["dark"], "platform": ["ios", "android"] }"#,
      ])
    let hostile = """
      {
        "items": [ { "label": "\(hostileLabel)" } ],
        "variants": { "themes": ["wireframe"], "modes": ["light"] }
      }

      """
    try Data(hostile.utf8).write(to: snapshots.appendingPathComponent("cases/hostile-label.json"))
    let gallery = try Gallery.make(engine: engine(snapshots: snapshots))
    let out = try temporaryFolder("gallery")
    let page = try GalleryPage.write(gallery, to: out)
    return Written(gallery: gallery, page: URL(fileURLWithPath: page), snapshots: snapshots)
  }

  static let compared: Result<Written, any Error> = Result {
    let edited = try TokenChangeFixture.fixture.get().edited
    let snapshots = try makeSnapshotsFolder(
      cases: ["demo-unordered"],
      variants: [
        "demo-unordered": #"{ "themes": ["orange", "sosh", "wireframe"], "modes": ["light"] }"#
      ])
    let gallery = try Gallery.make(
      engine: engine(snapshots: snapshots, themes: edited), compareThemes: Repo.themes)
    let out = try temporaryFolder("gallery-compared")
    let page = try GalleryPage.write(gallery, to: out)
    return Written(gallery: gallery, page: URL(fileURLWithPath: page), snapshots: snapshots)
  }
}

/// The cards of a gallery page (or its DOM dump): `<case>/<stem>` → the opening tag.
func galleryCards(_ html: String) -> [String: String] {
  var tags: [String: String] = [:]
  for match in html.matches(of: /<figure class="card[^"]*"[^>]*>/) {
    let tag = String(match.output)
    if let caseName = tag.firstMatch(of: /data-case="([^"]*)"/),
      let stem = tag.firstMatch(of: /data-variant="([^"]*)"/)
    {
      tags["\(caseName.1)/\(stem.1)"] = tag
    }
  }
  return tags
}

/// The ids of the cards a DOM dump shows (those without the `hidden` attribute).
func visibleCards(_ dom: String) -> Set<String> {
  Set(galleryCards(dom).filter { !$0.value.contains(" hidden") }.keys)
}

/// The part of `html` from the element with `id` to the end of its section.
func section(_ html: String, id: String) -> String? {
  guard let start = html.range(of: "id=\"\(id)\"") else { return nil }
  guard let end = html[start.upperBound...].range(of: "</section>") else { return nil }
  return String(html[start.lowerBound..<end.lowerBound])
}

@Suite(
  "The gallery: every case in every variant, sources, token tables, fonts, filters, PDF",
  .serialized)
struct GalleryTests {
  @Test("one card per variant (scale variants once), each picture the render of its variant")
  func cards() throws {
    let written = try GalleryFixture.plain.get()
    let html = try String(contentsOf: written.page, encoding: .utf8)
    let cards = galleryCards(html)
    #expect(Set(cards.keys) == GalleryFixture.allIDs)
    let android = try #require(cards["sample-3/sosh-dark-android"])
    for attribute in [
      #"data-case="sample-3""#, #"data-theme="sosh""#, #"data-mode="dark""#,
      #"data-platform="android""#,
    ] {
      #expect(android.contains(attribute), "\(attribute)")
    }
    #expect(cards["arabic-bare/orange-dark"]?.contains(#"data-platform="ios""#) == true)
    // the text size filter: these cases draw the standard size only
    #expect(cards.values.allSatisfy { $0.contains(#"data-size="standard""#) })
    #expect(html.contains(#"<select id="filter-size" data-key="size">"#))
    #expect(
      GalleryPage.textSize(LayoutOptions(platform: .android, fontScale: 1.5)) == "font scale 1.5")
    #expect(GalleryPage.textSize(LayoutOptions(contentSize: .accessibility5)) == "accessibility5")
    #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<link"))
    let library = try ThemeLibrary(directory: Repo.themes)
    for item in written.gallery.items {
      let variant = item.reference.variant
      let file = written.page.deletingLastPathComponent().appendingPathComponent(
        "images/\(item.reference.caseName)/\(variant.stem).png")
      let image = try PNGCodec.decode(Data(contentsOf: file))
      #expect(
        html.contains(
          "src=\"images/\(item.reference.caseName)/\(variant.stem).png\" width=\"\(image.width / 2)\" height=\"\(image.height / 2)\""
        ))
      // The canvas is the theme's background in that mode, a pixel in from the corner.
      let background = try library.theme(variant.theme, mode: variant.mode).colors.backgroundPrimary
      let corner = image.pixel(x: 1, y: 1)
      #expect(
        (corner.red, corner.green, corner.blue) == (
          background.red, background.green, background.blue
        ), "\(item.reference.id)")
      #expect(image.width == Int(variant.options.width) * Gallery.scale)
    }
  }

  @Test("each case's file is shown beside its pictures, escaped: markup stays text")
  func sources() throws {
    let written = try GalleryFixture.plain.get()
    let html = try String(contentsOf: written.page, encoding: .utf8)
    #expect(!html.contains("<script>alert") && !html.contains("<img src=x"))
    #expect(html.components(separatedBy: "<script>").count == 2, "only the page's own script")
    let hostile = try #require(section(html, id: "case-hostile-label"))
    #expect(hostile.contains("<pre class=\"source\" tabindex=\"0\">"), "focusable: it may scroll")
    #expect(
      hostile.contains(
        "&quot;label&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(2)&gt;&quot;"
      ))
    let sample = try #require(section(html, id: "case-sample-3"))
    let file = try String(
      contentsOf: written.snapshots.appendingPathComponent("cases/sample-3.json"), encoding: .utf8)
    #expect(
      sample.contains(JUnitXML.escape(file.trimmingCharacters(in: .newlines), attribute: false)))
    #expect(sample.contains("<code>cases/sample-3.json</code>"))
  }

  @Test("a long case file is shown cut to its first 400 lines, with how many more there are")
  func longSource() throws {
    let snapshots = try makeSnapshotsFolder(cases: [])
    let padding = String(repeating: "\n", count: 500)
    let text =
      "{\n  \"items\": [ { \"label\": \"Only\" } ],\(padding)"
      + "  \"variants\": { \"themes\": [\"orange\"], \"modes\": [\"light\"] }\n}\n"
    try Data(text.utf8).write(to: snapshots.appendingPathComponent("cases/long.json"))
    let gallery = try Gallery.make(engine: engine(snapshots: snapshots))
    let long = try #require(gallery.cases.first)
    #expect(
      long.source.split(separator: "\n", omittingEmptySubsequences: false).count
        == Gallery.sourceLineLimit)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    #expect(lines > Gallery.sourceLineLimit + 100)
    #expect(long.omittedLines == lines - Gallery.sourceLineLimit)
    let page = try GalleryPage.write(gallery, to: temporaryFolder("gallery-long"))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(
      html.contains(
        "<span class=\"omitted\">… \(lines - Gallery.sourceLineLimit) more lines</span>"))
  }

  @Test(
    "per theme, the component's tokens in both modes: colours with swatch and hex, sizes, families, files"
  )
  func tokenTables() throws {
    let written = try GalleryFixture.plain.get()
    let html = try String(contentsOf: written.page, encoding: .utf8)
    let library = try ThemeLibrary(directory: Repo.themes)
    for name in ThemeName.allCases {
      let table = try #require(section(html, id: "tokens-\(name.rawValue)"), "\(name)")
      for mode in ColorMode.allCases {
        let theme = try library.theme(name, mode: mode)
        let colours: [(String, RGBAColor)] = [
          ("color.content.default", theme.colors.contentDefault),
          ("color.content.brand-primary", theme.colors.contentBrandPrimary),
          ("color.bg.primary", theme.colors.backgroundPrimary),
          ("link.color.content.enabled", theme.colors.linkEnabled),
        ]
        for (path, colour) in colours {
          let cell =
            "<td class=\"value\" data-mode=\"\(mode.rawValue)\"><span class=\"swatch\" style=\"background:\(colour.hex)\"></span><code>\(colour.hex)</code></td>"
          let row = try #require(
            table.firstMatch(
              of: try Regex(
                "<tr data-path=\"\(NSRegularExpression.escapedPattern(for: path))\"[^>]*>.*?</tr>"))
          )
          #expect(String(row.output[0].substring ?? "").contains(cell), "\(name) \(mode) \(path)")
        }
        func cell(_ path: String) throws -> String {
          let row = try #require(
            table.firstMatch(
              of: try Regex(
                "<tr data-path=\"\(NSRegularExpression.escapedPattern(for: path))\"[^>]*>.*?</tr>"))
          )
          return String(row.output[0].substring ?? "")
        }
        #expect(
          try cell("bullet-list.space.padding-inline.level-1").contains(
            "data-mode=\"\(mode.rawValue)\"><code>\(Int(theme.paddingInline[level: 1]))px</code>"))
        #expect(
          try cell("typography.body-large.font-size").contains(
            "<code>\(Int(theme.typography.bodyLarge.fontSize))px</code>"))
        #expect(
          try cell("font.family.brand").contains(
            "<code>\(theme.fontFamilies.joined(separator: ", "))</code>"))
      }
      #expect(
        try #require(table.firstMatch(of: /<tr data-path="color.content.default"[^>]*>.*?<\/tr>/))
          .output.contains(
            "<code>brands/\(name == .orangeCompact ? "orange" : name.rawValue)/dark.tokens.json</code>"
          ))
    }
  }

  @Test("the font files really drawn: per theme, the manifest's file of each role, found by Pango")
  func fonts() throws {
    let written = try GalleryFixture.plain.get()
    let html = try String(contentsOf: written.page, encoding: .utf8)
    let library = try ThemeLibrary(directory: Repo.themes)
    let renderer = try BulletListRenderer(themesDirectory: Repo.themes)
    for name in ThemeName.allCases {
      let table = try #require(section(html, id: "tokens-\(name.rawValue)"))
      let typography = try library.theme(name, mode: .light).typography.bodyLarge
      // The iOS set, then Android's own where the manifest states one (Orange, Orange Compact:
      // the gallery has Android variants), its lines named with the platform.
      var expected: [(String, LoadedFont)] = []
      for platform in [Platform.ios, .android] {
        if platform == .android,
          try renderer.fontSetName(for: name, platform: .android) == name.rawValue
        {
          continue
        }
        let files = try renderer.fontSet(for: name, platform: platform).files
        func file(_ roles: [String]) throws -> LoadedFont {
          try #require(files.first { roles.contains($0.role) }, "\(name) \(roles)")
        }
        let prefix = platform == .ios ? "" : "Android: "
        expected += [
          (
            "\(prefix)Latin, weight \(typography.regularWeight)",
            try file(["latin-regular", "latin-medium"])
          ),
          ("\(prefix)Latin, weight \(typography.strongWeight)", try file(["latin-bold"])),
          ("\(prefix)Arabic, weight \(typography.regularWeight)", try file(["arabic-regular"])),
          ("\(prefix)Arabic, weight \(typography.strongWeight)", try file(["arabic-bold"])),
        ]
      }
      #expect(expected.count == ([.orange, .orangeCompact].contains(name) ? 8 : 4))
      let table2 = try #require(written.gallery.themeTables.first { $0.theme == name })
      #expect(table2.fonts.map(\.text) == expected.map(\.0))
      for ((text, font), use) in zip(expected, table2.fonts) {
        #expect(use.files.map(\.fileName) == [font.fileName], "\(name) \(text)")
        let item = try #require(
          table.firstMatch(of: try Regex("<li data-text=\"\(text)\">.*?</li>")), "\(name) \(text)")
        let line = String(item.output[0].substring ?? "")
        #expect(
          line.contains(
            "<code class=\"font-file\">\(font.fileName)</code> (\(font.family)) in <code>\(font.folder)</code>"
          ), "\(line)")
      }
    }
  }

  @Test("each card names the font families of its own theme and platform")
  func cardFonts() throws {
    let written = try GalleryFixture.plain.get()
    let html = try String(contentsOf: written.page, encoding: .utf8)
    func caption(_ id: String) throws -> String {
      let start = try #require(html.range(of: "id=\"\(id)\""), "\(id)")
      let end = try #require(
        html.range(of: "</figcaption>", range: start.upperBound..<html.endIndex))
      return String(html[start.upperBound..<end.lowerBound])
    }
    let android = try caption("c-arabic-bare__orange-dark-android")
    #expect(
      android.contains("<span class=\"fonts\">Roboto, Noto Naskh Arabic</span>"), "\(android)")
    let ios = try caption("c-arabic-bare__orange-dark")
    #expect(
      ios.contains("<span class=\"fonts\">Liberation Sans, Noto Sans Arabic UI</span>"), "\(ios)")
    let sosh = try caption("c-sample-3__sosh-dark-android")
    #expect(sosh.contains("<span class=\"fonts\">Inter, Noto Sans Arabic UI</span>"), "\(sosh)")
  }

  @Test(
    "headless Chromium: every image of the page loads (naturalWidth > 0)",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func imagesLoad() throws {
    for written in [try GalleryFixture.plain.get(), try GalleryFixture.compared.get()] {
      let probe = try WebPage.driven(
        written.page, name: "images.html",
        script: """
          const images = Array.from(document.images);
          document.body.dataset.natural = images.filter(i => i.naturalWidth > 0).length + '/' + images.length;
          document.body.dataset.broken = images.filter(i => !(i.naturalWidth > 0)).map(i => i.getAttribute('src')).join(' ');
          """)
      let dom = try Browser.dom(WebPage.url(probe))
      let html = try String(contentsOf: written.page, encoding: .utf8)
      let count = html.components(separatedBy: "<img ").count - 1
      #expect(count >= written.gallery.items.count)
      let broken = dom.firstMatch(of: /data-broken="[^"]*"/).map { String($0.output) } ?? ""
      #expect(dom.contains("data-natural=\"\(count)/\(count)\""), "\(broken)")
      #expect(dom.contains(#"data-state="ready""#))
    }
  }

  @Test(
    "headless Chromium: the filters in the URL fragment hide and show exactly the matching cards and tables",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func filters() throws {
    let written = try GalleryFixture.plain.get()
    let sosh = try Browser.dom(WebPage.url(written.page, "theme=sosh&mode=dark"))
    #expect(visibleCards(sosh) == ["sample-3/sosh-dark", "sample-3/sosh-dark-android"])
    #expect(elementText(sosh, id: "shown") == "2 of 8 pictures shown")
    #expect(sosh.contains(#"data-shown="2""#))
    for name in ThemeName.allCases {
      let tag = try #require(
        sosh.firstMatch(
          of: try Regex("<section class=\"theme-tokens\" id=\"tokens-\(name.rawValue)\"[^>]*>")))
      #expect(
        String(tag.output[0].substring ?? "").contains(" hidden") == (name != .sosh), "\(name)")
    }
    for (caseName, hidden) in [("sample-3", false), ("arabic-bare", true), ("hostile-label", true)]
    {
      let tag = try #require(
        sosh.firstMatch(of: try Regex("<section class=\"case\" id=\"case-\(caseName)\"[^>]*>")))
      #expect(String(tag.output[0].substring ?? "").contains(" hidden") == hidden, "\(caseName)")
    }

    let android = try Browser.dom(WebPage.url(written.page, "platform=android"))
    #expect(
      visibleCards(android) == ["sample-3/sosh-dark-android", "arabic-bare/orange-dark-android"])
    let one = try Browser.dom(WebPage.url(written.page, "case=arabic-bare&platform=ios"))
    #expect(visibleCards(one) == ["arabic-bare/orange-dark"])
    let all = try Browser.dom(WebPage.url(written.page))
    #expect(visibleCards(all) == GalleryFixture.allIDs)

    // A person choosing "light" in the mode list: the cards follow and the fragment says so.
    let chosen = try WebPage.driven(
      written.page, name: "choose.html",
      script: """
        const select = document.getElementById('filter-mode');
        select.value = 'light';
        select.dispatchEvent(new Event('change'));
        document.body.dataset.hash = location.hash;
        """)
    let light = try Browser.dom(WebPage.url(chosen))
    #expect(
      visibleCards(light) == [
        "sample-3/orange-light", "sample-3/sosh-light", "hostile-label/wireframe-light",
      ])
    #expect(light.contains(##"data-hash="#mode=light""##))

    // Markup in the fragment matches nothing and stays text.
    let hostile = try Browser.dom(
      WebPage.url(written.page, "theme=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"))
    #expect(visibleCards(hostile).isEmpty)
    #expect(elementText(hostile, id: "shown") == "0 of 8 pictures shown")
    #expect(!hostile.contains("<img src=\"x\"") && !hostile.contains("<img src=x"))
  }

  @Test(
    "compared with other tokens: changed cards show before, after, diff and the moved or recoloured rows"
  )
  func compared() throws {
    let written = try GalleryFixture.compared.get()
    let gallery = written.gallery
    #expect(gallery.tokenLines == (try TokenChangeFixture.review.get().tokenLines))
    let items = Dictionary(
      uniqueKeysWithValues: gallery.items.map { ($0.reference.variant.stem, $0) })
    let orange = try #require(items["orange-light"]?.review)
    let sosh = try #require(items["sosh-light"]?.review)
    let wireframe = try #require(items["wireframe-light"]?.review)
    #expect(wireframe.isUnchanged && !orange.isUnchanged && !sosh.isUnchanged)
    // Orange: every row drawn in the brand colour, and only those, changed colour.
    let branded = orange.afterScene.rows.filter { row in
      row.glyph?.tint == TokenChangeFixture.magenta
    }.map(\.path)
    #expect(!branded.isEmpty)
    #expect(
      orange.rowChanges.map(\.path) == branded
        && orange.rowChanges.allSatisfy { $0.recoloured && !$0.moved })
    // Sosh: every level-1 row moved 12 pt right (level 0 and 2 paddings are their own tokens).
    let level1 = sosh.afterScene.rows.filter { $0.level == 1 }.map(\.path)
    #expect(!level1.isEmpty)
    #expect(sosh.rowChanges.map(\.path) == level1)
    #expect(sosh.rowChanges.allSatisfy { $0.changes.first == "moved 12 pt right" })

    let html = try String(contentsOf: written.page, encoding: .utf8)
    let cards = galleryCards(html)
    #expect(cards["demo-unordered/orange-light"]?.contains(#"data-changed="changed""#) == true)
    #expect(cards["demo-unordered/wireframe-light"]?.contains(#"data-changed="unchanged""#) == true)
    #expect(html.contains(#"<img src="images/demo-unordered/sosh-light.before.png""#))
    #expect(html.contains(#"<img src="images/demo-unordered/sosh-light.diff.png""#))
    #expect(
      !html.contains("wireframe-light.before.png") && !html.contains("wireframe-light.diff.png"))
    #expect(html.contains("<details class=\"unchanged\"><summary>unchanged"))
    for change in sosh.rowChanges {
      #expect(
        html.contains(
          "<li class=\"row-change\" data-path=\"\(change.path)\">\(change.path): moved 12 pt right</li>"
        ))
    }
    let old = try TokenChangeFixture.oldBrandPrimary()
    let table = try #require(section(html, id: "tokens-orange"))
    #expect(
      table.contains(
        "<del><span class=\"swatch\" style=\"background:\(old)\"></span><code>\(old)</code></del> → <span class=\"swatch\" style=\"background:#FF00FF\"></span><code>#FF00FF</code>"
      ))
    // The diff picture on disk is the engine's.
    let diff = try PNGCodec.decode(
      Data(
        contentsOf: written.page.deletingLastPathComponent().appendingPathComponent(
          "images/demo-unordered/sosh-light.diff.png")))
    #expect(diff == sosh.diffImage)
  }

  @Test(
    "headless Chromium: the changes filter shows the unchanged cards alone",
    .enabled(
      if: Chromium.testRuns,
      "chromium is not installed (scripts/test installs it: apt-get install -y chromium)"))
  func changedFilter() throws {
    let written = try GalleryFixture.compared.get()
    let unchanged = try Browser.dom(WebPage.url(written.page, "changed=unchanged"))
    #expect(visibleCards(unchanged) == ["demo-unordered/wireframe-light"])
    let changed = try Browser.dom(WebPage.url(written.page, "changed=changed&theme=sosh"))
    #expect(visibleCards(changed) == ["demo-unordered/sosh-light"])
  }

  @Test(
    "the PDF: the same content on A4 pages, swatches in the tokens' colours, every picture placed")
  func pdf() throws {
    let written = try GalleryFixture.plain.get()
    let renderer = try BulletListRenderer(themesDirectory: Repo.themes)
    let pages = try GalleryDocument.pages(written.gallery, renderer: renderer)
    #expect(pages.count >= 1 + written.gallery.cases.count)
    #expect(
      pages.allSatisfy {
        $0.width == GalleryDocument.pageSize.width && $0.height == GalleryDocument.pageSize.height
      })
    #expect(pages.map(\.pictures.count).reduce(0, +) == written.gallery.items.count)
    let pdf = try renderer.renderPages(pages, format: .pdf)
    #expect(pdf.starts(with: Data("%PDF-".utf8)))
    let text = String(decoding: pdf, as: UTF8.self)
    #expect(text.matches(of: /\/Type \/Page[^s]/).count == pages.count)
    #expect(
      try renderer.renderPages(pages, format: .pdf) == pdf, "the same pages give the same bytes")
    // The document opens with pictures; the token tables follow them.
    #expect(pages.first.map { !$0.pictures.isEmpty } == true, "the first page shows pictures")
    let theme = try ThemeLibrary(directory: Repo.themes).theme(.orange, mode: .light)
    let firstTables = try #require(
      pages.firstIndex {
        $0.panels.contains { $0.fill == theme.colors.contentBrandPrimary && $0.caption == nil }
      })
    let lastPictures = try #require(pages.lastIndex { !$0.pictures.isEmpty })
    #expect(firstTables >= lastPictures, "token tables after the last picture")
    // The swatches are drawn in the tokens' colours.
    let first = pages[firstTables]
    let drawn = try PNGCodec.decode(renderer.renderPages([first], format: .png(scale: 1)))
    let swatches = first.panels.filter {
      $0.fill == theme.colors.contentBrandPrimary && $0.caption == nil
    }
    #expect(!swatches.isEmpty)
    for swatch in swatches {
      let p = drawn.pixel(x: Int(swatch.rect.midX), y: Int(swatch.rect.midY))
      #expect(
        (p.red, p.green, p.blue) == (
          theme.colors.contentBrandPrimary.red, theme.colors.contentBrandPrimary.green,
          theme.colors.contentBrandPrimary.blue
        ))
    }
    // A case page draws its pictures pixel for pixel where the page places them (scale 2).
    let casePage = try #require(pages.first { !$0.pictures.isEmpty })
    let picture = try #require(casePage.pictures.first)
    let page2 = try PNGCodec.decode(renderer.renderPages([casePage], format: .png(scale: 2)))
    let source = try PNGCodec.decode(picture.png)
    #expect(
      picture.rect.width * 2 == Double(source.width), "a 360 pt picture fits the page at its size")
    let x = Int(picture.rect.x * 2) + source.width / 2
    let y = Int(picture.rect.y * 2) + source.height / 2
    #expect(page2.pixel(x: x, y: y) == source.pixel(x: source.width / 2, y: source.height / 2))
  }

  /// The share of a page's height its content takes, from the top of the first block to the
  /// bottom of the last; the page number (the last panel) is left out.
  static func usedShare(_ page: Scene) -> Double {
    let rects = page.panels.dropLast().map(\.rect) + page.pictures.map(\.rect)
    guard let top = rects.map(\.y).min(), let bottom = rects.map({ $0.y + $0.height }).max()
    else { return 0 }
    return (bottom - top) / page.height
  }

  @Test(
    "the PDF: a case that spills over a page by a little shrinks its pictures instead of leaving a nearly empty page"
  )
  func pdfNoNearlyEmptyPage() throws {
    let written = try GalleryFixture.plain.get()
    let renderer = try BulletListRenderer(themesDirectory: Repo.themes)
    let sample = try #require(written.gallery.cases.first { $0.name == "sample-3" })
    // Variants that failed: a line of text each after the pictures, what spills over a full page.
    var failed = try #require(sample.items.first)
    failed.png = nil
    failed.error = "drawing failed"
    var shrunk: [(pictures: Int, failures: Int)] = []
    // Whichever the rows of a page, some count of pictures fills a page and some count of
    // lines after them spills over by a little.
    for pictures in 4...11 {
      for failures in stride(from: 0, through: 12, by: 3) {
        var gallery = written.gallery
        var grown = sample
        grown.items =
          Array(Array(repeating: sample.items, count: 3).joined().prefix(pictures))
          + Array(repeating: failed, count: failures)
        gallery.cases = [grown]
        let pages = try GalleryDocument.pages(gallery, renderer: renderer)
        #expect(pages.map(\.pictures.count).reduce(0, +) == pictures, "every picture placed")
        for (index, page) in pages.enumerated() {
          #expect(
            Self.usedShare(page) >= 0.15,
            "\(pictures) pictures, \(failures) failures, page \(index + 1) of \(pages.count): \(Self.usedShare(page))"
          )
        }
        let widths = pages.flatMap(\.pictures).map(\.rect.width)
        if widths.contains(where: { $0 < 359.9 }) {
          shrunk.append((pictures, failures))
          #expect(widths.allSatisfy { $0 >= 180 - 1e-6 }, "never below half their size")
        }
      }
    }
    #expect(!shrunk.isEmpty, "some count of lines spilled over a little and was shrunk to fit")
    #expect(
      !shrunk.contains { $0.pictures == 4 && $0.failures == 0 },
      "a case that fits its page keeps its pictures' size")
  }

  @Test(
    "the PDF: a long case file is folded to 30 % of a page with the count of lines left out; a very long line is cut with …"
  )
  func pdfFoldsLongSources() throws {
    let written = try GalleryFixture.plain.get()
    let renderer = try BulletListRenderer(themesDirectory: Repo.themes)
    var folded = try #require(written.gallery.cases.first { $0.name == "sample-3" })
    let longLine = String(repeating: "x", count: 100_000)
    folded.source = (["{ \(longLine)"] + (2...200).map { "  line \($0)" }).joined(separator: "\n")
    folded.omittedLines = 5  // what the gallery's own limit already left out
    var gallery = written.gallery
    gallery.cases = [folded]
    let pages = try GalleryDocument.pages(gallery, renderer: renderer)
    let texts = pages.flatMap(\.panels).compactMap(\.caption).map {
      $0.content.spans.map(\.text).joined()
    }
    let source = try #require(texts.first { $0.contains("more lines") })
    let note = try #require(source.firstMatch(of: /… (\d+) more lines$/))
    let kept = source.split(separator: "\n").dropLast()
    #expect(kept.count >= 5, "\(kept.count) lines shown")
    #expect(kept.count + (Int(note.1) ?? 0) == 205, "shown and left out add up to the file")
    #expect(
      kept.first == "{ " + longLine.prefix(PageComposer.foldedLineLength - 2) + "…",
      "the long line is cut at 300 characters")
    #expect(kept.dropFirst().enumerated().allSatisfy { $0.element == "  line \($0.offset + 2)" })
    let panel = try #require(
      pages.flatMap(\.panels).first { $0.caption?.content.spans.first?.text == source })
    #expect(panel.rect.height <= (GalleryDocument.pageSize.height - 2 * 28 - 19) * 0.3 + 1)
  }
}
