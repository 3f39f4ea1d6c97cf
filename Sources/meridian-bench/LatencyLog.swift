/// Reads the live client's latency log (`MERIDIAN_LATENCY_LOG`, written by
/// Sources/Wayland/LatencyProbe.swift): `input_ms commit_ms kind draw_ms present_ms event_ms
/// target_ms` per line (`present_ms` is `-` when the frame was never reported shown, `target_ms`
/// when the pacer aimed the commit at no vblank).
enum LatencyLog {
    struct Entry: Equatable {
        var input: Double
        var commit: Double
        var kind: String
        /// When the drawing of the committed frame began; the commit time when not logged.
        var drawStart: Double
        /// When the first frame showing it reached the screen (wp_presentation), if known.
        var present: Double?
        /// The input event's own time (the compositor's timestamp on our clock); the arrival
        /// when not logged.
        var event: Double
        /// The vblank the pacer aimed the commit at, if any.
        var target: Double? = nil
    }

    /// The well-formed lines of `text`; anything else (a line cut short at exit) is skipped.
    static func parse(_ text: String) -> [Entry] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count >= 3, let input = Double(f[0]), let commit = Double(f[1]) else { return nil }
            let draw = f.count >= 4 ? Double(f[3]) ?? commit : commit
            let present = f.count >= 5 ? Double(f[4]) : nil
            let event = f.count >= 6 ? Double(f[5]) ?? input : input
            let target = f.count >= 7 ? Double(f[6]) : nil
            return Entry(input: input, commit: commit, kind: String(f[2]), drawStart: draw, present: present, event: event, target: target)
        }
    }

    /// Refreshes at which input had changed but no new frame was presented: vblank `t` (on the
    /// grid of `period` through any presentation time seen) counts when some frame whose event
    /// came at least one period before `t` was first shown after `t`. Also returns how many
    /// vblanks the gesture spanned (first event to last presentation).
    static func missedRefreshes(_ entries: [Entry], period: Double) -> (missed: Int, observed: Int) {
        let shown = entries.compactMap { e in e.present.map { (event: e.event, present: $0) } }
        guard let phase = shown.first?.present, let first = shown.map(\.event).min(),
              let last = shown.map(\.present).max() else { return (0, 0) }
        let k0 = ((first - phase) / period).rounded(.up), k1 = ((last - phase) / period).rounded(.down)
        guard k1 >= k0 else { return (0, 0) }
        var missed = 0
        for k in Int(k0)...Int(k1) {
            let t = phase + Double(k) * period
            // Presentation times sit on the grid; half a period of slack absorbs rounding.
            if shown.contains(where: { $0.event + period <= t + 0.01 && $0.present > t + period / 2 }) { missed += 1 }
        }
        return (missed, Int(k1 - k0) + 1)
    }

    /// Input frames first shown a whole refresh or more after they reached the client: not at
    /// the first vblank after their arrival. Some are bound to be (those arriving closer to a
    /// vblank than a frame takes to draw); the rest waited behind a commit or for the pacer.
    /// The per-frame figure to compare two pacers by, where a row's median and p99 hang on the
    /// phase its gesture happened to get. Frames never reported shown are not counted.
    static func shownARefreshLate(_ entries: [Entry], period: Double) -> Int {
        entries.filter { e in e.present.map { $0 - e.input > period } ?? false }.count
    }
}
