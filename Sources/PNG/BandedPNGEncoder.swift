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

/// The thread that encodes the bands of opaque pictures drawn band by band
/// (``BandedPNGEncoder``), in the order the pictures were begun.
///
/// One encoding thread serves every picture of a run: while the drawing thread lays out and
/// draws the next picture, it goes on with the last bands of the one before. (A thread per
/// picture did not: the next picture's thread and the one finishing the last picture took both
/// cores from the drawing thread, and `render --theme all` was no faster.) The pictures share
/// the thread's lock, so that it can pick the next band to encode among them.
package final class BandEncodingThread: @unchecked Sendable {
  /// The lock of the thread's queue and of every encoder on it.
  let condition = ConditionLock()
  private let group = ThreadGroup()
  // guarded by `condition`
  private var queue: [BandedPNGEncoder] = []
  private var closed = false
  /// Whether the thread runs (false when the system refused it: the drawing thread then encodes
  /// every segment, which gives the same bytes).
  private(set) var isRunning = false

  /// Starts the thread (`workers` 1: none, and the drawing thread encodes everything). It runs
  /// until ``close()``.
  package init(workers: Int = 2) {
    guard workers > 1 else { return }
    group.enter()
    isRunning = startThread { [self] in
      run()
      group.leave()
    }
    if !isRunning { group.leave() }
  }

  /// Ends the thread after the segment it is encoding, and waits for it. What is left of the
  /// pictures on its queue is encoded by their ``BandedPNGEncoder/finish()``.
  package func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
    group.wait()
  }

  /// Puts `encoder` at the end of the queue. Called with `condition` locked.
  fileprivate func enqueue(_ encoder: BandedPNGEncoder) {
    if isRunning { queue.append(encoder) }
    condition.broadcast()
  }

  /// Takes `encoder` off the queue. Called with `condition` locked.
  fileprivate func dequeue(_ encoder: BandedPNGEncoder) {
    queue.removeAll { $0 === encoder }
  }

  private func run() {
    while true {
      condition.lock()
      var taken: (BandedPNGEncoder, Int)?
      while taken == nil, !closed {
        // the first picture with a band ready (pictures leave the queue when stopped, never
        // here: the last reference to one must not go inside this lock)
        for encoder in queue {
          if let index = encoder.takeSegment() {
            taken = (encoder, index)
            break
          }
        }
        if taken == nil { condition.wait() }
      }
      condition.unlock()
      guard let (encoder, index) = taken else { return }
      encoder.encode(index)
    }
  }
}

/// Encodes an opaque picture drawn band by band, a few bands in memory at a time instead of the
/// whole bitmap.
///
/// The picture's rows are cut into bands of whole ``PNGEncoder`` segments (``segmentsPerBand``).
/// The drawing thread asks for a band's memory (``beginBand(_:)``), draws it, and hands it over
/// (``endBand(_:)``); a ``BandEncodingThread`` encodes each segment of a handed-over band, and a
/// band's memory is drawn again, for a later band, once its segments are encoded. The drawing
/// thread encodes segments itself rather than wait for memory, and ``finish()`` encodes the
/// rest on both threads. Each band's memory holds, above its own rows, a copy of the last rows
/// of the band before (``PNGEncoder/Layout/dictionaryRows``): the bytes that prime the deflate
/// of the band's first segment. Every segment is encoded exactly as ``PNGEncoder`` encodes the
/// finished bitmap (as RGB, the opacity checked on the way), so the bytes are the same, whoever
/// encodes which segment.
package final class BandedPNGEncoder: @unchecked Sendable {
  /// Segments per band: a 1080-pixel row makes 80-row segments, so a band of a 1080×2160
  /// picture is 80 rows, 0.35 MB. One render of that picture, medians of 40 alternating runs:
  /// 23.3 ms with bands of one segment, 25.7 of two, 25.1 of four, 28.2 drawing it whole.
  static let segmentsPerBand = 1
  /// Bands in memory at once. With one ``BandEncodingThread`` for all the pictures of
  /// `render --theme all --mode all` (8 of 1080×2160), medians of 30 alternating runs,
  /// 2026-12-05: 86.4 ms with 4 bands, 87.3 with 8, 90.4 with 16; a thread per picture with 3
  /// bands took 94.3 ms.
  static let slotCount = 4

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
  /// The encoding thread, and its lock, which guards the state below.
  private let thread: BandEncodingThread
  private var condition: ConditionLock { thread.condition }
  /// The encoding thread was made for this picture alone, and ends with it.
  private let ownsThread: Bool
  // guarded by `condition`
  private var drawnBands = 0
  private var nextSegment = 0
  /// Segments taken and not yet recorded.
  private var encoding = 0
  private var segments: [PNGEncoder.Segment?]
  private var encodedInBand: [Int]
  /// A segment was found not to be opaque, or igzip failed on it.
  private var translucent = false
  private var stopped = false

  /// Memory for the bands of a `width`×`height` picture, encoded by `thread` and the drawing
  /// thread (nil: a thread of its own when `workers` is 2 or more; with 1, or when the system
  /// refuses a thread, the drawing thread encodes every segment: the bytes are the same); nil
  /// when the system has no memory for them or the size is not one PNG can hold.
  package init?(
    width: Int, height: Int, workers: Int = 2, thread: BandEncodingThread? = nil
  ) {
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
    ownsThread = thread == nil
    self.thread = thread ?? BandEncodingThread(workers: workers)
    condition.lock()
    self.thread.enqueue(self)
    condition.unlock()
  }

  deinit {
    // stopped: off the thread's queue, no segment being encoded (the queue holds an encoder
    // until it is stopped)
    free(memory)
  }

  /// The pixel rows of band `band`.
  package func rows(ofBand band: Int) -> Range<Int> {
    (band * bandRows)..<min(layout.height, (band + 1) * bandRows)
  }

  /// The memory of band `band`'s first row, `rowStride` bytes a row, for the drawing thread to
  /// draw into until ``endBand(_:)``; nil once a segment was found not to be opaque (the picture
  /// cannot be encoded as RGB: the caller draws it whole instead), igzip failed, or the encoder
  /// was stopped.
  /// Bands are begun in order, each after the one before ended.
  package func beginBand(_ band: Int) -> UnsafeMutablePointer<UInt32>? {
    if band >= slots {
      // the band that used this memory before must be encoded: encode its segments rather
      // than wait for the encoding thread
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

  /// Every band is drawn: encodes what is left, on this thread and the encoding thread, and
  /// returns the PNG file, then stops (``stop()``); nil when a pixel was not opaque or igzip
  /// failed.
  package func finish() -> Data? {
    defer { stop() }
    while true {
      condition.lock()
      guard let taken = takeSegment() else {
        // nothing left to take: wait for the segments the encoding thread is on
        while encoding > 0 { condition.wait() }
        let (isTranslucent, done) = (translucent, segments.compactMap { $0 })
        condition.unlock()
        guard !isTranslucent, done.count == segments.count, !done.isEmpty else { return nil }
        return PNGEncoder.assemble(layout: layout, segments: done)
      }
      condition.unlock()
      encode(taken)
    }
  }

  /// Stops the encoding: no segment of this picture is taken any more; waits for those being
  /// encoded, and takes the picture off the encoding thread's queue (and ends that thread when
  /// it was this picture's own). Called after ``finish()`` (which calls it) or when the drawing
  /// failed; every encoder is stopped before it goes.
  package func stop() {
    condition.lock()
    stopped = true
    while encoding > 0 { condition.wait() }
    thread.dequeue(self)
    condition.broadcast()
    condition.unlock()
    if ownsThread { thread.close() }
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
  fileprivate func takeSegment() -> Int? {
    guard !translucent, !stopped, nextSegment < segments.count,
      nextSegment / Self.segmentsPerBand < drawnBands
    else { return nil }
    defer {
      nextSegment += 1
      encoding += 1
    }
    return nextSegment
  }

  /// Encodes segment `index`, taken by ``takeSegment()``, from its band's memory, and records
  /// it. Called with `condition` unlocked.
  fileprivate func encode(_ index: Int) {
    let band = index / Self.segmentsPerBand
    let source = BandRows(
      base: slotStart(band).assumingMemoryBound(to: UInt32.self), firstRow: band * bandRows,
      aboveRows: aboveRows, width: layout.width, height: layout.height)
    // an igzip failure (no memory) gives no file, as a translucent pixel does: the caller draws
    // the picture whole, whose encoding reports it
    let segment = try? PNGEncoder.encodeSegment(index, of: source, layout: layout)
    condition.lock()
    if let segment {
      segments[index] = segment
      encodedInBand[band] += 1
    } else {
      translucent = true
    }
    encoding -= 1
    condition.broadcast()
    condition.unlock()
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
  var isOpaqueARGB32: Bool { true }

  func row(_ y: Int) -> UnsafePointer<UInt32> { base + (y - firstRow + aboveRows) * width }

  @inline(__always)
  func samples(_ word: UInt32) -> UInt32 { OpaqueARGB32Rows.rgbSamples(word) }
}
