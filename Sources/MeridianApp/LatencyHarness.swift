import Geo
import Glibc
import Input
import Render
import Wayland

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

    /// The page at `width` x `height` logical px, buffer scale 1, over the shipped data;
    /// `exactScroll` draws it at its exact scroll offset instead of on the pixel grid.
    public init(width: Int, height: Int, exactScroll: Bool = false) throws(Unavailable) {
        let shipped = MapData.shipped()
        guard let data = shipped.data else { throw Unavailable(description: shipped.problem ?? "no map data") }
        var options = Options()
        options.width = width
        options.height = height
        core = AppCore(options: options, mapData: data, synchronousTiles: false, scale: 1, scrollOnPixelGrid: !exactScroll)
        self.width = width
        self.height = height
    }

    /// The live loop's drawing: three rotating buffers, each redrawn by buffer age.
    private lazy var live = LiveApp(core: core, recorder: nil)
    private var history = DamageHistory()
    private var buffers: [(pixels: UnsafeMutableRawPointer, drawnFrame: UInt64?)] = []
    private var nextBuffer = 0

    deinit {
        core.renderer.map?.cache.shutDown()
        for b in buffers { b.pixels.deallocate() }
    }

    /// Draws the next frame as the live loop does: into the next of three rotating buffers,
    /// only what changed since that buffer last showed a frame (a scroll's rows moved first).
    public func drawLikeTheWindow() {
        let stride = width * 4
        if buffers.count < 3 {
            let p = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
            buffers.append((p, nil))
        }
        let i = nextBuffer % buffers.count
        nextBuffer += 1
        let geometry = WindowGeometry(width: width, height: height, scale: 1)
        let damage = live.damage(width: width, height: height, geometry: geometry)
        let (frame, redraw) = history.prepare(buffers[i].pixels, width: width, height: height, stride: stride,
                                              damage: damage, bufferDrawnAt: buffers[i].drawnFrame)
        live.draw(into: buffers[i].pixels, width: width, height: height, stride: stride, geometry: geometry, clip: redraw)
        buffers[i].drawnFrame = frame
    }

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
    /// True while the page or the map moves by itself (a glide, a bounce, an animated zoom).
    public var isAnimating: Bool { core.page.isAnimating }
}
