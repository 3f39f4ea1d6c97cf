/// Why a tile file or a tile in it cannot be used. The description names the file (and the
/// tile, when one is involved) and says what is wrong in words a user can act on.
public struct TileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Equatable {
        /// Nothing exists at the path.
        case notFound
        /// The path names a directory, not a file.
        case isDirectory
        /// The file exists but cannot be opened for reading (permissions, I/O error).
        case unreadable(String)
        /// The file has no bytes at all.
        case empty
        /// The file does not start with the SQLite header.
        case notSQLite
        /// The file is shorter than its SQLite header says: it was cut off.
        case truncated(expectedBytes: Int, actualBytes: Int)
        /// SQLite reported damage (a malformed page, an I/O error) while reading.
        case corrupt(String)
        /// A table or column MBTiles needs is missing.
        case wrongSchema(String)
        /// The metadata says the tiles are not Mapbox Vector Tiles (`format` is not `pbf`).
        case unsupportedFormat(String)
        /// A metadata value cannot be understood.
        case badMetadata(key: String, value: String)
        /// The file holds no tiles.
        case noTiles
        /// A tile's compressed bytes cannot be inflated.
        case damagedCompression(String)
        /// A tile's protobuf bytes are not a valid vector tile.
        case damagedTile(String)
        /// The file is neither an MBTiles (SQLite) database nor a PMTiles archive.
        case unknownFormat
        /// A PMTiles archive of a version this reader does not know (it reads v3).
        case unsupportedVersion(Int)
        /// A PMTiles header or directory that cannot be right (offsets, varints, compression).
        case damagedArchive(String)
        /// The file ends before the data its PMTiles header places in it.
        case truncatedArchive(expectedBytes: Int, actualBytes: Int)
    }

    /// The file the problem is in, as the user named it.
    public var file: String
    /// The tile being read, when the problem is in one tile rather than the whole file.
    public var tile: TileID?
    public var kind: Kind

    public init(file: String, tile: TileID? = nil, kind: Kind) {
        self.file = file
        self.tile = tile
        self.kind = kind
    }

    public var description: String {
        let place = tile.map { "\(file): tile \($0)" } ?? file
        return "\(place): \(problem)"
    }

    /// The problem in words, without the file name.
    public var problem: String {
        switch kind {
        case .notFound: return "no such file"
        case .isDirectory: return "is a directory, not an MBTiles file"
        case .unreadable(let reason): return "cannot be read (\(reason))"
        case .empty: return "the file is empty (0 bytes), not an MBTiles database"
        case .notSQLite: return "not an MBTiles file: it is not an SQLite database"
        case .truncated(let expected, let actual):
            return "the file is truncated: \(actual) bytes, but its SQLite header says \(expected)"
        case .corrupt(let detail): return "the SQLite database is damaged (\(detail))"
        case .wrongSchema(let detail): return "not an MBTiles file: \(detail)"
        case .unsupportedFormat(let format):
            return "holds '\(format)' tiles; only vector tiles (format 'pbf', Mapbox Vector Tiles) can be read"
        case .badMetadata(let key, let value): return "metadata '\(key)' has an unusable value '\(value)'"
        case .noTiles: return "the MBTiles file holds no tiles"
        case .damagedCompression(let detail): return "compressed tile data is damaged (\(detail))"
        case .damagedTile(let detail): return "vector tile data is damaged (\(detail))"
        case .unknownFormat:
            return "not a tile file: it is neither an MBTiles (SQLite) database nor a PMTiles archive"
        case .unsupportedVersion(let version):
            return "is a PMTiles version \(version) archive; only version 3 can be read"
        case .damagedArchive(let detail): return "the PMTiles archive is damaged (\(detail))"
        case .truncatedArchive(let expected, let actual):
            return "the file is truncated: \(actual) bytes, but its PMTiles header places data up to byte \(expected)"
        }
    }
}
