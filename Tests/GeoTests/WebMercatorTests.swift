#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Geo
import TestSupport

/// Projection values checked against an independent formula (the inverse Gudermannian,
/// y = 128 − 128/π · asinh(tan φ)) and against well-known tile addresses.
@Suite struct WebMercatorTests {
    @Test func maxLatitudeIsWhereTheWorldBecomesSquare() {
        #expect(abs(WebMercator.maxLatitude - 85.0511287798066) < 1e-12)
        #expect(abs(WebMercator.world(Coordinate(latitude: WebMercator.maxLatitude, longitude: 0)).y) < 1e-9)
        #expect(abs(WebMercator.world(Coordinate(latitude: -WebMercator.maxLatitude, longitude: 0)).y - 256) < 1e-9)
        #expect(WebMercator.tileSize == 256)
    }

    @Test func nullIslandIsTheMiddleOfTheWorld() {
        let w = WebMercator.world(Coordinate(latitude: 0, longitude: 0))
        #expect(abs(w.x - 128) < 1e-12)
        #expect(abs(w.y - 128) < 1e-12)
    }

    @Test func projectionMatchesTheInverseGudermannian() {
        for latitude in stride(from: -85.0, through: 85.0, by: 2.5) {
            for longitude in stride(from: -180.0, through: 179.0, by: 37.0) {
                let w = WebMercator.world(Coordinate(latitude: latitude, longitude: longitude))
                let expectedY = 128 - 128 / Double.pi * asinh(tan(latitude * Double.pi / 180))
                let expectedX = (longitude + 180) * 256 / 360
                #expect(abs(w.y - expectedY) < 1e-9, "latitude \(latitude)")
                #expect(abs(w.x - expectedX) < 1e-12, "longitude \(longitude)")
            }
        }
    }

    @Test func helsinkiCentreIsInItsWellKnownTile() {
        // Helsinki railway station area lies in the z10 tile 582/296 (XYZ).
        let w = WebMercator.world(Coordinate(latitude: 60.1699, longitude: 24.9384))
        #expect(Int(w.x / 256 * 1024) == 582)
        #expect(Int(w.y / 256 * 1024) == 296)
    }

    @Test func coordinateRoundTripsThroughTheWorld() {
        var random = SplitMix64(seed: 1)
        for _ in 0..<1000 {
            let c = Coordinate(latitude: random.double(in: -85...85), longitude: random.double(in: -180...179.999))
            let back = WebMercator.coordinate(WebMercator.world(c))
            #expect(abs(back.latitude - c.latitude) < 1e-9)
            #expect(abs(back.longitude - c.longitude) < 1e-9)
        }
    }

    @Test func latitudesPastThePolesAreClampedToTheWorldEdge() {
        #expect(WebMercator.world(Coordinate(latitude: 89.9, longitude: 0)).y == 0)
        #expect(abs(WebMercator.world(Coordinate(latitude: -90, longitude: 0)).y - 256) < 1e-9)
        #expect(abs(WebMercator.coordinate(WorldPoint(x: 0, y: -40)).latitude - WebMercator.maxLatitude) < 1e-12)
    }

    @Test func longitudeWrapsIntoTheHalfOpenRange() {
        #expect(WebMercator.wrappedLongitude(180) == -180)
        #expect(WebMercator.wrappedLongitude(190) == -170)
        #expect(WebMercator.wrappedLongitude(-540) == -180)
        #expect(WebMercator.wrappedLongitude(359.5) == -0.5)
        #expect(WebMercator.wrappedWorldX(-1e-18) < 256)
        // Every world copy names the same place.
        let east = WebMercator.coordinate(WorldPoint(x: 256 + 64, y: 100))
        let primary = WebMercator.coordinate(WorldPoint(x: 64, y: 100))
        #expect(abs(east.longitude - primary.longitude) < 1e-12)
        #expect(abs(primary.longitude - -90) < 1e-12)
    }

    @Test func ourZoomIsMapLibresPlusOneBecauseOurTilesAre256Pixels() {
        // MapLibre's world at zoom z is 512 · 2^z px; ours at z + 1 is the same size.
        for mapLibreZoom in [0.0, 9, 19, 12.5] {
            let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: mapLibreZoom + 1, size: ViewSize(width: 10, height: 10))
            #expect(camera.worldPixelSize == 512 * exp2(mapLibreZoom))
        }
        let z10 = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 10, size: ViewSize(width: 10, height: 10))
        #expect(z10.worldPixelSize == 262_144)
    }
}
