import Foundation
import SafeInput

/// A small deterministic random generator (SplitMix64): the same seed gives the same mutations.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Fuzzing settings: `OUDS_FUZZ_ITERATIONS` (per target; the suite's default is small and
/// `scripts/fuzz [iterations]` raises it) and `OUDS_FUZZ_SEED`.
enum FuzzSettings {
  static func iterations(default fallback: Int) -> Int {
    ProcessInfo.processInfo.environment["OUDS_FUZZ_ITERATIONS"].flatMap(DecimalNumber.integer).map {
      max(1, $0)
    }
      ?? fallback
  }

  static var seed: UInt64 {
    ProcessInfo.processInfo.environment["OUDS_FUZZ_SEED"].flatMap(DecimalNumber.integer).map {
      UInt64(max(0, $0))
    }
      ?? 0x0DD5_F022
  }
}

/// Mutates valid inputs into hostile ones: byte flips, truncations, insertions of structural and
/// control bytes, deep nesting, huge numbers, long strings and tricky Unicode.
struct Mutator {
  var generator: SeededGenerator

  init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

  private static let interestingBytes: [UInt8] = [
    0x00, 0x07, 0x0A, 0x0D, 0x1B, 0x22, 0x2C, 0x3A, 0x5B, 0x5C, 0x5D, 0x7B, 0x7D, 0x7F, 0x80, 0xC0,
    0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFE, 0xFF, 0x2A, 0x5F, 0x60, 0x3C, 0x3E, 0x23, 0x26,
  ]

  private static let snippets: [String] = [
    "1e999999", "-1e-999999", "123456789012345678901234567890", "-0", "0.0000000000000000001",
    "NaN",
    "Infinity", "\\u0000", "\\u001b[31m", "\\ud800", "\\udc00\\ud800", "\\uZZZZ", "\u{202E}",
    "\u{2028}",
    "\u{1F600}", "e\u{301}\u{301}\u{301}", "\u{FEFF}", "\u{85}", "\"\"", "{}", "[]", "null", "true",
    "**", "*", "[", "](", "<http://x>", "`", "<b>", "&amp;", "\\\\", "\n", "\r\n", "\t",
    "\"items\": [", "\"label\": 1", "\"markdown\": \"", "{\"$ref\": \"#\"}", "{\"$value\": ",
    "\"{a.b}\"", "\"{}\"", "\"$type\": \"color\"", "\"$value\": \"#ZZZZZZ\"",
  ]

  mutating func int(_ upperBound: Int) -> Int {
    upperBound <= 0 ? 0 : Int.random(in: 0..<upperBound, using: &generator)
  }

  /// One to four mutations of `input`.
  mutating func mutate(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    for _ in 0..<(1 + int(4)) { bytes = mutateOnce(bytes) }
    return bytes
  }

  private mutating func mutateOnce(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    let position = int(bytes.count + 1)
    switch int(12) {
    case 0:  // flip a bit
      if !bytes.isEmpty { bytes[int(bytes.count)] ^= UInt8(1 << int(8)) }
    case 1:  // set an interesting byte
      if !bytes.isEmpty {
        bytes[int(bytes.count)] = Self.interestingBytes[int(Self.interestingBytes.count)]
      }
    case 2:  // insert an interesting byte
      bytes.insert(Self.interestingBytes[int(Self.interestingBytes.count)], at: position)
    case 3:  // truncate
      bytes = Array(bytes.prefix(position))
    case 4:  // delete a range
      let end = min(bytes.count, position + 1 + int(32))
      if position < end { bytes.removeSubrange(position..<end) }
    case 5:  // duplicate a range
      let end = min(bytes.count, position + 1 + int(64))
      if position < end { bytes.insert(contentsOf: bytes[position..<end], at: position) }
    case 6:  // insert a snippet
      bytes.insert(contentsOf: Array(Self.snippets[int(Self.snippets.count)].utf8), at: position)
    case 7:  // deep nesting
      let depth = [3, 100, 511, 513, 5000][int(5)]
      let open = int(2) == 0 ? "[" : "{\"a\":"
      bytes.insert(contentsOf: Array(String(repeating: open, count: depth).utf8), at: position)
    case 8:  // a long run of one character (long values, long keys, long words)
      let scalar = ["a", "\u{1B}", "\u{5D0}", "\u{1F600}", " ", "\\n", "*", "["][int(8)]
      bytes.insert(
        contentsOf: Array(String(repeating: scalar, count: [100, 5000, 70000][int(3)]).utf8),
        at: position)
    case 9:  // swap two bytes
      if bytes.count > 1 { bytes.swapAt(int(bytes.count), int(bytes.count)) }
    case 10:  // replace a number with a huge or tiny one
      if let digit = bytes.indices.dropFirst(position % max(1, bytes.count)).first(where: {
        (48...57).contains(bytes[$0])
      }) {
        bytes.replaceSubrange(
          digit...digit, with: Array(["1e308", "9e999", "0.5", "-3", "100000000000"][int(5)].utf8))
      }
    default:  // insert random bytes
      for _ in 0..<(1 + int(8)) {
        bytes.insert(UInt8.random(in: 0...255, using: &generator), at: min(position, bytes.count))
      }
    }
    return bytes
  }
}

/// Checks the one-line error property: no line break or other control character, a bounded
/// length, and the file or path it must name.
func problemsWith(message: String, mustName name: String) -> [String] {
  var problems: [String] = []
  if message.unicodeScalars.contains(where: MessageText.needsEscape) {
    problems.append("a control character in the message")
  }
  if message.unicodeScalars.count > 2_000 {
    problems.append("a message of \(message.unicodeScalars.count) characters")
  }
  if !message.contains(name) { problems.append("the message does not name \(name)") }
  return problems
}

/// Keeps the input being tried in `.build/fuzz/<target>.last`, so that the input of a crash
/// (which ends the process before any report) can be replayed; removed when the target finishes.
struct LastInput {
  let url: URL

  init(target: String, root: URL) {
    let folder = root.appendingPathComponent(".build/fuzz")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    url = folder.appendingPathComponent("\(target).last")
  }

  func keep(_ bytes: [UInt8]) { try? Data(bytes).write(to: url) }

  func finish() { try? FileManager.default.removeItem(at: url) }
}
