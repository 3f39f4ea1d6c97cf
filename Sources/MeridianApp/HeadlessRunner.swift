import CCairo
import Glibc
import Input
import Wayland

/// Runs the app with no compositor: feeds a trace at its timestamps over a virtual clock,
/// lets time run on until nothing is animating, then writes the screenshot and state dump.
public enum HeadlessRunner {
    /// How long virtual time may run on after the last event for animations to settle.
    static let settleCap = 10_000.0

    /// Exit status per contracts.md: 0, 2 for a bad trace, 1 for an output that cannot be written.
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
        let scene = Scene(width: Double(options.width), height: Double(options.height))
        replay(trace, into: scene)
        do {
            if let png = options.screenshot { try writeScreenshot(scene, scale: options.scale, to: png) }
            if let out = options.stateOut { try OutputFile.write(out, text: StateDump.json(scene: scene, scale: options.scale)) }
        } catch {
            printError("meridian: \(error)")
            return 1
        }
        return 0
    }

    /// Feeds every frame at its time, running timers that fall due in between.
    static func replay(_ trace: Trace, into scene: Scene) {
        var now = 0.0
        func runTimers(until t: Double) {
            while let d = scene.nextDeadline, d <= t {
                now = max(now, d)
                scene.advance(to: now)
            }
            now = t
            scene.advance(to: now)
        }
        for frame in trace.frames {
            runTimers(until: frame.time)
            scene.handle(frame)
        }
        runTimers(until: trace.endTime)
        let cap = trace.endTime + settleCap
        while let d = scene.nextDeadline, d <= cap { runTimers(until: d) }
    }

    static func writeScreenshot(_ scene: Scene, scale: Double, to path: String) throws(OutputFile.Failure) {
        let w = Int((scene.width * scale).rounded()), h = Int((scene.height * scale).rounded())
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { throw OutputFile.Failure(description: "cannot allocate a \(w)x\(h) image for \(path)") }
        defer { cairo_surface_destroy(surface) }
        _ = Canvas.draw(scene, into: UnsafeMutableRawPointer(data), width: w, height: h,
                        stride: Int(cairo_image_surface_get_stride(surface)), scale: scale)
        cairo_surface_mark_dirty(surface)
        try OutputFile.write(path) { temporary in
            cairo_surface_write_to_png(surface, temporary) == CAIRO_STATUS_SUCCESS
        }
    }
}
