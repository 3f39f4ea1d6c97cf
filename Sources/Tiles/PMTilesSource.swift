import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import JSONText

/// Vector tiles from a local PMTiles v3 archive, read-only.
///
/// Opening reads the 127-byte header, the root directory and the JSON metadata, and checks
/// that the sections the header names lie inside the file: the same few reads for a city as
/// for a planet (no scan, no index built). Leaf directories are read when a tile under them
/// is first asked for and kept in a small cache (`leafCacheCapacity` directories), so memory
/// stays flat however large the archive. Tiles are read with `pread` on one descriptor, so
/// worker threads read in parallel; only the leaf cache is behind a lock.
///
/// Tiles that several entries share (deduplicated ocean tiles, run lengths) are just entries
/// pointing at the same bytes. Past `maxZoom` the source overzooms like `MBTilesSource`.
public final class PMTilesSource: TileFile {
    public let path: String
    public let metadata: MBTilesMetadata
    let header: PMTiles.Header
    private let descriptor: Int32
    private let root: [PMTiles.Entry]
    /// Most recently used last.
    private let leaves = Mutex(LeafCache(capacity: PMTilesSource.leafCacheCapacity))
    private let ancestors = Mutex(RecentTiles(capacity: 16))
    /// Bytes read from the file after opening (directories and tiles), for tests that check
    /// what a lookup costs.
    let bytesRead = Atomic<Int>(0)
    /// Bytes read while opening (header, root directory, metadata).
    let bytesReadOpening: Int

    /// Leaf directories kept decoded. A writer's leaf holds up to a few thousand entries
    /// (24 bytes each here), so this is at most a few MB, for any archive size.
    public static let leafCacheCapacity = 64
    /// Metadata larger than this is damage, not a tileset description.
    static let maxMetadataBytes = 16 << 20

    public var name: String { path }
    public var minZoom: Int { metadata.minZoom }
    public var maxZoom: Int { metadata.maxZoom }
    public var attribution: String? { metadata.attribution }
    public var formatName: String { "PMTiles" }
    /// How the stored tiles are compressed (header byte 98).
    public var tileCompression: TileCompression { header.tileCompression }
    /// How the directories and metadata are compressed (header byte 97).
    public var internalCompression: TileCompression { header.internalCompression }

    /// Opens `path`; throws a `TileError` naming the file when it is not a usable vector
    /// PMTiles v3 archive.
    public init(path: String) throws(TileError) {
        self.path = path
        let size = try FileCheck.regularFileSize(path)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TileError(file: path, kind: .unreadable(FileCheck.systemMessage(errno))) }
        do throws(TileError) {
            let start = try Self.read(fd, at: 0, count: min(size, PMTiles.rootBytes), file: path)
            var opening = start.count
            let header: PMTiles.Header
            switch PMTiles.header(start) {
            case .success(let h): header = h
            case .failure(let problem): throw TileError(file: path, kind: problem.kind)
            }
            guard header.end <= UInt64(size) else {
                throw TileError(file: path, kind: .truncatedArchive(expectedBytes: Int(header.end), actualBytes: size))
            }
            guard header.tileType == 1 || header.tileType == 0 else {
                let names = [2: "png", 3: "jpeg", 4: "webp", 5: "avif"]
                throw TileError(file: path, kind: .unsupportedFormat(names[Int(header.tileType)] ?? "tile type \(header.tileType)"))
            }
            guard header.rootLength <= UInt64(Inflate.maxInflatedBytes) else {
                throw TileError(file: path, kind: .damagedArchive("a root directory of \(header.rootLength) bytes"))
            }
            let rootBytes = try Self.read(fd, at: header.rootOffset, count: Int(header.rootLength), file: path)
            opening += rootBytes.count
            root = try Self.directory(rootBytes, header.internalCompression, file: path, what: "the root directory")
            guard !root.isEmpty else { throw TileError(file: path, kind: .noTiles) }

            var json: JSONValue = .object([])
            if header.metadataLength > 0 {
                guard header.metadataLength <= UInt64(Self.maxMetadataBytes) else {
                    throw TileError(file: path, kind: .damagedArchive("metadata of \(header.metadataLength) bytes"))
                }
                let stored = try Self.read(fd, at: header.metadataOffset, count: Int(header.metadataLength), file: path)
                opening += stored.count
                let text: String
                switch Decompression.withDecompressed(stored, header.internalCompression, { String(decoding: $0, as: UTF8.self) }) {
                case .success(let t): text = t
                case .failure(let failure): throw TileError(file: path, kind: .damagedArchive("metadata: \(failure.message)"))
                }
                guard let parsed = JSONValue.parse(text, maximumDepth: MBTilesMetadata.maximumJSONDepth), case .object = parsed else {
                    throw TileError(file: path, kind: .badMetadata(key: "metadata", value: String(text.prefix(60))))
                }
                json = parsed
            }
            bytesReadOpening = opening
            metadata = MBTilesMetadata(pmtiles: header, json: json)
            self.header = header
            descriptor = fd
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(descriptor) }

    public func tile(_ id: TileID) throws(TileError) -> VectorTile? {
        guard id.isValid else { return nil }
        return try overzoomedTile(id, maxZoom: maxZoom, ancestors: ancestors, decode: decodedTile)
    }

    public func tile(_ id: TileID, layers: Set<String>) throws(TileError) -> VectorTile? {
        // Past the data, whole ancestors are kept for every caller: no selection there.
        guard id.isValid, id.z <= maxZoom else { return try tile(id) }
        guard let stored = try rawTileData(id) else { return nil }
        return try decodeStoredTile(stored, compression: header.tileCompression, file: path, tile: id, layers: layers)
    }

    /// The stored bytes of tile `id` (compressed as `tileCompression` says), nil if absent.
    public func rawTileData(_ id: TileID) throws(TileError) -> [UInt8]? {
        guard id.isValid, id.z >= header.minZoom, id.z <= header.maxZoom else { return nil }
        let tileID = PMTiles.tileID(id)
        var entries = root
        for depth in 0...PMTiles.maxDirectoryDepth {
            guard let entry = PMTiles.find(tileID, in: entries) else { return nil }
            if entry.runLength > 0 {
                return try read(section: header.dataOffset, length: header.dataLength, entry: entry, tile: id, what: "tile data")
            }
            guard depth < PMTiles.maxDirectoryDepth else { break }
            entries = try leaf(entry, tile: id)
        }
        throw TileError(file: path, tile: id, kind: .damagedArchive("leaf directories nest deeper than \(PMTiles.maxDirectoryDepth) levels"))
    }

    /// The address of every tile the archive holds (runs expanded), in tile-id order. Walks
    /// every leaf directory: for tools and benchmarks, never on the map's path.
    public func storedTileIDs() throws(TileError) -> [TileID] {
        var ids: [TileID] = []
        func walk(_ entries: [PMTiles.Entry], depth: Int) throws(TileError) {
            for entry in entries {
                if entry.runLength == 0 {
                    guard depth < PMTiles.maxDirectoryDepth else {
                        throw TileError(file: path, kind: .damagedArchive("leaf directories nest deeper than \(PMTiles.maxDirectoryDepth) levels"))
                    }
                    let anchor = PMTiles.tile(entry.tileID) ?? TileID(z: 0, x: 0, y: 0)
                    try walk(try leaf(entry, tile: anchor), depth: depth + 1)
                    continue
                }
                for i in 0..<UInt64(entry.runLength) {
                    if let id = PMTiles.tile(entry.tileID + i), id.z >= header.minZoom, id.z <= header.maxZoom { ids.append(id) }
                }
            }
        }
        try walk(root, depth: 0)
        return ids
    }

    /// The leaf directory `entry` points to, from the cache or the file.
    private func leaf(_ entry: PMTiles.Entry, tile: TileID) throws(TileError) -> [PMTiles.Entry] {
        if let hit = leaves.withLock({ $0.directory(at: entry.offset) }) { return hit }
        let bytes = try read(section: header.leafOffset, length: header.leafLength, entry: entry, tile: tile, what: "leaf directory")
        let entries = try Self.directory(bytes, header.internalCompression, file: path, what: "a leaf directory", tile: tile)
        leaves.withLock { $0.insert(entries, at: entry.offset) }
        return entries
    }

    /// The bytes an entry addresses inside a section, checked against the section's bounds.
    private func read(section: UInt64, length: UInt64, entry: PMTiles.Entry, tile: TileID, what: String) throws(TileError) -> [UInt8] {
        guard entry.offset &+ UInt64(entry.length) <= length else {
            throw TileError(file: path, tile: tile, kind: .damagedArchive("\(what) at \(entry.offset)+\(entry.length) lies outside its section of \(length) bytes"))
        }
        bytesRead.add(Int(entry.length), ordering: .relaxed)
        return try Self.read(descriptor, at: section + entry.offset, count: Int(entry.length), file: path, tile: tile)
    }

    /// Reads, decompresses and decodes the stored tile `id`.
    private func decodedTile(_ id: TileID) throws(TileError) -> VectorTile? {
        guard let stored = try rawTileData(id) else { return nil }
        return try decodeStoredTile(stored, compression: header.tileCompression, file: path, tile: id)
    }

    /// Leaf directories read so far, keyed by their offset in the leaf section.
    private struct LeafCache {
        let capacity: Int
        var entries: [(offset: UInt64, directory: [PMTiles.Entry])] = []

        mutating func directory(at offset: UInt64) -> [PMTiles.Entry]? {
            guard let index = entries.firstIndex(where: { $0.offset == offset }) else { return nil }
            let hit = entries.remove(at: index)
            entries.append(hit)
            return hit.directory
        }

        mutating func insert(_ directory: [PMTiles.Entry], at offset: UInt64) {
            entries.removeAll { $0.offset == offset }
            entries.append((offset, directory))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    private static func directory(
        _ stored: [UInt8], _ compression: TileCompression, file: String, what: String, tile: TileID? = nil
    ) throws(TileError) -> [PMTiles.Entry] {
        switch Decompression.withDecompressed(stored, compression, PMTiles.directory) {
        case .success(.success(let entries)): return entries
        case .success(.failure(let problem)):
            let kind = problem.kind
            if case .damagedArchive(let detail) = kind {
                throw TileError(file: file, tile: tile, kind: .damagedArchive("\(what): \(detail.replacingAll("a directory ", with: ""))"))
            }
            throw TileError(file: file, tile: tile, kind: kind)
        case .failure(let failure):
            throw TileError(file: file, tile: tile, kind: .damagedArchive("\(what) cannot be decompressed (\(compression): \(failure.message))"))
        }
    }

    /// `count` bytes at `offset`; fewer available is truncation.
    private static func read(_ fd: Int32, at offset: UInt64, count: Int, file: String, tile: TileID? = nil) throws(TileError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress.map { $0 + filled }, count - filled, off_t(offset) + off_t(filled))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw TileError(file: file, tile: tile, kind: .unreadable(FileCheck.systemMessage(errno)))
            }
            if n == 0 {
                throw TileError(file: file, tile: tile, kind: .truncatedArchive(expectedBytes: Int(offset) + count, actualBytes: Int(offset) + filled))
            }
            filled += n
        }
        return buffer
    }
}

extension MBTilesMetadata {
    /// A PMTiles archive's description: zooms, bounds and centre from its header, the rest
    /// (name, attribution, vector_layers…) from its JSON metadata. `values` holds each
    /// top-level metadata member as text (JSON text for non-strings), as MBTiles rows would.
    init(pmtiles header: PMTiles.Header, json: JSONValue) {
        var values: [String: String] = [:]
        if case .object(let members) = json {
            for member in members where values[member.key] == nil { values[member.key] = member.value.stringValue ?? member.value.compactText }
        }
        var bounds: Bounds?
        if header.minLon <= header.maxLon, header.minLat <= header.maxLat, !(header.minLon == 0 && header.maxLon == 0 && header.minLat == 0 && header.maxLat == 0) {
            bounds = Bounds(west: header.minLon, south: header.minLat, east: header.maxLon, north: header.maxLat)
        }
        var center: Center?
        if bounds != nil || header.centerLon != 0 || header.centerLat != 0 {
            center = Center(longitude: header.centerLon, latitude: header.centerLat, zoom: Double(header.centerZoom))
        }
        let attribution = values["attribution"].map { plainText($0) }.flatMap { $0.isEmpty ? nil : $0 }
        self.init(name: values["name"], format: "pbf", minZoom: header.minZoom, maxZoom: header.maxZoom, bounds: bounds,
                  attribution: attribution, values: values)
        self.center = center
        // go-pmtiles writes `vector_layers` at the top; the Python converter keeps the MBTiles
        // `json` row as a string holding it.
        vectorLayerIDs = Self.layerIDs(json["vector_layers"] ?? values["json"].flatMap { JSONValue.parse($0, maximumDepth: Self.maximumJSONDepth) }?["vector_layers"])
    }
}
