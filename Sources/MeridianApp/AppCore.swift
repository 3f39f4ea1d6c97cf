import CCairo
import Glibc
import Geo
import Gestures
import Input
import Render
import UI
import Wayland

/// The app both runners drive: the page, its renderer, and the touch overlay. Input in,
/// timers advanced, frames drawn on request, the state dump out.
final class AppCore {
    let page: MeridianPage
    let overlay: TouchOverlay
    let mapData: MapData?
    private let synchronousTiles: Bool
    private(set) var renderer: PageRenderer
    private(set) var scale: Double

    init(options: Options, mapData: MapData?, synchronousTiles: Bool, scale: Double) {
        page = MeridianPage(.init(width: Double(options.width), height: Double(options.height),
                                  center: options.center.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
                                      ?? mapData?.startCenter,
                                  zoom: options.zoom ?? mapData?.startZoom, showHitAreas: options.showHitAreas,
                                  allowsRotation: !options.noRotate))
        overlay = TouchOverlay(visible: options.showTouches)
        self.mapData = mapData
        self.synchronousTiles = synchronousTiles
        self.scale = scale
        renderer = PageRenderer(map: mapData?.renderer(scale: scale), synchronousTiles: synchronousTiles)
        if let title = mapData?.title { renderer.title = title }
        page.renderScale = scale
        if options.verbose || AppCore.gestureTraceRequested {
            page.gestures.trace = { line in printError("gestures: \(line)") }
        }
    }

    /// `MERIDIAN_GESTURE_TRACE=1`: print the arena trace (who asked, waited, won, and why).
    static var gestureTraceRequested: Bool {
        guard let v = getenv("MERIDIAN_GESTURE_TRACE") else { return false }
        return String(cString: v) == "1"
    }

    func handle(_ frame: InputFrame) {
        overlay.handle(frame)
        page.handle(frame)
    }

    func resize(width: Double, height: Double, scale: Double) {
        if scale != self.scale {
            // Tiles are rasterized for one scale; a new scale needs a new cache.
            renderer.map?.cache.shutDown()
            renderer = PageRenderer(map: mapData?.renderer(scale: scale), synchronousTiles: synchronousTiles)
            if let title = mapData?.title { renderer.title = title }
            self.scale = scale
            page.renderScale = scale
        }
        if width != page.layout.windowWidth || height != page.layout.windowHeight {
            page.resize(width: width, height: height)
        }
        page.invalidate()
    }

    var needsFrame: Bool { page.needsFrame || overlay.needsFrame }
    var nextDeadline: Double? { page.nextDeadline }
    func advance(to time: Double) { page.advance(to: time) }

    /// Tiles finished on the workers: draw again.
    func tilesReady() {
        if renderer.map?.cache.takeNewTiles() == true { page.invalidateMap() }
    }

    /// Tiles that could not be read (drawn from an ancestor instead), for `map.errors`.
    var tileFailures: [TileFailure] { renderer.map?.cache.errors ?? [] }

    /// Says each unreadable tile once on stderr, as it is first met.
    private func reportTileFailures() {
        for failure in renderer.map?.cache.takeNewErrors() ?? [] {
            printError("meridian: \(failure.description); drawn from a coarser zoom")
        }
    }

    var tileWakeupDescriptor: Int32? { renderer.map?.cache.readyFileDescriptor }

    /// Draws the window into `cr`, already scaled to logical px. Returns the logical region that
    /// changed since the previous frame (nil: all of it), for the compositor's damage.
    /// What the next `draw` will change (nil: everything), in logical px.
    var pendingDamage: Gestures.Rect? {
        // The page's damage, grown to cover the touch markers where they were and are now.
        guard var r = page.pendingDamage else { return nil }
        for m in overlay.damage {
            if r.size.width <= 0 || r.size.height <= 0 {
                r = m
                continue
            }
            let x0 = min(r.minX, m.minX), y0 = min(r.minY, m.minY)
            r = Gestures.Rect(x: x0, y: y0, width: max(r.maxX, m.maxX) - x0, height: max(r.maxY, m.maxY) - y0)
        }
        return r
    }

    @discardableResult
    func draw(_ cr: OpaquePointer) -> Gestures.Rect? {
        let damage = pendingDamage
        renderer.draw(page, into: cr)
        overlay.draw(cr)
        reportTileFailures()
        // Live: tiles still missing are queued; their arrival wakes the loop through the pipe.
        return damage
    }
}
