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
/// a combination in which nothing differs is one line.
public enum TokenReviewSheet {
  /// The space between pictures, in points.
  static let gap = 16.0

  /// Lays the review out on one page (`pageHeight` nil) or on pages of that height.
  /// - Parameters:
  ///   - listName: the list's file name, for the title.
  ///   - renderer: the renderer of the current themes, whose fonts set the text.
  ///   - paths: how the themes folders are named (relative to the current folder by default).
  /// - Throws: `RenderError` when the fonts cannot be loaded or a picture cannot be encoded.
  public static func pages(
    _ review: TokenReview, listName: String, renderer: BulletListRenderer,
    pageHeight: Double? = nil,
    paths: SharedPaths = SharedPaths()
  ) throws(RenderError) -> [Scene] {
    let widest =
      review.combinations.flatMap(\.pictures).map { picture in
        Double(max(picture.before.width, picture.after.width)) / Double(picture.scale)
      }.max() ?? 360
    let margin = 24.0
    var page = try PageComposer(
      renderer: renderer, width: (2 * margin + 3 * widest + 2 * gap).rounded(.up),
      pageHeight: pageHeight,
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
