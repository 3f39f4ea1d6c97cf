import Glibc
import Input
import Testing
@testable import MeridianApp
@testable import Wayland

/// Buffer-age partial redraws against full redraws: two identical apps get the same input; one
/// draws every frame whole, the other draws into three rotating buffers only what changed since
/// each buffer last showed a frame, a page scroll moving the buffer's rows first (what the live
/// loop does). Every frame must come out the same to the byte.
@Suite struct PartialRedrawTests {
    static let width = 800, height = 1280

    final class Buffer {
        let pixels: UnsafeMutableRawPointer
        var drawnFrame: UInt64?
        init() {
            pixels = .allocate(byteCount: PartialRedrawTests.width * 4 * PartialRedrawTests.height, alignment: 64)
            // Garbage, not zeros: a region the partial redraw forgets must show up as a difference.
            memset(pixels, 0x5a, PartialRedrawTests.width * 4 * PartialRedrawTests.height)
        }
        deinit { pixels.deallocate() }
    }

    func app(showTouches: Bool) throws -> LiveApp {
        var o = Options()
        o.width = Self.width
        o.height = Self.height
        o.showTouches = showTouches
        let data = try #require(MapData.shipped().data, "the shipped map data")
        let core = AppCore(options: o, mapData: data, synchronousTiles: true, scale: 1)
        let app = LiveApp(core: core, recorder: nil)
        app.resize(to: WindowGeometry(width: Self.width, height: Self.height, scale: 1))
        return app
    }

    /// Touch frames 16 ms apart: a two-finger map pan, a pin drag, a one-finger page scroll and
    /// back, a double tap that zooms (animated), then idle frames for the animation.
    func script(map: (x: Double, y: Double, w: Double, h: Double)) -> [[TouchChange]] {
        var frames: [[TouchChange]] = []
        let x = map.x + map.w * 0.3, y = map.y + map.h * 0.75
        frames.append([.down(id: 0, at: Point(x: x, y: y)), .down(id: 1, at: Point(x: x + 200, y: y))])
        // 22 steps: the two-finger pan needs 20 px (GestureConstants.twoFingerTapSlop) to begin.
        for i in 1...22 {
            let d = Double(i) * 9
            frames.append([.moved(id: 0, to: Point(x: x + d, y: y - d / 3)), .moved(id: 1, to: Point(x: x + 200 + d, y: y - d / 3))])
        }
        frames.append([.up(id: 0, at: Point(x: x + 198, y: y - 66)), .up(id: 1, at: Point(x: x + 398, y: y - 66))])
        // One finger low on the page: scroll down then back up.
        let sx = 400.0, sy = 1200.0
        frames.append([.down(id: 2, at: Point(x: sx, y: sy))])
        for i in 1...15 { frames.append([.moved(id: 2, to: Point(x: sx, y: sy - Double(i) * 25))]) }
        for i in 1...15 { frames.append([.moved(id: 2, to: Point(x: sx, y: sy - 375 + Double(i) * 25))]) }
        frames.append([.up(id: 2, at: Point(x: sx, y: sy))])
        // A page fling (lifts moving: the page glides on by itself), caught by a finger that
        // drags on, then a map fling with two fingers that lift moving.
        frames.append([.down(id: 4, at: Point(x: sx, y: sy))])
        for i in 1...6 { frames.append([.moved(id: 4, to: Point(x: sx, y: sy - Double(i) * 40))]) }
        frames.append([.up(id: 4, at: Point(x: sx, y: sy - 240))])
        frames += Array(repeating: [], count: 6)
        frames.append([.down(id: 5, at: Point(x: sx, y: 900))])
        for i in 1...8 { frames.append([.moved(id: 5, to: Point(x: sx, y: 900 + Double(i) * 30))]) }
        frames.append([.up(id: 5, at: Point(x: sx, y: 1140))])
        frames += Array(repeating: [], count: 20)
        frames.append([.down(id: 6, at: Point(x: x, y: y)), .down(id: 7, at: Point(x: x + 200, y: y))])
        for i in 1...12 {
            let d = Double(i) * 30
            frames.append([.moved(id: 6, to: Point(x: x - d, y: y)), .moved(id: 7, to: Point(x: x + 200 - d, y: y))])
        }
        frames.append([.up(id: 6, at: Point(x: x - 390, y: y)), .up(id: 7, at: Point(x: x - 190, y: y))])
        frames += Array(repeating: [], count: 10)
        // A double tap on the map: an animated zoom.
        for _ in 0..<2 {
            frames.append([.down(id: 3, at: Point(x: x, y: y))])
            frames.append([.up(id: 3, at: Point(x: x, y: y))])
        }
        return frames + Array(repeating: [], count: 30)   // let the zoom animation and fling run out
    }

    /// Frames drawn, frames drawn only in part, and of those the page scrolls copied by rows.
    func run(showTouches: Bool, buffers count: Int) throws -> (frames: Int, partial: Int, scrolls: Int) {
        let full = try app(showTouches: showTouches), partial = try app(showTouches: showTouches)
        let geometry = WindowGeometry(width: Self.width, height: Self.height, scale: 1)
        let f = full.core.page.mapFrameInWindow
        let reference = Buffer()
        let buffers = (0..<count).map { _ in Buffer() }
        var history = DamageHistory()
        var time = 1000.0, drawn = 0, partialFrames = 0, scrollFrames = 0
        let stride = Self.width * 4
        for (i, changes) in script(map: (f.minX, f.minY, f.size.width, f.size.height)).enumerated() {
            time += 16
            for a in [full, partial] {
                if !changes.isEmpty { a.handle(.touch(TouchFrame(time: time, changes: changes))) }
                a.advance(to: time)
            }
            #expect(full.needsFrame == partial.needsFrame)
            guard full.needsFrame || i == 0 else { continue }
            full.draw(into: reference.pixels, width: Self.width, height: Self.height, stride: stride, geometry: geometry, clip: nil)
            let b = buffers[drawn % count]
            drawn += 1
            let damage = partial.damage(width: Self.width, height: Self.height, geometry: geometry)
            let (frame, redraw) = history.prepare(b.pixels, width: Self.width, height: Self.height, stride: stride,
                                                  damage: damage, bufferDrawnAt: b.drawnFrame)
            if let redraw {
                partialFrames += 1
                // A scroll copied: what is redrawn is a strip and the fixed markers, not the window.
                if damage?.scroll ?? 0 != 0 && redraw.reduce(0, { $0 + $1.width * $1.height }) < Self.width * Self.height / 2 {
                    scrollFrames += 1
                }
            }
            partial.draw(into: b.pixels, width: Self.width, height: Self.height, stride: stride, geometry: geometry, clip: redraw)
            b.drawnFrame = frame
            if memcmp(b.pixels, reference.pixels, stride * Self.height) != 0 {
                var first = 0
                let p = b.pixels.assumingMemoryBound(to: UInt32.self), r = reference.pixels.assumingMemoryBound(to: UInt32.self)
                while first < Self.width * Self.height && p[first] == r[first] { first += 1 }
                Issue.record("frame \(drawn) (script step \(i)) differs first at x=\(first % Self.width) y=\(first / Self.width), redraw \(String(describing: redraw))")
                return (drawn, partialFrames, scrollFrames)
            }
        }
        return (drawn, partialFrames, scrollFrames)
    }

    @Test func threeRotatingBuffersRedrawingOnlyTheirDamageMatchFullRedrawsEveryFrame() throws {
        let r = try run(showTouches: false, buffers: 3)
        #expect(r.frames > 100)
        // The two-finger pans and the map fling damage only the map; the finger-driven page
        // scrolls (whole pixels) copy the rows and redraw the strip they expose.
        #expect(r.partial >= 40, "map-only and scroll frames redraw only in part: \(r.partial) of \(r.frames)")
        #expect(r.scrolls >= 25, "finger scrolls copy the page and draw a strip: \(r.scrolls) of \(r.frames)")
    }

    @Test func twoBuffersAlternatingMatchToo() throws {
        let r = try run(showTouches: false, buffers: 2)
        #expect(r.frames > 100)
        #expect(r.scrolls >= 25)
    }

    @Test func withTheTouchOverlayOnTheyMatchToo() throws {
        let r = try run(showTouches: true, buffers: 3)
        #expect(r.scrolls >= 25, "the markers do not stop the copy: \(r.scrolls) of \(r.frames)")
    }
}
