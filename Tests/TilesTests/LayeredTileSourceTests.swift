import Testing
@testable import Tiles

/// World and city files drawn as one source, each within its own zooms.
@Suite struct LayeredTileSourceTests {
    @Test func aTileHoldsTheWorldLayersThenTheCityLayers() throws {
        let dir = try TemporaryDirectory()
        let world = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let city = try MBTilesSource(path: try KnownTiles.writeCity(in: dir))
        let layered = LayeredTileSource(sources: [world, city])
        #expect(layered.minZoom == 0 && layered.maxZoom == 4)
        #expect(layered.attribution == "Made with Natural Earth · © OpenStreetMap contributors")

        // 4/8/4 lies inside 2/2/1, which the world lacks: only the city answers.
        #expect(try layered.tile(TileID(z: 4, x: 8, y: 4))?.layers.map(\.name) == ["building"])
        // 3/4/2's world ancestor 2/2/1 is missing too; 4/5/5 has the world shapes, no city.
        #expect(try layered.tile(TileID(z: 4, x: 5, y: 5))?.layers.map(\.name) == ["shapes"])
        // z1 has world markers only: the city starts at z3.
        #expect(try layered.tile(TileID(z: 1, x: 1, y: 0))?.layers.map(\.name) == ["marker"])
        #expect(try layered.tile(TileID(z: 3, x: 0, y: 0)) == nil)
    }

    @Test func bothSourcesAnswerWhereBothHaveData() throws {
        let dir = try TemporaryDirectory()
        let world = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let city = try MBTilesSource(path: try KnownTiles.writeCity(in: dir, at: TileID(z: 3, x: 2, y: 2)))
        let layered = LayeredTileSource(sources: [world, city])
        // 3/2/2 is an overzoomed child of the world's 2/1/1 and the city's own tile.
        let tile = try #require(try layered.tile(TileID(z: 3, x: 2, y: 2)))
        #expect(tile.layers.map(\.name) == ["shapes", "building"])
        // Past both files' depth, both overzoom.
        let deep = try #require(try layered.tile(TileID(z: 6, x: 16, y: 16)))
        #expect(deep.layers.map(\.name) == ["shapes", "building"])
    }

    @Test func aSourceIsLeftOutPastItsVisibleZooms() throws {
        let dir = try TemporaryDirectory()
        let world = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let city = try MBTilesSource(path: try KnownTiles.writeCity(in: dir, at: TileID(z: 3, x: 2, y: 2)))
        let layered = LayeredTileSource([.init(world, maxVisibleZoom: 3), .init(city)])
        #expect(try layered.tile(TileID(z: 3, x: 2, y: 2))?.layers.map(\.name) == ["shapes", "building"])
        #expect(try layered.tile(TileID(z: 4, x: 4, y: 4))?.layers.map(\.name) == ["building"])
    }

    @Test func aDamagedTileInOneSourceIsReportedNotHidden() throws {
        let dir = try TemporaryDirectory()
        let world = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let path = dir.file("broken.mbtiles")
        try FixtureMBTiles.write(path, metadata: ["format": "pbf"], tiles: [(TileID(z: 0, x: 0, y: 0), [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3])])
        let layered = LayeredTileSource(sources: [world, try MBTilesSource(path: path)])
        #expect(throws: TileError.self) { try layered.tile(TileID(z: 0, x: 0, y: 0)) }
    }
}
