#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Geo

/// Zooming keeps the focal point fixed, respects the zoom limits, and `fit` shows a region.
@Suite struct ZoomTests {
    static let view = ViewSize(width: 1920, height: 1200)
    static let focal = ScreenPoint(x: 1600, y: 1000)

    @Test(arguments: [(60.0, 4.0), (60.0, 6.0), (60.0, 10.0), (75.0, 5.0), (30.0, 4.0), (-33.9, 12.5)])
    func pinchKeepsTheFocalPointFixed(latitude: Double, zoom: Double) {
        // Centre-latitude bound: zooming out to z2.6 would otherwise stop at the pole.
        var camera = MapCamera(
            center: Coordinate(latitude: latitude, longitude: 18), zoom: zoom, size: Self.view, verticalBounds: .centerLatitude)
        let place = camera.coordinate(at: Self.focal)
        camera.zoom(by: 1, around: Self.focal)
        #expect(abs(camera.zoom - (zoom + 1)) < 1e-12)
        #expect(camera.screenPoint(of: place).distance(to: Self.focal) < 0.01)
        camera.zoom(by: -2.37, around: ScreenPoint(x: 10, y: 20))
        camera.zoom(by: 2.37, around: ScreenPoint(x: 10, y: 20))
        #expect(camera.screenPoint(of: place).distance(to: Self.focal) < 0.01)
    }

    @Test func naiveDegreeSpaceFocalZoomDriftsWhereMercatorDoesNot() {
        // Reference table E, lat 60, z4 → 5: the degree-space formula drifts about 46 px.
        let camera = MapCamera(center: Coordinate(latitude: 60, longitude: 0), zoom: 4, size: Self.view)
        let focalPlace = camera.coordinate(at: Self.focal)
        let centreLatitude = camera.centerCoordinate.latitude
        let naiveLatitude = focalPlace.latitude + (centreLatitude - focalPlace.latitude) / 2
        var exact = camera
        exact.zoom(by: 1, around: Self.focal)
        let naive = MapCamera(
            center: Coordinate(latitude: naiveLatitude, longitude: exact.centerCoordinate.longitude), zoom: 5, size: Self.view)
        let drift = naive.screenPoint(of: focalPlace).y - Self.focal.y
        #expect(abs(abs(drift) - 45.8) < 0.1)
        #expect(exact.screenPoint(of: focalPlace).distance(to: Self.focal) < 1e-6)
    }

    @Test func zoomingAboutTheViewCentreWouldMoveTheFocalPoint755Pixels() {
        var camera = MapCamera(center: Coordinate(latitude: 60, longitude: 0), zoom: 4, size: Self.view)
        let place = camera.coordinate(at: Self.focal)
        camera.zoom(by: 1, around: ScreenPoint(x: 960, y: 600))
        #expect(abs(camera.screenPoint(of: place).distance(to: Self.focal) - 754.7) < 0.1)
    }

    @Test func zoomIsClampedToTheCameraLimits() {
        var camera = MapCamera(
            center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 12, size: Self.view, minZoom: 2, maxZoom: 18)
        let place = camera.coordinate(at: Self.focal)
        camera.zoom(by: 40, around: Self.focal)
        #expect(camera.zoom == 18)
        #expect(camera.screenPoint(of: place).distance(to: Self.focal) < 0.01)
        camera.setZoom(-3, around: Self.focal)
        #expect(camera.zoom == 2)
        camera.zoom = 99
        #expect(camera.zoom == 18)
        camera.zoom = .nan
        #expect(camera.zoom == 18)
        camera.maxZoom = 10
        #expect(camera.zoom == 10)
        camera.minZoom = 12
        #expect(camera.maxZoom == 12 && camera.zoom == 12)
    }

    @Test func initialZoomOutsideTheLimitsIsClamped() {
        let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 30, size: Self.view)
        #expect(camera.zoom == 22)
        #expect(abs(camera.worldScale - exp2(22)) < 1e-3)
    }

    @Test func screenAndWorldConversionsAreInverse() {
        let camera = MapCamera(center: Coordinate(latitude: 48.85, longitude: 2.35), zoom: 13.3, size: Self.view)
        let p = ScreenPoint(x: 123.25, y: 987.5)
        let back = camera.screenPoint(ofWorld: camera.worldPoint(at: p))
        #expect(back.distance(to: p) < 1e-9)
        #expect(camera.screenPoint(of: camera.centerCoordinate).distance(to: ScreenPoint(x: 960, y: 600)) < 1e-6)
    }

    @Test func spanMatchesTheVisibleExtent() {
        // Reference table A, lat 60, z6: top 65.9652°, bottom 52.7242°, span 13.2410°.
        let camera = MapCamera(center: Coordinate(latitude: 60, longitude: 0), zoom: 6, size: Self.view)
        #expect(abs(camera.span.latitudeDelta - 13.2410) < 1e-4)
        #expect(abs(camera.span.longitudeDelta - 1920.0 / (256 * 64) * 360) < 1e-9)
        let world = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0, size: Self.view)
        #expect(world.span.longitudeDelta == 360)
        #expect(abs(world.span.latitudeDelta - 2 * WebMercator.maxLatitude) < 1e-9)
    }

    @Test func fitShowsTheWholeRegionTightlyInsideThePadding() {
        var camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: Self.view)
        let region = CoordinateRegion(center: Coordinate(latitude: 60.17, longitude: 24.94), latitudeDelta: 0.05, longitudeDelta: 0.2)
        camera.fit(region, padding: 40)
        let corners = [
            Coordinate(latitude: 60.17 + 0.025, longitude: 24.94 - 0.1),
            Coordinate(latitude: 60.17 - 0.025, longitude: 24.94 + 0.1),
        ].map(camera.screenPoint(of:))
        #expect(corners.allSatisfy { $0.x >= 40 - 1e-6 && $0.x <= 1880 + 1e-6 && $0.y >= 40 - 1e-6 && $0.y <= 1160 + 1e-6 })
        // Tight: the wider-than-tall region touches the left and right padding.
        #expect(abs(corners[0].x - 40) < 1e-6 && abs(corners[1].x - 1880) < 1e-6)
        #expect(abs((corners[0].y + corners[1].y) / 2 - 600) < 1e-6)
    }

    @Test func fitARegionAcrossTheAntimeridian() {
        var camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: Self.view)
        let region = CoordinateRegion(center: Coordinate(latitude: -17, longitude: 179), latitudeDelta: 4, longitudeDelta: 6)
        camera.fit(region, padding: 0)
        let west = camera.screenPoint(of: Coordinate(latitude: -17, longitude: 176))
        let east = camera.screenPoint(of: Coordinate(latitude: -17, longitude: -178))
        #expect(west.x >= -1e-6 && east.x <= 1920 + 1e-6 && west.x < east.x)
        #expect(abs(camera.coordinate(at: ScreenPoint(x: 960, y: 600)).longitude - 179) < 1e-6)
    }

    @Test func fitWithPaddingLargerThanTheViewStillShowsTheRegion() {
        var camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: ViewSize(width: 100, height: 80))
        camera.fit(CoordinateRegion(center: Coordinate(latitude: 10, longitude: 10), latitudeDelta: 10, longitudeDelta: 10), padding: 500)
        let ne = camera.screenPoint(of: Coordinate(latitude: 15, longitude: 15))
        let sw = camera.screenPoint(of: Coordinate(latitude: 5, longitude: 5))
        #expect(ne.x <= 100 + 1e-6 && sw.x >= -1e-6 && ne.y >= -1e-6 && sw.y <= 80 + 1e-6)
    }
}
