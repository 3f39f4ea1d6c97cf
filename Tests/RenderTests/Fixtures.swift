#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Tiles
@testable import Render

/// Synthetic vector tiles built in the tests, so each test states exactly what is on the map.
enum Fixture {
    static let extent: Int32 = 4096

    /// A polygon covering the rectangle (tile units, 0…4096).
    static func rect(_ x0: Int32, _ y0: Int32, _ x1: Int32, _ y1: Int32, props: [String: PropertyValue] = [:]) -> VectorFeature {
        VectorFeature(type: .polygon, parts: [[TilePoint(x: x0, y: y0), TilePoint(x: x1, y: y0), TilePoint(x: x1, y: y1),
                                               TilePoint(x: x0, y: y1), TilePoint(x: x0, y: y0)]], properties: props)
    }

    static func line(_ points: [(Int32, Int32)], props: [String: PropertyValue] = [:]) -> VectorFeature {
        VectorFeature(type: .lineString, parts: [points.map { TilePoint(x: $0.0, y: $0.1) }], properties: props)
    }

    static func layer(_ name: String, _ features: [VectorFeature]) -> VectorLayer {
        VectorLayer(name: name, extent: UInt32(extent), features: features)
    }

    /// Land on the left half (west), sea on the right.
    static let halfLand = VectorTile(layers: [layer("land", [rect(0, 0, 2048, 4096)])])
}

/// A source that returns the same tile for every address, or per-address tiles, and records
/// what it was asked for. Optionally holds every call at a gate until the test opens it.
final class FixtureSource: VectorTileSource, DescribesLayers, Sendable {
    let name = "fixture"
    let minZoom: Int
    let maxZoom: Int
    private let tiles: [TileID: VectorTile]
    private let fallback: VectorTile?
    private let failing: Bool
    private let failingZooms: Set<Int>
    private let failingTiles: Set<TileID>
    private let log = Mutex<[TileID]>([])
    private let gate: DispatchSemaphore?
    private let gatedZoom: Int?

    init(every tile: VectorTile? = nil, tiles: [TileID: VectorTile] = [:], minZoom: Int = 0, maxZoom: Int = 20,
         failing: Bool = false, failingZooms: Set<Int> = [], failingTiles: Set<TileID> = [], gated: Bool = false,
         gatedZoom: Int? = nil) {
        self.failingZooms = failingZooms
        self.failingTiles = failingTiles
        fallback = tile
        self.tiles = tiles
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.failing = failing
        gate = gated || gatedZoom != nil ? DispatchSemaphore(value: 0) : nil
        self.gatedZoom = gatedZoom
    }

    struct Damaged: Error, CustomStringConvertible { var description: String { "damaged tile data" } }

    func tile(_ id: TileID) throws -> VectorTile? {
        log.withLock { $0.append(id) }
        if gatedZoom == nil || gatedZoom == id.z { gate?.wait() }
        if failing || failingZooms.contains(id.z) || failingTiles.contains(id) { throw Damaged() }
        return tiles[id] ?? fallback
    }

    /// The layers of its tiles, read without the gate or the request log.
    var layerNames: [String] {
        var names: [String] = []
        for t in [fallback].compactMap({ $0 }) + tiles.values.sorted(by: { "\($0.layers.map(\.name))" < "\($1.layers.map(\.name))" }) {
            for l in t.layers where !names.contains(l.name) { names.append(l.name) }
        }
        return names
    }

    /// Lets `count` held calls through.
    func open(_ count: Int) { for _ in 0..<count { gate?.signal() } }

    var requested: [TileID] { log.withLock { $0 } }
}

/// Waits (the test's thread, never the UI's) until `condition` holds, giving up after about
/// 20 s so a broken cache fails the test instead of hanging it.
func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<4000 {
        if condition() { return true }
        usleep(5000)
    }
    return condition()
}
