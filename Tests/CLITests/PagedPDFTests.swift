import Foundation
import Primitives
import Testing

/// Poppler's command-line tools (Debian's poppler-utils, installed by
/// `scripts/setup --with-test-tools`), which read the PDFs as a reader would: page count and
/// sizes, each page's text, whether anything was rasterised, and the pixels of a page.
enum Poppler {
  /// Runs `tool` with `arguments`; its standard output. A missing tool fails the test.
  static func run(_ tool: String, _ arguments: [String]) throws -> Data {
    let path = try #require(
      Shells.path(tool),
      "\(tool) is not installed: scripts/setup --with-test-tools installs poppler-utils")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "\(tool) \(arguments) failed")
    return data
  }

  /// The size of each page in points, from `pdfinfo` (the MediaBox).
  static func pageSizes(_ pdf: String) throws -> [(width: Double, height: Double)] {
    let info = String(
      decoding: try run("pdfinfo", ["-f", "1", "-l", "100000", pdf]), as: UTF8.self)
    return info.matches(of: /Page +\d+ size: +([0-9.]+) x ([0-9.]+) pts/).map {
      (Double($0.1) ?? 0, Double($0.2) ?? 0)
    }
  }

  /// The text of page `page` (1-based), in content order.
  static func text(_ pdf: String, page: Int) throws -> String {
    String(
      decoding: try run("pdftotext", ["-raw", "-f", "\(page)", "-l", "\(page)", pdf, "-"]),
      as: UTF8.self)
  }

  /// How many lines the captions `before`, `after` and `diff:` of page `page` take (1: the three
  /// pictures side by side), from the words' boxes (`pdftotext -bbox`).
  static func captionLine(_ pdf: String, page: Int) throws -> Int {
    let boxes = String(
      decoding: try run("pdftotext", ["-bbox", "-f", "\(page)", "-l", "\(page)", pdf, "-"]),
      as: UTF8.self)
    var tops: [String: Set<String>] = [:]
    for match in boxes.matches(of: /yMin="([0-9.]+)"[^>]*>(before|after|diff:)</) {
      tops[String(match.2), default: []].insert(String(match.1))
    }
    // The legend's "diff:" is above the pictures: the lowest of each word is its caption.
    let lowest = tops.values.compactMap { $0.compactMap(Double.init).max() }
    return tops.count == 3 ? Set(lowest).count : 0
  }

  /// How many bitmaps the PDF holds (`pdfimages -list`).
  static func imageCount(_ pdf: String) throws -> Int {
    let list = String(decoding: try run("pdfimages", ["-list", pdf]), as: UTF8.self)
    return max(0, list.split(separator: "\n").count - 2)
  }

  /// The share of each page's height between its first and last row of dark pixels, the foot of
  /// the page (`footer` points: margin and page number) left out; from `pdftoppm` at 20 dpi.
  static func usedHeights(_ pdf: String, footer: Double) throws -> [Double] {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try run("pdftoppm", ["-r", "20", "-gray", pdf, folder.appendingPathComponent("p").path])
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    return try files.map { name in
      let data = try Data(contentsOf: folder.appendingPathComponent(name))
      // P5 <width> <height> 255, one byte per pixel.
      var fields: [Int] = []
      var index = 2
      var number = ""
      while fields.count < 3, index < data.count {
        let byte = data[index]
        if byte >= 0x30 && byte <= 0x39 {
          number.append(Character(UnicodeScalar(byte)))
        } else if !number.isEmpty {
          fields.append(Int(number) ?? 0)
          number = ""
        }
        index += 1
      }
      let (width, height) = (fields[0], fields[1])
      let pixels = data.suffix(width * height)
      let base = pixels.startIndex
      let limit = height - Int((footer / 72 * 20).rounded(.up))
      var rows: [Int] = []
      for y in 0..<limit {
        let row = pixels[(base + y * width)..<(base + (y + 1) * width)]
        if row.contains(where: { $0 < 200 }) { rows.append(y) }
      }
      guard let first = rows.first, let last = rows.last else { return 0 }
      return Double(last - first + 1) / Double(height)
    }
  }
}

@Suite("PDF sheets are documents of pages, read with Poppler")
struct PagedPDFTests {
  static let sample = "Snapshots/cases/sample-2.json"

  /// `list.json · iOS — Orange · light`, in the order of the pages.
  static func titles(_ list: String, platforms: String) -> [String] {
    ThemeName.allCases.flatMap { theme in
      ColorMode.allCases.map { "\(list) · \(platforms) — \(theme.displayName) · \($0.rawValue)" }
    }
  }

  @Test(
    "a Dynamic Type sheet: its tall accessibility5 column flows into the free column slots; at most 12 A4 pages for 8 theme × mode, none mostly empty"
  )
  func dynamicTypeSheetFlows() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = "Snapshots/cases/onboarding.md"
    let sizes = ["--content-size", "large,xxxLarge,accessibility5"]
    let a4 = folder.appendingPathComponent("a4.pdf").path
    let result = try run(["sheet", list] + sizes + ["-o", a4])
    #expect(result.status == 0, "\(result.stderr)")
    let pages = try Poppler.pageSizes(a4)
    #expect(pages.count <= 12, "\(pages.count) pages for 8 theme × mode")
    // 16:9 slides: one slide holds three columns at the width that fits them, so the
    // accessibility5 column goes on in the slots to its right, captioned with its part.
    let slides = folder.appendingPathComponent("slides.pdf").path
    let flowed = try run(["sheet", list] + sizes + ["--page", "16:9", "-o", slides])
    #expect(flowed.status == 0, "\(flowed.stderr)")
    let slideCount = try Poppler.pageSizes(slides).count
    #expect(slideCount <= 12, "\(slideCount) slides")
    let first = try Poppler.text(slides, page: 1)
    #expect(first.contains("Orange · light · accessibility5 (2/"), "\(first)")
    // Every page of a theme × mode but its last is at least 30 % used; here each takes one.
    for (index, used) in try Poppler.usedHeights(slides, footer: 28 + 19).enumerated() {
      #expect(used >= 0.3, "slide \(index + 1): \(used)")
    }
    for (index, used) in try Poppler.usedHeights(a4, footer: 28 + 19).enumerated() {
      #expect(used >= 0.3, "page \(index + 1): \(used)")
    }
  }

  @Test(
    "sheet -o X.pdf: one A4 portrait page per theme × mode, each with its title, the legend and N / M; vector only"
  )
  func sheetPages() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let pdf = folder.appendingPathComponent("sheet.pdf").path
    let result = try run(["sheet", Self.sample, "-o", pdf])
    #expect(result.status == 0, "\(result.stderr)")
    let sizes = try Poppler.pageSizes(pdf)
    let titles = Self.titles("sample-2.json", platforms: "iOS")
    #expect(sizes.count == ThemeName.allCases.count * ColorMode.allCases.count)
    #expect(sizes.allSatisfy { $0 == (595.28, 841.89) }, "A4 portrait: \(sizes)")
    for (index, title) in titles.enumerated() {
      let text = try Poppler.text(pdf, page: index + 1)
      #expect(text.hasPrefix(title + "\n"), "page \(index + 1): \(text)")
      #expect(text.contains("\n\(index + 1) / \(titles.count)\n"), "page \(index + 1): \(text)")
      #expect(text.contains("Themes: Themes (found from the current folder)"))
      #expect(text.contains("Drawn at 100 % of its size"))
      // The cell: its caption and the list's three labels, each once.
      let theme = ThemeName.allCases[index / 2]
      let mode = ColorMode.allCases[index % 2]
      // The legend names the fonts of the page's own theme, and of no other.
      let fonts: [ThemeName: String] = [
        .orange: "Liberation Sans, substitute for Helvetica Neue",
        .orangeCompact: "Liberation Sans, substitute for Helvetica Neue",
        .sosh: "Inter, substitute for Sosh", .wireframe: "Comic Neue, substitute for Shantell Sans",
      ]
      #expect(
        text.contains("Fonts: \(theme.displayName): \(fonts[theme] ?? "")"), "page \(index + 1)")
      for other in ThemeName.allCases where other != theme {
        #expect(!text.contains("\(other.displayName): "), "page \(index + 1) names \(other)")
      }
      #expect(text.contains("\(theme.displayName) · \(mode.rawValue)\nLabel 1\nLabel 2\nLabel 3\n"))
    }
    #expect(try Poppler.imageCount(pdf) == 0, "the cells are drawn as vector, never rasterised")
  }

  @Test(
    "sheet --platform all: A4 landscape, since that draws the wide cells larger; --page 16:9: 960×540 slides"
  )
  func orientationAndSlides() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let a4 = folder.appendingPathComponent("a4.pdf").path
    let result = try run(["sheet", Self.sample, "--platform", "all", "-o", a4])
    #expect(result.status == 0, "\(result.stderr)")
    let sizes = try Poppler.pageSizes(a4)
    #expect(sizes.count == 8)
    #expect(sizes.allSatisfy { $0 == (841.89, 595.28) }, "A4 landscape: \(sizes)")
    // Two 360 pt columns, a 16 pt gutter and margins: 768 pt fit the 785.89 pt of landscape.
    #expect(try Poppler.text(a4, page: 1).contains("Drawn at 100 % of its size"))

    let slides = folder.appendingPathComponent("slides.pdf").path
    let wide = try run(
      ["sheet", Self.sample, "--platform", "all", "--page", "16:9", "-o", slides])
    #expect(wide.status == 0, "\(wide.stderr)")
    let slideSizes = try Poppler.pageSizes(slides)
    #expect(slideSizes.count == 8 && slideSizes.allSatisfy { $0 == (960, 540) }, "\(slideSizes)")
    for (index, title) in Self.titles("sample-2.json", platforms: "iOS and Android").enumerated() {
      let text = try Poppler.text(slides, page: index + 1)
      #expect(text.hasPrefix(title + "\n"), "page \(index + 1): \(text)")
      #expect(text.contains("\n\(index + 1) / 8\n"))
    }
    // Wider than a page: scaled down to fit, still one page per theme × mode.
    let wider = folder.appendingPathComponent("wider.pdf").path
    let scaled = try run(
      ["sheet", Self.sample, "--theme", "sosh", "--mode", "dark", "--width", "2000", "-o", wider])
    #expect(scaled.status == 0, "\(scaled.stderr)")
    #expect(try Poppler.pageSizes(wider).count == 1)
    // 2000 pt + 2 × 16 pt sheet margins into 785.89 pt between the landscape page's margins.
    let percent = Int((841.89 - 56) / 2032 * 100 + 0.5)
    #expect(try Poppler.text(wider, page: 1).contains("Drawn at \(percent) % of its size"))
  }

  @Test(
    "--page: refused for PNG and SVG (one picture) and for an unknown paper, naming the choices")
  func pageOptionErrors() throws {
    let png = try run(["sheet", Self.sample, "--page", "a4", "-o", "/tmp/never-written.png"])
    #expect(png.status == 2)
    #expect(
      png.stderr.hasPrefix(
        "error: --page sets the paper of a PDF; a PNG sheet is one picture: give -o <file>.pdf or leave --page out\n"
      ), "\(png.stderr)")
    let unknown = try run(["sheet", Self.sample, "--page", "letter", "-o", "/tmp/x.pdf"])
    #expect(unknown.status == 2)
    #expect(
      unknown.stderr.hasPrefix("error: unknown page size \"letter\" (known: a4, 16:9)"),
      "\(unknown.stderr)")
  }

  @Test(
    "a list of 200 items: each theme × mode cut between rows onto numbered pages, every item once, nothing cut off"
  )
  func longList() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let items = (1...200).map { "{ \"label\": \"Item \($0)\" }" }.joined(separator: ", ")
    let list = try write(
      "{ \"type\": \"unordered\", \"items\": [\(items)] }", "long.json", in: folder)
    let pdf = folder.appendingPathComponent("long.pdf").path
    let result = try run(["sheet", list, "--theme", "orange", "--mode", "all", "-o", pdf])
    #expect(result.status == 0, "\(result.stderr)")
    let count = try Poppler.pageSizes(pdf).count
    #expect(count > 2 && count % 2 == 0, "\(count) pages")
    var labels: [String: Int] = [:]
    var parts: [ColorMode: Int] = [:]
    for page in 1...count {
      let text = try Poppler.text(pdf, page: page)
      let mode: ColorMode = page <= count / 2 ? .light : .dark
      #expect(text.hasPrefix("long.json · iOS — Orange · \(mode.rawValue)\n"), "page \(page)")
      #expect(text.contains("\n\(page) / \(count)\n"), "page \(page)")
      let part = try #require(text.firstMatch(of: /part (\d+) of (\d+)/), "page \(page): \(text)")
      #expect(Int(part.2) == count / 2)
      parts[mode, default: 0] += 1
      #expect(Int(part.1) == parts[mode])
      for match in text.matches(of: /Item (\d+)\n/) { labels[String(match.1), default: 0] += 1 }
    }
    #expect(labels.count == 200, "every item shows")
    #expect(labels.values.allSatisfy { $0 == 2 }, "each once in light and once in dark: \(labels)")
  }
}
