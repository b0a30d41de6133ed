import CIsal
import CZlib
import Dispatch
import SafeInput
import Threads

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

/// Rows of pixels for ``PNGEncoder``: one 32-bit word per pixel, and two pixels with the same
/// word have the same samples in the file.
protocol PNGPixelRows: Sendable {
  /// Pixels per row.
  var width: Int { get }
  /// Rows.
  var height: Int { get }
  /// Samples per pixel in the file: 3 (RGB) or 4 (RGBA).
  var channels: Int { get }
  /// The words of row `y`, valid while the source lives.
  func row(_ y: Int) -> UnsafePointer<UInt32>
  /// The samples of a pixel word, the first in the low byte.
  func samples(_ word: UInt32) -> UInt32
  /// Whether the rows are taken to be opaque (RGB samples of ARGB words): the encoder then
  /// checks every alpha as it goes and gives up at the first that is not 255.
  var assumesOpaque: Bool { get }
  /// Whether the words are Cairo's ARGB32 taken to be opaque and written as RGB
  /// (``OpaqueARGB32Rows/rgbSamples(_:)``): the encoder then converts four pixels at a time.
  var isOpaqueARGB32: Bool { get }
}

extension PNGPixelRows {
  /// Other rows go pixel by pixel.
  var isOpaqueARGB32: Bool { false }
}

/// Writes 8-bit RGB or RGBA PNG files with ISA-L's igzip, on several cores, with the same bytes
/// for the same pixels whatever the number of cores.
///
/// Rows are not filtered (filter type None). The rows are cut into segments of a number of rows
/// that depends only on the row length (``segmentRows(rowBytes:)``), never on the number of
/// workers, and joined as pigz joins its blocks: each segment is raw deflate of its own
/// (igzip's ``level``), primed with the 32 KiB of stream bytes before it
/// (`isal_deflate_set_dict`), so its matches reach back into the previous segment as one deflate
/// would; each but the last ends with a sync flush (byte-aligned, not final), the last with the
/// stream's final block. Each segment's Adler-32 is igzip's (`isal_adler32`); the sums are
/// joined by zlib's `adler32_combine` behind a zlib header into one zlib stream, written as IDAT
/// chunks of at most ``idatChunkBytes``. No time or text chunk is written.
///
/// Why igzip and not zlib: zlib's fastest level takes 8 to 10 ms of CPU for the 7 MB of rows of
/// a 1080×2160 render (see ``level``), which made `render` about 30 % slower than the encoder
/// the project had written itself; igzip, a Debian library, takes 1.6 ms.
package enum PNGEncoder {
  /// Uncompressed bytes aimed at per segment: enough that a block's code tables and the sync
  /// flush cost nothing measurable, small enough that a 1080×2160 render gives both cores work.
  static let segmentTargetBytes = 256 << 10
  /// The bytes before a segment that prime its deflate: deflate's whole window.
  static let dictionaryBytes = 32 << 10
  /// The largest IDAT chunk written.
  static let idatChunkBytes = 1 << 20
  /// igzip's compression level, chosen by measurement: the 7.0 MB of unfiltered rows of the
  /// 1080×2160 demo render, one thread, best of 21 runs, 2026-12-05, ISA-L 2.30 and zlib 1.2.13
  /// from Debian 12, deflate alone:
  ///
  /// | encoder | one stream | 80-row segments with their dictionaries |
  /// |---|---|---|
  /// | igzip level 0 | 0.95 ms, 242,488 B | 1.22 ms, 245,510 B |
  /// | igzip level 1 | 0.95 ms, 194,017 B | 1.63 ms, 193,615 B |
  /// | igzip level 2 | 0.97 ms, 193,699 B | 1.66 ms, 193,238 B |
  /// | igzip level 3 | 7.09 ms, 207,876 B | 8.41 ms, 207,599 B |
  /// | zlib level 1, memory level 5 | 9.97 ms, 185,037 B | |
  /// | libdeflate level 1 (one call) | 14.46 ms, 159,700 B | |
  ///
  /// Level 1 writes files 20 % smaller than level 0 for 0.4 ms; level 2 saves 0.2 % more for
  /// 2 % more time. zlib's other levels, strategies, memory levels and `deflateTune` settings
  /// were no faster than its level 1 (docs/performance.md).
  static let level: UInt32 = 1
  /// The working memory igzip wants at ``level`` (its `ISAL_DEF_LVL1_DEFAULT`).
  static let levelBufferBytes = Int(ouds_isal_level1_buffer_bytes)

  /// The number of workers used when the caller does not say: one per active core.
  static var defaultWorkers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Rows per segment for rows of `rowBytes` sample bytes: at least one.
  static func segmentRows(rowBytes: Int) -> Int {
    max(1, segmentTargetBytes / (rowBytes + 1))
  }

  /// The cut of an image into segments.
  package struct Layout: Sendable {
    /// Pixels per row.
    package let width: Int
    let height: Int
    let channels: Int
    /// Sample bytes per row, without the filter byte.
    var rowBytes: Int { width * channels }
    /// Bytes per row in the zlib stream: the filter byte and the samples.
    var stride: Int { rowBytes + 1 }
    var segmentRows: Int { PNGEncoder.segmentRows(rowBytes: rowBytes) }
    var segmentCount: Int { (height + segmentRows - 1) / segmentRows }
    /// The rows before a segment whose bytes hold its dictionary (the last
    /// ``PNGEncoder/dictionaryBytes`` of them): never more than a segment's rows, so they all
    /// belong to the segment before.
    var dictionaryRows: Int {
      min(segmentRows, (PNGEncoder.dictionaryBytes + stride - 1) / stride)
    }
  }

  /// One encoded segment: whole bytes of raw deflate, and the Adler-32 of its input with the
  /// input's length.
  struct Segment: Sendable {
    let bytes: [UInt8]
    let adler: UInt
    let inputLength: Int
  }

  /// Encodes `rows` as a PNG file.
  /// - Throws: `PNGError.encodingFailed` for an empty image, one too large for PNG, or
  ///   when igzip fails (no memory).
  static func encode<Rows: PNGPixelRows>(_ rows: Rows, workers: Int = defaultWorkers)
    throws(PNGError) -> Data
  {
    let (width, height, channels) = (rows.width, rows.height, rows.channels)
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
      width <= (Int(Int32.max) - 1) / channels, channels == 3 || channels == 4
    else {
      throw .encodingFailed(reason: "cannot encode an image of \(width)×\(height) pixels")
    }
    let layout = Layout(width: width, height: height, channels: channels)
    guard let segments = try encodeSegments(of: rows, layout: layout, workers: workers) else {
      throw .encodingFailed(reason: "the image is not opaque")
    }
    return assemble(layout: layout, segments: segments)
  }

  /// Encodes every segment on up to `workers` threads; nil when the rows assume opacity and a
  /// pixel is not opaque.
  /// - Throws: `PNGError.encodingFailed` when igzip fails.
  static func encodeSegments<Rows: PNGPixelRows>(of rows: Rows, layout: Layout, workers: Int)
    throws(PNGError) -> [Segment]?
  {
    let count = layout.segmentCount
    let threads = min(max(1, workers), count)
    let slots = Locked([Segment?](repeating: nil, count: count))
    // the next segment to take, or `count` once a segment found a translucent pixel or failed
    let next = Locked(0)
    let translucent = Locked(false)
    let failure = Locked<PNGError?>(nil)
    // Each worker takes the next segment not yet taken: which thread encodes a segment changes
    // nothing in its bytes.
    let work: @Sendable (Int) -> Void = { _ in
      while true {
        let index = next.withLock { value in
          defer { value += 1 }
          return value
        }
        guard index < count else { return }
        let segment: Segment?
        do throws(PNGError) {
          segment = try encodeSegment(index, of: rows, layout: layout)
        } catch {
          failure.withLock { $0 = $0 ?? error }
          next.withLock { $0 = count }
          return
        }
        guard let segment else {
          translucent.withLock { $0 = true }
          next.withLock { $0 = count }
          return
        }
        slots.withLock { $0[index] = segment }
      }
    }
    if threads == 1 {
      work(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: threads, execute: work)
    }
    if let error = failure.withLock({ $0 }) { throw error }
    if translucent.withLock({ $0 }) { return nil }
    let segments = slots.withLock { $0.compactMap { $0 } }
    precondition(segments.count == count, "a segment of the image was never encoded")
    return segments
  }

  /// Encodes segment `index`: its rows (and the rows of its dictionary) as the stream holds
  /// them, then igzip; nil when the rows assume opacity and a pixel read is not opaque.
  /// - Throws: `PNGError.encodingFailed` when igzip fails (no memory).
  static func encodeSegment<Rows: PNGPixelRows>(_ index: Int, of rows: Rows, layout: Layout)
    throws(PNGError) -> Segment?
  {
    let first = index * layout.segmentRows
    let end = min(layout.height, first + layout.segmentRows)
    let before = min(first, layout.dictionaryRows)
    let stride = layout.stride
    // a segment is at most 256 KiB or one row (under 2^31 bytes): its length fits a UInt32
    let inputLength = (end - first) * stride
    // 8 bytes to spare for the 4-byte stores of 3-byte pixels
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: (before + end - first) * stride + 8)
    defer { buffer.deallocate() }
    for (offset, y) in ((first - before)..<end).enumerated() {
      let opaque = streamBytes(rows, rows.row(y), into: buffer + offset * stride)
      if rows.assumesOpaque, !opaque { return nil }
    }
    let input = buffer + before * stride
    let dictionaryLength = min(dictionaryBytes, before * stride)
    let bytes = try deflateSegment(
      UnsafeBufferPointer(start: input, count: inputLength),
      dictionary: UnsafeBufferPointer(start: input - dictionaryLength, count: dictionaryLength),
      last: end == layout.height)
    return Segment(
      bytes: bytes, adler: UInt(isal_adler32(1, input, UInt64(inputLength))),
      inputLength: inputLength)
  }

  /// Raw deflate of `input` primed with `dictionary`, ended by a sync flush or, when `last`, as
  /// the stream's final block.
  /// - Throws: `PNGError.encodingFailed` when igzip fails (no memory).
  static func deflateSegment(
    _ input: UnsafeBufferPointer<UInt8>, dictionary: UnsafeBufferPointer<UInt8>, last: Bool
  ) throws(PNGError) -> [UInt8] {
    // the stream holds igzip's 64 KiB history: on the heap, not on a worker thread's stack
    let stream = UnsafeMutablePointer<isal_zstream>.allocate(capacity: 1)
    defer { stream.deallocate() }
    let levelBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: levelBufferBytes)
    defer { levelBuffer.deallocate() }
    isal_deflate_init(stream)
    stream.pointee.level = level
    stream.pointee.level_buf = levelBuffer
    stream.pointee.level_buf_size = UInt32(levelBufferBytes)
    if let start = dictionary.baseAddress, !dictionary.isEmpty {
      guard
        isal_deflate_set_dict(
          stream, UnsafeMutablePointer(mutating: start), UInt32(dictionary.count))
          == COMP_OK
      else { throw .encodingFailed(reason: "igzip refused the segment's dictionary") }
    }
    stream.pointee.end_of_stream = last ? 1 : 0
    stream.pointee.flush = UInt16(last ? NO_FLUSH : SYNC_FLUSH)
    stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
    stream.pointee.avail_in = UInt32(input.count)
    // stored blocks at worst (5 bytes a 64 KiB block) and a block header: grown if ever short
    var capacity = input.count + input.count / 64 + 1024
    var output = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { output.deallocate() }
    while true {
      stream.pointee.next_out = output + Int(stream.pointee.total_out)
      stream.pointee.avail_out = UInt32(capacity - Int(stream.pointee.total_out))
      let status = isal_deflate(stream)
      guard status == COMP_OK else {
        throw .encodingFailed(reason: "igzip failed (status \(status))")
      }
      // igzip returns with room left only once it has taken all the input and flushed it
      if stream.pointee.avail_out > 0 { break }
      // (not seen: the room above holds) more room, the bytes so far kept
      let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
      larger.update(from: output, count: Int(stream.pointee.total_out))
      output.deallocate()
      output = larger
      capacity *= 2
    }
    guard stream.pointee.avail_in == 0,
      !last || stream.pointee.internal_state.state == ZSTATE_END
    else { throw .encodingFailed(reason: "igzip stopped before the end of a segment") }
    return Array(UnsafeBufferPointer(start: output, count: Int(stream.pointee.total_out)))
  }

  /// Writes one row as the zlib stream holds it, filter byte 0 then the samples, into `out`
  /// (which has 8 bytes to spare past the row, for the last 4-byte store); returns whether every
  /// pixel word has the top byte 255 (Cairo's alpha).
  @inline(__always)
  static func streamBytes<Rows: PNGPixelRows>(
    _ rows: Rows, _ row: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    out[0] = 0
    let raw = UnsafeMutableRawPointer(out + 1)
    #if _endian(little)
      if rows.isOpaqueARGB32 {
        return OpaqueARGB32Rows.rgbRow(row, width: rows.width, into: raw)
      }
    #endif
    let channels = rows.channels
    var alphas: UInt32 = 0xFF00_0000
    for x in 0..<rows.width {
      let word = row[x]
      alphas &= word
      // four bytes a pixel; with three channels the fourth is overwritten by the next pixel
      raw.storeBytes(
        of: rows.samples(word).littleEndian, toByteOffset: x &* channels, as: UInt32.self)
    }
    return alphas == 0xFF00_0000
  }

  /// The zlib header: deflate with a 32 KiB window, no preset dictionary, FLEVEL 0 ("the
  /// fastest algorithm", which igzip's level 1 is), and the check bits.
  static var zlibHeader: [UInt8] {
    let flevel: UInt16 = 0
    let header = UInt16(0x78) << 8 | flevel << 6
    let check = (31 - header % 31) % 31
    let value = header | check
    return [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
  }

  /// The PNG file: signature, IHDR, the zlib stream in IDAT chunks, IEND.
  static func assemble(layout: Layout, segments: [Segment]) -> Data {
    let adler = segments.reduce(UInt(1)) { sum, segment in
      adler32_combine(sum, segment.adler, off_t(segment.inputLength))
    }
    // The file is written in place, in one buffer of its final size: the zlib stream (header,
    // the segments, Adler-32) is cut into IDAT chunks as it is copied.
    let streamLength = segments.reduce(6) { $0 + $1.bytes.count }
    let idatCount = (streamLength + idatChunkBytes - 1) / idatChunkBytes
    let fileLength = 8 + (12 + 13) + streamLength + 12 * idatCount + 12
    var png = Data(count: fileLength)
    png.withUnsafeMutableBytes { (file: UnsafeMutableRawBufferPointer) in
      guard let base = file.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
      var writer = PNGFileWriter(base: base)
      writer.bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      writer.chunk("IHDR", length: 13) { writer in
        writer.bigEndian(UInt32(layout.width))
        writer.bigEndian(UInt32(layout.height))
        // bit depth, colour type, compression, filter, interlace
        writer.bytes([8, layout.channels == 4 ? 6 : 2, 0, 0, 0])
      }
      var stream = ZlibStreamReader(
        parts: [zlibHeader] + segments.map(\.bytes)
          + [bigEndianBytes(UInt32(truncatingIfNeeded: adler))])
      var remaining = streamLength
      while remaining > 0 {
        let length = min(remaining, idatChunkBytes)
        writer.chunk("IDAT", length: length) { writer in stream.copy(length, to: &writer) }
        remaining -= length
      }
      writer.chunk("IEND", length: 0) { _ in }
      precondition(writer.offset == fileLength, "a PNG file of another length than computed")
    }
    return png
  }

  private static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
      UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
    ]
  }

  /// Writes a PNG file front to back into memory of its exact size.
  struct PNGFileWriter {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var offset = 0

    init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    mutating func bytes(_ values: [UInt8]) {
      for value in values {
        base[offset] = value
        offset += 1
      }
    }

    mutating func bigEndian(_ value: UInt32) {
      bytes([
        UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
        UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
      ])
    }

    mutating func copy(_ source: UnsafeBufferPointer<UInt8>) {
      guard let start = source.baseAddress, !source.isEmpty else { return }
      (base + offset).update(from: start, count: source.count)
      offset += source.count
    }

    /// A chunk of `length` body bytes, which `body` writes; then its CRC (of type and body).
    mutating func chunk(_ type: String, length: Int, body: (inout PNGFileWriter) -> Void) {
      bigEndian(UInt32(length))
      let typeStart = offset
      bytes(Array(type.utf8))
      body(&self)
      precondition(offset - typeStart == 4 + length, "a chunk body of another length")
      let crc = crc32(0, base + typeStart, UInt32(4 + length))
      bigEndian(UInt32(truncatingIfNeeded: crc))
    }
  }

  /// The zlib stream's parts read front to back, whatever chunk boundaries cut them.
  struct ZlibStreamReader {
    let parts: [[UInt8]]
    private var part = 0
    private var position = 0

    init(parts: [[UInt8]]) { self.parts = parts }

    /// Copies the next `count` bytes of the stream into `writer`.
    mutating func copy(_ count: Int, to writer: inout PNGFileWriter) {
      var left = count
      while left > 0, part < parts.count {
        let available = parts[part].count - position
        let taken = min(available, left)
        parts[part].withUnsafeBufferPointer { bytes in
          writer.copy(UnsafeBufferPointer(rebasing: bytes[position..<(position + taken)]))
        }
        left -= taken
        position += taken
        if position == parts[part].count {
          part += 1
          position = 0
        }
      }
    }
  }
}

/// Cairo's ARGB32 pixels (native-endian words) taken to be opaque: RGB samples. The encoder
/// gives up at the first alpha that is not 255.
struct OpaqueARGB32Rows: PNGPixelRows, @unchecked Sendable {
  let bitmap: ARGB32Bitmap
  var width: Int { bitmap.width }
  var height: Int { bitmap.height }
  var channels: Int { 3 }
  var assumesOpaque: Bool { true }

  func row(_ y: Int) -> UnsafePointer<UInt32> {
    UnsafeRawPointer(bitmap.data + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
  }

  @inline(__always)
  func samples(_ word: UInt32) -> UInt32 { Self.rgbSamples(word) }

  var isOpaqueARGB32: Bool { true }

  /// The R, G and B samples of an opaque ARGB32 word, R in the low byte.
  @inline(__always)
  static func rgbSamples(_ word: UInt32) -> UInt32 {
    (word >> 16 & 0xFF) | (word & 0xFF00) | (word & 0xFF) << 16
  }

  /// Writes the RGB samples of `width` ARGB32 words to `out` (which has 8 bytes to spare past
  /// the row) and returns whether every alpha is 255: ``rgbSamples(_:)`` on four words at a
  /// time, packed two pixels (6 bytes) to a 64-bit store. No library here converts ARGB32 to
  /// packed RGB (pixman's 24-bit formats go through its generic path); this loop takes 0.75 ms
  /// for a 1080×2000 bitmap where one pixel at a time took 1.6 ms (SSE2, best of 30). The bytes
  /// are those of the pixel-at-a-time loop on a little-endian machine, the only kind it runs on.
  @inline(__always)
  static func rgbRow(_ row: UnsafePointer<UInt32>, width: Int, into out: UnsafeMutableRawPointer)
    -> Bool
  {
    let words = UnsafeRawPointer(row)
    var alphas = SIMD4<UInt32>(repeating: 0xFF00_0000)
    var x = 0
    while x &+ 4 <= width {
      let word = words.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)
      alphas &= word
      let samples = (word &>> 16 & 0xFF) | (word & 0xFF00) | (word & 0xFF) &<< 16
      // lanes 0 and 1 in one 64-bit lane (lane 0 low on a little-endian machine): 6 bytes
      let pairs = unsafeBitCast(samples, to: SIMD2<UInt64>.self)
      let packed = (pairs & 0xFF_FFFF) | (pairs &>> 32) &<< 24
      out.storeBytes(of: packed[0], toByteOffset: x &* 3, as: UInt64.self)
      out.storeBytes(of: packed[1], toByteOffset: x &* 3 &+ 6, as: UInt64.self)
      x &+= 4
    }
    var tail: UInt32 = 0xFF00_0000
    while x < width {
      let word = row[x]
      tail &= word
      out.storeBytes(of: rgbSamples(word), toByteOffset: x &* 3, as: UInt32.self)
      x &+= 1
    }
    return alphas & SIMD4(repeating: 0xFF00_0000) == SIMD4(repeating: 0xFF00_0000)
      && tail == 0xFF00_0000
  }
}

/// Cairo's premultiplied ARGB32 pixels: straight RGBA samples.
struct PremultipliedARGB32Rows: PNGPixelRows, @unchecked Sendable {
  let bitmap: ARGB32Bitmap
  var width: Int { bitmap.width }
  var height: Int { bitmap.height }
  var channels: Int { 4 }
  var assumesOpaque: Bool { false }

  func row(_ y: Int) -> UnsafePointer<UInt32> {
    UnsafeRawPointer(bitmap.data + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
  }

  @inline(__always)
  func samples(_ word: UInt32) -> UInt32 { ARGB32.straightRGBA(word) }
}

/// Straight RGBA bytes in memory (a ``RasterImage``'s): RGBA samples, or RGB when `opaque`.
struct RGBAByteRows: PNGPixelRows, @unchecked Sendable {
  let words: UnsafePointer<UInt32>
  let width: Int
  let height: Int
  let opaque: Bool
  var channels: Int { opaque ? 3 : 4 }
  /// The caller checked the alphas.
  var assumesOpaque: Bool { false }

  func row(_ y: Int) -> UnsafePointer<UInt32> { words + y * width }

  /// The bytes in memory order, R first, whatever the byte order of the machine.
  @inline(__always)
  func samples(_ word: UInt32) -> UInt32 { word.littleEndian }
}

extension PNGEncoder {
  /// Encodes straight RGBA pixels, as RGB when every alpha is 255 (the decoded pixels are the same).
  static func encode(_ image: RasterImage, workers: Int = defaultWorkers) throws(PNGError)
    -> Data
  {
    let (width, height) = (image.width, image.height)
    guard image.pixels.count == width * height * 4 else {
      throw .encodingFailed(
        reason: "the pixel buffer does not hold \(width)×\(height) RGBA pixels")
    }
    let opaque = image.pixels.withUnsafeBufferPointer { rgba in
      var all: UInt8 = 255
      for index in Swift.stride(from: 3, to: rgba.count, by: 4) { all &= rgba[index] }
      return all == 255
    }
    let result = image.pixels.withUnsafeBytes { bytes in
      bytes.withMemoryRebound(to: UInt32.self) { words in
        Result { () throws(PNGError) -> Data in
          guard let base = words.baseAddress else {
            throw .encodingFailed(reason: "cannot encode an image of \(width)×\(height) pixels")
          }
          return try encode(
            RGBAByteRows(words: base, width: width, height: height, opaque: opaque),
            workers: workers)
        }
      }
    }
    return try result.get()
  }

  /// Encodes a flushed Cairo ARGB32 bitmap, as RGB when every pixel is opaque (a render on the
  /// theme background), else as straight RGBA; no intermediate bitmap. Opacity is checked while
  /// encoding as RGB, which stops at the first translucent pixel.
  static func encode(_ bitmap: ARGB32Bitmap, workers: Int = defaultWorkers)
    throws(PNGError) -> Data
  {
    let layout = Layout(width: bitmap.width, height: bitmap.height, channels: 3)
    guard bitmap.width > 0, bitmap.height > 0, bitmap.width <= (Int(Int32.max) - 1) / 4,
      bitmap.height <= Int(Int32.max)
    else {
      throw .encodingFailed(
        reason: "cannot encode an image of \(bitmap.width)×\(bitmap.height) pixels")
    }
    if let segments = try encodeSegments(
      of: OpaqueARGB32Rows(bitmap: bitmap), layout: layout, workers: workers)
    {
      return assemble(layout: layout, segments: segments)
    }
    return try encode(PremultipliedARGB32Rows(bitmap: bitmap), workers: workers)
  }
}
