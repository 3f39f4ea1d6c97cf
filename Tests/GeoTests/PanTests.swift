#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Geo

/// Panning keeps the place under the finger under it; the naive MapKit degree pan does not.
/// Expected figures are those of docs/MAP-ENGINE.md ("Geo"), from the reference's table B
/// (1920x1200 view, 256-px tiles).
@Suite struct PanTests {
    static let view = ViewSize(width: 1920, height: 1200)

    /// The usual iOS snippet: `center.latitude += dy / H * span.latitudeDelta`.
    static func naivePannedLatitude(_ camera: MapCamera, dy: Double) -> Double {
        camera.centerCoordinate.latitude + dy / camera.size.height * camera.span.latitudeDelta
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var latitude: Double, zoom: Double, dy: Double, exactLatitude: Double, naiveSlip: Double
        var testDescription: String { "lat \(latitude) z\(zoom) dy \(dy)" }
    }

    static let tableB: [Row] = [
        Row(latitude: 0, zoom: 4, dy: 100, exactLatitude: 8.754795, naiveSlip: -11.4),
        Row(latitude: 0, zoom: 4, dy: 300, exactLatitude: 25.482951, naiveSlip: -27.5),
        Row(latitude: 45, zoom: 4, dy: 300, exactLatitude: 60.697545, naiveSlip: 65.0),
        Row(latitude: 60, zoom: 4, dy: 100, exactLatitude: 64.111488, naiveSlip: 13.9),
        Row(latitude: 60, zoom: 4, dy: 300, exactLatitude: 70.802033, naiveSlip: 117.2),
        Row(latitude: 60, zoom: 10, dy: 300, exactLatitude: 60.205353, naiveSlip: 0.9),
        Row(latitude: 75, zoom: 4, dy: 100, exactLatitude: 77.113775, naiveSlip: 22.5),
        Row(latitude: 75, zoom: 4, dy: 300, exactLatitude: 80.499962, naiveSlip: 167.2),
        Row(latitude: 84, zoom: 10, dy: 300, exactLatitude: 84.042911, naiveSlip: 1.1),
    ]

    @Test(arguments: tableB)
    func dragMovesTheCentreExactlyWhereTheNaiveSnippetSlips(row: Row) {
        // Only the centre latitude is bounded here: at lat 75, z4 the exact pan shows space
        // past the pole, and the reference's table measures that unclamped move.
        var camera = MapCamera(
            center: Coordinate(latitude: row.latitude, longitude: 10), zoom: row.zoom, size: Self.view,
            verticalBounds: .centerLatitude)
        let grabbed = ScreenPoint(x: 700, y: 500)
        let place = camera.coordinate(at: grabbed)
        let naive = Self.naivePannedLatitude(camera, dy: row.dy)

        camera.pan(by: ScreenPoint(x: 0, y: row.dy))

        #expect(abs(camera.centerCoordinate.latitude - row.exactLatitude) < 1e-6)
        #expect(camera.screenPoint(of: place).distance(to: ScreenPoint(x: 700, y: 500 + row.dy)) < 0.01)
        // Positive slip: the naive snippet put the centre too far north.
        let slip = (WebMercator.world(camera.centerCoordinate).y
            - WebMercator.world(Coordinate(latitude: naive, longitude: 10)).y) * camera.worldScale
        #expect(abs(slip - row.naiveSlip) < 0.1)
    }

    @Test func naiveSnippetSlipsUpTo167PixelsWhileOursStaysUnderTheFinger() {
        var worstNaive = 0.0, worstOurs = 0.0
        for latitude in stride(from: -75.0, through: 75.0, by: 15) {
            var camera = MapCamera(
                center: Coordinate(latitude: latitude, longitude: 0), zoom: 4, size: Self.view,
                verticalBounds: .centerLatitude)
            let finger = ScreenPoint(x: 960, y: 600)
            let place = camera.coordinate(at: finger)
            let naive = Self.naivePannedLatitude(camera, dy: 300)
            camera.pan(by: ScreenPoint(x: 0, y: 300))
            let naiveCamera = MapCamera(
                center: Coordinate(latitude: naive, longitude: 0), zoom: 4, size: Self.view,
                verticalBounds: .centerLatitude)
            worstNaive = max(worstNaive, naiveCamera.screenPoint(of: place).distance(to: ScreenPoint(x: 960, y: 900)))
            worstOurs = max(worstOurs, camera.screenPoint(of: place).distance(to: ScreenPoint(x: 960, y: 900)))
        }
        #expect(worstNaive > 160)
        #expect(worstOurs < 0.01)
    }

    @Test func aSixtyEventDragNorthEndsWhereTheFingerSays() {
        // Reference table C, row lat 60, z6: 60 events of 20 px end at 70.8020°.
        var camera = MapCamera(center: Coordinate(latitude: 60, longitude: 24), zoom: 6, size: Self.view)
        let finger = ScreenPoint(x: 960, y: 0)
        let place = camera.coordinate(at: finger)
        for _ in 0..<60 { camera.pan(by: ScreenPoint(x: 0, y: 20)) }
        #expect(abs(camera.centerCoordinate.latitude - 70.8020) < 1e-4)
        #expect(camera.screenPoint(of: place).distance(to: ScreenPoint(x: 960, y: 1200)) < 0.01)
    }

    @Test func panAcrossTheAntimeridianKeepsThePlaceUnderTheFinger() {
        var camera = MapCamera(center: Coordinate(latitude: -17.7, longitude: 179.8), zoom: 9, size: Self.view)
        let finger = ScreenPoint(x: 1500, y: 300)
        let place = camera.coordinate(at: finger)
        var position = finger
        for _ in 0..<40 {
            let step = ScreenPoint(x: -25, y: 3)
            camera.pan(by: step)
            position = ScreenPoint(x: position.x + step.x, y: position.y + step.y)
            #expect(camera.screenPoint(of: place).distance(to: position) < 0.01)
        }
        // The centre crossed 180° and came out in the western hemisphere, wrapped:
        // 1000 px at z9 are 1000 / (256 · 2^9) · 360° = 2.7466°.
        #expect(abs(camera.centerCoordinate.longitude - (179.8 + 2.746582 - 360)) < 1e-5)
        #expect(camera.center.x >= 0 && camera.center.x < 256)
    }

    @Test func panningEastForeverWrapsTheCentre() {
        var camera = MapCamera(center: Coordinate(latitude: 10, longitude: 0), zoom: 1, size: ViewSize(width: 400, height: 300))
        for _ in 0..<1000 { camera.pan(by: ScreenPoint(x: -97.3, y: 0)) }
        #expect(camera.center.x >= 0 && camera.center.x < 256)
        let expected = WebMercator.wrappedLongitude(1000 * 97.3 / 512 * 360)
        #expect(abs(camera.centerCoordinate.longitude - expected) < 1e-6)
    }

    @Test func viewStopsAtThePoleInsteadOfShowingEmptySpace() {
        var camera = MapCamera(center: Coordinate(latitude: 60, longitude: 0), zoom: 4, size: Self.view)
        camera.pan(by: ScreenPoint(x: 0, y: 5000))
        #expect(abs(camera.coordinate(at: ScreenPoint(x: 960, y: 0)).latitude - WebMercator.maxLatitude) < 1e-9)
        #expect(abs(camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 0)).y) < 1e-9)
        camera.pan(by: ScreenPoint(x: 0, y: -100_000))
        #expect(abs(camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 256)).y - 1200) < 1e-9)
    }

    @Test func aWorldShorterThanTheViewStaysCentredVertically() {
        var camera = MapCamera(center: Coordinate(latitude: 50, longitude: 0), zoom: 1, size: ViewSize(width: 800, height: 1280))
        #expect(camera.center.y == 128)
        camera.pan(by: ScreenPoint(x: 30, y: 200))
        #expect(camera.center.y == 128)
        #expect(abs(camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 0)).y - (640 - 256)) < 1e-9)
    }

    @Test func centreLatitudeBoundStopsAtEightyFiveDegrees() {
        var camera = MapCamera(
            center: Coordinate(latitude: 80, longitude: 0), zoom: 3, size: Self.view, verticalBounds: .centerLatitude)
        camera.pan(by: ScreenPoint(x: 0, y: 10_000))
        #expect(abs(camera.centerCoordinate.latitude - WebMercator.maxLatitude) < 1e-9)
    }

    @Test func nonFiniteTranslationIsIgnored() {
        var camera = MapCamera(center: Coordinate(latitude: 10, longitude: 20), zoom: 5, size: Self.view)
        let before = camera
        camera.pan(by: ScreenPoint(x: .nan, y: 3))
        camera.pan(by: ScreenPoint(x: 1, y: .infinity))
        #expect(camera == before)
    }
}
