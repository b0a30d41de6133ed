import BulletList
import Foundation
import Snapshot
import Testing

@Suite("Catalogue: Markdown cases")
struct MarkdownCaseTests {
  let catalogue: SnapshotCatalogue

  init() throws {
    catalogue = try SnapshotCatalogue(directory: Repo.snapshots)
  }

  @Test(
    "Markdown cases: the list from the .md file, its variants from the front matter, or the default matrix"
  )
  func markdownCases() throws {
    let onboarding = try #require(catalogue.cases.first { $0.name == "onboarding" })
    #expect(onboarding.file.lastPathComponent == "onboarding.md")
    #expect(onboarding.variants.count == 8)
    #expect(onboarding.document.list.type == .unordered(asset: .tick, isBranded: true))
    #expect(onboarding.document.list.items.count == 4)
    #expect(onboarding.document.list.items[1].subListType == .bare)
    #expect(onboarding.document.itemLines["items[1].items[1]"] == 11)
    let ordered = try #require(catalogue.cases.first { $0.name == "markdown-ordered" })
    #expect(ordered.document.list.type == .ordered)
    #expect(ordered.document.list.items[0].subItems[1].subItems.count == 2, "three levels")
    #expect(
      ordered.references.map(\.id).filter { $0.contains("android") }.sorted() == [
        "markdown-ordered/orange-light-android@2x", "markdown-ordered/sosh-light-android@2x",
      ])
    #expect(ordered.variants.count == 10)
  }

  @Test(
    "a .md case: its variants' and list's errors name the case file; a .md and a .json of one name collide"
  )
  func markdownCaseErrors() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-2"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try Data("---\n{\"variants\": {\"themes\": \"pink\"}}\n---\n- a\n".utf8).write(
      to: cases.appendingPathComponent("bad-variants.md"))
    try Data("---\n{\"isBold\": false}\n---\n- a\n\n# heading\n".utf8).write(
      to: cases.appendingPathComponent("heading.md"))
    try Data("- a\n".utf8).write(to: cases.appendingPathComponent("sample-2.md"))
    try Data(
      "---\n{\"variants\": {\"themes\": [\"sosh\"], \"modes\": [\"dark\"]}}\n---\n1. a\n".utf8
    ).write(to: cases.appendingPathComponent("good.md"))
    let read = try SnapshotCatalogue(directory: folder)
    #expect(read.cases.map(\.name) == ["good", "sample-2"])
    #expect(read.references.filter { $0.caseName == "good" }.map(\.id) == ["good/sosh-dark@2x"])
    #expect(
      read.brokenCases.map(\.message) == [
        #"cases/bad-variants.md: variants.themes: unknown theme "pink" (known: orange, orange-compact, sosh, wireframe)"#,
        "cases/heading.md: line 6: a heading is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)",
        "cases/sample-2.md: the case name is also the name of cases/sample-2.json; rename one",
      ])
  }

  @Test("a .md case that its platform's rules refuse at render time names the item's line")
  func renderErrorLine() throws {
    let folder = try makeSnapshotsFolder(cases: ["sample-2"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    let text =
      "---\n{\"isBold\": true, \"variants\": {\"themes\": [\"orange\"], \"modes\": [\"light\"]}}\n---\n- a\n- b **c**\n"
    try Data(text.utf8).write(to: cases.appendingPathComponent("bold.md"))
    let verifier = try engine(snapshots: folder)
    let report = try verifier.verify(verifier.catalogue.references.filter { $0.caseName == "bold" })
    #expect(
      report.outcomes.map(\.message) == [
        #"cannot render: line 5: items[1]: rich text is allowed only when the text is not bold: the front matter sets "isBold": true; remove it (Markdown text is regular unless the front matter makes it bold)"#
      ])
  }
}
