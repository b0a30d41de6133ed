// swift-tools-version: 6.0
// The OUDS bullet list renderer: draws the Orange Unified Design System bullet list component
// with Cairo and Pango, and compares the renders with reference snapshots.
//
// Platforms. Tested: Debian 12 (x86_64) with the Swift 6 toolchain and the Debian packages below
// (`scripts/setup` installs them). Should work, untested: other Linux distributions with the same
// libraries (pkg-config names) and the fonts the manifests name, and macOS with Homebrew
// (`brew install pango librsvg libspng cmark isa-l libmicrohttpd pkg-config`) with the font
// files put in a folder given by `--font-dir` or `OUDS_FONT_DIRS`. Fonts are found by file name and SHA-256,
// never by a Debian path; Linux-only calls sit behind `#if os(Linux)`.

import Foundation
import PackageDescription

/// Debian packages that provide the C libraries; SwiftPM only prints them as a hint.
let debianDevPackages = [
  "libcairo2-dev", "libpango1.0-dev", "libfontconfig-dev", "librsvg2-dev", "libspng-dev",
  "libcmark-dev", "zlib1g-dev", "libisal-dev", "libmicrohttpd-dev",
]

/// Everything in the package folder but `Themes/` and `Sources/ThemesBundle/`, which the
/// `ThemesBundle` target (rooted at the package folder) must not treat as its files. Hidden entries
/// are ignored by SwiftPM.
let themesBundleExclusions: [String] = {
  let root = Context.packageDirectory
  func entries(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? [])
      .filter { !$0.hasPrefix(".") }.sorted()
  }
  let top = entries("").filter {
    !["Themes", "Sources", "Package.swift", "Package.resolved"].contains($0)
  }
  let sources = entries("Sources").filter { $0 != "ThemesBundle" }.map { "Sources/" + $0 }
  return top + sources
}()

/// The pkg-config file of a system-library target that needs the headers of the drawing libraries
/// (Cairo, Pango, fontconfig, FreeType, HarfBuzz, GLib, librsvg) but must not link them: they are
/// loaded on first use (`CGraphicsLoader`), so that a command that never draws (`diff`, `help`)
/// never maps them, about 50 libraries and most of a process's start-up. The file, in the
/// target's folder, requires the libraries' own pkg-config packages privately: SwiftPM resolves
/// their compiler flags and links none of their libraries.
///
/// SwiftPM takes the file by its absolute path, but splits a target's `pkgConfig` at every space
/// (it may list several packages), so a checkout whose path holds a space (`~/My Projects/…`)
/// cannot name its file: the path would be cut in two, no compiler flag found, and the build
/// stopped at the first `#include <cairo.h>`. There, and only there, the libraries' own
/// packages (`packages`) are named instead: same headers, but their libraries are linked, so
/// every command maps them at start (about eight times the dynamic loader's start-up work,
/// docs/performance.md). Non-ASCII letters and symbolic links need nothing; scripts/check-readme
/// builds and runs `ouds-render` in such a folder.
func headersOnly(_ target: String, _ file: String, else packages: String) -> String {
  let path = Context.packageDirectory + "/Sources/" + target + "/" + file
  return path.contains(" ") ? packages : path
}

let package = Package(
  name: "OUDSBulletListRenderer",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "BulletList", targets: ["BulletList"]),
    .library(name: "BulletListRenderer", targets: ["BulletListRenderer"]),
    .library(name: "OUDSSnapshotTesting", targets: ["OUDSSnapshotTesting"]),
    // the pixel diff engine alone (PNG files or pixels in, a verdict and a diff picture out), for
    // other tools: no drawing library
    .library(name: "PixelDiff", targets: ["PixelDiff"]),
    // the designers' documents from code: rendering sheets, the audit report, paged documents
    .library(name: "Workbench", targets: ["Workbench"]),
    .executable(name: "ouds-render", targets: ["ouds-render"]),
  ],
  targets: [
    // C libraries from Debian, reached through pkg-config, each behind one door: libcmark only in
    // `Markdown`, libspng, zlib and ISA-L only in `PNG`, the others only in `Graphics`. SHA-256 is GLib's (loaded under Pango): font files
    // are hashed only when the font hash cache does not know them, and linking libcrypto for its
    // faster digest cost every process ~0.8 ms of start-up.
    // The drawing libraries' headers, not linked (see `headersOnly`), and the loader that opens
    // the libraries on first use and calls their functions through one table (`CGraphicsLoader`,
    // Graphics' door to them, generated from its `symbols.h`).
    .systemLibrary(
      name: "CGraphics",
      pkgConfig: headersOnly(
        "CGraphics", "ouds-graphics.pc", else: "pangocairo pangoft2 fontconfig freetype2 harfbuzz"),
      providers: [.apt(debianDevPackages)]),
    .systemLibrary(
      name: "CRsvg", pkgConfig: headersOnly("CRsvg", "ouds-rsvg.pc", else: "librsvg-2.0"),
      providers: [.apt(["librsvg2-dev"])]),
    // the one loader style both loaders share: a library opened on first use, its functions in
    // one table of typed slots filled with dlsym, generated from the loader's list (symbols.h)
    .target(name: "CLoader"),
    .target(name: "CGraphicsLoader", dependencies: ["CLoader", "CGraphics", "CRsvg"]),
    .systemLibrary(name: "CSpng", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
    .systemLibrary(
      name: "CCommonMark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
    // zlib: the PNG file's checksums (CRC-32 of the chunks, adler32_combine joining the
    // segments' Adler-32 sums), and libspng's inflating
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // ISA-L's igzip: the PNG encoder's deflate and Adler-32 (PNGEncoder deflates one image in
    // segments on several cores; igzip's level 1 takes 1.6 ms of CPU for a 1080×2160 render's
    // 7 MB where zlib's level 1 takes 8-10 ms: the measurements are in PNGEncoder.level)
    .systemLibrary(name: "CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
    // libmicrohttpd, `preview`'s HTTP server: its header only (see `headersOnly`), and the loader
    // that opens it when `preview` starts, so that no other command maps it (nor GnuTLS under it)
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: headersOnly("CMicroHTTPD", "ouds-microhttpd.pc", else: "libmicrohttpd"),
      providers: [.apt(["libmicrohttpd-dev"])]),
    .target(name: "CHTTPLoader", dependencies: ["CLoader", "CMicroHTTPD"]),

    // the leaf every stage may use for files: reading user files (regular files only,
    // size limits), references confined to a folder, escaping echoed input, strict numbers, atomic
    // writes that never replace an input (`AtomicFile`), and where outputs may go (`OutputPlace`)
    .target(name: "SafeInput", dependencies: ["Primitives", "Threads"]),
    // what changed on disk, for `--watch` and `preview`: inotify, the folders a plan of files,
    // folders and trees asks for, and SIGINT/SIGTERM taken by one thread
    .target(name: "FileWatch", dependencies: ["Primitives", "SafeInput", "Threads"]),
    // the one lock helper and the threads the package starts (no Foundation)
    .target(name: "Threads"),
    // the plain values every stage speaks: colour, geometry, marker shapes, names, text style,
    // and the one rule for echoing input in a message
    .target(name: "Primitives"),
    // a strict JSON parser with line/column errors, for lists, tokens and the catalogue
    .target(name: "StrictJSON", dependencies: ["SafeInput"]),
    // a strict reader of SVG and VectorDrawable marker files into filled outlines, the policy an
    // SVG icon meets before librsvg reads it, and the normalizing of Cairo's SVG output (pure Swift)
    .target(name: "VectorAsset", dependencies: ["Primitives"]),
    // the font files a theme names (file name and SHA-256, never a path), finding them in the font
    // folders, their hashes and its cache, and the private fontconfig set they are loaded into
    // (fontconfig's door, through CGraphicsLoader; Graphics hands the set to Pango)
    .target(
      name: "Fonts",
      dependencies: ["SafeInput", "Threads", "Primitives", "CGraphics", "CGraphicsLoader"]),
    // spec -> model
    .target(name: "BulletList", dependencies: ["StrictJSON", "SafeInput", "Primitives"]),
    // Markdown labels -> rich text, Markdown list files -> list outlines (libcmark's door)
    .target(name: "Markdown", dependencies: ["BulletList", "CCommonMark"]),
    // tokens -> theme
    .target(
      name: "Themes",
      dependencies: [
        "Threads", "StrictJSON", "VectorAsset", "SafeInput", "Primitives", "ThemesBundle",
      ]),
    // `Themes/` itself, shipped as a resource bundle (`OUDSBulletListRenderer_ThemesBundle.resources`
    // beside the executable) so that a library user's `BulletListRenderer()` finds the package's
    // copy without a checkout. A C target on purpose: SwiftPM gives a Swift target with resources a
    // `Bundle.module` accessor, which links all of Foundation into ouds-render (about 2.5 ms of
    // start-up on every run); a C target's bundle comes without one. Its folder is the package root
    // so that the bundle holds `Themes/`; everything else at the root is excluded.
    .target(
      name: "ThemesBundle", path: ".", exclude: themesBundleExclusions,
      sources: ["Sources/ThemesBundle"], resources: [.copy("Themes")],
      publicHeadersPath: "Sources/ThemesBundle/include"),
    // the plain value that says what to draw where
    .target(name: "Scene", dependencies: ["Primitives"]),
    // model + theme -> scene
    .target(name: "Layout", dependencies: ["BulletList", "Themes", "Scene", "Primitives"]),
    // PNG files <-> pixels: libspng decodes, ISA-L deflates on both cores (the door of libspng,
    // zlib and ISA-L); no drawing library
    .target(name: "PNG", dependencies: ["Threads", "SafeInput", "CSpng", "CZlib", "CIsal"]),
    // scene -> pixels, vectors (the door of Cairo, Pango, GLib, librsvg; fonts come from Fonts)
    .target(
      name: "Graphics",
      dependencies: [
        "Threads", "Fonts", "VectorAsset",
        "Scene", "Primitives", "SafeInput", "PNG", "CGraphics", "CRsvg", "CGraphicsLoader",
      ]),
    // two pictures -> a verdict, changed regions and a diff picture
    .target(name: "PixelDiff", dependencies: ["PNG", "Primitives", "SafeInput", "Threads"]),
    // the whole pipeline behind one call
    .target(
      name: "BulletListRenderer",
      dependencies: [
        "Threads", "Fonts",
        "BulletList", "Markdown", "Themes", "Scene", "Layout", "Graphics", "PNG", "Primitives",
        "SafeInput", "VectorAsset",
      ]),
    // the catalogue engine: cases, variants, references, record and verify, artifacts of a failure
    .target(
      name: "Snapshot",
      dependencies: [
        "Threads", "PNG", "PixelDiff", "Fonts",
        "BulletList", "BulletListRenderer", "Graphics", "Layout", "Scene", "StrictJSON", "Themes",
        "SafeInput", "Primitives",
      ]),
    // a run's results for people and CI: results.json and merge, JUnit, the Markdown and text
    // summaries, the causes of failures
    .target(
      name: "SnapshotReports",
      dependencies: [
        "Threads", "PNG", "PixelDiff", "BulletList", "BulletListRenderer", "Graphics", "Snapshot",
        "StrictJSON", "Themes", "SafeInput", "Primitives", "WebAssets", "Fonts",
      ]),
    // a run's files written: the HTML review page with its pictures, and every output of a
    // verify (results.json, JUnit, summary, page) in one place
    .target(
      name: "RunReports",
      dependencies: [
        "SnapshotReports", "Threads", "PNG", "PixelDiff", "BulletListRenderer", "Graphics",
        "Snapshot", "SafeInput", "Primitives", "WebAssets", "Fonts",
      ]),
    // the designers' workbench: the gallery of the catalogue and the review of a token change,
    // as HTML pages and paged PDFs
    .target(
      name: "Workbench",
      dependencies: [
        "Threads", "PNG", "PixelDiff", "BulletList", "BulletListRenderer", "Graphics", "Layout",
        "Scene", "Snapshot", "SnapshotReports", "StrictJSON", "Themes", "SafeInput", "Primitives",
        "WebAssets",
      ]),
    // assertSnapshot for other packages' tests
    .target(
      name: "OUDSSnapshotTesting",
      dependencies: [
        "Threads", "PixelDiff",
        "BulletList", "BulletListRenderer", "Layout", "SafeInput", "Snapshot", "Themes",
        "Primitives",
      ]),
    // the web pages' style sheets, scripts and HTML templates, as files (CSS, JS, HTML) compiled
    // into the code: nothing to find at run time, no bundle, no Foundation (WebAssetsTests checks
    // the scripts' syntax with node)
    .target(
      name: "WebAssets",
      resources: [
        .embedInCode("settle-images.js"),
        .embedInCode("review-report.css"), .embedInCode("review-report.js"),
        .embedInCode("gallery.css"), .embedInCode("gallery.js"),
        .embedInCode("snapshot-review.html"), .embedInCode("snapshot-review.css"),
        .embedInCode("snapshot-review.js"),
        .embedInCode("preview.html"), .embedInCode("preview.css"), .embedInCode("preview.js"),
        .embedInCode("preview-docs.js"), .embedInCode("preview-docs.css"),
      ]),
    // `preview`'s and `snapshot review`'s web server: the pages, pictures and events, the request
    // checks (libmicrohttpd's door); what they show comes from the command
    .target(
      name: "PreviewServer", dependencies: ["Threads", "CHTTPLoader", "StrictJSON", "WebAssets"]),
    // what `snapshot review` shows and does: a run's failures from its results folders, accepted
    // by running `snapshot accept` itself
    .target(
      name: "SnapshotReview",
      dependencies: ["PreviewServer", "SnapshotReports", "Snapshot", "SafeInput"]),
    // what `preview` shows and when: the list, a folder's lists or the pasted one in the page's
    // state, the page's controls, the equivalent command line, and the watch that tells the pages;
    // the pictures are drawn by the command line (`PreviewDrawing`), which parses their options
    .target(
      name: "LivePreview",
      dependencies: [
        "PreviewServer", "FileWatch", "Threads", "SafeInput", "StrictJSON", "Primitives",
      ]),
    // the preview's docs view of a list: its source, case variants, tokens, audit and spoken
    // text, from the gallery's, the catalogue's and `audit`'s own code
    .target(
      name: "PreviewDocs",
      dependencies: [
        "BulletList", "BulletListRenderer", "Layout", "Primitives", "Snapshot", "Themes",
        "Workbench",
      ]),
    // the command-line parser: option tables, typed values checked at parse time, `--help`,
    // shell completions, the man page and the Markdown reference, all from the same tables
    .target(name: "CLIKit", dependencies: ["Primitives", "SafeInput"]),
    .executableTarget(
      name: "ouds-render",
      dependencies: [
        "CLIKit", "Fonts",
        "Threads", "PNG", "PixelDiff", "SnapshotReports", "RunReports", "Workbench",
        "PreviewServer",
        "LivePreview", "PreviewDocs", "FileWatch", "SnapshotReview",
        "BulletList", "BulletListRenderer", "Graphics", "Layout", "Scene", "Snapshot", "Themes",
        "SafeInput", "StrictJSON", "Primitives",
      ]),

    // Test targets declare every module they import; CLITests and SnapshotTests depend on the
    // executable so that SwiftPM builds `ouds-render` before the tests, which run that binary from
    // their own build folder (SnapshotTests runs the review page's accept command).
    .testTarget(name: "PrimitivesTests", dependencies: ["Primitives"]),
    .testTarget(name: "CLIKitTests", dependencies: ["CLIKit"]),
    .testTarget(name: "SafeInputTests", dependencies: ["SafeInput", "Primitives", "Threads"]),
    .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
    .testTarget(name: "BulletListTests", dependencies: ["BulletList", "StrictJSON", "Primitives"]),
    .testTarget(name: "MarkdownTests", dependencies: ["BulletList", "Markdown", "Primitives"]),
    .testTarget(name: "VectorAssetTests", dependencies: ["VectorAsset", "Primitives"]),
    // ReferenceTokens/ is read from the source tree (and hashed with Graphics' SHA-256), not bundled.
    .testTarget(
      name: "ThemesTests",
      dependencies: ["Themes", "StrictJSON", "VectorAsset", "Graphics", "Primitives", "Fonts"],
      exclude: ["ReferenceTokens"]),
    // what several test targets share (the repository's folders, scratch copies of the catalogue
    // and themes, one renderer per run); only test targets depend on it
    .target(
      name: "TestSupport",
      dependencies: [
        "BulletList", "BulletListRenderer", "Layout", "PNG", "Primitives", "Scene", "Snapshot",
        "Themes", "Threads",
      ],
      path: "Tests/TestSupport"),
    .testTarget(
      name: "WorkbenchTests",
      dependencies: [
        "Workbench", "TestSupport", "BulletList", "BulletListRenderer", "Fonts", "Graphics",
        "Layout", "PNG", "Primitives", "Scene", "Snapshot", "SnapshotReports", "Themes",
      ]),
    .testTarget(
      name: "SnapshotReportsTests",
      dependencies: [
        "SnapshotReports", "RunReports", "TestSupport", "BulletList", "Fonts", "Graphics", "PNG",
        "PixelDiff",
        "Primitives", "SafeInput", "Snapshot", "StrictJSON", "Themes",
      ]),
    .testTarget(
      name: "LayoutTests",
      dependencies: [
        "Workbench", "TestSupport",
        "Fonts",
        "PNG",
        "Threads",
        "BulletList", "Themes", "Scene", "Layout", "Graphics", "BulletListRenderer", "Primitives",
        "SafeInput",
      ]),
    .testTarget(
      name: "GraphicsTests",
      dependencies: [
        "PNG", "Fonts",
        "Threads",
        "Scene", "Themes", "VectorAsset", "Graphics", "CSpng", "CZlib", "Primitives", "SafeInput",
      ]),
    // the PNG codec and encoder; RenderStackTests there reads the drawing libraries' versions
    .testTarget(
      name: "PNGTests", dependencies: ["PNG", "Graphics", "Scene", "Threads", "CSpng", "CZlib"]),
    .testTarget(
      name: "PixelDiffTests",
      dependencies: ["PixelDiff", "PNG", "Graphics", "Snapshot", "Primitives", "Threads"]),
    // `preview`'s web site driven in process with request values (no socket, no browser)
    .testTarget(name: "PreviewServerTests", dependencies: ["PreviewServer", "Threads"]),
    // the pages' files embedded as written, and their scripts checked by node
    .testTarget(name: "WebAssetsTests", dependencies: ["WebAssets"]),
    .testTarget(
      name: "PreviewDocsTests",
      dependencies: [
        "PreviewDocs", "BulletListRenderer", "Layout", "Primitives", "Snapshot", "Themes",
        "Workbench",
      ]),
    .testTarget(
      name: "SnapshotTests",
      dependencies: [
        "Threads", "TestSupport",
        "SnapshotReports", "RunReports",
        "PNG", "PixelDiff",
        "BulletList", "BulletListRenderer", "Themes", "Scene", "Graphics", "SafeInput", "Snapshot",
        "OUDSSnapshotTesting", "Primitives", "StrictJSON", "ouds-render",
      ]),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "CLIKit", "Fonts", "PNG",
        "Threads",
        "BulletListRenderer", "Graphics", "Themes", "SafeInput", "Primitives", "PreviewServer",
        "ouds-render",
      ]),
    // seeded, in-process fuzzing of the list reader, the token loader, the Markdown parser and
    // the results.json reader
    .testTarget(
      name: "FuzzTests",
      dependencies: [
        "SnapshotReports",
        "BulletList", "Markdown", "Primitives", "SafeInput", "Snapshot", "StrictJSON", "Themes",
      ]),
  ]
)
