import CZlib
import Dispatch
import SafeInput

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes one 8-bit RGB or RGBA PNG with its deflate work spread over several cores, and the
/// same bytes whatever the number of cores.
///
/// The filtered image data (each row: filter byte 0, then the samples) is cut into segments of a
/// fixed number of rows that depends only on the row length (``segmentRows(rowBytes:)``), never on
/// the number of workers. Each segment is deflated alone as raw deflate — zlib level 1, 32 KiB
/// window, memory level 8, default strategy, the settings the libspng encoder used — primed with
/// the 32 KiB of image data before it as a preset dictionary, as pigz does, so that matches still
/// reach across the cut. Every segment but the last ends with a sync flush (an empty stored block
/// that leaves the stream byte-aligned and open), the last with the final block. The segments are
/// joined behind a zlib header into one valid zlib stream whose Adler-32 is combined from the
/// segments' (`adler32_combine`), and written as IDAT chunks of at most ``idatChunkBytes``.
/// No time or text chunk is written.
enum SegmentedPNGEncoder {
  /// zlib level: 1, the fastest that still finds long matches (flat colour compresses well).
  static let compressionLevel: Int32 = 1
  /// Uncompressed bytes aimed at per segment: enough that the per-segment set-up and the flush
  /// marker cost nothing measurable, small enough that a 1080×2160 render gives both cores work.
  static let segmentTargetBytes = 256 << 10
  /// The deflate window, and the length of the dictionary each segment is primed with.
  static let windowBytes = 32 << 10
  /// The largest IDAT chunk written.
  static let idatChunkBytes = 1 << 20

  /// Writes the samples of image row `row` (no filter byte) to `into`; called for different rows
  /// from several threads at once, and for a row more than once (the rows before a segment are
  /// its dictionary).
  typealias RowWriter = @Sendable (_ row: Int, _ into: UnsafeMutablePointer<UInt8>) -> Void

  /// The number of workers used when the caller does not say: one per active core.
  static var defaultWorkers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Rows per segment for rows of `rowBytes` sample bytes: at least one.
  static func segmentRows(rowBytes: Int) -> Int {
    max(1, segmentTargetBytes / (rowBytes + 1))
  }

  /// Encodes a `width`×`height` image whose rows `rows` writes, as 8-bit RGBA when `alpha`, else RGB.
  ///
  /// - Parameters:
  ///   - width: pixels per row.
  ///   - height: rows.
  ///   - alpha: whether the samples are RGBA (else RGB).
  ///   - workers: threads that deflate segments; the bytes do not depend on it.
  ///   - rows: writes one row's samples; see ``RowWriter``.
  /// - Returns: the bytes of the PNG file.
  /// - Throws: `GraphicsError.pngEncodingFailed` for an empty or oversized image, or when zlib fails.
  static func encode(
    width: Int, height: Int, alpha: Bool, workers: Int = defaultWorkers, rows: RowWriter
  ) throws(GraphicsError) -> Data {
    let channels = alpha ? 4 : 3
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
      width <= (Int(Int32.max) - 1) / channels
    else {
      throw .pngEncodingFailed(reason: "cannot encode an image of \(width)×\(height) pixels")
    }
    let layout = Layout(width: width, height: height, rowBytes: width * channels)
    let segments = layout.segmentCount
    let slots = SegmentSlots(count: segments)
    let threads = min(max(1, workers), segments)
    if threads == 1 {
      for index in 0..<segments {
        slots.set(index, compress(segment: index, layout: layout, rows: rows))
      }
    } else {
      // Worker w takes segments w, w + threads, …: which thread deflates a segment changes
      // nothing in its bytes.
      DispatchQueue.concurrentPerform(iterations: threads) { worker in
        for index in stride(from: worker, to: segments, by: threads) {
          slots.set(index, compress(segment: index, layout: layout, rows: rows))
        }
      }
    }
    var compressed: [CompressedSegment] = []
    compressed.reserveCapacity(segments)
    for index in 0..<segments {
      switch slots.get(index) {
      case .success(let segment)?: compressed.append(segment)
      case .failure(let error)?: throw error
      case nil: throw .pngEncodingFailed(reason: "segment \(index) of the image was never deflated")
      }
    }
    return assemble(layout: layout, alpha: alpha, segments: compressed)
  }

  /// The cut of an image into segments.
  struct Layout: Sendable {
    let width: Int
    let height: Int
    /// Sample bytes per row, without the filter byte.
    let rowBytes: Int
    /// Filtered bytes per row: the filter byte and the samples.
    var stride: Int { rowBytes + 1 }
    var segmentRows: Int { SegmentedPNGEncoder.segmentRows(rowBytes: rowBytes) }
    var segmentCount: Int { (height + segmentRows - 1) / segmentRows }
  }

  /// One deflated segment: raw deflate bytes, and the Adler-32 and length of its input.
  struct CompressedSegment: Sendable {
    let bytes: [UInt8]
    let adler: UInt
    let inputLength: Int
  }

  /// Deflates segment `index`: filters its rows (and the rows of its dictionary) into a buffer of
  /// its own, then deflates them in one call.
  static func compress(segment index: Int, layout: Layout, rows: RowWriter)
    -> Result<CompressedSegment, GraphicsError>
  {
    let stride = layout.stride
    let first = index * layout.segmentRows
    let end = min(layout.height, first + layout.segmentRows)
    let primeRows = min(first, (windowBytes + stride - 1) / stride)
    let inputLength = (end - first) * stride
    guard inputLength <= Int(UInt32.max) else {
      return .failure(
        .pngEncodingFailed(reason: "an image row of \(layout.rowBytes) bytes is too long"))
    }
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: (primeRows + end - first) * stride)
    defer { buffer.deallocate() }
    for (offset, row) in (first - primeRows..<end).enumerated() {
      buffer[offset * stride] = 0  // filter type None
      rows(row, buffer + offset * stride + 1)
    }
    let input = buffer + primeRows * stride

    var stream = z_stream()
    let initialised = deflateInit2_(
      &stream, compressionLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
      Int32(MemoryLayout<z_stream>.size))
    guard initialised == Z_OK else { return .failure(zlibFailure("deflateInit2", initialised)) }
    defer { deflateEnd(&stream) }
    if primeRows > 0 {
      let dictionary = min(windowBytes, primeRows * stride)
      let status = deflateSetDictionary(&stream, input - dictionary, UInt32(dictionary))
      guard status == Z_OK else { return .failure(zlibFailure("deflateSetDictionary", status)) }
    }
    let last = end == layout.height
    let flush = last ? Z_FINISH : Z_SYNC_FLUSH
    // deflateBound covers the data and the end of the stream; a sync flush adds at most 5 bytes
    // plus the bits pending before it. The space is not zeroed: deflate writes what is kept, and
    // pages it never writes are never touched.
    var capacity = Int(deflateBound(&stream, UInt(inputLength))) + 64
    var space = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { space.deallocate() }
    var produced = 0
    stream.next_in = input
    stream.avail_in = UInt32(inputLength)
    while true {
      if produced == capacity {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        larger.update(from: space, count: produced)
        space.deallocate()
        space = larger
        capacity *= 2
      }
      stream.next_out = space + produced
      stream.avail_out = UInt32(capacity - produced)
      let status = deflate(&stream, flush)
      produced = capacity - Int(stream.avail_out)
      stream.next_out = nil
      if status == Z_STREAM_END, last { break }
      guard status == Z_OK || status == Z_BUF_ERROR else {
        return .failure(zlibFailure("deflate", status))
      }
      if !last, stream.avail_in == 0, produced < capacity { break }
    }
    let output = Array(UnsafeBufferPointer(start: space, count: produced))
    let adler = CZlib.adler32(1, input, UInt32(inputLength))
    return .success(CompressedSegment(bytes: output, adler: adler, inputLength: inputLength))
  }

  /// The PNG file: signature, IHDR, the zlib stream in IDAT chunks, IEND.
  static func assemble(layout: Layout, alpha: Bool, segments: [CompressedSegment]) -> Data {
    var adler = segments.first?.adler ?? 1
    for segment in segments.dropFirst() {
      adler = adler32_combine(adler, segment.adler, off_t(segment.inputLength))
    }
    // zlib header: deflate, 32 KiB window, "fastest" level, no preset dictionary
    var zlibStream: [UInt8] = [0x78, 0x01]
    zlibStream.reserveCapacity(segments.reduce(6) { $0 + $1.bytes.count })
    for segment in segments { zlibStream += segment.bytes }
    appendBigEndian(UInt32(truncatingIfNeeded: adler), to: &zlibStream)

    var png = Data(capacity: zlibStream.count + 64 + zlibStream.count / idatChunkBytes * 12)
    png.append(contentsOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var header: [UInt8] = []
    appendBigEndian(UInt32(layout.width), to: &header)
    appendBigEndian(UInt32(layout.height), to: &header)
    header += [8, alpha ? 6 : 2, 0, 0, 0]  // bit depth, colour type, compression, filter, interlace
    appendChunk("IHDR", header[...], to: &png)
    var start = 0
    while start < zlibStream.count {
      let end = min(zlibStream.count, start + idatChunkBytes)
      appendChunk("IDAT", zlibStream[start..<end], to: &png)
      start = end
    }
    appendChunk("IEND", [][...], to: &png)
    return png
  }

  private static func appendChunk(_ type: String, _ body: ArraySlice<UInt8>, to png: inout Data) {
    var chunk: [UInt8] = []
    chunk.reserveCapacity(body.count + 12)
    appendBigEndian(UInt32(body.count), to: &chunk)
    chunk += Array(type.utf8)
    chunk += body
    let crc = chunk.withUnsafeBufferPointer { bytes -> UInt in
      guard let base = bytes.baseAddress else { return 0 }
      return crc32(0, base + 4, UInt32(bytes.count - 4))
    }
    appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &chunk)
    png.append(contentsOf: chunk)
  }

  private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes += [
      UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
      UInt8(truncatingIfNeeded: value >> 8),
      UInt8(truncatingIfNeeded: value),
    ]
  }

  private static func zlibFailure(_ call: String, _ status: Int32) -> GraphicsError {
    .pngEncodingFailed(reason: "zlib \(call) failed with status \(status)")
  }
}

/// Results of the segments, filled from several threads, each slot written once.
private final class SegmentSlots: @unchecked Sendable {
  private var slots: [Result<SegmentedPNGEncoder.CompressedSegment, GraphicsError>?]
  private let lock = ConditionLock()

  init(count: Int) {
    slots = Array(repeating: nil, count: count)
  }

  func set(_ index: Int, _ result: Result<SegmentedPNGEncoder.CompressedSegment, GraphicsError>) {
    lock.lock()
    slots[index] = result
    lock.unlock()
  }

  func get(_ index: Int) -> Result<SegmentedPNGEncoder.CompressedSegment, GraphicsError>? {
    lock.lock()
    defer { lock.unlock() }
    return slots[index]
  }
}

extension SegmentedPNGEncoder {
  /// Encodes straight RGBA pixels, as RGB when every alpha is 255 (the decoded pixels are the same).
  static func encode(_ image: RasterImage, workers: Int = defaultWorkers) throws(GraphicsError)
    -> Data
  {
    let (width, height, pixels) = (image.width, image.height, image.pixels)
    guard pixels.count == width * height * 4 else {
      throw .pngEncodingFailed(
        reason: "the pixel buffer does not hold \(width)×\(height) RGBA pixels")
    }
    let opaque = pixels.withUnsafeBufferPointer { rgba in
      var all: UInt8 = 255
      for index in Swift.stride(from: 3, to: rgba.count, by: 4) { all &= rgba[index] }
      return all == 255
    }
    return try encode(width: width, height: height, alpha: !opaque, workers: workers) { row, out in
      pixels.withUnsafeBufferPointer { rgba in
        guard let base = rgba.baseAddress else { return }
        let source = base + row * width * 4
        if opaque {
          for x in 0..<width {
            out[x * 3] = source[x * 4]
            out[x * 3 + 1] = source[x * 4 + 1]
            out[x * 3 + 2] = source[x * 4 + 2]
          }
        } else {
          out.update(from: source, count: width * 4)
        }
      }
    }
  }

  /// Encodes a flushed Cairo ARGB32 bitmap, converting premultiplied rows to straight RGBA (RGB
  /// when every pixel is opaque) as each segment needs them: no full-size intermediate bitmap.
  static func encode(_ bitmap: PixelConversion.ARGB32Bitmap, workers: Int = defaultWorkers)
    throws(GraphicsError) -> Data
  {
    let opaque = PixelConversion.isOpaque(bitmap)
    let rows = SharedRows(bitmap: bitmap)
    return try encode(width: bitmap.width, height: bitmap.height, alpha: !opaque, workers: workers)
    { row, out in
      let source = rows.row(row)
      if opaque {
        PixelConversion.opaqueRGB(row: source, count: rows.width, into: out)
      } else {
        PixelConversion.unpremultiply(row: source, count: rows.width, into: out)
      }
    }
  }
}

/// Read-only access to a bitmap's rows from several threads; valid while the surface lives.
private struct SharedRows: @unchecked Sendable {
  let bitmap: PixelConversion.ARGB32Bitmap
  var width: Int { bitmap.width }

  func row(_ y: Int) -> UnsafePointer<UInt32> {
    UnsafeRawPointer(bitmap.data + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
  }
}
