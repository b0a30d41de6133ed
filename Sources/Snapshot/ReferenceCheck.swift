import BulletListRenderer
import Dispatch
import Foundation
import Graphics
import SafeInput
import Scene

// The per-reference building blocks of verify and record, which `assertSnapshot` uses too.
extension SnapshotEngine {
  /// Compares one reference stored under `directory` with a fresh render; the building block of verify and `assertSnapshot`.
  ///
  /// The layout JSON is made location-independent first (see ``SnapshotLayout/portable(_:snapshotsDirectory:sourceDirectory:)``):
  /// free icon paths are relative to `directory` or to `sourceDirectory` (the case or test file's folder).
  public static func check(
    _ reference: SnapshotReference, in directory: URL, renderer: BulletListRenderer, options: DiffOptions,
    sourceDirectory: URL? = nil
  ) -> SnapshotOutcome {
    let start = DispatchTime.now().uptimeNanoseconds
    func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    let render: Render
    do {
      render = try Render(reference, renderer: renderer, snapshotsDirectory: directory, sourceDirectory: sourceDirectory)
    } catch {
      return SnapshotOutcome(reference: reference, status: .error, message: "cannot render: \(error)", seconds: seconds())
    }
    let imageURL = directory.appendingPathComponent(reference.imagePath)
    let layoutURL = directory.appendingPathComponent(reference.layoutPath)
    var unreadable: [String] = []
    // A reference that is not a regular file, or over its size limit, fails this row only.
    func readReference(_ url: URL, _ relative: String, kind: UserFileKind) -> Data? {
      do {
        return try UserFile.read(url.path, kind: kind)
      } catch {
        if case .missing = error.problem { return nil }
        unreadable.append("\(MessageText.path(relative)): \(error.reason)")
        return nil
      }
    }
    let expectedData = readReference(imageURL, reference.imagePath, kind: .referenceImage)
    let expectedLayout = readReference(layoutURL, reference.layoutPath, kind: .referenceLayout)
      .map { String(decoding: $0, as: UTF8.self) }
    if !unreadable.isEmpty {
      var outcome = SnapshotOutcome(
        reference: reference, status: .error, message: unreadable.joined(separator: "; ") + "; re-record it",
        seconds: seconds())
      outcome.actualImage = render.image
      outcome.actualLayout = render.layoutJSON
      outcome.expectedLayout = expectedLayout
      return outcome
    }

    var outcome = SnapshotOutcome(reference: reference, status: .passed)
    if let expectedData {
      do {
        let expected = try PNGCodec.decode(expectedData)
        let diff = ImageDiff.compare(expected: expected, actual: render.image, options: options)
        outcome.diff = diff
        if !diff.passes {
          outcome.status = .changed
          outcome.expectedImage = expected
        }
      } catch {
        outcome.status = .error
        outcome.message = "\(MessageText.path(reference.imagePath)) is not a readable PNG (\(error)); re-record it"
      }
    }
    if let expectedLayout {
      outcome.layoutDiff = TextDiff.unified(old: expectedLayout, new: render.layoutJSON)
      if !outcome.layoutDiff.isEmpty, outcome.status == .passed { outcome.status = .changed }
    }
    if expectedData == nil || expectedLayout == nil {
      let missing = [expectedData == nil ? reference.imagePath : nil, expectedLayout == nil ? reference.layoutPath : nil]
        .compactMap { $0 }
      let note = "no reference: \(missing.joined(separator: " and ")) missing (record it with 'ouds-render snapshot record --missing')"
      if outcome.status == .error {
        outcome.message = [outcome.message, note].compactMap { $0 }.joined(separator: "; ")
      } else {
        outcome.status = .missing
        outcome.message = note
      }
    }
    if outcome.isFailure {
      outcome.expectedPNG = expectedData
      outcome.actualImage = render.image
      outcome.actualLayout = render.layoutJSON
      outcome.expectedLayout = expectedLayout
    }
    outcome.seconds = seconds()
    return outcome
  }

  /// Records one reference under `directory` in `mode`; the building block of record and `assertSnapshot`.
  ///
  /// In `missing` mode a reference whose PNG and layout JSON both exist is compared when
  /// `checkExisting` is true (the test suite and `assertSnapshot`), else neither rendered nor compared
  /// (status `skipped`, the CLI's `record --missing`); only absent files are ever written.
  ///
  /// A reference is never written over one of the files the render reads (its icons, the themes
  /// folder's files, the font files: ``BulletListRenderer/inputFiles(for:themes:)``) nor over `inputs`
  /// (the case files).
  public static func record(
    _ reference: SnapshotReference, in directory: URL, renderer: BulletListRenderer,
    mode: SnapshotRecordMode, options: DiffOptions, sourceDirectory: URL? = nil,
    checkExisting: Bool = false, protecting inputs: InputFiles = InputFiles()
  ) -> SnapshotOutcome {
    let start = DispatchTime.now().uptimeNanoseconds
    let imageURL = directory.appendingPathComponent(reference.imagePath)
    let layoutURL = directory.appendingPathComponent(reference.layoutPath)
    let imageExists = FileManager.default.fileExists(atPath: imageURL.path)
    let layoutExists = FileManager.default.fileExists(atPath: layoutURL.path)
    switch mode {
    case .never:
      return check(reference, in: directory, renderer: renderer, options: options, sourceDirectory: sourceDirectory)
    case .missing:
      if imageExists && layoutExists {
        if checkExisting {
          return check(reference, in: directory, renderer: renderer, options: options, sourceDirectory: sourceDirectory)
        }
        return SnapshotOutcome(reference: reference, status: .skipped, message: "exists, not checked (record --missing)")
      }
    case .failed:
      let verified = check(reference, in: directory, renderer: renderer, options: options, sourceDirectory: sourceDirectory)
      // An unreadable reference is a failure too: its message says to re-record it.
      guard verified.status == .changed || verified.status == .missing || verified.status == .error
      else { return verified }
    case .all:
      break
    }
    do {
      let render = try Render(reference, renderer: renderer, snapshotsDirectory: directory, sourceDirectory: sourceDirectory)
      var wrote: [String] = []
      let protected = inputs.union(renderer.inputFiles(for: reference.list, themes: [reference.variant.theme]))
      let png = try PNGCodec.encode(render.image)
      if !(mode == .missing && imageExists), existing(imageURL, kind: .referenceImage) != png {
        try AtomicFile.write(png, to: imageURL.path, createDirectories: true, protecting: protected)
        wrote.append(reference.imagePath)
      }
      let layout = Data(render.layoutJSON.utf8)
      if !(mode == .missing && layoutExists), existing(layoutURL, kind: .referenceLayout) != layout {
        try AtomicFile.write(layout, to: layoutURL.path, createDirectories: true, protecting: protected)
        wrote.append(reference.layoutPath)
      }
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      if wrote.isEmpty {
        return SnapshotOutcome(reference: reference, status: .passed, seconds: seconds)
      }
      return SnapshotOutcome(
        reference: reference, status: .recorded, message: "wrote " + wrote.joined(separator: ", "), seconds: seconds)
    } catch {
      return SnapshotOutcome(reference: reference, status: .error, message: "cannot record: \(MessageText.escaped("\(error)"))")
    }
  }

  /// The bytes of an existing reference, or nil when it is absent or not a readable regular file.
  private static func existing(_ url: URL, kind: UserFileKind) -> Data? {
    try? UserFile.read(url.path, kind: kind)
  }
}

/// One fresh render of a reference: the pixels and the location-independent layout JSON text.
struct Render {
  var image: RasterImage
  var layoutJSON: String

  init(_ reference: SnapshotReference, renderer: BulletListRenderer, snapshotsDirectory: URL, sourceDirectory: URL?) throws {
    let variant = reference.variant
    let result = try renderer.rasterize(
      reference.list, theme: variant.theme, mode: variant.mode, options: variant.options, scale: variant.scale)
    image = result.image
    let scene = SnapshotLayout.portable(
      result.scene, snapshotsDirectory: snapshotsDirectory, sourceDirectory: sourceDirectory)
    layoutJSON = try SceneJSON.encode(scene) + "\n"
  }
}
