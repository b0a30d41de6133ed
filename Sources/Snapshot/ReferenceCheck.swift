import BulletList
import BulletListRenderer
import Dispatch
import Fonts
import Graphics
import PNG
import PixelDiff
import SafeInput
import Scene

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The per-reference building blocks of verify and record, which `assertSnapshot` uses too.
extension SnapshotEngine {
  /// Compares one reference stored under `directory` with a fresh render; the building block of verify and `assertSnapshot`.
  ///
  /// The layout JSON is made location-independent first (see ``SnapshotLayout/portable(_:snapshotsDirectory:sourceDirectory:)``):
  /// free icon paths are relative to `directory` or to `sourceDirectory` (the case or test file's folder).
  ///
  /// `recordAdvice` says how to record a missing reference, in the message of a `missing` row.
  public static func check(
    _ reference: SnapshotReference, in directory: URL, renderer: BulletListRenderer,
    options: DiffOptions,
    sourceDirectory: URL? = nil, recordAdvice: String = cliRecordAdvice
  ) -> SnapshotOutcome {
    let start = DispatchTime.now().uptimeNanoseconds
    func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    // The case file's tolerance for this variant replaces the run's keys it gives.
    let tolerance = SnapshotTolerance(options).overridden(by: reference.variant.tolerance)
    let render: Render
    do {
      render = try Render(
        reference, renderer: renderer, snapshotsDirectory: directory,
        sourceDirectory: sourceDirectory)
    } catch {
      let failure = SnapshotFailure(
        kind: .error, message: "cannot render: \(reference.describing(error))")
      return SnapshotOutcome(
        reference: reference, result: .failed(failure), seconds: seconds(), tolerance: tolerance)
    }
    let imageURL = directory.appendingPathComponent(reference.imagePath)
    let layoutURL = directory.appendingPathComponent(reference.layoutPath)
    var unreadable: [String] = []
    var linksOut = false
    // A reference that is not a regular file, or over its size limit, fails this row only; one
    // that leads out of the references folder through a symbolic link is not read at all (its
    // bytes would be compared and copied into the artifacts).
    func readReference(_ url: URL, _ relative: String, kind: UserFileKind) -> Data? {
      if case .failure(let problem) = FolderReference.resolve(relative, inside: directory) {
        unreadable.append(
          "\(MessageText.path(relative)) \(problem.message(folder: "the references folder"))")
        linksOut = true
        return nil
      }
      do {
        return try UserFile.read(url.path, kind: kind)
      } catch {
        if case .missing = error.problem { return nil }
        unreadable.append("\(MessageText.path(relative)): \(error.reason)")
        return nil
      }
    }
    let expectedData = readReference(imageURL, reference.imagePath, kind: .referenceImage)
    let expectedLayoutData = readReference(
      layoutURL, reference.layoutPath, kind: .referenceLayout)
    let expectedLayout = expectedLayoutData.map { String(decoding: $0, as: UTF8.self) }
    // What merge and accept hold the files here against: the bytes compared, hashed once here.
    let digests = ReferenceDigests(
      png: expectedData.map(SHA256Digest.hex(of:)),
      layout: expectedLayoutData.map(SHA256Digest.hex(of:)))
    let drawn = SnapshotOutcome.colors(in: render.layoutJSON).union(
      expectedLayout.map(SnapshotOutcome.colors(in:)) ?? [])
    if !unreadable.isEmpty {
      let failure = SnapshotFailure(
        kind: .error,
        message: unreadable.joined(separator: "; ")
          + (linksOut
            ? "; re-record it (recording replaces the link with a file)" : "; re-record it"),
        evidence: FailureEvidence(
          actualImage: render.image, actualLayout: render.layoutJSON, expectedLayout: expectedLayout
        ))
      var outcome = SnapshotOutcome(
        reference: reference, result: .failed(failure), seconds: seconds(), tolerance: tolerance)
      outcome.referenceDigests = digests
      outcome.drawnColors = drawn
      return outcome
    }

    var kind: SnapshotFailure.Kind?  // nil while the reference passes
    var message: String?
    var diff: DiffResult?
    var expectedImage: RasterImage?
    if let expectedData {
      do {
        let expected = try PNGCodec.decode(expectedData)
        let comparison = ImageDiff.compare(
          expected: expected, actual: render.image, options: tolerance.applied(to: options))
        diff = comparison
        if !comparison.passes {
          kind = .changed
          expectedImage = expected
        }
      } catch {
        kind = .error
        message =
          "\(MessageText.path(reference.imagePath)) is not a readable PNG (\(error)); re-record it"
      }
    }
    var layoutDiff: [String] = []
    if let expectedLayout {
      layoutDiff = TextDiff.unified(old: expectedLayout, new: render.layoutJSON)
      if !layoutDiff.isEmpty, kind == nil { kind = .changed }
      if !layoutDiff.isEmpty, kind == .changed, message == nil {
        message = SpokenTextChange.summary(
          expectedLayout: expectedLayout, actualLayout: render.layoutJSON)
      }
    }
    if expectedData == nil || expectedLayout == nil {
      let missing = [
        expectedData == nil ? reference.imagePath : nil,
        expectedLayout == nil ? reference.layoutPath : nil,
      ]
      .compactMap { $0 }
      // An empty advice leaves the note bare: `assertSnapshot` gives its one command on a line of
      // its own.
      let advice = recordAdvice.isEmpty ? "" : " (\(recordAdvice))"
      let note = "no reference: \(missing.joined(separator: " and ")) missing\(advice)"
      if kind == .error {
        message = [message, note].compactMap { $0 }.joined(separator: "; ")
      } else {
        kind = .missing
        message = note
      }
    }
    guard let kind else {
      var outcome = SnapshotOutcome(
        reference: reference, result: .passed(diff), seconds: seconds(), tolerance: tolerance)
      outcome.referenceDigests = digests
      outcome.drawnColors = drawn
      return outcome
    }
    let evidence = FailureEvidence(
      actualImage: render.image, actualLayout: render.layoutJSON, expectedPNG: expectedData,
      expectedImage: expectedImage, expectedLayout: expectedLayout)
    let failure = SnapshotFailure(
      kind: kind, diff: diff, layoutDiff: layoutDiff, message: message, evidence: evidence)
    var outcome = SnapshotOutcome(
      reference: reference, result: .failed(failure), seconds: seconds(), tolerance: tolerance)
    outcome.referenceDigests = digests
    outcome.drawnColors = drawn
    return outcome
  }

  /// How the command line records a missing reference, in a `missing` row's message.
  public static let cliRecordAdvice = "record it with 'ouds-render snapshot record --missing'"

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
    checkExisting: Bool = false, protecting inputs: InputFiles = InputFiles(),
    recordAdvice: String = cliRecordAdvice
  ) -> SnapshotOutcome {
    let start = DispatchTime.now().uptimeNanoseconds
    let imageURL = directory.appendingPathComponent(reference.imagePath)
    let layoutURL = directory.appendingPathComponent(reference.layoutPath)
    let imageExists = FileManager.default.fileExists(atPath: imageURL.path)
    let layoutExists = FileManager.default.fileExists(atPath: layoutURL.path)
    switch mode {
    case .never:
      return check(
        reference, in: directory, renderer: renderer, options: options,
        sourceDirectory: sourceDirectory, recordAdvice: recordAdvice)
    case .missing:
      if imageExists && layoutExists {
        if checkExisting {
          return check(
            reference, in: directory, renderer: renderer, options: options,
            sourceDirectory: sourceDirectory, recordAdvice: recordAdvice)
        }
        return SnapshotOutcome(
          reference: reference, result: .skipped(reason: "exists, not checked (record --missing)"))
      }
    case .failed:
      let verified = check(
        reference, in: directory, renderer: renderer, options: options,
        sourceDirectory: sourceDirectory, recordAdvice: recordAdvice)
      // An unreadable reference is a failure too: its message says to re-record it.
      guard verified.isFailure else { return verified }
    case .all:
      break
    }
    do {
      try replaceLinksOut(of: reference, in: directory)
      let render = try Render(
        reference, renderer: renderer, snapshotsDirectory: directory,
        sourceDirectory: sourceDirectory)
      var wrote: [String] = []
      let protected = inputs.union(
        renderer.inputFiles(for: reference.list, themes: [reference.variant.theme]))
      // Kept by pixels: a reference whose decoded pixels are the render's is left as it is, byte
      // for byte, whatever encoder wrote it (the deflate's bytes depend on the machine: igzip
      // picks its kernels by CPU), and counts as unchanged.
      if !(mode == .missing && imageExists),
        !Self.holdsPixels(of: render.image, existing(imageURL, kind: .referenceImage))
      {
        let png = try PNGCodec.encode(render.image)
        try AtomicFile.write(png, to: imageURL.path, createDirectories: true, protecting: protected)
        wrote.append(reference.imagePath)
      }
      let layout = Data(render.layoutJSON.utf8)
      if !(mode == .missing && layoutExists), existing(layoutURL, kind: .referenceLayout) != layout
      {
        try AtomicFile.write(
          layout, to: layoutURL.path, createDirectories: true, protecting: protected)
        wrote.append(reference.layoutPath)
      }
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      return SnapshotOutcome(
        reference: reference, result: wrote.isEmpty ? .passed(nil) : .recorded(written: wrote),
        seconds: seconds)
    } catch {
      let failure = SnapshotFailure(
        kind: .error, message: "cannot record: \(MessageText.escaped("\(error)"))")
      return SnapshotOutcome(reference: reference, result: .failed(failure))
    }
  }

  /// Removes a reference PNG or layout JSON that is a symbolic link leading out of `directory`
  /// (the link only, never its target), so that recording writes a file in its place; refuses a
  /// case folder that leads out (the references would be written outside).
  /// - Throws: ``ReferenceLinkError`` naming the path.
  static func replaceLinksOut(of reference: SnapshotReference, in directory: URL)
    throws(ReferenceLinkError)
  {
    if case .failure(let problem) = FolderReference.resolve(reference.caseName, inside: directory) {
      throw ReferenceLinkError(
        description:
          "\(MessageText.path(reference.caseName))/ \(problem.message(folder: "the references folder")); remove the link"
      )
    }
    for relative in [reference.imagePath, reference.layoutPath] {
      let path = directory.appendingPathComponent(relative).path
      guard UserFile.type(atPath: path) == .symbolicLink,
        case .failure = FolderReference.resolve(relative, inside: directory)
      else { continue }
      guard unlink(path) == 0 else {
        throw ReferenceLinkError(
          description:
            "\(MessageText.path(relative)) is a symbolic link out of the references folder and cannot be removed: \(String(cString: strerror(errno)))"
        )
      }
    }
  }

  /// Whether `png` (an existing reference's bytes) decodes to exactly the pixels of `image`: same
  /// size, same RGBA values everywhere; false for nil or bytes that are not a readable PNG.
  static func holdsPixels(of image: RasterImage, _ png: Data?) -> Bool {
    guard let png, let decoded = try? PNGCodec.decode(png) else { return false }
    return decoded == image
  }

  /// The bytes of an existing reference, or nil when it is absent or not a readable regular file.
  private static func existing(_ url: URL, kind: UserFileKind) -> Data? {
    try? UserFile.read(url.path, kind: kind)
  }
}

/// A reference that cannot be recorded because its case folder, or itself, is a symbolic link out
/// of the references folder that cannot be replaced.
struct ReferenceLinkError: Error, CustomStringConvertible {
  /// The path and the problem, one line.
  var description: String
}

/// One fresh render of a reference: the pixels and the location-independent layout JSON text.
struct Render {
  var image: RasterImage
  var layoutJSON: String

  init(
    _ reference: SnapshotReference, renderer: BulletListRenderer, snapshotsDirectory: URL,
    sourceDirectory: URL?
  ) throws {
    let variant = reference.variant
    let result = try renderer.rasterize(
      reference.list, theme: variant.theme, mode: variant.mode, options: variant.options,
      scale: variant.scale)
    image = result.image
    let scene = SnapshotLayout.portable(
      result.scene, snapshotsDirectory: snapshotsDirectory, sourceDirectory: sourceDirectory)
    layoutJSON = try SceneJSON.encode(scene) + "\n"
  }
}
