/// Reads the live client's latency log (`MERIDIAN_LATENCY_LOG`, written by
/// Sources/Wayland/LatencyProbe.swift): `input_ms commit_ms kind draw_ms` per line.
enum LatencyLog {
    struct Entry: Equatable {
        var input: Double
        var commit: Double
        var kind: String
        /// When the drawing of the committed frame began; the commit time when not logged.
        var drawStart: Double
    }

    /// The well-formed lines of `text`; anything else (a line cut short at exit) is skipped.
    static func parse(_ text: String) -> [Entry] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count >= 3, let input = Double(f[0]), let commit = Double(f[1]) else { return nil }
            let draw = f.count >= 4 ? Double(f[3]) ?? commit : commit
            return Entry(input: input, commit: commit, kind: String(f[2]), drawStart: draw)
        }
    }
}
