import CSpng

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// Fast, deterministic PNG encoding and decoding of ``RasterImage`` values.
///
/// Encoding (``PNGEncoder``) writes 8-bit RGBA (RGB for fully opaque images), non-interlaced,
/// with no row filter, deflated by ISA-L's igzip. One image's work is split over the cores in segments
/// whose cut does not depend on the number of cores, joined as pigz joins its blocks, and no
/// time or text chunks are written, so the same pixels always give the same bytes. Decoding
/// uses libspng.
public enum PNGCodec {
  /// The version of the libspng in use, e.g. `0.7.3` (part of a render's fingerprint).
  public static var libspngVersion: String {
    spng_version_string().map { String(cString: $0) } ?? "unknown"
  }

  /// Encodes `image` as an 8-bit RGBA PNG, or RGB when every pixel is opaque.
  public static func encode(_ image: RasterImage) throws(PNGError) -> Data {
    try PNGEncoder.encode(image)
  }

  /// Encodes premultiplied ARGB32 pixels (a drawing's memory), as RGB when every pixel is
  /// opaque, else as straight RGBA; no intermediate bitmap.
  package static func encode(argb32 bitmap: ARGB32Bitmap) throws(PNGError) -> Data {
    try PNGEncoder.encode(bitmap)
  }

  /// Decodes any PNG (palette, grey, 16-bit, with or without `tRNS`) to 8-bit straight RGBA.
  ///
  /// The image is refused before any large allocation when it is over `limits`: its sides, its
  /// decoded size, or its ancillary chunks (text, ICC profile… with zlib bombs in mind).
  /// - Throws: ``PNGError/overLimit(reason:)`` over a limit,
  ///   ``PNGError/decodingFailed(reason:)`` for data that is not a valid PNG.
  public static func decode(_ data: Data, limits: PNGDecodeLimits = .standard)
    throws(PNGError) -> RasterImage
  {
    let (width, height) = try size(of: data, limits: limits)
    let size = width * height * 4
    var outcome: Result<Void, PNGError> = .success(())
    let pixels = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      outcome = Result { () throws(PNGError) in
        try decode(data, limits: limits, into: UnsafeMutableRawBufferPointer(buffer)) { _ in }
      }
      if case .failure = outcome { count = 0 } else { count = size }
    }
    try outcome.get()
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  /// The width and height in pixels that a PNG's header declares, checked against `limits`
  /// (sides, decoded size, ancillary chunks) without decoding any pixel.
  /// - Throws: as ``decode(_:limits:)``.
  public static func size(of data: Data, limits: PNGDecodeLimits = .standard)
    throws(PNGError) -> (width: Int, height: Int)
  {
    try data.withUnsafeBytes { bytes in
      Result { () throws(PNGError) -> (width: Int, height: Int) in
        let context = try SpngContext(encoder: false)
        return try header(context.handle, bytes: bytes, limits: limits)
      }
    }.get()
  }

  /// Decodes `data` row by row, top to bottom, into `pixels` (8-bit straight RGBA, `width × 4`
  /// bytes a row, no padding; exactly `width × height × 4` bytes, see ``size(of:limits:)``),
  /// calling `rowsDone` with the number of leading rows that are final each time one more is.
  ///
  /// Another thread may read the rows `rowsDone` has announced while the rest decode, e.g. to
  /// compare them with another image. An interlaced (Adam7) image is final only after its last
  /// pass: `rowsDone` is called once, with the height. The checks and errors are those of
  /// ``decode(_:limits:)``, and the pixels the same.
  public static func decode(
    _ data: Data, limits: PNGDecodeLimits = .standard, into pixels: UnsafeMutableRawBufferPointer,
    rowsDone: (Int) -> Void
  ) throws(PNGError) {
    try data.withUnsafeBytes { bytes in
      Result { () throws(PNGError) in
        try decode(bytes: bytes, limits: limits, into: pixels, rowsDone: rowsDone)
      }
    }.get()
  }

  /// Reads and checks the header of the PNG in `bytes` into `ctx`: ancillary chunks, then the
  /// sides and the decoded size against `limits`.
  private static func header(
    _ ctx: OpaquePointer, bytes: UnsafeRawBufferPointer, limits: PNGDecodeLimits
  ) throws(PNGError) -> (width: Int, height: Int) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw .decodingFailed(reason: "the data is empty")
    }
    try limits.checkAncillaryChunks(in: bytes)
    // libspng's own side limit stays at the PNG maximum so that the header can be read and the
    // refusal can say how large the image claims to be.
    try check(spng_set_image_limits(ctx, UInt32(Int32.max), UInt32(Int32.max)), encoding: false)
    try check(
      spng_set_chunk_limits(ctx, limits.maxChunkBytes, limits.maxAncillaryBytes), encoding: false)
    try check(spng_set_png_buffer(ctx, base, bytes.count), encoding: false)
    var header = spng_ihdr()
    try check(spng_get_ihdr(ctx, &header), encoding: false)
    let width = Int(header.width)
    let height = Int(header.height)
    try limits.check(width: width, height: height)
    var size = 0
    try check(spng_decoded_image_size(ctx, Self.rgba8, &size), encoding: false)
    guard size == width * height * 4 else {
      throw .decodingFailed(reason: "unexpected decoded size \(size) for \(width)×\(height)")
    }
    return (width, height)
  }

  private static let rgba8 = Int32(SPNG_FMT_RGBA8.rawValue)

  private static func decode(
    bytes: UnsafeRawBufferPointer, limits: PNGDecodeLimits,
    into pixels: UnsafeMutableRawBufferPointer, rowsDone: (Int) -> Void
  ) throws(PNGError) {
    let context = try SpngContext(encoder: false)
    let ctx = context.handle
    let (width, height) = try header(ctx, bytes: bytes, limits: limits)
    let rowBytes = width * 4
    guard let out = pixels.baseAddress, pixels.count == rowBytes * height else {
      throw .decodingFailed(
        reason:
          "the buffer holds \(pixels.count) bytes, not the \(rowBytes * height) of \(width)×\(height) RGBA pixels"
      )
    }
    var header = spng_ihdr()
    try check(spng_get_ihdr(ctx, &header), encoding: false)
    let interlaced = header.interlace_method != 0
    var status = spng_decode_image(
      ctx, nil, 0, Self.rgba8,
      Int32(SPNG_DECODE_TRNS.rawValue) | Int32(SPNG_DECODE_PROGRESSIVE.rawValue))
    while status == 0 {
      var row = spng_row_info()
      status = spng_get_row_info(ctx, &row)
      guard status == 0 else { break }
      let index = Int(row.row_num)
      guard index < height else {
        throw .decodingFailed(reason: "row \(index) of an image \(height) rows high")
      }
      status = spng_decode_row(ctx, out + index * rowBytes, rowBytes)
      // A progressive image's rows come in order, each final once decoded.
      if !interlaced && (status == 0 || status == Int32(SPNG_EOI.rawValue)) { rowsDone(index + 1) }
    }
    if status == Int32(SPNG_ECHUNK_LIMITS.rawValue) {
      throw .overLimit(
        reason:
          "an ancillary chunk (text, ICC profile, EXIF…) is over \(limits.maxChunkBytes) bytes, or all of them together over \(limits.maxAncillaryBytes) bytes, once decompressed"
      )
    }
    guard status == Int32(SPNG_EOI.rawValue) else {
      try check(status, encoding: false)
      throw .decodingFailed(reason: "the image data ends early")
    }
    if interlaced { rowsDone(height) }
  }

  private static func check(_ status: Int32, encoding: Bool) throws(PNGError) {
    guard status == 0 else {
      throw encoding
        ? .encodingFailed(reason: message(status)) : .decodingFailed(reason: message(status))
    }
  }

  private static func message(_ status: Int32) -> String {
    guard let text = spng_strerror(status) else { return "libspng error \(status)" }
    return String(cString: text)
  }
}

/// How large a PNG input may be; the decoder refuses anything larger before allocating it.
public struct PNGDecodeLimits: Hashable, Sendable {
  /// The longest side, in pixels.
  public var maxSide: Int
  /// The most pixels (width × height); the decoded image takes 4 bytes a pixel.
  public var maxPixels: Int
  /// The largest ancillary chunk (text, ICC profile, EXIF…), after decompression, in bytes.
  public var maxChunkBytes: Int
  /// All ancillary chunks together, after decompression, in bytes.
  public var maxAncillaryBytes: Int

  /// Creates limits.
  public init(maxSide: Int, maxPixels: Int, maxChunkBytes: Int, maxAncillaryBytes: Int) {
    self.maxSide = maxSide
    self.maxPixels = maxPixels
    self.maxChunkBytes = maxChunkBytes
    self.maxAncillaryBytes = maxAncillaryBytes
  }

  /// Snapshot references and `diff` inputs: 32767 pixels a side (the largest bitmap Cairo draws,
  /// so anything this tool renders), 2²⁷ pixels (512 MiB decoded), ancillary chunks of 1 MiB
  /// each and 2 MiB in all (this tool writes none).
  public static let standard = PNGDecodeLimits(
    maxSide: 32767, maxPixels: 1 << 27, maxChunkBytes: 1 << 20,
    maxAncillaryBytes: 2 << 20)

  /// Free icons: 4096 pixels a side (an icon is drawn at most a few dozen points wide), the same
  /// chunk limits as ``standard``.
  public static let icon = PNGDecodeLimits(
    maxSide: 4096, maxPixels: 4096 * 4096, maxChunkBytes: 1 << 20, maxAncillaryBytes: 2 << 20)

  /// Throws when one ancillary chunk as stored, or all of them together, are over the limits.
  ///
  /// libspng then checks the decompressed sizes of compressed chunks (`zTXt`, `iCCP`, `iTXt`).
  /// A malformed chunk list is left to libspng to report.
  func checkAncillaryChunks(in bytes: UnsafeRawBufferPointer) throws(PNGError) {
    var offset = 8
    var total = 0
    while offset + 8 <= bytes.count {
      let length =
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
        | Int(bytes[offset + 3])
      let type = bytes[(offset + 4)..<(offset + 8)]
      let name = String(
        type.map { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 ? Character(UnicodeScalar($0)) : "?" })
      if name == "IEND" { return }
      // Bit 5 of the first letter (lower case) marks an ancillary chunk.
      if type.first.map({ $0 & 0x20 != 0 }) == true {
        if length > maxChunkBytes {
          throw .overLimit(
            reason:
              "its \(name) chunk is \(length) bytes, over the limit of \(maxChunkBytes) bytes for one ancillary chunk"
          )
        }
        total += length
        if total > maxAncillaryBytes {
          throw .overLimit(
            reason: "its ancillary chunks hold over \(maxAncillaryBytes) bytes together (the limit)"
          )
        }
      }
      offset += 12 + length
    }
  }

  /// Throws when an image of `width`×`height` pixels is over the limits.
  func check(width: Int, height: Int) throws(PNGError) {
    if width > maxSide || height > maxSide {
      throw .overLimit(
        reason: "the image is \(width)×\(height) pixels, over the limit of \(maxSide) pixels a side"
      )
    }
    if width * height > maxPixels {
      throw .overLimit(
        reason:
          "the image is \(width)×\(height) = \(width * height) pixels, over the limit of \(maxPixels) pixels (\(maxPixels * 4 / (1 << 20)) MiB decoded)"
      )
    }
  }
}

/// A libspng context; owned, freed in `deinit`.
private struct SpngContext: ~Copyable {
  let handle: OpaquePointer

  init(encoder: Bool) throws(PNGError) {
    guard let handle = spng_ctx_new(encoder ? Int32(SPNG_CTX_ENCODER.rawValue) : 0) else {
      throw encoder
        ? .encodingFailed(reason: "libspng could not create a context")
        : .decodingFailed(reason: "libspng could not create a context")
    }
    self.handle = handle
  }

  deinit {
    spng_ctx_free(handle)
  }
}
