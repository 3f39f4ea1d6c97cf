/// The parts of a PMTiles v3 archive (protomaps/PMTiles `spec/v3/spec.md`): the 127-byte
/// header, directories of tile entries, and the Hilbert tile ids that address them. Pure
/// functions over bytes; `PMTilesSource` does the file reading.
enum PMTiles {
    /// What is wrong with an archive's bytes, as the `TileError` kind to report.
    struct Problem: Error { var kind: TileError.Kind }

    static let headerSize = 127
    /// The header and the root directory lie within this many bytes of the start.
    static let rootBytes = 16_384
    static let magic = Array("PMTiles".utf8)
    /// Leaf directories may point to further leaves; the spec's writers use one level, and a
    /// chain deeper than this is damage (or a loop).
    static let maxDirectoryDepth = 4

    struct Header: Equatable {
        var rootOffset: UInt64, rootLength: UInt64
        var metadataOffset: UInt64, metadataLength: UInt64
        var leafOffset: UInt64, leafLength: UInt64
        var dataOffset: UInt64, dataLength: UInt64
        var addressedTiles: UInt64, tileEntries: UInt64, tileContents: UInt64
        var clustered: Bool
        var internalCompression: TileCompression
        var tileCompression: TileCompression
        /// 0 unknown, 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF.
        var tileType: UInt8
        var minZoom: Int, maxZoom: Int
        var minLon: Double, minLat: Double, maxLon: Double, maxLat: Double
        var centerZoom: Int, centerLon: Double, centerLat: Double

        /// Where the last section the header names ends: the file is at least this long.
        var end: UInt64 {
            [rootOffset &+ rootLength, metadataOffset &+ metadataLength, leafOffset &+ leafLength, dataOffset &+ dataLength].max() ?? 0
        }
    }

    /// The header in `bytes` (at least `headerSize` of them), or why it cannot be one.
    static func header(_ bytes: [UInt8]) -> Result<Header, Problem> {
        guard bytes.count >= 8, Array(bytes[0..<7]) == magic else { return .failure(Problem(kind: .unknownFormat)) }
        guard bytes[7] == 3 else { return .failure(Problem(kind: .unsupportedVersion(Int(bytes[7])))) }
        guard bytes.count >= headerSize else {
            return .failure(Problem(kind: .truncatedArchive(expectedBytes: headerSize, actualBytes: bytes.count)))
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }) }
        func degrees(_ at: Int) -> Double { Double(i32(at)) / 10_000_000 }
        guard let directories = TileCompression(rawValue: bytes[97]), let tiles = TileCompression(rawValue: bytes[98]) else {
            return .failure(Problem(kind: .damagedArchive("unknown compression code \(bytes[97]) / \(bytes[98]) in the header")))
        }
        let header = Header(
            rootOffset: u64(8), rootLength: u64(16), metadataOffset: u64(24), metadataLength: u64(32),
            leafOffset: u64(40), leafLength: u64(48), dataOffset: u64(56), dataLength: u64(64),
            addressedTiles: u64(72), tileEntries: u64(80), tileContents: u64(88), clustered: bytes[96] == 1,
            internalCompression: directories, tileCompression: tiles, tileType: bytes[99],
            minZoom: Int(bytes[100]), maxZoom: Int(bytes[101]),
            minLon: degrees(102), minLat: degrees(106), maxLon: degrees(110), maxLat: degrees(114),
            centerZoom: Int(bytes[118]), centerLon: degrees(119), centerLat: degrees(123))
        guard header.minZoom <= header.maxZoom, header.maxZoom <= TileID.maxZoom else {
            return .failure(Problem(kind: .damagedArchive("zoom range \(header.minZoom)…\(header.maxZoom) in the header")))
        }
        // Offsets near 2^64 would wrap when added to lengths: no real file is over 2^62 bytes.
        let limit: UInt64 = 1 << 62
        for value in [header.rootOffset, header.rootLength, header.metadataOffset, header.metadataLength,
                      header.leafOffset, header.leafLength, header.dataOffset, header.dataLength] where value > limit {
            return .failure(Problem(kind: .damagedArchive("an offset or length of \(value) bytes in the header")))
        }
        guard header.rootLength > 0 else { return .failure(Problem(kind: .damagedArchive("the root directory is empty"))) }
        return .success(header)
    }

    /// One directory entry: a run of `runLength` tiles from `tileID` sharing the bytes at
    /// `offset` (relative to the tile data section), or, with `runLength` 0, a leaf directory
    /// at `offset` in the leaf section.
    struct Entry: Equatable {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

    /// Decodes a directory (already decompressed): a varint count, then the columns tile id
    /// deltas, run lengths, lengths and offsets (0 = right after the previous entry, else
    /// offset + 1). Entries come out sorted by tile id, as the spec requires; anything else is
    /// reported as damage.
    static func directory(_ bytes: UnsafeRawBufferPointer) -> Result<[Entry], Problem> {
        var reader = ProtobufReader(bytes)
        func fail(_ what: String) -> Result<[Entry], Problem> { .failure(Problem(kind: .damagedArchive("a directory \(what)"))) }
        do throws(ProtobufError) {
            let count = try reader.varint()
            // Every entry takes at least four bytes (one varint per column).
            guard count <= UInt64(reader.remainingUpperBound / 4) else { return fail("claims \(count) entries in \(bytes.count) bytes") }
            let n = Int(count)
            var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
            var id: UInt64 = 0
            for i in 0..<n {
                let delta = try reader.varint()
                let (sum, overflow) = id.addingReportingOverflow(delta)
                guard !overflow, i == 0 || delta > 0 else { return fail("has tile ids out of order") }
                id = sum
                entries[i].tileID = id
            }
            for i in 0..<n {
                let run = try reader.varint()
                guard run <= UInt64(UInt32.max) else { return fail("has a run length of \(run)") }
                entries[i].runLength = UInt32(run)
            }
            for i in 0..<n {
                let length = try reader.varint()
                // Length 0 is an empty tile; a leaf directory needs bytes (checked below).
                guard length <= UInt64(UInt32.max) else { return fail("has an entry of length \(length)") }
                entries[i].length = UInt32(length)
            }
            for i in 0..<n {
                let raw = try reader.varint()
                if raw == 0 {
                    guard i > 0 else { return fail("starts with a relative offset") }
                    entries[i].offset = entries[i - 1].offset &+ UInt64(entries[i - 1].length)
                } else {
                    entries[i].offset = raw - 1
                }
                guard entries[i].offset < 1 << 62 else { return fail("has an offset of \(entries[i].offset)") }
                guard entries[i].runLength > 0 || entries[i].length > 0 else { return fail("points to an empty leaf directory") }
            }
            return .success(entries)
        } catch {
            return fail("ends early (\(error.message))")
        }
    }

    /// The entry covering `tileID`: the last entry at or before it, when it is a leaf or its
    /// run reaches the id.
    static func find(_ tileID: UInt64, in entries: [Entry]) -> Entry? {
        var low = 0, high = entries.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let here = entries[mid].tileID
            if here == tileID { return entries[mid] }
            if here < tileID { low = mid + 1 } else { high = mid - 1 }
        }
        guard high >= 0 else { return nil }
        let entry = entries[high]
        if entry.runLength == 0 { return entry }
        return tileID - entry.tileID < UInt64(entry.runLength) ? entry : nil
    }

    /// The tile id of z/x/y: the tiles of every shallower zoom ((4^z − 1) / 3 of them) plus the
    /// tile's position along the zoom's Hilbert curve.
    static func tileID(_ id: TileID) -> UInt64 {
        let z = id.z
        var x = UInt64(id.x), y = UInt64(id.y)
        let n = UInt64(1) << UInt64(z)
        var position: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = x & s != 0 ? 1 : 0
            let ry: UInt64 = y & s != 0 ? 1 : 0
            position += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant so the curve's sub-squares line up.
            if ry == 0 {
                if rx == 1 {
                    x = s &- 1 &- x
                    y = s &- 1 &- y
                }
                swap(&x, &y)
            }
            x &= s - 1
            y &= s - 1
            s >>= 1
        }
        return ((UInt64(1) << (2 * UInt64(z))) - 1) / 3 + position
    }

    /// The z/x/y of a tile id (the inverse of `tileID(_:)`), nil past zoom `TileID.maxZoom`.
    static func tile(_ tileID: UInt64) -> TileID? {
        var z = 0
        var base: UInt64 = 0
        while z <= TileID.maxZoom {
            let count = UInt64(1) << (2 * UInt64(z))
            if tileID < base + count { break }
            base += count
            z += 1
        }
        guard z <= TileID.maxZoom else { return nil }
        var t = tileID - base
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            if ry == 0 {
                if rx == 1 {
                    x = s - 1 - x
                    y = s - 1 - y
                }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return TileID(z: z, x: Int(x), y: Int(y))
    }
}
