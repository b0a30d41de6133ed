internal import CGraphics
internal import CGraphicsLoader
import PNG
import Primitives
import Scene
import VectorAsset

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Draws a ``Scene`` to PNG, SVG or PDF with Cairo, shaping text with a ``TextEngine``.
///
/// The same scene gives the same bytes on every run: PNG pixels and encoding are deterministic,
/// SVG surface ids are renumbered, and the PDF creation date is fixed.
/// Not thread-safe, like the text engine it draws with.
public final class SceneRenderer {
  /// The text engine labels and ordered prefixes are laid out with.
  public let textEngine: TextEngine

  /// Icons already loaded, by file path, used instead of reading those files (tests only).
  var preloadedIcons: [String: IconImage] = [:]
  /// The outlines of SVG icons, by file, that bitmaps draw by filling them instead of through
  /// librsvg (the same pixels: `VectorAssetReader.iconOutline(of:)`); vector
  /// output and the icons not here go through librsvg.
  public var iconOutlines: [String: VectorOutline] = [:]

  /// The creation date written into every PDF, so PDF bytes do not depend on the clock.
  static let pdfCreationDate = "2000-01-01T00:00:00Z"

  /// Creates a renderer that lays out text with `textEngine`.
  public init(textEngine: TextEngine) {
    self.textEngine = textEngine
  }

  /// Renders `scene` to the bytes of a file in `format`.
  /// - Throws: `GraphicsError` when an icon file is missing or unreadable, the canvas size or
  ///   scale is invalid, Cairo fails or cannot be loaded, or PNG encoding fails.
  public func render(_ scene: Scene, as format: OutputFormat) throws(GraphicsError) -> Data {
    try start(scene, as: format).data()
  }

  /// Draws `scene` in `format` and returns it before an opaque PNG's last bands are encoded:
  /// `encodingThread` (nil: a thread of the picture's own) goes on with them while this thread
  /// lays out and draws the next picture, and ``PendingPicture/data()`` waits for them (and
  /// helps).
  /// - Throws: `GraphicsError` as ``render(_:as:)``, for what fails while drawing.
  package func start(
    _ scene: Scene, as format: OutputFormat, encodingThread: BandEncodingThread? = nil
  ) throws(GraphicsError) -> PendingPicture {
    try GraphicsLibraries.load()
    switch format {
    case .png(let scale):
      if let encoder = try drawInBands(scene, scale: scale, encodingThread: encodingThread) {
        return PendingPicture(encoding: encoder, scene: scene, scale: scale, renderer: self)
      }
      return PendingPicture(done: try renderWhole(scene, scale: scale))
    case .svg:
      return PendingPicture(done: try drawVector(scene, svg: true))
    case .pdf:
      return PendingPicture(done: try drawVector(scene, svg: false))
    }
  }

  /// `scene` drawn into one bitmap and encoded: what bands cannot draw, and an opaque PNG whose
  /// band encoder gave up (a pixel that is not opaque, igzip failing on a band).
  fileprivate func renderWhole(_ scene: Scene, scale: Int) throws(GraphicsError) -> Data {
    try PNGCodec.encode(surface: drawBitmap(scene, scale: scale))
  }

  /// Draws `scene` into a bitmap with `scale` pixels per point (``PixelScale/supported``), to be encoded later, possibly on
  /// another thread (see ``DrawnBitmap``).
  /// - Throws: `GraphicsError` as ``render(_:as:)``.
  public func draw(_ scene: Scene, scale: Int) throws(GraphicsError) -> DrawnBitmap {
    try GraphicsLibraries.load()
    return DrawnBitmap(surface: try drawBitmap(scene, scale: scale))
  }

  /// Draws `scene` into a straight-alpha bitmap with `scale` pixels per point.
  /// - Throws: `GraphicsError` as ``render(_:as:)``.
  public func rasterize(_ scene: Scene, scale: Int) throws(GraphicsError) -> RasterImage {
    try GraphicsLibraries.load()
    return try PixelConversion.rasterImage(fromARGB32: drawBitmap(scene, scale: scale))
  }

  /// The pixel size of a canvas side of `points` at `scale`, rounding up any fraction of a pixel.
  static func pixels(_ points: Double, scale: Int) -> Int {
    Int((points * Double(scale) - 1e-6).rounded(.up))
  }

  private func drawBitmap(_ scene: Scene, scale: Int) throws(GraphicsError) -> CairoSurface {
    let surface = try bitmapSurface(for: scene, scale: scale)
    let context = try CairoContext(surface: surface)
    try draw(scene, on: context, pixelsPerPoint: scale)
    try surface.check(stage: "drawing the bitmap")
    return surface
  }

  /// The word of a 1×1 ARGB32 surface after `cairo_paint` of `color` with the source operator:
  /// the word Cairo's paint of the background writes into every pixel.
  private func paintedWord(_ color: RGBAColor) throws(GraphicsError) -> UInt32 {
    let stage = "painting the background"
    let probe = try CairoSurface(
      taking: ouds_cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1), stage: stage)
    let context = try CairoContext(surface: probe)
    ouds_cairo_set_operator(context.handle, CAIRO_OPERATOR_SOURCE)
    setSource(context.handle, color)
    ouds_cairo_paint(context.handle)
    try context.check(stage: stage)
    ouds_cairo_surface_flush(probe.handle)
    guard let data = ouds_cairo_image_surface_get_data(probe.handle) else {
      throw .drawingFailed(stage: stage, reason: "the surface has no pixel data")
    }
    return UnsafeRawPointer(data).load(as: UInt32.self)
  }

  /// A transparent bitmap the size of `scene` at `scale`, its device scale set.
  private func bitmapSurface(for scene: Scene, scale: Int) throws(GraphicsError) -> CairoSurface {
    guard PixelScale.supported.contains(scale) else { throw .invalidScale(scale) }
    try validateSize(scene, scale: scale)
    let width = Self.pixels(scene.width, scale: scale)
    let height = Self.pixels(scene.height, scale: scale)
    // Cairo's own memory (pixman's, from the heap: main.swift's MemoryTuning keeps large blocks
    // there), so the pictures of one process reuse the memory of the ones before. A map of its
    // own per bitmap measured slower, and one on transparent huge pages slower still after
    // another program freed its memory (one render after a Chromium shot, medians of 15:
    // 31.2 ms heap, 34.1 own map, 39.7 huge pages; the 8 themes × modes in one process, idle:
    // 81.6 against 94.1 ms with own maps), see LargeBuffer.
    let surface = try CairoSurface.bitmap(width: width, height: height)
    ouds_cairo_surface_set_device_scale(surface.handle, Double(scale), Double(scale))
    return surface
  }

  private func drawVector(_ scene: Scene, svg: Bool) throws(GraphicsError) -> Data {
    try validateSize(scene, scale: 0, pdf: !svg)
    let sink = ByteSink()
    try withExtendedLifetime(sink) { () throws(GraphicsError) in
      let surface: CairoSurface
      if svg {
        surface = try CairoSurface(
          taking: ouds_cairo_svg_surface_create_for_stream(
            ByteSink.write, sink.closure, scene.width, scene.height),
          stage: "creating the SVG document")
        ouds_cairo_svg_surface_restrict_to_version(surface.handle, CAIRO_SVG_VERSION_1_1)
        ouds_cairo_svg_surface_set_document_unit(surface.handle, CAIRO_SVG_UNIT_PX)
      } else {
        surface = try CairoSurface(
          taking: ouds_cairo_pdf_surface_create_for_stream(
            ByteSink.write, sink.closure, scene.width, scene.height),
          stage: "creating the PDF document")
        ouds_cairo_pdf_surface_set_metadata(
          surface.handle, CAIRO_PDF_METADATA_CREATE_DATE, Self.pdfCreationDate)
        if let title = scene.title {
          ouds_cairo_pdf_surface_set_metadata(
            surface.handle, CAIRO_PDF_METADATA_TITLE, ControlCharacters.escaped(title))
        }
        if !scene.notes.isEmpty {
          ouds_cairo_pdf_surface_set_metadata(
            surface.handle, CAIRO_PDF_METADATA_SUBJECT,
            ControlCharacters.escaped(scene.notes.joined(separator: " · ")))
        }
      }
      do {
        let context = try CairoContext(surface: surface)
        try draw(scene, on: context, pixelsPerPoint: nil)
      }
      try surface.finish(stage: svg ? "writing the SVG document" : "writing the PDF document")
    }
    return svg
      ? SVGNormalizer.normalize(
        SVGNormalizer.describing(sink.data, title: scene.title, notes: scene.notes)) : sink.data
  }

  /// Renders `pages` as one PDF document, a page per scene, each page the size of its scene; the
  /// first page's title and notes are the document's title and subject.
  ///
  /// The creation date is fixed, as in ``render(_:as:)``, so the same pages give the same bytes.
  /// - Throws: `GraphicsError` as ``render(_:as:)``; `.invalidCanvasSize` for an empty list.
  public func renderPDF(pages: [Scene]) throws(GraphicsError) -> Data {
    try GraphicsLibraries.load()
    guard let first = pages.first else { throw .invalidCanvasSize(width: 0, height: 0, scale: 0) }
    for page in pages { try validateSize(page, scale: 0, pdf: true) }
    let sink = ByteSink()
    try withExtendedLifetime(sink) { () throws(GraphicsError) in
      let surface = try CairoSurface(
        taking: ouds_cairo_pdf_surface_create_for_stream(
          ByteSink.write, sink.closure, first.width, first.height),
        stage: "creating the PDF document")
      ouds_cairo_pdf_surface_set_metadata(
        surface.handle, CAIRO_PDF_METADATA_CREATE_DATE, Self.pdfCreationDate)
      if let title = first.title {
        ouds_cairo_pdf_surface_set_metadata(
          surface.handle, CAIRO_PDF_METADATA_TITLE, ControlCharacters.escaped(title))
      }
      if !first.notes.isEmpty {
        ouds_cairo_pdf_surface_set_metadata(
          surface.handle, CAIRO_PDF_METADATA_SUBJECT,
          ControlCharacters.escaped(first.notes.joined(separator: " · ")))
      }
      do {
        let context = try CairoContext(surface: surface)
        for (index, page) in pages.enumerated() {
          ouds_cairo_pdf_surface_set_size(surface.handle, page.width, page.height)
          try draw(page, on: context, pixelsPerPoint: nil)
          ouds_cairo_show_page(context.handle)
          try context.check(stage: "drawing page \(index + 1) of the PDF document")
        }
      }
      try surface.finish(stage: "writing the PDF document")
    }
    return sink.data
  }

  /// Checks the canvas before anything is drawn: positive and finite; for bitmaps (`scale` > 0)
  /// within Cairo's largest image side; for SVG and PDF (`scale` 0) within
  /// ``GraphicsError/largestVectorSide`` points, where Cairo's coordinates are still exact.
  /// A PDF page (`pdf`) is also refused past ``GraphicsError/largestPDFPageSide``, the largest
  /// page PDF readers open.
  private func validateSize(_ scene: Scene, scale: Int, pdf: Bool = false) throws(GraphicsError) {
    let largest =
      scale == 0 ? GraphicsError.largestVectorSide : GraphicsError.largestBitmapSide
    let factor = Double(max(scale, 1))
    guard scene.width.isFinite, scene.height.isFinite, scene.width > 0, scene.height > 0,
      scene.width * factor <= largest, scene.height * factor <= largest
    else { throw .invalidCanvasSize(width: scene.width, height: scene.height, scale: scale) }
    if pdf,
      scene.width > GraphicsError.largestPDFPageSide
        || scene.height > GraphicsError.largestPDFPageSide
    {
      throw .pdfPageTooLarge(width: scene.width, height: scene.height)
    }
  }

  /// Draws `scene`: the background, the panels, the pictures, the insets (scaled and clipped to
  /// their source), then every row's glyph, ordered prefix and label, in order.
  ///
  /// `pixelsPerPoint` is the scale of a bitmap target, nil for vector output. An inset's
  /// background is painted over what is under it (its source rectangle only), not copied.
  private func draw(
    _ scene: Scene, on context: CairoContext, pixelsPerPoint: Int?, isInset: Bool = false
  ) throws(GraphicsError) {
    let cr = context.handle
    if let background = scene.background {
      ouds_cairo_save(cr)
      if !isInset { ouds_cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE) }
      setSource(cr, background)
      ouds_cairo_paint(cr)
      ouds_cairo_restore(cr)
    }
    for panel in scene.panels {
      if let fill = panel.fill {
        ouds_cairo_save(cr)
        ouds_cairo_rectangle(cr, panel.rect.x, panel.rect.y, panel.rect.width, panel.rect.height)
        setSource(cr, fill)
        ouds_cairo_fill(cr)
        ouds_cairo_restore(cr)
      }
      if let caption = panel.caption { draw(caption, on: cr) }
    }
    for (index, picture) in scene.pictures.enumerated() {
      try draw(picture, on: context, stage: "drawing picture \(index + 1)")
    }
    for inset in scene.insets where inset.scale > 0 && inset.scale.isFinite {
      ouds_cairo_save(cr)
      ouds_cairo_translate(cr, inset.origin.x, inset.origin.y)
      ouds_cairo_scale(cr, inset.scale, inset.scale)
      ouds_cairo_translate(cr, -inset.source.x, -inset.source.y)
      ouds_cairo_rectangle(
        cr, inset.source.x, inset.source.y, inset.source.width, inset.source.height)
      ouds_cairo_clip(cr)
      do {
        try draw(inset.scene, on: context, pixelsPerPoint: nil, isInset: true)
      } catch {
        ouds_cairo_restore(cr)
        throw error
      }
      ouds_cairo_restore(cr)
    }
    var icons = preloadedIcons
    var outlined: [String: IconImage] = [:]
    for row in scene.rows {
      try drawRow(
        row, on: context, pixelsPerPoint: pixelsPerPoint, icons: &icons, outlined: &outlined)
    }
  }

  /// Draws a row's glyph, ordered prefix and label; returns whether its underlines stayed above
  /// `underlineLimit` (see ``TextLayout/draw(on:x:y:color:underlineLimit:)``).
  @discardableResult
  private func drawRow(
    _ row: SceneRow, on context: CairoContext, pixelsPerPoint: Int?,
    icons: inout [String: IconImage], outlined: inout [String: IconImage],
    underlineLimit: Double = .infinity
  ) throws(GraphicsError) -> Bool {
    let cr = context.handle
    if let glyph = row.glyph, let rect = row.icon {
      switch glyph.content {
      case .shape(let shape):
        guard !shape.outline.paths.isEmpty else { throw .shapeWithoutOutline(name: shape.name) }
        fill(shape.outline, in: rect, tint: glyph.tint, on: cr)
      case .image(let file):
        let icon = try iconImage(
          file, in: rect, pixelsPerPoint: pixelsPerPoint, icons: &icons, outlined: &outlined)
        try icon.draw(on: context, in: rect, tint: glyph.tint, pixelsPerPoint: pixelsPerPoint)
      }
    }
    var fits = true
    if let marker = row.markerText, !draw(marker, on: cr, underlineLimit: underlineLimit) {
      fits = false
    }
    if !draw(row.text, on: cr, underlineLimit: underlineLimit) { fits = false }
    try context.check(stage: "drawing row \(row.path)")
    return fits
  }

  /// The icon drawn for `file` in `rect`: for a bitmap target and a square box, the outline
  /// read beforehand when there is one (another box letterboxes the view box, where the two
  /// transforms may round an edge pixel apart), else the file, loaded once.
  private func iconImage(
    _ file: String, in rect: Rect, pixelsPerPoint: Int?, icons: inout [String: IconImage],
    outlined: inout [String: IconImage]
  ) throws(GraphicsError) -> IconImage {
    if pixelsPerPoint != nil, rect.width == rect.height, let outline = iconOutlines[file] {
      let icon = outlined[file] ?? IconImage(path: file, outline: outline)
      outlined[file] = icon
      return icon
    }
    if let cached = icons[file] { return cached }
    let icon = try IconImage(path: file)
    icons[file] = icon
    return icon
  }

  /// ``drawInBands(_:scale:)`` and its encoding finished: the PNG file, or nil as that.
  func renderInBands(_ scene: Scene, scale: Int) throws(GraphicsError) -> Data? {
    try drawInBands(scene, scale: scale)?.finish()
  }

  /// Draws an opaque scene band by band (``BandedPNGEncoder``), each band encoded on the other
  /// core as soon as it is drawn: a few bands in memory instead of the whole bitmap, each still in
  /// the processor's cache when it is encoded. Every band is the same rows of the same drawing as
  /// the whole bitmap: a row is drawn in each band its drawing reaches (``bandExtent(of:scale:icons:outlined:)``),
  /// with the band's first pixel row as the device's origin, and the bytes are those of
  /// ``render(_:as:)``'s whole bitmap. Nil when the scene is drawn whole instead: no opaque
  /// background, panels or pictures (sheets), a bitmap icon (its scaled pixels may depend on the
  /// origin), a paragraph in several pieces, or an underline below where its row was expected to
  /// end. The encoder returned may still be encoding the last bands (``BandedPNGEncoder/finish()``).
  func drawInBands(_ scene: Scene, scale: Int, encodingThread: BandEncodingThread? = nil)
    throws(GraphicsError) -> BandedPNGEncoder?
  {
    guard PixelScale.supported.contains(scale), let background = scene.background,
      background.alpha == 255, scene.panels.isEmpty, scene.pictures.isEmpty, scene.insets.isEmpty
    else { return nil }
    try validateSize(scene, scale: scale)
    var icons = preloadedIcons
    var outlined: [String: IconImage] = [:]
    var extents: [(top: Int, bottom: Int, limit: Double)] = []
    extents.reserveCapacity(scene.rows.count)
    for row in scene.rows {
      guard
        let extent = try bandExtent(of: row, scale: scale, icons: &icons, outlined: &outlined)
      else { return nil }
      extents.append(extent)
    }
    let word = try paintedWord(background)
    guard word >> 24 == 0xFF,
      let encoder = BandedPNGEncoder(
        width: Self.pixels(scene.width, scale: scale),
        height: Self.pixels(scene.height, scale: scale), thread: encodingThread)
    else { return nil }
    var drawn = false
    defer { if !drawn { encoder.stop() } }
    let width = encoder.layout.width
    for band in 0..<encoder.bandCount {
      let rows = encoder.rows(ofBand: band)
      guard let pixels = encoder.beginBand(band) else { return nil }
      pixels.update(repeating: word, count: rows.count * width)
      let surface = try CairoSurface(
        taking: ouds_cairo_image_surface_create_for_data(
          UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self),
          CAIRO_FORMAT_ARGB32, Int32(width), Int32(rows.count), Int32(encoder.rowStride)),
        stage: "creating band \(band + 1) of the bitmap")
      ouds_cairo_surface_set_device_scale(surface.handle, Double(scale), Double(scale))
      ouds_cairo_surface_set_device_offset(surface.handle, 0, -Double(rows.lowerBound))
      let context = try CairoContext(surface: surface)
      var fits = true
      for (row, extent) in zip(scene.rows, extents)
      where extent.top < rows.upperBound && extent.bottom > rows.lowerBound {
        if try !drawRow(
          row, on: context, pixelsPerPoint: scale, icons: &icons, outlined: &outlined,
          underlineLimit: extent.limit)
        {
          fits = false
        }
      }
      ouds_cairo_surface_flush(surface.handle)
      try surface.check(stage: "drawing the bitmap")
      guard fits else { return nil }
      encoder.endBand(band)
    }
    drawn = true
    return encoder
  }

  /// The pixel rows `top..<bottom` a row's drawing can reach at `scale`, with a margin of two
  /// pixels (antialiasing, glyphs placed on whole pixels), and the lowest point in user space
  /// its underlines may reach; nil when that cannot be told beforehand (a paragraph in several
  /// pieces, a bitmap icon).
  private func bandExtent(
    of row: SceneRow, scale: Int, icons: inout [String: IconImage],
    outlined: inout [String: IconImage]
  ) throws(GraphicsError) -> (top: Int, bottom: Int, limit: Double)? {
    var top = Double.infinity
    var bottom = -Double.infinity
    if let glyph = row.glyph, let rect = row.icon {
      switch glyph.content {
      case .shape(let shape):
        guard !shape.outline.paths.isEmpty else { throw .shapeWithoutOutline(name: shape.name) }
        guard let span = outlineSpan(shape.outline, in: rect) else { break }
        top = min(top, span.top)
        bottom = max(bottom, span.bottom)
      case .image(let file):
        // drawn through a mask of the box's pixels, at a whole pixel
        let icon = try iconImage(
          file, in: rect, pixelsPerPoint: scale, icons: &icons, outlined: &outlined)
        guard !icon.isBitmap else { return nil }
        top = min(top, rect.y)
        bottom = max(bottom, rect.y + rect.height)
      }
    }
    for text in [row.markerText, row.text].compactMap({ $0 }) {
      let layout = textEngine.layout(
        text.content, wrapWidth: text.wrapWidth, alignment: text.alignment)
      guard let ink = layout.paintedExtent else { return nil }
      top = min(top, text.origin.y + ink.top)
      bottom = max(bottom, text.origin.y + ink.bottom)
    }
    guard top <= bottom else { return (0, 0, -.infinity) }  // nothing drawn
    let margin = 2.0
    let topPixel = (top * Double(scale) - margin).rounded(.down)
    let bottomPixel = (bottom * Double(scale) + margin).rounded(.up)
    guard topPixel.isFinite, bottomPixel.isFinite else { return nil }
    let (first, end) = (max(-1, min(topPixel, 1e9)), max(-1, min(bottomPixel, 1e9)))
    return (Int(first), Int(end), end / Double(scale))
  }

  /// The vertical extent of `outline` filled into `rect` (as ``fillOutline(_:in:on:)`` places
  /// it): the lowest and highest of its points and curves' control points, which hold the curves;
  /// nil for an outline without points.
  private func outlineSpan(_ outline: VectorOutline, in rect: Rect) -> (
    top: Double, bottom: Double
  )? {
    let box = outline.viewBox
    let scale = min(rect.width / box.width, rect.height / box.height)
    let offset =
      rect.y + (scale == rect.height / box.height ? 0 : (rect.height - box.height * scale) / 2)
    var low = Double.infinity
    var high = -Double.infinity
    for path in outline.paths {
      for command in path.commands {
        switch command {
        case .move(let p), .line(let p):
          low = min(low, p.y)
          high = max(high, p.y)
        case .curve(let p, let c1, let c2):
          low = min(low, p.y, c1.y, c2.y)
          high = max(high, p.y, c1.y, c2.y)
        case .close:
          break
        }
      }
    }
    guard low <= high, scale.isFinite else { return nil }
    return (offset + (low - box.y) * scale, offset + (high - box.y) * scale)
  }

  /// Draws a picture's bitmap stretched over its rect; pixel for pixel (nearest neighbour) when
  /// one bitmap pixel is one device pixel, so a bitmap drawn at its own scale keeps its bytes.
  private func draw(_ picture: ScenePicture, on context: CairoContext, stage: String)
    throws(GraphicsError)
  {
    let image: RasterImage
    do {
      image = try PNGCodec.decode(picture.png)
    } catch {
      throw .png(error)
    }
    guard image.width > 0, image.height > 0, picture.rect.width > 0, picture.rect.height > 0 else {
      return
    }
    let surface = try PixelConversion.argb32Surface(of: image, stage: stage)
    let cr = context.handle
    ouds_cairo_save(cr)
    defer { ouds_cairo_restore(cr) }
    var deviceWidth = picture.rect.width
    var deviceHeight = picture.rect.height
    ouds_cairo_user_to_device_distance(cr, &deviceWidth, &deviceHeight)
    ouds_cairo_translate(cr, picture.rect.x, picture.rect.y)
    ouds_cairo_scale(
      cr, picture.rect.width / Double(image.width), picture.rect.height / Double(image.height))
    ouds_cairo_set_source_surface(cr, surface.handle, 0, 0)
    if let pattern = ouds_cairo_get_source(cr) {
      let exact =
        abs(deviceWidth - Double(image.width)) < 1e-6
        && abs(deviceHeight - Double(image.height)) < 1e-6
      ouds_cairo_pattern_set_filter(pattern, exact ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
      ouds_cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    }
    ouds_cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
    ouds_cairo_fill(cr)
    try context.check(stage: stage)
  }

  /// Fills an outline with `tint`, its view box fitted into `rect` (aspect kept, centred),
  /// each path with its own fill rule. Cairo keeps it a vector in SVG and PDF.
  private func fill(_ outline: VectorOutline, in rect: Rect, tint: RGBAColor, on cr: OpaquePointer)
  {
    setSource(cr, tint)
    fillOutline(outline, in: rect, on: cr)
  }

  /// Lays out a placed paragraph with the text engine and draws it at its origin; returns
  /// whether its underlines stayed above `underlineLimit`.
  @discardableResult
  private func draw(_ text: SceneText, on cr: OpaquePointer, underlineLimit: Double = .infinity)
    -> Bool
  {
    textEngine.layout(text.content, wrapWidth: text.wrapWidth, alignment: text.alignment)
      .draw(
        on: cr, x: text.origin.x, y: text.origin.y, color: text.content.appearance.color,
        underlineLimit: underlineLimit)
  }
}

/// Fills `outline` with the context's source, fitted into `rect` (aspect preserved, centred, as
/// an SVG view box is by default): a marker shape, or an icon drawn without librsvg.
func fillOutline(_ outline: VectorOutline, in rect: Rect, on cr: OpaquePointer) {
  let box = outline.viewBox
  let scaleX = rect.width / box.width
  let scaleY = rect.height / box.height
  let scale = min(scaleX, scaleY)
  ouds_cairo_save(cr)
  ouds_cairo_translate(
    cr, rect.x + (scale == scaleX ? 0 : (rect.width - box.width * scale) / 2),
    rect.y + (scale == scaleY ? 0 : (rect.height - box.height * scale) / 2))
  ouds_cairo_scale(cr, scale, scale)
  if box.x != 0 || box.y != 0 { ouds_cairo_translate(cr, -box.x, -box.y) }
  for path in outline.paths {
    ouds_cairo_new_path(cr)
    for command in path.commands {
      switch command {
      case .move(let p): ouds_cairo_move_to(cr, p.x, p.y)
      case .line(let p): ouds_cairo_line_to(cr, p.x, p.y)
      case .curve(let p, let c1, let c2): ouds_cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
      case .close: ouds_cairo_close_path(cr)
      }
    }
    ouds_cairo_set_fill_rule(
      cr, path.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    ouds_cairo_fill(cr)
  }
  ouds_cairo_restore(cr)
}

/// A picture drawn by ``SceneRenderer/start(_:as:encodingThread:)``: its bytes, or an opaque
/// PNG whose last bands the encoding thread may still be encoding.
package struct PendingPicture {
  private enum State {
    case done(Data)
    case encoding(BandedPNGEncoder, scene: Scene, scale: Int, renderer: SceneRenderer)
  }
  private let state: State

  fileprivate init(done data: Data) { state = .done(data) }

  fileprivate init(
    encoding encoder: BandedPNGEncoder, scene: Scene, scale: Int, renderer: SceneRenderer
  ) {
    state = .encoding(encoder, scene: scene, scale: scale, renderer: renderer)
  }

  /// The file's bytes, once every band is encoded (this thread encodes what is left). A
  /// picture whose encoder gave up (a pixel not opaque, igzip out of memory) is drawn again
  /// whole and encoded, with the renderer that started it, on this thread.
  /// - Throws: `GraphicsError` as ``SceneRenderer/render(_:as:)``.
  package func data() throws(GraphicsError) -> Data {
    switch state {
    case .done(let data):
      return data
    case .encoding(let encoder, let scene, let scale, let renderer):
      if let data = encoder.finish() { return data }
      return try renderer.renderWhole(scene, scale: scale)
    }
  }
}

/// A finished bitmap, owned alone: once drawn nothing else touches its pixels, so it may be
/// encoded on another thread while the drawing thread goes on with the next scene.
public final class DrawnBitmap: @unchecked Sendable {
  private let surface: CairoSurface

  init(surface: CairoSurface) {
    self.surface = surface
  }

  /// Encodes the bitmap as a PNG, straight from Cairo's rows (no intermediate copy).
  public func encodePNG() throws(GraphicsError) -> Data {
    try PNGCodec.encode(surface: surface)
  }
}
