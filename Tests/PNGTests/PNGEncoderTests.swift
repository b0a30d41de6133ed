import CSpng
import CZlib
import Foundation
import Testing

@testable import Graphics
@testable import PNG

/// The PNG encoder, which deflates one image with igzip in segments on several threads, joined as
/// pigz joins them: the bytes must not depend on the number of threads, and libspng (which
/// checks every chunk CRC and the zlib stream's Adler-32) must read back the exact pixels.
@Suite("PNGEncoder")
struct PNGEncoderTests {
  /// Flat bands (long matches that cross segment cuts), gradients and noise; `alpha` also puts
  /// fully transparent pixels with colour and every alpha value in.
  /// An RGBA image of pseudo-random bytes (a 64-bit linear congruential generator from `seed`),
  /// which deflate cannot compress.
  static func noise(width: Int, height: Int, seed: UInt64) -> RasterImage {
    var state = seed
    return RasterImage(
      width: width, height: height,
      pixels: (0..<width * height * 4).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
      })
  }

  static func image(width: Int, height: Int, alpha: Bool) -> RasterImage {
    var state: UInt32 = 2024
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 1_103_515_245 &+ 12345
        let i = (y * width + x) * 4
        let band = (y / 40) % 3
        pixels[i] = band == 0 ? 0xFF : UInt8(truncatingIfNeeded: x)
        pixels[i + 1] = band == 1 ? UInt8(truncatingIfNeeded: state >> 16) : 0x79
        pixels[i + 2] = UInt8(truncatingIfNeeded: x ^ y)
        pixels[i + 3] = alpha ? UInt8(truncatingIfNeeded: x + y) : 255
      }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }

  /// Decodes with libspng alone, RGBA8 out, with a width limit wide enough for the wide test.
  static func decodeWithSpng(_ png: Data) throws -> RasterImage {
    let ctx = try #require(spng_ctx_new(0))
    defer { spng_ctx_free(ctx) }
    #expect(spng_set_image_limits(ctx, 1 << 20, 1 << 20) == 0)
    return try png.withUnsafeBytes { bytes in
      #expect(spng_set_png_buffer(ctx, bytes.baseAddress, bytes.count) == 0)
      var header = spng_ihdr()
      let status = spng_get_ihdr(ctx, &header)
      guard status == 0 else { throw DecodeFailure(status: status) }
      let size = Int(header.width) * Int(header.height) * 4
      var result: Int32 = 0
      let pixels = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        result = spng_decode_image(
          ctx, buffer.baseAddress, size, Int32(SPNG_FMT_RGBA8.rawValue),
          Int32(SPNG_DECODE_TRNS.rawValue))
        count = result == 0 ? size : 0
      }
      guard result == 0 else { throw DecodeFailure(status: result) }
      return RasterImage(width: Int(header.width), height: Int(header.height), pixels: pixels)
    }
  }

  struct DecodeFailure: Error {
    let status: Int32
  }

  /// The chunks of a PNG file, in order: type and body.
  static func chunks(_ png: Data) -> [(type: String, body: Data)] {
    var result: [(String, Data)] = []
    var offset = png.startIndex + 8
    while offset + 12 <= png.endIndex {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      result.append((type, png[offset + 8..<offset + 8 + length]))
      offset += 12 + length
    }
    return result
  }

  @Test(
    "1, 2, 3 and 8 workers write the same bytes, which libspng reads back to the exact pixels",
    arguments: [(500, 700, false), (500, 700, true), (37, 6000, true), (1080, 600, false)])
  func sameBytesForAnyWorkerCount(width: Int, height: Int, alpha: Bool) throws {
    let image = Self.image(width: width, height: height, alpha: alpha)
    let rowBytes = width * (alpha ? 4 : 3)
    // the image really is cut: several segments, so that 2 workers share it
    #expect(
      (height + PNGEncoder.segmentRows(rowBytes: rowBytes) - 1)
        / PNGEncoder.segmentRows(rowBytes: rowBytes) >= 3)
    let one = try PNGEncoder.encode(image, workers: 1)
    for workers in [2, 3, 8] {
      #expect(try PNGEncoder.encode(image, workers: workers) == one, "\(workers) workers")
    }
    #expect(try Self.decodeWithSpng(one) == image)
    #expect(try PNGCodec.decode(one) == image)
    // an opaque image is written as RGB (colour type 2), else RGBA (6)
    let header = try #require(Self.chunks(one).first)
    #expect(header.type == "IHDR")
    #expect(header.body[header.body.startIndex + 9] == (alpha ? 6 : 2))
    #expect(Self.chunks(one).map(\.type).filter { $0 != "IDAT" } == ["IHDR", "IEND"])
  }

  @Test("rows longer than deflate's window (32 KiB) read back exactly")
  func rowsLongerThanTheWindow() throws {
    let image = Self.image(width: 9_000, height: 12, alpha: true)
    #expect(9_000 * 4 + 1 > PNGEncoder.dictionaryBytes)
    let one = try PNGEncoder.encode(image, workers: 1)
    #expect(try PNGEncoder.encode(image, workers: 2) == one)
    #expect(try Self.decodeWithSpng(one) == image)
    // a row longer than a segment: one row a segment
    let wide = Self.image(width: 70_000, height: 4, alpha: true)
    #expect(PNGEncoder.segmentRows(rowBytes: 70_000 * 4) == 1)
    #expect(try Self.decodeWithSpng(PNGEncoder.encode(wide, workers: 2)) == wide)
  }

  @Test("each segment's deflate reaches back into the segment before (its 32 KiB dictionary)")
  func segmentsShareTheWindow() throws {
    // a row of noise in the stream (filter byte, 2,000 bytes), 16 times before the segment
    // (32,016 bytes: the dictionary) and 4 times in it
    let row = [UInt8(0)] + Self.noise(width: 500, height: 1, seed: 5).pixels
    let before = Array([[UInt8]](repeating: row, count: 16).joined())
    let input = Array([[UInt8]](repeating: row, count: 4).joined())
    let primed = try input.withUnsafeBufferPointer { input in
      try before.withUnsafeBufferPointer { before in
        try PNGEncoder.deflateSegment(input, dictionary: before, last: true)
      }
    }
    let alone = try input.withUnsafeBufferPointer { input in
      try PNGEncoder.deflateSegment(
        input, dictionary: UnsafeBufferPointer(start: nil, count: 0), last: true)
    }
    // the primed segment refers to bytes before it: raw inflate cannot read it without them,
    // and reads exactly the segment's bytes with them
    #expect((try? Self.inflateRaw(primed, dictionary: [])) == nil)
    #expect(try Self.inflateRaw(primed, dictionary: before) == input)
    #expect(try Self.inflateRaw(alone, dictionary: []) == input)
    #expect(primed.count < alone.count, "\(primed.count) bytes primed, \(alone.count) alone")
    // and a picture of that row repeated, 7 segments, reads back the same with 1 and 2 workers
    let image = RasterImage(
      width: 500, height: 900, pixels: (0..<900).flatMap { _ in row.dropFirst() })
    #expect(PNGEncoder.segmentRows(rowBytes: 2000) < 900 / 6)
    let png = try PNGEncoder.encode(image, workers: 2)
    #expect(try PNGEncoder.encode(image, workers: 1) == png)
    #expect(try Self.decodeWithSpng(png) == image)
  }

  struct InflateFailure: Error {
    let status: Int32
  }

  /// Raw deflate `data` inflated by zlib, primed with `dictionary`; throws on any error.
  static func inflateRaw(_ data: [UInt8], dictionary: [UInt8]) throws -> [UInt8] {
    var stream = z_stream()
    guard
      inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { throw InflateFailure(status: Z_MEM_ERROR) }
    defer { inflateEnd(&stream) }
    if !dictionary.isEmpty {
      let status = dictionary.withUnsafeBufferPointer {
        inflateSetDictionary(&stream, $0.baseAddress, UInt32($0.count))
      }
      guard status == Z_OK else { throw InflateFailure(status: status) }
    }
    var output = [UInt8](repeating: 0, count: 1 << 20)
    var input = data
    let status = input.withUnsafeMutableBufferPointer { input in
      output.withUnsafeMutableBufferPointer { output in
        stream.next_in = input.baseAddress
        stream.avail_in = UInt32(input.count)
        stream.next_out = output.baseAddress
        stream.avail_out = UInt32(output.count)
        return inflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { throw InflateFailure(status: status) }
    return Array(output.prefix(Int(stream.total_out)))
  }

  @Test("a zlib stream over one IDAT chunk is cut into chunks of 1 MiB, each with its CRC")
  func streamOverSeveralChunks() throws {
    // 2.5 MB of noise: stored blocks, so the stream is about as long and needs 3 chunks
    let noise = Self.noise(width: 800, height: 800, seed: 11)
    let png = try PNGEncoder.encode(noise, workers: 2)
    let chunks = Self.chunks(png)
    #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IDAT", "IDAT", "IEND"])
    #expect(chunks.filter { $0.type == "IDAT" }.dropLast().allSatisfy { $0.body.count == 1 << 20 })
    // the chunks end exactly at the file's end: signature, then 12 bytes around each body
    #expect(png.count == 8 + chunks.reduce(0) { $0 + 12 + $1.body.count })
    #expect(try Self.decodeWithSpng(png) == noise)
    #expect(try PNGCodec.decode(png) == noise)
  }

  @Test("flat colour costs next to nothing; noise is stored, never larger than its bytes")
  func flatAndNoise() throws {
    // a 1080×2160 page of one colour, 7 MB of rows: igzip's level 1 writes 33,791 bytes
    let flat = RasterImage(
      width: 1080, height: 2160,
      pixels: Array([UInt8]([0xF4, 0x6E, 0x1E, 0xFF]).repeated(1080 * 2160)))
    let flatPNG = try PNGEncoder.encode(flat)
    #expect(flatPNG.count < 50_000, "\(flatPNG.count) bytes")
    #expect(try Self.decodeWithSpng(flatPNG) == flat)
    // random bytes do not compress: the blocks are stored, each 5 bytes over its raw size (at
    // most 65,535 bytes a block), with a segment's sync flush and the file's chunks on top
    let noise = Self.noise(width: 300, height: 300, seed: 7)
    let noisePNG = try PNGEncoder.encode(noise)
    let raw = 300 * (300 * 4 + 1)
    #expect(noisePNG.count <= raw + raw / 65535 * 5 + 200, "\(noisePNG.count) bytes for \(raw)")
    #expect(try Self.decodeWithSpng(noisePNG) == noise)
  }

  @Test(
    "random pictures of bands, runs and noise at random sizes read back exactly", arguments: 0..<24)
  func randomPictures(seed: Int) throws {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % bound
    }
    let width = 1 + next(300)
    let height = 1 + next(200)
    let alpha = next(2) == 0
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let palette: [[UInt8]] = (0..<4).map { _ in
      [UInt8(next(256)), UInt8(next(256)), UInt8(next(256)), alpha ? UInt8(next(256)) : 255]
    }
    for y in 0..<height {
      // rows repeat the one above, are runs of palette colours, noise, or the row above with
      // a few pixels changed (one or two apart, at the row's ends too)
      let kind = y == 0 ? 1 : next(4)
      for x in 0..<width {
        let i = (y * width + x) * 4
        switch kind {
        case 0: for c in 0..<4 { pixels[i + c] = pixels[i - width * 4 + c] }
        case 1:
          let colour = palette[(x / (1 + next(5))) % 4]
          for c in 0..<4 { pixels[i + c] = colour[c] }
        case 2:
          for c in 0..<3 { pixels[i + c] = UInt8(next(256)) }
          pixels[i + 3] = alpha ? UInt8(next(256)) : 255
        default:
          let colour =
            next(6) == 0 ? palette[next(4)] : Array(pixels[(i - width * 4)..<(i - width * 4 + 4)])
          for c in 0..<4 { pixels[i + c] = colour[c] }
        }
      }
    }
    let image = RasterImage(width: width, height: height, pixels: pixels)
    let png = try PNGEncoder.encode(image, workers: 1)
    #expect(try PNGEncoder.encode(image, workers: 2) == png)
    #expect(try Self.decodeWithSpng(png) == image, "\(width)×\(height), alpha \(alpha)")
  }

  @Test("a Cairo bitmap: opaque as RGB, one translucent pixel anywhere makes it straight RGBA")
  func cairoBitmaps() throws {
    let (width, height) = (200, 900)
    let words = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
    defer { words.deallocate() }
    for index in 0..<width * height {
      words[index] = index % 7 == 0 ? 0xFF12_3456 : 0xFFFF_FFFF
    }
    let bitmap = ARGB32Bitmap(
      data: UnsafeMutableRawPointer(words).assumingMemoryBound(to: UInt8.self), width: width,
      height: height, stride: width * 4)
    let opaque = try PNGEncoder.encode(bitmap)
    #expect(Self.chunks(opaque).first?.body.dropFirst(9).first == 2)
    let decoded = try Self.decodeWithSpng(opaque)
    #expect(decoded.pixel(x: 0, y: 0) == (0x12, 0x34, 0x56, 255))
    #expect(decoded.pixel(x: 1, y: 0) == (255, 255, 255, 255))
    // premultiplied half-transparent red in the last row, found while coding the last segment
    words[width * height - 3] = 0x8080_0000
    let translucent = try PNGEncoder.encode(bitmap, workers: 2)
    #expect(try PNGEncoder.encode(bitmap, workers: 1) == translucent)
    #expect(Self.chunks(translucent).first?.body.dropFirst(9).first == 6)
    let straight = try Self.decodeWithSpng(translucent)
    #expect(straight.pixel(x: width - 3, y: height - 1) == (255, 0, 0, 128))
    #expect(straight.pixel(x: 1, y: 0) == (255, 255, 255, 255))
  }

  @Test(
    "four pixels at a time: each pixel's R, G, B bytes, and a translucent one found in any lane")
  func rgbRowLanes() {
    for width in 1...13 {
      let words = (0..<width).map { 0xFF00_0000 | UInt32(truncatingIfNeeded: $0 &* 0x1F_3A_57) }
      var out = [UInt8](repeating: 0xEE, count: width * 3 + 8)
      let opaque = words.withUnsafeBufferPointer { row in
        out.withUnsafeMutableBytes { raw in
          OpaqueARGB32Rows.rgbRow(row.baseAddress!, width: width, into: raw.baseAddress!)
        }
      }
      #expect(opaque, "width \(width)")
      let expected = words.flatMap {
        [UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)]
      }
      #expect(Array(out[0..<width * 3]) == expected, "width \(width)")
      for translucent in 0..<width {
        var changed = words
        changed[translucent] = 0xFE00_0000 | words[translucent] & 0xFF_FFFF
        let found = changed.withUnsafeBufferPointer { row in
          out.withUnsafeMutableBytes { raw in
            OpaqueARGB32Rows.rgbRow(row.baseAddress!, width: width, into: raw.baseAddress!)
          }
        }
        #expect(!found, "width \(width), pixel \(translucent)")
      }
    }
  }

  @Test("the combined Adler-32 is the stream's: a wrong one makes libspng refuse the file")
  func adlerIsChecked() throws {
    let image = Self.image(width: 400, height: 900, alpha: false)
    let png = try PNGEncoder.encode(image, workers: 2)
    let idat = Data(Self.chunks(png).filter { $0.type == "IDAT" }.flatMap(\.body))
    // the zlib header says deflate, 32 KiB window, no preset dictionary, and checks out
    #expect(idat.first == 0x78 && idat[idat.startIndex + 1] & 0x20 == 0)
    #expect((Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0)
    // the trailer equals the Adler-32 of the filtered rows, computed here from scratch
    var (a, b): (UInt32, UInt32) = (1, 0)
    func add(_ byte: UInt8) {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    for y in 0..<image.height {
      add(0)  // filter type None
      for x in 0..<image.width {
        for channel in 0..<3 { add(image.pixels[(y * image.width + x) * 4 + channel]) }
      }
    }
    let trailer = idat.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(trailer == b << 16 | a)

    // flip one bit of the trailer and fix the chunk's CRC: only the Adler-32 is now wrong
    var broken = png
    let iend = broken.count - 12
    let lastByte = iend - 5  // the last byte of the last IDAT body, before its CRC
    broken[lastByte] ^= 0x01
    let lastIDAT = try #require(Self.chunks(broken).last { $0.type == "IDAT" })
    let crc = Self.crc32(
      Data("IDAT".utf8) + broken[lastIDAT.body.startIndex..<lastIDAT.body.endIndex])
    broken.replaceSubrange(
      lastIDAT.body.endIndex..<lastIDAT.body.endIndex + 4,
      with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
    #expect(throws: DecodeFailure.self) { try Self.decodeWithSpng(broken) }
    #expect(throws: PNGError.self) { try PNGCodec.decode(broken) }
  }

  @Test("an empty image is an encoding error naming its size")
  func emptyImage() {
    #expect(throws: PNGError.encodingFailed(reason: "cannot encode an image of 0×5 pixels")) {
      try PNGEncoder.encode(RasterImage(width: 0, height: 5, pixels: []))
    }
  }

  /// CRC-32 (PNG's polynomial), bit by bit: independent of the encoder's zlib call.
  static func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}

extension Array {
  /// The elements `count` times over.
  fileprivate func repeated(_ count: Int) -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(self.count * count)
    for _ in 0..<count { result += self }
    return result
  }
}
