import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A folder or file no output may be written into or over: the snapshots folder, the themes
/// folder in use, a command's own other output.
public struct ProtectedPlace: Hashable, Sendable {
  /// What it is, for messages: `snapshots folder`, `themes folder`, `gallery page`…
  public var what: String
  /// Where it is (as given; compared by real path).
  public var path: String

  /// Creates a place.
  public init(_ what: String, _ path: String) {
    self.what = what
    self.path = path
  }
}

/// An output path (the option and the path given) that would write into (`holds` false) or
/// around (`holds` true) a protected place.
public struct OutputPlaceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The option that named the output: `-o`, `--pdf`, `--results`…
  public var option: String
  /// The output path as given.
  public var path: String
  /// The place it would write into or hold.
  public var place: ProtectedPlace
  /// Whether the output folder holds the place (rather than being inside it).
  public var holds: Bool
  /// Whether the output is the place itself (rather than inside it).
  public var isSame: Bool
  /// What to do instead, ending the message: `write outputs outside it`.
  public var advice: String

  /// Creates an error.
  public init(
    option: String, path: String, place: ProtectedPlace, holds: Bool, isSame: Bool = false,
    advice: String
  ) {
    self.option = option
    self.path = path
    self.place = place
    self.holds = holds
    self.isSame = isSame
    self.advice = advice
  }

  /// One line naming the option, the path and the place.
  public var description: String {
    let relation =
      holds ? "holds the" : isSame ? "is the" : "is inside the"
    return MessageText.escaped(
      "\(option) \(MessageText.path(path)): \(relation) \(place.what) \(MessageText.path(place.path)); \(advice)"
    )
  }
}

/// The one check every writing command makes before it writes: its output is not inside a
/// protected place (compared by real paths, so a link or `..` does not get around it, and an
/// output that does not exist yet is placed by its nearest existing folder).
public enum OutputPlace {
  /// The real path of `path`: its nearest existing ancestor's real path, plus the rest.
  public static func realPath(_ path: String) -> String {
    var existing = URL(fileURLWithPath: path).standardizedFileURL
    var rest: [String] = []
    while FolderReference.realPath(existing.path) == nil, existing.path != "/" {
      rest.insert(existing.lastPathComponent, at: 0)
      existing = existing.deletingLastPathComponent()
    }
    let base = FolderReference.realPath(existing.path) ?? existing.path
    return ([base == "/" ? "" : base] + rest).joined(separator: "/")
  }

  /// Whether `inner` is `outer` or inside it (both real paths).
  public static func isInside(_ inner: String, _ outer: String) -> Bool {
    inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/")
  }

  /// Refuses `path` (given with `option`) when it is one of `places` or inside one; with
  /// `refuseHolding`, also when it holds one (an output folder whose clean-up would reach it).
  /// - Throws: ``OutputPlaceError`` naming the option, the path and the place.
  public static func check(
    _ path: String, option: String, against places: [ProtectedPlace], refuseHolding: Bool = false,
    advice: String = "write outputs outside it"
  ) throws(OutputPlaceError) {
    let output = realPath(path)
    for place in places {
      let protected = realPath(place.path)
      if isInside(output, protected) {
        throw OutputPlaceError(
          option: option, path: path, place: place, holds: false, isSame: output == protected,
          advice: advice)
      }
      if refuseHolding, isInside(protected, output) {
        throw OutputPlaceError(
          option: option, path: path, place: place, holds: true, advice: advice)
      }
    }
  }
}

/// The folders no file of this process may be written into, whatever path leads there: a command
/// fences the snapshots and themes folders it reads before it writes anything, and every
/// ``AtomicFile`` write checks the real path of its folder against them. ``OutputPlace/check``
/// looks at the path given; the fence also catches a symbolic link below an output folder
/// (`report/images -> ../Snapshots`) that would carry the files written there into the catalogue.
public enum WriteFence {
  private static let places = Locked<[(place: ProtectedPlace, real: String)]>([])

  /// Adds `places` to the fence (their real paths as they are now); a place already fenced is
  /// not added again (`--watch` sets up its command on every save).
  public static func protect(_ places: [ProtectedPlace]) {
    let resolved = places.map { ($0, OutputPlace.realPath($0.path)) }
    Self.places.withLock { fenced in
      for entry in resolved where !fenced.contains(where: { $0.real == entry.1 }) {
        fenced.append(entry)
      }
    }
  }

  /// Empties the fence (for a process that runs several commands, such as a test).
  public static func removeAll() {
    places.withLock { $0.removeAll() }
  }

  /// Refuses a write of `path` whose folder, `directory`, is (by its real path, links followed
  /// as far as they exist) inside a fenced place.
  static func check(_ path: String, directory: String) throws(FileWriteError) {
    let fenced = places.withLock { $0 }
    guard !fenced.isEmpty else { return }
    let real = OutputPlace.realPath(directory)
    for (place, protected) in fenced where OutputPlace.isInside(real, protected) {
      throw FileWriteError(
        path: path,
        reason:
          "its folder is \(MessageText.path(real)), inside the \(place.what) \(MessageText.path(place.path)) (a symbolic link leads there); write outputs outside it"
      )
    }
  }
}
