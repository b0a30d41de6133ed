#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the bytes of an asset file, and nothing else.
///
/// Only a regular file is read, never through a symbolic link, and at most ``maximumBytes`` of it.
/// Nothing else is opened: the asset parsers have no base location to resolve references from.
public enum AssetFile {
  /// The largest asset accepted: 256 KiB (the OUDS marker drawables are under 2 KB).
  public static let maximumBytes = 256 * 1024

  /// The bytes of the file at `path`.
  /// - Throws: `VectorAssetError` when nothing is there, the path is a symbolic link, a folder, a
  ///   FIFO, a device or a socket, the file is larger than ``maximumBytes``, or it cannot be read.
  public static func read(path: String) throws(VectorAssetError) -> [UInt8] {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting forever.
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      switch code {
      case ENOENT, ENOTDIR: throw VectorAssetError(message: "file not found")
      case ELOOP:
        throw VectorAssetError(message: "is a symbolic link; a marker asset must be a regular file")
      default:
        throw VectorAssetError(message: "cannot be opened (\(String(cString: strerror(code))))")
      }
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      throw VectorAssetError(message: "cannot be read (\(String(cString: strerror(errno))))")
    }
    let type = status.st_mode & S_IFMT
    guard type == S_IFREG else {
      let kind: String
      switch type {
      case S_IFDIR: kind = "a folder"
      case S_IFIFO: kind = "a FIFO"
      case S_IFCHR: kind = "a character device"
      case S_IFBLK: kind = "a block device"
      case S_IFSOCK: kind = "a socket"
      default: kind = "not a file"
      }
      throw VectorAssetError(message: "is \(kind), not a regular file")
    }
    let size = Int(status.st_size)
    guard size <= maximumBytes else { throw tooLarge(size) }
    // Read one byte more than allowed, so a file that grew since fstat is caught too.
    var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return systemRead(fd, base + count, buffer.count - count)
      }
      if got == 0 { break }
      if got < 0 {
        if errno == EINTR { continue }
        throw VectorAssetError(message: "cannot be read (\(String(cString: strerror(errno))))")
      }
      count += got
    }
    guard count <= maximumBytes else { throw tooLarge(count) }
    return Array(bytes[0..<count])
  }

  private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int)
    -> Int
  {
    #if canImport(Glibc)
      Glibc.read(fd, buffer, count)
    #elseif canImport(Musl)
      Musl.read(fd, buffer, count)
    #else
      Darwin.read(fd, buffer, count)
    #endif
  }

  private static func tooLarge(_ size: Int) -> VectorAssetError {
    VectorAssetError(
      message: "is \(size) bytes; a marker asset may be at most \(maximumBytes) bytes (256 KiB)")
  }
}
