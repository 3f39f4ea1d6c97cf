import CBrotliEncoder
import CZstd
@testable import Tiles

/// Test-only compression for every PMTiles compression code (gzip through `Compression`).
enum Compressor {
    static func compress(_ data: [UInt8], _ compression: TileCompression) -> [UInt8] {
        switch compression {
        case .none, .unknown: return data
        case .gzip: return Compression.compress(data, as: .gzip)
        case .brotli:
            var size = BrotliEncoderMaxCompressedSize(data.count) + 16
            var output = [UInt8](repeating: 0, count: size)
            let ok = data.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    BrotliEncoderCompress(9, 22, BROTLI_MODE_GENERIC, input.count, input.baseAddress, &size, out.baseAddress)
                }
            }
            return ok == 1 ? Array(output[0..<size]) : []
        case .zstd:
            var output = [UInt8](repeating: 0, count: ZSTD_compressBound(data.count))
            let n = data.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in ZSTD_compress(out.baseAddress, out.count, input.baseAddress, input.count, 19) }
            }
            return ZSTD_isError(n) != 0 ? [] : Array(output[0..<n])
        }
    }
}

/// Writes PMTiles v3 archives of our own, following the spec rather than the reference
/// writer, so the reader is tested on layouts the reference tool does not make: every
/// compression, deduplicated runs, and leaf directories (when the root would hold more than
/// `rootEntries` entries, the entries go into leaves of `leafEntries`).
struct PMTilesWriter {
    var tileCompression: TileCompression = .gzip
    var internalCompression: TileCompression = .gzip
    var rootEntries = 1_000
    var leafEntries = 1_000
    var tileType: UInt8 = 1
    var metadata = "{}"
    var bounds = (west: -180.0, south: -85.0, east: 180.0, north: 85.0)
    var center = (lon: 0.0, lat: 0.0, zoom: 0)

    /// `tiles` are uncompressed MVT bytes; they are compressed with `tileCompression`.
    func archive(_ tiles: [(TileID, [UInt8])]) -> [UInt8] {
        let sorted = tiles.map { (PMTiles.tileID($0.0), $0.1) }.sorted { $0.0 < $1.0 }
        var data: [UInt8] = []
        var offsets: [[UInt8]: UInt64] = [:]
        var entries: [PMTiles.Entry] = []
        for (id, raw) in sorted {
            let stored = Compressor.compress(raw, tileCompression)
            // A run: the same bytes as the previous entry, at the next tile id.
            if let last = entries.last, let known = offsets[stored], known == last.offset,
               last.tileID + UInt64(last.runLength) == id {
                entries[entries.count - 1].runLength += 1
                continue
            }
            let offset: UInt64
            if let known = offsets[stored] {
                offset = known   // deduplicated: another entry for the same bytes
            } else {
                offset = UInt64(data.count)
                offsets[stored] = offset
                data += stored
            }
            entries.append(PMTiles.Entry(tileID: id, offset: offset, length: UInt32(stored.count), runLength: 1))
        }
        var root = entries
        var leaves: [UInt8] = []
        if entries.count > rootEntries {
            root = []
            var start = 0
            while start < entries.count {
                let chunk = Array(entries[start..<min(start + leafEntries, entries.count)])
                let bytes = Compressor.compress(Self.directory(chunk), internalCompression)
                root.append(PMTiles.Entry(tileID: chunk[0].tileID, offset: UInt64(leaves.count), length: UInt32(bytes.count), runLength: 0))
                leaves += bytes
                start += leafEntries
            }
        }
        let rootBytes = Compressor.compress(Self.directory(root), internalCompression)
        let metadataBytes = Compressor.compress(Array(metadata.utf8), internalCompression)

        var header = [UInt8](repeating: 0, count: PMTiles.headerSize)
        header.replaceSubrange(0..<7, with: PMTiles.magic)
        header[7] = 3
        func put64(_ value: UInt64, _ at: Int) { for i in 0..<8 { header[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) } }
        func put32(_ value: Double, _ at: Int) {
            let v = UInt32(bitPattern: Int32((value * 10_000_000).rounded()))
            for i in 0..<4 { header[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
        }
        let rootOffset = UInt64(PMTiles.headerSize)
        let metadataOffset = rootOffset + UInt64(rootBytes.count)
        let leafOffset = metadataOffset + UInt64(metadataBytes.count)
        let dataOffset = leafOffset + UInt64(leaves.count)
        put64(rootOffset, 8); put64(UInt64(rootBytes.count), 16)
        put64(metadataOffset, 24); put64(UInt64(metadataBytes.count), 32)
        put64(leafOffset, 40); put64(UInt64(leaves.count), 48)
        put64(dataOffset, 56); put64(UInt64(data.count), 64)
        put64(UInt64(tiles.count), 72); put64(UInt64(entries.count), 80); put64(UInt64(offsets.count), 88)
        header[96] = 1
        header[97] = internalCompression.rawValue
        header[98] = tileCompression.rawValue
        header[99] = tileType
        header[100] = UInt8(tiles.map(\.0.z).min() ?? 0)
        header[101] = UInt8(tiles.map(\.0.z).max() ?? 0)
        put32(bounds.west, 102); put32(bounds.south, 106); put32(bounds.east, 110); put32(bounds.north, 114)
        header[118] = UInt8(center.zoom)
        put32(center.lon, 119); put32(center.lat, 123)
        return header + rootBytes + metadataBytes + leaves + data
    }

    /// A directory's bytes before compression.
    static func directory(_ entries: [PMTiles.Entry]) -> [UInt8] {
        var w = ProtobufWriter()
        w.varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { w.varint(e.tileID - last); last = e.tileID }
        for e in entries { w.varint(UInt64(e.runLength)) }
        for e in entries { w.varint(UInt64(e.length)) }
        for (i, e) in entries.enumerated() {
            if i > 0, e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) { w.varint(0) } else { w.varint(e.offset + 1) }
        }
        return w.bytes
    }
}
