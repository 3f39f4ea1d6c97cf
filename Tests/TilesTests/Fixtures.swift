import CSQLite
import Foundation
import Tiles

/// A directory of its own for one test, removed when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "meridian-tiles-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
}

/// Writes MBTiles files with known content, the way GDAL and tilemaker lay them out: a
/// `metadata` table, a `tiles` table with TMS rows, a unique index.
enum FixtureMBTiles {
    static let standardSchema = """
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        """

    static func write(
        _ path: String, metadata: [String: String], tiles: [(TileID, [UInt8])], schema: String = standardSchema
    ) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw FixtureError(description: "cannot create \(path)")
        }
        defer { sqlite3_close_v2(db) }
        try exec(db, schema + "BEGIN;")
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            try exec(db, "INSERT INTO metadata VALUES (\(quote(key)), \(quote(value)));")
        }
        var insert: OpaquePointer?
        if !tiles.isEmpty {
            guard sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?, ?, ?, ?)", -1, &insert, nil) == SQLITE_OK else {
                throw FixtureError(description: String(cString: sqlite3_errmsg(db)))
            }
        }
        defer { sqlite3_finalize(insert) }
        for (id, data) in tiles {
            sqlite3_reset(insert)
            sqlite3_bind_int64(insert, 1, Int64(id.z))
            sqlite3_bind_int64(insert, 2, Int64(id.x))
            sqlite3_bind_int64(insert, 3, Int64(id.tmsRow))
            let code = data.withUnsafeBytes { raw -> Int32 in
                // SQLITE_STATIC (nil): the bytes stay alive until the step below returns.
                sqlite3_bind_blob(insert, 4, raw.baseAddress, Int32(raw.count), nil)
                return sqlite3_step(insert)
            }
            guard code == SQLITE_DONE else { throw FixtureError(description: String(cString: sqlite3_errmsg(db))) }
        }
        try exec(db, "COMMIT;")
    }

    /// Runs `sql` on a new or existing database file.
    static func execute(_ path: String, _ sql: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw FixtureError(description: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        try exec(db, sql)
    }

    /// Stores `data` as tile `id` of an existing file (a damaged copy of a real file).
    static func replaceTile(_ path: String, _ id: TileID, with data: [UInt8]) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
            throw FixtureError(description: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        var update: OpaquePointer?
        let sql = "UPDATE tiles SET tile_data = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
        guard sqlite3_prepare_v2(db, sql, -1, &update, nil) == SQLITE_OK else {
            throw FixtureError(description: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(update) }
        sqlite3_bind_int64(update, 2, Int64(id.z))
        sqlite3_bind_int64(update, 3, Int64(id.x))
        sqlite3_bind_int64(update, 4, Int64(id.tmsRow))
        let code = data.withUnsafeBytes { raw -> Int32 in
            sqlite3_bind_blob(update, 1, raw.baseAddress, Int32(raw.count), nil)
            return sqlite3_step(update)
        }
        guard code == SQLITE_DONE, sqlite3_changes(db) == 1 else {
            throw FixtureError(description: "tile \(id) not replaced in \(path)")
        }
    }

    private static func exec(_ db: OpaquePointer, _ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw FixtureError(description: text)
        }
    }

    private static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
}

/// The known content the decoding tests check against.
enum KnownTiles {
    static func p(_ x: Int32, _ y: Int32) -> TilePoint { TilePoint(x: x, y: y) }

    /// 0/0/0: a country with a hole, a coastline of two lines, two places in one point group.
    static let world = VectorTile(layers: [
        VectorLayer(name: "countries", extent: 4096, features: [
            VectorFeature(id: 1, type: .polygon, parts: [
                [p(1000, 1000), p(3000, 1000), p(3000, 3000), p(1000, 3000)],
                [p(1500, 1500), p(1500, 2500), p(2500, 2500), p(2500, 1500)],
            ], properties: [
                "name": .string("Testland"), "population": .int(1234), "area": .double(1.5),
                "coastal": .bool(true), "code": .int(-7),
            ]),
            VectorFeature(id: 2, type: .polygon, parts: [[p(3500, 100), p(3900, 100), p(3900, 400)]],
                          properties: ["name": .string("Islet")]),
        ]),
        VectorLayer(name: "coastline", extent: 4096, features: [
            VectorFeature(type: .lineString, parts: [[p(0, 2048), p(2048, 2000), p(4096, 2048)], [p(10, 10), p(-20, 4200)]]),
        ]),
        VectorLayer(name: "places", extent: 512, features: [
            VectorFeature(id: 9, type: .point, parts: [[p(100, 200), p(300, 400)]], properties: ["name": .string("Twin Towns")]),
        ]),
    ])

    /// 2/1/1: shapes with easily computed overzoomed children.
    static let overzoomParent = VectorTile(layers: [
        VectorLayer(name: "shapes", extent: 4096, features: [
            VectorFeature(id: 1, type: .polygon, parts: [[p(1024, 1024), p(3072, 1024), p(3072, 3072), p(1024, 3072)]]),
            VectorFeature(id: 2, type: .lineString, parts: [[p(0, 0), p(4096, 4096)]]),
            VectorFeature(id: 3, type: .point, parts: [[p(1500, 1600), p(100, 100)]]),
        ]),
    ])

    /// A marker tile naming its own address, to prove the TMS row flip.
    static func marker(_ id: TileID) -> VectorTile {
        VectorTile(layers: [VectorLayer(name: "marker", extent: 4096, features: [
            VectorFeature(type: .point, parts: [[p(2048, 2048)]], properties: ["tile": .string(id.description)]),
        ])])
    }

    static let worldMetadata = [
        "name": "Fixture world", "format": "pbf", "minzoom": "0", "maxzoom": "2",
        "bounds": "-180,-85.0511,180,85.0511",
        "attribution": "<a href=\"https://www.naturalearthdata.com/\">Made with Natural Earth</a>",
    ]

    /// The world fixture's tiles: 0/0/0, every z1 tile as a marker, 2/1/1 and a z2 marker.
    static func worldTiles(_ wrapper: Compression.Wrapper? = .gzip) -> [(TileID, [UInt8])] {
        func stored(_ tile: VectorTile) -> [UInt8] {
            let bytes = MVTEncoder.encode(tile)
            return wrapper.map { Compression.compress(bytes, as: $0) } ?? bytes
        }
        var tiles: [(TileID, [UInt8])] = [(TileID(z: 0, x: 0, y: 0), stored(world))]
        for x in 0..<2 { for y in 0..<2 { tiles.append((TileID(z: 1, x: x, y: y), stored(marker(TileID(z: 1, x: x, y: y))))) } }
        tiles.append((TileID(z: 2, x: 1, y: 1), stored(overzoomParent)))
        tiles.append((TileID(z: 2, x: 3, y: 0), stored(marker(TileID(z: 2, x: 3, y: 0)))))
        return tiles
    }

    /// Writes the world fixture into `directory` and returns its path.
    static func writeWorld(in directory: TemporaryDirectory, name: String = "world.mbtiles",
                           wrapper: Compression.Wrapper? = .gzip) throws -> String {
        let path = directory.file(name)
        try FixtureMBTiles.write(path, metadata: worldMetadata, tiles: worldTiles(wrapper))
        return path
    }

    /// A "city" at z3…4 over tile `at` (a z3 tile) and its first child, with buildings and
    /// the OSM credit.
    static func writeCity(in directory: TemporaryDirectory, at tile: TileID = TileID(z: 3, x: 4, y: 2)) throws -> String {
        let path = directory.file("city.mbtiles")
        let building = VectorTile(layers: [VectorLayer(name: "building", extent: 4096, features: [
            VectorFeature(id: 77, type: .polygon, parts: [[p(100, 100), p(200, 100), p(200, 200), p(100, 200)]]),
        ])])
        let bytes = Compression.compress(MVTEncoder.encode(building), as: .gzip)
        try FixtureMBTiles.write(path, metadata: [
            "name": "Fixture city", "format": "pbf", "minzoom": "3", "maxzoom": "4",
            "attribution": "&copy; OpenStreetMap contributors",
        ], tiles: [(tile, bytes), (TileID(z: 4, x: tile.x * 2, y: tile.y * 2), bytes)])
        return path
    }
}
