import Foundation
import Graphics
import PNG
import Testing

/// A solid `width`×`height` image in one RGBA colour, with the pixels of `changed` set to black.
private func image(
  _ width: Int, _ height: Int, _ rgba: [UInt8] = [255, 255, 255, 255], changed: [(Int, Int)] = []
)
  -> RasterImage
{
  var pixels = [UInt8]()
  for _ in 0..<(width * height) { pixels += rgba }
  for (x, y) in changed {
    let i = (y * width + x) * 4
    pixels.replaceSubrange(i..<(i + 4), with: [0, 0, 0, 255])
  }
  return RasterImage(width: width, height: height, pixels: pixels)
}

@Suite("ouds-render diff, run as a binary", .serialized)
final class DiffCommandTests {
  let folder: URL

  init() throws { folder = try temporaryFolder() }
  deinit { try? FileManager.default.removeItem(at: folder) }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  func png(_ picture: RasterImage, _ name: String) throws -> String {
    try PNGCodec.encode(picture).write(to: folder.appendingPathComponent(name))
    return path(name)
  }

  func diff(_ arguments: [String]) throws -> RunResult { try run(["diff"] + arguments, in: folder) }

  @Test("identical files exit 0 with one summary line")
  func identical() throws {
    let a = try png(image(30, 20), "a.png")
    let b = try png(image(30, 20), "b.png")
    let result = try diff([a, b])
    #expect(result.status == 0)
    #expect(result.stdout == "images are identical\n")
    #expect(result.stderr.isEmpty)
  }

  @Test("a changed pixel exits 1 with the summary, and -o writes the diff image atomically")
  func changedPixel() throws {
    let a = try png(image(30, 20), "a.png")
    let b = try png(image(30, 20, changed: [(4, 5)]), "b.png")
    let result = try diff([a, b, "-o", path("diff.png")])
    #expect(result.status == 1)
    #expect(result.stdout == "1 pixel differs (0.167%) in 1 region: 1×1 at (4,5)\n")
    let written = try PNGCodec.decode(Data(contentsOf: folder.appendingPathComponent("diff.png")))
    #expect(written.pixel(x: 4, y: 5) == (255, 0, 0, 255))
    #expect(written.pixel(x: 0, y: 0) == (230, 230, 230, 255))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "a.png", "b.png", "diff.png",
      ])
  }

  @Test("-o - writes the diff PNG to standard output and the summary to stderr")
  func diffImageToStandardOutput() throws {
    let a = try png(image(30, 20), "a.png")
    let b = try png(image(30, 20, changed: [(4, 5)]), "b.png")
    let result = try diff([a, b, "-o", "-"])
    #expect(result.status == 1)
    #expect(result.stderr == "1 pixel differs (0.167%) in 1 region: 1×1 at (4,5)\n")
    let written = try PNGCodec.decode(result.stdoutData)
    #expect(written.width == 30 && written.height == 20)
    #expect(written.pixel(x: 4, y: 5) == (255, 0, 0, 255))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "a.png", "b.png",
      ])
  }

  @Test("tolerance and perceptual flags decide the exit status")
  func flags() throws {
    let a = try png(image(10, 10), "a.png")
    let b = try png(image(10, 10, changed: [(0, 0), (1, 0), (0, 1), (1, 1)]), "b.png")
    #expect(try diff([a, b, "--max-diff-pixels", "4"]).status == 0)
    #expect(try diff([a, b, "--max-diff-pixels=3"]).status == 1)
    #expect(try diff([a, b, "--max-diff-ratio", "0.04"]).status == 0)
    #expect(try diff([a, b, "--max-diff-ratio", "0.039"]).status == 1)
    let grey = try png(image(10, 10, [128, 128, 128, 255]), "grey.png")
    let greyish = try png(image(10, 10, [129, 128, 128, 255]), "greyish.png")
    #expect(try diff([grey, greyish]).status == 1)
    #expect(try diff([grey, greyish, "--perceptual"]).status == 0)
    #expect(try diff([grey, greyish, "--threshold", "0"]).status == 1)
    #expect(try diff([grey, greyish, "--threshold", "0.1"]).status == 0)
  }

  @Test("file problems exit 1 with one line naming the file")
  func fileErrors() throws {
    let a = try png(image(10, 10), "a.png")
    let missing = try diff([a, path("missing.png")])
    #expect(missing.status == 1)
    #expect(missing.stdout.isEmpty)
    #expect(missing.stderr == "error: \(path("missing.png")): no such file\n")
    try Data("hello".utf8).write(to: folder.appendingPathComponent("notes.png"))
    #expect(
      try diff([path("notes.png"), a]).stderr == "error: \(path("notes.png")): not a PNG file\n")
    let sizes = try diff([a, try png(image(10, 12), "tall.png")])
    #expect(sizes.status == 1)
    #expect(sizes.stdout == "size differs: expected 10×10, actual 10×12\n")
    let input = try diff([
      a, try png(image(10, 10, changed: [(1, 1)]), "b.png"), "-o", path("b.png"),
    ])
    #expect(input.status == 1)
    #expect(input.stderr.hasPrefix("error: \(path("b.png")): cannot be written: it is the input"))
  }

  @Test("usage errors exit 2 in the same form as every other command")
  func usageErrors() throws {
    let a = try png(image(10, 10), "a.png")
    let none = try diff([])
    #expect(none.status == 2)
    #expect(none.stderr == "error: expected two PNG files, got 0\nSee 'ouds-render diff --help'.\n")
    #expect(try diff([a]).status == 2)
    #expect(try diff([a, a, a]).status == 2)
    let unknown = try diff([a, a, "--fuzzy"])
    #expect(unknown.status == 2)
    #expect(
      unknown.stderr
        == "error: unknown option --fuzzy for 'ouds-render diff'\nSee 'ouds-render diff --help'.\n")
    let typo = try diff([a, a, "--max-diff-pixel", "3"])
    #expect(
      typo.stderr.hasPrefix(
        "error: unknown option --max-diff-pixel for 'ouds-render diff'; did you mean --max-diff-pixels?\n"
      ))
    #expect(
      try diff([a, a, "--max-diff-pixels", "-3"]).stderr.hasPrefix(
        "error: --max-diff-pixels must be a whole number of 0 or more, got \"-3\"\n"))
    #expect(try diff([a, a, "--max-diff-ratio", "1.5"]).status == 2)
    #expect(try diff([a, a, "--threshold", "x"]).status == 2)
    #expect(try diff([a, a, "-o"]).stderr.hasPrefix("error: -o needs a value\n"))
    #expect(
      try diff([a, a, "--perceptual=yes"]).stderr.hasPrefix("error: --perceptual takes no value\n"))
  }

  @Test("--help exits 0 and lists the options")
  func help() throws {
    let result = try diff(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("OVERVIEW: Compare two PNG images"))
    for option in [
      "--output", "--max-diff-pixels", "--max-diff-ratio", "--perceptual", "--threshold",
      "--include-aa",
    ] {
      #expect(result.stdout.contains(option))
    }
  }
}
