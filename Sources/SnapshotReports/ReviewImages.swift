import PixelDiff
import SafeInput
import Snapshot

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the review page takes the pictures of a failure from.
public protocol ReviewImageSource: Sendable {
  /// The PNG bytes of `image` of `reference` (one of the keys of its ``ReferenceResult/images``).
  /// - Throws: an error naming the file or the picture that cannot be had.
  func data(for reference: ReferenceResult, image: ReferenceResult.Image) throws -> Data
}

/// The pictures of a run's failures, encoded from the run's memory.
public struct OutcomeImages: ReviewImageSource {
  private let failures: [String: SnapshotOutcome]

  /// The pictures of the failures of `report`.
  public init(_ report: SnapshotRunReport) {
    failures = Dictionary(
      report.failures.map { ($0.reference.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The bytes of `image`, encoded as the artifacts are.
  public func data(for reference: ReferenceResult, image: ReferenceResult.Image) throws -> Data {
    guard let outcome = failures[reference.id],
      let data = try SnapshotArtifacts.image(image, of: outcome)
    else {
      throw ReviewImageMissing(reference: reference.id, image: image)
    }
    return data
  }
}

/// The pictures of failures read from the artifact files of results folders (what
/// ``SnapshotArtifacts/write(_:to:suiteName:acceptCommand:root:)`` wrote), each confined to its
/// folder and checked to be a PNG of the size the results say.
public struct ArtifactImages: ReviewImageSource {
  private let folders: [String: URL]
  private let fallback: URL?

  /// The pictures of every reference under one artifacts folder.
  public init(folder: URL) {
    folders = [:]
    fallback = folder
  }

  /// The pictures of each reference id under its own results folder.
  public init(folders: [String: URL]) {
    self.folders = folders
    fallback = nil
  }

  /// Where the artifact file of `image` is (not checked), or nil when the results list none.
  public func location(for reference: ReferenceResult, image: ReferenceResult.Image) -> URL? {
    guard let folder = folders[reference.id] ?? fallback,
      let relative = reference.artifacts[image.fileName]
    else {
      return nil
    }
    return folder.appendingPathComponent(relative)
  }

  /// The path of the artifact file of `image`, once checked as ``data(for:image:)`` checks it, or
  /// nil when the results list none.
  /// - Throws: `SnapshotError` naming the file: outside its folder, unreadable, not a PNG or not
  ///   of the size the results say.
  public func checkedLocation(for reference: ReferenceResult, image: ReferenceResult.Image) throws
    -> String?
  {
    guard folders[reference.id] ?? fallback != nil, reference.artifacts[image.fileName] != nil
    else {
      return nil
    }
    return try checked(reference, image).path
  }

  /// The path and the bytes of the artifact file of `image`, checked as ``data(for:image:)``
  /// checks them.
  /// - Throws: `SnapshotError` naming the file: outside its folder, unreadable, not a PNG or not
  ///   of the size the results say.
  public func file(for reference: ReferenceResult, image: ReferenceResult.Image) throws -> (
    path: String, data: Data
  ) {
    try checked(reference, image)
  }

  /// The bytes of the artifact file of `image`.
  /// - Throws: `SnapshotError` naming the file: outside its folder, unreadable, not a PNG or not
  ///   of the size the results say.
  public func data(for reference: ReferenceResult, image: ReferenceResult.Image) throws -> Data {
    try checked(reference, image).data
  }

  private func checked(_ reference: ReferenceResult, _ image: ReferenceResult.Image) throws -> (
    path: String, data: Data
  ) {
    guard let folder = folders[reference.id] ?? fallback,
      let relative = reference.artifacts[image.fileName]
    else {
      throw ReviewImageMissing(reference: reference.id, image: image)
    }
    let path: String
    switch FolderReference.resolve(relative, inside: folder) {
    case .success(let resolved): path = resolved
    case .failure(let problem):
      throw SnapshotError.artifactInvalid(
        path: folder.appendingPathComponent(relative).path,
        reason: problem.message(folder: "its results folder"))
    }
    let data: Data
    do {
      data = try UserFile.read(path, kind: .artifactImage)
    } catch {
      throw SnapshotError.artifactUnreadable(error)
    }
    guard let size = PNGHeader.size(of: data) else {
      throw SnapshotError.artifactInvalid(path: path, reason: "not a PNG file")
    }
    if let expected = reference.images[image], expected != size {
      throw SnapshotError.artifactInvalid(
        path: path,
        reason: "a \(size) picture, where \(SnapshotRunResults.fileName) says \(expected)")
    }
    return (path, data)
  }
}

/// A picture the results list for a reference that its source does not have.
struct ReviewImageMissing: Error, CustomStringConvertible {
  var reference: String
  var image: ReferenceResult.Image
  var description: String { "\(reference): no \(image.fileName)" }
}

/// The size a PNG file's header declares.
enum PNGHeader {
  private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Width and height from the `IHDR` chunk, or nil when `data` does not start as a PNG does.
  static func size(of data: Data) -> PixelSize? {
    let bytes = [UInt8](data.prefix(24))
    guard bytes.count == 24, Array(bytes[0..<8]) == signature,
      Array(bytes[12..<16]) == Array("IHDR".utf8)
    else {
      return nil
    }
    func number(_ offset: Int) -> Int {
      bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    let width = number(16)
    let height = number(20)
    guard width > 0, height > 0 else { return nil }
    return PixelSize(width: width, height: height)
  }
}
