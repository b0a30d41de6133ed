import CZlib
import Dispatch
import SafeInput

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
}

/// Writes 8-bit RGB or RGBA PNG files fast, with the same bytes for the same pixels whatever the
/// number of cores.
///
/// A rendered list is mostly flat colour: rows equal to the row above, and runs of the pixel to
/// the left. Instead of hashing every byte as zlib does, the encoder compares whole rows of
/// pixels (`memcmp`): a row equal to the one above is one more row of a match with the row
/// above (or, when it is one colour, a match with the pixel to the left after its first pixel,
/// whose distance needs no extra bits). In the other rows it looks, byte by byte and 8 bytes at
/// a time, for the longest match with the byte before, the pixel before and the row above, and
/// where those are short (the edges of glyphs) for the last place earlier in the same row where
/// the same 4 bytes began (the same letter drawn again); the rest are literal bytes. Rows are
/// not filtered (filter type None). On the references of `Snapshots/` the files are the size
/// zlib's level 1 gives (1.006× in all), in about a quarter of its time.
///
/// The rows are cut into segments of a number of rows that depends only on the row length
/// (``segmentRows(rowBytes:)``), never on the number of workers. Each segment is one deflate
/// block with Huffman codes of its own (or stored, when that is smaller), byte-aligned behind an
/// empty stored block as zlib's sync flush does; its first match may reach back into the rows of
/// the previous segment, which the decoder already has. The segments' Adler-32 sums are computed
/// from the pixels (rows equal to the one above reuse its sums, other rows convert and sum only
/// the pixels that differ from the row above), joined behind a zlib header into
/// one zlib stream, and written as IDAT chunks of at most ``idatChunkBytes``. No time or text
/// chunk is written.
enum PNGEncoder {
  /// Uncompressed bytes aimed at per segment: enough that a block's code tables cost nothing
  /// measurable, small enough that a 1080×2160 render gives both cores work.
  static let segmentTargetBytes = 256 << 10
  /// The largest IDAT chunk written.
  static let idatChunkBytes = 1 << 20
  /// Adler-32's modulus.
  static let adlerModulus: UInt64 = 65521

  /// The number of workers used when the caller does not say: one per active core.
  static var defaultWorkers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Rows per segment for rows of `rowBytes` sample bytes: at least one.
  static func segmentRows(rowBytes: Int) -> Int {
    max(1, segmentTargetBytes / (rowBytes + 1))
  }

  /// The cut of an image into segments.
  struct Layout: Sendable {
    let width: Int
    let height: Int
    let channels: Int
    /// Sample bytes per row, without the filter byte.
    var rowBytes: Int { width * channels }
    /// Bytes per row in the zlib stream: the filter byte and the samples; also the distance of
    /// a match with the row above.
    var stride: Int { rowBytes + 1 }
    var segmentRows: Int { PNGEncoder.segmentRows(rowBytes: rowBytes) }
    var segmentCount: Int { (height + segmentRows - 1) / segmentRows }
  }

  /// One encoded segment: whole bytes of deflate, and the Adler-32 sums of its input (the sum of
  /// its bytes, and the sum of each byte times the number of bytes from it to the end, both
  /// modulo 65521), with the input's length.
  struct Segment: Sendable {
    let bytes: [UInt8]
    let byteSum: UInt64
    let weightedSum: UInt64
    let inputLength: Int
  }

  /// Encodes `rows` as a PNG file.
  /// - Throws: `GraphicsError.pngEncodingFailed` for an empty image or one too large for PNG.
  static func encode<Rows: PNGPixelRows>(_ rows: Rows, workers: Int = defaultWorkers)
    throws(GraphicsError) -> Data
  {
    let (width, height, channels) = (rows.width, rows.height, rows.channels)
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
      width <= (Int(Int32.max) - 1) / channels, channels == 3 || channels == 4
    else {
      throw .pngEncodingFailed(reason: "cannot encode an image of \(width)×\(height) pixels")
    }
    let layout = Layout(width: width, height: height, channels: channels)
    guard let segments = encodeSegments(of: rows, layout: layout, workers: workers) else {
      throw .pngEncodingFailed(reason: "the image is not opaque")
    }
    return assemble(layout: layout, segments: segments)
  }

  /// Encodes every segment on up to `workers` threads; nil when the rows assume opacity and a
  /// pixel is not opaque.
  static func encodeSegments<Rows: PNGPixelRows>(of rows: Rows, layout: Layout, workers: Int)
    -> [Segment]?
  {
    let count = layout.segmentCount
    let threads = min(max(1, workers), count)
    let slots = Locked([Segment?](repeating: nil, count: count))
    // the next segment to take, or `count` once a segment found a translucent pixel
    let next = Locked(0)
    let translucent = Locked(false)
    // Each worker takes the next segment not yet taken: which thread encodes a segment changes
    // nothing in its bytes.
    let work: @Sendable (Int) -> Void = { _ in
      while true {
        let index = next.withLock { value in
          defer { value += 1 }
          return value
        }
        guard index < count else { return }
        guard let segment = encodeSegment(index, of: rows, layout: layout) else {
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
    if translucent.withLock({ $0 }) { return nil }
    let segments = slots.withLock { $0.compactMap { $0 } }
    precondition(segments.count == count, "a segment of the image was never encoded")
    return segments
  }

  /// Encodes segment `index`: tokens, then one deflate block (or stored blocks); nil when the
  /// rows assume opacity and a pixel of the segment is not opaque.
  static func encodeSegment<Rows: PNGPixelRows>(_ index: Int, of rows: Rows, layout: Layout)
    -> Segment?
  {
    let first = index * layout.segmentRows
    let end = min(layout.height, first + layout.segmentRows)
    let final = end == layout.height
    let inputLength = (end - first) * layout.stride
    var tokens = TokenBuffer(capacity: inputLength)
    defer { tokens.deallocate() }
    guard let sums = tokenize(rows, layout: layout, rows: first..<end, into: &tokens) else {
      return nil
    }

    let block = DeflateBlock(
      literalFrequencies: tokens.frequencies, distanceFrequencies: tokens.distanceFrequencies,
      extraBits: tokens.extraBits)
    // the block, then (but for the last) an empty stored block that aligns it: 3 bits, the
    // padding, 4 bytes
    let codedBytes = (block.bitCount + (final ? 0 : 3) + 7) / 8 + (final ? 0 : 4)
    let storedBytes = DeflateBlock.storedByteCount(inputLength)
    let capacity = max(codedBytes, storedBytes) + 8
    let space = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { space.deallocate() }
    var out = BitWriter(into: space, capacity: capacity)
    if codedBytes <= storedBytes {
      block.write(tokens: tokens.written, final: final, to: &out)
      if final {
        out.align()
      } else {
        out.write(0, bits: 3)
        out.align()
        out.write(0xFFFF_0000, bits: 32)
      }
    } else {
      let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: inputLength)
      defer { raw.deallocate() }
      rawBytes(rows, layout: layout, rows: first..<end, into: raw)
      DeflateBlock.writeStored(
        UnsafeBufferPointer(start: raw, count: inputLength), final: final, to: &out, into: space)
    }
    return Segment(
      bytes: Array(UnsafeBufferPointer(start: space, count: out.byteCount)),
      byteSum: sums.byteSum, weightedSum: sums.weightedSum, inputLength: inputLength)
  }

  /// A match at least this long is taken without looking for a longer one.
  static let longMatch = 16
  /// The size of the table of recent 4-byte sequences of a row: 2^hashBits entries.
  static let hashBits = 12

  /// Turns rows `range` into tokens, and returns the Adler-32 sums of their bytes.
  ///
  /// Greedy, byte by byte: at each byte the longest of the matches with the byte before, the
  /// pixel before and the row above (the cheaper distance on a tie) when it is at least 3 bytes,
  /// else a literal. A match with the row above that reaches the end of its row runs on into
  /// the next; a row equal to the one above (compared as pixels, whole) is one more row of it.
  static func tokenize<Rows: PNGPixelRows>(
    _ rows: Rows, layout: Layout, rows range: Range<Int>, into tokens: inout TokenBuffer
  ) -> (byteSum: UInt64, weightedSum: UInt64)? {
    let (width, channels, stride) = (layout.width, layout.channels, layout.stride)
    let upAllowed = stride <= Deflate.maxDistance
    let rowLength = UInt64(stride) % adlerModulus
    var byteSum: UInt64 = 0
    var weightedSum: UInt64 = 0
    // the bytes of this row and of the one above, as the stream holds them; 8 bytes to spare
    // for the 4-byte stores of 3-byte pixels
    var current = UnsafeMutablePointer<UInt8>.allocate(capacity: stride + 8)
    var previous = UnsafeMutablePointer<UInt8>.allocate(capacity: stride + 8)
    defer {
      current.deallocate()
      previous.deallocate()
    }
    // the sums of the row above, once its bytes are in `previous`
    var aboveSums: RowSums? = nil
    if range.lowerBound > 0 {
      aboveSums = streamBytes(rows, rows.row(range.lowerBound - 1), into: previous)
    }
    var run = 0  // bytes of a match with the row above that may run on into the next row
    var previousFlat: Bool? = nil  // whether the bytes in `previous` are one colour, once known
    // where in its row a 4-byte sequence was last seen: row number (low 16 bits) << 16 | offset;
    // an entry of another row is stale, and a stale or colliding entry only costs a compare
    let recent = UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << Self.hashBits)
    recent.initialize(repeating: 0xFFFF_FFFF, count: 1 << Self.hashBits)
    defer { recent.deallocate() }
    for y in range {
      let row = rows.row(y)
      let same = y > 0 && memcmp(row, rows.row(y - 1), width * 4) == 0
      // a row equal to the one above has its bytes (in `previous`), sums and alphas; a
      // segment's first row is coded whole all the same (the stream's bytes never changed)
      let reused = same && y > range.lowerBound ? aboveSums : nil
      let sums: RowSums
      if let reused {
        sums = reused
      } else if y > 0, let above = aboveSums {
        // most pixels of a row of text are the background of the row above
        sums = streamChangedBytes(
          rows, row, above: rows.row(y - 1), aboveBytes: previous, aboveSums: above,
          stride: stride, into: current)
      } else {
        sums = streamBytes(rows, row, into: current)
      }
      guard sums.opaque || !rows.assumesOpaque else { return nil }
      aboveSums = sums
      weightedSum = (weightedSum + rowLength * byteSum + sums.weighted) % adlerModulus
      byteSum = (byteSum + sums.bytes) % adlerModulus
      if reused != nil {
        if upAllowed {
          // A row of one colour is cheaper as a match with the pixel to the left (no extra
          // distance bits) after its first pixel; any other copy of the row above is one more
          // row of the match with the row above.
          if previousFlat == nil { previousFlat = isFlat(previous, layout: layout) }
          if previousFlat == true {
            run += 1 + channels
            tokens.flushRow(&run, stride: stride)
            tokens.match(length: layout.rowBytes - channels, distance: channels)
          } else {
            run += stride
          }
          continue
        }
        current.update(from: previous, count: stride)
      }
      previousFlat = nil
      var i = 0
      if run > 0 {
        i = matchLength(current, previous, count: stride)
        run += i
        if i < stride { tokens.flushRow(&run, stride: stride) }
      }
      let tag = UInt32(truncatingIfNeeded: y) << 16
      while i < stride {
        let remaining = stride - i
        var best = 0
        var distance = stride
        let byte = current[i]
        // (a first byte that differs rules a match out without a call)
        if upAllowed, y > 0, byte == previous[i] {
          best = matchLength(current + i, previous + i, count: remaining)
        }
        // a long match with the row above is taken as it is: looking further would scan the
        // same flat stretch again for a few bytes more
        if best < Self.longMatch, i > channels, byte == current[i - channels] {
          let length = matchLength(current + i, current + i - channels, count: remaining)
          if length >= best {
            best = length
            distance = channels
          }
        }
        if best < Self.longMatch, i > 1, byte == current[i - 1] {
          let length = matchLength(current + i, current + i - 1, count: remaining)
          if length >= best {
            best = length
            distance = 1
          }
        }
        // Where those are short (edges of glyphs), the last place earlier in the row where the
        // same 4 bytes began: the same glyph drawn again. Taken only when clearly longer, as
        // its distance costs more bits.
        if best < Self.longMatch, remaining >= 4 {
          let key = UnsafeRawPointer(current + i).loadUnaligned(as: UInt32.self)
          let slot = Int(truncatingIfNeeded: (key &* 2_654_435_761) >> (32 - Self.hashBits))
          let entry = recent[slot]
          let earlier = Int(entry & 0xFFFF)
          // (offsets are kept in 16 bits: in a row longer than that, `earlier` may be the
          // low bits of another offset — any earlier place with the same bytes is a match,
          // provided it is within deflate's reach)
          if entry & 0xFFFF_0000 == tag, earlier < i, i - earlier <= Deflate.maxDistance {
            let length = matchLength(current + i, current + earlier, count: remaining)
            if length > best + 1 {
              best = length
              distance = i - earlier
            }
          }
          recent[slot] = tag | UInt32(truncatingIfNeeded: i)
        }
        if best < Deflate.minMatch {
          tokens.literal(UInt32(byte))
          i += 1
        } else if distance == stride, best == remaining {
          run = best  // on into the next row
          i = stride
        } else {
          tokens.match(length: best, distance: distance)
          i += best
        }
      }
      swap(&current, &previous)
    }
    tokens.flushRow(&run, stride: stride)
    return (byteSum, weightedSum)
  }

  /// Whether a row's bytes (filter byte first) are one colour, at least two pixels of it: then
  /// all but its first pixel are a match with the pixel to the left.
  static func isFlat(_ row: UnsafePointer<UInt8>, layout: Layout) -> Bool {
    let rest = layout.rowBytes - layout.channels
    return rest >= Deflate.minMatch
      && matchLength(row + 1 + layout.channels, row + 1, count: rest) == rest
  }

  /// How many bytes from the start are equal in `a` and `b`, up to `count`, compared 8 at a time.
  @inline(__always)
  static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int)
    -> Int
  {
    var length = 0
    while length &+ 8 <= count {
      let difference =
        UnsafeRawPointer(a + length).loadUnaligned(as: UInt64.self)
        ^ UnsafeRawPointer(b + length).loadUnaligned(as: UInt64.self)
      if difference != 0 {
        // the first byte in memory is the low byte of the little-endian value
        return length &+ UInt64(littleEndian: difference).trailingZeroBitCount >> 3
      }
      length &+= 8
    }
    while length < count, a[length] == b[length] { length &+= 1 }
    return length
  }

  /// Writes one row as the zlib stream holds it, filter byte 0 then the samples, into `out`
  /// (which has 8 bytes to spare past the row), and returns the row's Adler-32 sums.
  @inline(__always)
  @discardableResult
  static func streamBytes<Rows: PNGPixelRows>(
    _ rows: Rows, _ row: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt8>
  ) -> RowSums {
    // Sample c of pixel x is channels·(width - x) - c bytes from the row's end, counting itself.
    // With s_x the sum of pixel x's samples, Σ (width - x)·s_x is the sum of the running sums of
    // s (two additions a pixel, no multiplication), and the weighted sum is channels times that
    // less Σ c·s_c. Wrapping arithmetic: no sum can reach 2^64 (a row is at most 2^31 bytes).
    out[0] = 0
    let raw = UnsafeMutableRawPointer(out + 1)
    let channels = rows.channels
    var total: UInt64 = 0
    var running: UInt64 = 0
    var offsets: UInt64 = 0
    var alphas: UInt32 = 0xFF00_0000
    for x in 0..<rows.width {
      let word = row[x]
      alphas &= word
      let samples = rows.samples(word)
      // four bytes a pixel; with three channels the fourth is overwritten by the next pixel
      raw.storeBytes(of: samples.littleEndian, toByteOffset: x &* channels, as: UInt32.self)
      let s1 = UInt64(samples >> 8 & 0xFF)
      let s2 = UInt64(samples >> 16 & 0xFF)
      let s3 = channels == 4 ? UInt64(samples >> 24) : 0
      total = total &+ UInt64(samples & 0xFF) &+ s1 &+ s2 &+ s3
      running = running &+ total
      offsets = offsets &+ s1 &+ 2 &* s2 &+ 3 &* s3
    }
    return RowSums(
      bytes: total, weighted: UInt64(channels) &* running &- offsets,
      opaque: alphas == 0xFF00_0000)
  }

  /// Writes one row as ``streamBytes(_:_:into:)`` does, from the bytes and sums of the row
  /// above: copies its bytes, and converts and sums only the pixels that differ from it.
  ///
  /// Sample c of pixel x has weight `stride - 1 - channels·x - c` in the weighted sum, so a
  /// pixel whose samples sum to S (and Σ c·s_c to T) adds `(stride - 1 - channels·x)·S - T`;
  /// the sums change by the difference of that for the new pixel and the old. Wrapping
  /// arithmetic: the true sums are never negative, so the wrapped differences add up to them.
  @inline(__always)
  static func streamChangedBytes<Rows: PNGPixelRows>(
    _ rows: Rows, _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>,
    aboveBytes: UnsafePointer<UInt8>, aboveSums: RowSums, stride: Int,
    into out: UnsafeMutablePointer<UInt8>
  ) -> RowSums {
    out.update(from: aboveBytes, count: stride)
    let raw = UnsafeMutableRawPointer(out + 1)
    let (width, channels) = (rows.width, rows.channels)
    let rowWords = UnsafeRawPointer(row)
    let aboveWords = UnsafeRawPointer(above)
    var bytes = aboveSums.bytes
    var weighted = aboveSums.weighted
    var alphas: UInt32 = 0xFF00_0000
    var weight = UInt64(stride - 1)  // of pixel x's first sample
    let step = UInt64(channels)
    var x = 0
    while x < width {
      // two equal pixels at a time
      if x &+ 2 <= width,
        rowWords.loadUnaligned(fromByteOffset: x &* 4, as: UInt64.self)
          == aboveWords.loadUnaligned(fromByteOffset: x &* 4, as: UInt64.self)
      {
        x &+= 2
        weight &-= 2 &* step
        continue
      }
      let word = row[x]
      let old = above[x]
      if word != old {
        alphas &= word
        let new = rows.samples(word)
        let was = rows.samples(old)
        if channels == 4 {
          raw.storeBytes(of: new.littleEndian, toByteOffset: x &* 4, as: UInt32.self)
        } else {
          // three bytes: the next pixel's first byte stays
          raw.storeBytes(
            of: UInt16(truncatingIfNeeded: new).littleEndian, toByteOffset: x &* 3,
            as: UInt16.self)
          raw.storeBytes(
            of: UInt8(truncatingIfNeeded: new >> 16), toByteOffset: x &* 3 &+ 2, as: UInt8.self)
        }
        let (newSum, newOffsets) = sampleSums(new, channels: channels)
        let (oldSum, oldOffsets) = sampleSums(was, channels: channels)
        bytes = bytes &+ newSum &- oldSum
        weighted = weighted &+ weight &* (newSum &- oldSum) &- (newOffsets &- oldOffsets)
      }
      x &+= 1
      weight &-= step
    }
    return RowSums(
      bytes: bytes, weighted: weighted, opaque: aboveSums.opaque && alphas == 0xFF00_0000)
  }

  /// A pixel's samples summed, and summed times their index in the pixel.
  @inline(__always)
  static func sampleSums(_ samples: UInt32, channels: Int) -> (sum: UInt64, offsets: UInt64) {
    let s0 = UInt64(samples & 0xFF)
    let s1 = UInt64(samples >> 8 & 0xFF)
    let s2 = UInt64(samples >> 16 & 0xFF)
    let s3 = channels == 4 ? UInt64(samples >> 24) : 0
    return (s0 &+ s1 &+ s2 &+ s3, s1 &+ 2 &* s2 &+ 3 &* s3)
  }

  /// The Adler-32 sums of one row's bytes (the filter byte 0, then the samples): their sum, and
  /// the sum of each byte times the number of bytes from it to the row's end. Not reduced.
  struct RowSums {
    let bytes: UInt64
    let weighted: UInt64
    /// Whether every pixel word of the row has the top byte 255 (Cairo's alpha).
    let opaque: Bool
  }

  /// The bytes of rows `range` as the zlib stream holds them: filter byte 0, then the samples.
  static func rawBytes<Rows: PNGPixelRows>(
    _ rows: Rows, layout: Layout, rows range: Range<Int>, into out: UnsafeMutablePointer<UInt8>
  ) {
    let row = UnsafeMutablePointer<UInt8>.allocate(capacity: layout.stride + 8)
    defer { row.deallocate() }
    for (index, y) in range.enumerated() {
      streamBytes(rows, rows.row(y), into: row)
      (out + index * layout.stride).update(from: row, count: layout.stride)
    }
  }

  /// The PNG file: signature, IHDR, the zlib stream in IDAT chunks, IEND.
  static func assemble(layout: Layout, segments: [Segment]) -> Data {
    var byteSum: UInt64 = 0
    var weightedSum: UInt64 = 0
    var total: UInt64 = 0
    for segment in segments {
      let length = UInt64(segment.inputLength) % adlerModulus
      weightedSum = (weightedSum + length * byteSum + segment.weightedSum) % adlerModulus
      byteSum = (byteSum + segment.byteSum) % adlerModulus
      total = (total + length) % adlerModulus
    }
    // Adler-32 starts with a = 1: every byte's running a is one more, so b gains the length
    let adler =
      UInt32((weightedSum + total) % adlerModulus) << 16 | UInt32((byteSum + 1) % adlerModulus)

    // The file is written in place, in one buffer of its final size: the zlib stream (header:
    // deflate, 32 KiB window, "fastest" level, no preset dictionary; the segments; Adler-32) is
    // cut into IDAT chunks as it is copied.
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
        parts: [[0x78, 0x01]] + segments.map(\.bytes) + [bigEndianBytes(adler)])
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
    var bytes: [UInt8] = []
    appendBigEndian(value, to: &bytes)
    return bytes
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

  private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes += [
      UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
      UInt8(truncatingIfNeeded: value >> 8),
      UInt8(truncatingIfNeeded: value),
    ]
  }
}

/// The tokens of one segment (see ``DeflateBlock``), the frequencies of their symbols and the
/// number of extra bits they carry.
struct TokenBuffer {
  private let base: UnsafeMutablePointer<UInt32>
  private var count = 0
  private let capacity: Int
  /// How often each literal/length symbol 0...285 occurs, then each distance symbol 0...29.
  private let counts: UnsafeMutablePointer<Int>
  private static let distanceCounts = 286
  /// The literal/length symbol and extra bits of each match length.
  private let lengthCodes: UnsafeMutablePointer<(symbol: UInt16, extraBits: UInt8, extra: UInt16)>
  /// Extra bits of every length and distance written so far.
  private(set) var extraBits = 0

  /// Room for `capacity` tokens: each token stands for at least one byte, so the segment's
  /// length in bytes.
  init(capacity: Int) {
    self.capacity = capacity
    base = .allocate(capacity: max(1, capacity))
    counts = .allocate(capacity: Self.distanceCounts + 30)
    counts.initialize(repeating: 0, count: Self.distanceCounts + 30)
    lengthCodes = .allocate(capacity: Deflate.maxMatch + 1)
    lengthCodes.initialize(from: Deflate.lengthCodes, count: Deflate.maxMatch + 1)
  }

  /// Frees the memory; the buffer is not used after.
  func deallocate() {
    base.deallocate()
    counts.deallocate()
    lengthCodes.deallocate()
  }

  /// The tokens written.
  var written: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(start: base, count: count) }
  /// How often each literal/length symbol 0...285 occurs.
  var frequencies: [Int] { Array(UnsafeBufferPointer(start: counts, count: 286)) }
  /// How often each distance symbol 0...29 occurs.
  var distanceFrequencies: [Int] {
    Array(UnsafeBufferPointer(start: counts + Self.distanceCounts, count: 30))
  }

  @inline(__always)
  mutating func literal(_ byte: UInt32) {
    precondition(count < capacity, "more tokens than bytes")
    base[count] = byte
    count += 1
    counts[Int(byte)] += 1
  }

  /// Writes a match of `length` bytes (at least 3) at `distance` as tokens of at most 258 bytes.
  @inline(__always)
  mutating func match(length: Int, distance: Int) {
    let code = Deflate.distanceCode(distance)
    var left = length
    while left > 0 {
      var part = min(left, Deflate.maxMatch)
      // what is left after this part must itself be a match: never 1 or 2 bytes
      if left - part > 0, left - part < Deflate.minMatch { part = left - Deflate.minMatch }
      precondition(count < capacity, "more tokens than bytes")
      base[count] = DeflateBlock.matchToken(length: part, distance: distance)
      count += 1
      let lengthCode = lengthCodes[part]
      counts[Int(lengthCode.symbol)] += 1
      counts[Self.distanceCounts + code.symbol] += 1
      extraBits += Int(lengthCode.extraBits) + code.extraBits
      left -= part
    }
  }

  /// Writes the pending match with the row above (`stride` bytes back), and sets it to 0. A
  /// pending run shorter than a match can only be a row's filter byte (0), written as a literal.
  @inline(__always)
  mutating func flushRow(_ run: inout Int, stride: Int) {
    if run >= Deflate.minMatch {
      match(length: run, distance: stride)
    } else {
      for _ in 0..<run { literal(0) }
    }
    run = 0
  }
}

/// Cairo's ARGB32 pixels (native-endian words) taken to be opaque: RGB samples. The encoder
/// gives up at the first alpha that is not 255.
struct OpaqueARGB32Rows: PNGPixelRows, @unchecked Sendable {
  let bitmap: PixelConversion.ARGB32Bitmap
  var width: Int { bitmap.width }
  var height: Int { bitmap.height }
  var channels: Int { 3 }
  var assumesOpaque: Bool { true }

  func row(_ y: Int) -> UnsafePointer<UInt32> {
    UnsafeRawPointer(bitmap.data + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
  }

  @inline(__always)
  func samples(_ word: UInt32) -> UInt32 { Self.rgbSamples(word) }

  /// The R, G and B samples of an opaque ARGB32 word, R in the low byte.
  @inline(__always)
  static func rgbSamples(_ word: UInt32) -> UInt32 {
    (word >> 16 & 0xFF) | (word & 0xFF00) | (word & 0xFF) << 16
  }
}

/// Cairo's premultiplied ARGB32 pixels: straight RGBA samples.
struct PremultipliedARGB32Rows: PNGPixelRows, @unchecked Sendable {
  let bitmap: PixelConversion.ARGB32Bitmap
  var width: Int { bitmap.width }
  var height: Int { bitmap.height }
  var channels: Int { 4 }
  var assumesOpaque: Bool { false }

  func row(_ y: Int) -> UnsafePointer<UInt32> {
    UnsafeRawPointer(bitmap.data + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
  }

  @inline(__always)
  func samples(_ word: UInt32) -> UInt32 { PixelConversion.straightRGBA(word) }
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
  static func encode(_ image: RasterImage, workers: Int = defaultWorkers) throws(GraphicsError)
    -> Data
  {
    let (width, height) = (image.width, image.height)
    guard image.pixels.count == width * height * 4 else {
      throw .pngEncodingFailed(
        reason: "the pixel buffer does not hold \(width)×\(height) RGBA pixels")
    }
    let opaque = image.pixels.withUnsafeBufferPointer { rgba in
      var all: UInt8 = 255
      for index in Swift.stride(from: 3, to: rgba.count, by: 4) { all &= rgba[index] }
      return all == 255
    }
    let result = image.pixels.withUnsafeBytes { bytes in
      bytes.withMemoryRebound(to: UInt32.self) { words in
        Result { () throws(GraphicsError) -> Data in
          guard let base = words.baseAddress else {
            throw .pngEncodingFailed(reason: "cannot encode an image of \(width)×\(height) pixels")
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
  static func encode(_ bitmap: PixelConversion.ARGB32Bitmap, workers: Int = defaultWorkers)
    throws(GraphicsError) -> Data
  {
    let layout = Layout(width: bitmap.width, height: bitmap.height, channels: 3)
    guard bitmap.width > 0, bitmap.height > 0, bitmap.width <= (Int(Int32.max) - 1) / 4,
      bitmap.height <= Int(Int32.max)
    else {
      throw .pngEncodingFailed(
        reason: "cannot encode an image of \(bitmap.width)×\(bitmap.height) pixels")
    }
    if let segments = encodeSegments(
      of: OpaqueARGB32Rows(bitmap: bitmap), layout: layout, workers: workers)
    {
      return assemble(layout: layout, segments: segments)
    }
    return try encode(PremultipliedARGB32Rows(bitmap: bitmap), workers: workers)
  }
}

/// Encodes a Cairo bitmap while it is being drawn: a thread of its own encodes each segment as
/// soon as the drawing thread says its rows are final (``rowsAreFinal(_:)``), and ``finish()``
/// encodes the rest on both threads. Every segment is encoded exactly as ``PNGEncoder`` encodes
/// the finished bitmap (as RGB, the opacity checked on the way; a translucent pixel makes
/// `finish` encode the whole bitmap again as RGBA), so the bytes are the same.
final class ProgressivePNGEncoder: @unchecked Sendable {
  private let bitmap: PixelConversion.ARGB32Bitmap
  private let rows: OpaqueARGB32Rows
  private let layout: PNGEncoder.Layout
  private let condition = ConditionLock()
  private let helper = ThreadGroup()
  // guarded by `condition`
  private var finalRows = 0
  private var next = 0
  private var segments: [PNGEncoder.Segment?]
  private var translucent = false
  private var stopped = false
  private var preluding: Bool

  /// Starts the helper thread for `bitmap`, whose rows are not drawn yet. The helper first runs
  /// `prelude` (writing pixels no one else writes before ``waitForPrelude()`` returns), then
  /// encodes.
  init(_ bitmap: PixelConversion.ARGB32Bitmap, prelude: (@Sendable () -> Void)? = nil) {
    self.bitmap = bitmap
    rows = OpaqueARGB32Rows(bitmap: bitmap)
    layout = PNGEncoder.Layout(width: bitmap.width, height: bitmap.height, channels: 3)
    segments = Array(repeating: nil, count: max(0, layout.segmentCount))
    preluding = prelude != nil
    if bitmap.width > 0, bitmap.height > 0 {
      helper.enter()
      let started = startThread { [self] in
        if let prelude {
          prelude()
          condition.lock()
          preluding = false
          condition.broadcast()
          condition.unlock()
        }
        work(waiting: true)
        helper.leave()
      }
      if !started {
        // no second thread: the prelude runs here, and finish() encodes every segment
        helper.leave()
        prelude?()
        preluding = false
      }
    } else if let prelude {
      prelude()
      preluding = false
    }
  }

  /// Waits until the helper has run the `prelude` given to `init`.
  func waitForPrelude() {
    condition.lock()
    while preluding { condition.wait() }
    condition.unlock()
  }

  /// Rows `0..<count` are drawn for good: nothing will write to them any more.
  func rowsAreFinal(_ count: Int) {
    condition.lock()
    if count > finalRows {
      finalRows = min(count, layout.height)
      condition.broadcast()
    }
    condition.unlock()
  }

  /// Takes segments whose rows are final and encodes them, until none is left (or, when not
  /// `waiting`, until none is ready).
  private func work(waiting: Bool) {
    while true {
      condition.lock()
      var taken: Int?
      while !translucent, !stopped, next < segments.count {
        if min(layout.height, (next + 1) * layout.segmentRows) <= finalRows {
          taken = next
          next += 1
          break
        }
        guard waiting else { break }
        condition.wait()
      }
      condition.unlock()
      guard let index = taken else { return }
      let segment = PNGEncoder.encodeSegment(index, of: rows, layout: layout)
      condition.lock()
      if let segment {
        segments[index] = segment
      } else {
        translucent = true
        condition.broadcast()
      }
      condition.unlock()
    }
  }

  /// Every row is drawn: encodes what is left on this thread and the helper's, and returns the
  /// PNG file.
  /// - Throws: `GraphicsError.pngEncodingFailed` for a bitmap PNG cannot hold.
  func finish() throws(GraphicsError) -> Data {
    rowsAreFinal(layout.height)
    work(waiting: false)
    helper.wait()
    condition.lock()
    let (isTranslucent, done) = (translucent, segments.compactMap { $0 })
    condition.unlock()
    if isTranslucent || done.count != segments.count || segments.isEmpty {
      return try PNGEncoder.encode(bitmap)
    }
    return PNGEncoder.assemble(layout: layout, segments: done)
  }

  /// Stops the helper, which takes no more segments, and waits for it (after ``finish()``, or
  /// when the drawing failed).
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
    helper.wait()
  }
}
