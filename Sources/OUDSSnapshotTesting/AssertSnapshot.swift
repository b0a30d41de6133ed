import BulletList
import BulletListRenderer
import Layout
import PixelDiff
import Primitives
import SafeInput
import Snapshot
import Testing
import Themes
import Threads
import XCTest

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where `assertSnapshot` keeps references and artifacts, and how it renders.
public struct SnapshotTestSettings: Sendable {
  /// The references folder; nil uses `__Snapshots__/<TestFileName>/` beside the calling test file.
  public var directory: URL?
  /// A `Themes/` folder; nil takes `OUDS_THEMES_DIR`, else a `Themes/` in the current folder or its
  /// parents, else the copy shipped in the package's resource bundle.
  public var themesDirectory: URL?
  /// A folder of licensed brand fonts, or nil for the open substitutes.
  public var brandFontDirectory: URL?
  /// The record mode; nil reads `OUDS_SNAPSHOT_RECORD` (default `missing`, `never` under `CI`).
  public var record: SnapshotRecordMode?
  /// Where failures write expected/actual/diff; nil reads `OUDS_SNAPSHOT_ARTIFACTS`, else `.build/snapshot-artifacts`.
  public var artifactsDirectory: URL?
  /// How pixels are compared (exact by default).
  public var diffOptions: DiffOptions

  /// Creates settings; every default follows the environment.
  public init(
    directory: URL? = nil, themesDirectory: URL? = nil, brandFontDirectory: URL? = nil,
    record: SnapshotRecordMode? = nil, artifactsDirectory: URL? = nil,
    diffOptions: DiffOptions = DiffOptions()
  ) {
    self.directory = directory
    self.themesDirectory = themesDirectory
    self.brandFontDirectory = brandFontDirectory
    self.record = record
    self.artifactsDirectory = artifactsDirectory
    self.diffOptions = diffOptions
  }
}

/// Checks a render of `list` against its reference and reports a failure to Swift Testing or XCTest.
///
/// The reference is `<folder>/<name>/<theme>-<mode>[-<variant>]@<scale>x.png` plus the layout JSON
/// `<theme>-<mode>[-<variant>].layout.json`, where the folder is `__Snapshots__/<TestFileName>/`
/// beside the test file unless `settings.directory` says otherwise. Inside a Swift Testing test the
/// failure is an `Issue` with the reference, the expected, actual and diff pictures attached;
/// otherwise it is an `XCTFail`. Recording a reference also fails the test, so nothing is written
/// silently, and a failure says how to accept the change.
/// - Parameters:
///   - list: the list to render.
///   - theme: the theme.
///   - mode: light or dark.
///   - name: the snapshot's name, a folder under the references folder; nil names it after the
///     test (``testSnapshotName(function:)``): give one when a test checks several lists.
///   - variant: an optional suffix for non-default `options` (e.g. `rtl`).
///   - options: width, background, locale, direction, text style override, platform.
///   - scale: PNG pixels per point (default 2).
///   - settings: folders, record mode and diff options.
///   - function: the calling function, the name when `name` is nil outside Swift Testing.
///   - fileID: the calling file's ID, where a Swift Testing issue is reported (the default).
///   - filePath: the calling file's path: the references folder is found beside it.
///   - line: the line a failure is reported at (the default: the call's).
///   - column: the column a failure is reported at (the default: the call's).
public func assertSnapshot(
  of list: OUDSBulletList, theme: ThemeName, mode: ColorMode, named name: String? = nil,
  variant: String? = nil, options: LayoutOptions = LayoutOptions(), scale: Int = 2,
  settings: SnapshotTestSettings = SnapshotTestSettings(), function: StaticString = #function,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) {
  let failure = checkSnapshot(
    of: list, theme: theme, mode: mode,
    named: name ?? testSnapshotName(function: "\(function)"), variant: variant,
    options: options, scale: scale, settings: settings, filePath: "\(filePath)")
  guard let failure else { return }
  report(failure, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks `list` in every theme × mode × platform asked for, one reference each, and reports
/// every variant that fails (each its own issue), not only the first.
///
/// The references are those of ``assertSnapshot(of:theme:mode:named:variant:options:scale:settings:function:fileID:filePath:line:column:)``;
/// Android renders get the suffix `android` (after `variant`, when given).
/// - Parameters:
///   - list: the list to render.
///   - themes: the themes (default: all four).
///   - modes: the modes (default: light and dark).
///   - platforms: whose rules (default: iOS only).
///   - name: the snapshot's name; nil names it after the test.
///   - variant: an optional suffix for non-default `options`.
///   - options: width, background, locale, direction, text style override (the platform is each
///     of `platforms`).
///   - scale: PNG pixels per point (default 2).
///   - settings: folders, record mode and diff options.
///   - function: the calling function, the name when `name` is nil outside Swift Testing.
///   - fileID: the calling file's ID.
///   - filePath: the calling file's path.
///   - line: the line failures are reported at.
///   - column: the column failures are reported at.
public func assertSnapshots(
  of list: OUDSBulletList, themes: [ThemeName] = ThemeName.allCases,
  modes: [ColorMode] = ColorMode.allCases, platforms: [Platform] = [.ios],
  named name: String? = nil, variant: String? = nil, options: LayoutOptions = LayoutOptions(),
  scale: Int = 2, settings: SnapshotTestSettings = SnapshotTestSettings(),
  function: StaticString = #function, fileID: StaticString = #fileID,
  filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
  let name = name ?? testSnapshotName(function: "\(function)")
  for theme in themes {
    for mode in modes {
      for platform in platforms {
        let options = options.on(platform)
        let suffix = platform == .ios ? variant : (variant.map { $0 + "-" } ?? "") + "android"
        if let failure = checkSnapshot(
          of: list, theme: theme, mode: mode, named: name, variant: suffix, options: options,
          scale: scale, settings: settings, filePath: "\(filePath)")
        {
          report(failure, fileID: fileID, filePath: filePath, line: line, column: column)
        }
      }
    }
  }
}

/// The snapshot name of the running test: Swift Testing's test function (`onboardingList()` gives
/// `onboardingList`), else `function` (XCTest's `testOnboarding()` gives `testOnboarding`); the
/// characters a case name may not hold become `-`.
public func testSnapshotName(function: String) -> String {
  let raw = Test.current?.name ?? function
  let stem = raw.prefix { $0 != "(" }
  var name = String(
    stem.unicodeScalars.map { scalar -> Character in
      (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
        || "._-".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
    })
  while name.hasPrefix("-") || name.hasPrefix(".") || name.hasPrefix("_") { name.removeFirst() }
  return name.isEmpty ? "snapshot" : name
}

/// What failed, for the test framework: the message and the pictures to attach.
struct SnapshotTestFailure {
  /// The message: a title line, then the details and how to accept.
  var message: String
  /// The pictures of the failure (expected, actual, diff PNG), by file name.
  var attachments: [(name: String, bytes: [UInt8])]
}

/// Reports `failure` to Swift Testing (an issue, the pictures attached) or XCTest.
private func report(
  _ failure: SnapshotTestFailure, fileID: StaticString, filePath: StaticString, line: UInt,
  column: UInt
) {
  guard Test.current != nil else {
    XCTFail(failure.message, file: filePath, line: line)
    return
  }
  let location = SourceLocation(
    fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  for attachment in failure.attachments {
    Attachment.record(attachment.bytes, named: attachment.name, sourceLocation: location)
  }
  // Recorded as an error whose text is the message: Swift Testing then heads the issue with the
  // message's first line (`Caught error: Snapshot changed: <name>`), where a comment would sit
  // under a bare `Issue recorded`.
  Issue.record(SnapshotTestIssue(message: failure.message), sourceLocation: location)
}

/// A snapshot failure as Swift Testing reports it: its text is the message, whose first line is
/// `Snapshot changed: <name>` (or `missing`, `recorded`, `error`).
public struct SnapshotTestIssue: Error, CustomStringConvertible, Sendable {
  /// The whole message: the title line, the details, the one command that accepts it.
  public var message: String
  /// The message, as Swift Testing prints it.
  public var description: String { message }
}

/// Checks (or records) a render of `list` and returns the failure message, or nil when it matches.
///
/// The testable core of ``assertSnapshot(of:theme:mode:named:variant:options:scale:settings:function:fileID:filePath:line:column:)``:
/// same folders, record modes and artifacts, without reporting to a test framework.
public func verifySnapshot(
  of list: OUDSBulletList, theme: ThemeName, mode: ColorMode, named name: String,
  variant: String? = nil, options: LayoutOptions = LayoutOptions(), scale: Int = 2,
  settings: SnapshotTestSettings = SnapshotTestSettings(), filePath: String = #filePath,
  environment: [String: String] = ProcessInfo.processInfo.environment
) -> String? {
  checkSnapshot(
    of: list, theme: theme, mode: mode, named: name, variant: variant, options: options,
    scale: scale, settings: settings, filePath: filePath, environment: environment)?.message
}

/// ``verifySnapshot(of:theme:mode:named:variant:options:scale:settings:filePath:environment:)``
/// with the failure's pictures, for the test framework to attach.
func checkSnapshot(
  of list: OUDSBulletList, theme: ThemeName, mode: ColorMode, named name: String,
  variant: String? = nil, options: LayoutOptions = LayoutOptions(), scale: Int = 2,
  settings: SnapshotTestSettings = SnapshotTestSettings(), filePath: String = #filePath,
  environment: [String: String] = ProcessInfo.processInfo.environment
) -> SnapshotTestFailure? {
  func failure(_ message: String) -> SnapshotTestFailure {
    SnapshotTestFailure(message: message, attachments: [])
  }
  if let problem = SnapshotCatalogue.nameProblem(name, reserved: []) {
    return failure("snapshot name \"\(name)\": \(problem)")
  }
  let recordMode: SnapshotRecordMode
  do {
    recordMode = try settings.record ?? SnapshotRecordMode.fromEnvironment(environment)
  } catch {
    return failure("\(error)")
  }
  let testFile = URL(fileURLWithPath: filePath)
  let directory =
    settings.directory
    ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
  let reference = SnapshotReference(
    caseName: name,
    variant: SnapshotVariant(
      theme: theme, mode: mode, scale: scale, suffix: variant, options: options),
    list: list)

  // Exactly one command per situation, on a line of its own: the same test, recording what
  // failed (a missing reference with `missing`, a changed one with `failed`).
  let filter = shellQuote(testFilter(fallback: name))
  let existed = FileManager.default.fileExists(
    atPath: directory.appendingPathComponent(reference.imagePath).path)
  let outcome: SnapshotOutcome
  do {
    outcome = try RendererPool.shared.withRenderer(
      themes: settings.themesDirectory, fonts: settings.brandFontDirectory
    ) { renderer in
      SnapshotEngine.record(
        reference, in: directory, renderer: renderer, mode: recordMode,
        options: settings.diffOptions,
        sourceDirectory: testFile.deletingLastPathComponent(), checkExisting: true,
        recordAdvice: "")
    }
  } catch {
    return failure("Snapshot error: \(reference.id)\ncannot make a renderer: \(error)")
  }
  switch outcome.status {
  case .passed, .skipped:
    return nil
  case .recorded:
    // Recording fails the test once, so that nothing is written silently.
    let what =
      existed
      ? "rewrote the reference in \(directory.path)"
      : "recorded a new reference in \(directory.path)"
    return failure(
      "Snapshot recorded: \(reference.id)\n\(what) (\(outcome.message ?? "")); "
        + "record mode \(recordMode): re-run the test to verify it, then commit \(directory.path)")
  case .changed, .missing, .error:
    let artifacts =
      settings.artifactsDirectory
      ?? URL(
        fileURLWithPath: environment["OUDS_SNAPSHOT_ARTIFACTS"]
          ?? SnapshotArtifacts.defaultDirectory)
    let title =
      outcome.status == .missing
      ? "Snapshot missing" : outcome.status == .error ? "Snapshot error" : "Snapshot changed"
    var text = "\(title): \(reference.id)\n\(outcome.reason)"
    if outcome.status == .missing && recordMode == .never {
      text +=
        " [record mode never\(SnapshotRecordMode.isCI(environment) ? " because CI is set" : "")]"
    }
    if !outcome.layoutDiff.isEmpty {
      text +=
        "\n" + outcome.layoutDiff.prefix(SnapshotArtifacts.maxLayoutLines).joined(separator: "\n")
    }
    let variable = SnapshotRecordMode.environmentVariable
    switch outcome.status {
    case .missing:
      text +=
        "\nrecord it, after reviewing actual.png: \(variable)=missing swift test --filter \(filter), then commit \(directory.path)"
    case .changed:
      text += "\naccept, after reviewing it: \(variable)=failed swift test --filter \(filter)"
    default:
      break
    }
    var attachments: [(name: String, bytes: [UInt8])] = []
    do {
      // Artifacts never replace the references, the test file or the list's icons.
      let inputs = InputFiles(
        [reference.imagePath, reference.layoutPath].map {
          directory.appendingPathComponent($0).path
        }
          + [filePath] + list.iconFiles)
      try SnapshotArtifacts.writeOne(outcome, to: artifacts, protecting: inputs)
      let folder = artifacts.appendingPathComponent(SnapshotArtifacts.folder(for: reference))
      text += "\nartifacts: \(folder.path)"
      for image in ArtifactImage.attachmentOrder {
        let file = folder.appendingPathComponent(image.fileName)
        if let data = try? Data(contentsOf: file) {
          attachments.append(
            ("\(reference.caseName)-\(reference.variant.name)-\(image.fileName)", [UInt8](data)))
        }
      }
    } catch {
      text += "\n(cannot write artifacts: \(error))"
    }
    return SnapshotTestFailure(message: text, attachments: attachments)
  }
}

/// What `swift test --filter` takes to run the current test again: Swift Testing's test name,
/// else `fallback`.
private func testFilter(fallback: String) -> String {
  guard let test = Test.current else { return fallback }
  return String(test.name.prefix { $0 != "(" })
}

/// Renderers shared by tests that may run in parallel: each is used by one test at a time.
///
/// A renderer is not thread-safe (Pango), but it may move from thread to thread: the pool hands
/// each one to a single caller at a time, which is what makes the pool `Sendable`.
final class RendererPool: @unchecked Sendable {
  static let shared = RendererPool()
  private let idle = Locked<[String: [BulletListRenderer]]>([:])

  func withRenderer<Value>(
    themes: URL?, fonts: URL?, _ body: (BulletListRenderer) throws -> Value
  ) throws -> Value {
    let key = "\(themes?.path ?? "")|\(fonts?.path ?? "")"
    let pooled = idle.withLock { $0[key]?.popLast() }
    let renderer =
      try pooled ?? BulletListRenderer(themesDirectory: themes, brandFontDirectory: fonts)
    defer { idle.withLock { $0[key, default: []].append(renderer) } }
    return try body(renderer)
  }
}
