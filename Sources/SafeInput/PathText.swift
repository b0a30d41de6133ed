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

/// Path strings taken apart the way `NSString`'s path methods do, and the few file-system
/// questions the package asks of a path, without Foundation's `NSString` or `ObjCBool`.
public enum PathText {
  /// `path` without trailing slashes (`/` stays `/`).
  private static func trimmed(_ path: String) -> Substring {
    var text = Substring(path)
    while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
    return text
  }

  /// The last component: `scratch.tiff` for `/tmp/scratch.tiff`, `tmp` for `/tmp/`, `/` for `/`,
  /// the path itself when it has no slash.
  public static func lastComponent(_ path: String) -> String {
    let text = trimmed(path)
    if text == "/" { return "/" }
    guard let slash = text.lastIndex(of: "/") else { return String(text) }
    return String(text[text.index(after: slash)...])
  }

  /// The path without its last component: `/tmp` for `/tmp/scratch.tiff` and `/tmp/lock/`, `/` for
  /// `/tmp` and `/`, an empty string for `scratch.tiff`.
  public static func deletingLastComponent(_ path: String) -> String {
    let text = trimmed(path)
    if text == "/" { return "/" }
    guard let slash = text.lastIndex(of: "/") else { return "" }
    var parent = text[..<slash]
    while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
    return parent.isEmpty ? "/" : String(parent)
  }

  /// The extension of the last component without its dot (`tiff` for `/tmp/scratch.tiff`), or an
  /// empty string when there is none or the name only starts with a dot (`.profile`).
  public static func pathExtension(_ path: String) -> String {
    let name = lastComponent(path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// Whether `path` names a folder, after following symbolic links.
  public static func isFolder(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && FileType(mode: status.st_mode) == .directory
  }

  /// Whether `path` names something that is not a folder (a file, a FIFO, a device…), after
  /// following symbolic links.
  public static func isNonFolder(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && FileType(mode: status.st_mode) != .directory
  }

  /// Every entry under `folder` (files and folders, at any depth), as paths relative to it,
  /// without following symbolic links into other folders; nil when `folder` cannot be listed.
  /// Entries of sub-folders that cannot be listed are left out, and so are those of the folders
  /// `descending` refuses (given their relative path; the folder itself is listed).
  public static func entries(
    under folder: String, descending: (String) -> Bool = { _ in true }
  ) -> [String]? {
    guard let top = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return nil
    }
    var found: [String] = []
    var pending = top.sorted().reversed().map { $0 }
    while let relative = pending.popLast() {
      found.append(relative)
      let full = folder + "/" + relative
      var status = stat()
      guard lstat(full, &status) == 0, FileType(mode: status.st_mode) == .directory,
        descending(relative),
        let children = try? FileManager.default.contentsOfDirectory(atPath: full)
      else { continue }
      pending.append(contentsOf: children.sorted().reversed().map { relative + "/" + $0 })
    }
    return found
  }
}

/// Text files of lines and tab-separated fields, as the package's caches are written.
public enum TabSeparatedText {
  /// The lines of `bytes` (each ended by a line feed, the last one too), each cut at tabs into
  /// its fields; nil when the bytes are not UTF-8 or do not end with a line feed.
  ///
  /// Cut on bytes: `String.split` walks grapheme clusters, a hundred times slower on a cache of
  /// a few kilobytes; no field can hold a tab or a line feed, so no cluster is ever split.
  public static func lines(_ bytes: some BidirectionalCollection<UInt8>) -> [[String]]? {
    guard bytes.last == 0x0A else { return nil }
    var lines: [[String]] = []
    var fields: [String] = []
    var field: [UInt8] = []
    for byte in bytes {
      switch byte {
      case 0x09, 0x0A:
        guard let text = String(validating: field, as: UTF8.self) else { return nil }
        fields.append(text)
        field.removeAll(keepingCapacity: true)
        if byte == 0x0A {
          lines.append(fields)
          fields.removeAll(keepingCapacity: true)
        }
      default:
        field.append(byte)
      }
    }
    return lines
  }
}
