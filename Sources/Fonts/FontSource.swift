/// One font file a font set (`Graphics`' `FontSet`) is built from: a file name and the SHA-256 of its bytes, never a path.
///
/// ``FontLocator`` looks for the file by name in the font folders and chooses it by its hash, so
/// the same list works wherever the fonts live. (`Themes` reads these from a theme's font
/// manifest; the pipeline hands them over as this value.)
public struct FontSource: Hashable, Sendable {
  /// The file name, e.g. `LiberationSans-Regular.ttf` (no folder).
  public var fileName: String
  /// Expected SHA-256 of the file, lower-case hex.
  public var sha256: String
  /// What the file is for, e.g. `latin-regular`, `latin-bold`, `arabic-regular`.
  public var role: String
  /// The Debian package that installs the file, e.g. `fonts-liberation2` (named in the
  /// missing-file error).
  public var package: String?

  /// Creates a font source.
  public init(fileName: String, sha256: String, role: String, package: String? = nil) {
    self.fileName = fileName
    self.sha256 = sha256
    self.role = role
    self.package = package
  }
}

/// The font files one user of fonts (a theme) needs, under the name messages give it.
public struct FontSourceList: Hashable, Sendable {
  /// Who needs the files, as named in a missing-file message (a theme name such as `sosh`).
  public var owner: String
  /// The files, in load order.
  public var sources: [FontSource]

  /// Creates a list.
  public init(owner: String, sources: [FontSource]) {
    self.owner = owner
    self.sources = sources
  }
}
