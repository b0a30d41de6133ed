import CSpng
import Foundation
import Testing

/// PNGs written by libspng, another encoder than ours, for the decoder's tests.
enum SpngWriter {
  /// Encodes 8-bit RGB or RGBA `pixels` (rows top to bottom), interlaced (Adam7) or not, with
  /// libspng's row filters `filters` (its `SPNG_FILTER_CHOICE` bits) or its default choice.
  static func encode<Pixels: Collection<UInt8>>(
    _ pixels: Pixels, width: Int, height: Int, alpha: Bool, interlaced: Bool, filters: Int32?
  ) throws -> Data {
    let ctx = try #require(spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)))
    defer { spng_ctx_free(ctx) }
    var header = spng_ihdr(
      width: UInt32(width), height: UInt32(height), bit_depth: 8,
      color_type: UInt8(
        alpha ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue : SPNG_COLOR_TYPE_TRUECOLOR.rawValue),
      compression_method: 0, filter_method: 0, interlace_method: interlaced ? 1 : 0)
    #expect(spng_set_ihdr(ctx, &header) == 0)
    #expect(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1) == 0)
    if let filters { #expect(spng_set_option(ctx, SPNG_FILTER_CHOICE, filters) == 0) }
    let bytes = Array(pixels)
    let status = bytes.withUnsafeBytes {
      spng_encode_image(
        ctx, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue),
        Int32(SPNG_ENCODE_FINALIZE.rawValue))
    }
    #expect(status == 0)
    var length = 0
    var error: Int32 = 0
    let buffer = try #require(spng_get_png_buffer(ctx, &length, &error))
    defer { free(buffer) }
    return Data(bytes: buffer, count: length)
  }
}
