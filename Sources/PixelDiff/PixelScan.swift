#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The per-pixel engine behind ``ImageDiff``: row memory compares first, then YIQ and
/// anti-aliasing tests (pixelmatch's published algorithm) only on rows that differ.
///
/// Every pointer addresses straight RGBA8 pixels, `width * 4` bytes a row, no padding.
enum PixelScan {
  /// The grey a black pixel of the expected image takes under the marks of a diff image.
  ///
  /// pixelmatch fades the expected image to 10 % over white, which washes a dark-mode picture
  /// out (its white text vanishes). Here every picture is ghosted over one neutral base: its
  /// brightness is mapped into `ghostBase...ghostBase + ghostRange` (black 170, white 230), so
  /// dark text on light and light text on dark both stay legible, and the red and amber marks
  /// stand out on the same grey in either mode.
  static let ghostBase = 170.0
  /// How far the ghost's greys reach above ``ghostBase`` (for white).
  static let ghostRange = 60.0
  /// The colour of a changed pixel: red.
  static let changedMark: (UInt8, UInt8, UInt8) = (255, 0, 0)
  /// The colour of an anti-aliased pixel that was not counted: amber (pixelmatch's yellow is
  /// lost on a light grey).
  static let antiAliasedMark: (UInt8, UInt8, UInt8) = (255, 160, 0)

  /// What a scan counted.
  struct Counts {
    var changed = 0
    var antiAliased = 0
  }

  /// Compares two same-size images row by row; records changed pixels in `clusters` and, when
  /// `output` is given, paints changed pixels red and anti-aliased ones amber into it.
  static func run(
    _ a: UnsafeRawPointer, _ b: UnsafeRawPointer, width: Int, height: Int, options: DiffOptions,
    clusters: RegionClusters?, output: UnsafeMutableRawPointer?
  ) -> Counts {
    var counts = Counts()
    run(
      a, b, width: width, height: height, rows: 0..<height, options: options, clusters: clusters,
      output: output, counts: &counts)
    return counts
  }

  /// How many rows below a row the scan of that row reads: none when counting exactly; two when
  /// counting perceptually (the anti-aliasing test reads the neighbours of a neighbour).
  static func rowsBelowNeeded(_ options: DiffOptions) -> Int {
    options.countsPerceptually && !options.includeAntiAliasing ? 2 : 0
  }

  /// Compares `rows` of two same-size images as ``run(_:_:width:height:options:clusters:output:)``
  /// does, adding to `counts`; rows scanned in order, in any number of calls, give the same counts,
  /// clusters and marks as one call over every row. Reads rows `rows.lowerBound - 2` to
  /// `rows.upperBound - 1 + ``rowsBelowNeeded(_:)``` (within the image) of both images.
  /// - Returns: whether any row of `rows` differs in its bytes.
  @discardableResult
  static func run(
    _ a: UnsafeRawPointer, _ b: UnsafeRawPointer, width: Int, height: Int, rows: Range<Int>,
    options: DiffOptions, clusters: RegionClusters?, output: UnsafeMutableRawPointer?,
    counts: inout Counts
  ) -> Bool {
    let rowBytes = width * 4
    let perceptual = options.countsPerceptually
    let detectAA = perceptual && !options.includeAntiAliasing
    let maxDelta = options.maxColorDelta
    var differs = false
    for y in rows {
      let rowStart = y * rowBytes
      if memcmp(a + rowStart, b + rowStart, rowBytes) == 0 { continue }
      differs = true
      for x in 0..<width {
        let k = rowStart + x &* 4
        if a.load(fromByteOffset: k, as: UInt32.self) == b.load(fromByteOffset: k, as: UInt32.self)
        {
          continue
        }
        if perceptual {
          let delta = colorDelta(a, k, b, k, brightnessOnly: false)
          if abs(delta) <= maxDelta { continue }
          if detectAA
            && (antialiased(a, other: b, x: x, y: y, width: width, height: height)
              || antialiased(b, other: a, x: x, y: y, width: width, height: height))
          {
            counts.antiAliased += 1
            if let output {
              paint(output, k, antiAliasedMark.0, antiAliasedMark.1, antiAliasedMark.2)
            }
            continue
          }
        }
        counts.changed += 1
        clusters?.add(x: x, y: y)
        if let output { paint(output, k, changedMark.0, changedMark.1, changedMark.2) }
      }
    }
    return differs
  }

  /// Writes an opaque colour at byte offset `k`.
  @inline(__always)
  static func paint(_ output: UnsafeMutableRawPointer, _ k: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8)
  {
    output.storeBytes(of: r, toByteOffset: k, as: UInt8.self)
    output.storeBytes(of: g, toByteOffset: k + 1, as: UInt8.self)
    output.storeBytes(of: b, toByteOffset: k + 2, as: UInt8.self)
    output.storeBytes(of: 255, toByteOffset: k + 3, as: UInt8.self)
  }

  /// Paints every pixel of `image` as its ghost (its brightness over white, mapped onto the
  /// neutral base, see ``ghostBase``) into `output`;
  /// runs of equal pixels (most of a rendered UI) reuse the previous result.
  static func paintFaded(
    _ image: UnsafeRawPointer, pixelCount: Int, into output: UnsafeMutableRawPointer
  ) {
    var previous: UInt32 = 0
    var previousFaded = UInt32(littleEndian: fadedWord(0))
    for i in 0..<pixelCount {
      let k = i &* 4
      let pixel = image.load(fromByteOffset: k, as: UInt32.self)
      if pixel != previous {
        previous = pixel
        previousFaded = UInt32(littleEndian: fadedWord(UInt32(littleEndian: pixel)))
      }
      output.storeBytes(of: previousFaded, toByteOffset: k, as: UInt32.self)
    }
  }

  /// The ghost grey of one RGBA pixel given as a little-endian word (R in the low byte), as a
  /// little-endian word.
  @inline(__always)
  private static func fadedWord(_ rgba: UInt32) -> UInt32 {
    let r = Double(rgba & 0xFF)
    let g = Double((rgba >> 8) & 0xFF)
    let b = Double((rgba >> 16) & 0xFF)
    let alpha = Double(rgba >> 24) / 255
    let luma = r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    let overWhite = 255 + (luma - 255) * alpha
    let value = ghostBase + overWhite * ghostRange / 255
    let grey = UInt32(max(0, min(255, value + 0.5)))
    return grey | grey << 8 | grey << 16 | 0xFF00_0000
  }

  /// Squared YIQ distance between the pixels at byte offsets `k1` of `p1` and `k2` of `p2`
  /// (Kotsarenko & Ramos weights), negative when the second is darker; with `brightnessOnly`,
  /// the signed difference of the Y (brightness) component instead.
  ///
  /// Semi-transparent pixels are blended over a background pattern that depends on `k1`, the
  /// same one pixelmatch 7 uses, so changes hidden by transparency still show.
  @inline(__always)
  static func colorDelta(
    _ p1: UnsafeRawPointer, _ k1: Int, _ p2: UnsafeRawPointer, _ k2: Int, brightnessOnly: Bool
  ) -> Double {
    let r1 = Double(p1.load(fromByteOffset: k1, as: UInt8.self))
    let g1 = Double(p1.load(fromByteOffset: k1 + 1, as: UInt8.self))
    let b1 = Double(p1.load(fromByteOffset: k1 + 2, as: UInt8.self))
    let a1 = Double(p1.load(fromByteOffset: k1 + 3, as: UInt8.self))
    let r2 = Double(p2.load(fromByteOffset: k2, as: UInt8.self))
    let g2 = Double(p2.load(fromByteOffset: k2 + 1, as: UInt8.self))
    let b2 = Double(p2.load(fromByteOffset: k2 + 2, as: UInt8.self))
    let a2 = Double(p2.load(fromByteOffset: k2 + 3, as: UInt8.self))

    var dr = r1 - r2
    var dg = g1 - g2
    var db = b1 - b2
    let da = a1 - a2
    if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }

    if a1 < 255 || a2 < 255 {
      let rb = Double(48 + 159 * (k1 % 2))
      let gb = Double(48 + 159 * (Int(Double(k1) / 1.618033988749895) % 2))
      let bb = Double(48 + 159 * (Int(Double(k1) / 2.618033988749895) % 2))
      dr = (r1 * a1 - r2 * a2 - rb * da) / 255
      dg = (g1 * a1 - g2 * a2 - gb * da) / 255
      db = (b1 * a1 - b2 * a2 - bb * da) / 255
    }

    let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    if brightnessOnly { return y }
    let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
    let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return y > 0 ? -delta : delta
  }

  /// Whether the pixel at (`x1`, `y1`) of `image` looks like anti-aliasing, after V. Vysniauskas,
  /// "Anti-aliased Pixel and Intensity Slope Detector" (2009), as pixelmatch applies it: it has
  /// at most two equal neighbours, both a darker and a brighter neighbour, and the darkest or the
  /// brightest neighbour has three or more equal neighbours of its own in both images.
  static func antialiased(
    _ image: UnsafeRawPointer, other: UnsafeRawPointer, x x1: Int, y y1: Int, width: Int,
    height: Int
  ) -> Bool {
    let x0 = max(x1 - 1, 0)
    let y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1)
    let y2 = min(y1 + 1, height - 1)
    let center = (y1 * width + x1) * 4
    var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
    var darkest = 0.0
    var brightest = 0.0
    var darkX = 0
    var darkY = 0
    var brightX = 0
    var brightY = 0

    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        let delta = colorDelta(image, center, image, (y * width + x) * 4, brightnessOnly: true)
        if delta == 0 {
          zeroes += 1
          if zeroes > 2 { return false }
        } else if delta < darkest {
          darkest = delta
          darkX = x
          darkY = y
        } else if delta > brightest {
          brightest = delta
          brightX = x
          brightY = y
        }
      }
    }
    if darkest == 0 || brightest == 0 { return false }
    return
      (hasManySiblings(image, x: darkX, y: darkY, width: width, height: height)
      && hasManySiblings(other, x: darkX, y: darkY, width: width, height: height))
      || (hasManySiblings(image, x: brightX, y: brightY, width: width, height: height)
        && hasManySiblings(other, x: brightX, y: brightY, width: width, height: height))
  }

  /// Whether the pixel at (`x1`, `y1`) has three or more neighbours of exactly its colour
  /// (image edges count as one).
  static func hasManySiblings(
    _ image: UnsafeRawPointer, x x1: Int, y y1: Int, width: Int, height: Int
  ) -> Bool {
    let x0 = max(x1 - 1, 0)
    let y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1)
    let y2 = min(y1 + 1, height - 1)
    let value = image.load(fromByteOffset: (y1 * width + x1) * 4, as: UInt32.self)
    var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
    for x in x0...x2 {
      for y in y0...y2 {
        if x == x1 && y == y1 { continue }
        if image.load(fromByteOffset: (y * width + x) * 4, as: UInt32.self) == value {
          zeroes += 1
          if zeroes > 2 { return true }
        }
      }
    }
    return false
  }
}
