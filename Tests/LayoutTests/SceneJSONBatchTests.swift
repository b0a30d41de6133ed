import BulletList
import Foundation
import Layout
import Scene
import Testing

@Suite("Scene JSON written a batch of rows at a time")
struct SceneJSONBatchTests {
  private func foundationJSON<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test("1,200 rows in pieces give the bytes of encoding the whole scene at once")
  func sameBytes() throws {
    var scene = try layout(threeLevelList(.ordered, .bodyLarge), .orange)
    let rows = scene.rows
    scene.rows = (0..<1_200).map { rows[$0 % rows.count] }
    var pieces = 0
    var bytes: [UInt8] = []
    try SceneJSON.write(scene) {
      pieces += 1
      bytes += $0
    }
    #expect(pieces >= 4)  // the head, three batches of rows, the tail
    #expect(String(decoding: bytes, as: UTF8.self) == (try foundationJSON(scene)))
    #expect(try SceneJSON.encode(scene) == (try foundationJSON(scene)))
    var empty = scene
    empty.rows = []
    let scenes = [scene, empty, scene]
    #expect(try SceneJSON.encode(scenes) == (try foundationJSON(scenes)))
    #expect(try SceneJSON.encode([Scene]()) == (try foundationJSON([Scene]())))
  }
}
