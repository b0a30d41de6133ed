import BulletListRenderer
import Graphics
import Primitives
import Scene
import Snapshot
import SnapshotReports
import Themes

/// The gallery as printable pages (A4 landscape): each case on pages of its own (the first under
/// the title and totals), its file's text (folded to ``sourceShare`` of a page) followed by its
/// pictures, then the token tables and fonts of each theme; with an old themes folder, changed pictures as before, after and diff with
/// their row changes, unchanged ones as one line. A case whose last page would be nearly empty
/// has its pictures shrunk (to half at most) until it is not (kept at their size when even half
/// does not help). Every page is numbered `N / M`.
/// Draw them with `BulletListRenderer.renderPages(_:format:platforms:)` as PDF.
public enum GalleryDocument {
  /// A4 landscape, in points.
  public static let pageSize = PageSize.a4.size(landscape: true)
  /// The most of a page's height a case's file takes; the rest of it is folded into a line.
  public static let sourceShare = 0.3
  /// The least of its height a case's last page fills when its pictures can still shrink.
  public static let minimumFill = 0.3
  /// The smallest share of their size a case's pictures are shrunk to.
  static let smallestScale = 0.5

  /// The pages of `gallery`, set with the fonts of `renderer`.
  /// - Throws: `RenderError` when the fonts cannot be loaded or a picture cannot be encoded.
  public static func pages(
    _ gallery: Gallery, renderer: BulletListRenderer, title: String = "OUDS bullet list gallery"
  ) throws(RenderError) -> [Scene] {
    var page = try PageComposer(
      renderer: renderer, width: pageSize.width, pageHeight: pageSize.height, margin: 28,
      numbered: true)
    page.runningTitle = title
    let items = gallery.items
    page.text(title, style: .title)
    page.text(gallery.sharedSources, style: .small)
    page.text("\(items.count) pictures of \(gallery.cases.count) cases", style: .body)
    if let old = gallery.oldThemes {
      page.text(
        "Compared with the tokens of \(gallery.paths.folder(old)): \(items.filter(\.isChanged).count) of \(items.count) pictures changed; "
          + "\(gallery.tokenLines.count) changed token values.",
        style: .body)
    }
    for broken in gallery.brokenCases {
      page.text("\(broken.file): \(broken.message)", style: .small)
    }
    for (index, galleryCase) in gallery.cases.enumerated() {
      // The pictures open the document: the first case goes under the title and totals.
      let startsPage = index > 0 || page.filled >= minimumFill
      try page.fitting(smallest: smallestScale) { before, after in
        after.pageCount - before.pageCount <= 1 || after.filled >= minimumFill
      } _: { page, scale throws(RenderError) in
        try casePages(galleryCase, scale: scale, startsPage: startsPage, on: &page)
      }
    }
    // The token tables follow the pictures.
    page.space(12)
    let columns = [0, page.contentWidth * 0.34, page.contentWidth * 0.53, page.contentWidth * 0.72]
    for table in gallery.themeTables {
      page.space(12)
      page.text("\(table.theme.displayName): tokens and fonts", style: .heading)
      for error in table.errors { page.text(error, style: .small) }
      page.row(
        [
          PageCell("token", bold: true), PageCell("light", bold: true),
          PageCell("dark", bold: true), PageCell("file", bold: true),
        ],
        columns: columns)
      for row in table.rows {
        var cells = [PageCell(row.path)]
        for mode in ColorMode.allCases {
          cells.append(
            cell(row.values[mode], old: gallery.oldThemes == nil ? nil : .some(row.oldValues[mode]))
          )
        }
        cells.append(
          PageCell(
            Set(ColorMode.allCases.compactMap { row.values[$0]?.file }).sorted().joined(
              separator: ", ")))
        page.row(cells, columns: columns)
      }
      page.space(4)
      for use in table.fonts {
        let files = use.files.map { "\($0.fileName) in \(gallery.paths.folder($0.folder))" }.joined(
          separator: ", ")
        page.text("\(use.text): \(files.isEmpty ? "none" : files)", style: .small)
      }
      if gallery.oldThemes != nil {
        page.text(table.changes.isEmpty ? "No token changed." : "Changed tokens:", style: .small)
        for change in table.changes { page.text(change.line, style: .small, indent: 12) }
      }
    }
    return page.pages()
  }

  /// One case from the top of a page (or, without `startsPage`, under what is on it): its name,
  /// its file (folded), its pictures at `scale`.
  private static func casePages(
    _ galleryCase: Gallery.Case, scale: Double, startsPage: Bool, on page: inout PageComposer
  )
    throws(RenderError)
  {
    if startsPage { page.pageBreak() } else { page.space(24) }
    // the pages this case continues on say which case they show
    page.runningTitle = "\(galleryCase.name) (\(galleryCase.file))"
    page.text("\(galleryCase.name) (\(galleryCase.file))", style: .heading)
    page.foldedText(
      galleryCase.source, style: .code, maxHeight: page.pageRoom * sourceShare,
      alsoOmitted: galleryCase.omittedLines)
    page.space(8)
    var pictures: [PagePicture] = []
    func flush() {
      if !pictures.isEmpty { page.pictures(pictures, scale: scale) }
      pictures = []
    }
    for item in galleryCase.items {
      let variant = item.reference.variant
      let caption =
        "\(variant.theme.displayName) · \(variant.mode.rawValue) · \(variant.options.platform.displayName) (\(variant.stem))"
      if let error = item.error {
        flush()
        page.text("\(caption): \(error)", style: .small)
        continue
      }
      guard let png = item.png, let size = item.size else { continue }
      if let review = item.review {
        if review.isUnchanged {
          flush()
          page.text("\(caption): unchanged", style: .small)
          continue
        }
        flush()
        page.text(caption, style: .body)
        page.pictures(try TokenReviewSheet.figures(review), gap: 12, scale: scale)
        for line in review.summary + review.rowChanges.map(\.description) {
          page.text(line, style: .small)
        }
        continue
      }
      pictures.append(
        PagePicture(
          png: png, pixelWidth: size.width, pixelHeight: size.height, scale: Gallery.scale,
          caption: caption))
    }
    flush()
  }

  /// A token's value for a table cell (a colour with its swatch); with `old` (compared), `old → new`
  /// when they differ.
  static func cell(_ token: ResolvedToken?, old: ResolvedToken??) -> PageCell {
    let text = token.map { MessageText.line($0.value.displayText) } ?? "(none)"
    var swatch: RGBAColor?
    if case .color(let color)? = token?.value { swatch = color }
    if let old, old?.value != token?.value {
      let was = old.map { MessageText.line($0.value.displayText) } ?? "(none)"
      return PageCell("\(was) → \(text)", swatch: swatch, bold: true)
    }
    return PageCell(text, swatch: swatch)
  }
}
