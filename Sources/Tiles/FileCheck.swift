#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks made on a tile file before SQLite sees it, so that the usual mistakes (wrong path,
/// a directory, an empty or cut-off download, a PNG renamed .mbtiles) get a precise message
/// instead of SQLite's generic "file is not a database".
enum FileCheck {
    /// The 16 bytes every SQLite 3 database starts with.
    static let sqliteMagic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// The size of the regular, non-empty file at `path`, or the problem with it.
    static func regularFileSize(_ path: String) throws(TileError) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw TileError(file: path, kind: .notFound) }
            throw TileError(file: path, kind: .unreadable(systemMessage(code)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw TileError(file: path, kind: .isDirectory) }
        let size = Int(info.st_size)
        if size == 0 { throw TileError(file: path, kind: .empty) }
        return size
    }

    /// What the first bytes of `path` say it is.
    enum Format { case mbtiles, pmtiles, unknown }

    static func format(_ path: String) throws(TileError) -> Format {
        _ = try regularFileSize(path)
        let start = try readHeader(path, count: 16)
        if start.count >= 16, Array(start[0..<16]) == sqliteMagic { return .mbtiles }
        if start.count >= 7, Array(start[0..<7]) == PMTiles.magic { return .pmtiles }
        return .unknown
    }

    /// Throws the first problem found with `path`, or returns when it looks like a whole
    /// SQLite database.
    static func validate(_ path: String) throws(TileError) {
        let size = try regularFileSize(path)

        let header = try readHeader(path, count: 100)
        guard header.count >= 16, Array(header[0..<16]) == sqliteMagic else {
            throw TileError(file: path, kind: .notSQLite)
        }
        guard header.count == 100 else {
            throw TileError(file: path, kind: .truncated(expectedBytes: 100, actualBytes: size))
        }
        if let expected = declaredSize(header), size < expected {
            throw TileError(file: path, kind: .truncated(expectedBytes: expected, actualBytes: size))
        }
    }

    /// The database size the header declares (page size × page count), when the header says
    /// that count is trustworthy (SQLite ≥ 3.7.0 writes it together with a matching counter).
    static func declaredSize(_ header: [UInt8]) -> Int? {
        func be32(_ at: Int) -> Int {
            Int(header[at]) << 24 | Int(header[at + 1]) << 16 | Int(header[at + 2]) << 8 | Int(header[at + 3])
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        // Valid page sizes are powers of two from 512 to 65536.
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return nil }
        let changeCounter = be32(24), pageCount = be32(28), validFor = be32(92)
        guard pageCount > 0, changeCounter == validFor else { return nil }
        return pageSize * pageCount
    }

    /// Up to `count` bytes from the start of `path`.
    private static func readHeader(_ path: String, count: Int) throws(TileError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw TileError(file: path, kind: .unreadable(systemMessage(errno))) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress.map { $0 + filled }, count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw TileError(file: path, kind: .unreadable(systemMessage(errno)))
            }
            if n == 0 { break }
            filled += n
        }
        return Array(buffer[0..<filled])
    }

    static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
