import BulletListRenderer
import Graphics
import PNG
import Primitives
import Scene
import Snapshot
import SnapshotReports
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The picture `sheet --compare-themes` draws: for each theme and mode, the changed tokens, then
/// per platform before, after and diff side by side with the rows that moved or changed colour;
/// a combination in which nothing differs is one line. As a document (a PDF), each changed
/// combination has a page of its own and the unchanged ones share the first.
public enum TokenReviewSheet {
  /// The space between pictures, in points.
  static let gap = 16.0

  /// The legend of the diff pictures.
  static let diffLegend =
    "diff: unchanged pixels ghosted in grey, changed ones in colour (the count in its caption)"

  /// Lays the review out on one page as tall as its content (`pageSize` nil: a PNG or SVG), or
  /// as a document on pages of `pageSize`, landscape.
  ///
  /// The document's first page has the title, both folders, the counts and a line per
  /// combination, and under them the first changed combination when it fits there (shrunk to half
  /// at most); then each further changed theme and mode starts a page titled with it, the legend, its
  /// changed tokens and, per platform, before, after and diff side by side, shrunk (to half at
  /// most) so that the combination fits one page; one that does not fit even so keeps its
  /// pictures' size and goes on over the next pages, never cut.
  /// Every page is numbered `N / M`.
  /// - Parameters:
  ///   - review: the token review to print.
  ///   - listName: the list's file name, for the title.
  ///   - renderer: the renderer of the current themes, whose fonts set the text.
  ///   - pageSize: the paper; nil takes the default page size.
  ///   - paths: how the themes folders are named (relative to the current folder by default).
  /// - Throws: `RenderError` when the fonts cannot be loaded or a picture cannot be encoded.
  public static func pages(
    _ review: TokenReview, listName: String, renderer: BulletListRenderer,
    pageSize: PageSize? = nil,
    paths: SharedPaths = SharedPaths()
  ) throws(RenderError) -> [Scene] {
    if let pageSize {
      return try document(
        review, listName: listName, renderer: renderer, pageSize: pageSize, paths: paths)
    }
    let widest =
      review.combinations.flatMap(\.pictures).map { picture in
        Double(max(picture.before.width, picture.after.width)) / Double(picture.scale)
      }.max() ?? 360
    let margin = 24.0
    var page = try PageComposer(
      renderer: renderer, width: (2 * margin + 3 * widest + 2 * gap).rounded(.up),
      margin: margin)
    let changed = review.changed.count
    let tokens = review.tokenLines.count
    page.text("Token review: \(listName)", style: .title)
    page.text("before: \(paths.folder(review.oldThemes.directory))", style: .small)
    page.text("after: \(paths.themes(review.newThemes))", style: .small)
    page.text(
      "\(changed) of \(review.combinations.count) theme and mode combination\(review.combinations.count == 1 ? "" : "s") changed; "
        + "\(tokens) changed token value\(tokens == 1 ? "" : "s")",
      style: .body)
    page.space(8)
    let columns = tokenColumns(width: page.contentWidth)
    for combination in review.combinations {
      if combination.isUnchanged {
        page.text(
          "\(combination.title): unchanged (no token, row or pixel differs)", style: .small,
          color: muted)
        continue
      }
      page.space(10)
      page.text(combination.title, style: .heading)
      tokenTable(combination, columns: columns, on: &page)
      for picture in combination.pictures {
        page.space(6)
        if combination.pictures.count > 1 || picture.platform != .ios {
          page.text(picture.platform.displayName, style: .body, color: nil)
        }
        if picture.isUnchanged {
          page.text("Pictures identical and no row moved or changed colour.", style: .small)
          continue
        }
        page.pictures(try figures(picture), gap: gap)
        for line in picture.summary { page.text(line, style: .small) }
        for change in picture.rowChanges { page.text(change.description, style: .small) }
      }
    }
    return page.pages()
  }

  /// The review as a document: see ``pages(_:listName:renderer:pageSize:paths:)``.
  static func document(
    _ review: TokenReview, listName: String, renderer: BulletListRenderer, pageSize: PageSize,
    paths: SharedPaths
  ) throws(RenderError) -> [Scene] {
    let size = pageSize.size(landscape: true)
    var page = try PageComposer(
      renderer: renderer, width: size.width, pageHeight: size.height, margin: 28, numbered: true)
    page.runningTitle = "Token review: \(listName)"
    let changed = review.changed
    let tokens = review.tokenLines.count
    let folders =
      "before: \(paths.folder(review.oldThemes.directory)) · after: \(paths.themes(review.newThemes))"
    page.text("Token review: \(listName)", style: .title)
    page.text(folders, style: .small)
    page.text(
      "\(changed.count) of \(review.combinations.count) theme and mode combination\(review.combinations.count == 1 ? "" : "s") changed; "
        + "\(tokens) changed token value\(tokens == 1 ? "" : "s")",
      style: .body)
    page.space(8)
    for combination in review.combinations {
      let line =
        combination.isUnchanged
        ? "\(combination.title): unchanged (no token, row or pixel differs)"
        : "\(combination.title): changed (shown below)"
      page.text(line, style: .small, color: combination.isUnchanged ? muted : nil)
    }
    let columns = tokenColumns(width: page.contentWidth)
    // A combination's page names the fonts of its own theme and of the platforms it shows.
    var legends: [String] = []
    for combination in changed {
      var platforms: [Platform] = []
      for picture in combination.pictures where !platforms.contains(picture.platform) {
        platforms.append(picture.platform)
      }
      let fonts = try renderer.fontLegend(
        for: [combination.theme], platforms: platforms.isEmpty ? [.ios] : platforms)
      legends.append(folders + " · Fonts: " + fonts.map(\.description).joined(separator: " · "))
    }
    for (index, (combination, legend)) in zip(changed, legends).enumerated() {
      // The cover carries the summary and, when it fits in the rest of it at a picture scale
      // of 1 down to 0.5, the first changed combination: no cover page mostly empty.
      if index == 0 {
        var cover = page
        var fitted = false
        try cover.fitting(smallest: 0.5) { before, after in
          fitted = after.pageCount == before.pageCount
          return fitted
        } _: { page, scale throws(RenderError) in
          page.space(12)
          try combinationPage(
            combination, of: review, listName: listName, legend: legend, scale: scale,
            columns: columns, startsPage: false, on: &page)
        }
        if fitted {
          page = cover
          continue
        }
      }
      // The largest picture scale (1 down to 0.5) at which the combination fits one page.
      try page.fitting(smallest: 0.5) { before, after in
        after.pageCount <= before.pageCount + 1
      } _: { page, scale throws(RenderError) in
        try combinationPage(
          combination, of: review, listName: listName, legend: legend, scale: scale,
          columns: columns, startsPage: true, on: &page)
      }
    }
    return page.pages()
  }

  /// The combination's changed tokens as a table (before, after, file), or a line saying none
  /// changed.
  private static func tokenTable(
    _ combination: ReviewedCombination, columns: [Double], on page: inout PageComposer
  ) {
    if combination.tokenChanges.isEmpty {
      page.text("No token of this theme and mode changed.", style: .small)
    } else {
      page.row(
        [
          PageCell("changed token", bold: true), PageCell("before", bold: true),
          PageCell("after", bold: true), PageCell("file", bold: true),
        ],
        columns: columns)
      for change in combination.tokenChanges {
        page.row(cells(change), columns: columns)
      }
    }
  }

  /// One changed combination, its pictures at `scale`: from the top of a page with `startsPage`,
  /// else under what is on the page (the cover).
  private static func combinationPage(
    _ combination: ReviewedCombination, of review: TokenReview, listName: String, legend: String,
    scale: Double, columns: [Double], startsPage: Bool, on page: inout PageComposer
  ) throws(RenderError) {
    if startsPage { page.pageBreak() }
    page.runningTitle = "Token review: \(listName) — \(combination.title)"
    page.text("Token review: \(listName) — \(combination.title)", style: .heading)
    page.text(legend + " · " + diffLegend, style: .small, color: muted)
    page.space(6)
    tokenTable(combination, columns: columns, on: &page)
    for picture in combination.pictures {
      page.space(6)
      if combination.pictures.count > 1 || picture.platform != .ios {
        page.text(picture.platform.displayName, style: .body, color: nil)
      }
      if picture.isUnchanged {
        page.text("Pictures identical and no row moved or changed colour.", style: .small)
        continue
      }
      let figures = try figures(picture)
      // Before, after and diff on one line: shrunk together when wider than the page.
      let width = figures.map { Double($0.pixelWidth) / Double($0.scale) }.reduce(0, +)
      let fit = (page.contentWidth - Double(figures.count - 1) * gap - 1) / max(width, 1)
      page.pictures(figures, gap: gap, scale: min(scale, fit))
      for line in picture.summary { page.text(line, style: .small) }
      for change in picture.rowChanges { page.text(change.description, style: .small) }
    }
  }

  /// The before, after and diff pictures of one comparison, captioned.
  static func figures(_ picture: ReviewedPicture) throws(RenderError) -> [PagePicture] {
    var figures: [PagePicture] = []
    func add(_ image: RasterImage, _ caption: String) throws(RenderError) {
      let png: Data
      do {
        png = try PNGCodec.encode(image)
      } catch {
        throw .graphics(.png(error), nil)
      }
      figures.append(
        PagePicture(
          png: png, pixelWidth: image.width, pixelHeight: image.height, scale: picture.scale,
          caption: caption))
    }
    try add(picture.before, "before")
    try add(picture.after, "after")
    if let diff = picture.diffImage {
      try add(
        diff,
        "diff: \(picture.diff.changedPixels) changed pixel\(picture.diff.changedPixels == 1 ? "" : "s")"
      )
    }
    return figures
  }

  /// The cells of one changed token: path, old value, new value (colours with a swatch), file.
  static func cells(_ change: TokenChange) -> [PageCell] {
    func value(_ token: ResolvedToken?, _ text: String) -> PageCell {
      if case .color(let color)? = token?.value { return PageCell(text, swatch: color) }
      return PageCell(text)
    }
    return [
      PageCell(change.path), value(change.old, change.oldText), value(change.new, change.newText),
      PageCell(change.file),
    ]
  }

  /// Where the columns of the changed-token table start: path, before, after, file.
  static func tokenColumns(width: Double) -> [Double] {
    [0, width * 0.36, width * 0.54, width * 0.72]
  }

  /// The colour of the lines that say a combination is unchanged.
  static let muted = RGBAColor(red: 0x55, green: 0x55, blue: 0x55)
}
