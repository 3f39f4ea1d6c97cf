import Glibc
import Input

/// Measures input-to-commit latency in the live client: when `MERIDIAN_LATENCY_LOG=/path` is
/// set, every input frame that changes what the app shows is remembered with its arrival time,
/// and the next commit writes one line per such frame:
///
///     input_ms commit_ms kind draw_ms
///
/// (monotonic milliseconds: the frame's arrival in the Wayland layer, the `wl_surface.commit`
/// of the first frame that shows it, `touch`/`pointer`/`cancel`/`key`/`touchpad`, and when that
/// frame began drawing, so the wait for a frame callback and the drawing can be told apart).
/// `meridian-bench latency` reads it. Off (nil) unless the variable is set, so the loop pays
/// one nil check per frame and per commit.
final class LatencyProbe {
    private let file: UnsafeMutablePointer<FILE>
    /// Frames waiting for the commit that first shows them: arrival time and kind.
    private var waiting: [(arrival: Double, kind: String)] = []
    private var drawStart: Double?

    /// The probe the environment asks for, or nil. A log that cannot be opened is said once on
    /// stderr and leaves the probe off: measuring must never stop the app.
    static func fromEnvironment() -> LatencyProbe? {
        guard let value = getenv("MERIDIAN_LATENCY_LOG") else { return nil }
        let path = String(cString: value)
        guard !path.isEmpty else { return nil }
        guard let probe = LatencyProbe(path: path) else {
            printError("meridian: cannot write the latency log \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        return probe
    }

    /// Opens (truncates) the log at `path`; nil when it cannot be written.
    init?(path: String) {
        guard let f = fopen(path, "w") else { return nil }
        file = f
    }

    deinit { fclose(file) }

    /// `frame` arrived at `arrival` and has been handled; `visible` says whether the app now has
    /// something to draw. Frames that change nothing on screen are shown by no commit, so
    /// they are not waited for.
    func delivered(_ frame: InputFrame, at arrival: Double, visible: Bool) {
        guard visible else { return }
        waiting.append((arrival, LatencyProbe.kind(of: frame)))
    }

    /// The loop starts drawing a frame (after any wait for the frame callback).
    func drawing(at time: Double) { drawStart = time }

    /// The frame drawn since `drawing` was committed at `time`: it is the first to show every
    /// frame waiting.
    func committed(at time: Double) {
        let start = drawStart ?? time
        drawStart = nil
        for w in waiting {
            fputs("\(LatencyProbe.format(w.arrival)) \(LatencyProbe.format(time)) \(w.kind) \(LatencyProbe.format(start))\n", file)
        }
        waiting.removeAll(keepingCapacity: true)
    }

    /// Writes out what is buffered (at the end of the run; stdio buffers in between, so a
    /// commit costs no write system call).
    func flush() { fflush(file) }

    static func kind(of frame: InputFrame) -> String {
        switch frame {
        case .touch: return "touch"
        case .touchCancel: return "cancel"
        case .pointer: return "pointer"
        case .key, .keyboardFocus: return "key"
        case .touchpad: return "touchpad"
        }
    }

    /// Milliseconds with three decimals (microseconds), without Foundation.
    static func format(_ ms: Double) -> String {
        let micro = Int64((ms * 1000).rounded())
        let sign = micro < 0 ? "-" : ""
        let m = abs(micro)
        let fraction = String(m % 1000)
        return sign + String(m / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
