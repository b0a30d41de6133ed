import Foundation
import PNG
import Testing

/// A Markdown list with front matter, links, emphasis, three levels and a sub-list override…
let markdownTwin = """
  ---
  {
    "type": {"unordered": {"asset": "tick", "branded": true}},
    "isBold": false,
    "subLists": {"items[1]": {"textStyle": "bodyMedium"}}
  }
  ---
  - Create your **Orange** account
  - Choose a plan
    1. *Essential*, with [the details](https://example.com/essential)
    1. Premium
       - Unlimited calls
       - 5G included
  - Activate your SIM
  """

/// …and the same list in the JSON format.
let jsonTwin = """
  {
    "type": {"unordered": {"asset": "tick", "branded": true}},
    "isBold": false,
    "items": [
      {"markdown": "Create your **Orange** account"},
      {"label": "Choose a plan", "subListType": "ordered", "subListTextStyle": "bodyMedium", "items": [
        {"markdown": "*Essential*, with [the details](https://example.com/essential)"},
        {"label": "Premium", "subListType": {"unordered": {"branded": false}}, "items": [
          {"label": "Unlimited calls"}, {"label": "5G included"}]}]},
      {"label": "Activate your SIM"}
    ]
  }
  """

@Suite("Markdown lists on the command line")
struct MarkdownCLITests {
  @Test(
    "a Markdown list and its JSON twin lay out the same, in every theme, mode and platform, and draw the same PNG"
  )
  func twin() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let markdown = try write(markdownTwin, "onboarding.md", in: folder)
    let json = try write(jsonTwin, "onboarding.json", in: folder)
    let options = ["--theme", "all", "--mode", "all", "--platform", "all"]
    let fromMarkdown = try run(["layout", markdown] + options, in: folder)
    let fromJSON = try run(["layout", json] + options, in: folder)
    #expect(fromMarkdown.status == 0, "\(fromMarkdown.stderr)")
    #expect(fromJSON.status == 0, "\(fromJSON.stderr)")
    #expect(fromMarkdown.stdout.count > 10_000)
    #expect(fromMarkdown.stdout == fromJSON.stdout)
    // The scene holds what the Markdown says: a tick list, an ordered sub-list, rich text.
    #expect(fromMarkdown.stdout.contains("\"path\" : \"items[1].items[1].items[0]\""))
    #expect(fromMarkdown.stdout.contains("\"kind\" : \"tick\""))
    #expect(fromMarkdown.stdout.contains("\"text\" : \"B.\""))
    #expect(fromMarkdown.stdout.contains("https://example.com/essential"))

    let pngMarkdown = try run(
      ["render", markdown, "--theme", "sosh", "--mode", "dark", "-o", "md.png"], in: folder)
    let pngJSON = try run(
      ["render", json, "--theme", "sosh", "--mode", "dark", "-o", "json.png"], in: folder)
    #expect(
      pngMarkdown.status == 0 && pngJSON.status == 0, "\(pngMarkdown.stderr) \(pngJSON.stderr)")
    let drawn = try Data(contentsOf: folder.appendingPathComponent("md.png"))
    #expect(drawn.count > 1000)
    #expect(drawn == (try Data(contentsOf: folder.appendingPathComponent("json.png"))))
  }

  @Test("--input-format overrides the extension; an unknown format is a usage error")
  func inputFormat() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = try write("- One\n- Two\n", "list.txt", in: folder)
    let asMarkdown = try run(["layout", text, "--input-format", "markdown"], in: folder)
    #expect(asMarkdown.status == 0, "\(asMarkdown.stderr)")
    #expect(asMarkdown.stdout.contains("\"path\" : \"items[1]\""))
    let asJSON = try run(["layout", text], in: folder)
    #expect(asJSON.status == 1)
    #expect(asJSON.stderr == "error: \(text): malformed JSON at line 1, column 1: invalid number\n")
    let markdown = try write("- One\n", "list.md", in: folder)
    let forcedJSON = try run(["layout", markdown, "--input-format", "json"], in: folder)
    #expect(
      forcedJSON.stderr
        == "error: \(markdown): malformed JSON at line 1, column 1: invalid number\n")
    let unknown = try run(["layout", markdown, "--input-format", "yaml"], in: folder)
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("yaml"))
  }

  @Test(
    "errors name the file and the line: a refused construct, a fourth level, rich text in bold found at render time"
  )
  func errors() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let heading = try write("- a\n\n## Not a list\n", "heading.md", in: folder)
    let result = try run(["render", heading, "-o", "out.png"], in: folder)
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "error: \(heading): line 3: a heading is not allowed in a Markdown list file (it holds one list of -, *, + or 1. items, after an optional front matter)\n"
    )
    let deep = try write("- a\n  - b\n    - c\n      - d\n", "deep.md", in: folder)
    #expect(
      try run(["render", deep, "-o", "out.png"], in: folder).stderr
        == "error: \(deep): line 4: items[0].items[0].items[0].items[0]: a fourth nesting level is forbidden by design (at most 3 levels: 0, 1, 2)\n"
    )
    let bold = try write(
      "---\n{\"isBold\": true}\n---\n1. Plain\n1. With **strong** text\n", "bold.md", in: folder)
    // The advice names what a Markdown list says it with: front matter keys.
    #expect(
      try run(["render", bold, "-o", "out.png"], in: folder).stderr
        == #"error: \#(bold): line 5: items[1]: rich text is allowed only when the text is not bold: the front matter sets "isBold": true; remove it (Markdown text is regular unless the front matter makes it bold)"#
        + "\n")
    let subList = try write(
      "---\n{\"isBold\": false, \"subLists\": {\"items[1]\": {\"isBold\": true}}}\n---\n1. A *rich* label\n1. Plain\n   1. Sub\n   1. With a [link](https://example.com)\n",
      "sub-list.md", in: folder)
    #expect(
      try run(["render", subList, "-o", "out.png"], in: folder).stderr
        == #"error: \#(subList): line 7: items[1].items[1]: rich text is allowed only when the text is not bold: in the front matter, set "subLists": {"items[1]": {"isBold": false}}"#
        + "\n")
    let inherited = try write(
      "---\n{\"isBold\": true}\n---\n1. Plain\n   1. Sub *rich*\n", "inherited.md", in: folder)
    #expect(
      try run(["render", inherited, "-o", "out.png"], in: folder).stderr
        == #"error: \#(inherited): line 5: items[0].items[0]: rich text is allowed only when the text is not bold: the front matter sets "isBold": true; remove it (Markdown text is regular unless the front matter makes it bold), or set "subLists": {"items[0]": {"isBold": false}} for this sub-list alone"#
        + "\n")
    // A JSON list keeps the model's words.
    let json = try write(
      #"{"items": [{"label": "Plain"}, {"markdown": "With **strong** text"}]}"#, "bold.json",
      in: folder)
    #expect(
      try run(["render", json, "-o", "out.png"], in: folder).stderr
        == "error: \(json): items[1]: rich text is allowed only when the text is not bold (set isBold or subListHasBoldText to false)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    // Android draws rich text in bold.
    let android = try run(["render", bold, "--platform", "android", "-o", "out.png"], in: folder)
    #expect(android.status == 0, "\(android.stderr)")
  }

  @Test(
    "a Markdown list is regular text unless its front matter says \"isBold\": true: strong, emphasis and links render as they are"
  )
  func regularByDefault() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      "- Create your **account**\n- Read *the* [terms](https://example.com)\n  - A *sub* item\n",
      "list.md", in: folder)
    let result = try run(["render", list, "-o", "out.png"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    // The scene's labels are regular, as in the JSON twin that says "isBold": false.
    let twin =
      #"{"isBold": false, "items": [{"markdown": "Create your **account**"}, {"markdown": "Read *the* [terms](https://example.com)", "items": [{"markdown": "A *sub* item"}]}]}"#
    let json = try write(twin, "list.json", in: folder)
    let markdownScene = try run(["layout", list], in: folder)
    let jsonScene = try run(["layout", json], in: folder)
    #expect(markdownScene.status == 0, "\(markdownScene.stderr)")
    #expect(markdownScene.stdout == jsonScene.stdout)
    // The picture: the pixels of the regular twin's render (a bold list cannot hold rich text).
    let twinRender = try run(["render", json, "-o", "regular.png"], in: folder)
    #expect(twinRender.status == 0, "\(twinRender.stderr)")
    func pixels(_ name: String) throws -> RasterImage {
      try PNGCodec.decode(Data(contentsOf: folder.appendingPathComponent(name)))
    }
    let picture = try pixels("out.png")
    #expect(picture == (try pixels("regular.png")))
    #expect(picture.width == 720, "a 360 pt canvas at scale 2")
  }

  @Test("the command line's --platform, --locale and --text-style override the front matter")
  func flagsOverrideFrontMatter() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = try write(
      "---\n{\"platform\": \"android\", \"locale\": \"fr\"}\n---\n1. Un\n1. Deux\n", "list.md",
      in: folder)
    let plain = try run(["layout", list], in: folder)
    #expect(plain.stdout.contains("\"platform\" : \"android\""), "\(plain.stderr)")
    #expect(
      plain.stdout.contains("\"direction\" : \"ltr\"") && plain.stdout.contains("\"fontSize\" : 16")
    )
    let flagged = try run(
      ["layout", list, "--platform", "ios", "--locale", "ar", "--text-style", "bodyMedium"],
      in: folder)
    #expect(flagged.status == 0, "\(flagged.stderr)")
    #expect(flagged.stdout.contains("\"platform\" : \"ios\""))
    #expect(flagged.stdout.contains("\"direction\" : \"rtl\""))
    #expect(
      flagged.stdout.contains("\"fontSize\" : 14") && !flagged.stdout.contains("\"fontSize\" : 16"))
  }

  @Test("the README's Markdown example is the case file it names, and renders as its commands say")
  func readmeExample() throws {
    let readme = try String(
      contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let marker = "<!-- markdown-example: "
    let start = try #require(readme.range(of: marker))
    let nameEnd = try #require(readme[start.upperBound...].range(of: " -->"))
    let name = String(readme[start.upperBound..<nameEnd.lowerBound])
    let fence = try #require(readme[nameEnd.upperBound...].range(of: "```markdown\n"))
    let close = try #require(readme[fence.upperBound...].range(of: "```"))
    let block = String(readme[fence.upperBound..<close.lowerBound])
    #expect(name == "Snapshots/cases/onboarding.md")
    #expect(
      block
        == (try String(contentsOf: repositoryRoot.appendingPathComponent(name), encoding: .utf8)))
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("s.png").path
    let rendered = try run(["render", name, "--theme", "sosh", "-o", output])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    #expect(FileManager.default.fileExists(atPath: output))
    let laidOut = try run(["layout", name, "--platform", "android"])
    #expect(laidOut.status == 0, "\(laidOut.stderr)")
    #expect(
      laidOut.stdout.contains("\"kind\" : \"tick\"")
        && laidOut.stdout.contains("\"platform\" : \"android\""))
    #expect(laidOut.stdout.contains("https://www.orange.com/roaming"))
  }
}
