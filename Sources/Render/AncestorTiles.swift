import Synchronization
import Tiles

/// The shared background-only tiles, by side in pixels and colour.
final class BlankTiles: Sendable {
    struct Key: Hashable {
        var size: Int
        var color: UInt32
    }
    let images = Mutex<[Key: RasterImage]>([:])
}

/// A decoded tile with the bounding box of every feature, so each of the many tiles drawn
/// from one ancestor (64 at three levels of overzoom) picks its few features at once instead
/// of every drawing pass testing every feature again.
struct IndexedTile: Sendable {
    struct Box: Sendable {
        var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    }
    let tile: VectorTile
    /// Per layer (same order as `tile.layers`), per feature.
    let boxes: [[Box]]

    init(_ tile: VectorTile) {
        self.tile = tile
        boxes = tile.layers.map { layer in
            layer.features.map { f in
                var b = Box(minX: .max, minY: .max, maxX: .min, maxY: .min)
                for part in f.parts {
                    for p in part {
                        b.minX = min(b.minX, p.x); b.maxX = max(b.maxX, p.x)
                        b.minY = min(b.minY, p.y); b.maxY = max(b.maxY, p.y)
                    }
                }
                return b
            }
        }
    }

    /// The features that reach `tile` (a descendant of `ancestor`, this tile's address), with
    /// `margin` as a fraction of the descendant's side.
    func features(near tile: TileID, in ancestor: TileID, margin: Double) -> VectorTile {
        let dz = tile.z - ancestor.z
        let f = Double(1 << dz)
        let column = Double(tile.x - (ancestor.x << dz)), row = Double(tile.y - (ancestor.y << dz))
        var layers: [VectorLayer] = []
        layers.reserveCapacity(tile.z > 0 ? self.tile.layers.count : 0)
        for (layer, boxes) in zip(self.tile.layers, boxes) {
            let side = Double(layer.extent) / f
            let x0 = Int32(clamping: Int(((column - margin) * side).rounded(.down))), x1 = Int32(clamping: Int(((column + 1 + margin) * side).rounded(.up)))
            let y0 = Int32(clamping: Int(((row - margin) * side).rounded(.down))), y1 = Int32(clamping: Int(((row + 1 + margin) * side).rounded(.up)))
            var kept: [VectorFeature] = []
            for (feature, b) in zip(layer.features, boxes) where b.maxX >= x0 && b.minX <= x1 && b.maxY >= y0 && b.minY <= y1 {
                kept.append(feature)
            }
            if !kept.isEmpty { layers.append(VectorLayer(name: layer.name, extent: layer.extent, features: kept)) }
        }
        return VectorTile(layers: layers)
    }
}

/// A few recently decoded tiles, shared between worker threads.
final class DecodedTiles: Sendable {
    private struct Key: Hashable {
        var source: Int
        var tile: TileID
    }
    private let entries = Mutex<(tiles: [Key: IndexedTile], order: [Key])>(([:], []))
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func tile(source: Int, _ id: TileID) -> IndexedTile? {
        entries.withLock { $0.tiles[Key(source: source, tile: id)] }
    }

    func insert(_ tile: IndexedTile, source: Int, _ id: TileID) {
        let key = Key(source: source, tile: id)
        entries.withLock { e in
            guard e.tiles[key] == nil else { return }
            e.tiles[key] = tile
            e.order.append(key)
            if e.order.count > capacity { e.tiles[e.order.removeFirst()] = nil }
        }
    }
}
