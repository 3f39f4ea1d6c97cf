import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Geo
import TestSupport

/// The camera's bearing: every screen <-> world mapping turns with it, and moves made at a
/// bearing keep the place under the finger, the zoom point or the turning point fixed.
@Suite struct BearingTests {
    static func randomCamera(_ random: inout SplitMix64) -> MapCamera {
        let size = ViewSize(width: random.double(in: 200...2560), height: random.double(in: 200...1600))
        return MapCamera(
            center: Coordinate(latitude: random.double(in: -70...70), longitude: random.double(in: -180...180)),
            zoom: random.double(in: 3...19), size: size, bearing: random.double(in: -720...720))
    }

    static func randomPoint(_ random: inout SplitMix64, in camera: MapCamera) -> ScreenPoint {
        ScreenPoint(x: random.double(in: 0...camera.size.width), y: random.double(in: 0...camera.size.height))
    }

    @Test func theBearingIsTheCompassDirectionThatPointsUp() {
        let helsinki = Coordinate(latitude: 60.17, longitude: 24.94)
        let size = ViewSize(width: 800, height: 600)
        let mid = ScreenPoint(x: 400, y: 300)
        // 100 px east of the centre at bearing 0.
        let flat = MapCamera(center: helsinki, zoom: 12, size: size)
        let east = flat.coordinate(at: ScreenPoint(x: 500, y: 300))
        let north = flat.coordinate(at: ScreenPoint(x: 400, y: 200))
        for (bearing, eastAt, northAt) in [
            (90.0, ScreenPoint(x: 400, y: 200), ScreenPoint(x: 300, y: 300)),   // east is up
            (180.0, ScreenPoint(x: 300, y: 300), ScreenPoint(x: 400, y: 400)),  // north is down
            (270.0, ScreenPoint(x: 400, y: 400), ScreenPoint(x: 500, y: 300)),  // west is up
        ] {
            let camera = MapCamera(center: helsinki, zoom: 12, size: size, bearing: bearing)
            #expect(camera.screenPoint(of: east).distance(to: eastAt) < 1e-6, "east at bearing \(bearing)")
            #expect(camera.screenPoint(of: north).distance(to: northAt) < 1e-6, "north at bearing \(bearing)")
            #expect(camera.screenPoint(of: helsinki).distance(to: mid) < 1e-6)
        }
        // 37°: north points up-right, 37° clockwise from up... the map turned counter-clockwise.
        let turned = MapCamera(center: helsinki, zoom: 12, size: size, bearing: 37)
        let n = turned.screenPoint(of: north)
        #expect(n.x < 400 && n.y < 300, "at bearing 37 north is up and to the left: \(n)")
    }

    @Test func theBearingWrapsIntoZeroTo360AndIgnoresNonFiniteValues() {
        var camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: ViewSize(width: 400, height: 300))
        for (set, expected) in [(-45.0, 315.0), (360, 0), (725, 5), (-720, 0), (359.5, 359.5), (-1e-20, 0)] {
            camera.bearing = set
            #expect(abs(camera.bearing - expected) < 1e-9, "bearing \(set)")
            #expect(camera.bearing >= 0 && camera.bearing < 360)
        }
        camera.bearing = 10
        camera.bearing = .nan
        camera.bearing = .infinity
        #expect(camera.bearing == 10)
    }

    @Test func screenAndWorldRoundTripAtAnyBearing() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let camera = Self.randomCamera(&random)
            let p = Self.randomPoint(&random, in: camera)
            #expect(camera.screenPoint(ofWorld: camera.worldPoint(at: p)).distance(to: p) < 1e-6)
        }
    }

    @Test func panningKeepsThePlaceUnderTheFingerAtAnyBearing() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<300 {
            var camera = Self.randomCamera(&random)
            camera.verticalBounds = .centerLatitude
            var finger = Self.randomPoint(&random, in: camera)
            let held = camera.worldPoint(at: finger)
            for _ in 0..<20 {
                let step = ScreenPoint(x: random.double(in: -60...60), y: random.double(in: -60...60))
                camera.pan(by: step)
                finger = ScreenPoint(x: finger.x + step.x, y: finger.y + step.y)
                // Stopped by the pole: the bound, not the mapping.
                if camera.center.y == 0 || camera.center.y == 256 { break }
                #expect(CameraPropertyTests.miss(camera, WebMercator.coordinate(held), finger) < 1e-5)
            }
        }
    }

    @Test func zoomAroundAPointKeepsItFixedAtAnyBearing() {
        var random = SplitMix64(seed: 13)
        for _ in 0..<300 {
            var camera = Self.randomCamera(&random)
            camera.verticalBounds = .centerLatitude
            let p = Self.randomPoint(&random, in: camera)
            let place = camera.coordinate(at: p)
            camera.setZoom(random.double(in: 3...19), around: p)
            guard camera.center.y > 0, camera.center.y < 256 else { continue }
            #expect(CameraPropertyTests.miss(camera, place, p) < 1e-5)
        }
    }

    @Test func turningAboutAPointKeepsTheWorldPointUnderItFixed() {
        var random = SplitMix64(seed: 17)
        for _ in 0..<300 {
            var camera = Self.randomCamera(&random)
            camera.verticalBounds = .centerLatitude
            let p = Self.randomPoint(&random, in: camera)
            let place = camera.coordinate(at: p)
            let other = Self.randomPoint(&random, in: camera)
            let held = camera.worldPoint(at: p), otherWorld = camera.worldPoint(at: other)
            let before = camera.bearing
            let twist = random.double(in: -400...400)
            camera.rotate(by: twist, around: p)
            guard camera.center.y > 0, camera.center.y < 256 else { continue }
            #expect(CameraPropertyTests.miss(camera, place, p) < 1e-5)
            var expected = (before - twist).truncatingRemainder(dividingBy: 360)
            if expected < 0 { expected += 360 }
            #expect(abs(camera.bearing - expected) < 1e-9 || abs(abs(camera.bearing - expected) - 360) < 1e-9)
            // Any other point turned about p clockwise by the twist, at the same distance.
            // The same world copy as before the turn (the centre's x wraps).
            let shift = ((camera.worldPoint(at: p).x - held.x) / 256).rounded() * 256
            let moved = camera.screenPoint(ofWorld: WorldPoint(x: otherWorld.x + shift, y: otherWorld.y))
            #expect(abs(moved.distance(to: p) - other.distance(to: p)) < 1e-5)
            let a0 = atan2(other.y - p.y, other.x - p.x), a1 = atan2(moved.y - p.y, moved.x - p.x)
            var turned = (a1 - a0) * 180 / .pi - twist
            turned = turned.truncatingRemainder(dividingBy: 360)
            if turned > 180 { turned -= 360 } else if turned < -180 { turned += 360 }
            if other.distance(to: p) > 1 { #expect(abs(turned) < 1e-4) }
        }
    }

    @Test func aQuarterTurnMapsWholePixelsToWholePixels() {
        for b in [0.0, 90, 180, 270] {
            let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 2, size: ViewSize(width: 512, height: 512), bearing: b)
            let tiles = camera.visibleTiles(tileZoom: 2)
            #expect(tiles.allSatisfy { $0.origin.x == $0.origin.x.rounded() && $0.origin.y == $0.origin.y.rounded() }, "bearing \(b)")
        }
    }

    /// The area of the part of the convex quad `q` inside the rectangle 0…w × 0…h.
    static func overlapArea(_ q: [ScreenPoint], width w: Double, height h: Double) -> Double {
        var poly = q
        let edges: [(ScreenPoint) -> Double] = [{ $0.x }, { w - $0.x }, { $0.y }, { h - $0.y }]
        for inside in edges {
            var out: [ScreenPoint] = []
            for i in poly.indices {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                let da = inside(a), db = inside(b)
                if da >= 0 { out.append(a) }
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    out.append(ScreenPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                }
            }
            poly = out
            if poly.isEmpty { return 0 }
        }
        var area = 0.0
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            area += a.x * b.y - b.x * a.y
        }
        return abs(area) / 2
    }

    @Test func aTurnedViewListsExactlyTheTilesItOverlaps() {
        var random = SplitMix64(seed: 19)
        for _ in 0..<60 {
            let camera = Self.randomCamera(&random)
            let z = MapCameraTileZoom.of(camera)
            let tiles = camera.visibleTiles(tileZoom: z)
            let tileWorld = 256 / Double(1 << z)
            var total = 0.0
            for t in tiles {
                let corners = [(0, 0), (1, 0), (1, 1), (0, 1)].map { i, j in
                    camera.screenPoint(ofWorld: WorldPoint(x: Double(t.unwrappedX + i) * tileWorld, y: Double(t.y + j) * tileWorld))
                }
                #expect(corners[0].distance(to: t.origin) < 1e-6)
                let area = Self.overlapArea(corners, width: camera.size.width, height: camera.size.height)
                #expect(area > 0, "tile \(t) at bearing \(camera.bearing) does not meet the view")
                total += area
            }
            // Every point of the view inside the world is covered once: the areas add up.
            if camera.worldExtent.height < 256 {
                let view = camera.size.width * camera.size.height
                #expect(abs(total - view) < 1e-6 * view, "covered \(total) of \(view) at bearing \(camera.bearing)")
            }
        }
    }

    @Test func fittingAtABearingShowsTheWholeRegion() {
        var random = SplitMix64(seed: 23)
        for _ in 0..<200 {
            var camera = Self.randomCamera(&random)
            camera.minZoom = 0
            let region = CoordinateRegion(
                center: Coordinate(latitude: random.double(in: -60...60), longitude: random.double(in: -170...170)),
                latitudeDelta: random.double(in: 0.01...20), longitudeDelta: random.double(in: 0.01...40))
            let pad = 16.0
            camera.fit(region, padding: pad)
            let c = region.center
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for (dLat, dLon) in [(-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)] {
                let p = camera.screenPoint(of: Coordinate(latitude: c.latitude + dLat * region.latitudeDelta,
                                                          longitude: c.longitude + dLon * region.longitudeDelta))
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
            let w = camera.size.width, h = camera.size.height
            guard camera.center.y > 0, camera.center.y < 256, camera.zoom > camera.minZoom, camera.zoom < camera.maxZoom else { continue }
            #expect(minX >= pad - 1e-6 && maxX <= w - pad + 1e-6 && minY >= pad - 1e-6 && maxY <= h - pad + 1e-6,
                    "region box \(minX)…\(maxX) × \(minY)…\(maxY) in \(w)×\(h) at bearing \(camera.bearing)")
            // As large as it can be: it touches the padding on one axis.
            #expect(abs(minX - pad) < 1e-6 || abs(minY - pad) < 1e-6)
        }
    }

    @Test func theSpanOfAQuarterTurnSwapsItsSides() {
        let size = ViewSize(width: 800, height: 400)
        let flat = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 8, size: size)
        let turned = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 8, size: size, bearing: 90)
        // At the equator a degree of latitude and of longitude are nearly the same px.
        #expect(abs(turned.span.longitudeDelta - flat.span.longitudeDelta / 2) < 1e-9)
        #expect(abs(turned.span.latitudeDelta - flat.span.latitudeDelta * 2) < 0.01 * flat.span.latitudeDelta)
    }

    @Test func aTurnedViewNeverShowsPastThePoles() {
        var random = SplitMix64(seed: 29)
        for _ in 0..<300 {
            var camera = Self.randomCamera(&random)
            camera.center = WorldPoint(x: camera.center.x, y: random.double(in: -10...266))
            let extent = camera.worldExtent
            guard extent.height < 256 else { continue }
            for corner in [ScreenPoint.zero, ScreenPoint(x: camera.size.width, y: 0),
                           ScreenPoint(x: 0, y: camera.size.height), ScreenPoint(x: camera.size.width, y: camera.size.height)] {
                let y = camera.worldPoint(at: corner).y
                #expect(y >= -1e-9 && y <= 256 + 1e-9, "corner \(corner) at world y \(y), bearing \(camera.bearing)")
            }
        }
    }
}

/// The tile zoom a renderer would pick (the nearest integer), without depending on Render.
enum MapCameraTileZoom {
    static func of(_ camera: MapCamera) -> Int { Int((camera.zoom + 0.5).rounded(.down)) }
}
