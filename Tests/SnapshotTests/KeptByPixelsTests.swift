import Foundation
import PNG
import Snapshot
import Testing

/// References are kept by pixels: `record` leaves a reference whose decoded pixels and layout JSON
/// are the render's as it is, byte for byte, whatever encoder wrote it (igzip's bytes depend on
/// the CPU it runs on).
@Suite("record keeps references by pixels")
struct KeptByPixelsTests {
  @Test(
    "a reference re-encoded by another PNG encoder (same pixels) survives record --all and --failed byte for byte and counts as unchanged; one changed pixel is recorded"
  )
  func reencodedReferenceSurvives() throws {
    let folder = try makeSnapshotsFolder(
      cases: ["sample-2"],
      variants: ["sample-2": #"{ "themes": ["orange"], "modes": ["light"] }"#])
    defer { try? FileManager.default.removeItem(at: folder) }
    let engine = try engine(snapshots: folder)
    let references = engine.catalogue.references
    let reference = try #require(references.first)
    _ = try engine.record(references, mode: .all)
    let png = folder.appendingPathComponent(reference.imagePath)
    let ours = try Data(contentsOf: png)
    let image = try PNGCodec.decode(ours)

    // Another encoder: stored (uncompressed) deflate blocks, filter 0 on every row, as written
    // below; the bytes differ from ours, the pixels do not.
    let other = StoredPNG.encode(image)
    #expect(other != ours)
    #expect(try PNGCodec.decode(other) == image)
    try other.write(to: png)

    for mode in [SnapshotRecordMode.all, .failed] {
      let report = try engine.record(references, mode: mode)
      #expect(report.written.isEmpty, "record \(mode) wrote \(report.written)")
      #expect(report.outcomes.map(\.status) == [.passed], "record \(mode): unchanged, not recorded")
      #expect(try Data(contentsOf: png) == other, "record \(mode) rewrote the re-encoded reference")
    }

    // One pixel really changed: record --all writes the render again, with our encoder.
    var changed = image
    changed.pixels[0] ^= 0xFF
    try StoredPNG.encode(changed).write(to: png)
    let report = try engine.record(references, mode: .all)
    #expect(report.written == [reference.imagePath])
    #expect(report.outcomes.map(\.status) == [.recorded])
    #expect(try PNGCodec.decode(try Data(contentsOf: png)) == image)
  }
}

/// A PNG writer other than the package's: 8-bit RGBA, filter 0 on every row, the zlib stream made
/// of stored (uncompressed) deflate blocks, with the CRC-32 and Adler-32 computed here.
enum StoredPNG {
  static func encode(_ image: RasterImage) -> Data {
    var raw: [UInt8] = []
    let stride = image.width * 4
    for row in 0..<image.height {
      raw.append(0)
      raw += image.pixels[(row * stride)..<((row + 1) * stride)]
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, raw.count - offset)
      let last: UInt8 = offset + count == raw.count ? 1 : 0
      zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8)]
      zlib += [UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      zlib += raw[offset..<(offset + count)]
      offset += count
    } while offset < raw.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    zlib += bigEndian((b << 16) | a)
    var header = bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height))
    header += [8, 6, 0, 0, 0]
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    file += chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    return Data(file)
  }

  private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
      UInt8(value & 0xFF),
    ]
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
