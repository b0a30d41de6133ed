import Primitives

/// Everything that can go wrong while finding font files and loading them into a private
/// fontconfig configuration.
///
/// Each case's `description` is one line that names the problem and the file involved, so it can
/// be printed as is by a command-line tool or a test report (`Graphics` wraps it as
/// `GraphicsError.font`).
public enum FontError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A font file (a ``FontSource``) that no font folder holds.
  public struct MissingFont: Hashable, Sendable {
    /// The file name the source gives.
    public var fileName: String
    /// The Debian package that provides it, when the source says.
    public var package: String?
    /// The owners (themes) whose source lists name it.
    public var themes: [String]

    /// Creates a record.
    public init(fileName: String, package: String?, themes: [String]) {
      self.fileName = fileName
      self.package = package
      self.themes = themes
    }
  }

  /// Font files the manifests name that no searched folder holds: every one of them, with its
  /// package, and the folders searched (`<folder> (<why>)`, in order); `searchStoppedIn` is the
  /// folder in which the search used up its ``FontLocator/maxEntries`` (then the files may be
  /// in the folders after it, and the message blames the option that named it first).
  case fontFilesMissing([MissingFont], searched: [String], searchStoppedIn: FontFolder?)
  /// Fontconfig refused a font file (unreadable or not a font).
  case fontFileUnreadable(path: String)
  /// The brand font folder given by the user does not exist or is not a folder.
  case fontDirectoryMissing(path: String)
  /// The private fontconfig configuration or the Pango font map could not be created.
  case fontSystemUnavailable(reason: String)
  /// Fontconfig (or FreeType, which it needs) could not be loaded when it was first needed;
  /// `reason` names it, its Debian package and the loader's message.
  case libraryUnavailable(reason: String)

  /// One human-readable line naming the problem and the file involved.
  public var description: String {
    switch self {
    case .fontFilesMissing(let files, let searched, let stoppedIn):
      let list = files.map { file in
        "\(file.fileName) (\(file.package.map { "package \($0)" } ?? "no package named"), for \(file.themes.joined(separator: ", ")))"
      }.joined(separator: ", ")
      let folders =
        searched.isEmpty ? "no folder (fontconfig lists none)" : searched.joined(separator: ", ")
      if let stoppedIn {
        // The cause first: the files may well be installed, in a folder the search never reached.
        let fix =
          switch stoppedIn.origin {
          case .fontDirectory: "give --font-dir a folder of font files, not a large tree"
          case .environment:
            "list folders of font files in \(FontLocator.environmentVariable), not large trees"
          case .fontconfig: "put the files in a folder given with --font-dir"
          }
        let unreached =
          searched.firstIndex(of: stoppedIn.description).map {
            Array(searched[(searched.index(after: $0))...])
          } ?? []
        let never =
          unreached.isEmpty ? "" : "; it never reached \(unreached.joined(separator: ", "))"
        return
          "the font search stopped after \(FontLocator.maxEntries) entries in \(ControlCharacters.escaped(stoppedIn.url.path)), a folder too large to search, given with \(stoppedIn.origin.label)\(never); font files not found: \(list); \(fix)"
      }
      let packages = Array(Set(files.compactMap(\.package))).sorted()
      let install =
        packages.isEmpty
        ? ""
        : "install the package\(packages.count == 1 ? "" : "s") (apt-get install \(packages.joined(separator: " "))) or "
      let noun = files.count == 1 ? "font file" : "\(files.count) font files"
      return "missing \(noun): \(list); looked in \(folders)"
        + "; \(install)put the files in a folder given with --font-dir or \(FontLocator.environmentVariable)"
    case .fontFileUnreadable(let path):
      return "font file could not be loaded by fontconfig: \(path)"
    case .fontDirectoryMissing(let path):
      return "brand font folder not found: \(path)"
    case .fontSystemUnavailable(let reason):
      return "could not set up the private font configuration: \(reason)"
    case .libraryUnavailable(let reason):
      return reason
    }
  }
}
