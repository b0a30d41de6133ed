import Foundation
import Primitives
import StrictJSON
import Testing

@testable import BulletList

/// The published JSON Schema and the reader must accept the same keys.
@Suite("JSON Schema of the list format")
struct SchemaTests {
  let schemaURL = Fixture.repositoryRoot.appendingPathComponent("Snapshots/bullet-list.schema.json")

  func keys(_ value: JSONValue?) -> [String] {
    (value?["properties"]?.members ?? []).map(\.key).sorted()
  }

  /// The allowed keys as the reader lists them in its "unknown key" error.
  func readerKeys(_ json: String) throws -> [String] {
    do {
      _ = try ListReader().read(json: json, baseDirectory: "/tmp")
      return []
    } catch {
      let message = error.message
      guard let start = message.range(of: "(allowed: "), let end = message.lastIndex(of: ")") else {
        return []
      }
      return message[start.upperBound..<end].components(separatedBy: ", ").sorted()
    }
  }

  @Test("top-level and item keys agree with the reader; the third level has no sub-list")
  func keysAgree() throws {
    let schema = try JSONParser.parse(String(contentsOf: schemaURL, encoding: .utf8))
    #expect(keys(schema) == (try readerKeys(#"{"nope": 1, "items": []}"#)))
    let definitions = schema["$defs"]
    let itemKeys = try readerKeys(#"{"items": [{"nope": 1}]}"#)
    #expect(keys(definitions?["item0"]) == itemKeys)
    #expect(keys(definitions?["item1"]) == itemKeys)
    #expect(keys(definitions?["item2"]) == itemKeys.filter { $0 != "items" })
    #expect(definitions?["items0"]?["items"]?["$ref"] == .string("#/$defs/item0"))
  }

  @Test("the platform values agree with the reader")
  func platformValues() throws {
    let schema = try JSONParser.parse(String(contentsOf: schemaURL, encoding: .utf8))
    guard case .array(let values)? = schema["properties"]?["platform"]?["enum"] else {
      Issue.record("the schema has no platform enum")
      return
    }
    let names = values.compactMap { value -> String? in
      if case .string(let name) = value { return name }
      return nil
    }
    #expect(names == OUDSBulletList.Platform.allCases.map(\.rawValue))
    for name in names {
      let document = try ListReader().read(
        json: #"{"platform": "\#(name)", "items": [{"label": "A"}]}"#, baseDirectory: "/tmp")
      #expect(document.platform?.rawValue == name)
    }
  }
}
