import Foundation
import Primitives
import Scene
import Testing
import Themes

@testable import Graphics
@testable import PNG

/// `render` draws an opaque list band by band (`BandedPNGEncoder`): a row is drawn into every
/// band its drawing reaches, each band with its first pixel row as the device's origin. A row
/// missed by a band, a band origin that moves a glyph or an edge, or a band encoded before it is
/// drawn would change pixels: the file must be the finished bitmap's, byte for byte.
@Suite("Drawing in bands")
struct BandedRenderingTests {
  let renderer: SceneRenderer

  init() throws {
    renderer = SceneRenderer(textEngine: try Fixtures.engine())
  }

  /// Noise and flat colour, deterministic: every segment has something to compare.
  private static func pixel(_ x: Int, _ y: Int) -> UInt32 {
    if (y / 37) % 3 == 0 { return 0xFFF4_6E1E }
    var state = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
    state = state &* 1_103_515_245 &+ 12345
    return 0xFF00_0000 | (state >> 8)
  }

  /// The picture `width`×`height` drawn band by band into `encoder` (``pixel(_:_:)``).
  private static func drawBands(_ encoder: BandedPNGEncoder) -> Data? {
    drawAllBands(encoder) ? encoder.finish() : nil
  }

  /// Draws every band of ``pixel(_:_:)`` into `encoder` without finishing it; false when a
  /// band was refused.
  private static func drawAllBands(_ encoder: BandedPNGEncoder) -> Bool {
    let width = encoder.layout.width
    for band in 0..<encoder.bandCount {
      let rows = encoder.rows(ofBand: band)
      guard let pixels = encoder.beginBand(band) else { return false }
      for y in rows {
        for x in 0..<width { pixels[(y - rows.lowerBound) * width + x] = pixel(x, y) }
      }
      encoder.endBand(band)
    }
    return true
  }

  /// The same picture as one bitmap, encoded whole.
  private static func wholeEncoding(width: Int, height: Int) throws -> Data {
    let words = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
    defer { words.deallocate() }
    for y in 0..<height {
      for x in 0..<width { words[y * width + x] = pixel(x, y) }
    }
    let bitmap = ARGB32Bitmap(
      data: UnsafeMutableRawPointer(words).assumingMemoryBound(to: UInt8.self), width: width,
      height: height, stride: width * 4)
    return try PNGEncoder.encode(bitmap, workers: 1)
  }

  @Test(
    "bands encoded by 1 or 2 workers give the bytes of the whole bitmap, whatever the height",
    arguments: [(300, 1100), (1080, 2160), (64, 1), (64, 79), (64, 80), (64, 81), (777, 413)])
  func encoderBytes(width: Int, height: Int) throws {
    let expected = try Self.wholeEncoding(width: width, height: height)
    for workers in [1, 2] {
      let encoder = try #require(BandedPNGEncoder(width: width, height: height, workers: workers))
      #expect(encoder.bandCount == (height + encoder.bandRows - 1) / encoder.bandRows)
      #expect(try #require(Self.drawBands(encoder)) == expected, "\(workers) workers")
      encoder.stop()
    }
  }

  @Test(
    "pictures sharing one encoding thread, each finished after the next is drawn, give the bytes of their whole bitmaps"
  )
  func sharedThread() throws {
    let sizes = [(300, 1100), (1080, 2160), (64, 1), (777, 413), (64, 81)]
    let expected = try sizes.map { try Self.wholeEncoding(width: $0.0, height: $0.1) }
    for workers in [1, 2] {
      let thread = BandEncodingThread(workers: workers)
      var files: [Data?] = []
      var inFlight: BandedPNGEncoder?
      for (width, height) in sizes {
        // drawn while the encoding thread may still be on the picture before
        let encoder = try #require(
          BandedPNGEncoder(width: width, height: height, thread: thread))
        #expect(Self.drawAllBands(encoder))
        if let earlier = inFlight { files.append(earlier.finish()) }
        inFlight = encoder
      }
      files.append(inFlight?.finish())
      thread.close()
      #expect(files == expected.map { Optional($0) }, "\(workers) workers")
    }
  }

  @Test("closing the encoding thread with pictures left: their finish encodes the rest")
  func closedWithPicturesLeft() throws {
    let expected = try Self.wholeEncoding(width: 1080, height: 2160)
    let thread = BandEncodingThread()
    let first = try #require(BandedPNGEncoder(width: 1080, height: 2160, thread: thread))
    let second = try #require(BandedPNGEncoder(width: 1080, height: 2160, thread: thread))
    #expect(Self.drawAllBands(first))
    thread.close()
    #expect(Self.drawAllBands(second))
    #expect(first.finish() == expected)
    #expect(second.finish() == expected)
  }

  @Test("a translucent pixel in a band gives no file: the caller draws the picture whole")
  func translucent() throws {
    for workers in [1, 2] {
      let encoder = try #require(BandedPNGEncoder(width: 200, height: 900, workers: workers))
      var refused = false
      for band in 0..<encoder.bandCount {
        guard let pixels = encoder.beginBand(band) else {
          refused = true
          break
        }
        let count = encoder.rows(ofBand: band).count * 200
        pixels.update(repeating: 0xFFFF_FFFF, count: count)
        if band == 1 { pixels[17] = 0x8040_2010 }
        encoder.endBand(band)
      }
      if !refused { #expect(encoder.finish() == nil) }
      encoder.stop()
    }
  }

  @Test("an encoder stopped after some bands leaves no thread waiting")
  func stoppedEarly() throws {
    let encoder = try #require(BandedPNGEncoder(width: 64, height: 5000))
    for band in 0..<4 {
      let pixels = try #require(encoder.beginBand(band))
      pixels.update(repeating: 0xFF00_00FF, count: encoder.rows(ofBand: band).count * 64)
      encoder.endBand(band)
    }
    encoder.stop()
    #expect(encoder.beginBand(4) == nil)
  }

  // MARK: - Scenes

  private static let latin = "Ÿ Ÿ ÉÅÇ gjpqy Ǻ ſ quick brown fox jumps"
  private static let arabic = "قائمة نقطية مع نص طويل يلتف على عدة أسطر"

  /// `count` rows at fractional positions, so that rows straddle band edges at every phase:
  /// marker shapes of every theme, labels with accents above capitals and descenders, bold,
  /// italic and underlined spans, Arabic, and ordered prefixes.
  private static func scene(count: Int, background: RGBAColor? = Fixtures.white) throws -> Scene {
    var shapes: [MarkerShape] = []
    for theme in ThemeName.allCases {
      let markers = try Fixtures.markers(theme)
      shapes += [0, 1, 2].map { Fixtures.shape(markers.levels[level: $0]) }
      shapes.append(Fixtures.shape(markers.tick))
    }
    var rows: [SceneRow] = []
    var y = 3.37
    for index in 0..<count {
      let rtl = index % 5 == 3
      var text = Fixtures.text(
        rtl ? arabic : latin, size: index % 2 == 0 ? 16 : 14, lineHeight: index % 2 == 0 ? 24 : 21,
        weight: index % 3 == 0 ? 700 : 400, direction: rtl ? .rtl : .ltr,
        language: rtl ? "ar" : "en")
      if index % 6 == 5 {
        // a small label beside a large marker: the marker's outline reaches furthest
        text = Fixtures.text("small", size: 8, lineHeight: 9)
      } else if index % 4 == 1 {
        text.spans = [
          TextSpan("a link "), TextSpan("underlined ygq", underline: true),
          TextSpan(" and italic", italic: true),
        ]
      }
      let lines = 1 + index % 3
      let side = index % 6 == 5 ? 44.0 : 20
      let height = max(Double(lines) * text.appearance.lineHeight, side + 4)
      let icon = Rect(x: rtl ? 330 : 10, y: y + 2.19, width: side, height: side)
      let marker: String? = index % 7 == 6 ? "\(index + 1)." : nil
      rows.append(
        SceneRow(
          path: "items[\(index)]", level: 0,
          marker: SceneMarker(kind: marker == nil ? .bullet : .ordered, text: marker, rect: icon),
          icon: marker == nil ? icon : nil,
          glyph: marker == nil
            ? SceneGlyph(shape: shapes[index % shapes.count], tint: Fixtures.orange) : nil,
          markerText: marker.map {
            SceneText(
              origin: Point(x: 4, y: y), wrapWidth: 30, alignment: .right,
              content: Fixtures.text($0, weight: 700))
          },
          label: Rect(x: 40, y: y, width: 280, height: height),
          text: SceneText(
            origin: Point(x: 40, y: y), wrapWidth: 280 / Double(lines) + 40,
            alignment: rtl ? .right : .left, content: text),
          lines: lines, firstBaseline: 17, accessibilityLabel: ""))
      y += height + 1.73
    }
    return Scene(
      width: 360, height: (y + 4).rounded(.up), direction: .ltr, theme: .orange, mode: .light,
      background: background, rows: rows)
  }

  @Test("a list drawn in bands is the finished bitmap's file, byte for byte", arguments: [1, 2, 3])
  func sceneBytes(scale: Int) throws {
    let scene = try Self.scene(count: 60)
    let whole = try renderer.draw(scene, scale: scale).encodePNG()
    let banded = try #require(try renderer.renderInBands(scene, scale: scale))
    #expect(banded == whole)
    #expect(try renderer.render(scene, as: .png(scale: scale)) == whole)
  }

  @Test("a row that reaches nowhere else still lands in the band it touches, at either edge")
  func rowsAtBandEdges() throws {
    // one small row placed across each of the first band edges, pixel by pixel
    let band = Double(try #require(BandedPNGEncoder(width: 1080, height: 2160)).bandRows)
    for scale in [2, 3] {
      for offset in stride(from: -30.0, through: 30.0, by: 3.5) {
        // a marker with its label, then a marker larger than its label
        for side in [20.0, 44] {
          var scene = try Self.scene(count: 1)
          let y = (band + offset) / Double(scale)
          scene.rows[0].icon = Rect(x: 10, y: y, width: side, height: side)
          scene.rows[0].text.origin.y = y + (side - 24) / 2
          if side > 20 {
            scene.rows[0].text.content = Fixtures.text("small", size: 8, lineHeight: 9)
          }
          scene.height = (band * 2 + 40) / Double(scale)
          let whole = try renderer.draw(scene, scale: scale).encodePNG()
          #expect(
            try renderer.renderInBands(scene, scale: scale) == whole,
            "scale \(scale), offset \(offset), marker \(side) pt")
        }
      }
    }
  }

  @Test("what bands cannot draw the same is drawn whole, and the file is still the bitmap's")
  func drawnWhole() throws {
    var cases: [(String, Scene)] = []
    cases.append(("no background", try Self.scene(count: 8, background: nil)))
    cases.append(
      (
        "translucent background",
        try Self.scene(count: 8, background: RGBAColor(red: 1, green: 2, blue: 3, alpha: 200))
      ))
    var panels = try Self.scene(count: 8)
    panels.panels = [
      ScenePanel(
        rect: Rect(x: 0, y: 0, width: 360, height: 40), fill: Fixtures.orange, caption: nil)
    ]
    cases.append(("a panel", panels))
    for (name, scene) in cases {
      #expect(try renderer.renderInBands(scene, scale: 2) == nil, "\(name)")
      #expect(
        try renderer.render(scene, as: .png(scale: 2))
          == renderer.draw(scene, scale: 2).encodePNG(), "\(name)")
    }
  }

  @Test("a label laid out in pieces is drawn whole (its ink is not measured)")
  func labelInPieces() throws {
    let engine = try Fixtures.engine()
    engine.layoutLimits = TextLayout.Limits(
      maxPieceBytes: 64, maxParagraphsPerPiece: 64, seamCharacters: 256)
    let pieces = SceneRenderer(textEngine: engine)
    var scene = try Self.scene(count: 6)
    scene.rows[4].text.content.spans = [TextSpan(String(repeating: "many words ", count: 30))]
    #expect(try pieces.renderInBands(scene, scale: 2) == nil)
    #expect(
      try pieces.render(scene, as: .png(scale: 2)) == pieces.draw(scene, scale: 2).encodePNG())
  }

  @Test("a PNG icon is drawn whole (its sampled pixels may depend on the band's origin)")
  func bitmapIcon() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("dot.png")
    var pixels = [UInt8](repeating: 0, count: 9 * 9 * 4)
    for index in stride(from: 3, to: pixels.count, by: 4) {
      pixels[index] = index % 7 == 0 ? 90 : 255
    }
    try PNGCodec.encode(RasterImage(width: 9, height: 9, pixels: pixels)).write(to: file)
    var scene = try Self.scene(count: 5)
    scene.rows[2].glyph = SceneGlyph(imageFile: file.path, tint: Fixtures.orange)
    #expect(try renderer.renderInBands(scene, scale: 3) == nil)
    #expect(
      try renderer.render(scene, as: .png(scale: 3)) == renderer.draw(scene, scale: 3).encodePNG())
  }

  @Test("an underline drawn lower than its row was expected to reach makes the scene drawn whole")
  func underlineLimit() throws {
    let engine = renderer.textEngine
    let text = StyledText(
      spans: [TextSpan("underlined", underline: true)], appearance: Fixtures.text("x").appearance,
      direction: .ltr)
    let layout = engine.layout(text, wrapWidth: 200, alignment: .left)
    let extent = try #require(layout.paintedExtent)
    let context = try CairoContext(surface: CairoSurface.bitmap(width: 220, height: 60))
    let cr = context.handle
    #expect(
      layout.draw(on: cr, x: 10, y: 10, color: Fixtures.black, underlineLimit: 10 + extent.bottom))
    #expect(!layout.draw(on: cr, x: 10, y: 10, color: Fixtures.black, underlineLimit: 10 + 15))
    #expect(extent.inkTop >= extent.top && extent.bottom > 16)
  }
}
