#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Vector tiles from an MBTiles file (SQLite holding gzip'd Mapbox Vector Tiles), read-only.
///
/// Opening checks everything that can be checked up front (the file, the SQLite header, the
/// `tiles` and `metadata` schema, `format` = pbf, the zoom range, that there are tiles) and
/// throws a `TileError` naming the file and the problem. Damage inside one tile surfaces when
/// that tile is read, as a `TileError` naming the file and the tile.
///
/// Threads: one SQLite connection, opened `SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX`, with
/// its prepared statement behind a `Mutex`. Only the blob lookup holds the lock (a few µs);
/// inflating and decoding run outside it, so worker threads decode in parallel.
///
/// Past the file's `maxZoom`, `tile(_:)` overzooms: it decodes the ancestor at `maxZoom` and
/// returns its features clipped to the requested tile and rescaled to its 0…extent grid.
public final class MBTilesSource: TileFile {
    /// The path the file was opened with.
    public let path: String
    public let metadata: MBTilesMetadata

    private let database: Mutex<TileQuery>
    /// Recently decoded `maxZoom` tiles, so the 4^d overzoomed children of one tile decode
    /// it once rather than 4^d times.
    private let ancestors = Mutex(RecentTiles(capacity: 16))

    public var name: String { path }
    public var minZoom: Int { metadata.minZoom }
    public var maxZoom: Int { metadata.maxZoom }
    public var attribution: String? { metadata.attribution }
    public var formatName: String { "MBTiles" }
    /// True when the file has no index for tile lookups, so each one scans the tiles table
    /// (still correct; slow on a large file). Checked once, when the file is opened.
    public let lookupsScanTable: Bool

    /// Opens `path`; throws a `TileError` when it is not a usable vector MBTiles file.
    public init(path: String) throws(TileError) {
        self.path = path
        try FileCheck.validate(path)
        let query = try TileQuery(path: path)
        metadata = try query.readMetadata()
        lookupsScanTable = query.lookupScansTable()
        database = Mutex(query)
    }

    public func tile(_ id: TileID) throws(TileError) -> VectorTile? {
        guard id.isValid else { return nil }
        return try overzoomedTile(id, maxZoom: maxZoom, ancestors: ancestors, decode: decodedTile)
    }

    /// The stored bytes of tile `id` exactly as in the file (usually gzip), nil if absent.
    public func rawTileData(_ id: TileID) throws(TileError) -> [UInt8]? {
        guard id.isValid else { return nil }
        let path = self.path
        return try database.withLock { query throws(TileError) -> [UInt8]? in
            do throws(SQLiteFailure) {
                return try query.blob(id)
            } catch {
                throw TileError(file: path, tile: id, kind: .corrupt(error.message))
            }
        }
    }

    /// The address of every tile stored in the file (XYZ rows), for tools and benchmarks.
    public func storedTileIDs() throws(TileError) -> [TileID] {
        let path = self.path
        return try database.withLock { query throws(TileError) -> [TileID] in
            do throws(SQLiteFailure) {
                return try query.allTileIDs()
            } catch {
                throw TileError(file: path, kind: .corrupt(error.message))
            }
        }
    }

    /// The area the stored tiles cover: the box around the tiles of the deepest zoom that
    /// spans at most 256 columns (a city: its maximum zoom). For files whose metadata has no
    /// `bounds`; nil for a file without tiles or when the file cannot be read.
    public func coveredBounds() -> MBTilesMetadata.Bounds? {
        let scans = lookupsScanTable
        var z = maxZoom
        while z >= minZoom {
            let found = try? database.withLock { query throws(SQLiteFailure) in try query.tileExtent(zoom: z, maxColumns: 256, scans: scans) }
            switch found {
            case nil:
                return nil
            case .tiles(let minX, let maxX, let minRow, let maxRow)?:
                let n = Double(Int64(1) << Int64(z))
                func lat(_ y: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * y / n))) * 180 / Double.pi }
                // TMS rows count from the south.
                let top = n - 1 - Double(maxRow), bottom = n - 1 - Double(minRow)
                return MBTilesMetadata.Bounds(west: Double(minX) / n * 360 - 180, south: lat(bottom + 1),
                                              east: Double(maxX + 1) / n * 360 - 180, north: lat(top))
            case .none?, .tooWide?:
                z -= 1
            }
        }
        return nil
    }

    /// Reads, inflates and decodes the stored tile `id`.
    private func decodedTile(_ id: TileID) throws(TileError) -> VectorTile? {
        guard let stored = try rawTileData(id) else { return nil }
        return try decodeStoredTile(stored, compression: .gzip, file: path, tile: id)
    }
}

/// Decompresses and decodes one stored tile, decoded where the decompressor wrote it (the
/// inflated bytes are never copied into an array). `.gzip` also takes zlib and raw protobuf.
func decodeStoredTile(_ stored: [UInt8], compression: TileCompression, file: String, tile id: TileID) throws(TileError) -> VectorTile {
    switch Decompression.withDecompressed(stored, compression, MVTDecoder.decodeResult) {
    case .success(.success(let tile)):
        return tile
    case .success(.failure(let error)):
        throw TileError(file: file, tile: id, kind: .damagedTile("\(error.message), at byte \(error.offset)"))
    case .failure(let failure):
        throw TileError(file: file, tile: id, kind: .damagedCompression(failure.message))
    }
}

/// Tile `id` from a file whose data ends at `maxZoom`: read as stored up to there, and past
/// it cut from the ancestor at `maxZoom` (kept in `ancestors`, so the 4^d children of one
/// tile decode it once rather than 4^d times).
func overzoomedTile(
    _ id: TileID, maxZoom: Int, ancestors: borrowing Mutex<RecentTiles>, decode: (TileID) throws(TileError) -> VectorTile?
) throws(TileError) -> VectorTile? {
    if id.z <= maxZoom { return try decode(id) }
    let ancestorID = id.ancestor(levelsUp: id.z - maxZoom)
    let ancestor: VectorTile
    if let cached = ancestors.withLock({ $0.tile(ancestorID) }) {
        ancestor = cached
    } else {
        guard let decoded = try decode(ancestorID) else { return nil }
        ancestors.withLock { $0.insert(decoded, for: ancestorID) }
        ancestor = decoded
    }
    return Overzoom.tile(ancestor, at: ancestorID, scaledTo: id)
}

/// A few decoded tiles, least recently used dropped first.
struct RecentTiles {
    let capacity: Int
    private var entries: [(id: TileID, tile: VectorTile)] = []

    init(capacity: Int) { self.capacity = capacity }

    mutating func tile(_ id: TileID) -> VectorTile? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.tile
    }

    mutating func insert(_ tile: VectorTile, for id: TileID) {
        entries.removeAll { $0.id == id }
        entries.append((id, tile))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }
}
