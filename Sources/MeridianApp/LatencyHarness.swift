import Geo
import Glibc
import Input
import Render

/// The app as the live client runs it (shipped data, tiles drawn on the workers), for
/// `meridian-bench latency`: the same calls the live loop makes between an input frame arriving
/// and the commit that shows it — `handle`, then `draw` into the window's XRGB pixels.
public final class LatencyHarness {
    let core: AppCore
    public let width: Int
    public let height: Int

    /// Why the harness cannot run: the shipped map data is missing or unreadable.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The page at `width` x `height` logical px, buffer scale 1, over the shipped data.
    public init(width: Int, height: Int) throws(Unavailable) {
        let shipped = MapData.shipped()
        guard let data = shipped.data else { throw Unavailable(description: shipped.problem ?? "no map data") }
        var options = Options()
        options.width = width
        options.height = height
        core = AppCore(options: options, mapData: data, synchronousTiles: false, scale: 1)
        self.width = width
        self.height = height
    }

    deinit { core.renderer.map?.cache.shutDown() }

    public func handle(_ frame: InputFrame) { core.handle(frame) }
    public func advance(to time: Double) { core.advance(to: time) }
    public var needsFrame: Bool { core.needsFrame }

    /// Draws the window into `pixels` (XRGB8888, `stride` bytes a row), as the live loop does.
    public func draw(into pixels: UnsafeMutableRawPointer, stride: Int) {
        Canvas.draw(core, into: pixels, width: width, height: height, stride: stride, scale: 1)
    }

    /// Whether the last frame drawn showed every visible tile exactly.
    public var lastFrameComplete: Bool { core.renderer.lastFrameComplete }

    /// Waits up to `timeout` ms for the tile workers to signal finished tiles; true when some landed.
    public func waitForTiles(timeout: Int32) -> Bool {
        guard let fd = core.tileWakeupDescriptor else { return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, timeout) > 0 else { return false }
        core.tilesReady()
        return true
    }

    /// For profiling: the map renderer, the camera, and where the map sits in the window.
    public var map: MapRenderer? { core.renderer.map }
    public var camera: MapCamera { core.page.camera }
    public var isMapMoving: Bool { core.page.isMapMoving }
    public var mapOrigin: ScreenPoint {
        let f = core.page.mapFrameInWindow
        return ScreenPoint(x: f.minX, y: f.minY)
    }

    /// The map's frame in the window (x, y, width, height) and the page's scroll offset.
    public var mapFrame: (x: Double, y: Double, width: Double, height: Double) {
        let f = core.page.mapFrameInWindow
        return (f.minX, f.minY, f.size.width, f.size.height)
    }
    public var scrollY: Double { core.page.scrollY }
}
