import Foundation
import Primitives
import Testing
import VectorAsset

@testable import Themes

/// Marker shapes are files under `markers/`, named by `components/bullet-list.spec.json`.
@Suite("Marker asset files of a themes folder")
struct MarkerAssetTests {
  private let spec = "components/bullet-list.spec.json"

  @Test("a theme reads the files its spec entry names; Orange Compact shares Orange's")
  func shipped() throws {
    let library = try Fixture.loadLibrary()
    let wireframe = try library.theme(.wireframe, mode: .dark).shapes
    #expect(
      wireframe.levels.values.map(\.name) == [
        "wireframe.sparkle", "wireframe.sparkle-thick-outline", "wireframe.sparkle-thin-outline",
      ])
    // The outline is the file's content: re-reading the file gives the same value.
    let path = Fixture.themesDirectory.appendingPathComponent("markers/wireframe/tick.svg").path
    #expect(wireframe.tick.outline == (try VectorAssetReader.outline(contentsOf: path)))
  }

  @Test("pointing the spec at a dropped-in VectorDrawable file is all it takes")
  func droppedIn() throws {
    let dir = try Fixture.modifiedCopy(
      of: spec,
      replacing: [("\"sosh/disc.svg\"", "\"sosh/ic_sosh_component_bullet_list_level0.xml\"")])
    try Data(
      """
      <vector xmlns:android="http://schemas.android.com/apk/res/android" android:width="24dp" android:height="24dp"
          android:viewportWidth="24" android:viewportHeight="24">
        <path android:pathData="M2,2h20v20h-20z" android:fillColor="#000000"/>
      </vector>
      """.utf8
    ).write(to: dir.appendingPathComponent("markers/sosh/ic_sosh_component_bullet_list_level0.xml"))
    let shapes = try ThemeLibrary(directory: dir).theme(.sosh, mode: .light).shapes
    #expect(shapes.levels[level: 0].name == "sosh.ic_sosh_component_bullet_list_level0")
    #expect(shapes.levels[level: 0].file == "sosh/ic_sosh_component_bullet_list_level0.xml")
    #expect(
      shapes.levels[level: 0].outline.paths.first?.commands.first
        == .move(to: VectorPath.Point(x: 2, y: 2)))
  }

  @Test("a missing file fails its themes only, naming the file and where the spec names it")
  func missingFile() throws {
    let dir = try Fixture.modifiedCopy(
      of: spec, replacing: [("\"sosh/tick.svg\"", "\"sosh/tick-official.xml\"")])
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.sosh, mode: .dark) }?.description
        == "markers/sosh/tick-official.xml: file not found (named by themes.sosh.tick in components/bullet-list.spec.json)"
    )
    #expect(throws: Never.self) { try library.theme(.orange, mode: .light) }
  }

  @Test("an asset with a stroke is refused with the file, the line and the attribute")
  func stroke() throws {
    let dir = try Fixture.modifiedCopy(
      of: "markers/orange/square.svg",
      replacing: [("<path ", "<path stroke=\"#000\" stroke-width=\"2\" ")])
    let library = try ThemeLibrary(directory: dir)
    let expected =
      "markers/orange/square.svg: line 2: attribute stroke on <path> is not allowed: strokes are not supported (a marker is a filled outline: convert the stroke to a path)"
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.orange, mode: .light) }?
        .description == expected)
    // Orange Compact names the same file.
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.orangeCompact, mode: .dark) }?
        .description == expected)
    #expect(throws: Never.self) { try library.theme(.sosh, mode: .light) }
  }

  @Test("an asset with an external reference is refused")
  func externalReference() throws {
    let dir = try Fixture.modifiedCopy(
      of: "markers/wireframe/sparkle.svg",
      replacing: [("<path ", "<image href=\"file:///etc/passwd\"/>\n  <path ")])
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.wireframe, mode: .light) }?
        .description
        == "markers/wireframe/sparkle.svg: line 2: element <image> is not allowed: external references are not supported"
    )
  }

  @Test("a FIFO in place of an asset is refused at once, without waiting for a writer")
  func fifo() throws {
    let dir = try Fixture.modifiedCopy(
      of: spec, replacing: [("\"sosh/pill.svg\"", "\"sosh/pipe.svg\"")])
    #expect(mkfifo(dir.appendingPathComponent("markers/sosh/pipe.svg").path, 0o600) == 0)
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.sosh, mode: .light) }?.description
        == "markers/sosh/pipe.svg: is a FIFO, not a regular file (named by themes.sosh.bullets[1] in components/bullet-list.spec.json)"
    )
  }

  @Test("file names outside markers/<folder>/ or of another kind are refused by the spec reader")
  func fileNames() throws {
    for (name, found) in [
      ("../../../etc/passwd.svg", "\"../../../etc/passwd.svg\""),
      ("/etc/hosts.xml", "\"/etc/hosts.xml\""),
      ("sosh/../sosh/disc.svg", "\"sosh/../sosh/disc.svg\""), ("disc.svg", "\"disc.svg\""),
      ("sosh/disc.png", "\"sosh/disc.png\""), ("sosh/.hidden.svg", "\"sosh/.hidden.svg\""),
      ("sosh/a\\u0007b.svg", "\"sosh/a\\u{7}b.svg\""),
    ] {
      let dir = try Fixture.modifiedCopy(
        of: spec, replacing: [("\"sosh/disc.svg\"", "\"\(name)\"")])
      let library = try ThemeLibrary(directory: dir)
      #expect(
        Fixture.error { () throws(ThemeError) in try library.theme(.sosh, mode: .light) }?
          .description
          == "components/bullet-list.spec.json: themes.sosh.bullets[0]: expected an asset file relative to markers/, as \"<folder>/<name>.svg\" or \"<folder>/<name>.xml\", found \(found)",
        "\(name)")
    }
  }

  @Test(
    "a version-1 spec file (shape names instead of files) is refused with a pointer to the new form"
  )
  func oldVersion() throws {
    let dir = try Fixture.modifiedCopy(of: spec, replacing: [("\"version\": 2", "\"version\": 1")])
    let library = try ThemeLibrary(directory: dir)
    #expect(
      Fixture.error { () throws(ThemeError) in try library.theme(.orange, mode: .light) }?
        .description
        == "components/bullet-list.spec.json: version: expected 2 (since version 2, bullets and tick name asset files under markers/, e.g. \"orange/square.svg\")"
    )
  }
}
