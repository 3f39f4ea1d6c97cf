/// The SQL side of an MBTiles file: schema checks, metadata rows and the tile lookup.
/// Not thread-safe; `MBTilesSource` keeps it behind a mutex.
final class TileQuery {
    private let file: String
    private let connection: SQLiteConnection
    private let lookup: SQLiteStatement

    /// Opens the database and compiles the tile lookup, which also proves the `tiles` table
    /// (or view) has the four MBTiles columns.
    init(path: String) throws(TileError) {
        file = path
        do throws(SQLiteFailure) {
            connection = try SQLiteConnection(readOnlyPath: path)
        } catch {
            throw Self.openError(error, file: path)
        }
        do throws(SQLiteFailure) {
            lookup = try connection.prepare(
                "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
        } catch {
            throw Self.schemaError(error, file: path,
                missing: "it has no 'tiles' table with zoom_level, tile_column, tile_row and tile_data")
        }
    }

    /// The metadata, after checking there is at least one tile.
    func readMetadata() throws(TileError) -> MBTilesMetadata {
        var values: [String: String] = [:]
        do throws(SQLiteFailure) {
            let rows = try connection.prepare("SELECT name, value FROM metadata")
            while try rows.step() {
                guard let key = rows.text(0) else { continue }
                values[key] = rows.text(1) ?? ""
            }
        } catch {
            throw Self.schemaError(error, file: file, missing: "it has no 'metadata' table with name and value")
        }
        let file = self.file
        let connection = self.connection
        let metadata = try MBTilesMetadata.parse(values, file: file) { () throws(TileError) -> (Int, Int) in
            do {
                let range = try connection.prepare("SELECT min(zoom_level), max(zoom_level) FROM tiles")
                guard try range.step(), !range.isNull(0), !range.isNull(1) else { throw TileError(file: file, kind: .noTiles) }
                let low = range.int64(0), high = range.int64(1)
                guard low >= 0, high <= Int64(TileID.maxZoom), low <= high else {
                    throw TileError(file: file, kind: .badMetadata(key: "zoom_level", value: "\(low)…\(high)"))
                }
                return (Int(low), Int(high))
            } catch let error as TileError {
                throw error
            } catch let error as SQLiteFailure {
                throw TileError(file: file, kind: .corrupt(error.message))
            } catch {
                throw TileError(file: file, kind: .corrupt("\(error)"))
            }
        }
        do {
            let any = try connection.prepare("SELECT 1 FROM tiles LIMIT 1")
            guard try any.step() else { throw TileError(file: file, kind: .noTiles) }
        } catch let error as TileError {
            throw error
        } catch let error as SQLiteFailure {
            throw TileError(file: file, kind: .corrupt(error.message))
        } catch {
            throw TileError(file: file, kind: .corrupt("\(error)"))
        }
        return metadata
    }

    /// True when SQLite would answer a tile lookup by scanning the whole `tiles` table (or
    /// the table under a `tiles` view): the file lacks the usual unique index on zoom, column
    /// and row. Lookups are then still correct, only slow on a large file.
    func lookupScansTable() -> Bool {
        do throws(SQLiteFailure) {
            let plan = try connection.prepare(
                "EXPLAIN QUERY PLAN SELECT tile_data FROM tiles WHERE zoom_level = 1 AND tile_column = 1 AND tile_row = 1")
            while try plan.step() {
                // e.g. "SCAN tiles" without an index, "SEARCH tiles USING INDEX tile_index (…)" with one.
                if let detail = plan.text(3), detail.hasPrefix("SCAN"), !detail.contains("INDEX") { return true }
            }
        } catch {
            return false
        }
        return false
    }

    /// The stored bytes of tile `id` (XYZ; flipped to the TMS row MBTiles uses), nil if absent.
    func blob(_ id: TileID) throws(SQLiteFailure) -> [UInt8]? {
        lookup.reset()
        try lookup.bind(Int64(id.z), at: 1)
        try lookup.bind(Int64(id.x), at: 2)
        try lookup.bind(Int64(id.tmsRow), at: 3)
        defer { lookup.reset() }
        guard try lookup.step() else { return nil }
        if lookup.isNull(0) { return nil }
        return lookup.bytes(0)
    }

    enum TileExtent {
        case none
        case tooWide
        case tiles(minX: Int64, maxX: Int64, minRow: Int64, maxRow: Int64)
    }

    /// The columns and TMS rows the tiles stored at `zoom` span (`tooWide` past
    /// `maxColumns` columns, when the index is used). With the tiles
    /// index every answer is an index lookup (the min and max column, then each column's
    /// min and max row), so it costs the same for a city and a planet; without the index,
    /// one scan.
    func tileExtent(zoom: Int, maxColumns: Int, scans: Bool) throws(SQLiteFailure) -> TileExtent {
        func one(_ sql: String, _ binds: [Int64]) throws(SQLiteFailure) -> Int64? {
            let q = try connection.prepare(sql)
            for (k, v) in binds.enumerated() { try q.bind(v, at: Int32(k + 1)) }
            guard try q.step(), !q.isNull(0) else { return nil }
            return q.int64(0)
        }
        let z = Int64(zoom)
        if scans {
            let q = try connection.prepare(
                "SELECT min(tile_column), max(tile_column), min(tile_row), max(tile_row) FROM tiles WHERE zoom_level = ?")
            try q.bind(z, at: 1)
            guard try q.step(), !q.isNull(0) else { return .none }
            return .tiles(minX: q.int64(0), maxX: q.int64(1), minRow: q.int64(2), maxRow: q.int64(3))
        }
        guard let minX = try one("SELECT min(tile_column) FROM tiles WHERE zoom_level = ?", [z]),
              let maxX = try one("SELECT max(tile_column) FROM tiles WHERE zoom_level = ?", [z]) else { return .none }
        guard maxX - minX < Int64(maxColumns) else { return .tooWide }
        var minRow = Int64.max, maxRow = Int64.min
        for x in minX...maxX {
            if let r = try one("SELECT min(tile_row) FROM tiles WHERE zoom_level = ? AND tile_column = ?", [z, x]) { minRow = min(minRow, r) }
            if let r = try one("SELECT max(tile_row) FROM tiles WHERE zoom_level = ? AND tile_column = ?", [z, x]) { maxRow = max(maxRow, r) }
        }
        guard minRow <= maxRow else { return .none }
        return .tiles(minX: minX, maxX: maxX, minRow: minRow, maxRow: maxRow)
    }

    /// Every stored tile's address (XYZ), in zoom, column, XYZ row order; rows outside the
    /// zoom's grid (buffer tiles some tools write) are left out.
    func allTileIDs() throws(SQLiteFailure) -> [TileID] {
        let rows = try connection.prepare(
            "SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY zoom_level, tile_column, tile_row DESC")
        var ids: [TileID] = []
        while try rows.step() {
            let z = rows.int64(0), x = rows.int64(1), tms = rows.int64(2)
            guard z >= 0, z <= Int64(TileID.maxZoom) else { continue }
            let id = TileID(z: Int(z), x: Int(truncatingIfNeeded: x), y: Int(truncatingIfNeeded: (Int64(1) << z) - 1 - tms))
            if id.isValid { ids.append(id) }
        }
        return ids
    }

    private static func openError(_ failure: SQLiteFailure, file: String) -> TileError {
        if failure.code & 0xFF == SQLiteCodes.notADatabase { return TileError(file: file, kind: .notSQLite) }
        if failure.meansDamage { return TileError(file: file, kind: .corrupt(failure.message)) }
        return TileError(file: file, kind: .unreadable(failure.message))
    }

    /// A failure to compile or run schema SQL: damage when SQLite says so, else a missing
    /// table or column (SQLite's own words follow, e.g. "no such column: tile_row").
    private static func schemaError(_ failure: SQLiteFailure, file: String, missing: String) -> TileError {
        if failure.code & 0xFF == SQLiteCodes.notADatabase { return TileError(file: file, kind: .notSQLite) }
        if failure.meansDamage { return TileError(file: file, kind: .corrupt(failure.message)) }
        return TileError(file: file, kind: .wrongSchema("\(missing) (SQLite: \(failure.message))"))
    }
}
