import BulletList
import Foundation
import Primitives
import Snapshot
import StrictJSON
import Testing
import Themes

@Suite("Catalogue: cases, variants, ids, filters, shards")
struct CatalogueTests {
  let catalogue: SnapshotCatalogue

  init() throws {
    catalogue = try SnapshotCatalogue(directory: Repo.snapshots)
  }

  @Test("a case without variants gives every theme × both modes at scale 2")
  func defaultVariants() throws {
    let sample = try #require(catalogue.cases.first { $0.name == "sample-3" })
    #expect(sample.variants.count == 8)
    #expect(
      Set(sample.references.map(\.id))
        == Set(
          ThemeName.allCases.flatMap { theme in
            ColorMode.allCases.map { "sample-3/\(theme.rawValue)-\($0.rawValue)@2x" }
          }))
    let reference = try #require(
      sample.references.first { $0.variant.theme == .orangeCompact && $0.variant.mode == .dark })
    #expect(reference.imagePath == "sample-3/orange-compact-dark@2x.png")
    #expect(reference.layoutPath == "sample-3/orange-compact-dark.layout.json")
  }

  @Test("variant groups: text style, locale and scale get readable suffixes")
  func variantSuffixes() throws {
    let ids = Set(catalogue.references.map(\.id))
    #expect(ids.contains("demo-unordered/sosh-dark-body-medium@2x"))
    #expect(ids.contains("demo-ordered/orange-light-body-large@2x"))
    #expect(ids.contains("demo-ordered/wireframe-dark-ar@2x"))
    #expect(ids.contains("sample-1/orange-light@1x"))
    #expect(ids.contains("sample-1/orange-light@3x"))
    let arabic = try #require(
      catalogue.references.first { $0.id == "demo-ordered/orange-light-ar@2x" })
    #expect(arabic.variant.options.locale == "ar")
    #expect(arabic.variant.options.resolvedDirection == .rtl)
    let medium = try #require(
      catalogue.references.first { $0.id == "demo-bare/orange-light-body-medium@2x" })
    #expect(medium.variant.options.textStyleOverride == .bodyMedium)
  }

  @Test(
    "the catalogue covers every theme, both modes, both text styles, the three list types and RTL")
  func coverage() throws {
    let references = catalogue.references
    #expect(Set(references.map(\.variant.theme)) == Set(ThemeName.allCases))
    #expect(Set(references.map(\.variant.mode)) == Set(ColorMode.allCases))
    for name in ["demo-bare", "demo-ordered", "demo-unordered"] {
      #expect(catalogue.cases.contains { $0.name == name }, "demo case \(name)")
    }
    #expect(references.contains { $0.variant.options.resolvedDirection == .rtl })
    let styles = Set(references.map { $0.variant.options.textStyleOverride ?? $0.list.textStyle })
    #expect(styles == Set(OUDSBulletList.TextStyle.allCases))
    #expect(Set(references.map(\.id)).count == references.count, "ids are unique")
    #expect(references.map(\.id) == references.map(\.id).sorted(), "sorted by id")
  }

  @Test(
    "Android variants of the demo lists, LTR in both modes and RTL in light mode, and an Android case"
  )
  func platformVariants() throws {
    let references = catalogue.references
    for name in ["demo-bare", "demo-ordered", "demo-unordered"] {
      let mine = references.filter { $0.caseName == name }
      let android = mine.filter {
        $0.variant.options.platform == .android
          && ["android", "rtl-android"].contains($0.variant.suffix ?? "")
      }
      #expect(android.count == 12, "\(name)")
      // the accessibility text sizes: Android's font scale 1.5 and 2, iOS's accessibility3 and
      // accessibility5, in every theme, light mode
      for (suffix, platform) in [
        ("font-scale-1.5-android", Platform.android), ("font-scale-2-android", .android),
        ("accessibility3", .ios), ("accessibility5", .ios),
      ] {
        let sized = mine.filter { $0.variant.suffix == suffix }
        #expect(sized.count == 4, "\(name) \(suffix)")
        #expect(
          sized.allSatisfy { $0.variant.mode == .light && $0.variant.options.platform == platform })
      }
      #expect(
        android.filter { $0.variant.suffix == "android" }.allSatisfy {
          $0.variant.options.resolvedDirection == .ltr
        })
      let rtl = android.filter { $0.variant.suffix == "rtl-android" }
      #expect(
        rtl.count == 4
          && rtl.allSatisfy { $0.variant.mode == .light && $0.variant.options.direction == .rtl })
      // The iOS references keep their ids: no platform in their names.
      #expect(
        mine.filter { $0.variant.options.platform == .ios }.allSatisfy {
          !$0.id.contains("android")
        })
    }
    let ordered = try #require(
      references.first { $0.id == "demo-ordered/orange-light-rtl-android@2x" })
    #expect(ordered.imagePath == "demo-ordered/orange-light-rtl-android@2x.png")
    // A case whose list says "platform": "android" is Android in every variant, without a suffix.
    let rich = try #require(catalogue.cases.first { $0.name == "android-rich-text" })
    #expect(rich.document.platform == .android)
    #expect(
      rich.variants.count == 8
        && rich.variants.allSatisfy { $0.options.platform == .android && $0.suffix == nil })
  }

  @Test("the platform key of a variant group: one, an array or all; iOS keeps the plain suffix")
  func platformKey() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"],
      variants: [
        "sample-2":
          #"[{ "themes": ["sosh"], "modes": ["dark"], "platform": "all" }, { "name": "narrow", "width": 200, "themes": ["sosh"], "modes": ["dark"], "platform": ["android"] }]"#
      ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalogue = try SnapshotCatalogue(directory: folder)
    #expect(
      catalogue.references.map(\.id) == [
        "sample-2/sosh-dark-android@2x", "sample-2/sosh-dark-narrow-android@2x",
        "sample-2/sosh-dark@2x",
      ])
    #expect(catalogue.references.map(\.variant.options.platform) == [.android, .android, .ios])
  }

  @Test("a locale variant is read from the document when the variant does not set one")
  func documentLocale() throws {
    let arabic = try #require(catalogue.cases.first { $0.document.locale == "ar" })
    #expect(arabic.variants.allSatisfy { $0.options.locale == "ar" && $0.suffix == nil })
  }

  @Test("filters: substring, glob on the whole id, a whole id exactly, comma-separated")
  func filters() throws {
    let sample3 = catalogue.select(filter: try SnapshotFilter("sample-3")).map(\.id)
    #expect(sample3.allSatisfy { $0.contains("sample-3") })
    #expect(sample3.count == 24)  // sample-3, sample-3.1, sample-3.2
    let glob = catalogue.select(filter: try SnapshotFilter("sample-3/*")).map(\.id)
    #expect(glob.count == 8)
    let exact = catalogue.select(filter: try SnapshotFilter("sample-3/sosh-dark@2x")).map(\.id)
    #expect(exact == ["sample-3/sosh-dark@2x"])
    // A whole id selects that reference only, though another case's id ends with it.
    #expect(catalogue.references.contains { $0.id == "android-rich-text/orange-light@2x" })
    let whole = catalogue.select(filter: try SnapshotFilter("rich-text/orange-light@2x")).map(\.id)
    #expect(whole == ["rich-text/orange-light@2x"])
    let part = catalogue.select(filter: try SnapshotFilter("rich-text/orange-light")).map(\.id)
    #expect(Set(part) == ["rich-text/orange-light@2x", "android-rich-text/orange-light@2x"])
    for pattern in [
      "rich-text/orange-light@x", "rich-text/orange-light@2", "/orange-light@2x", "a/b/c@2x",
      "-x/a@2x",
    ] {
      #expect(!SnapshotFilter.isWholeID(pattern), "\(pattern)")
    }
    #expect(SnapshotFilter.isWholeID("sample-1.1/orange-compact-dark-body-medium@3x"))
    let two = catalogue.select(
      filter: try SnapshotFilter("sample-2/orange-light@2x, sample-3/*-dark@2x"))
    #expect(two.count == 5)
    #expect(throws: SnapshotError.self) { try SnapshotFilter(" , ") }
  }

  @Test(
    "shards split deterministically and together cover every reference exactly once",
    arguments: 1...6)
  func shards(count: Int) throws {
    let all = catalogue.references.map(\.id)
    var seen: [String] = []
    var sizes: [Int] = []
    for index in 1...count {
      let shard = try SnapshotShard(index: index, count: count)
      let part = catalogue.select(shard: shard).map(\.id)
      #expect(
        part == catalogue.select(shard: try SnapshotShard(parsing: "\(index)/\(count)")).map(\.id))
      seen += part
      sizes.append(part.count)
    }
    #expect(seen.count == all.count)
    #expect(Set(seen) == Set(all))
    #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
  }

  @Test("bad shards are errors naming the value")
  func badShards() {
    for text in ["0/4", "5/4", "2", "a/b", "1/0"] {
      #expect(throws: SnapshotError.self) { try SnapshotShard(parsing: text) }
    }
    #expect(throws: SnapshotError.shardOutOfRange(index: 5, count: 4)) {
      try SnapshotShard(parsing: "5/4")
    }
    #expect(
      "\(SnapshotError.shardOutOfRange(index: 5, count: 4))"
        == "--shard must be i/n with 1 ≤ i ≤ n, got 5/4")
    #expect(throws: SnapshotError.malformedShard("a/b")) { try SnapshotShard(parsing: "a/b") }
    #expect(
      "\(SnapshotError.malformedShard("a\u{1B}/b"))"
        == #"--shard must be i/n (e.g. 2/4), got "a\u{1B}/b""#)
    #expect(throws: SnapshotError.emptyFilter(" , ")) { try SnapshotFilter(" , ") }
  }

  @Test("variant errors name the case file and the JSON path")
  func variantErrors() throws {
    let cases: [(String, String)] = [
      (
        #"{ "themes": ["pink"] }"#,
        #"cases/sample-2.json: variants.themes: unknown theme "pink" (known: orange, orange-compact, sosh, wireframe)"#
      ),
      (
        #"[{}, { "colour": 1 }]"#, #"cases/sample-2.json: variants[1].colour: unknown key "colour""#
      ),
      (
        #"[{}, { "modes": ["light"] }]"#,
        "cases/sample-2.json: variants[1]: variant orange-light@2x is already produced by variants[0]"
      ),
      (#"{ "scale": 7 }"#, "cases/sample-2.json: variants.scale: expected a scale 1, 2 or 3"),
      (
        #"{ "scale": 4 }"#,
        "cases/sample-2.json: variants.scale: expected a scale 1, 2 or 3 (or an array of them)"
      ),
      (
        #"{ "textStyle": "bodySmall" }"#,
        #"cases/sample-2.json: variants.textStyle: unknown text style "bodySmall" (known: bodyLarge, bodyMedium)"#
      ),
      (
        #"{ "textStyle": 1 }"#,
        #"cases/sample-2.json: variants.textStyle: expected "bodyLarge" or "bodyMedium", found a number"#
      ),
      (
        #"{ "direction": "up" }"#,
        #"cases/sample-2.json: variants.direction: unknown direction "up" (known: ltr, rtl)"#
      ),
      (
        #"{ "modes": ["Dusk\u001b[31m"] }"#,
        #"cases/sample-2.json: variants.modes: unknown mode "Dusk\u{1B}[31m" (known: light, dark)"#
      ),
      (
        #""all""#,
        "cases/sample-2.json: variants: expected an object or an array of objects, found a string"
      ),
      (
        #"{ "platform": "web" }"#,
        #"cases/sample-2.json: variants.platform: unknown platform "web" (known: ios, android)"#
      ),
      (
        #"[{}, { "platform": ["ios", "android"] }]"#,
        "cases/sample-2.json: variants[1]: variant orange-light@2x is already produced by variants[0]"
      ),
    ]
    for (variants, message) in cases {
      let folder = try makeSnapshotsFolder(cases: ["sample-2"], variants: ["sample-2": variants])
      defer { try? FileManager.default.removeItem(at: folder) }
      // The broken case is reported, not thrown: the other cases of the folder still run.
      let catalogue = try SnapshotCatalogue(directory: folder)
      #expect(catalogue.cases.isEmpty)
      #expect(catalogue.brokenCases.map(\.id) == ["sample-2/(case file)"])
      let error = try #require(catalogue.brokenCases.first, "no error for \(variants)")
      #expect(error.message.hasPrefix(message), "\(error)")
    }
  }

  @Test("a named variant with one theme, one mode and two scales")
  func namedVariant() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"],
      variants: [
        "sample-2":
          #"[{ "themes": ["sosh"], "modes": ["dark"] }, { "name": "narrow", "width": 200, "themes": ["sosh"], "modes": ["dark"], "scale": [1, 2] }]"#
      ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalogue = try SnapshotCatalogue(directory: folder)
    #expect(
      catalogue.references.map(\.id) == [
        "sample-2/sosh-dark-narrow@1x", "sample-2/sosh-dark-narrow@2x", "sample-2/sosh-dark@2x",
      ])
    #expect(catalogue.references[0].variant.options.width == 200)
    #expect(catalogue.references[0].layoutPath == catalogue.references[1].layoutPath)
  }

  @Test("names in variants follow the one leniency rule; the same name twice counts once")
  func lenientNames() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"],
      variants: [
        "sample-2":
          #"{ "themes": ["Orange_Compact", "orange compact"], "modes": "Dark", "textStyle": "body-medium", "direction": "RTL" }"#
      ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalogue = try SnapshotCatalogue(directory: folder)
    #expect(catalogue.references.map(\.id) == ["sample-2/orange-compact-dark-body-medium-rtl@2x"])
    #expect(catalogue.references[0].variant.options.textStyleOverride == .bodyMedium)
  }

  @Test(
    "a case file is a list plus 'variants': list errors name the case file, the list keeps rejecting the key"
  )
  func caseFileSplit() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"], variants: ["sample-2": #"{ "themes": ["sosh"], "modes": ["dark"] }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalogue = try SnapshotCatalogue(directory: folder)
    #expect(catalogue.references.map(\.id) == ["sample-2/sosh-dark@2x"])
    // The same file handed to the list reader: `variants` is not a list key.
    let file = folder.appendingPathComponent("cases/sample-2.json").path
    #expect(throws: BulletListError.self) { try ListReader().read(file: file) }
    do {
      _ = try ListReader().read(file: file)
    } catch {
      #expect(
        error.description.hasPrefix("\(file): variants: unknown key \"variants\" (allowed: "),
        "\(error)")
    }
    // A list error in a case file names the case file relative to the snapshots folder.
    let broken = folder.appendingPathComponent("cases/sample-2.json")
    try Data(#"{ "variants": {}, "items": [{ "lable": "x" }] }"#.utf8).write(to: broken)
    let reread = try SnapshotCatalogue(directory: folder)
    #expect(
      reread.brokenCases.map(\.message) == [
        #"cases/sample-2.json: items[0].lable: unknown key "lable" (allowed: items, label, markdown, subListHasBoldText, subListTextStyle, subListType)"#
      ])
  }

  @Test(
    "case.schema.json: the list's keys plus variants, and the variant keys and names the catalogue reads"
  )
  func caseSchema() throws {
    let list = try JSONParser.parse(
      String(
        contentsOf: Repo.snapshots.appendingPathComponent("bullet-list.schema.json"),
        encoding: .utf8))
    let schema = try JSONParser.parse(
      String(contentsOf: Repo.snapshots.appendingPathComponent("case.schema.json"), encoding: .utf8)
    )
    func keys(_ value: JSONValue?) -> [String] {
      (value?["properties"]?.members ?? []).map(\.key).sorted()
    }
    #expect(keys(schema) == (keys(list) + ["variants"]).sorted())
    // Every list key of the case schema is the list schema's own definition.
    for key in keys(list) where key != "$schema" {
      #expect(
        schema["properties"]?[key]?["$ref"]
          == .string("bullet-list.schema.json#/properties/\(key)"), "\(key)")
    }
    // The group keys are the ones the variant reader lists in its "unknown key" error.
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"], variants: ["sample-2": #"{ "nope": 1 }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    let message = try #require(try SnapshotCatalogue(directory: folder).brokenCases.first?.message)
    let start = try #require(message.range(of: "(allowed: "))
    let allowed = message[start.upperBound...].dropLast().components(separatedBy: ", ").sorted()
    let group = schema["$defs"]?["group"]
    #expect(keys(group) == allowed)
    func names(_ key: String) -> [String] {
      guard case .array(let choices)? = group?["properties"]?[key]?["oneOf"], choices.count > 1,
        case .array(let values)? = choices[1]["enum"]
      else { return [] }
      return values.compactMap {
        if case .string(let name) = $0 { return name } else { return nil }
      }
    }
    #expect(names("themes") == ThemeName.allCases.map(\.rawValue))
    #expect(names("modes") == ColorMode.allCases.map(\.rawValue))
    #expect(names("platform") == OUDSBulletList.Platform.allCases.map(\.rawValue))
  }
}
