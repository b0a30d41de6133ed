#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON form of scenes, as printed by `ouds-render layout` and stored next to references.
public enum SceneJSON {
  /// How many rows are encoded at a time by ``write(_:asArray:to:)``: Foundation's encoder
  /// holds a tree of every value it encodes (about 5 KB a row), so a scene is encoded a batch of
  /// rows at a time and only one batch's tree is alive.
  static let rowsPerBatch = 512

  /// Encodes a value as pretty-printed JSON with sorted keys and 2-decimal numbers.
  public static func encode<Value: Encodable>(_ value: Value) throws -> String {
    String(decoding: try encoder().encode(value), as: UTF8.self)
  }

  /// Encodes a scene as ``encode(_:)-generic`` does, a batch of rows at a time.
  public static func encode(_ scene: Scene) throws -> String {
    try encodeInBatches([scene], asArray: false)
  }

  /// Encodes scenes as a JSON array, as ``encode(_:)-generic`` does, a batch of rows at a time.
  public static func encode(_ scenes: [Scene]) throws -> String {
    try encodeInBatches(scenes, asArray: true)
  }

  private static func encodeInBatches(_ scenes: [Scene], asArray: Bool) throws -> String {
    var bytes: [UInt8] = []
    if asArray {
      try write(scenes) { bytes += $0 }
    } else {
      for scene in scenes { try write(scene) { bytes += $0 } }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Writes `scene` as the bytes of ``encode(_:)-generic``, handing them to `sink` in pieces:
  /// the rows a batch at a time (``rowsPerBatch``), so that memory holds the scene, one batch's
  /// encoding and what `sink` keeps, not a tree of every value.
  /// - Throws: what Foundation's encoder throws (a number that is not finite), or `sink`.
  public static func write(_ scene: Scene, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
    try write(scene, indent: 0, to: sink)
  }

  /// Writes `scenes` as a JSON array, the bytes of ``encode(_:)-generic``, in pieces as
  /// ``write(_:to:)-(Scene,_)`` does.
  /// - Throws: what Foundation's encoder throws (a number that is not finite), or `sink`.
  public static func write(_ scenes: [Scene], to sink: (ArraySlice<UInt8>) throws -> Void) throws {
    guard !scenes.isEmpty else { return try sink(Array("[\n\n]".utf8)[...]) }
    try sink(Array("[\n  ".utf8)[...])
    for (index, scene) in scenes.enumerated() {
      if index > 0 { try sink(Array(",\n  ".utf8)[...]) }
      try write(scene, indent: 2, to: sink)
    }
    try sink(Array("\n]".utf8)[...])
  }

  /// Writes one scene whose first line is already indented by `indent` spaces.
  private static func write(
    _ scene: Scene, indent: Int, to sink: (ArraySlice<UInt8>) throws -> Void
  ) throws {
    let encoder = encoder()
    var shell = scene
    shell.rows = []
    let shellBytes = Array(try encoder.encode(shell))
    // The empty rows of the shell, as the encoder writes an empty array at the first level.
    let emptyRows = Array("\n  \"rows\" : [\n\n  ]".utf8)
    guard !scene.rows.isEmpty, let at = find(emptyRows, in: shellBytes) else {
      return try sink(indented(shellBytes[...], by: indent)[...])
    }
    let opening = at + emptyRows.count - 5  // up to and including the "["
    try sink(indented(shellBytes[..<opening], by: indent)[...])
    var start = 0
    while start < scene.rows.count {
      let end = min(scene.rows.count, start + rowsPerBatch)
      // "[\n  {…},\n  {…}\n]": the rows without the brackets, each line two deeper
      let batch = Array(try encoder.encode(Array(scene.rows[start..<end])))
      if start > 0 { try sink(Array(",".utf8)[...]) }
      try sink(indented(batch[1..<(batch.count - 2)], by: indent + 2)[...])
      start = end
    }
    try sink(indented(shellBytes[(opening + 1)...], by: indent)[...])
  }

  private static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// `bytes` with `spaces` more spaces after every line break (a JSON text holds line breaks
  /// only between values: inside a string they are escaped).
  private static func indented(_ bytes: ArraySlice<UInt8>, by spaces: Int) -> [UInt8] {
    guard spaces > 0 else { return Array(bytes) }
    let margin = [UInt8](repeating: UInt8(ascii: " "), count: spaces)
    var out: [UInt8] = []
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var breaks = 0
      for index in 0..<buffer.count where base[index] == UInt8(ascii: "\n") { breaks += 1 }
      // no slack: a caller may keep the pieces until the whole text is written
      out.reserveCapacity(buffer.count + breaks * spaces)
      var start = 0
      var index = 0
      while index < buffer.count {
        // the encoder leaves the blank line of an empty array blank
        if base[index] == UInt8(ascii: "\n"),
          index + 1 == buffer.count || base[index + 1] != UInt8(ascii: "\n")
        {
          out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index + 1 - start))
          out.append(contentsOf: margin)
          start = index + 1
        }
        index += 1
      }
      out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: buffer.count - start))
    }
    return out
  }

  /// The first index of `word` in `bytes`, or nil.
  private static func find(_ word: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= word.count else { return nil }
    for index in 0...(bytes.count - word.count)
    where bytes[index] == word[0] && bytes[index..<(index + word.count)].elementsEqual(word) {
      return index
    }
    return nil
  }
}
