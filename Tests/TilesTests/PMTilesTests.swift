import Foundation
import Synchronization
import Testing
@testable import Tiles
import TestSupport

/// The PMTiles v3 reader against the reference tool's output (PyPI `pmtiles` 3.8.1
/// `pmtiles-convert` of the shipped Helsinki file, data/test/helsinki.pmtiles) and against
/// archives written here in every compression, with runs, deduplication and leaf directories.
@Suite struct PMTilesTests {
    static var reference: String { ShippedData.directory + "/test/helsinki.pmtiles" }

    /// Every stored tile of an MBTiles file, decoded.
    static func decodedTiles(_ source: MBTilesSource) throws -> [(TileID, VectorTile)] {
        try source.storedTileIDs().map { id in
            guard let tile = try source.tile(id) else { throw FixtureError(description: "\(id) vanished") }
            return (id, tile)
        }
    }

    /// The shipped file's tiles as raw (inflated) MVT bytes.
    static func rawTiles(_ source: MBTilesSource) throws -> [(TileID, [UInt8])] {
        try source.storedTileIDs().map { id in
            guard let stored = try source.rawTileData(id) else { throw FixtureError(description: "\(id) vanished") }
            return (id, try Inflate.decompress(stored).get())
        }
    }

    @Test func tileIDsFollowTheHilbertCurveAsTheReferenceNumbersThem() {
        // From pmtiles 3.8.1's zxy_to_tileid.
        let known: [(TileID, UInt64)] = [
            (TileID(z: 0, x: 0, y: 0), 0), (TileID(z: 1, x: 0, y: 0), 1), (TileID(z: 1, x: 0, y: 1), 2),
            (TileID(z: 1, x: 1, y: 1), 3), (TileID(z: 1, x: 1, y: 0), 4), (TileID(z: 2, x: 1, y: 3), 11),
            (TileID(z: 3, x: 5, y: 2), 76), (TileID(z: 14, x: 9326, y: 4741), 319_433_634),
        ]
        for (tile, id) in known {
            #expect(PMTiles.tileID(tile) == id, "\(tile)")
            #expect(PMTiles.tile(id) == tile)
        }
        var random = SplitMix64(seed: 3)
        for _ in 0..<2_000 {
            let z = Int.random(in: 0...TileID.maxZoom, using: &random)
            let tile = TileID(z: z, x: Int.random(in: 0..<(1 << z), using: &random), y: Int.random(in: 0..<(1 << z), using: &random))
            #expect(PMTiles.tile(PMTiles.tileID(tile)) == tile)
        }
    }

    @Test func theReferenceConversionDecodesTileForTileAsItsMBTilesSource() throws {
        let mbtiles = try MBTilesSource(path: ShippedData.helsinki)
        let file = try TileFiles.open(Self.reference)
        #expect(file is PMTilesSource)
        let expected = try Self.decodedTiles(mbtiles)
        #expect(expected.count == 19)
        for (id, tile) in expected { #expect(try file.tile(id) == tile, "\(id)") }
        #expect(Set(try file.storedTileIDs()) == Set(expected.map(\.0)))
        // And where the MBTiles file has nothing, neither has the archive.
        #expect(try file.tile(TileID(z: 14, x: 0, y: 0)) == nil)
        #expect(try file.tile(TileID(z: 5, x: 3, y: 3)) == nil)
        // Overzoomed like MBTiles: the same children of the deepest tiles.
        let deep = TileID(z: 16, x: 9326 * 4 + 1, y: 4741 * 4 + 2)
        #expect(try file.tile(deep) == mbtiles.tile(deep))
    }

    @Test func theReferenceConversionKeepsTheMetadata() throws {
        let mbtiles = try MBTilesSource(path: ShippedData.helsinki)
        let file = try TileFiles.open(Self.reference)
        let m = file.metadata
        #expect(m.name == "Helsinki (OpenStreetMap)")
        #expect(m.attribution == "© OpenStreetMap contributors")
        #expect(m.minZoom == 0 && m.maxZoom == 14)
        #expect(abs((m.center?.latitude ?? 0) - 60.1716) < 1e-6 && abs((m.center?.longitude ?? 0) - 24.9443) < 1e-6)
        #expect(m.center?.zoom == 14)
        #expect(abs((m.bounds?.west ?? 0) - 24.9351762) < 1e-6 && abs((m.bounds?.north ?? 0) - 60.179113) < 1e-6)
        #expect(m.vectorLayerIDs == mbtiles.metadata.vectorLayerIDs)
        #expect(m.vectorLayerIDs.contains("transportation") && m.vectorLayerIDs.contains("water_name"))
    }

    @Test(arguments: [TileCompression.none, .gzip, .brotli, .zstd])
    func everyTileCompressionDecodesAsTheSource(tiles: TileCompression) throws {
        let dir = try TemporaryDirectory()
        let mbtiles = try MBTilesSource(path: ShippedData.helsinki)
        let expected = try Self.decodedTiles(mbtiles)
        for directories in [TileCompression.none, .gzip, .brotli, .zstd] {
            let writer = PMTilesWriter(tileCompression: tiles, internalCompression: directories,
                                       metadata: #"{"name":"variant","vector_layers":[{"id":"water"},{"id":"poi"}]}"#)
            let path = dir.file("h-\(tiles)-\(directories).pmtiles")
            try DamagedFileTests.write(writer.archive(try Self.rawTiles(mbtiles)), to: path)
            let file = try PMTilesSource(path: path)
            #expect(file.tileCompression == tiles && file.internalCompression == directories)
            #expect(file.metadata.name == "variant")
            #expect(file.metadata.vectorLayerIDs == ["water", "poi"])
            for (id, tile) in expected { #expect(try file.tile(id) == tile, "\(id) \(tiles)/\(directories)") }
        }
    }

    /// A synthetic tile whose one point says which tile it is.
    static func marker(_ id: TileID) -> [UInt8] {
        MVTEncoder.encode(VectorTile(layers: [VectorLayer(name: "m", extent: 4096, features: [
            VectorFeature(type: .point, parts: [[TilePoint(x: Int32(id.x % 4096), y: Int32(id.y % 4096))]],
                          properties: ["tile": .string(id.description)]),
        ])]))
    }

    @Test func leafDirectoriesAreFollowedAndMoreLeavesThanTheCacheHoldsStillResolve() throws {
        let dir = try TemporaryDirectory()
        // Every tile of zooms 0-5 (1,365 tiles) in leaves of 7 entries: 196 leaves, three
        // times what the leaf cache keeps.
        var tiles: [(TileID, [UInt8])] = []
        for z in 0...5 { for x in 0..<(1 << z) { for y in 0..<(1 << z) { tiles.append((TileID(z: z, x: x, y: y), Self.marker(TileID(z: z, x: x, y: y)))) } } }
        let path = dir.file("leaves.pmtiles")
        let writer = PMTilesWriter(tileCompression: .zstd, internalCompression: .brotli, rootEntries: 16, leafEntries: 7)
        try DamagedFileTests.write(writer.archive(tiles), to: path)
        let file = try PMTilesSource(path: path)
        var random = SplitMix64(seed: 9)
        for (id, _) in tiles.shuffled(using: &random) + tiles.shuffled(using: &random) {
            let tile = try file.tile(id)
            #expect(tile?.layers.first?.features.first?.properties["tile"] == .string(id.description), "\(id)")
        }
        #expect(try file.tile(TileID(z: 6, x: 1, y: 1)) != nil)   // overzoomed from z5
        #expect(Set(try file.storedTileIDs()) == Set(tiles.map(\.0)))
    }

    @Test func openingAndLookupsReadOnlyWhatTheyNeedHoweverLargeTheArchive() throws {
        let dir = try TemporaryDirectory()
        // Every tile of zooms 0-8 (87,381 distinct tiles, 6 MB) in leaves of 4,096 entries.
        var tiles: [(TileID, [UInt8])] = []
        for z in 0...8 { for x in 0..<(1 << z) { for y in 0..<(1 << z) { tiles.append((TileID(z: z, x: x, y: y), Self.marker(TileID(z: z, x: x, y: y)))) } } }
        let path = dir.file("large.pmtiles")
        let writer = PMTilesWriter(tileCompression: .gzip, internalCompression: .gzip, rootEntries: 4_096, leafEntries: 4_096)
        let bytes = writer.archive(tiles)
        try DamagedFileTests.write(bytes, to: path)
        let file = try PMTilesSource(path: path)
        #expect(bytes.count > 3_000_000)
        // Opening: the first 16 KiB, the root directory and the (empty) metadata; no leaf.
        #expect(file.bytesReadOpening <= PMTiles.rootBytes + Int(file.header.rootLength) + 64)
        #expect(file.bytesRead.load(ordering: .relaxed) == 0)
        // One tile: its leaf directory and its bytes, nothing else.
        let id = TileID(z: 8, x: 200, y: 31)
        #expect(try file.tile(id)?.layers.first?.features.first?.properties["tile"] == .string(id.description))
        let one = file.bytesRead.load(ordering: .relaxed)
        #expect(one > 0 && one < 64 * 1024)
        // Its neighbour shares the cached leaf: only the tile is read.
        _ = try file.tile(TileID(z: 8, x: 200, y: 30))
        #expect(file.bytesRead.load(ordering: .relaxed) - one < 200)
    }

    @Test func runsAndDeduplicatedTilesShareTheirBytes() throws {
        let dir = try TemporaryDirectory()
        let sea = Self.marker(TileID(z: 0, x: 0, y: 0))
        // All of z4 the same "sea" tile except two: long runs along the curve, then
        // deduplicated entries after the interruptions.
        var tiles: [(TileID, [UInt8])] = []
        for x in 0..<16 { for y in 0..<16 { tiles.append((TileID(z: 4, x: x, y: y), sea)) } }
        let special = [TileID(z: 4, x: 3, y: 5), TileID(z: 4, x: 12, y: 9)]
        for id in special { tiles.removeAll { $0.0 == id }; tiles.append((id, Self.marker(id))) }
        let path = dir.file("runs.pmtiles")
        let bytes = PMTilesWriter(tileCompression: .gzip, internalCompression: .gzip).archive(tiles)
        try DamagedFileTests.write(bytes, to: path)
        let file = try PMTilesSource(path: path)
        #expect(file.header.tileContents == 3)
        #expect(file.header.tileEntries < 10)
        for (id, raw) in tiles { #expect(try file.tile(id) == MVTDecoder.decode(raw), "\(id)") }
        #expect(try file.tile(TileID(z: 3, x: 0, y: 0)) == nil)
    }

    @Test func theFormatIsToldByItsFirstBytesNotItsName() throws {
        let dir = try TemporaryDirectory()
        let disguised = dir.file("city.mbtiles"), other = dir.file("city.pmtiles")
        try FileManager.default.copyItem(atPath: Self.reference, toPath: disguised)
        try FileManager.default.copyItem(atPath: ShippedData.helsinki, toPath: other)
        #expect(try TileFiles.open(disguised) is PMTilesSource)
        #expect(try TileFiles.open(other) is MBTilesSource)
        let png = dir.file("map.pmtiles")
        try DamagedFileTests.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 300), to: png)
        #expect(Self.openingFails(png)?.kind == .unknownFormat)
        #expect(Self.openingFails(png)?.description.contains("neither an MBTiles (SQLite) database nor a PMTiles archive") == true)
    }

    /// Opens `path` with `TileFiles.open` expecting a failure whose message names the file.
    static func openingFails(_ path: String) -> TileError? {
        do {
            _ = try TileFiles.open(path)
            return nil
        } catch {
            #expect(error.description.hasPrefix(path + ": "))
            return error
        }
    }

    @Test(arguments: [10, 100, 126, 127, 150, 700, 5_000, 181_000])
    func aTruncatedArchiveSaysItIsTruncated(kept: Int) throws {
        let dir = try TemporaryDirectory()
        let whole = try DamagedFileTests.bytes(of: Self.reference)
        let path = dir.file("cut.pmtiles")
        try DamagedFileTests.write(Array(whole[0..<kept]), to: path)
        guard case .truncatedArchive(let expected, let actual)? = Self.openingFails(path)?.kind else {
            Issue.record("expected a truncation error at \(kept) bytes")
            return
        }
        #expect(actual == kept)
        #expect(expected == (kept < 127 ? 127 : whole.count))
    }

    @Test func damagedHeadersAndDirectoriesAreNamedAsSuch() throws {
        let dir = try TemporaryDirectory()
        let whole = try DamagedFileTests.bytes(of: Self.reference)
        func opening(_ change: (inout [UInt8]) -> Void) throws -> TileError.Kind? {
            var bytes = whole
            change(&bytes)
            let path = dir.file("damaged.pmtiles")
            try DamagedFileTests.write(bytes, to: path)
            return Self.openingFails(path)?.kind
        }
        #expect(try opening { $0[7] = 2 } == .unsupportedVersion(2))
        #expect(try opening { $0[99] = 2 } == .unsupportedFormat("png"))
        guard case .damagedArchive(let compression)? = try opening({ $0[97] = 9 }) else { Issue.record("compression code"); return }
        #expect(compression.contains("compression"))
        guard case .damagedArchive(let zooms)? = try opening({ $0[100] = 9; $0[101] = 3 }) else { Issue.record("zooms"); return }
        #expect(zooms.contains("zoom"))
        // Garbage where the gzip'd root directory is.
        guard case .damagedArchive(let root)? = try opening({ for i in 130..<200 { $0[i] = 0x5A } }) else { Issue.record("root"); return }
        #expect(root.contains("root directory"))
        // Garbage metadata.
        guard case .damagedArchive(let meta)? = try opening({ for i in 240..<300 { $0[i] = 0x33 } }) else { Issue.record("metadata"); return }
        #expect(meta.contains("metadata"))
    }

    @Test func openingReadsNoLeafDirectoryAndADamagedOneFailsOnlyItsTiles() throws {
        let dir = try TemporaryDirectory()
        var tiles: [(TileID, [UInt8])] = []
        for z in 0...3 { for x in 0..<(1 << z) { for y in 0..<(1 << z) { tiles.append((TileID(z: z, x: x, y: y), Self.marker(TileID(z: z, x: x, y: y)))) } } }
        let writer = PMTilesWriter(tileCompression: .gzip, internalCompression: .gzip, rootEntries: 4, leafEntries: 20)
        var bytes = writer.archive(tiles)
        let file0 = dir.file("ok.pmtiles")
        try DamagedFileTests.write(bytes, to: file0)
        let good = try PMTilesSource(path: file0)
        // Overwrite the whole leaf section: the archive still opens (opening never reads it).
        let leafOffset = Int(good.header.leafOffset), leafLength = Int(good.header.leafLength)
        #expect(leafLength > 0)
        for i in leafOffset..<leafOffset + leafLength { bytes[i] = 0xEE }
        let path = dir.file("leaves.pmtiles")
        try DamagedFileTests.write(bytes, to: path)
        let damaged = try PMTilesSource(path: path)
        do {
            _ = try damaged.tile(TileID(z: 3, x: 7, y: 7))
            Issue.record("a tile under a garbled leaf read")
        } catch {
            #expect(error.file == path && error.tile == TileID(z: 3, x: 7, y: 7))
            guard case .damagedArchive(let detail) = error.kind else { Issue.record("\(error)"); return }
            #expect(detail.contains("leaf directory"))
        }
    }

    @Test func randomDamageNeverCrashesAndAlwaysNamesTheFile() throws {
        let dir = try TemporaryDirectory()
        let original = try DamagedFileTests.bytes(of: Self.reference)
        var random = SplitMix64(seed: 11)
        let ids = try MBTilesSource(path: ShippedData.helsinki).storedTileIDs()
        var failures = 0
        for round in 0..<80 {
            var damaged = original
            // Mostly in the header, directories and metadata (the first 800 bytes), some in tiles.
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let at = Bool.random(using: &random) ? Int.random(in: 8..<800, using: &random) : Int.random(in: 800..<damaged.count, using: &random)
                damaged[at] = UInt8.random(in: 0...255, using: &random)
            }
            let path = dir.file("damaged-\(round).pmtiles")
            try DamagedFileTests.write(damaged, to: path)
            do {
                let source = try TileFiles.open(path)
                for id in ids { _ = try source.tile(id) }
            } catch let error as TileError {
                #expect(error.file == path)
                failures += 1
            } catch {
                Issue.record("not a TileError: \(error)")
            }
        }
        #expect(failures > 10)
    }
}
