/// The pieces of a deflate (RFC 1951) writer: match tokens, Huffman codes limited in length,
/// a bit writer, and one block per call, for ``PNGEncoder``.
///
/// Nothing here looks for matches: ``PNGEncoder`` hands over tokens (literal bytes and matches).
enum Deflate {
  /// The longest match deflate can say.
  static let maxMatch = 258
  /// The shortest match deflate can say.
  static let minMatch = 3
  /// The farthest a match can reach back.
  static let maxDistance = 32768
  /// The end-of-block symbol.
  static let endOfBlock = 256

  /// Literal/length symbol, extra bits and their value for each match length 0...258 (0–2 unused).
  static let lengthCodes: [(symbol: UInt16, extraBits: UInt8, extra: UInt16)] = {
    let bases = [
      3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
      131, 163, 195, 227, 258,
    ]
    let extras: [UInt8] = [
      0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    var table = [(symbol: UInt16, extraBits: UInt8, extra: UInt16)](
      repeating: (0, 0, 0), count: maxMatch + 1)
    for length in minMatch...maxMatch {
      // the last code whose base is not above the length (258 has a code of its own)
      var code = bases.count - 1
      while bases[code] > length { code -= 1 }
      table[length] = (UInt16(257 + code), extras[code], UInt16(length - bases[code]))
    }
    return table
  }()

  /// The distance symbol, its extra bits and their value for a distance 1...32768.
  static func distanceCode(_ distance: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
    precondition(distance >= 1 && distance <= maxDistance, "distance out of range")
    if distance <= 4 { return (distance - 1, 0, 0) }
    // distances 2^k + 1 ... 2^(k+1) take codes 2k and 2k + 1, with k - 1 extra bits
    let zeroBased = distance - 1
    let k = (Int.bitWidth - 1) - zeroBased.leadingZeroBitCount  // floor(log2(distance - 1))
    let extraBits = k - 1
    let half = (zeroBased >> extraBits) & 1
    return (2 * k + half, extraBits, zeroBased & ((1 << extraBits) - 1))
  }

  /// The order in which the code lengths of the code-length alphabet are written.
  static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}

/// A canonical Huffman code over an alphabet, no code longer than a limit.
struct HuffmanCode {
  /// The length in bits of each symbol's code; 0 for a symbol that never occurs.
  let lengths: [UInt8]
  /// Each symbol's code with its bits reversed, as deflate writes them (first bit lowest).
  let codes: [UInt16]

  /// The optimal code for `frequencies` with no code over `limit` bits (a plain Huffman code,
  /// whose overlong codes are then shortened by the usual exchange of code counts). Ties are
  /// broken by symbol number, so equal frequencies always give equal codes. At least two symbols
  /// must occur: a deflate code of one symbol is not complete.
  init(frequencies: [Int], limit: Int) {
    // by frequency, then symbol: one integer key each (alphabets have fewer than 512 symbols)
    let used = frequencies.indices.filter { frequencies[$0] > 0 }
      .map { frequencies[$0] << 9 | $0 }.sorted().map { $0 & 0x1FF }
    precondition(used.count >= 2, "a Huffman code needs two symbols")
    precondition(used.count <= 1 << limit, "too many symbols for the length limit")
    let leaves = used.count
    // two-queue construction: leaves sorted by weight, internal nodes made in weight order
    var weight = [Int](repeating: 0, count: 2 * leaves - 1)
    var parent = [Int](repeating: 0, count: 2 * leaves - 1)
    for (index, symbol) in used.enumerated() { weight[index] = frequencies[symbol] }
    var nextLeaf = 0
    var nextInternal = leaves
    func smallest(_ made: Int) -> Int {
      if nextLeaf < leaves, nextInternal >= made || weight[nextLeaf] <= weight[nextInternal] {
        nextLeaf += 1
        return nextLeaf - 1
      }
      nextInternal += 1
      return nextInternal - 1
    }
    for made in leaves..<(2 * leaves - 1) {
      let first = smallest(made)
      let second = smallest(made)
      weight[made] = weight[first] + weight[second]
      parent[first] = made
      parent[second] = made
    }
    var depth = [Int](repeating: 0, count: 2 * leaves - 1)
    for node in stride(from: 2 * leaves - 3, through: 0, by: -1) {
      depth[node] = depth[parent[node]] + 1
    }
    // how many codes of each length, the overlong ones folded into the limit and the counts
    // exchanged until the code is complete again (Kraft sum exactly 1)
    var count = [Int](repeating: 0, count: max(limit, depth.max() ?? 0) + 1)
    for leaf in 0..<leaves { count[depth[leaf]] += 1 }
    if count.count > limit + 1 {
      for length in (limit + 1)..<count.count {
        count[limit] += count[length]
        count[length] = 0
      }
      var total = 0
      for length in 1...limit { total += count[length] << (limit - length) }
      while total != 1 << limit {
        count[limit] -= 1
        for length in stride(from: limit - 1, through: 1, by: -1) where count[length] > 0 {
          count[length] -= 1
          count[length + 1] += 2
          break
        }
        total -= 1
      }
    }
    // the most frequent symbols take the shortest codes
    var lengths = [UInt8](repeating: 0, count: frequencies.count)
    var byFrequency = used.reversed().makeIterator()
    for length in 1...limit {
      for _ in 0..<count[length] {
        guard let symbol = byFrequency.next() else { break }
        lengths[symbol] = UInt8(length)
      }
    }
    self.init(lengths: lengths)
  }

  /// The canonical code (RFC 1951, 3.2.2) of the given code lengths.
  init(lengths: [UInt8]) {
    let longest = Int(lengths.max() ?? 0)
    var perLength = [Int](repeating: 0, count: longest + 2)
    for length in lengths where length > 0 { perLength[Int(length)] += 1 }
    var next = [Int](repeating: 0, count: longest + 2)
    var code = 0
    if longest > 0 {
      for bits in 1...longest {
        code = (code + perLength[bits - 1]) << 1
        next[bits] = code
      }
    }
    var codes = [UInt16](repeating: 0, count: lengths.count)
    for (symbol, length) in lengths.enumerated() where length > 0 {
      let value = next[Int(length)]
      next[Int(length)] += 1
      let reversed =
        Int(Self.reversedBytes[value & 0xFF]) << 8 | Int(Self.reversedBytes[value >> 8])
      codes[symbol] = UInt16(reversed >> (16 - Int(length)))
    }
    self.lengths = lengths
    self.codes = codes
  }

  /// Each byte with its bits in the opposite order.
  static let reversedBytes: [UInt8] = (0..<256).map { byte in
    var reversed = 0
    for bit in 0..<8 where byte & (1 << bit) != 0 { reversed |= 1 << (7 - bit) }
    return UInt8(reversed)
  }

  /// `frequencies` with the lowest-numbered unused symbols raised to 1 until at least two occur,
  /// so that the code built from them is complete.
  static func withTwoSymbols(_ frequencies: [Int]) -> [Int] {
    var result = frequencies
    var occurring = result.filter { $0 > 0 }.count
    var symbol = 0
    while occurring < 2, symbol < result.count {
      if result[symbol] == 0 {
        result[symbol] = 1
        occurring += 1
      }
      symbol += 1
    }
    return result
  }
}

/// Writes bits first-bit-lowest into memory the caller sized (``DeflateBlock/bitCount`` says how
/// much), four bytes at a time.
struct BitWriter {
  private let base: UnsafeMutablePointer<UInt8>
  /// Bytes written so far (whole bytes only; ``pendingBits`` more wait in the accumulator).
  private(set) var byteCount = 0
  private var accumulator: UInt64 = 0
  private var pending = 0
  private let capacity: Int

  /// Writes into `base`, which holds `capacity` bytes (at least 4 more than the output).
  init(into base: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  /// Bits written that do not yet fill a byte of memory.
  var pendingBits: Int { pending }

  /// Writes the low `count` bits of `value` (at most 32).
  @inline(__always)
  mutating func write(_ value: UInt32, bits count: Int) {
    accumulator |= UInt64(value) << UInt64(pending)
    pending += count
    if pending >= 32 {
      precondition(byteCount + 4 <= capacity, "deflate output larger than computed")
      UnsafeMutableRawPointer(base + byteCount).storeBytes(
        of: UInt32(truncatingIfNeeded: accumulator).littleEndian, as: UInt32.self)
      byteCount += 4
      accumulator >>= 32
      pending -= 32
    }
  }

  /// Counts `count` bytes the caller copied to the output itself; only on a byte boundary.
  mutating func skip(_ count: Int) {
    precondition(pending == 0, "bytes copied between bits")
    precondition(byteCount + count <= capacity, "deflate output larger than computed")
    byteCount += count
  }

  /// Pads with zero bits to a byte boundary and writes out everything pending.
  mutating func align() {
    while pending > 0 {
      precondition(byteCount < capacity, "deflate output larger than computed")
      base[byteCount] = UInt8(truncatingIfNeeded: accumulator)
      byteCount += 1
      accumulator >>= 8
      pending = max(0, pending - 8)
    }
    accumulator = 0
  }
}

/// One deflate block of tokens with its own Huffman codes (BTYPE 2), or the same bytes stored
/// (BTYPE 0) when coding would not make them smaller.
///
/// A token is a `UInt32`: below 256 a literal byte; otherwise bit 31 set, the distance 1...32768
/// in bits 9–24 and the length 3...258 in bits 0–8.
struct DeflateBlock {
  /// The flag bit of a match token.
  static let matchFlag: UInt32 = 1 << 31

  /// The match token of `length` bytes at `distance`.
  @inline(__always)
  static func matchToken(length: Int, distance: Int) -> UInt32 {
    matchFlag | UInt32(truncatingIfNeeded: distance) << 9 | UInt32(truncatingIfNeeded: length)
  }

  let literalLength: HuffmanCode
  let distance: HuffmanCode
  let codeLength: HuffmanCode
  /// The code lengths of both codes, run-length coded with symbols 0–18 (extra value in bits 8+).
  let codeLengthSymbols: [UInt16]
  let literalCount: Int
  let distanceCount: Int
  let codeLengthCount: Int
  /// The size of the coded block in bits, from its header to its end-of-block code.
  let bitCount: Int

  /// Chooses the codes for tokens whose symbols occurred `literalFrequencies` times (0...285, the
  /// end-of-block code not yet counted) and `distanceFrequencies` times (0...29); `extraBits` is
  /// the number of extra bits all the tokens' lengths and distances carry.
  init(literalFrequencies: [Int], distanceFrequencies: [Int], extraBits: Int) {
    var literals = literalFrequencies
    literals[Deflate.endOfBlock] += 1
    literalLength = HuffmanCode(frequencies: HuffmanCode.withTwoSymbols(literals), limit: 15)
    distance = HuffmanCode(
      frequencies: HuffmanCode.withTwoSymbols(distanceFrequencies), limit: 15)
    literalCount = max(257, (literalLength.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
    distanceCount = max(1, (distance.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
    let all = Array(literalLength.lengths[0..<literalCount] + distance.lengths[0..<distanceCount])
    codeLengthSymbols = Self.runLengths(all)
    var codeLengthFrequencies = [Int](repeating: 0, count: 19)
    for symbol in codeLengthSymbols { codeLengthFrequencies[Int(symbol & 0xFF)] += 1 }
    codeLength = HuffmanCode(
      frequencies: HuffmanCode.withTwoSymbols(codeLengthFrequencies), limit: 7)
    var trailing = 19
    while trailing > 4, codeLength.lengths[Deflate.codeLengthOrder[trailing - 1]] == 0 {
      trailing -= 1
    }
    codeLengthCount = trailing

    var bits = 3 + 5 + 5 + 4 + 3 * codeLengthCount
    for symbol in codeLengthSymbols {
      let code = Int(symbol & 0xFF)
      bits += Int(codeLength.lengths[code]) + Self.codeLengthExtraBits(code)
    }
    for (symbol, count) in literals.enumerated() where count > 0 {
      bits += count * Int(literalLength.lengths[symbol])
    }
    for (symbol, count) in distanceFrequencies.enumerated() where count > 0 {
      bits += count * Int(distance.lengths[symbol])
    }
    bits += extraBits
    bitCount = bits
  }

  /// Extra bits after a code-length symbol: 2 after 16, 3 after 17, 7 after 18.
  static func codeLengthExtraBits(_ symbol: Int) -> Int {
    switch symbol {
    case 16: 2
    case 17: 3
    case 18: 7
    default: 0
    }
  }

  /// Extra bits of the length symbols 257...285.
  static let lengthExtraBits = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]

  /// Code lengths as deflate's code-length symbols: 0–15 as they are, 16 repeats the previous
  /// length 3–6 times, 17 and 18 give 3–10 and 11–138 zeros; the repeat count sits in bits 8+.
  static func runLengths(_ lengths: [UInt8]) -> [UInt16] {
    var symbols: [UInt16] = []
    var index = 0
    while index < lengths.count {
      let length = lengths[index]
      var run = 1
      while index + run < lengths.count, lengths[index + run] == length { run += 1 }
      index += run
      if length == 0 {
        while run >= 11 {
          let part = min(run, 138)
          symbols.append(18 | UInt16(part - 11) << 8)
          run -= part
        }
        if run >= 3 {
          symbols.append(17 | UInt16(run - 3) << 8)
          run = 0
        }
      } else {
        symbols.append(UInt16(length))
        run -= 1
        while run >= 3 {
          let part = min(run, 6)
          symbols.append(16 | UInt16(part - 3) << 8)
          run -= part
        }
      }
      for _ in 0..<run { symbols.append(UInt16(length)) }
    }
    return symbols
  }

  /// Writes the block: header, codes, `tokens` and the end-of-block code.
  func write(tokens: UnsafeBufferPointer<UInt32>, final: Bool, to out: inout BitWriter) {
    out.write(final ? 1 : 0, bits: 1)
    out.write(2, bits: 2)
    out.write(UInt32(literalCount - 257), bits: 5)
    out.write(UInt32(distanceCount - 1), bits: 5)
    out.write(UInt32(codeLengthCount - 4), bits: 4)
    for position in 0..<codeLengthCount {
      out.write(UInt32(codeLength.lengths[Deflate.codeLengthOrder[position]]), bits: 3)
    }
    for symbol in codeLengthSymbols {
      let code = Int(symbol & 0xFF)
      out.write(UInt32(codeLength.codes[code]), bits: Int(codeLength.lengths[code]))
      out.write(UInt32(symbol >> 8), bits: Self.codeLengthExtraBits(code))
    }
    let literalCodes = literalLength.codes
    let literalLengths = literalLength.lengths
    // each match length's code and extra bits, written at once
    var lengthWords = [(word: UInt32, bits: Int)](repeating: (0, 0), count: Deflate.maxMatch + 1)
    for length in Deflate.minMatch...Deflate.maxMatch {
      let entry = Deflate.lengthCodes[length]
      let bits = Int(literalLengths[Int(entry.symbol)])
      lengthWords[length] = (
        UInt32(literalCodes[Int(entry.symbol)]) | UInt32(entry.extra) << UInt32(bits),
        bits + Int(entry.extraBits)
      )
    }
    let distanceCodes = distance.codes
    let distanceLengths = distance.lengths
    literalCodes.withUnsafeBufferPointer { codes in
      literalLengths.withUnsafeBufferPointer { lengths in
        lengthWords.withUnsafeBufferPointer { lengthTable in
          for token in tokens {
            if token & Self.matchFlag == 0 {
              let symbol = Int(token)
              out.write(UInt32(codes[symbol]), bits: Int(lengths[symbol]))
            } else {
              let length = lengthTable[Int(token & 0x1FF)]
              out.write(length.word, bits: length.bits)
              let code = Deflate.distanceCode(Int(token >> 9 & 0xFFFF))
              let bits = Int(distanceLengths[code.symbol])
              out.write(
                UInt32(distanceCodes[code.symbol]) | UInt32(code.extra) << UInt32(bits),
                bits: bits + code.extraBits)
            }
          }
        }
      }
    }
    out.write(
      UInt32(literalCodes[Deflate.endOfBlock]), bits: Int(literalLengths[Deflate.endOfBlock]))
  }

  /// Writes `bytes` as stored blocks of at most 65,535 bytes; the last is final when `final`.
  /// Starts and ends on a byte boundary.
  static func writeStored(
    _ bytes: UnsafeBufferPointer<UInt8>, final: Bool, to out: inout BitWriter,
    into base: UnsafeMutablePointer<UInt8>
  ) {
    var start = 0
    repeat {
      let length = min(65535, bytes.count - start)
      let last = start + length == bytes.count
      out.write(final && last ? 1 : 0, bits: 1)
      out.write(0, bits: 2)
      out.align()
      out.write(UInt32(length) | UInt32(~UInt16(length)) << 16, bits: 32)
      out.align()
      if length > 0, let source = bytes.baseAddress {
        (base + out.byteCount).update(from: source + start, count: length)
        out.skip(length)
      }
      start += length
    } while start < bytes.count
  }

  /// The bytes ``writeStored(_:final:to:into:)`` writes for `count` bytes.
  static func storedByteCount(_ count: Int) -> Int {
    max(1, (count + 65534) / 65535) * 5 + count
  }
}
