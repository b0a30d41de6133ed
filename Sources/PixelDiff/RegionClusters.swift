/// Groups changed pixels into a few rectangles: pixels are binned into 16×16 tiles, touching
/// tiles (8-connectivity) form one cluster, and each cluster reports the exact bounds of its
/// changed pixels; clusters whose rectangles overlap are merged.
final class RegionClusters {
  private static let tileShift = 4
  private static let fields = 5  // count, minX, minY, maxX, maxY
  private let tilesX: Int
  private let tilesY: Int
  private let tiles: UnsafeMutablePointer<Int32>

  /// Creates empty clusters for an image of the given size.
  init(width: Int, height: Int) {
    let side = 1 << Self.tileShift
    tilesX = (width + side - 1) >> Self.tileShift
    tilesY = (height + side - 1) >> Self.tileShift
    let count = max(tilesX * tilesY * Self.fields, 1)
    tiles = UnsafeMutablePointer<Int32>.allocate(capacity: count)
    tiles.initialize(repeating: 0, count: count)
  }

  deinit {
    tiles.deallocate()
  }

  /// Records one changed pixel.
  @inline(__always)
  func add(x: Int, y: Int) {
    let tile = tiles + ((y >> Self.tileShift) * tilesX + (x >> Self.tileShift)) * Self.fields
    let x32 = Int32(truncatingIfNeeded: x)
    let y32 = Int32(truncatingIfNeeded: y)
    if tile[0] == 0 {
      tile[1] = x32
      tile[2] = y32
      tile[3] = x32
      tile[4] = y32
    } else {
      if x32 < tile[1] { tile[1] = x32 }
      if y32 < tile[2] { tile[2] = y32 }
      if x32 > tile[3] { tile[3] = x32 }
      if y32 > tile[4] { tile[4] = y32 }
    }
    tile[0] &+= 1
  }

  /// The largest `limit` clusters by changed pixels, sorted top to bottom then left to right,
  /// and how many clusters were left out.
  func regions(limit: Int) -> (regions: [DiffRegion], omitted: Int) {
    var boxes: [Box] = []
    var visited = [Bool](repeating: false, count: tilesX * tilesY)
    var stack: [Int] = []
    for start in 0..<(tilesX * tilesY) where !visited[start] && tiles[start * Self.fields] > 0 {
      visited[start] = true
      stack.append(start)
      var box = Box()
      while let tile = stack.popLast() {
        box.absorb(tiles + tile * Self.fields)
        let tx = tile % tilesX
        let ty = tile / tilesX
        for ny in max(ty - 1, 0)...min(ty + 1, tilesY - 1) {
          for nx in max(tx - 1, 0)...min(tx + 1, tilesX - 1) {
            let neighbour = ny * tilesX + nx
            if !visited[neighbour] && tiles[neighbour * Self.fields] > 0 {
              visited[neighbour] = true
              stack.append(neighbour)
            }
          }
        }
      }
      boxes.append(box)
    }
    if boxes.count <= 256 { boxes = Self.mergeOverlapping(boxes) }
    boxes.sort { ($0.count, -$0.minY, -$0.minX) > ($1.count, -$1.minY, -$1.minX) }
    let kept = boxes.prefix(max(limit, 0)).sorted { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
    let regions = kept.map {
      DiffRegion(
        x: $0.minX, y: $0.minY, width: $0.maxX - $0.minX + 1, height: $0.maxY - $0.minY + 1,
        changedPixels: $0.count)
    }
    return (regions, boxes.count - kept.count)
  }

  private static func mergeOverlapping(_ input: [Box]) -> [Box] {
    var boxes = input
    var merged = true
    while merged {
      merged = false
      var i = 0
      while i < boxes.count {
        var j = i + 1
        while j < boxes.count {
          if boxes[i].overlaps(boxes[j]) {
            boxes[i].union(boxes[j])
            boxes.remove(at: j)
            merged = true
          } else {
            j += 1
          }
        }
        i += 1
      }
    }
    return boxes
  }

  private struct Box {
    var minX = Int.max
    var minY = Int.max
    var maxX = Int.min
    var maxY = Int.min
    var count = 0

    mutating func absorb(_ tile: UnsafeMutablePointer<Int32>) {
      count += Int(tile[0])
      minX = min(minX, Int(tile[1]))
      minY = min(minY, Int(tile[2]))
      maxX = max(maxX, Int(tile[3]))
      maxY = max(maxY, Int(tile[4]))
    }

    func overlaps(_ other: Box) -> Bool {
      minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    mutating func union(_ other: Box) {
      count += other.count
      minX = min(minX, other.minX)
      minY = min(minY, other.minY)
      maxX = max(maxX, other.maxX)
      maxY = max(maxY, other.maxY)
    }
  }
}
