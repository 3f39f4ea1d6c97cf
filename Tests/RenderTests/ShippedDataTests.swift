import CCairo
import Foundation
import Geo
import Tiles
import XCTest
@testable import Render

/// The renderer over the data shipped in `data/`, read through the real MBTiles reader.
final class ShippedDataTests: XCTestCase {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data")

    private func source(_ name: String) throws -> MBTilesSource {
        try MBTilesSource(path: Self.dataDirectory.appendingPathComponent(name).path)
    }

    /// The colour at the centre of a small synchronous frame looking at `c`.
    private func centreColour(_ c: Coordinate, zoom: Double, sources: [any VectorTileSource]) throws -> UInt32? {
        var renderer = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: sources), scale: 1))
        renderer.showsScaleBar = false
        renderer.showsAttribution = false
        let image = try XCTUnwrap(RasterImage(width: 64, height: 64))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        renderer.drawSynchronously(MapCamera(center: c, zoom: zoom, size: ViewSize(width: 64, height: 64)), into: cr)
        return image.rgb(x: 32, y: 32)
    }

    func testTheAtlanticIsWaterAndCentralGermanyIsLand() throws {
        let world = try source("world.mbtiles")
        XCTAssertEqual(try centreColour(Coordinate(latitude: 45, longitude: -30), zoom: 4, sources: [world]), Palette.water)
        XCTAssertEqual(try centreColour(Coordinate(latitude: 51, longitude: 10.5), zoom: 6, sources: [world]), Palette.land)
        // Deeper than the file's z6: the overzoomed ancestor still puts land and sea right.
        XCTAssertEqual(try centreColour(Coordinate(latitude: 51, longitude: 10.5), zoom: 12, sources: [world]), Palette.land)
        XCTAssertEqual(try centreColour(Coordinate(latitude: 45, longitude: -30), zoom: 12, sources: [world]), Palette.water)
    }

    func testTheHelsinkiFileCarriesTheOpenStreetMapCreditOnlyOverHelsinki() throws {
        let credits = MapAttribution.of(try source("helsinki.mbtiles"))
        let over = { (lat: Double, lon: Double) in
            MapAttribution.visible(credits, camera: MapCamera(center: Coordinate(latitude: lat, longitude: lon), zoom: 15,
                                                              size: ViewSize(width: 800, height: 600)))
        }
        XCTAssertTrue(over(60.17, 24.944).contains(MapAttribution.openStreetMap))
        XCTAssertEqual(over(48.85, 2.35), [])
    }
}

/// The OpenStreetMap credit for files whose metadata forgot it, by their schema.
final class OpenStreetMapCreditTests: XCTestCase {
    private func file(_ name: String) throws -> any TileFile {
        try TileFiles.open(ShippedDataTests.dataDirectory.appendingPathComponent(name).path)
    }

    func testAShortbreadFileWithoutAttributionStillCreditsOpenStreetMap() throws {
        for name in ["test/helsinki-shortbread.mbtiles", "test/helsinki-shortbread.pmtiles"] {
            let source = try file(name)
            XCTAssertNil(source.metadata.attribution)
            XCTAssertEqual(MapAttribution.of(source as any VectorTileSource).map(\.text), [MapAttribution.openStreetMap], name)
        }
    }

    func testTheSchemasAreToldByTheirLayers() {
        XCTAssertTrue(MapAttribution.isOpenStreetMapSchema(["water", "transportation", "building"]))   // OpenMapTiles
        XCTAssertTrue(MapAttribution.isOpenStreetMapSchema(["ocean", "streets", "buildings"]))   // Shortbread
        XCTAssertTrue(MapAttribution.isOpenStreetMapSchema(["earth", "roads", "places"]))   // Protomaps
        XCTAssertFalse(MapAttribution.isOpenStreetMapSchema(["land", "countries", "coastline", "places"]))   // our Natural Earth
    }

    func testTheWorldFileGetsNoOpenStreetMapCredit() throws {
        XCTAssertEqual(MapAttribution.of(try file("world.mbtiles") as any VectorTileSource).map(\.text), ["Natural Earth"])
    }
}
