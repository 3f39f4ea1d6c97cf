import Glibc
import Input

/// Measures input-to-commit and input-to-present latency in the live client: when
/// `MERIDIAN_LATENCY_LOG=/path` is set, every input frame that changes what the app shows is
/// remembered with its arrival time, and the first commit that shows it writes one line:
///
///     input_ms commit_ms kind draw_ms present_ms event_ms target_ms
///
/// (monotonic milliseconds: the frame's arrival in the Wayland layer, the `wl_surface.commit`
/// of the first frame that shows it, `touch`/`pointer`/`cancel`/`key`/`touchpad`, when that
/// frame began drawing, so the wait and the drawing can be told apart; with `wp_presentation`
/// the time that frame reached the screen, `-` without; and the input event's own timestamp
/// from the compositor, mapped onto our clock; the vblank the frame's pacer aimed that commit at,
/// `-` when it aimed at none). With presentation feedback the line is written
/// when the feedback comes; a commit the compositor discarded hands its frames to the next one.
/// `meridian-bench latency` reads it. Off (nil) unless the variable is set, so the loop pays
/// one nil check per frame and per commit. With `MERIDIAN_LATENCY_MOTION=1` a commit that shows
/// no new input (a glide, a bounce, an animation, tiles landing) writes a line of kind `motion`
/// too, its input and event times being the start of its drawing.
final class LatencyProbe {
    private let file: UnsafeMutablePointer<FILE>
    /// Frames waiting for the commit that first shows them: arrival time and kind.
    private var waiting: [Waiting] = []
    private var drawStart: Double?
    /// Commits waiting for presentation feedback, oldest first, with the frames they show.
    private var inFlight: [(sequence: UInt64, commit: Double, draw: Double, target: Double?, frames: [Waiting])] = []
    /// Commits that show no new input are logged too (kind `motion`).
    let logsMotion: Bool

    private struct Waiting {
        var arrival: Double
        var event: Double
        var kind: String
    }

    /// The probe the environment asks for, or nil. A log that cannot be opened is said once on
    /// stderr and leaves the probe off: measuring must never stop the app.
    static func fromEnvironment() -> LatencyProbe? {
        guard let value = getenv("MERIDIAN_LATENCY_LOG") else { return nil }
        let path = String(cString: value)
        guard !path.isEmpty else { return nil }
        let motion = getenv("MERIDIAN_LATENCY_MOTION").map { String(cString: $0) == "1" } ?? false
        guard let probe = LatencyProbe(path: path, logsMotion: motion) else {
            printError("meridian: cannot write the latency log \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        return probe
    }

    /// Opens (truncates) the log at `path`; nil when it cannot be written.
    init?(path: String, logsMotion: Bool = false) {
        guard let f = fopen(path, "w") else { return nil }
        file = f
        self.logsMotion = logsMotion
    }

    deinit { fclose(file) }

    /// `frame` arrived at `arrival` and has been handled; `visible` says whether the app now has
    /// something to draw. Frames that change nothing on screen are shown by no commit, so
    /// they are not waited for.
    func delivered(_ frame: InputFrame, at arrival: Double, visible: Bool) {
        guard visible else { return }
        waiting.append(Waiting(arrival: arrival, event: frame.time, kind: LatencyProbe.kind(of: frame)))
    }

    /// The loop starts drawing a frame (after any wait for the frame callback).
    func drawing(at time: Double) { drawStart = time }

    /// The frame drawn since `drawing` was committed at `time`: it is the first to show every
    /// frame waiting. `sequence` is its presentation-feedback number, nil without feedback;
    /// `target` the vblank the pacer aimed it at, if any.
    func committed(at time: Double, sequence: UInt64? = nil, target: Double? = nil) {
        let start = drawStart ?? time
        drawStart = nil
        if waiting.isEmpty && logsMotion { waiting.append(Waiting(arrival: start, event: start, kind: "motion")) }
        if let sequence {
            inFlight.append((sequence, time, start, target, waiting))
        } else {
            for w in waiting { write(w, commit: time, draw: start, present: nil, target: target) }
        }
        waiting.removeAll(keepingCapacity: true)
    }

    /// The frame drawn since `drawing` changed nothing on screen (empty damage: no buffer was
    /// committed). The input frames waiting are already shown as well as they will be: not
    /// waited for (the lift of a one-finger scroll, which moves nothing, was otherwise counted
    /// as shown by the glide's first frame a refresh later, 23–29 ms).
    func unchanged() {
        drawStart = nil
        waiting.removeAll(keepingCapacity: true)
    }

    /// Commit `sequence` reached the screen at `time`.
    func presented(_ sequence: UInt64, at time: Double) {
        guard let i = inFlight.firstIndex(where: { $0.sequence == sequence }) else { return }
        let c = inFlight.remove(at: i)
        for w in c.frames { write(w, commit: c.commit, draw: c.draw, present: time, target: c.target) }
    }

    /// Commit `sequence` never reached the screen: its frames are shown by the next commit.
    func discarded(_ sequence: UInt64) {
        guard let i = inFlight.firstIndex(where: { $0.sequence == sequence }) else { return }
        let c = inFlight.remove(at: i)
        if i < inFlight.count {
            inFlight[i].frames.insert(contentsOf: c.frames, at: 0)
        } else {
            waiting.insert(contentsOf: c.frames, at: 0)
        }
    }

    private func write(_ w: Waiting, commit: Double, draw: Double, present: Double?, target: Double?) {
        let shown = present.map(LatencyProbe.format) ?? "-"
        let aimed = target.map(LatencyProbe.format) ?? "-"
        fputs("\(LatencyProbe.format(w.arrival)) \(LatencyProbe.format(commit)) \(w.kind) \(LatencyProbe.format(draw)) "
              + "\(shown) \(LatencyProbe.format(w.event)) \(aimed)\n", file)
    }

    /// Writes out what is buffered (at the end of the run; stdio buffers in between, so a
    /// commit costs no write system call).
    /// Commits still waiting for feedback are written with no presentation time.
    func flush() {
        for c in inFlight {
            for w in c.frames { write(w, commit: c.commit, draw: c.draw, present: nil, target: c.target) }
        }
        inFlight.removeAll()
        fflush(file)
    }

    static func kind(of frame: InputFrame) -> String {
        switch frame {
        case .touch: return "touch"
        case .touchCancel: return "cancel"
        case .pointer: return "pointer"
        case .key, .keyboardFocus: return "key"
        case .touchpad: return "touchpad"
        case .textInput: return "text-input"
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
