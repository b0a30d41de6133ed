import BulletListRenderer
import Graphics
import Primitives
import Scene
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The text styles of a composed page (``PageComposer``).
public enum PageTextStyle: Hashable, Sendable {
  /// The page title: 20 pt bold.
  case title
  /// A section heading: 15 pt bold.
  case heading
  /// Running text: 12 pt.
  case body
  /// Captions and table cells: 10 pt.
  case small
  /// Source text (a list file): 9 pt, lines kept as they are.
  case code

  /// Font size, line height and whether bold, in points.
  var metrics: (size: Double, lineHeight: Double, bold: Bool) {
    switch self {
    case .title: (20, 26, true)
    case .heading: (15, 20, true)
    case .body: (12, 16, false)
    case .small: (10, 13, false)
    case .code: (9, 12, false)
    }
  }
}

/// A bitmap to place on a composed page, with the caption written above it.
public struct PagePicture: Hashable, Sendable {
  /// The PNG bytes.
  public var png: Data
  /// The bitmap's width in pixels.
  public var pixelWidth: Int
  /// The bitmap's height in pixels.
  public var pixelHeight: Int
  /// Pixels per point the bitmap was drawn at: it is placed at `pixelWidth / scale` points wide
  /// (less when that does not fit the page).
  public var scale: Int
  /// The caption above the picture.
  public var caption: String

  /// Creates a picture.
  public init(png: Data, pixelWidth: Int, pixelHeight: Int, scale: Int, caption: String) {
    self.png = png
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.scale = max(1, scale)
    self.caption = caption
  }
}

/// One cell of a table row on a composed page: text, with a colour swatch before it when given.
public struct PageCell: Hashable, Sendable {
  /// The text.
  public var text: String
  /// A colour drawn as a small framed square before the text.
  public var swatch: RGBAColor?
  /// Whether the text is bold.
  public var bold: Bool

  /// Creates a cell.
  public init(_ text: String, swatch: RGBAColor? = nil, bold: Bool = false) {
    self.text = text
    self.swatch = swatch
    self.bold = bold
  }
}

/// Lays text, tables of swatches and pictures top to bottom onto pages of one width, measuring
/// every paragraph with the fonts it will be drawn with (those of every theme's manifest).
///
/// Without a page height everything goes on one page as tall as its content (a sheet); with one,
/// a block that does not fit the rest of a page starts the next one, and text taller than a page
/// is split between lines (a printable document). Draw the pages with
/// `BulletListRenderer.renderPages(_:format:)`.
public struct PageComposer {
  /// The page width in points.
  public let width: Double
  /// The page height in points; nil for one page that fits its content.
  public let pageHeight: Double?
  /// The space round the content, in points.
  public let margin: Double
  /// The page's fill; nil leaves it transparent.
  public let background: RGBAColor?
  /// The colour of text.
  public let textColor: RGBAColor
  /// Whether each page ends with its number, `3 / 8` (``pages()`` writes them; a band at the
  /// foot of each page is kept free for it).
  public let numbered: Bool

  /// The colour of the frame round pictures and swatches.
  public static let frameColor = RGBAColor(red: 0x7F, green: 0x87, blue: 0x94)

  private let measurer: TextEngine
  private let families: [String]
  private var finished: [Scene] = []
  private var panels: [ScenePanel] = []
  private var pictures: [ScenePicture] = []
  private var insets: [SceneInset] = []
  private var y: Double
  /// The running title of each finished page, and of the current one (``runningTitle`` when its
  /// first content was placed).
  private var finishedTitles: [String?] = []
  private var currentTitle: String?

  /// Written at the foot of every page begun from now on, left of its number, so that a page
  /// continuing a case or a combination still says what it shows (with ``numbered``).
  public var runningTitle: String?

  /// Creates a composer whose text is set in the brand families of the first theme that
  /// resolves (Orange's: its substitute, then the Arabic family).
  /// - Throws: `RenderError` when no theme resolves or the fonts cannot be loaded.
  public init(
    renderer: BulletListRenderer, width: Double, pageHeight: Double? = nil, margin: Double = 24,
    background: RGBAColor? = RGBAColor(red: 255, green: 255, blue: 255),
    textColor: RGBAColor = RGBAColor(red: 0, green: 0, blue: 0), numbered: Bool = false
  ) throws(RenderError) {
    self.width = width
    self.pageHeight = pageHeight
    self.margin = margin
    self.background = background
    self.textColor = textColor
    self.numbered = numbered && pageHeight != nil
    var families: [String]?
    var firstError: ThemeError?
    for name in ThemeName.allCases where families == nil {
      do {
        families = try renderer.themes.theme(name, mode: .light).fontFamilies
      } catch {
        firstError = firstError ?? error
      }
    }
    guard let families else {
      throw .theme(
        firstError ?? ThemeError(file: ThemeLibrary.resolverFileName, message: "no theme resolves"))
    }
    self.families = families
    measurer = try renderer.renderer(forThemes: ThemeName.allCases).textEngine
    y = margin
  }

  /// The width between the margins.
  public var contentWidth: Double { width - 2 * margin }

  /// Where the next block goes, from the top of the current page.
  public var cursor: Double { y }

  /// Room left on the current page below the cursor; infinite without a page height.
  public var room: Double { pageHeight.map { $0 - margin - footerHeight - y } ?? .infinity }

  /// The tallest block a page holds.
  public var pageRoom: Double { pageHeight.map { $0 - 2 * margin - footerHeight } ?? .infinity }

  /// The band kept free at the foot of a numbered page for its number.
  private var footerHeight: Double { numbered ? PageTextStyle.small.metrics.lineHeight + 6 : 0 }

  /// How many pages there are so far, the current one included when anything is on it.
  public var pageCount: Int { finished.count + (panels.isEmpty && pictures.isEmpty ? 0 : 1) }

  /// The share of the current page's room its content fills, 0 to 1 (0 without a page height).
  public var filled: Double {
    guard pageHeight != nil, pageRoom > 0 else { return 0 }
    return min(1, max(0, (y - margin) / pageRoom))
  }

  /// Leaves `points` of space (none at the top of a page).
  public mutating func space(_ points: Double) {
    guard y > margin else { return }
    y += points
  }

  /// Ends the current page (nothing when it is empty).
  public mutating func pageBreak() {
    guard !panels.isEmpty || !pictures.isEmpty || !insets.isEmpty else { return }
    finished.append(page(height: pageHeight ?? (y + margin)))
    finishedTitles.append(currentTitle)
    currentTitle = nil
    panels = []
    pictures = []
    insets = []
    y = margin
  }

  /// Writes `text` as ``text(_:style:color:indent:)`` does, but at most `maxHeight` points of
  /// it: the lines that fit (a line longer than ``foldedLineLength`` characters cut there, with
  /// `…`), then `… N more lines`, N counting `alsoOmitted` lines the text already left out (a
  /// long file printed in a document). Returns N.
  @discardableResult
  public mutating func foldedText(
    _ text: String, style: PageTextStyle = .code, maxHeight: Double, alsoOmitted: Int = 0,
    color: RGBAColor? = nil, indent: Double = 0
  ) -> Int {
    let clean = Self.printable(text)
    let wrap = max(1, contentWidth - indent)
    let lines = clean.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.count > Self.foldedLineLength
        ? String(line.prefix(Self.foldedLineLength)) + "…" : String(line)
    }
    let noteHeight = style.metrics.lineHeight
    var kept = 0
    var height = 0.0
    for line in lines {
      let next = measure(line, style: style, bold: style.metrics.bold, wrap: wrap)
      // The last line needs no room for the note.
      let limit = kept + 1 == lines.count && alsoOmitted <= 0 ? maxHeight : maxHeight - noteHeight
      if height + next > limit { break }
      height += next
      kept += 1
    }
    let omitted = lines.count - kept + max(0, alsoOmitted)
    var shown = lines[0..<kept].joined(separator: "\n")
    if omitted > 0 {
      shown += (kept > 0 ? "\n" : "") + "… \(omitted) more line\(omitted == 1 ? "" : "s")"
    }
    self.text(shown, style: style, color: color, indent: indent)
    return omitted
  }

  /// Lays out `block` with the largest of the scales 1, 0.85, 0.72… down to `smallest` (the
  /// last tried) whose result `fits` accepts (given the composer before and after the block);
  /// when none does, with scale 1: a block is never shrunk for nothing.
  public mutating func fitting(
    smallest: Double, _ fits: (_ before: PageComposer, _ after: PageComposer) -> Bool,
    _ block: (inout PageComposer, Double) throws(RenderError) -> Void
  ) throws(RenderError) {
    let start = self
    var scale = 1.0
    while true {
      var trial = start
      try block(&trial, scale)
      if fits(start, trial) {
        self = trial
        return
      }
      if scale <= smallest { break }
      scale = max(smallest, scale * 0.85)
    }
    self = start
    try block(&self, 1)
  }

  /// The longest line ``foldedText(_:style:maxHeight:alsoOmitted:color:indent:)`` shows whole.
  public static let foldedLineLength = 300

  /// Places the part `source` (nil: all) of `scene` at the cursor, centred between the margins,
  /// `scale` points per point of the scene; vector output stays vector. Starts a new page when
  /// it does not fit the rest of this one (never cuts it: choose `scale` and `source` so that it
  /// fits ``pageRoom``).
  public mutating func inset(_ scene: Scene, source: Rect? = nil, scale: Double) {
    let placed = SceneInset(scene: scene, source: source, origin: Point(x: 0, y: 0), scale: scale)
    let size = placed.rect
    if size.height > room { pageBreak() }
    var inset = placed
    inset.origin = Point(x: margin + max(0, (contentWidth - size.width) / 2), y: y)
    noteContent()
    panels.append(ScenePanel(rect: inset.rect.insetBy(-1), fill: Self.frameColor, caption: nil))
    insets.append(inset)
    y += size.height
  }

  /// Places parts of one scene side by side at the cursor, scaled by `scale`: each part (its
  /// `source` rectangle of `scene`) at `x` points of the scene from the left of a grid
  /// `sceneWidth` wide, centred between the margins as ``inset(_:source:scale:)`` centres a
  /// scene, under its `caption` in small muted text when it has one. The row is as tall as its
  /// tallest part and starts a new page when it does not fit the rest of this one.
  public mutating func insetRow(
    _ parts: [(scene: Scene, source: Rect, x: Double, caption: String?)], sceneWidth: Double,
    scale: Double
  ) {
    let left = margin + max(0, (contentWidth - sceneWidth * scale) / 2)
    let captionHeight =
      parts.compactMap { part in
        part.caption.map {
          measure(Self.printable($0), style: .small, bold: false, wrap: part.source.width * scale)
            + 2
        }
      }.max() ?? 0
    let height = (parts.map { $0.source.height * scale }.max() ?? 0) + captionHeight
    if height > room { pageBreak() }
    noteContent()
    for part in parts {
      let x = left + part.x * scale
      let wrap = part.source.width * scale
      if let text = part.caption {
        let line = Self.printable(text)
        panels.append(
          ScenePanel(
            rect: Rect(x: x, y: y, width: wrap, height: captionHeight), fill: nil,
            caption: caption(
              line, style: .small, bold: false, color: Self.mutedColor, x: x, y: y, wrap: wrap)))
      }
      let inset = SceneInset(
        scene: part.scene, source: part.source, origin: Point(x: x, y: y + captionHeight),
        scale: scale)
      panels.append(ScenePanel(rect: inset.rect.insetBy(-1), fill: Self.frameColor, caption: nil))
      insets.append(inset)
    }
    y += height
  }

  /// Writes a paragraph the full content width (less `indent`); text taller than a page is
  /// split between its lines. Control characters other than line feeds are escaped, tabs become
  /// spaces.
  public mutating func text(
    _ text: String, style: PageTextStyle = .body, color: RGBAColor? = nil, indent: Double = 0
  ) {
    let clean = Self.printable(text)
    let wrap = max(1, contentWidth - indent)
    let whole = measure(clean, style: style, bold: style.metrics.bold, wrap: wrap)
    if whole <= room {
      place(
        clean, style: style, bold: style.metrics.bold, color: color, x: margin + indent, wrap: wrap,
        height: whole)
      return
    }
    if whole <= pageRoom {
      pageBreak()
      place(
        clean, style: style, bold: style.metrics.bold, color: color, x: margin + indent, wrap: wrap,
        height: whole)
      return
    }
    // Taller than a page: as many whole lines as fit, page after page.
    var lines = clean.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while !lines.isEmpty {
      func height(_ count: Int) -> Double {
        measure(
          lines[0..<count].joined(separator: "\n"), style: style, bold: style.metrics.bold,
          wrap: wrap)
      }
      var count = 1
      var fitting = height(1)
      while count < lines.count {
        let next = height(count + 1)
        if next > room { break }
        count += 1
        fitting = next
      }
      if fitting > room && y > margin {
        pageBreak()
        continue
      }
      place(
        lines[0..<count].joined(separator: "\n"), style: style, bold: style.metrics.bold,
        color: color,
        x: margin + indent, wrap: wrap, height: fitting)
      lines.removeFirst(count)
      if !lines.isEmpty { pageBreak() }
    }
  }

  /// Writes one row of a table: cell `i` starts at `columns[i]` points from the left margin and
  /// wraps before the next column (or the right margin); the row is as tall as its tallest cell.
  public mutating func row(_ cells: [PageCell], columns: [Double], style: PageTextStyle = .small) {
    let swatchSide = style.metrics.lineHeight - 3
    var placed: [(cell: PageCell, x: Double, wrap: Double, height: Double)] = []
    for (index, cell) in cells.enumerated() where index < columns.count {
      let start = margin + columns[index]
      let end = index + 1 < columns.count ? margin + columns[index + 1] - 8 : width - margin
      let textX = start + (cell.swatch == nil ? 0 : swatchSide + 6)
      let wrap = max(1, end - textX)
      let text = Self.printable(cell.text)
      let height = measure(text, style: style, bold: cell.bold, wrap: wrap)
      placed.append((PageCell(text, swatch: cell.swatch, bold: cell.bold), textX, wrap, height))
    }
    let height = placed.map(\.height).max() ?? 0
    if height > room { pageBreak() }
    noteContent()
    for item in placed {
      if let swatch = item.cell.swatch {
        let box = Rect(
          x: item.x - swatchSide - 6, y: y + 1.5, width: swatchSide, height: swatchSide)
        panels.append(ScenePanel(rect: box.insetBy(-1), fill: Self.frameColor, caption: nil))
        panels.append(ScenePanel(rect: box, fill: swatch, caption: nil))
      }
      panels.append(
        ScenePanel(
          rect: Rect(x: item.x, y: y, width: item.wrap, height: item.height), fill: nil,
          caption: caption(
            item.cell.text, style: style, bold: item.cell.bold, color: nil, x: item.x, y: y,
            wrap: item.wrap)))
    }
    y += height
  }

  /// Places pictures left to right, `gap` apart, starting a new line of pictures when the next
  /// does not fit; each is framed and captioned above. A picture wider than the content (or,
  /// with pages, taller than a page) is scaled down to fit; `scale` shrinks them all (1: each at
  /// its own size).
  public mutating func pictures(_ items: [PagePicture], gap: Double = 16, scale: Double = 1) {
    var line:
      [(picture: PagePicture, size: (width: Double, height: Double), captionHeight: Double)] = []
    var lineWidth = 0.0
    func flush(_ composer: inout PageComposer) {
      guard !line.isEmpty else { return }
      let height = line.map { $0.captionHeight + 4 + $0.size.height }.max() ?? 0
      if height > composer.room { composer.pageBreak() }
      composer.noteContent()
      var x = composer.margin
      for item in line {
        let top = composer.y
        composer.panels.append(
          ScenePanel(
            rect: Rect(x: x, y: top, width: item.size.width, height: item.captionHeight), fill: nil,
            caption: composer.caption(
              item.picture.caption, style: .small, bold: true, color: nil, x: x, y: top,
              wrap: item.size.width)))
        let rect = Rect(
          x: x, y: top + item.captionHeight + 4, width: item.size.width, height: item.size.height)
        composer.panels.append(
          ScenePanel(rect: rect.insetBy(-1), fill: Self.frameColor, caption: nil))
        composer.pictures.append(ScenePicture(rect: rect, png: item.picture.png))
        x += item.size.width + gap
      }
      composer.y += height + gap
      line = []
      lineWidth = 0
    }
    for picture in items {
      var width = Double(picture.pixelWidth) / Double(picture.scale) * min(1, max(0.01, scale))
      var height = Double(picture.pixelHeight) / Double(picture.scale) * min(1, max(0.01, scale))
      let captionWidth = max(width, min(contentWidth, 120))
      let captionHeight = measure(
        Self.printable(picture.caption), style: .small, bold: true,
        wrap: min(captionWidth, contentWidth))
      let fit = min(
        1, contentWidth / max(width, 1), (pageRoom - captionHeight - 4) / max(height, 1))
      width *= fit
      height *= fit
      if !line.isEmpty && lineWidth + gap + width > contentWidth + 1e-6 { flush(&self) }
      lineWidth += (line.isEmpty ? 0 : gap) + width
      line.append((picture, (width, height), captionHeight))
    }
    flush(&self)
  }

  /// Every page, the current one last; when ``numbered``, each with `N / M` at its foot, on the
  /// right.
  public func pages() -> [Scene] {
    var all = finished
    var titles = finishedTitles
    if !panels.isEmpty || !pictures.isEmpty || !insets.isEmpty || all.isEmpty {
      all.append(page(height: pageHeight ?? (y + margin)))
      titles.append(currentTitle)
    }
    guard numbered, let pageHeight else { return all }
    let lineHeight = PageTextStyle.small.metrics.lineHeight
    let numberWidth = 72.0
    for index in all.indices {
      let top = pageHeight - margin - lineHeight
      all[index].panels.append(
        ScenePanel(
          rect: Rect(x: margin, y: top, width: contentWidth, height: lineHeight), fill: nil,
          caption: SceneText(
            origin: Point(x: margin, y: top), wrapWidth: contentWidth, alignment: .right,
            content: styled(
              "\(index + 1) / \(all.count)", style: .small, bold: false, color: Self.mutedColor))))
      guard let title = titles[index], contentWidth > numberWidth else { continue }
      let wrap = contentWidth - numberWidth
      all[index].panels.append(
        ScenePanel(
          rect: Rect(x: margin, y: top, width: wrap, height: lineHeight), fill: nil,
          caption: SceneText(
            origin: Point(x: margin, y: top), wrapWidth: wrap, alignment: .left,
            content: styled(
              Self.oneLine(title, fitting: wrap) { width(of: $0, style: .small) }, style: .small,
              bold: false, color: Self.mutedColor))))
    }
    return all
  }

  /// `text` on one line no wider than `width` (by `measure`'s widths): printable, cut with `…`
  /// when longer (the longest prefix that fits, found by halving).
  static func oneLine(_ text: String, fitting width: Double, measure: (String) -> Double)
    -> String
  {
    let clean = printable(text).replacingEvery("\n", with: " ")
    guard measure(clean) > width else { return clean }
    let characters = Array(clean)
    var (low, high) = (0, characters.count)  // a prefix of `low` fits, of `high` does not
    while high - low > 1 {
      let middle = (low + high) / 2
      if measure(String(characters[0..<middle]) + "…") <= width {
        low = middle
      } else {
        high = middle
      }
    }
    return String(characters[0..<low]) + "…"
  }

  /// Content is about to be placed: a page still empty takes the ``runningTitle``.
  private mutating func noteContent() {
    if panels.isEmpty, pictures.isEmpty, insets.isEmpty { currentTitle = runningTitle }
  }

  /// The colour of page numbers and notes that say less than the text round them.
  public static let mutedColor = RGBAColor(red: 0x55, green: 0x55, blue: 0x55)

  private func page(height: Double) -> Scene {
    var scene = Scene(
      width: width, height: max(height, 2 * margin), direction: .ltr, themes: ThemeName.allCases,
      modes: ColorMode.allCases, platforms: [.ios], background: background, rows: [], panels: panels
    )
    scene.pictures = pictures
    scene.insets = insets
    return scene
  }

  private mutating func place(
    _ text: String, style: PageTextStyle, bold: Bool, color: RGBAColor?, x: Double, wrap: Double,
    height: Double
  ) {
    noteContent()
    panels.append(
      ScenePanel(
        rect: Rect(x: x, y: y, width: wrap, height: height), fill: nil,
        caption: caption(text, style: style, bold: bold, color: color, x: x, y: y, wrap: wrap)))
    y += height
  }

  private func styled(_ text: String, style: PageTextStyle, bold: Bool, color: RGBAColor?)
    -> StyledText
  {
    let metrics = style.metrics
    return StyledText(
      spans: [TextSpan(text)],
      appearance: TextAppearance(
        fontFamilies: families, fontSize: metrics.size, lineHeight: metrics.lineHeight,
        letterSpacing: 0,
        weight: bold ? 700 : 400, color: color ?? textColor, language: "en"),
      direction: .ltr)
  }

  private func caption(
    _ text: String, style: PageTextStyle, bold: Bool, color: RGBAColor?, x: Double, y: Double,
    wrap: Double
  ) -> SceneText {
    SceneText(
      origin: Point(x: x, y: y), wrapWidth: wrap, alignment: .left,
      content: styled(text, style: style, bold: bold, color: color))
  }

  /// The width of `text` on one line.
  private func width(of text: String, style: PageTextStyle) -> Double {
    measurer.measure(styled(text, style: style, bold: false, color: nil), wrapWidth: nil).width
  }

  private func measure(_ text: String, style: PageTextStyle, bold: Bool, wrap: Double) -> Double {
    measurer.measure(styled(text, style: style, bold: bold, color: nil), wrapWidth: wrap).height
  }

  /// `text` with tabs as four spaces, CR LF and CR as LF, and other control characters,
  /// line and paragraph separators and bidirectional controls escaped (`MessageText`), so that a
  /// page shows what a file holds without a file reordering or hiding what follows.
  public static func printable(_ text: String) -> String {
    let normalized = text.replacingEvery("\r\n", with: "\n").replacingEvery("\r", with: "\n")
      .replacingEvery("\t", with: "    ")
    return normalized.split(separator: "\n", omittingEmptySubsequences: false)
      .map { MessageText.escaped(String($0)) }.joined(separator: "\n")
  }
}

extension Rect {
  /// The rectangle shrunk by `amount` on every side (grown for a negative amount).
  func insetBy(_ amount: Double) -> Rect {
    Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
  }
}

extension BulletListRenderer {
  /// Draws composed pages (``PageComposer``) with every theme's fonts: PNG or SVG of the one
  /// page, or a PDF of them all, a page each. `platforms`: those whose fonts the pages' insets
  /// (a sheet's cells) are drawn with, besides iOS.
  /// - Throws: `RenderError.graphics` when drawing fails, or for several pages in PNG or SVG.
  public func renderPages(
    _ pages: [Scene], format: OutputFormat, platforms: [Platform] = [.ios]
  ) throws(RenderError) -> Data {
    let renderer = try self.renderer(forThemes: ThemeName.allCases, platforms: platforms)
    do {
      switch format {
      case .pdf:
        return try renderer.renderPDF(pages: pages)
      case .png, .svg:
        guard pages.count == 1, let page = pages.first else {
          throw GraphicsError.drawingFailed(
            stage: "drawing \(pages.count) pages", reason: "PNG and SVG hold one page; use PDF")
        }
        return try renderer.render(page, as: format)
      }
    } catch let error as GraphicsError {
      throw .graphics(error, nil)
    } catch {
      throw .graphics(.drawingFailed(stage: "drawing pages", reason: "\(error)"), nil)
    }
  }
}
