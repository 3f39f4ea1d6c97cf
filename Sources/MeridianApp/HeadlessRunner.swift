import CCairo
import Geo
import Glibc
import Input
import Wayland

/// Runs the app with no compositor: feeds a trace at its timestamps over a virtual clock,
/// lets time run on until nothing is animating, then writes the screenshot and state dump.
public enum HeadlessRunner {
    /// How long virtual time may run on after the last event for animations to settle.
    static let settleCap = 10_000.0
    /// Animation steps while replaying, as a 60 Hz display would show them.
    static let frameInterval = 1000.0 / 60

    /// Exit status per contracts.md: 0, 2 for a bad trace or data file, 1 for an output that cannot be written.
    public static func run(_ options: Options) -> Int32 {
        guard let path = options.replay else { return 2 }
        let trace: Trace
        do {
            let text = try OutputFile.read(path)
            trace = try TraceFormat.parse(text, file: path)
        } catch let e as TraceError {
            printError("meridian: \(e)")
            return 2
        } catch {
            printError("meridian: \(error)")
            return 2
        }
        guard case .opened(let session) = DocumentSession.report(options) else { return 2 }
        guard case .loaded(let data) = MapData.load(for: options) else { return 2 }
        let core = AppCore(options: options, mapData: data, synchronousTiles: true, scale: options.scale, session: session)
        defer { core.renderer.map?.cache.shutDown() }
        replay(trace, into: core)
        core.finish()
        // The map may be drawn only for the screenshot, or not at all: what the replay read
        // is said here all the same, as the state dump's `map.errors` has it.
        core.reportTileFailures()
        do {
            if let png = options.screenshot { try writeScreenshot(core, to: png) }
            if let out = options.stateOut { try OutputFile.write(out, text: StateDump.json(core)) }
        } catch {
            printError("meridian: \(error)")
            return 1
        }
        return 0
    }

    /// Feeds every frame at its time, running timers and animations that fall due in between.
    static func replay(_ trace: Trace, into core: AppCore) {
        var now = 0.0
        var settledCamera: MapCamera?
        // Labels keep what a still map showed (LabelLayer's stability rule), so the picture
        // depends on the views the map settled at on the way. The live window places labels
        // at each of them; so does the replay, or it would settle on other labels.
        func placeLabelsIfSettled() {
            guard let map = core.renderer.map, !core.page.isMapMoving, core.page.camera != settledCamera else { return }
            let f = core.page.mapFrameInWindow
            guard f.maxY > 0, f.minY < core.page.layout.windowHeight else { return }
            settledCamera = core.page.camera
            _ = map.settledLabels(for: core.page.camera)
        }
        func run(until t: Double) {
            while true {
                var next = core.nextDeadline ?? .infinity
                if core.page.isAnimating { next = min(next, now + frameInterval) }
                guard next <= t else { break }
                now = max(now, next)
                core.advance(to: now)
                placeLabelsIfSettled()
            }
            now = max(now, t)
            core.advance(to: now)
            placeLabelsIfSettled()
        }
        placeLabelsIfSettled()
        // A trace gives keysyms; what they type is composed as the live keyboard does.
        let composer = KeyComposer()
        for var frame in trace.frames {
            if case .key(var k) = frame, k.text == nil {
                switch k.state {
                case .pressed: k.text = composer.press(keysymNamed: k.keysym)
                case .repeated: k.text = KeyComposer.text(ofKeysymNamed: k.keysym)
                case .released: break
                }
                frame = .key(k)
            }
            run(until: frame.time)
            core.handle(frame)
            placeLabelsIfSettled()
        }
        run(until: trace.endTime)
        let cap = trace.endTime + settleCap
        // Settled means no gesture is waiting on a timer and nothing moves; a hint or callout
        // still on screen stays in the picture, as a user would see it.
        while now < cap, core.page.isAnimating || core.page.gestures.nextDeadline != nil {
            var next = core.page.gestures.nextDeadline ?? .infinity
            if core.page.isAnimating { next = min(next, now + frameInterval) }
            run(until: min(max(next, now), cap))
        }
    }

    static func writeScreenshot(_ core: AppCore, to path: String) throws(OutputFile.Failure) {
        let w = Int((core.page.layout.windowWidth * core.scale).rounded())
        let h = Int((core.page.layout.windowHeight * core.scale).rounded())
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { throw OutputFile.Failure(description: "cannot allocate a \(w)x\(h) image for \(path)") }
        defer { cairo_surface_destroy(surface) }
        Canvas.draw(core, into: UnsafeMutableRawPointer(data), width: w, height: h,
                    stride: Int(cairo_image_surface_get_stride(surface)), scale: core.scale)
        cairo_surface_mark_dirty(surface)
        try OutputFile.write(path) { temporary in
            cairo_surface_write_to_png(surface, temporary) == CAIRO_STATUS_SUCCESS
        }
    }
}
