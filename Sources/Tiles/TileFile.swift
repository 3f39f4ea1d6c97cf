import Geo

/// A tile file on disk, MBTiles or PMTiles: a `VectorTileSource` that also says what the
/// file describes about itself. This is what `--data` opens and what a style matches its
/// sources against (by `metadata.vectorLayerIDs`, else `layerNames()`).
public protocol TileFile: VectorTileSource {
    /// The path the file was opened with.
    var path: String { get }
    /// Name, zooms, bounds, centre, attribution, `vector_layers` ids and every raw key.
    var metadata: MBTilesMetadata { get }
    /// "MBTiles" or "PMTiles", for messages.
    var formatName: String { get }
    /// The stored bytes of tile `id` as in the file (usually compressed), nil if absent.
    func rawTileData(_ id: TileID) throws(TileError) -> [UInt8]?
    /// Every stored tile's address. A scan of the whole file: for tools and benchmarks.
    func storedTileIDs() throws(TileError) -> [TileID]
}

extension TileFile {
    /// The layers the file holds: its `vector_layers` ids, or, when the metadata lists none,
    /// the layer names of its shallowest tile over the metadata's centre (one tile read).
    public func layerNames() -> [String] {
        if !metadata.vectorLayerIDs.isEmpty { return metadata.vectorLayerIDs }
        let z = minZoom
        let center = Coordinate(latitude: metadata.center?.latitude ?? 0, longitude: metadata.center?.longitude ?? 0)
        // World coordinates span one 256-px tile at zoom 0.
        let world = WebMercator.world(center)
        let n = Double(1 << z) / WebMercator.tileSize
        let x = Int(world.x * n), y = Int(world.y * n)
        let id = TileID(z: z, x: min(max(x, 0), (1 << z) - 1), y: min(max(y, 0), (1 << z) - 1))
        var names: [String] = []
        for layer in (try? tile(id))??.layers ?? [] where !names.contains(layer.name) { names.append(layer.name) }
        return names
    }
}

/// Opening tile files by what they are, not what they are called.
public enum TileFiles {
    /// Opens `path` as MBTiles or PMTiles by its first bytes (magic `SQLite format 3` or
    /// `PMTiles`); throws a `TileError` naming the file when it is neither or is damaged.
    public static func open(_ path: String) throws(TileError) -> any TileFile {
        switch try FileCheck.format(path) {
        case .mbtiles: return try MBTilesSource(path: path)
        case .pmtiles: return try PMTilesSource(path: path)
        case .unknown: throw TileError(file: path, kind: .unknownFormat)
        }
    }
}
