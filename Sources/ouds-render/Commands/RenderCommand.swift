import BulletListRenderer
import CLIKit
import SafeInput

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render render`: draws a list to PNG, SVG or PDF.
enum RenderCommand {
  /// The command's table.
  static let spec = CommandSpec(
    name: "render",
    abstract: "Render a JSON or Markdown list to PNG, SVG or PDF, for one or every theme and mode",
    overview: "Render a bullet list (JSON or Markdown) to PNG, SVG or PDF.",
    arguments: [ListOptions.listArgument],
    argumentsInWords: "one list file",
    discussion: """
      With --theme all or --mode all, -o is a folder and one process writes every combination
      as <theme>-<mode>.<ext>; with --platform all, as <theme>-<mode>-<platform>.<ext>
      (ios, android). -o - writes one picture to standard output.
      """,
    options: [
      ListOptions.output.describing(
        "file|dir", help: "where to write: a file, a folder with all, or - for standard output"
      ).spec,
      ListOptions.format, ListOptions.scale,
    ] + ListOptions.all + [ListOptions.verbose.spec, WatchOption.list.spec],
    footer: ListOptions.sourcesFooter,
    examples: [
      Example(
        command:
          "render Snapshots/cases/sample-3.1.json --theme sosh --mode dark --scale 3 -o out.png",
        explanation: "one PNG: Sosh, dark mode, 3 pixels per point"),
      Example(
        command: "render list.json --theme all --mode all --format svg -o out/",
        explanation: "every theme and mode: out/<theme>-<mode>.svg"),
      Example(
        command: "render list.json --platform android --direction rtl -o a.png",
        explanation: "Android's rules, right to left"),
      Example(
        command: "render list.json --format svg -o - | gzip > list.svg.gz",
        explanation: "SVG to standard output"),
    ],
    draws: true,
    run: run)

  /// Renders what `arguments` ask for and writes it (again on every change with `--watch`);
  /// returns the exit status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    try WatchOption.runList(arguments) { try renderOnce(arguments) }
  }

  /// Renders what `arguments` ask for and writes it once; returns the exit status.
  static func renderOnce(_ arguments: ParsedArguments) throws -> Int32 {
    let picture = try PictureJob(arguments, matrixWritesFolder: true)
    let job = picture.job
    let rendered = try job.attributingErrors {
      try job.renderer.renderAll(
        job.document.list, combinations: job.combinations, platforms: job.platforms,
        options: job.options, format: picture.format)
    }
    let inputs = job.inputFiles
    if case .folder(let folder) = picture.destination {
      for image in rendered {
        let stem =
          "\(image.theme.rawValue)-\(image.mode.rawValue)"
          + (job.allPlatforms ? "-\(image.platform.rawValue)" : "")
        let path = URL(fileURLWithPath: folder).appendingPathComponent(
          "\(stem).\(picture.format.fileExtension)"
        ).path
        try AtomicFile.write(image.data, to: path, createDirectories: true, protecting: inputs)
      }
      printError("wrote \(rendered.count) files to \(folder)")
    } else if let image = rendered.first {
      try picture.destination.write(image.data, protecting: inputs)
    }
    printError(picture.sources)
    printWarnings(rendered.flatMap(\.warnings))
    printNotes(of: job.renderer, arguments)
    return ExitStatus.success
  }
}
