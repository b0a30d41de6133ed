import BulletList
import BulletListRenderer
import Foundation
import Graphics
import PNG
import Primitives
import Scene
import Snapshot
import TestSupport
import Testing
import Themes
import Workbench

/// A token change to review: a copy of the repository's themes with one colour and one padding
/// edited, and a list that draws both.
///
/// - `color.content.brand-primary` of `brands/orange/light.tokens.json` becomes `#FF00FF`; that file
///   is the light file of Orange and of Orange Compact, and the list's level-0 bullets are branded.
/// - `bullet-list.space.padding-inline.level-1` becomes 48 px in `brands/sosh/brand.tokens.json`
///   (Sosh, both modes; 36 px from the core set before); the list has two level-1 rows.
/// Nothing aliases either token, so no other token changes. Orange dark, Orange Compact dark and
/// Wireframe light and dark are untouched.
enum TokenChangeFixture {
  static let listJSON = """
    {
      "type": { "unordered": { "asset": "bullet", "branded": true } },
      "items": [
        { "label": "First item" },
        { "label": "Second item", "subListType": { "unordered": { "asset": "tick", "branded": false } },
          "items": [ { "label": "Sub one" }, { "label": "Sub two" } ] },
        { "label": "Third item" }
      ]
    }
    """
  static let magenta = RGBAColor(red: 255, green: 0, blue: 255)

  struct Fixture {
    var edited: URL
    var list: OUDSBulletList
    var listFile: URL
  }

  static let fixture: Result<Fixture, any Error> = Result {
    let edited = try copyOfThemes()
    try edit(
      edited.appendingPathComponent("brands/orange/light.tokens.json"),
      replacing: "\"brand-primary\": {\n        \"$value\": \"{color.raw.orange.orange-550}\"",
      with:
        "\"brand-primary\": {\n        \"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, 0, 1], \"hex\": \"#ff00ff\"}"
    )
    let description =
      "\"$description\": \"Sosh: brand raw palette, font family and semantic typography, spacing and sizes (mode-independent).\","
    try edit(
      edited.appendingPathComponent("brands/sosh/brand.tokens.json"), replacing: description,
      with: description
        + "\n  \"bullet-list\": { \"space\": { \"padding-inline\": { \"level-1\": { \"$type\": \"dimension\", \"$value\": {\"value\": 48, \"unit\": \"px\"} } } } },"
    )
    let folder = try temporaryFolder("token-review")
    let listFile = folder.appendingPathComponent("list.json")
    try Data(listJSON.utf8).write(to: listFile)
    let list = try BulletListRenderer.markdownListReader().read(file: listFile.path).list
    return Fixture(edited: edited, list: list, listFile: listFile)
  }

  /// The review of the fixture's list: every theme and mode, iOS, scale 2.
  static let review: Result<TokenReview, any Error> = Result {
    let made = try fixture.get()
    let before = try BulletListRenderer(themesDirectory: Repo.themes)
    let after = try BulletListRenderer(themesDirectory: made.edited)
    return try TokenReview.compare(made.list, before: before, after: after, platforms: [.ios])
  }

  /// The repository's value of `color.content.brand-primary` in Orange light, as the table shows it.
  static func oldBrandPrimary() throws -> String {
    try ThemeLibrary(directory: Repo.themes).theme(.orange, mode: .light).colors.contentBrandPrimary
      .hex
  }
}

/// The rectangle of `rect` (points) in the pixels of a picture at `scale`, grown by `margin` pixels
/// for anti-aliasing.
func pixelBox(_ rect: Rect, scale: Int, margin: Int = 1) -> (x: Range<Int>, y: Range<Int>) {
  let s = Double(scale)
  return (
    Int((rect.x * s).rounded(.down)) - margin..<Int((rect.maxX * s).rounded(.up)) + margin,
    Int((rect.y * s).rounded(.down)) - margin..<Int((rect.maxY * s).rounded(.up)) + margin
  )
}

/// The pixels the diff engine painted red (changed) in a diff picture.
func redPixels(_ image: RasterImage) -> [(x: Int, y: Int)] {
  var pixels: [(Int, Int)] = []
  for y in 0..<image.height {
    for x in 0..<image.width where image.pixel(x: x, y: y) == (255, 0, 0, 255) {
      pixels.append((x, y))
    }
  }
  return pixels
}

@Suite(
  "Before/after review of a token change: changed tokens, moved and recoloured rows, diff pictures")
struct TokenReviewTests {
  @Test("exactly the edited tokens are listed, per theme and mode, with old and new value and file")
  func changedTokens() throws {
    let review = try TokenChangeFixture.review.get()
    let old = try TokenChangeFixture.oldBrandPrimary()
    #expect(old != "#FF00FF")
    #expect(
      review.tokenLines == [
        "orange/light color.content.brand-primary: \(old) → #FF00FF (brands/orange/light.tokens.json)",
        "orange-compact/light color.content.brand-primary: \(old) → #FF00FF (brands/orange/light.tokens.json)",
        "sosh/light bullet-list.space.padding-inline.level-1: 36px → 48px (brands/sosh/brand.tokens.json)",
        "sosh/dark bullet-list.space.padding-inline.level-1: 36px → 48px (brands/sosh/brand.tokens.json)",
      ])
    let change = try #require(
      review.combinations.first { $0.theme == .sosh && $0.mode == .dark }?.tokenChanges.first)
    #expect(
      change.old?.file == "components/bullet-list.tokens.json"
        && change.new?.file == "brands/sosh/brand.tokens.json")
    #expect(
      change.old?.value == .dimension(value: 36, unit: "px")
        && change.new?.value == .dimension(value: 48, unit: "px"))
  }

  @Test(
    "the rows that moved and those that changed colour are named; unchanged combinations are marked so"
  )
  func rows() throws {
    let review = try TokenChangeFixture.review.get()
    let old = try TokenChangeFixture.oldBrandPrimary()
    func picture(_ theme: ThemeName, _ mode: ColorMode) throws -> ReviewedPicture {
      try #require(
        review.combinations.first { $0.theme == theme && $0.mode == mode }?.pictures.first)
    }
    for theme in [ThemeName.orange, .orangeCompact] {
      let changes = try picture(theme, .light).rowChanges
      #expect(
        changes.map(\.path) == ["items[0]", "items[1]", "items[2]"],
        "\(theme): the branded level-0 bullets")
      #expect(
        changes.allSatisfy {
          $0.recoloured && !$0.moved && $0.changes == ["marker colour \(old) → #FF00FF"]
        })
    }
    for mode in ColorMode.allCases {
      let changes = try picture(.sosh, mode).rowChanges
      #expect(
        changes.map(\.description) == [
          "items[1].items[0]: moved 12 pt right", "items[1].items[1]: moved 12 pt right",
        ])
      #expect(changes.allSatisfy { $0.moved && !$0.recoloured && !$0.resized })
    }
    let unchanged = review.combinations.filter(\.isUnchanged).map {
      "\($0.theme.rawValue)-\($0.mode.rawValue)"
    }
    #expect(
      unchanged == ["orange-dark", "orange-compact-dark", "wireframe-light", "wireframe-dark"])
    #expect(review.changed.count == 4)
    for combination in review.combinations where combination.isUnchanged {
      #expect(combination.pictures.allSatisfy { $0.diff == .identical && $0.diffImage == nil })
    }
  }

  @Test(
    "the diff picture has changed pixels in the recoloured bullets and the moved rows, and nowhere else"
  )
  func diffPictures() throws {
    let review = try TokenChangeFixture.review.get()
    func picture(_ theme: ThemeName, _ mode: ColorMode) throws -> ReviewedPicture {
      try #require(
        review.combinations.first { $0.theme == theme && $0.mode == mode }?.pictures.first)
    }
    // Orange light: only the three bullet squares, each of them.
    let orange = try picture(.orange, .light)
    let diff = try #require(orange.diffImage)
    #expect(diff.width == orange.before.width && diff.height == orange.before.height)
    let red = redPixels(diff)
    let bullets = orange.afterScene.rows.filter { $0.level == 0 }.compactMap(\.icon).map {
      pixelBox($0, scale: orange.scale)
    }
    #expect(bullets.count == 3)
    #expect(!red.isEmpty && red.count == orange.diff.changedPixels)
    #expect(
      red.allSatisfy { p in bullets.contains { $0.x.contains(p.x) && $0.y.contains(p.y) } },
      "changed pixels outside the bullets")
    for box in bullets {
      #expect(
        red.contains { box.x.contains($0.x) && box.y.contains($0.y) },
        "a bullet without changed pixels")
    }
    // The new colour is drawn where the old one was.
    if let box = bullets.first {
      let centre = orange.after.pixel(
        x: (box.x.lowerBound + box.x.upperBound) / 2, y: (box.y.lowerBound + box.y.upperBound) / 2)
      #expect((centre.red, centre.green, centre.blue) == (255, 0, 255))
    }

    // Sosh light: only the two level-1 rows, before and after their move; the level-0 rows untouched.
    let sosh = try picture(.sosh, .light)
    let soshDiff = try #require(sosh.diffImage)
    let soshRed = redPixels(soshDiff)
    func rowBox(_ row: SceneRow) -> Rect {
      let left = min(row.marker.rect.x, row.label.x)
      let top = min(row.marker.rect.y, row.label.y)
      return Rect(
        x: left, y: top, width: max(row.marker.rect.maxX, row.label.maxX) - left,
        height: max(row.marker.rect.maxY, row.label.maxY) - top)
    }
    let moved = (sosh.beforeScene.rows + sosh.afterScene.rows).filter { $0.level == 1 }.map {
      pixelBox(rowBox($0), scale: sosh.scale)
    }
    #expect(moved.count == 4)
    #expect(!soshRed.isEmpty)
    #expect(
      soshRed.allSatisfy { p in moved.contains { $0.x.contains(p.x) && $0.y.contains(p.y) } },
      "changed pixels outside the moved rows")
    for row in sosh.afterScene.rows where row.level == 0 {
      let box = pixelBox(rowBox(row), scale: sosh.scale, margin: 0)
      #expect(
        !soshRed.contains { box.x.contains($0.x) && box.y.contains($0.y) },
        "\(row.path) did not move")
    }
  }

  @Test("the review sheet: three pictures per changed combination, one line per unchanged one")
  func sheet() throws {
    let fixture = try TokenChangeFixture.fixture.get()
    let review = try TokenChangeFixture.review.get()
    let renderer = try BulletListRenderer(themesDirectory: fixture.edited)
    let pages = try TokenReviewSheet.pages(review, listName: "list.json", renderer: renderer)
    #expect(pages.count == 1)
    let page = try #require(pages.first)
    #expect(page.pictures.count == 4 * 3)
    let texts = page.panels.compactMap { $0.caption?.content.plainText }
    for line in ["Orange · dark", "Orange Compact · dark", "Wireframe · light", "Wireframe · dark"]
    {
      #expect(texts.contains("\(line): unchanged (no token, row or pixel differs)"), "\(line)")
    }
    for title in ["Orange · light", "Orange Compact · light", "Sosh · light", "Sosh · dark"] {
      #expect(texts.contains(title), "\(title)")
    }
    #expect(texts.contains("items[1].items[0]: moved 12 pt right"))
    // The themes folders as seen from the current folder: relative inside it, else absolute.
    let fromRoot = try TokenReviewSheet.pages(
      review, listName: "list.json", renderer: renderer,
      paths: SharedPaths(currentDirectory: Repo.root)
    ).flatMap { $0.panels.compactMap { $0.caption?.content.plainText } }
    #expect(fromRoot.contains("before: Themes"))
    #expect(fromRoot.contains("after: \(fixture.edited.standardizedFileURL.path) (--themes)"))
    let fromEdited = try TokenReviewSheet.pages(
      review, listName: "list.json", renderer: renderer,
      paths: SharedPaths(currentDirectory: fixture.edited.deletingLastPathComponent())
    ).flatMap { $0.panels.compactMap { $0.caption?.content.plainText } }
    #expect(fromEdited.contains("after: Themes (--themes)"))
    #expect(fromEdited.contains("before: \(Repo.themes.standardizedFileURL.path)"))
    // The diff picture is the engine's, pixel for pixel, where the sheet places it.
    let image = try renderer.renderPages(pages, format: .png(scale: 2))
    let drawn = try PNGCodec.decode(image)
    let orange = try #require(
      review.combinations.first { $0.theme == .orange && $0.mode == .light }?.pictures.first)
    let diff = try #require(orange.diffImage)
    let placed = page.pictures[2]
    let origin = (x: Int((placed.rect.x * 2).rounded()), y: Int((placed.rect.y * 2).rounded()))
    var mismatches = 0
    for y in stride(from: 0, to: diff.height, by: 3) {
      for x in stride(from: 0, to: diff.width, by: 3)
      where drawn.pixel(x: origin.x + x, y: origin.y + y) != diff.pixel(x: x, y: y) {
        mismatches += 1
      }
    }
    #expect(
      mismatches == 0,
      "the sheet's diff picture differs from the engine's in \(mismatches) sampled pixels")
  }

  @Test(
    "the paged review: the cover carries the summary and the first changed combination, and no page is mostly empty but the last"
  )
  func pagedCover() throws {
    let fixture = try TokenChangeFixture.fixture.get()
    let review = try TokenChangeFixture.review.get()
    let renderer = try BulletListRenderer(themesDirectory: fixture.edited)
    let pages = try TokenReviewSheet.pages(
      review, listName: "list.json", renderer: renderer, pageSize: .standard)
    let changed = review.changed
    #expect(changed.count == 4)
    // The cover: the summary lines and the first changed combination's pictures.
    let cover = try #require(pages.first)
    let texts = cover.panels.compactMap { $0.caption?.content.plainText }
    #expect(texts.contains { $0.hasPrefix("4 of 8 theme and mode combinations changed") })
    #expect(texts.contains("Token review: list.json — \(changed[0].title)"), "\(texts)")
    #expect(cover.pictures.count == 3, "before, after and diff of the first change")
    // One page per further change, never more.
    #expect(pages.count == changed.count)
    // Each page but the last is at least 30 % used (from the top margin to its lowest block).
    for (index, page) in pages.enumerated().dropLast() {
      let bottom = (page.panels.dropLast().map(\.rect.maxY) + page.pictures.map(\.rect.maxY)).max()
      let used = ((bottom ?? 0) - 28) / (page.height - 56)
      #expect(used >= 0.3, "page \(index + 1): \(used)")
    }
  }
}
