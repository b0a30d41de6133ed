import Foundation
import PNG
import Primitives
import Scene
import Testing

@testable import Graphics

/// Icons are files a user hands in: they must not pull other files into a render, nor hang,
/// nor take unbounded memory or time.
@Suite("Hostile icons")
struct HostileIconTests {
  static let secret = "SECRET_TOKEN_42"
  let renderer: SceneRenderer
  let folder: URL

  init() throws {
    renderer = SceneRenderer(textEngine: try Fixtures.engine())
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-icons-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // Secrets beside the icons, in every form an SVG could pull in.
    try write(Self.secret + "\n", ".env")
    try write(Self.secret + "\n", "secret.txt")
    try PNGBytes.file([
      PNGBytes.header(width: 4, height: 4),
      PNGBytes.opaqueImageData(width: 4, height: 4, pixel: [255, 0, 0, 255]),
    ]).write(to: folder.appendingPathComponent("secret.png"))
    try write(
      """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">
        <defs><linearGradient id="grad"><stop offset="0" stop-color="#000"/></linearGradient>
        <mask id="m"><rect width="24" height="24" fill="#000"/></mask></defs>
        <rect id="shape" width="24" height="24"/><text id="t" y="20">\(Self.secret)</text>
      </svg>
      """, "secret.svg")
    try write("#probe { display: none; } rect { fill: black; }\n", "secret.css")
  }

  private func write(_ text: String, _ name: String) throws {
    try Data(text.utf8).write(to: folder.appendingPathComponent(name))
  }

  /// Writes an icon: a small probe square (which the secret CSS would hide) plus `body`.
  private func icon(_ name: String, _ body: String, prolog: String = "") throws -> String {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      \(prolog)
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
           xmlns:xi="http://www.w3.org/2001/XInclude" viewBox="0 0 24 24">
        <rect id="probe" x="2" y="2" width="6" height="6"/>
        \(body)
      </svg>
      """
    try write(text, name)
    return folder.appendingPathComponent(name).path
  }

  /// Every way found to reference a file beside the icon (relative, absolute, file: URL).
  private var references: [(name: String, body: String, prolog: String)] {
    let abs = folder.path
    return [
      (
        "xinclude-text",
        #"<text x="0" y="20" font-size="20"><xi:include href="secret.txt" parse="text"/></text>"#,
        ""
      ),
      (
        "xinclude-env",
        #"<text x="0" y="20" font-size="20"><xi:include href=".env" parse="text"/></text>"#, ""
      ),
      (
        "xinclude-file-url",
        #"<text x="0" y="20"><xi:include href="file://\#(abs)/secret.txt" parse="text"/></text>"#,
        ""
      ),
      ("xinclude-xml", #"<xi:include href="secret.svg"/>"#, ""),
      ("image-href", #"<image href="secret.png" x="0" y="0" width="24" height="24"/>"#, ""),
      ("image-xlink", #"<image xlink:href="secret.png" width="24" height="24"/>"#, ""),
      ("image-absolute", #"<image href="\#(abs)/secret.png" width="24" height="24"/>"#, ""),
      ("image-file-url", #"<image href="file://\#(abs)/secret.png" width="24" height="24"/>"#, ""),
      ("image-svg", #"<image href="secret.svg" width="24" height="24"/>"#, ""),
      ("use-external", #"<use href="secret.svg#shape"/>"#, ""),
      ("use-file-url", #"<use xlink:href="file://\#(abs)/secret.svg#shape"/>"#, ""),
      (
        "paint-server",
        #"<rect x="12" y="12" width="10" height="10" fill="url(secret.svg#grad)"/>"#, ""
      ),
      // librsvg draws an element whose mask cannot be found without the mask; the secret mask
      // hides everything, so loading it would erase this square.
      ("mask", #"<rect x="12" y="12" width="10" height="10" mask="url(secret.svg#m)"/>"#, ""),
      ("css-import", "<style>@import url(secret.css);</style>", ""),
      ("css-import-string", #"<style>@import "secret.css";</style>"#, ""),
      (
        "css-url",
        "<style>rect.x { fill: url(secret.svg#grad) }</style><rect class=\"x\" x=\"12\" y=\"12\" width=\"10\" height=\"10\"/>",
        ""
      ),
      ("xml-stylesheet", "", #"<?xml-stylesheet type="text/css" href="secret.css"?>"#),
      (
        "fe-image",
        #"<filter id="f"><feImage href="secret.png"/></filter><rect x="12" y="12" width="10" height="10" filter="url(#f)"/>"#,
        ""
      ),
      (
        "external-entity", #"<text x="0" y="20">&s;</text>"#,
        #"<!DOCTYPE svg [<!ENTITY s SYSTEM "secret.txt">]>"#
      ),
      (
        "external-entity-file-url", #"<text x="0" y="20">&s;</text>"#,
        #"<!DOCTYPE svg [<!ENTITY s SYSTEM "file://\#(abs)/secret.txt">]>"#
      ),
    ]
  }

  /// A 360×36 scene with the icon at (10, 8, 20, 20) and a label.
  private func scene(icon path: String) -> Scene {
    Fixtures.scene(glyph: SceneGlyph(imageFile: path, tint: Fixtures.black))
  }

  /// The scene rendered in every format with `icon` loaded without the policy (librsvg alone).
  private func renders(_ path: String, enforcingPolicy: Bool) throws -> [Data] {
    let icon = try IconImage(path: path, enforcingPolicy: enforcingPolicy)
    renderer.preloadedIcons = [path: icon]
    defer { renderer.preloadedIcons = [:] }
    return try [OutputFormat.png(scale: 2), .svg, .pdf].map {
      try renderer.render(scene(icon: path), as: $0)
    }
  }

  /// What each reference draws when it loads nothing: the icon without the reference.
  private func inert(_ name: String) -> String {
    name == "mask" ? #"<rect x="12" y="12" width="10" height="10"/>"# : ""
  }

  @Test(
    "without a base location librsvg loads nothing beside the icon: every output equals the inert icon's"
  )
  func noBaseLocation() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let secretPNG = try Data(contentsOf: folder.appendingPathComponent("secret.png"))
      .base64EncodedString()
    for reference in references {
      let clean = try renders(
        try icon("inert-\(reference.name).svg", inert(reference.name)), enforcingPolicy: true)
      let path = try icon("\(reference.name).svg", reference.body, prolog: reference.prolog)
      let outputs: [Data]
      do {
        outputs = try renders(path, enforcingPolicy: false)
      } catch {
        // libxml2 refuses an entity it did not load: a refusal is fine, as long as it quotes no secret.
        #expect(reference.name.hasPrefix("external-entity"), "\(reference.name): \(error)")
        #expect(!"\(error)".contains(Self.secret))
        continue
      }
      // PNG pixels, SVG and PDF bytes: the same as with no reference at all.
      #expect(
        try PNGCodec.decode(outputs[0]) == PNGCodec.decode(clean[0]), "\(reference.name): PNG")
      #expect(outputs[1] == clean[1], "\(reference.name): SVG")
      #expect(outputs[2] == clean[2], "\(reference.name): PDF")
      for output in outputs {
        #expect(output.range(of: Data(Self.secret.utf8)) == nil, "\(reference.name)")
        #expect(output.range(of: Data(secretPNG.prefix(24).utf8)) == nil, "\(reference.name)")
      }
    }
  }

  @Test("the policy refuses every reference outside the icon, naming the file and the construct")
  func policyRefusesReferences() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var cases = references.map { ($0.name, $0.body, $0.prolog) }
    // Disguises: character references, spaces and quotes, upper case, CSS escapes, data: URLs.
    cases += [
      ("char-ref-href", #"<image href="&#115;ecret.png" width="24" height="24"/>"#, ""),
      (
        "hex-char-ref-data",
        #"<image href="&#x64;ata:image/png;base64,iVBORw0KGgo=" width="24" height="24"/>"#, ""
      ),
      ("data-svg-use", #"<use href="data:image/svg+xml,%3Csvg/%3E#a"/>"#, ""),
      ("spaced-url", #"<rect width="9" height="9" fill="url( 'secret.svg#grad' )"/>"#, ""),
      ("spaced-href", "<use href = \n 'secret.svg#shape'/>", ""),
      ("upper-import", "<style>@IMPORT url(secret.css);</style>", ""),
      ("css-escape", #"<rect width="9" height="9" style="fill: \75rl(secret.svg#grad)"/>"#, ""),
      (
        "entity-bomb", "<text>&b;</text>",
        #"<!DOCTYPE svg [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>"#
      ),
    ]
    for (name, body, prolog) in cases {
      let path = try icon("\(name).svg", body, prolog: prolog)
      do {
        _ = try renderer.render(scene(icon: path), as: .svg)
        Issue.record("\(name): rendered")
      } catch {
        guard case .iconFileUnreadable(let file, let reason) = error else {
          Issue.record("\(name): \(error)")
          continue
        }
        #expect(file == path)
        #expect(reason.hasPrefix("contains "), "\(name): \(reason)")
        #expect(
          reason.hasSuffix(
            "an SVG icon may declare no entities, refer only to its own elements (#id) and hold no text (convert it to outlines)"
          ))
        #expect(!error.description.contains("\n"))
        #expect(error.description.hasPrefix("icon file could not be read: \(path): contains "))
      }
    }
  }

  @Test("text in an icon is refused, in any case and namespace: no theme font would draw it")
  func policyRefusesText() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, body, element) in [
      ("text", #"<text x="0" y="20">A</text>"#, "text"),
      ("namespaced", #"<svg:text xmlns:svg="http://www.w3.org/2000/svg">A</svg:text>"#, "svg:text"),
      ("tspan", #"<g><TSPAN>A</TSPAN></g>"#, "TSPAN"),
      ("textpath", ##"<textPath href="#probe">A</textPath>"##, "textPath"),
    ] {
      let path = try icon("\(name).svg", body)
      do {
        _ = try renderer.render(scene(icon: path), as: .png(scale: 1))
        Issue.record("\(name): rendered")
      } catch {
        #expect(
          error.description
            == "icon file could not be read: \(path): contains SVG text (<\(element)>), which no font of the theme would draw; an SVG icon may declare no entities, refer only to its own elements (#id) and hold no text (convert it to outlines)",
          "\(name)")
      }
    }
  }

  @Test("own references (#id), a public DOCTYPE and character references stay allowed")
  func policyAllowsOwnReferences() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try icon(
      "own.svg",
      """
      <defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient></defs>
      <use href="#probe" x="12"/><use xlink:href = '#probe' y="12"/>
      <rect x="12" y="12" width="6" height="6" fill="url( #g )"/><desc>&#65;&amp;&lt;text&gt;</desc>
      """,
      prolog:
        #"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">"#
    )
    let image = try PNGCodec.decode(renderer.render(scene(icon: path), as: .png(scale: 1)))
    // The icon box is (10, 8, 20, 20), 24 units → 20 points: the probe at units 2…8, its copies
    // at 14…20 (x) and 14…20 (y), the gradient square at 14…20: all four corners are inked.
    for (x, y) in [(14, 12), (25, 12), (14, 23), (24, 22)] {
      #expect(image.pixel(x: x, y: y).red == 0, "(\(x), \(y))")
    }
    #expect(image.pixel(x: 19, y: 17).red == 255)
  }

  @Test("icons at 40 different sub-pixel positions are each drawn where they belong")
  func subPixelPositions() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    // A 12×12-unit square in a 24-unit box: 10×10 points in the 20-point icon square.
    let path = try icon("square.svg", #"<rect x="6" y="6" width="12" height="12"/>"#)
    let one = Fixtures.scene(glyph: SceneGlyph(imageFile: path, tint: Fixtures.black))
    let rows = (0..<40).map { index in
      var row = one.rows[0]
      row.path = "items[\(index)]"
      row.icon = Rect(
        x: 10 + Double(index) * 0.0371, y: 8 + Double(index) * 36.023, width: 20, height: 20)
      row.text.content = Fixtures.text("")
      return row
    }
    let scene = Scene(
      width: 60, height: 40 * 36.023 + 36, direction: .ltr, theme: .orange, mode: .light,
      background: Fixtures.white, rows: rows)
    let image = try renderer.rasterize(scene, scale: 2)
    for (index, row) in rows.enumerated() {
      guard let rect = row.icon else { continue }
      // The probe (2…8 units) and the square (6…18 units), in pixels at scale 2.
      let left = (rect.x + 2 * 20 / 24) * 2
      let right = (rect.x + 18 * 20 / 24) * 2
      let top = (rect.y + 2 * 20 / 24) * 2
      let bottom = (rect.y + 18 * 20 / 24) * 2
      var inkLeft = Int.max
      var inkRight = Int.min
      var inkTop = Int.max
      var inkBottom = Int.min
      for y in Int(top) - 3...Int(bottom) + 3 {
        for x in Int(left) - 3...Int(right) + 3 where image.pixel(x: x, y: y).red < 128 {
          inkLeft = min(inkLeft, x)
          inkRight = max(inkRight, x + 1)
          inkTop = min(inkTop, y)
          inkBottom = max(inkBottom, y + 1)
        }
      }
      // Where the ink is: within half a pixel of the edges for the first 16 positions (drawn
      // exactly), and 1/8 pixel more for the others (rounded to a quarter pixel).
      let tolerance = index < 16 ? 0.5 : 0.625
      #expect(
        abs(Double(inkLeft) - left) <= tolerance && abs(Double(inkRight) - right) <= tolerance,
        "row \(index)")
      #expect(
        abs(Double(inkTop) - top) <= tolerance && abs(Double(inkBottom) - bottom) <= tolerance,
        "row \(index)")
    }
  }

  @Test("a PNG icon over its limits is refused with the file and the limit")
  func hugePNGIcon() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("huge.png").path
    try PNGBytes.file([
      PNGBytes.header(width: 65535, height: 65535, bitDepth: 1, colorType: 0),
      PNGBytes.chunk("IDAT", PNGBytes.zlibZeros(count: 100_000)),
    ]).write(to: URL(fileURLWithPath: path))
    #expect(
      throws: GraphicsError.iconFileUnreadable(
        path: path,
        reason: "PNG refused: the image is 65535×65535 pixels, over the limit of 4096 pixels a side"
      )
    ) { _ = try renderer.render(scene(icon: path), as: .png(scale: 1)) }
  }

  @Test("a <use> bomb stops at librsvg's reference limit with an error, not a crash")
  func useBomb() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var defs = #"<rect id="l0" width="1" height="1"/>"#
    for level in 1...7 {
      defs +=
        "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10)
        + "</g>"
    }
    let path = try icon("bomb.svg", "<defs>\(defs)</defs><use href=\"#l7\"/>")
    #expect(
      throws: GraphicsError.iconFileUnreadable(
        path: path, reason: "exceeded more than 500000 referenced elements")
    ) { _ = try renderer.render(scene(icon: path), as: .pdf) }
  }

  @Test("an 800 KB icon on 400 rows is drawn once: the PDF and SVG hold one copy of it")
  func iconDrawnOnce() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    // 4,000 triangles with their own opacity, about 800 KB.
    var body = ""
    var seed: UInt64 = 1
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 40) / Double(1 << 24) * 24
    }
    while body.utf8.count < 800_000 {
      body += String(
        format:
          "<path d=\"M%.3f %.3f L%.3f %.3f L%.3f %.3f L%.3f %.3f L%.3f %.3f Z\" fill-opacity=\"0.05\"/>\n",
        next(), next(), next(), next(), next(), next(), next(), next(), next(), next())
    }
    let path = try icon("big.svg", body)
    let iconBytes = try Data(contentsOf: URL(fileURLWithPath: path)).count
    let one = Fixtures.scene(glyph: SceneGlyph(imageFile: path, tint: Fixtures.orange))
    let rows = (0..<400).map { index in
      var row = one.rows[0]
      row.path = "items[\(index)]"
      row.icon = row.icon.map {
        Rect(x: $0.x, y: $0.y + Double(index) * 36, width: $0.width, height: $0.height)
      }
      row.text.origin.y += Double(index) * 36
      return row
    }
    let scene = Scene(
      width: 360, height: 14_400, direction: .ltr, theme: .orange, mode: .light,
      background: Fixtures.white, rows: rows)
    let pdf = try renderer.render(scene, as: .pdf)
    let svg = try renderer.render(scene, as: .svg)
    // One copy of the drawing (compressed in PDF); drawn per row it would be 400 copies.
    #expect(pdf.count < iconBytes * 2, "PDF \(pdf.count) bytes")
    #expect(svg.count < iconBytes * 4, "SVG \(svg.count) bytes")
    // Every row paints it: the SVG refers to the one drawing 400 times (a 14,400-point page, the
    // largest a PDF may have).
    var uses = 0
    var start = svg.startIndex
    while let found = svg.range(of: Data("<use ".utf8), in: start..<svg.endIndex) {
      uses += 1
      start = found.upperBound
    }
    #expect(uses >= 400)
  }

  @Test(
    "an icon whose drawing reaches past ±1,000,000 through relative steps, a transform or a CSS stroke is refused"
  )
  func farDrawingRefused() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    // Each number is within the policy's limit; the drawing is not. Cairo's fixed point used to
    // draw half of the first, none of the second, an invisible third, exit 0.
    let steps = String(repeating: " l 0 999999", count: 6)
    let bodies = [
      "relative.svg": "<path d=\"M0 0 L24 0 L12 999999\(steps) Z\"/>",
      "scaled.svg": #"<g transform="scale(1,300000)"><path d="M0 0 L24 0 L12 24 Z"/></g>"#,
      "stroked.svg": #"<path style="stroke:#000;stroke-width:1e30" d="M0 0 L24 0 L12 24 Z"/>"#,
    ]
    for (name, body) in bodies.sorted(by: { $0.key < $1.key }) {
      let path = try icon(name, body)
      #expect(throws: GraphicsError.self, "\(name)") {
        _ = try renderer.render(scene(icon: path), as: .png(scale: 2))
      }
      do {
        _ = try renderer.render(scene(icon: path), as: .svg)
      } catch {
        #expect("\(error)".contains("its drawing reaches beyond ±1,000,000 units"), "\(error)")
      }
    }
    // A transform that keeps the drawing near its box is drawn.
    let near = try icon("near.svg", #"<g transform="scale(2)"><path d="M0 0 L12 0 L6 12 Z"/></g>"#)
    _ = try renderer.render(scene(icon: near), as: .png(scale: 2))
  }
}
