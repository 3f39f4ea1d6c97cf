import Geo
import Testing
@testable import Tiles

/// The files the project ships read completely and agree with an independent decoder.
///
/// Expected counts and positions come from scripts/data/inspect_mbtiles.py (the data
/// preparation's own Python MVT decoder, written separately from this one), run on the
/// committed files: `python3 scripts/data/inspect_mbtiles.py data/world.mbtiles --points places`.
@Suite struct ShippedDataTests {
    /// Features per layer summed over every tile of `source`.
    static func layerTotals(_ source: MBTilesSource) throws -> (tiles: Int, features: [String: Int]) {
        let ids = try source.storedTileIDs()
        var totals: [String: Int] = [:]
        for id in ids {
            let tile = try #require(try source.tile(id))
            for layer in tile.layers { totals[layer.name, default: 0] += layer.features.count }
        }
        return (ids.count, totals)
    }

    @Test func everyWorldTileDecodesWithTheIndependentDecodersCounts() throws {
        let source = try MBTilesSource(path: ShippedData.world)
        #expect(source.minZoom == 0 && source.maxZoom == 6)
        #expect(source.attribution == "Natural Earth")
        let (tiles, features) = try Self.layerTotals(source)
        #expect(tiles == 3315)
        #expect(features == ["boundaries": 4227, "coastline": 14961, "countries": 6022, "lakes": 4211, "land": 9956, "places": 1818])
    }

    @Test func everyHelsinkiTileDecodesWithTheIndependentDecodersCounts() throws {
        let source = try MBTilesSource(path: ShippedData.helsinki)
        #expect(source.minZoom == 0 && source.maxZoom == 14)
        #expect(source.attribution == "© OpenStreetMap contributors")
        #expect(source.metadata.bounds == MBTilesMetadata.Bounds(west: 24.9351762, south: 60.164155, east: 24.9534145, north: 60.179113))
        let (tiles, features) = try Self.layerTotals(source)
        #expect(tiles == 19)
        #expect(features == [
            "boundary": 16, "building": 636, "housenumber": 1480, "landcover": 153, "landuse": 445, "place": 32,
            "poi": 2199, "transportation": 3020, "transportation_name": 2937, "water": 16, "water_name": 8, "waterway": 10,
        ])
    }

    /// The coordinate of `point` in tile `id` of a layer with `extent`.
    static func coordinate(of point: TilePoint, in id: TileID, extent: UInt32) -> Coordinate {
        let tileWorld = WebMercator.tileSize / Double(1 << id.z)
        return WebMercator.coordinate(WorldPoint(
            x: (Double(id.x) + Double(point.x) / Double(extent)) * tileWorld,
            y: (Double(id.y) + Double(point.y) / Double(extent)) * tileWorld))
    }

    /// The first point named `name` in `layer` of the tile at `zoom` that holds `near`.
    static func place(_ name: String, layer: String, near: Coordinate, zoom: Int, in source: MBTilesSource) throws -> Coordinate? {
        let w = WebMercator.world(near)
        let n = Double(1 << zoom)
        let id = TileID(z: zoom, x: Int(w.x / 256 * n), y: Int(w.y / 256 * n))
        let tile = try #require(try source.tile(id))
        let places = try #require(tile.layer(named: layer))
        guard let feature = places.features.first(where: { $0.properties["name"] == .string(name) }),
              let point = feature.parts.first?.first else { return nil }
        return coordinate(of: point, in: id, extent: places.extent)
    }

    @Test(arguments: [
        ("New York", 40.72124, -73.99567), ("Nuku'alofa", -21.13831, -175.22095), ("Apia", -13.83541, -171.76849),
    ])
    func worldPlacesDecodeWhereTheyAre(name: String, latitude: Double, longitude: Double) throws {
        let source = try MBTilesSource(path: ShippedData.world)
        let expected = Coordinate(latitude: latitude, longitude: longitude)
        let found = try #require(try Self.place(name, layer: "places", near: expected, zoom: 6, in: source))
        // One z6 tile unit is 360° / 64 / 4096 ≈ 0.0014°.
        #expect(abs(found.latitude - latitude) < 0.002 && abs(found.longitude - longitude) < 0.002)
    }

    @Test func helsinkiItselfIsWhereTheCityLabelSays() throws {
        let source = try MBTilesSource(path: ShippedData.helsinki)
        let expected = Coordinate(latitude: 60.16741, longitude: 24.94258)
        let found = try #require(try Self.place("Helsinki", layer: "place", near: expected, zoom: 14, in: source))
        // One z14 tile unit is about 0.0000054°.
        #expect(abs(found.latitude - expected.latitude) < 0.0001 && abs(found.longitude - expected.longitude) < 0.0001)
    }

    @Test func worldAndCityLayeredAtStreetLevelOverzoomBoth() throws {
        let world = try MBTilesSource(path: ShippedData.world)
        let city = try MBTilesSource(path: ShippedData.helsinki)
        let layered = LayeredTileSource(sources: [world, city])
        #expect(layered.attribution == "Natural Earth · © OpenStreetMap contributors")
        let camera = MapCamera(center: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: 17, size: ViewSize(width: 256, height: 256))
        let id = TileID(try #require(camera.visibleTiles(tileZoom: 17).first))
        let tile = try #require(try layered.tile(id))
        let names = Set(tile.layers.map(\.name))
        #expect(names.contains("land") && names.contains("building") && names.contains("transportation"))
        // Overzoomed geometry stays within the tile plus its buffer.
        for layer in tile.layers {
            let buffer = Int32(layer.extent) / 64 + 1, extent = Int32(layer.extent)
            for point in layer.features.flatMap(\.parts).joined() {
                #expect(point.x >= -buffer && point.x <= extent + buffer)
                #expect(point.y >= -buffer && point.y <= extent + buffer)
            }
        }
    }
}
