#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON form of scenes, as printed by `ouds-render layout` and stored next to references.
public enum SceneJSON {
  /// Encodes a value as pretty-printed JSON with sorted keys and 2-decimal numbers.
  public static func encode<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(value)
    return String(decoding: data, as: UTF8.self)
  }
}
