import Foundation
import Testing
@testable import Tiles
import TestSupport

/// Every way a tile file can be wrong gives a TileError naming the file and the problem;
/// nothing crashes.
@Suite struct DamagedFileTests {
    /// Opens `path` expecting a failure, and checks the message names the file.
    static func openingFails(_ path: String) -> TileError? {
        do {
            _ = try MBTilesSource(path: path)
            return nil
        } catch {
            #expect(error.description.hasPrefix(path + ": "))
            return error
        }
    }

    static func bytes(of path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    @Test func aMissingFileSaysSo() throws {
        let dir = try TemporaryDirectory()
        let error = Self.openingFails(dir.file("nowhere.mbtiles"))
        #expect(error?.kind == .notFound)
        #expect(error?.description.contains("no such file") == true)
    }

    @Test func aDirectoryIsNotAFile() throws {
        let dir = try TemporaryDirectory()
        #expect(Self.openingFails(dir.path)?.kind == .isDirectory)
    }

    @Test func anEmptyFileSaysItIsEmpty() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("empty.mbtiles")
        try Self.write([], to: path)
        let error = Self.openingFails(path)
        #expect(error?.kind == .empty)
        #expect(error?.description.contains("empty") == true)
    }

    @Test func aFileThatIsNotSQLiteSaysSo() throws {
        let dir = try TemporaryDirectory()
        let png = dir.file("map.mbtiles")
        try Self.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 4000), to: png)
        #expect(Self.openingFails(png)?.kind == .notSQLite)
        let text = dir.file("notes.mbtiles")
        try Self.write(Array("just some text\n".utf8), to: text)
        #expect(Self.openingFails(text)?.kind == .notSQLite)
    }

    @Test(arguments: [(ShippedData.helsinki, 0.5), (ShippedData.helsinki, 0.02), (ShippedData.world, 0.9), (ShippedData.world, 0.000001)])
    func aTruncatedCopyOfTheShippedDataSaysItIsTruncated(file: String, keptFraction: Double) throws {
        let dir = try TemporaryDirectory()
        let whole = try Self.bytes(of: file)
        let path = dir.file("cut.mbtiles")
        let kept = max(Int(Double(whole.count) * keptFraction), 60)
        try Self.write(Array(whole[0..<kept]), to: path)
        guard case .truncated(let expected, let actual)? = Self.openingFails(path)?.kind else {
            Issue.record("expected a truncation error")
            return
        }
        #expect(expected == (kept < 100 ? 100 : whole.count))
        #expect(actual == kept)
    }

    @Test func overwrittenPagesOfTheShippedDataAreReportedAsDamage() throws {
        let dir = try TemporaryDirectory()
        let original = try Self.bytes(of: ShippedData.helsinki)
        var random = SplitMix64(seed: 5)
        // Garbage over everything past the first page (the schema page stays readable).
        var damaged = original
        let pageSize = Int(original[16]) << 8 | Int(original[17])
        for i in pageSize..<damaged.count { damaged[i] = UInt8.random(in: 0...255, using: &random) }
        let path = dir.file("garbled.mbtiles")
        try Self.write(damaged, to: path)
        let error = Self.openingFails(path)
        guard case .corrupt(let detail)? = error?.kind else {
            Issue.record("expected corruption, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("malformed"))
    }

    @Test func randomDamageToTheShippedDataNeverCrashesAndAlwaysNamesTheFile() throws {
        let dir = try TemporaryDirectory()
        let original = try Self.bytes(of: ShippedData.helsinki)
        var random = SplitMix64(seed: 6)
        // Every stored tile, and overzoomed children of the deepest ones.
        let stored = try MBTilesSource(path: ShippedData.helsinki).storedTileIDs()
        let ids = stored + stored.filter { $0.z == 14 }.map { TileID(z: 16, x: $0.x * 4 + 1, y: $0.y * 4 + 2) }
        var failures = 0
        for round in 0..<60 {
            var damaged = original
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                damaged[Int.random(in: 100..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let path = dir.file("damaged-\(round).mbtiles")
            try Self.write(damaged, to: path)
            do {
                let source = try MBTilesSource(path: path)
                for id in ids { _ = try source.tile(id) }
            } catch {
                #expect(error.file == path)
                failures += 1
            }
        }
        // Random bytes land in tile data, indexes or metadata often enough to matter.
        #expect(failures > 10)
    }

    @Test func aDatabaseWithoutTilesTableIsTheWrongSchema() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("other.sqlite")
        try FixtureMBTiles.execute(path, "CREATE TABLE contacts (name TEXT, phone TEXT); INSERT INTO contacts VALUES ('a', 'b');")
        guard case .wrongSchema(let detail)? = Self.openingFails(path)?.kind else {
            Issue.record("expected a schema error")
            return
        }
        #expect(detail.contains("'tiles'"))
    }

    @Test func aTilesTableWithOtherColumnsIsTheWrongSchema() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("columns.mbtiles")
        try FixtureMBTiles.execute(path, """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (z INTEGER, x INTEGER, y INTEGER, data BLOB);
            """)
        guard case .wrongSchema(let detail)? = Self.openingFails(path)?.kind else {
            Issue.record("expected a schema error")
            return
        }
        #expect(detail.contains("no such column"))
    }

    @Test func aMissingMetadataTableIsTheWrongSchema() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("nometa.mbtiles")
        try FixtureMBTiles.write(path, metadata: [:], tiles: KnownTiles.worldTiles(), schema: """
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            """)
        guard case .wrongSchema(let detail)? = Self.openingFails(path)?.kind else {
            Issue.record("expected a schema error")
            return
        }
        #expect(detail.contains("'metadata'"))
    }

    @Test func rasterTilesAreRefusedByFormat() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("raster.mbtiles")
        try FixtureMBTiles.write(path, metadata: ["format": "png", "name": "Satellite"], tiles: KnownTiles.worldTiles())
        let error = Self.openingFails(path)
        #expect(error?.kind == .unsupportedFormat("png"))
        #expect(error?.description.contains("only vector tiles") == true)
    }

    @Test func aMissingFormatIsReported() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("noformat.mbtiles")
        try FixtureMBTiles.write(path, metadata: ["name": "x"], tiles: KnownTiles.worldTiles())
        guard case .wrongSchema(let detail)? = Self.openingFails(path)?.kind else {
            Issue.record("expected a schema error")
            return
        }
        #expect(detail.contains("'format'"))
    }

    @Test(arguments: [("minzoom", "abc"), ("maxzoom", "99"), ("minzoom", "-1"), ("bounds", "1,2,3"), ("bounds", "10,0,-10,5")])
    func unusableMetadataValuesAreNamed(key: String, value: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("meta.mbtiles")
        var metadata = KnownTiles.worldMetadata
        metadata[key] = value
        try FixtureMBTiles.write(path, metadata: metadata, tiles: KnownTiles.worldTiles())
        #expect(Self.openingFails(path)?.kind == .badMetadata(key: key, value: value))
    }

    @Test func aFileWithNoTilesSaysSo() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("hollow.mbtiles")
        try FixtureMBTiles.write(path, metadata: KnownTiles.worldMetadata, tiles: [])
        #expect(Self.openingFails(path)?.kind == .noTiles)
        let bare = dir.file("hollow-bare.mbtiles")
        try FixtureMBTiles.write(bare, metadata: ["format": "pbf"], tiles: [])
        #expect(Self.openingFails(bare)?.kind == .noTiles)
    }

    // MARK: Damage inside one tile

    /// A copy of the shipped Helsinki file whose deepest, fullest tile is replaced by what
    /// `damage` makes of its stored (gzip) bytes, opened.
    static func helsinkiCopy(in dir: TemporaryDirectory, damage: ([UInt8]) -> [UInt8]) throws -> (MBTilesSource, TileID) {
        let path = dir.file("helsinki-damaged.mbtiles")
        try Self.write(try Self.bytes(of: ShippedData.helsinki), to: path)
        let original = try MBTilesSource(path: path)
        let ids = try original.storedTileIDs().filter { $0.z == original.maxZoom }
        let sizes = try ids.map { try original.rawTileData($0)?.count ?? 0 }
        let id = try #require(zip(ids, sizes).max { $0.1 < $1.1 }?.0)
        let stored = try #require(try original.rawTileData(id))
        try FixtureMBTiles.replaceTile(path, id, with: damage(stored))
        return (try MBTilesSource(path: path), id)
    }

    static func readingFails(_ source: MBTilesSource, _ id: TileID) -> TileError? {
        do {
            _ = try source.tile(id)
            return nil
        } catch {
            #expect(error.description.hasPrefix("\(source.path): tile \(id): "))
            return error
        }
    }

    @Test func damagedGzipIsReportedForThatTile() throws {
        let dir = try TemporaryDirectory()
        let (source, id) = try Self.helsinkiCopy(in: dir) { gzip in
            var bytes = gzip
            for i in 12..<min(40, bytes.count) { bytes[i] ^= 0x5A }
            return bytes
        }
        guard case .damagedCompression? = Self.readingFails(source, id)?.kind else {
            Issue.record("expected a compression error")
            return
        }
        // The other tiles of the file still read.
        #expect(try source.tile(TileID(z: 0, x: 0, y: 0)) != nil)
    }

    @Test func aCutOffGzipStreamEndsEarly() throws {
        let dir = try TemporaryDirectory()
        let (source, id) = try Self.helsinkiCopy(in: dir) { Array($0.prefix($0.count / 2)) }
        #expect(Self.readingFails(source, id)?.kind == .damagedCompression("the compressed stream ends early"))
    }

    @Test func overzoomingADamagedTileReportsTheStoredTile() throws {
        let dir = try TemporaryDirectory()
        let (source, id) = try Self.helsinkiCopy(in: dir) { Array($0.prefix(30)) }
        do {
            _ = try source.tile(TileID(z: id.z + 3, x: id.x * 8 + 3, y: id.y * 8 + 5))
            Issue.record("an overzoomed child of a damaged tile read without error")
        } catch {
            #expect(error.tile == id)
        }
    }

    @Test func aGzipBombIsStopped() throws {
        let dir = try TemporaryDirectory()
        let bomb = Compression.compress([UInt8](repeating: 0, count: Inflate.maxInflatedBytes + 1024), as: .gzip)
        let (source, id) = try Self.helsinkiCopy(in: dir) { _ in bomb }
        guard case .damagedCompression(let detail)? = Self.readingFails(source, id)?.kind else {
            Issue.record("expected a compression error")
            return
        }
        #expect(detail.contains("more than"))
    }

    @Test func damagedProtobufIsReportedForThatTile() throws {
        let dir = try TemporaryDirectory()
        // The real tile's protobuf, cut inside a layer, gzip'd again properly.
        let (source, id) = try Self.helsinkiCopy(in: dir) { gzip in
            guard case .success(let protobuf) = Inflate.decompress(gzip) else { return [] }
            return Compression.compress(Array(protobuf.prefix(protobuf.count - 7)), as: .gzip)
        }
        guard case .damagedTile(let detail)? = Self.readingFails(source, id)?.kind else {
            Issue.record("expected a tile error")
            return
        }
        #expect(detail.contains("at byte"))
    }

    @Test func aLayerClaimingMoreBytesThanExistIsDamage() throws {
        // A layer (field 3) that claims 100 bytes where 2 follow.
        do {
            _ = try MVTDecoder.decode([0x1A, 0x64, 0x0A, 0x00])
            Issue.record("decoded")
        } catch {
            #expect(error.message.contains("claims 100 bytes"))
        }
    }

    @Test(arguments: [
        ("has no name", [UInt8]([0x1A, 0x02, 0x28, 0x08])),
        ("LineTo before any MoveTo", [0x1A, 0x0E, 0x78, 0x02, 0x0A, 0x01, 0x61, 0x12, 0x07, 0x18, 0x02, 0x22, 0x03, 0x0A, 0x02, 0x02]),
        ("half a coordinate pair", [0x1A, 0x0D, 0x78, 0x02, 0x0A, 0x01, 0x61, 0x12, 0x06, 0x18, 0x01, 0x22, 0x02, 0x11, 0x02]),
        ("missing key or value", [0x1A, 0x0D, 0x78, 0x02, 0x0A, 0x01, 0x61, 0x12, 0x06, 0x12, 0x02, 0x05, 0x05, 0x18, 0x01]),
        ("unknown wire type", [0x1F, 0x00]),
        ("longer than 10 bytes", [0x08] + [UInt8](repeating: 0xFF, count: 12)),
        ("version 3", [0x1A, 0x05, 0x0A, 0x01, 0x61, 0x78, 0x03]),
        ("extent 0", [0x1A, 0x07, 0x78, 0x02, 0x0A, 0x01, 0x61, 0x28, 0x00]),
    ])
    func malformedTilesThrowInsteadOfCrashing(reason: String, bytes: [UInt8]) {
        do {
            let tile = try MVTDecoder.decode(bytes)
            Issue.record("decoded \(tile) instead of failing with '\(reason)'")
        } catch {
            #expect(error.message.contains(reason))
        }
    }

    /// The fixture world tile and a real Helsinki tile (z11, about 3 KB gzip'd), as protobuf.
    static func fuzzBases() throws -> [[UInt8]] {
        let helsinki = try MBTilesSource(path: ShippedData.helsinki)
        let id = try #require(try helsinki.storedTileIDs().first { $0.z == 11 })
        let stored = try #require(try helsinki.rawTileData(id))
        guard case .success(let real) = Inflate.decompress(stored) else { throw FixtureError(description: "z11 tile does not inflate") }
        return [MVTEncoder.encode(KnownTiles.world), real]
    }

    @Test func mutatedTilesDecodeOrThrowButNeverCrash() throws {
        var random = SplitMix64(seed: 77)
        for valid in try Self.fuzzBases() {
            var decoded = 0, rejected = 0
            for _ in 0..<2500 {
                var bytes = valid
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
                case 1:
                    for _ in 0..<Int.random(in: 1...6, using: &random) {
                        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    }
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0..<bytes.count, using: &random))
                default: bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                }
                do {
                    _ = try MVTDecoder.decode(bytes)
                    decoded += 1
                } catch {
                    rejected += 1
                }
            }
            #expect(decoded + rejected == 2500)
            #expect(rejected > 500)
        }
    }
}
