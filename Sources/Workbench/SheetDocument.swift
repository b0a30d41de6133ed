import BulletList
import BulletListRenderer
import Graphics
import Layout
import Primitives
import Scene
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A rendering sheet as a printable document (`sheet -o sheet.pdf`): one page per theme × mode,
/// each with a title, the sheet's legend (themes folder, fonts), the cells of that theme and mode
/// scaled to fit the page (vector, never rasterised) and the page number.
public struct SheetDocument: Sendable {
  /// The pages, in the sheet's order: themes, then modes.
  public var pages: [Scene]
  /// The layout warnings of every cell, each once.
  public var warnings: [String]
  /// With `audit`, the audit of each cell (themes, then modes, then the columns of a mode).
  public var audits: [AccessibilityAudit]
  /// Whether the pages are landscape.
  public var landscape: Bool

  /// The margin round a page's content, in points.
  static let margin = 28.0
  /// A cell is shrunk to fit the page's height down to this share of the scale that fits its
  /// width; a taller one is cut between its rows onto several pages instead.
  public static let shrinkLimit = 0.6

  /// One page's content: what it shows of which combination.
  struct Part {
    var theme: ThemeName
    var mode: ColorMode
    var scene: Scene
    var source: Rect
    var scale: Double
    var part: Int
    var parts: Int
  }

  /// The title of a theme × mode's pages: `list.json · iOS — Orange · light`, with the text
  /// sizes shown when there are several.
  static func title(
    _ heading: SheetHeading, theme: ThemeName, mode: ColorMode, textSizes: SheetTextSizes
  ) -> String {
    var title = "\(heading.title) — \(theme.displayName) · \(mode.rawValue)"
    if let scales = textSizes.fontScales, scales.count > 1 {
      title += " · font scales " + scales.map { FontScale.text($0) }.joined(separator: ", ")
    }
    if let sizes = textSizes.contentSizes, sizes.count > 1 {
      title += " · content sizes " + sizes.map(\.rawValue).joined(separator: ", ")
    }
    return title
  }

  /// Where a cell may be cut between pages: between rows (in every column at once), never
  /// through a row's label, marker or a caption.
  static func cuts(in scene: Scene) -> [Double] {
    var spans: [(top: Double, bottom: Double)] = []
    for row in scene.rows {
      var top = min(row.label.y, row.marker.rect.y)
      var bottom = max(row.label.y + row.label.height, row.marker.rect.y + row.marker.rect.height)
      if let icon = row.icon {
        top = min(top, icon.y)
        bottom = max(bottom, icon.y + icon.height)
      }
      spans.append((top, bottom))
    }
    for panel in scene.panels {
      if panel.fill == nil {
        spans.append((panel.rect.y, panel.rect.y + panel.rect.height))
      } else if let caption = panel.caption {
        let top = caption.origin.y
        spans.append((top, top + caption.content.appearance.lineHeight))
      }
    }
    spans.sort { $0.top < $1.top }
    var cuts: [Double] = []
    var bottom = -Double.infinity
    for span in spans {
      if span.top >= bottom, bottom.isFinite { cuts.append((bottom + span.top) / 2) }
      bottom = max(bottom, span.bottom)
    }
    return cuts.filter { $0 > 0 && $0 < scene.height }
  }

  /// For each of `slices` (top to bottom, one after the other), `scene` with only the rows and
  /// panels that reach into it: what the page showing that part draws, so that a long list's
  /// pages do not each hold every row clipped away (each row is placed by a binary search).
  static func parts(of scene: Scene, slices: [Rect]) -> [Scene] {
    var rows = Array(repeating: [SceneRow](), count: slices.count)
    var panels = Array(repeating: [ScenePanel](), count: slices.count)
    /// The indices of the slices that `top..<bottom` reaches.
    func reached(_ top: Double, _ bottom: Double) -> Range<Int> {
      var low = 0
      var high = slices.count
      while low < high {
        let middle = (low + high) / 2
        if slices[middle].y + slices[middle].height <= top {
          low = middle + 1
        } else {
          high = middle
        }
      }
      var end = low
      while end < slices.count, slices[end].y < bottom { end += 1 }
      return low..<max(low, end)
    }
    for row in scene.rows {
      var top = min(row.label.y, row.marker.rect.y)
      var bottom = max(row.label.y + row.label.height, row.marker.rect.y + row.marker.rect.height)
      if let icon = row.icon {
        top = min(top, icon.y)
        bottom = max(bottom, icon.y + icon.height)
      }
      for index in reached(top, bottom) { rows[index].append(row) }
    }
    for panel in scene.panels {
      for index in reached(panel.rect.y, panel.rect.y + panel.rect.height) {
        panels[index].append(panel)
      }
    }
    return slices.indices.map { index in
      var part = scene
      part.rows = rows[index]
      part.panels = panels[index]
      return part
    }
  }

  /// The parts of `scene` a page each, `height` points of it at most: cut at the last ``cuts(in:)``
  /// that fits, else (a row taller than a page) where the page ends.
  static func slices(of scene: Scene, height: Double) -> [Rect] {
    let cuts = cuts(in: scene)
    var slices: [Rect] = []
    var top = 0.0
    while top < scene.height - 1e-6 {
      var bottom = scene.height
      if bottom - top > height {
        bottom = cuts.last { $0 > top + 1e-6 && $0 <= top + height } ?? (top + height)
      }
      slices.append(Rect(x: 0, y: top, width: scene.width, height: bottom - top))
      top = bottom
    }
    return slices
  }
}

extension BulletListRenderer {
  /// The sheet of `list` (see ``sheetLayout(_:themes:modes:platforms:options:textSizes:style:heading:audit:)``)
  /// on pages of `pageSize`: one per theme × mode, its cells (every platform and text size of
  /// that mode) scaled to fit (never enlarged), under a title naming the list, theme, mode and
  /// platforms, and the heading's lines as legend; each page numbered `N / M`.
  ///
  /// An A4 document is landscape when that draws the cells larger. A theme × mode too tall to
  /// be shrunk to ``SheetDocument/shrinkLimit`` of its width's scale is cut between its rows
  /// onto several pages, each saying which part it is: nothing is cut off.
  /// - Throws: `RenderError` as ``renderSheet(_:themes:modes:platforms:options:textSizes:format:heading:audit:)``.
  public func sheetDocument(
    _ list: OUDSBulletList, themes names: [ThemeName] = ThemeName.allCases,
    modes: [ColorMode] = ColorMode.allCases, platforms: [Platform]? = nil,
    options: LayoutOptions = LayoutOptions(), textSizes: SheetTextSizes = SheetTextSizes(),
    heading: SheetHeading, audit: Bool = false, pageSize: PageSize = .standard
  ) throws(RenderError) -> SheetDocument {
    var cells: [(theme: ThemeName, mode: ColorMode, scene: Scene)] = []
    var warnings: [String] = []
    var audits: [AccessibilityAudit] = []
    for name in names {
      for mode in modes {
        let (laidOut, audited) = try auditedSheetLayout(
          list, themes: [name], modes: [mode], platforms: platforms, options: options,
          textSizes: textSizes, style: RenderingSheetStyle(), heading: nil, audit: audit)
        warnings += laidOut.warnings.filter { !warnings.contains($0) }
        audits += audited
        cells.append((name, mode, laidOut.scene))
      }
    }
    var best: (pages: [Scene], smallest: Double, landscape: Bool)?
    for landscape in pageSize.hasOrientations ? [false, true] : [true] {
      let (pages, smallest) = try sheetPages(
        cells, heading: heading, textSizes: textSizes, size: pageSize.size(landscape: landscape))
      if best.map({ smallest > $0.smallest + 1e-9 }) ?? true {
        best = (pages, smallest, landscape)
      }
    }
    guard var best else {
      return SheetDocument(pages: [], warnings: [], audits: [], landscape: false)
    }
    if !best.pages.isEmpty {
      best.pages[0].title = heading.title
      best.pages[0].notes = heading.lines
    }
    return SheetDocument(
      pages: best.pages, warnings: warnings, audits: audits, landscape: best.landscape)
  }

  /// The pages of `cells` on paper of `size`, and the smallest scale a cell is drawn at.
  private func sheetPages(
    _ cells: [(theme: ThemeName, mode: ColorMode, scene: Scene)], heading: SheetHeading,
    textSizes: SheetTextSizes, size: (width: Double, height: Double)
  ) throws(RenderError) -> ([Scene], Double) {
    var page = try PageComposer(
      renderer: self, width: size.width, pageHeight: size.height, margin: SheetDocument.margin,
      numbered: true)
    let noteHeight = PageTextStyle.small.metrics.lineHeight
    var smallest = 1.0
    for cell in cells {
      let title = SheetDocument.title(
        heading, theme: cell.theme, mode: cell.mode, textSizes: textSizes)
      // Every page of a cell has the same head, so the room under it is known before placing.
      func head(_ page: inout PageComposer) {
        page.pageBreak()
        page.text(title, style: .heading)
        for line in heading.lines(showing: [cell.theme]) {
          page.text(line, style: .small, color: PageComposer.mutedColor)
        }
        page.space(6)
      }
      var trial = page
      head(&trial)
      let room = trial.room - noteHeight - 6 - 2
      let scene = cell.scene
      let widthScale = min(1, page.contentWidth / max(scene.width, 1))
      let heightScale = room / max(scene.height, 1)
      var scale = min(widthScale, heightScale)
      var slices = [Rect(x: 0, y: 0, width: scene.width, height: scene.height)]
      if heightScale < widthScale * SheetDocument.shrinkLimit {
        scale = widthScale
        slices = SheetDocument.slices(of: scene, height: room / scale)
      }
      smallest = min(smallest, scale)
      let parts = slices.count > 1 ? SheetDocument.parts(of: scene, slices: slices) : [scene]
      for (index, slice) in slices.enumerated() {
        head(&page)
        var note = "Drawn at \(Int((scale * 100).rounded())) % of its size"
        if slices.count > 1 {
          note += " · part \(index + 1) of \(slices.count)"
          if index + 1 < slices.count { note += ", continued on the next page" }
        }
        page.text(note, style: .small, color: PageComposer.mutedColor)
        page.space(6)
        page.inset(parts[index], source: slice, scale: scale)
      }
    }
    return (page.pages(), smallest)
  }
}
