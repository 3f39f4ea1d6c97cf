import Testing
@testable import Geo
import TestSupport

/// Random cameras and gestures, from fixed seeds: the finger invariant holds everywhere the
/// vertical bound does not stop the map, and the camera's invariants always hold.
@Suite struct CameraPropertyTests {
    static func randomCamera(_ random: inout SplitMix64, bounds: MapCamera.VerticalBounds) -> MapCamera {
        let size = ViewSize(width: random.double(in: 200...2560), height: random.double(in: 200...1600))
        return MapCamera(
            center: Coordinate(latitude: random.double(in: -85...85), longitude: random.double(in: -180...180)),
            zoom: random.double(in: 0...20), size: size, verticalBounds: bounds)
    }

    /// The on-screen distance between where `place` is drawn and `expected`, with x taken
    /// modulo the world width: at low zoom the same place is drawn once per world copy.
    static func miss(_ camera: MapCamera, _ place: Coordinate, _ expected: ScreenPoint) -> Double {
        let p = camera.screenPoint(of: place)
        let worldWidth = camera.worldPixelSize
        var dx = (p.x - expected.x).truncatingRemainder(dividingBy: worldWidth)
        if dx > worldWidth / 2 { dx -= worldWidth } else if dx < -worldWidth / 2 { dx += worldWidth }
        let dy = p.y - expected.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// True when the view's top or bottom edge sits on the world's edge (the bound engaged).
    static func restsOnWorldEdge(_ camera: MapCamera) -> Bool {
        let top = camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 0)).y
        let bottom = camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 256)).y
        return abs(top) < 1e-6 || abs(bottom - camera.size.height) < 1e-6
            || camera.center.y == 0 || camera.center.y == 256 || camera.center.y == 128
    }

    static func checkInvariants(_ camera: MapCamera) {
        #expect(camera.center.x >= 0 && camera.center.x < 256)
        #expect(camera.zoom >= camera.minZoom && camera.zoom <= camera.maxZoom)
        switch camera.verticalBounds {
        case .centerLatitude:
            #expect(camera.center.y >= 0 && camera.center.y <= 256)
        case .viewInsideWorld:
            if camera.worldPixelSize > camera.size.height {
                #expect(camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 0)).y <= 1e-6)
                #expect(camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 256)).y >= camera.size.height - 1e-6)
            }
        }
    }

    @Test(arguments: [MapCamera.VerticalBounds.viewInsideWorld, .centerLatitude])
    func dragsKeepThePlaceUnderTheFinger(bounds: MapCamera.VerticalBounds) {
        var random = SplitMix64(seed: 42)
        var checked = 0
        for _ in 0..<300 {
            var camera = Self.randomCamera(&random, bounds: bounds)
            var finger = ScreenPoint(x: random.double(in: 0...camera.size.width), y: random.double(in: 0...camera.size.height))
            let place = camera.coordinate(at: finger)
            // Only places inside the world can be held: a finger beyond the pole holds nothing.
            let grabbedWorld = camera.worldPoint(at: finger)
            guard grabbedWorld.y > 0, grabbedWorld.y < 256 else { continue }
            for _ in 0..<30 {
                let step = ScreenPoint(x: random.double(in: -80...80), y: random.double(in: -80...80))
                camera.pan(by: step)
                finger = ScreenPoint(x: finger.x + step.x, y: finger.y + step.y)
                Self.checkInvariants(camera)
                if Self.restsOnWorldEdge(camera) { break }
                #expect(Self.miss(camera, place, finger) < 0.01)
                checked += 1
            }
        }
        #expect(checked > 3000)
    }

    @Test func pinchesKeepTheFocalPointFixed() {
        var random = SplitMix64(seed: 7)
        var checked = 0
        for _ in 0..<300 {
            var camera = Self.randomCamera(&random, bounds: .centerLatitude)
            let focal = ScreenPoint(x: random.double(in: 0...camera.size.width), y: random.double(in: 0...camera.size.height))
            let grabbedWorld = camera.worldPoint(at: focal)
            guard grabbedWorld.y > 0, grabbedWorld.y < 256 else { continue }
            let place = camera.coordinate(at: focal)
            for _ in 0..<20 {
                let before = camera.zoom
                camera.zoom(by: random.double(in: -0.5...0.5), around: focal)
                Self.checkInvariants(camera)
                // Stop when a bound moved the centre: the zoom limit or the pole.
                if camera.zoom == camera.minZoom || camera.zoom == camera.maxZoom || Self.restsOnWorldEdge(camera) { break }
                #expect(Self.miss(camera, place, focal) < 0.01, "zoom \(before) → \(camera.zoom)")
                checked += 1
            }
        }
        #expect(checked > 2000)
    }

    @Test func mixedGesturesNeverBreakTheCameraInvariants() {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<200 {
            var camera = Self.randomCamera(&random, bounds: .viewInsideWorld)
            for _ in 0..<40 {
                switch random.next() % 4 {
                case 0: camera.pan(by: ScreenPoint(x: random.double(in: -3000...3000), y: random.double(in: -3000...3000)))
                case 1: camera.zoom(by: random.double(in: -6...6), around: ScreenPoint(x: random.double(in: -100...3000), y: random.double(in: -100...2000)))
                case 2: camera.size = ViewSize(width: random.double(in: 0...3000), height: random.double(in: 0...2000))
                default:
                    let region = CoordinateRegion(
                        center: Coordinate(latitude: random.double(in: -90...90), longitude: random.double(in: -400...400)),
                        latitudeDelta: random.double(in: 0...200), longitudeDelta: random.double(in: 0...400))
                    camera.fit(region, padding: random.double(in: 0...200))
                }
                Self.checkInvariants(camera)
                let c = camera.centerCoordinate
                #expect(c.latitude.isFinite && c.longitude >= -180 && c.longitude < 180)
            }
        }
    }
}
