import Foundation
import Primitives
import Testing

@testable import VectorAsset

/// The error a text gives when read as `format`, or nil when it is accepted.
private func refusal(_ text: String, _ format: VectorAssetFormat = .svg) -> String? {
  do {
    _ = try VectorAssetReader.outline(of: Array(text.utf8), format: format)
    return nil
  } catch {
    return error.description
  }
}

private func svg(
  _ body: String, root: String = "xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\""
) -> String {
  "<svg \(root)>\n\(body)\n</svg>\n"
}

private func vector(_ body: String, extra: String = "") -> String {
  """
  <vector xmlns:android="http://schemas.android.com/apk/res/android"
      android:width="24dp" android:height="24dp"
      android:viewportWidth="24" android:viewportHeight="24"\(extra)>
  \(body)
  </vector>

  """
}

@Suite("Asset files: what is accepted")
struct AssetAcceptedTests {
  typealias P = VectorPath.Point

  @Test(
    "an SVG of filled paths: view box, fill rules, fill=none paths skipped, comments and a declaration"
  )
  func svgSubset() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- a comment -->
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 28 28" width="24" height="24" fill="none">
        <path d="M0 0H4V4Z" fill="#000" fill-rule="evenodd"/>
        <path d="M1 1H2V2Z"/>
        <path id="a" d="M5 5L6 6" fill="black"></path>
      </svg>
      """
    let outline = try VectorAssetReader.outline(of: Array(text.utf8), format: .svg)
    #expect(outline.viewBox == Rect(x: -2, y: -2, width: 28, height: 28))
    // The root's fill="none" is inherited by the second path, which is not painted.
    #expect(outline.paths.count == 2)
    #expect(outline.paths[0].fillRule == .evenOdd)
    #expect(outline.paths[1].fillRule == .nonZero)
    #expect(outline.paths[1].commands == [.move(to: P(x: 5, y: 5)), .line(to: P(x: 6, y: 6))])
  }

  @Test("a VectorDrawable of filled paths: viewport, fill types, names")
  func vectorDrawableSubset() throws {
    let text = vector(
      """
        <path android:name="outer" android:pathData="M0,0h4v4z" android:fillColor="#FF000000" android:fillType="evenOdd"/>
        <path android:pathData="m1,1 1,0 0,1" android:fillColor="#000"/>
      """)
    let outline = try VectorAssetReader.outline(of: Array(text.utf8), format: .vectorDrawable)
    #expect(outline.viewBox == Rect(x: 0, y: 0, width: 24, height: 24))
    #expect(outline.paths.map(\.fillRule) == [.evenOdd, .nonZero])
    #expect(
      outline.paths[1].commands == [
        .move(to: P(x: 1, y: 1)), .line(to: P(x: 2, y: 1)), .line(to: P(x: 2, y: 2)),
      ])
  }

  @Test("the same outline as SVG and as VectorDrawable reads to the same value")
  func sameOutline() throws {
    let data = "M12 2L22 12L12 22L2 12Z M12 7L17 12L12 17L7 12Z"
    let a = try VectorAssetReader.outline(
      of: Array(svg("<path fill-rule=\"evenodd\" d=\"\(data)\"/>").utf8), format: .svg)
    let b = try VectorAssetReader.outline(
      of: Array(
        vector(
          "<path android:fillColor=\"#000000\" android:fillType=\"evenOdd\" android:pathData=\"\(data)\"/>"
        ).utf8),
      format: .vectorDrawable)
    #expect(a == b)
  }

  @Test("predefined entities and character references are decoded in attribute values")
  func references() throws {
    let outline = try VectorAssetReader.outline(
      of: Array(svg("<path d=\"M1&#32;1&#x20;L2 2\" fill=\"&#x23;000\"/>").utf8), format: .svg)
    #expect(outline.paths[0].commands.count == 2)
  }
}

@Suite("Asset files: what is refused, with the exact error")
struct AssetRefusedTests {
  @Test("strokes")
  func strokes() {
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" stroke=\"#000\"/>"))
        == "line 2: attribute stroke on <path> is not allowed: strokes are not supported (a marker is a filled outline: convert the stroke to a path)"
    )
    #expect(
      refusal(
        vector(
          "<path android:pathData=\"M0 0L1 1\" android:fillColor=\"#000\" android:strokeWidth=\"2\"/>"
        ), .vectorDrawable)
        == "line 4: attribute android:strokeWidth on <path> is not allowed: strokes are not supported (a marker is a filled outline: convert the stroke to a path)"
    )
  }

  @Test("gradients: elements, url() paints, aapt inline resources")
  func gradients() {
    #expect(
      refusal(svg("<linearGradient id=\"g\"/>\n<path d=\"M0 0L1 1\" fill=\"url(#g)\"/>"))
        == "line 2: element <linearGradient> is not allowed: gradients and patterns are not supported"
    )
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" fill=\"url(#g)\"/>"))
        == "line 2: attribute fill on <path> is not allowed: gradients, patterns and external references (url(…)) are not supported"
    )
    #expect(
      refusal(
        vector(
          """
          <path android:pathData="M0 0L1 1" android:fillColor="#000">
            <aapt:attr name="android:fillColor"><gradient android:type="linear"/></aapt:attr>
          </path>
          """), .vectorDrawable)
        == "line 5: element <aapt:attr> is not allowed: inline resources (aapt:attr, e.g. gradients) are not supported"
    )
  }

  @Test("external references: href, xlink:href, <use>, <image>, xi:include, resource colours")
  func externalReferences() {
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" href=\"other.svg\"/>"))
        == "line 2: attribute href on <path> is not allowed: external references are not supported")
    #expect(
      refusal(svg("<use xlink:href=\"file:///etc/passwd\"/>"))
        == "line 2: element <use> is not allowed: external references are not supported")
    #expect(
      refusal(svg("<image href=\"https://example.com/a.png\"/>"))
        == "line 2: element <image> is not allowed: external references are not supported")
    #expect(
      refusal(svg("<xi:include href=\"/etc/passwd\" parse=\"text\"/>"))
        == "line 2: element <xi:include> is not allowed: external references are not supported")
    #expect(
      refusal(
        svg(
          "",
          root:
            "xmlns=\"http://www.w3.org/2000/svg\" xmlns:xi=\"http://www.w3.org/2001/XInclude\" viewBox=\"0 0 24 24\""
        ))
        == "line 1: attribute xmlns:xi on <svg> is not allowed: no other namespace may be declared")
    #expect(
      refusal(
        vector("<path android:pathData=\"M0 0L1 1\" android:fillColor=\"@color/brand\"/>"),
        .vectorDrawable)
        == "line 4: attribute android:fillColor on <path> is not allowed: resource references are not supported (write a colour such as #000000)"
    )
  }

  @Test("text, scripts, styles, groups and transforms")
  func otherContent() {
    #expect(
      refusal(svg("<text x=\"0\" y=\"10\">Hello</text>"))
        == "line 2: element <text> is not allowed: text is not supported")
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\"/>Hello"))
        == "line 2: text \"Hello\" is not allowed (an asset file holds only elements)")
    #expect(
      refusal(svg("<script>alert(1)</script>"))
        == "line 2: element <script> is not allowed: scripts are not supported")
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" onclick=\"alert(1)\"/>"))
        == "line 2: attribute onclick on <path> is not allowed: scripts are not supported")
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" style=\"fill:red\"/>"))
        == "line 2: attribute style on <path> is not allowed: styles are not supported (use the fill and fill-rule attributes)"
    )
    #expect(
      refusal(svg("<g><path d=\"M0 0L1 1\"/></g>"))
        == "line 2: element <g> is not allowed: groups are not supported (put the paths directly in the root element)"
    )
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" transform=\"scale(2)\"/>"))
        == "line 2: attribute transform on <path> is not allowed: transforms are not supported (apply them to the path data)"
    )
    #expect(
      refusal(vector("<group android:rotation=\"45\"/>"), .vectorDrawable)
        == "line 4: element <group> is not allowed: groups are not supported (put the paths directly in the root element)"
    )
    #expect(
      refusal(
        vector(
          "<path android:pathData=\"M0 0L1 1\" android:fillColor=\"#000\"/>",
          extra: " android:autoMirrored=\"true\""), .vectorDrawable)
        == "line 3: attribute android:autoMirrored on <vector> is not allowed: mirroring is not supported (OUDS markers are never mirrored)"
    )
  }

  @Test("DOCTYPE, entities, CDATA and processing instructions")
  func markup() {
    let xxe = """
      <?xml version="1.0"?>
      <!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="&xxe;"/></svg>
      """
    #expect(
      refusal(xxe) == "line 2: <!DOCTYPE> is not allowed (no DTD, no entities in an asset file)")
    #expect(
      refusal(svg("<path d=\"M0 0&xxe;\"/>"))
        == "line 2: entity reference &xxe; is not allowed (only &lt; &gt; &amp; &quot; &apos; and &#…; character references)"
    )
    #expect(
      refusal(svg("<![CDATA[M0 0]]>"))
        == "line 2: CDATA section is not allowed (an asset file has no text)")
    #expect(
      refusal("<?xml-stylesheet href=\"a.css\"?>\n" + svg("<path d=\"M0 0L1 1\"/>"))
        == "line 1: processing instruction <?xml-stylesheet?> is not allowed")
    #expect(
      refusal("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + svg("<path d=\"M0 0L1 1\"/>"))
        == "line 1: encoding \"ISO-8859-1\" is not supported (use UTF-8)")
  }

  @Test("malformed XML, bad values and empty drawings")
  func malformed() {
    #expect(
      refusal("<svg viewBox=\"0 0 24 24\"><path d=\"M0 0L1 1\"/>")
        == "line 1: element <svg> is not closed")
    #expect(refusal(svg("<path d=\"M0 0L1 1\">")) == "line 3: </svg> closes <path> (line 2)")
    #expect(refusal(svg("<path d=\"M0 0L1 1\"></svg>")) == "line 2: </svg> closes <path> (line 2)")
    #expect(
      refusal(svg("<path d=\"M0 0\" d=\"M1 1\"/>")) == "line 2: attribute d appears twice on <path>"
    )
    #expect(
      refusal(svg("<path d=M0/>"))
        == "line 2: malformed XML: expected a quoted value for the attribute d, found 'M'")
    #expect(refusal("\u{1}" + svg("")) == "line 1: control character \\u{1} is not allowed in XML")
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\"/>", root: "xmlns=\"http://www.w3.org/2000/svg\""))
        == "line 1: <svg> has no viewBox (the shape's coordinate box, e.g. viewBox=\"0 0 24 24\")")
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\"/>", root: "viewBox=\"0 0 0 24\""))
        == "line 1: attribute viewBox on <svg> has the value \"0 0 0 24\": expected four numbers: min-x min-y width height, with a positive width and height"
    )
    #expect(
      refusal(svg("<path d=\"M0 0 L\"/>"))
        == "line 2: <path> d: expected a number, found the end (character 7)")
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" fill-rule=\"oddeven\"/>"))
        == "line 2: attribute fill-rule on <path> has the value \"oddeven\": expected nonzero or evenodd"
    )
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" fill=\"none\"/>"))
        == "line 1: draws nothing: no filled <path> inside <svg>")
    #expect(
      refusal(vector("<path android:pathData=\"M0 0L1 1\"/>"), .vectorDrawable)
        == "line 4: <path> has no android:fillColor (Android would not draw it)")
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\"/>"), .vectorDrawable)
        == "line 1: the root element is <svg>; an .xml asset is an Android <vector>")
    #expect(
      refusal(vector("<path android:pathData=\"M0 0L1 1\" android:fillColor=\"#000\"/>"), .svg)
        == "line 1: the root element is <vector>; an .svg asset starts with <svg>")
    // Control characters and long names are escaped and cut in messages.
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\" data-\(String(repeating: "x", count: 60))=\"1\"/>"))?
        .hasPrefix(
          "line 2: attribute data-\(String(repeating: "x", count: 35))… on <path> is not allowed")
        == true)
    #expect(
      refusal(svg("<path d=\"M0 0L1 1\"/>\u{1B}[31m"))
        == "line 2: control character \\u{1B} is not allowed in XML")
  }

  @Test("deep nesting is refused before it costs anything")
  func depth() {
    let deep = String(repeating: "<g>", count: 100) + String(repeating: "</g>", count: 100)
    #expect(refusal(svg(deep)) == "line 2: elements are nested deeper than 16 levels")
  }
}

@Suite("Asset files on disk: regular files only, size-capped")
struct AssetFileTests {
  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ouds-asset-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  private func refusal(path: String) -> String? {
    do {
      _ = try VectorAssetReader.outline(contentsOf: path)
      return nil
    } catch {
      return error.description
    }
  }

  @Test(
    "a huge file, a FIFO, a folder, a symbolic link, a missing file and another extension are refused"
  )
  func files() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = svg("<path d=\"M0 0L1 1\"/>")
    try Data(good.utf8).write(to: dir.appendingPathComponent("good.svg"))
    #expect(refusal(path: dir.appendingPathComponent("good.svg").path) == nil)

    let huge = svg("<path d=\"M0 0" + String(repeating: " L1 1", count: 60_000) + "\"/>")
    try Data(huge.utf8).write(to: dir.appendingPathComponent("huge.svg"))
    #expect(
      refusal(path: dir.appendingPathComponent("huge.svg").path)
        == "is \(huge.utf8.count) bytes; a marker asset may be at most 262144 bytes (256 KiB)")

    let fifo = dir.appendingPathComponent("fifo.svg").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(refusal(path: fifo) == "is a FIFO, not a regular file")

    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("folder.svg"), withIntermediateDirectories: false)
    #expect(
      refusal(path: dir.appendingPathComponent("folder.svg").path)
        == "is a folder, not a regular file")

    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("link.svg").path,
      withDestinationPath: dir.appendingPathComponent("good.svg").path)
    #expect(
      refusal(path: dir.appendingPathComponent("link.svg").path)
        == "is a symbolic link; a marker asset must be a regular file")

    #expect(refusal(path: dir.appendingPathComponent("missing.svg").path) == "file not found")
    #expect(refusal(path: "/dev/null.svg") == "file not found")
    #expect(
      refusal(path: dir.appendingPathComponent("good.png").path)
        == "is neither .svg nor .xml (a VectorDrawable)")

    try Data([0x3C, 0xFF, 0x3E]).write(to: dir.appendingPathComponent("binary.svg"))
    #expect(refusal(path: dir.appendingPathComponent("binary.svg").path) == "is not UTF-8 text")
  }

  @Test("a character device is refused without being read")
  func device() {
    // /dev/zero would never end if it were read; its name has no .svg, so read the bytes directly.
    do {
      _ = try AssetFile.read(path: "/dev/zero")
      Issue.record("/dev/zero was read")
    } catch {
      #expect(error.description == "is a character device, not a regular file")
    }
  }
}
