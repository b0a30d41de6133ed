import BulletListRenderer
import CLIKit
import SafeInput
import Snapshot
import Workbench

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `ouds-render gallery`: every case of the catalogue in each of its variants, on one HTML page.
enum GalleryCommand {
  /// `-o, --output <dir>`, required: the folder of `index.html` and `images/`.
  static let output = TypedOption.text(
    names: ["-o", "--output"], placeholder: "dir", completion: .directory,
    help: "the folder to write index.html and images/ into (created when missing)", isRequired: true
  )
  /// `--pdf <file>`.
  static let pdf = TypedOption.text(
    names: ["--pdf"], placeholder: "file", completion: .file(extensions: ["pdf"]),
    help: "also write a printable PDF of the same content (A4 landscape, drawn with Cairo)")

  /// The command's table.
  static let spec = CommandSpec(
    name: "gallery",
    abstract: "Render every catalogue case in every variant on one HTML page, with the tokens",
    overview: """
      Render every case of the snapshot catalogue (Snapshots/cases/) in each of its variants \
      (themes, modes, platforms, text styles, locales) and write one self-contained HTML page: \
      each case's file beside its pictures, filters by case, theme, mode and platform (kept in the \
      URL fragment, e.g. index.html#theme=sosh&mode=dark), and per theme a table of the tokens the \
      component reads (colours with swatches and hex, sizes, weights, font families) and the font \
      files really drawn.
      """,
    discussion: """
      With --compare-themes, each picture is also drawn with that folder's tokens: changed pictures
      show before, after and diff with the rows that moved or changed colour, unchanged ones are
      folded, and the changed tokens are printed on standard output, one line each:
      <theme>/<mode> <token.path>: <old> → <new> (<file>).
      Exit 0 when every case rendered; 1 when a case file is broken or a variant failed (the page
      is written and says which).
      """,
    options: [output.spec, pdf.spec, CompareThemes.option.spec] + SnapshotCommand.common + [
      SnapshotCommand.jobs, WatchOption.gallery.spec, ListOptions.verbose.spec,
    ],
    footer: ListOptions.sourcesFooter,
    examples: [
      Example(
        command: "gallery -o out/gallery", explanation: "every case × theme × mode, one page"),
      Example(
        command: "gallery -o out/gallery --pdf out/gallery.pdf", explanation: "and a printable PDF"),
      Example(
        command: "gallery --themes edited-Themes --compare-themes Themes -o out/review",
        explanation: "review a token change on every case"),
    ],
    draws: true,
    run: run)

  /// Renders the gallery and writes it (again on every change with `--watch`); returns the exit
  /// status.
  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    try WatchOption.runGallery(arguments) { try renderOnce(arguments) }
  }

  /// Renders the gallery and writes it once; returns the exit status.
  static func renderOnce(_ arguments: ParsedArguments) throws -> Int32 {
    let folder = arguments.text(output) ?? ""
    if let type = UserFile.type(atPath: folder), type != .directory {
      throw UsageError(
        "-o \(MessageText.path(folder)) is not a folder: the gallery is a folder (index.html and images/)"
      )
    }
    let engine = try SnapshotCommand.engine(arguments)
    try checkOutputs(arguments, engine: engine)
    WatchLoop.note(engine.catalogue.cases.flatMap(\.document.list.iconFiles))
    let gallery = try Gallery.make(
      engine: engine,
      compareThemes: arguments.text(CompareThemes.option).map { URL(fileURLWithPath: $0) },
      verbose: arguments.has(ListOptions.verbose))
    WatchLoop.note(gallery.inputFiles.paths)
    try GalleryPage.write(gallery, to: URL(fileURLWithPath: folder))
    // Where the page is, as the user named its folder (relative when they gave it relative).
    let page = folder + (folder.hasSuffix("/") ? "" : "/") + GalleryPage.fileName
    if let path = arguments.text(pdf) {
      let renderer = try engine.renderer()
      let pages = try GalleryDocument.pages(gallery, renderer: renderer)
      try AtomicFile.write(
        try renderer.renderPages(pages, format: .pdf), to: path, createDirectories: true,
        protecting: gallery.inputFiles)
    }
    if let old = gallery.oldThemes {
      try CompareThemes.printTokenLines(gallery.tokenLines, old: old, new: gallery.themes)
    }
    printError(gallery.sources)
    printError("gallery: \(page)" + (arguments.text(pdf).map { "; PDF: \($0)" } ?? ""))
    var failed = false
    for broken in gallery.brokenCases {
      printError("error: \(broken.message)")
      failed = true
    }
    for item in gallery.items {
      if let error = item.error {
        printError("error: \(item.reference.id): \(error)")
        failed = true
      }
    }
    printWarnings(gallery.warningLines)
    return failed ? ExitStatus.failure : ExitStatus.success
  }

  /// Refuses, before anything renders, a gallery folder or PDF inside the snapshots folder, the
  /// themes folder in use (however it was found) or the `--compare-themes` folder, and a PDF
  /// that would replace the gallery's page or go among its images.
  static func checkOutputs(_ arguments: ParsedArguments, engine: SnapshotEngine) throws {
    let folder = arguments.text(output) ?? ""
    var places = [
      ProtectedPlace("snapshots folder", engine.configuration.snapshotsDirectory.path)
    ]
    if let themes = try? engine.themesLocation().directory {
      places.append(ProtectedPlace("themes folder", themes.path))
    }
    if let old = arguments.text(CompareThemes.option) {
      places.append(ProtectedPlace("--compare-themes folder", old))
    }
    try OutputPlace.check(folder, option: "-o", against: places)
    // Nor through a link below the gallery folder (images/ -> the snapshots folder).
    WriteFence.protect(places)
    guard let path = arguments.text(pdf) else { return }
    let gallery = URL(fileURLWithPath: folder)
    try OutputPlace.check(
      path, option: "--pdf",
      against: places + [
        ProtectedPlace("gallery page", gallery.appendingPathComponent(GalleryPage.fileName).path),
        ProtectedPlace("gallery's images folder", gallery.appendingPathComponent("images").path),
      ], advice: "give the PDF a path outside them")
  }
}
