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

/// Encodes an opaque picture drawn band by band, a few bands in memory at a time instead of the
/// whole bitmap.
///
/// The picture's rows are cut into bands of whole ``PNGEncoder`` segments (``segmentsPerBand``).
/// The drawing thread asks for a band's memory (``beginBand(_:)``), draws it, and hands it over
/// (``endBand(_:)``); a thread of the encoder's own encodes each segment of a handed-over band,
/// and a band's memory is drawn again, for a later band, once its segments are encoded. The
/// drawing thread encodes segments itself rather than wait for memory, and ``finish()``
/// encodes the rest on both threads. Each band's memory holds, above its own rows, a copy of the
/// last rows of the band before (``PNGEncoder/Layout/dictionaryRows``): the bytes that prime the
/// deflate of the band's first segment. Every segment is encoded exactly as ``PNGEncoder``
/// encodes the finished bitmap (as RGB, the opacity checked on the way), so the bytes are the
/// same, whoever encodes which segment.
package final class BandedPNGEncoder: @unchecked Sendable {
  /// Segments per band: a 1080-pixel row makes 80-row segments, so a band of a 1080×2160
  /// picture is 80 rows, 0.35 MB. One render of that picture, medians of 40 alternating runs:
  /// 23.3 ms with bands of one segment, 25.7 of two, 25.1 of four, 28.2 drawing it whole.
  static let segmentsPerBand = 1
  /// Bands in memory at once: the one being drawn, the one being encoded, one to spare.
  static let slotCount = 3

  /// The picture's size and cut into segments.
  package let layout: PNGEncoder.Layout
  /// Pixel rows per band (the last band may have fewer).
  let bandRows: Int
  /// Bands in the picture.
  package let bandCount: Int
  /// Bytes per row of a band's memory, as Cairo wants it for an ARGB32 surface.
  package let rowStride: Int
  /// Rows of the band before kept above a band's own rows in its memory.
  let aboveRows: Int

  private let memory: UnsafeMutableRawPointer
  /// Bands in memory at once (``slotCount``, or fewer for a short picture), and each one's bytes.
  private let slots: Int
  private let slotBytes: Int
  private let condition = ConditionLock()
  private let helper = ThreadGroup()
  // guarded by `condition`
  private var drawnBands = 0
  private var nextSegment = 0
  private var segments: [PNGEncoder.Segment?]
  private var encodedInBand: [Int]
  /// A segment was found not to be opaque, or zlib failed on it.
  private var translucent = false
  private var stopped = false

  /// Memory for the bands of a `width`×`height` picture, and the encoder's thread when
  /// `workers` is 2 or more (with 1, or when the system refuses a thread, the drawing thread
  /// encodes every segment: the bytes are the same); nil when the system has no memory for them
  /// or the size is not one PNG can hold.
  package init?(width: Int, height: Int, workers: Int = 2) {
    guard width > 0, height > 0, width <= (Int(Int32.max) - 1) / 4, height <= Int(Int32.max)
    else { return nil }
    layout = PNGEncoder.Layout(width: width, height: height, channels: 3)
    bandRows = layout.segmentRows * Self.segmentsPerBand
    bandCount = (height + bandRows - 1) / bandRows
    rowStride = width * 4
    aboveRows = layout.dictionaryRows
    slotBytes = (bandRows + aboveRows) * rowStride
    slots = min(Self.slotCount, bandCount)
    guard let memory = malloc(slots * slotBytes) else { return nil }
    self.memory = memory
    segments = Array(repeating: nil, count: layout.segmentCount)
    encodedInBand = Array(repeating: 0, count: bandCount)
    guard workers > 1 else { return }
    helper.enter()
    if !startThread({ [self] in
      work(waiting: true)
      helper.leave()
    }) {
      helper.leave()  // no second thread: the drawing thread encodes every segment
    }
  }

  deinit {
    stop()
    free(memory)
  }

  /// The pixel rows of band `band`.
  package func rows(ofBand band: Int) -> Range<Int> {
    (band * bandRows)..<min(layout.height, (band + 1) * bandRows)
  }

  /// The memory of band `band`'s first row, `rowStride` bytes a row, for the drawing thread to
  /// draw into until ``endBand(_:)``; nil once a segment was found not to be opaque (the picture
  /// cannot be encoded as RGB: the caller draws it whole instead), zlib failed, or the encoder
  /// was stopped.
  /// Bands are begun in order, each after the one before ended.
  package func beginBand(_ band: Int) -> UnsafeMutablePointer<UInt32>? {
    if band >= slots {
      // the band that used this memory before must be encoded: encode its segments rather
      // than wait for the helper
      let earlier = band - slots
      while true {
        condition.lock()
        if translucent || stopped {
          condition.unlock()
          return nil
        }
        if encodedInBand[earlier] == segmentCount(ofBand: earlier) {
          condition.unlock()
          break
        }
        if let index = takeSegment() {
          condition.unlock()
          encode(index)
        } else {
          condition.wait()
          condition.unlock()
        }
      }
    }
    let slot = slotStart(band)
    if band > 0 {
      // the last rows of the band before (still in memory, a full band: at least `aboveRows`)
      let end = slotStart(band - 1) + (aboveRows + rows(ofBand: band - 1).count) * rowStride
      memcpy(slot, end - aboveRows * rowStride, aboveRows * rowStride)
    }
    return (slot + aboveRows * rowStride).bindMemory(
      to: UInt32.self, capacity: rows(ofBand: band).count * layout.width)
  }

  /// Band `band` is drawn and flushed: nothing writes to its memory any more.
  package func endBand(_ band: Int) {
    condition.lock()
    drawnBands = max(drawnBands, band + 1)
    condition.broadcast()
    condition.unlock()
  }

  /// Every band is drawn: encodes what is left on this thread and the helper's, and returns the
  /// PNG file; nil when a pixel was not opaque or zlib failed.
  package func finish() -> Data? {
    work(waiting: false)
    helper.wait()
    condition.lock()
    let (isTranslucent, done) = (translucent, segments.compactMap { $0 })
    condition.unlock()
    guard !isTranslucent, done.count == segments.count, !done.isEmpty else { return nil }
    return PNGEncoder.assemble(layout: layout, segments: done)
  }

  /// Stops the helper, which takes no more segments, and waits for it (after ``finish()``, or
  /// when the drawing failed).
  package func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
    helper.wait()
  }

  private func slotStart(_ band: Int) -> UnsafeMutableRawPointer {
    memory + (band % slots) * slotBytes
  }

  private func segmentCount(ofBand band: Int) -> Int {
    let first = band * Self.segmentsPerBand
    return min(layout.segmentCount, first + Self.segmentsPerBand) - first
  }

  /// The next segment whose band is drawn, taken; nil when there is none (yet). Called with
  /// `condition` locked.
  private func takeSegment() -> Int? {
    guard !translucent, !stopped, nextSegment < segments.count,
      nextSegment / Self.segmentsPerBand < drawnBands
    else { return nil }
    defer { nextSegment += 1 }
    return nextSegment
  }

  /// Encodes segment `index` from its band's memory, and records it.
  private func encode(_ index: Int) {
    let band = index / Self.segmentsPerBand
    let source = BandRows(
      base: slotStart(band).assumingMemoryBound(to: UInt32.self), firstRow: band * bandRows,
      aboveRows: aboveRows, width: layout.width, height: layout.height)
    // a zlib failure (no memory) gives no file, as a translucent pixel does: the caller draws
    // the picture whole, whose encoding reports it
    let segment = try? PNGEncoder.encodeSegment(index, of: source, layout: layout)
    condition.lock()
    if let segment {
      segments[index] = segment
      encodedInBand[band] += 1
    } else {
      translucent = true
    }
    condition.broadcast()
    condition.unlock()
  }

  /// Takes segments whose band is drawn and encodes them, until none is left (or, when not
  /// `waiting`, until none is ready).
  private func work(waiting: Bool) {
    while true {
      condition.lock()
      var taken = takeSegment()
      while taken == nil, waiting, !translucent, !stopped, nextSegment < segments.count {
        condition.wait()
        taken = takeSegment()
      }
      condition.unlock()
      guard let index = taken else { return }
      encode(index)
    }
  }
}

/// The rows of one band in its memory, the rows of the band before kept above it first: rows
/// `firstRow - aboveRows` to the band's last, read as ``OpaqueARGB32Rows`` reads a whole bitmap.
private struct BandRows: PNGPixelRows, @unchecked Sendable {
  let base: UnsafePointer<UInt32>
  let firstRow: Int
  let aboveRows: Int
  let width: Int
  let height: Int
  var channels: Int { 3 }
  var assumesOpaque: Bool { true }

  func row(_ y: Int) -> UnsafePointer<UInt32> { base + (y - firstRow + aboveRows) * width }

  @inline(__always)
  func samples(_ word: UInt32) -> UInt32 { OpaqueARGB32Rows.rgbSamples(word) }
}
