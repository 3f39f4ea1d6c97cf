import CCairo
import Input
import MeridianApp
#if canImport(Glibc)
import Glibc
#endif

/// `meridian-bench latency`: time from a touch frame arriving to the commit of the frame that
/// shows its effect, for a page scroll and a two-finger map pan, at 1920x1200 (buffer scale 1).
///
/// - `headless`: in process, the app as the live client builds it (shipped data, tiles on the
///   workers, cache warmed first); per touch frame, `handle` + `advance` + drawing the frame as
///   the live loop does (three rotating XRGB buffers, each redrawn by buffer age: a map pan
///   redraws the map, a whole-pixel scroll moves the rows and draws the exposed strip): what the
///   loop does between receiving and committing when no frame callback is outstanding. Also the map's compositing alone, to see what dominates.
/// - `compositor`: the release `meridian` under the test compositor with `MERIDIAN_LATENCY_LOG`,
///   touch injected 16 ms apart; the figure includes waiting for the frame callback
///   (`LatencyUnderCompositor`).
enum LatencyBench {
    static let width = 1920
    static let height = 1200
    static let size = "\(width)x\(height)"
    /// Headless rounds of each gesture pair (there and back).
    static let headlessRounds = 3

    /// `MERIDIAN_LATENCY_PROFILE=pan` (or `pinch`): only the headless pans (or pinches), for a
    /// profiler (callgrind with `--toggle-collect='*drawLikeTheWindow*'` sees just those frames' drawing).
    static var profile: String? { getenv("MERIDIAN_LATENCY_PROFILE").map { String(cString: $0) } }
    static var profilesPansOnly: Bool { profile == "pan" }
    static var profilesPinchesOnly: Bool { profile == "pinch" }

    static func run() {
        var mapFrame = (x: 16.0, y: 184.0, width: 1888.0, height: 560.0)
        do {
            let harness = try LatencyHarness(width: width, height: height)
            mapFrame = harness.mapFrame
            headless(harness)
        } catch {
            Bench.progress("latency headless: not run: \(error)")
        }
        guard !profilesPansOnly && !profilesPinchesOnly else { return }
        // The same flings with the page drawn at its exact scroll offset, as before the pixel grid:
        // glide frames then redraw the whole window. Both in this run, one after the other.
        do {
            try glides(LatencyHarness(width: width, height: height), offsets: "grid")
            try glides(LatencyHarness(width: width, height: height, exactScroll: true), offsets: "exact")
        } catch {
            Bench.progress("latency headless glides: not run: \(error)")
        }
        LatencyUnderCompositor.run(mapFrame: mapFrame)
    }

    /// The frames of a page fling's glide and bounce, which no input drives: per frame `advance`
    /// and drawing as the live loop does (by buffer age; a scroll by whole pixels copied).
    /// `offsets`: `grid`, the page drawn on the pixel grid (copies), or `exact` (whole redraws).
    static func glides(_ h: LatencyHarness, offsets: String) {
        let stride = width * 4
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { pixels.deallocate() }
        var clock = 1000.0
        _ = settle(h, pixels: pixels, stride: stride, clock: &clock)
        var wall: [Double] = [], cpu: [Double] = []
        for _ in 0..<2 {
            for g in LatencyGestures.flings(width: Double(width), height: Double(height)) {
                for changes in g.frames {
                    clock += LatencyGestures.frameInterval
                    h.handle(.touch(TouchFrame(time: clock, changes: changes)))
                    h.advance(to: clock)
                    if h.needsFrame { h.drawLikeTheWindow() }
                }
                // The finger is up: the glide (and a bounce at an end) runs by itself.
                var steps = 0
                while h.isAnimating && steps < 400 {
                    steps += 1
                    clock += LatencyGestures.frameInterval
                    _ = h.waitForTiles(timeout: 0)
                    let t0 = Bench.now(), c0 = threadCPU()
                    h.advance(to: clock)
                    guard h.needsFrame else { continue }
                    h.drawLikeTheWindow()
                    wall.append(Double(Bench.now() - t0) / 1e6)
                    cpu.append(Double(threadCPU() - c0) / 1e6)
                }
                _ = settle(h, pixels: pixels, stride: stride, clock: &clock)
            }
        }
        guard !wall.isEmpty else {
            Bench.progress("latency headless glides (\(offsets)): no glide frame")
            return
        }
        Bench.progress("latency headless: fling glide frames, page drawn at \(offsets) offsets: \(wall.count) frames, "
            + "median \(Bench.format(Bench.quantile(wall, 0.5))) ms (CPU \(Bench.format(Bench.quantile(cpu, 0.5))) ms)")
        Bench.emit([("suite", "latency"), ("metric", "fling_glide_frame_ms"), ("size", size), ("mode", "headless"),
                    ("scroll_offsets", offsets), ("median", Bench.quantile(wall, 0.5)), ("p90", Bench.quantile(wall, 0.9)),
                    ("p99", Bench.quantile(wall, 0.99)), ("cpu_median", Bench.quantile(cpu, 0.5)), ("runs", wall.count)])
    }

    /// Per-frame costs of one gesture kind in the headless run.
    struct Samples {
        var wall: [Double] = []
        var cpu: [Double] = []
        var handle: [Double] = []
        var mapOnly: [Double] = []
    }

    static func headless(_ h: LatencyHarness) {
        Bench.progress("latency headless: \(size), shipped data, tiles on worker threads as live")
        let stride = width * 4
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { pixels.deallocate() }
        guard let scratch = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
              let scratchCR = cairo_create(scratch) else {
            Bench.progress("latency headless: not run: cannot allocate a cairo surface")
            return
        }
        defer { cairo_destroy(scratchCR); cairo_surface_destroy(scratch) }

        var clock = 1000.0
        let warm = settle(h, pixels: pixels, stride: stride, clock: &clock)
        Bench.progress("latency headless: cache warmed in \(Bench.format(warm)) ms (every visible tile drawn: \(h.lastFrameComplete))")

        var gestures: [LatencyGestures.Gesture] = []
        if !profilesPinchesOnly {
            for _ in 0..<headlessRounds { gestures += LatencyGestures.pans(map: h.mapFrame) }
        }
        if !profilesPansOnly {
            for _ in 0..<headlessRounds { gestures += LatencyGestures.pinches(map: h.mapFrame) }
        }
        if !profilesPansOnly && !profilesPinchesOnly {
            for _ in 0..<headlessRounds { gestures += LatencyGestures.scrolls(width: Double(width), height: Double(height)) }
        }

        var samples: [String: Samples] = [:]
        for g in gestures {
            let scrollBefore = h.scrollY
            let cameraBefore = h.camera
            var s = samples[g.kind] ?? Samples()
            for changes in g.frames {
                clock += LatencyGestures.frameInterval
                _ = h.waitForTiles(timeout: 0)   // tiles that landed meanwhile, as the loop's poll would see
                let t0 = Bench.now(), c0 = threadCPU()
                h.handle(.touch(TouchFrame(time: clock, changes: changes)))
                h.advance(to: clock)
                let t1 = Bench.now()
                guard h.needsFrame else { continue }   // nothing to show: the live loop draws nothing
                h.drawLikeTheWindow()
                let t2 = Bench.now(), c2 = threadCPU()
                s.wall.append(Double(t2 - t0) / 1e6)
                s.cpu.append(Double(c2 - c0) / 1e6)
                s.handle.append(Double(t1 - t0) / 1e6)
                // The map alone, same state, into a scratch surface: what compositing the tiles costs.
                if let map = h.map {
                    let t3 = Bench.now()
                    _ = map.draw(h.camera, into: scratchCR, at: h.mapOrigin, moving: h.isMapMoving)
                    s.mapOnly.append(Double(Bench.now() - t3) / 1e6)
                }
            }
            samples[g.kind] = s
            Bench.progress("latency headless: \(g.kind): page scrolled \(Bench.format(h.scrollY - scrollBefore)) px, "
                + "map moved: \(h.camera != cameraBefore)")
            _ = settle(h, pixels: pixels, stride: stride, clock: &clock)
        }

        // The floor under any full redraw: filling the whole window once (the page's background).
        var fills: [Double] = []
        for _ in 0..<100 {
            let t0 = Bench.now()
            cairo_set_source_rgb(scratchCR, 0.97, 0.96, 0.94)
            cairo_paint(scratchCR)
            cairo_surface_flush(scratch)
            fills.append(Double(Bench.now() - t0) / 1e6)
        }
        Bench.progress("latency headless: filling the whole \(size) window once: median \(Bench.format(Bench.quantile(fills, 0.5))) ms")
        Bench.emit([("suite", "latency"), ("metric", "window_fill_ms"), ("size", size), ("mode", "headless"),
                    ("median", Bench.quantile(fills, 0.5)), ("p90", Bench.quantile(fills, 0.9)),
                    ("p99", Bench.quantile(fills, 0.99)), ("runs", fills.count)])

        // The floor under any wl_shm redraw of the map: copying pixels already drawn (a picture
        // kept aside) into the buffer, no drawing at all. The whole window, then the map's frame
        // row by row (what a map-only pan frame writes).
        let source = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { source.deallocate() }
        memset(source, 0x5a, stride * height)
        let m = h.mapFrame
        let mx = max(0, Int(m.x)), my = max(0, Int(m.y))
        let mw = min(width - mx, Int(m.width)), mh = min(height - my, Int(m.height))
        var wholeCopies: [Double] = [], mapCopies: [Double] = []
        for _ in 0..<100 {
            let t0 = Bench.now()
            memcpy(pixels, source, stride * height)
            let t1 = Bench.now()
            for row in my..<(my + mh) {
                memcpy(pixels + row * stride + mx * 4, source + row * stride + mx * 4, mw * 4)
            }
            let t2 = Bench.now()
            wholeCopies.append(Double(t1 - t0) / 1e6)
            mapCopies.append(Double(t2 - t1) / 1e6)
        }
        Bench.progress("latency headless: copying the whole \(size) window once: median \(Bench.format(Bench.quantile(wholeCopies, 0.5))) ms; "
            + "the \(mw)x\(mh) map's rows: \(Bench.format(Bench.quantile(mapCopies, 0.5))) ms")
        for (metric, values) in [("window_copy_ms", wholeCopies), ("map_copy_ms", mapCopies)] {
            Bench.emit([("suite", "latency"), ("metric", metric), ("size", size), ("mode", "headless"),
                        ("median", Bench.quantile(values, 0.5)), ("p90", Bench.quantile(values, 0.9)),
                        ("p99", Bench.quantile(values, 0.99)), ("runs", values.count)])
        }

        for kind in ["scroll", "pan", "pinch"] {
            guard let s = samples[kind], !s.wall.isEmpty else {
                Bench.progress("latency headless: \(kind): no frame changed the screen")
                continue
            }
            Bench.emit([("suite", "latency"), ("metric", "\(kind)_input_to_commit_ms"), ("size", size), ("mode", "headless"),
                        ("median", Bench.quantile(s.wall, 0.5)), ("p90", Bench.quantile(s.wall, 0.9)),
                        ("p99", Bench.quantile(s.wall, 0.99)), ("cpu_median", Bench.quantile(s.cpu, 0.5)),
                        ("runs", s.wall.count)])
            Bench.progress("latency headless: \(kind): of the median frame, handle+advance \(Bench.format(Bench.quantile(s.handle, 0.5))) ms, "
                + "the map's compositing alone \(Bench.format(Bench.quantile(s.mapOnly, 0.5))) ms (p99 \(Bench.format(Bench.quantile(s.mapOnly, 0.99))))")
            Bench.emit([("suite", "latency"), ("metric", "\(kind)_map_composite_ms"), ("size", size), ("mode", "headless"),
                        ("median", Bench.quantile(s.mapOnly, 0.5)), ("p90", Bench.quantile(s.mapOnly, 0.9)),
                        ("p99", Bench.quantile(s.mapOnly, 0.99)), ("runs", s.mapOnly.count)])
        }
    }

    /// Lets animations run out (16 ms steps of virtual time, drawn) and the tile workers finish
    /// what is visible (wall time, drawn again as tiles land). Returns the wall ms it took.
    static func settle(_ h: LatencyHarness, pixels: UnsafeMutableRawPointer, stride: Int, clock: inout Double) -> Double {
        let start = Bench.now()
        var steps = 0
        while h.needsFrame && steps < 600 {
            clock += LatencyGestures.frameInterval
            h.advance(to: clock)
            h.draw(into: pixels, stride: stride)
            steps += 1
        }
        h.draw(into: pixels, stride: stride)
        let deadline = start + 30_000_000_000
        while !h.lastFrameComplete && Bench.now() < deadline {
            if h.waitForTiles(timeout: 200) { h.draw(into: pixels, stride: stride) }
        }
        return Double(Bench.now() - start) / 1e6
    }

    /// This thread's CPU time in nanoseconds: unlike wall time, other jobs on the machine do not stretch it.
    static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
