import Geo
import Testing
@testable import Tiles

/// Reading known tiles back from an MBTiles file gives exactly what was written.
@Suite struct DecodeTests {
    @Test func metadataIsReadAndTheAttributionIsPlainText() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        #expect(source.metadata.name == "Fixture world")
        #expect(source.metadata.format == "pbf")
        #expect(source.minZoom == 0 && source.maxZoom == 2)
        #expect(source.metadata.bounds == MBTilesMetadata.Bounds(west: -180, south: -85.0511, east: 180, north: 85.0511))
        #expect(source.attribution == "Made with Natural Earth")
        #expect(source.name.hasSuffix("world.mbtiles"))
    }

    @Test func theWorldTileDecodesToItsKnownFeatures() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let tile = try #require(try source.tile(TileID(z: 0, x: 0, y: 0)))
        #expect(tile.layers.map(\.name) == ["countries", "coastline", "places"])
        #expect(tile.layers.map(\.features.count) == [2, 1, 1])
        #expect(tile == KnownTiles.world)

        let country = try #require(tile.layer(named: "countries")?.features.first)
        #expect(country.id == 1 && country.type == .polygon)
        #expect(country.parts.count == 2)
        #expect(country.parts[1] == [KnownTiles.p(1500, 1500), KnownTiles.p(1500, 2500), KnownTiles.p(2500, 2500), KnownTiles.p(2500, 1500)])
        #expect(country.properties["name"] == .string("Testland"))
        #expect(country.properties["code"] == .int(-7))
        #expect(country.properties["area"] == .double(1.5))
        #expect(country.properties["coastal"] == .bool(true))
        // Negative coordinates (buffer geometry past the tile edge) survive the zigzag.
        #expect(tile.layer(named: "coastline")?.features.first?.parts[1].last == KnownTiles.p(-20, 4200))
        #expect(tile.layer(named: "places")?.extent == 512)
    }

    @Test func rowsAreFlippedFromTheTMSNumberingMBTilesUses() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        for id in [TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 0), TileID(z: 1, x: 0, y: 1), TileID(z: 2, x: 3, y: 0)] {
            let tile = try #require(try source.tile(id))
            #expect(tile.layer(named: "marker")?.features.first?.properties["tile"] == .string(id.description))
        }
        #expect(TileID(z: 2, x: 3, y: 0).tmsRow == 3)
    }

    @Test(arguments: [Compression.Wrapper.gzip, .zlib, nil])
    func gzipZlibAndUncompressedTilesAllDecode(wrapper: Compression.Wrapper?) throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir, wrapper: wrapper))
        #expect(try source.tile(TileID(z: 0, x: 0, y: 0)) == KnownTiles.world)
    }

    @Test func storedTilesAreListedInXYZ() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let listed = try source.storedTileIDs()
        #expect(listed == KnownTiles.worldTiles().map(\.0).sorted { ($0.z, $0.x, $0.y) < ($1.z, $1.x, $1.y) })
        for id in listed { #expect(try source.tile(id) != nil) }
    }

    @Test func geometrySplitAcrossSeveralFieldsIsJoined() throws {
        // Protobuf allows a repeated field in pieces: packed, then two unpacked integers.
        var feature = ProtobufWriter()
        feature.varintField(3, 2)
        feature.packed(4, [MVTEncoder.command(1, 1), MVTEncoder.zigzag(10), MVTEncoder.zigzag(20), MVTEncoder.command(2, 1)])
        feature.varintField(4, MVTEncoder.zigzag(5))
        feature.varintField(4, MVTEncoder.zigzag(-5))
        var layer = ProtobufWriter()
        layer.varintField(15, 2)
        layer.bytesField(1, Array("roads".utf8))
        layer.message(2, feature.bytes)
        var tile = ProtobufWriter()
        tile.message(3, layer.bytes)
        let decoded = try MVTDecoder.decode(tile.bytes)
        #expect(decoded.layers.first?.features.first?.parts == [[KnownTiles.p(10, 20), KnownTiles.p(15, 15)]])
    }

    @Test func missingAndImpossibleTilesAreNil() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        #expect(try source.tile(TileID(z: 2, x: 0, y: 0)) == nil)
        #expect(try source.tile(TileID(z: 1, x: 2, y: 0)) == nil)
        #expect(try source.tile(TileID(z: -1, x: 0, y: 0)) == nil)
        #expect(try source.tile(TileID(z: 64, x: 0, y: 0)) == nil)
    }

    @Test func zoomRangeComesFromTheTilesWhenTheMetadataHasNone() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("bare.mbtiles")
        try FixtureMBTiles.write(path, metadata: ["format": "pbf"], tiles: KnownTiles.worldTiles())
        let source = try MBTilesSource(path: path)
        #expect(source.minZoom == 0 && source.maxZoom == 2)
        #expect(source.attribution == nil)
    }

    @Test func aTilesViewWorksLikeATable() throws {
        // MBTiles allows `tiles` to be a view (mbutil's deduplicating layout).
        let dir = try TemporaryDirectory()
        let path = dir.file("view.mbtiles")
        try FixtureMBTiles.write(path, metadata: KnownTiles.worldMetadata, tiles: KnownTiles.worldTiles(), schema: """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE stored (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            CREATE VIEW tiles AS SELECT zoom_level, tile_column, tile_row, tile_data FROM stored;
            CREATE TRIGGER put INSTEAD OF INSERT ON tiles BEGIN
              INSERT INTO stored VALUES (NEW.zoom_level, NEW.tile_column, NEW.tile_row, NEW.tile_data); END;
            """)
        let source = try MBTilesSource(path: path)
        #expect(try source.tile(TileID(z: 0, x: 0, y: 0)) == KnownTiles.world)
    }

    @Test func visibleTilesFromTheCameraAddressTheFile() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 1, size: ViewSize(width: 512, height: 512))
        let markers = try camera.visibleTiles(tileZoom: 1).compactMap { try source.tile(TileID($0)) }
        #expect(markers.count == 4)
    }
}
