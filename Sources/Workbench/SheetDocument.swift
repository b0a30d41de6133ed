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
  /// Columns that flow into a page's column slots may be drawn down to this share of the scale
  /// that fits the grid's width, when that takes fewer pages (a Dynamic Type sheet's
  /// accessibility sizes beside `large`).
  public static let flowShrinkLimit = 0.5

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

  /// The top and bottom of `row`'s label, marker and icon.
  static func extent(of row: SceneRow) -> (top: Double, bottom: Double) {
    var top = min(row.label.y, row.marker.rect.y)
    var bottom = max(row.label.y + row.label.height, row.marker.rect.y + row.marker.rect.height)
    if let icon = row.icon {
      top = min(top, icon.y)
      bottom = max(bottom, icon.y + icon.height)
    }
    return (top, bottom)
  }

  /// Where a cell may be cut between pages: between rows (in every column at once), never
  /// through a row's label, marker or a caption.
  static func cuts(in scene: Scene) -> [Double] {
    var spans: [(top: Double, bottom: Double)] = []
    for row in scene.rows {
      let (top, bottom) = extent(of: row)
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

  /// The tallest row of `scene` (label, marker and icon) and its item's path, nil without rows.
  static func tallestRow(in scene: Scene) -> (path: String, height: Double)? {
    var tallest: (path: String, height: Double)?
    for row in scene.rows {
      let (top, bottom) = extent(of: row)
      if bottom - top > tallest?.height ?? 0 { tallest = (row.path, bottom - top) }
    }
    return tallest
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
      let (top, bottom) = extent(of: row)
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

  /// The column of a sheet's grid: where it is and what it holds.
  struct Column {
    /// Its left edge and width in the scene.
    var x: Double
    var width: Double
    /// The cell's caption (`Orange · light · iOS · accessibility5`).
    var caption: String
    /// The column's own content: its rows and panels, as tall as its content.
    var scene: Scene
    /// Where its cell begins: what is above (the sheet's margin and notes) is not drawn.
    var top: Double
  }

  /// The columns of a one-theme, one-mode sheet `scene` laid out by `auditedSheetLayout`: `count`
  /// cells `width` points wide, `style`'s margin and gutter apart. Each holds the rows and panels
  /// inside it and is as tall as they reach, not as the grid row's tallest cell.
  static func columns(
    of scene: Scene, count: Int, width: Double, style: RenderingSheetStyle = RenderingSheetStyle()
  ) -> [Column] {
    (0..<count).compactMap { index -> Column? in
      let x = style.margin + Double(index) * (width + style.gutter)
      let inside = { (rect: Rect) in rect.x >= x - 0.5 && rect.maxX <= x + width + 0.5 }
      guard
        let head = scene.panels.filter({
          $0.caption != nil && abs($0.rect.x - x) < 0.5 && abs($0.rect.width - width) < 0.5
        }).min(by: { $0.rect.y < $1.rect.y })
      else { return nil }
      var column = scene
      column.rows = scene.rows.filter { inside($0.label) || inside($0.marker.rect) }
      column.panels = scene.panels.filter { inside($0.rect) }
      var bottom =
        (head.caption?.origin.y ?? head.rect.y) + (head.caption?.content.appearance.lineHeight ?? 0)
      for row in column.rows { bottom = max(bottom, extent(of: row).bottom) }
      // Panels without a fill (an accessibility snapshot's legend, audit figures) end a column.
      for panel in column.panels where panel.fill == nil && panel.rect.y > head.rect.y + 0.5 {
        bottom = max(bottom, panel.rect.maxY)
      }
      column.height = min(scene.height, bottom + style.captionPadding)
      return Column(
        x: x, width: width, caption: head.caption?.content.plainText ?? "", scene: column,
        top: head.rect.y)
    }
  }

  /// A grid of several columns, one of them taller than a page, flowed into the page's column
  /// slots: each column is cut between its rows into parts a slot tall, the first part of each
  /// column keeps its place on the first page, and the other parts follow in the free slots, left
  /// to right, page after page, each captioned with its column's caption and part. The scale is
  /// the largest, from the one that fits the grid's width down to ``flowShrinkLimit`` of it,
  /// that needs the fewest pages. Nil for a single column (it is cut onto pages whole) or when a row
  /// is taller than a slot at every scale.
  static func flow(
    _ scene: Scene, columns count: Int, cellWidth: Double, room: Double, contentWidth: Double
  ) -> (pages: [[FlowPart]], scale: Double, gridWidth: Double)? {
    let columns = columns(of: scene, count: count, width: cellWidth)
    guard columns.count > 1, let first = columns.first else { return nil }
    let margin = first.x
    let width = first.width
    let pitch = columns[1].x - first.x
    let widthScale = min(1, contentWidth / max(scene.width, 1))
    var best: (pages: [[FlowPart]], scale: Double, gridWidth: Double)?
    var scale = widthScale
    while scale >= widthScale * flowShrinkLimit - 1e-9 {
      defer { scale *= 0.95 }
      let slotHeight = room / scale
      // The slots a page holds at this scale: the grid's margins, then columns a pitch apart.
      let fitting = Int(((contentWidth / scale - 2 * margin - width) / pitch).rounded(.down)) + 1
      let slots = max(columns.count, fitting)
      let gridWidth = 2 * margin + Double(slots - 1) * pitch + width
      guard columns.allSatisfy({ (tallestRow(in: $0.scene)?.height ?? 0) <= slotHeight }) else {
        continue
      }
      // Each column cut between its rows into parts a slot tall, each part drawing only its rows.
      let parts = columns.map { column -> [FlowPart] in
        let cut = slices(of: column.scene, height: slotHeight)
        let scenes =
          cut.count > 1 ? SheetDocument.parts(of: column.scene, slices: cut) : [column.scene]
        return cut.indices.map { index in
          // The first part begins at the cell, not at the sheet's margin above it.
          let top = index == 0 ? max(cut[index].y, column.top) : cut[index].y
          return FlowPart(
            scene: scenes[index],
            source: Rect(
              x: column.x, y: top, width: column.width,
              height: cut[index].y + cut[index].height - top),
            x: column.x,
            caption: index == 0 ? nil : "\(column.caption) (\(index + 1)/\(cut.count))")
        }
      }
      // The first page: each column's first part in its own slot; then the rest, in order.
      var queue = parts.flatMap { $0.dropFirst() }
      var page = parts.compactMap(\.first)
      var pages: [[FlowPart]] = []
      while true {
        while page.count < slots, !queue.isEmpty {
          var part = queue.removeFirst()
          part.x = margin + Double(page.count) * pitch
          page.append(part)
        }
        pages.append(page)
        if queue.isEmpty { break }
        page = []
      }
      if best.map({ pages.count < $0.pages.count }) ?? true {
        best = (pages, scale, gridWidth)
      }
    }
    return best
  }

  /// One part of a flowed column: the scene holding its rows, the rectangle of it drawn, where
  /// in the page's grid it goes, and its caption (nil for a column's first part, which has its
  /// cell's own).
  struct FlowPart {
    var scene: Scene
    var source: Rect
    var x: Double
    var caption: String?
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
  /// An A4 document is portrait or landscape, whichever takes fewer pages, then draws the cells
  /// larger. A theme × mode too tall to be shrunk to ``SheetDocument/shrinkLimit`` of its
  /// width's scale is cut between its rows onto several pages, each saying which part it is:
  /// nothing is cut off. With several columns, they flow: the parts of a tall column after its
  /// first go on in the page's free column slots, left to right, so that no page carries the
  /// tail of one column beside empty ones.
  /// - Throws: `RenderError` as ``renderSheet(_:themes:modes:platforms:options:textSizes:format:heading:audit:)``.
  public func sheetDocument(
    _ list: OUDSBulletList, themes names: [ThemeName] = ThemeName.allCases,
    modes: [ColorMode] = ColorMode.allCases, platforms: [Platform]? = nil,
    options: LayoutOptions = LayoutOptions(), textSizes: SheetTextSizes = SheetTextSizes(),
    heading: SheetHeading, audit: Bool = false, pageSize: PageSize = .standard
  ) throws(RenderError) -> SheetDocument {
    let perMode = (platforms ?? [options.platform]).flatMap {
      textSizes.options(options.on($0))
    }.count
    try checkSheetSize(list, cells: names.count * modes.count * perMode)
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
        cells, heading: heading, textSizes: textSizes,
        grid: (
          perMode,
          options.width + (options.accessibilitySnapshot ? AccessibilitySnapshot.extraWidth : 0)
        ),
        size: pageSize.size(landscape: landscape))
      // Fewer pages first (columns that flow), then the cells drawn larger.
      if best.map({
        pages.count < $0.pages.count
          || (pages.count == $0.pages.count && smallest > $0.smallest + 1e-9)
      }) ?? true {
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
    textSizes: SheetTextSizes, grid: (columns: Int, cellWidth: Double),
    size: (width: Double, height: Double)
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
      if heightScale < widthScale * SheetDocument.shrinkLimit,
        let flow = SheetDocument.flow(
          scene, columns: grid.columns, cellWidth: grid.cellWidth, room: room,
          contentWidth: page.contentWidth)
      {
        // Several columns, one taller than a page: they flow into the page's column slots.
        smallest = min(smallest, flow.scale)
        for (index, parts) in flow.pages.enumerated() {
          head(&page)
          var note = "Drawn at \(Int((flow.scale * 100).rounded())) % of its size"
          if flow.pages.count > 1 {
            note += " · part \(index + 1) of \(flow.pages.count)"
            if index + 1 < flow.pages.count { note += ", continued on the next page" }
            note += "; a tall column goes on in the next slot, left to right"
          }
          page.text(note, style: .small, color: PageComposer.mutedColor)
          page.space(6)
          page.insetRow(
            parts.map { ($0.scene, $0.source, $0.x, $0.caption) }, sceneWidth: flow.gridWidth,
            scale: flow.scale)
        }
        continue
      }
      if heightScale < widthScale * SheetDocument.shrinkLimit {
        scale = widthScale
        // A row taller than a page would be drawn whole on every page it reaches (work growing
        // with the square of its label): refused, as render -o x.pdf refuses a tall page.
        if let tall = SheetDocument.tallestRow(in: scene), tall.height * scale > room {
          throw .sheetTooLarge(
            reason:
              "item \(tall.path)'s row is \(Int((tall.height * scale).rounded())) points tall at the \(Int((scale * 100).rounded())) % a page draws it, more than the \(Int(room.rounded())) points a page holds: a paged sheet cuts a cell only between rows; draw the sheet as SVG or PNG (one tall page), or shorten the label",
            RenderError.Context(theme: cell.theme, mode: cell.mode))
        }
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
