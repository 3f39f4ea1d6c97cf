import Foundation
import Testing
@testable import Tiles

/// Files made by the tools people use (scripts/data/make-test-tiles.sh, data/SOURCES.md):
/// the shipped Helsinki OSM extract through Debian's tilemaker 2.2 with the Shortbread
/// config, and that file through the reference `pmtiles-convert`.
@Suite struct RealInputsTests {
    static var shortbread: String { ShippedData.directory + "/test/helsinki-shortbread.mbtiles" }
    static var shortbreadPMTiles: String { ShippedData.directory + "/test/helsinki-shortbread.pmtiles" }

    @Test func theShortbreadFileCarriesTheSchemasLayersAndNoAttribution() throws {
        let file = try TileFiles.open(Self.shortbread)
        #expect(file is MBTilesSource)
        let m = file.metadata
        #expect(m.name == "Helsinki (Shortbread)")
        // What tilemaker 2.2 writes from this config: no attribution row.
        #expect(m.attribution == nil)
        for layer in ["streets", "street_labels", "buildings", "water_polygons", "land", "place_labels", "pois"] {
            #expect(m.vectorLayerIDs.contains(layer), "\(layer)")
        }
        #expect(abs((m.center?.latitude ?? 0) - 60.171634) < 1e-6)
        // Street level: the city's streets and buildings are in the tiles, not only named.
        let tile = try #require(try file.tile(TileID(z: 14, x: 9326, y: 4741)))
        #expect((tile.layer(named: "streets")?.features.count ?? 0) > 20)
        #expect((tile.layer(named: "buildings")?.features.count ?? 0) > 5)
        #expect(tile.droppedFeatures == 0)
    }

    @Test func theShortbreadPMTilesDecodesTileForTileAsItsMBTiles() throws {
        let mbtiles = try MBTilesSource(path: Self.shortbread)
        let pmtiles = try TileFiles.open(Self.shortbreadPMTiles)
        #expect(pmtiles is PMTilesSource)
        let ids = try mbtiles.storedTileIDs()
        #expect(ids.count == 19)
        for id in ids { #expect(try pmtiles.tile(id) == mbtiles.tile(id), "\(id)") }
        #expect(pmtiles.metadata.vectorLayerIDs == mbtiles.metadata.vectorLayerIDs)
        #expect(pmtiles.layerNames().contains("streets"))
    }

    @Test func anMBTilesFileWithoutTheTilesIndexReadsRightAndSaysLookupsScan() throws {
        let dir = try TemporaryDirectory()
        let indexed = try MBTilesSource(path: ShippedData.helsinki)
        #expect(!indexed.lookupsScanTable)
        // The same tiles in a table without the unique index (as some hand-made files are).
        var rows: [(TileID, [UInt8])] = []
        for id in try indexed.storedTileIDs() { rows.append((id, try #require(try indexed.rawTileData(id)))) }
        let path = dir.file("noindex.mbtiles")
        try FixtureMBTiles.write(path, metadata: indexed.metadata.values, tiles: rows, schema: """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            """)
        let bare = try MBTilesSource(path: path)
        #expect(bare.lookupsScanTable)
        for (id, _) in rows { #expect(try bare.tile(id) == indexed.tile(id)) }
        #expect(try bare.tile(TileID(z: 14, x: 1, y: 1)) == nil)
    }
}
