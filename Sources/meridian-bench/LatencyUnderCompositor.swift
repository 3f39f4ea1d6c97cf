import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The latency suite's compositor mode: the release `meridian` filling a 1920x1200 kiosk output
/// of the test compositor (refreshing at 60 Hz, then at 120 Hz), with `MERIDIAN_LATENCY_LOG` on
/// (Sources/Wayland/LatencyProbe.swift). Touch frames are injected 16 ms apart; the probe's log
/// gives, per touch frame that changed the screen, the event's time, its arrival, the start of
/// the drawing that shows it, that frame's commit and its presentation (the compositor's vblank,
/// from wp_presentation feedback). Scanout after the compositor's vblank is not in it.
enum LatencyUnderCompositor {
    static func run(mapFrame: (x: Double, y: Double, width: Double, height: Double)) {
        defer { printSideBySide() }
        for hz in refreshRates {
            for pacing in pacings {
                for offsets in scrollOffsets {
                    do {
                        try measure(mapFrame: mapFrame, refreshHz: hz, pacing: pacing, weston: false, scrollOffsets: offsets)
                    } catch {
                        Bench.progress("latency compositor \(hz) Hz, \(pacing) pacing, \(offsets) offsets: not run: \(error)")
                    }
                }
            }
        }
        guard ProcessInfo.processInfo.environment["MERIDIAN_LATENCY_WESTON"] != "0" else { return }
        for window in westonRepaintWindows {
            for pacing in pacings {
                do {
                    try measure(mapFrame: mapFrame, refreshHz: 60, pacing: pacing, weston: true, westonRepaintWindow: window)
                } catch {
                    Bench.progress("latency weston\(window.map { " (repaint-window \($0) ms)" } ?? ""), \(pacing) pacing: not run: \(error)")
                }
            }
        }
    }

    /// Weston's `repaint-window` (weston.ini `[core]`, ms; its default 7) for each weston run:
    /// nil runs it as installed, with no configuration file. How long before its vblank weston
    /// latches clients' commits sets most of what a client meets under it;
    /// `MERIDIAN_LATENCY_WESTON_REPAINT_WINDOW=stock,2` runs it as installed and then with a
    /// 2 ms window, to tell weston's share from the client's.
    static var westonRepaintWindows: [Int?] {
        guard let v = ProcessInfo.processInfo.environment["MERIDIAN_LATENCY_WESTON_REPAINT_WINDOW"] else { return [nil] }
        let parsed: [Int?] = v.split(separator: ",").compactMap { item in
            let t = item.trimmingCharacters(in: .whitespaces)
            if t == "stock" { return .some(nil) }
            guard let n = Int(t), (-10...1000).contains(n) else {
                Bench.progress("latency: MERIDIAN_LATENCY_WESTON_REPAINT_WINDOW: \"\(t)\" is neither stock nor a whole number of ms from -10 to 1000; skipped")
                return nil
            }
            return .some(n)
        }
        return parsed.isEmpty ? [nil] : parsed
    }

    /// Stock weston 10 (kiosk shell, pixman) nested in the test compositor with its Wayland
    /// backend: headless weston has no seat, and this is the one way to give it touch. Its output
    /// window's frame puts the nested output's origin this far into the test compositor's output
    /// (measured: a touch at 960,1000 reaches meridian at 954,973).
    static let westonOffset = (x: 6, y: 27)
    static func westonCommand(socket: String, config: String? = nil) -> String {
        "weston --backend=wayland-backend.so --use-pixman --width=\(LatencyBench.width) --height=\(LatencyBench.height) "
            + "--shell=kiosk-shell.so --socket=\(socket)" + (config.map { " --config=\($0)" } ?? "")
    }

    /// How the client paces frames: `presentation` (FramePacer, the default) or `callbacks`
    /// (frame callbacks only, as before presentation feedback). `MERIDIAN_LATENCY_PACING=both`
    /// runs each, one after the other, for a side-by-side comparison.
    static var pacings: [String] {
        switch ProcessInfo.processInfo.environment["MERIDIAN_LATENCY_PACING"] {
        case "both": return ["presentation", "callbacks"]
        case "callbacks": return ["callbacks"]
        default: return ["presentation"]
        }
    }

    /// Where the page is drawn while it scrolls: `grid` (rounded to whole pixels, the default) or
    /// `exact` (`MERIDIAN_EXACT_SCROLL=1` in the client: glide frames redraw the whole window).
    /// `MERIDIAN_LATENCY_SCROLL=both` runs each, one after the other.
    static var scrollOffsets: [String] {
        switch ProcessInfo.processInfo.environment["MERIDIAN_LATENCY_SCROLL"] {
        case "both": return ["grid", "exact"]
        case "exact": return ["exact"]
        default: return ["grid"]
        }
    }

    /// `MERIDIAN_LATENCY_REFRESH=60` (a comma list) limits the run; default 60 and 120 Hz.
    static var refreshRates: [Int] {
        guard let v = ProcessInfo.processInfo.environment["MERIDIAN_LATENCY_REFRESH"] else { return [60, 120] }
        let rates = v.split(separator: ",").compactMap { Int($0) }.filter { (1...1000).contains($0) }
        return rates.isEmpty ? [60, 120] : rates
    }

    /// Each gesture pair (there and back) is played this many times: the first round over cold
    /// tiles, the rest warm. `MERIDIAN_LATENCY_ROUNDS` overrides (1…10; the CI smoke run uses 2).
    static var rounds: Int {
        let v = ProcessInfo.processInfo.environment["MERIDIAN_LATENCY_ROUNDS"].flatMap { Int($0) } ?? 3
        return min(max(v, 1), 10)
    }

    /// One gesture's injection: which metric, and the monotonic ms between which its frames arrived.
    struct Window {
        var kind: String
        /// `cold` for the first round over the ground (tiles rasterized as they come into view),
        /// `warm` after.
        var tiles: String
        var start: Double
        var end: Double
        /// Commits the client made meanwhile, for input or not (tiles landing, animations).
        var commits: Int
        /// When the client was idle again after it (a fling's glide over, tiles in).
        var settled: Double
    }

    /// Not `--fullscreen`: the kiosk compositor configures toplevels maximized and never grants
    /// fullscreen, and a window that asked for fullscreen negotiates no server-side decorations,
    /// so it would draw its own 32 px title bar above a 1920x1168 page. Maximized with server-side
    /// decorations (which the compositor grants and does not draw) is the full 1920x1200, as on a
    /// kiosk's real fullscreen output.
    static let arguments = ["--size", LatencyBench.size]

    /// One run of the gestures under the test compositor, or (`weston`) under weston nested in
    /// it, with `westonRepaintWindow` in its weston.ini when given (weston runs only).
    static func measure(mapFrame: (x: Double, y: Double, width: Double, height: Double), refreshHz: Int,
                        pacing: String, weston: Bool, westonRepaintWindow: Int? = nil,
                        scrollOffsets: String = "grid") throws(BenchUnavailable) {
        let mode = weston ? "weston" : "compositor"
        let westonSocket = "meridian-weston-\(getpid())"
        if weston && access("/usr/bin/weston", X_OK) != 0 { throw BenchUnavailable("weston is not installed (/usr/bin/weston)") }
        var westonConfig: String?
        if weston, let window = westonRepaintWindow {
            let path = NSTemporaryDirectory() + "meridian-weston-\(getpid()).ini"
            guard FileManager.default.createFile(atPath: path, contents: Data("[core]\nrepaint-window=\(window)\n".utf8)) else {
                throw BenchUnavailable("cannot write \(path)")
            }
            westonConfig = path
        }
        defer { if let westonConfig { unlink(westonConfig) } }
        let root = packageRoot()
        let meridian = try meridianBinary(root: root)
        let compositorBinary = try testCompositor(root: root)
        Bench.progress("latency \(mode): \(compositorBinary) -W \(LatencyBench.width) -H \(LatencyBench.height) -R \(refreshHz) -k, "
            + (weston ? "in it \(westonCommand(socket: westonSocket, config: westonConfig)), " : "")
            + "client \(meridian) \(arguments.joined(separator: " ")), \(pacing) pacing")
        let session = try CompositorSession(binary: compositorBinary, width: LatencyBench.width, height: LatencyBench.height,
                                            refreshHz: refreshHz,
                                            client: weston ? "WAYLAND_DISPLAY=\(CompositorSession.socketName) "
                                                + westonCommand(socket: westonSocket, config: westonConfig) : nil)
        defer { session.stop() }
        let logPath = session.runtimeDirectory + "/latency.log"
        let clientLog = session.runtimeDirectory + "/meridian.log"
        _ = FileManager.default.createFile(atPath: clientLog, contents: nil)

        let client = Process()
        client.executableURL = URL(fileURLWithPath: meridian)
        client.arguments = arguments
        var env = session.clientEnvironment()
        env["MERIDIAN_LATENCY_LOG"] = logPath
        env["MERIDIAN_FRAME_PACING"] = pacing
        env["MERIDIAN_LATENCY_MOTION"] = "1"   // glide frames are logged too (kind motion)
        if scrollOffsets == "exact" { env["MERIDIAN_EXACT_SCROLL"] = "1" }
        if weston {
            env["WAYLAND_DISPLAY"] = westonSocket
            // Weston's own window first: meridian connects to the socket weston makes.
            if let e = try session.send(["wait-map 10000"], timeout: 15).first { throw BenchUnavailable("weston did not map: \(e)") }
        }
        if access(root + "/data/world.mbtiles", R_OK) == 0 { env["MERIDIAN_DATA_DIR"] = root + "/data" }
        client.environment = env
        let out = FileHandle(forWritingAtPath: clientLog)
        client.standardOutput = out
        client.standardError = out
        do {
            try client.run()
        } catch {
            throw BenchUnavailable("cannot start \(meridian): \(error)")
        }
        defer { if client.isRunning { kill(client.processIdentifier, SIGKILL) } }

        if !weston, let e = try session.send(["wait-map 10000"], timeout: 15).first {
            throw BenchUnavailable("meridian did not map: \(e)")
        }
        let settleStart = Bench.now()
        // Settled: every visible tile drawn, nothing animating, no commit for half a second.
        _ = try session.send(["wait-idle 500 30000"], timeout: 35)
        Bench.progress("latency compositor: mapped and settled in \(Bench.format(Double(Bench.now() - settleStart) / 1e6)) ms")

        var windows: [Window] = []
        let width = Double(LatencyBench.width), height = Double(LatencyBench.height)
        let hz = inputHz
        var gestures: [(LatencyGestures.Gesture, String)] = []
        for round in 0..<rounds {
            let tiles = round == 0 ? "cold" : "warm"
            for g in LatencyGestures.pans(map: mapFrame, hz: hz) + LatencyGestures.pinches(map: mapFrame, hz: hz)
                + LatencyGestures.scrolls(width: width, height: height, hz: hz) + LatencyGestures.flings(width: width, height: height, hz: hz) {
                gestures.append((g, tiles))
            }
        }
        // Same order every round: the pans and pinches of round 1 bring new tiles into view.
        gestures.sort { ($0.1 == "cold" ? 0 : 1, kindOrder($0.0.kind)) < ($1.1 == "cold" ? 0 : 1, kindOrder($1.0.kind)) }
        for (i, (g, tiles)) in gestures.enumerated() {
            let before = try session.commits()
            let start = Double(Bench.now()) / 1e6
            let offset = weston ? westonOffset : (x: 0, y: 0)
            // A touch panel's scan is not locked to the display's: over a gesture its frames
            // keep one phase against the vblanks (a crystal's drift is microseconds a frame),
            // a different one each gesture. `wait-idle` ends on the compositor's own polls and
            // vblanks, so each gesture starts after a pause spread over one input interval.
            let phase = "sleep \(gesturePhase(i, hz: hz))"
            let errors = try session.send([phase] + LatencyGestures.commands(g.frames, hz: hz, offset: offset), timeout: 30)
            let end = Double(Bench.now()) / 1e6
            windows.append(Window(kind: g.kind, tiles: tiles, start: start, end: end, commits: try session.commits() - before, settled: end))
            Bench.progress("latency compositor \(refreshHz) Hz: \(g.kind) (\(tiles)) \(windows.count): \(g.frames.count) touch frames injected, "
                + "\(windows[windows.count - 1].commits) commits")
            if let e = errors.first { Bench.progress("latency compositor: \(g.kind): \(errors.count) commands refused, first: \(e)") }
            _ = try session.send(["wait-idle 300 20000"], timeout: 25)   // fling over, tiles in
            windows[windows.count - 1].settled = Double(Bench.now()) / 1e6
        }

        client.terminate()   // SIGTERM: a clean exit through the loop, which flushes the probe's log
        let deadline = Date().addingTimeInterval(10)
        while client.isRunning && Date() < deadline { usleep(10_000) }
        if client.isRunning { throw BenchUnavailable("meridian did not exit on SIGTERM within 10 s") }

        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else {
            throw BenchUnavailable("meridian wrote no latency log (\(logPath)); its output: "
                + ((try? String(contentsOfFile: clientLog, encoding: .utf8)) ?? ""))
        }
        report(LatencyLog.parse(text), windows: windows, binary: meridian, mode: mode, refreshHz: refreshHz, pacing: pacing,
               scrollOffsets: scrollOffsets, westonRepaintWindow: westonRepaintWindow)
    }

    /// The pause (whole ms, 0 up to one input interval) before gesture `index`: the same
    /// spread every run (a fixed sequence, so runs compare), unrelated to the vblank grid.
    static func gesturePhase(_ index: Int, hz: Int) -> Int {
        let interval = max(1, Int(1000 / Double(hz)))
        // Golden-ratio steps cover the interval evenly whatever the number of gestures.
        let f = (Double(index) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
        return Int(f * Double(interval + 1)) % (interval + 1)
    }

    /// The touch rate of the compositor modes (`MERIDIAN_LATENCY_INPUT_HZ`, default 60).
    static let inputHz = LatencyGestures.inputHz

    /// One gesture kind's figures in one run, for the side-by-side table at the end.
    struct Row {
        var kind, tiles, mode: String
        var refreshHz: Int
        var pacing, offsets: String
        var median, p99: Double
        var missed, observed, inputFrames, commits: Int
        /// Input frames not shown at the first vblank after they reached the client.
        var late: Int
        /// The median spacing of the input frames as they reached the client (ms).
        var inputGap: Double
    }
    nonisolated(unsafe) static var rows: [Row] = []

    /// The run's figures as one markdown table on stderr, the pacings side by side (same
    /// gesture, tiles, mode and refresh on neighbouring rows).
    static func printSideBySide() {
        guard !rows.isEmpty else { return }
        let order = ["scroll": 0, "pan": 1, "pinch": 2, "fling": 3]
        let sorted = rows.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            let kx = (x.mode, x.refreshHz, order[x.kind] ?? 9, x.tiles, x.offsets), ky = (y.mode, y.refreshHz, order[y.kind] ?? 9, y.tiles, y.offsets)
            return kx != ky ? kx < ky : a.offset < b.offset
        }.map(\.element)
        var lines = ["latency: side by side, input at \(inputHz) Hz (median gap as received in brackets)",
                     "| gesture | tiles | mode | Hz | pacing | offsets | input→present median | p99 | missed / refreshes | a refresh late | input frames / commits |",
                     "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in sorted {
            lines.append("| \(r.kind) | \(r.tiles) | \(r.mode) | \(r.refreshHz) | \(r.pacing) | \(r.offsets) | \(Bench.format(r.median)) | "
                + "\(Bench.format(r.p99)) | \(r.missed) / \(r.observed) | \(r.late) | \(r.inputFrames) / \(r.commits) [\(Bench.format(r.inputGap))] |")
        }
        Bench.progress(lines.joined(separator: "\n"))
    }

    /// Pans and pinches first in each round (the ground they uncover is what makes tiles cold).
    static func kindOrder(_ kind: String) -> Int { ["pan": 0, "pinch": 1, "scroll": 2, "fling": 3][kind] ?? 4 }

    /// `westonRepaintWindow`: weston's configured repaint window, when it was given one (in the
    /// JSON as `weston_repaint_window_ms`, in the table's mode column).
    static func report(_ entries: [LatencyLog.Entry], windows: [Window], binary: String, mode: String, refreshHz: Int,
                       pacing: String, scrollOffsets: String, westonRepaintWindow: Int? = nil) {
        if entries.isEmpty {
            Bench.progress("latency compositor: the latency log is empty — is \(binary) older than the probe? "
                + "(swift build -c release --product meridian)")
        }
        let period = 1000 / Double(refreshHz)
        let base: [(String, Any)] = [("suite", "latency"), ("size", LatencyBench.size), ("mode", mode),
                                            ("refresh_hz", refreshHz), ("pacing", pacing), ("scroll_offsets", scrollOffsets),
                                            ("input_hz", inputHz)]
            + (westonRepaintWindow.map { [("weston_repaint_window_ms", $0)] } ?? [])
        let modeLabel = mode + (westonRepaintWindow.map { " (repaint-window \($0) ms)" } ?? "")
        func stats(_ v: [Double]) -> [(String, Any)] {
            [("median", Bench.quantile(v, 0.5)), ("p90", Bench.quantile(v, 0.9)), ("p99", Bench.quantile(v, 0.99)), ("runs", v.count)]
        }
        for kind in ["scroll", "pan", "pinch", "fling"] {
            for tiles in ["cold", "warm"] {
                let gestureWindows = windows.filter { $0.kind == kind && $0.tiles == tiles }
                let perGesture = gestureWindows.map { w in
                    entries.filter { $0.kind == "touch" && $0.input >= w.start && $0.input <= w.end }
                }
                let mine = perGesture.flatMap { $0 }
                guard !mine.isEmpty else {
                    Bench.progress("latency compositor \(refreshHz) Hz: \(kind) (\(tiles)): no touch frame changed the screen")
                    continue
                }
                let presented = mine.compactMap { e in e.present.map { $0 - e.event } }
                let toCommit = mine.map { $0.commit - $0.input }
                let wait = mine.map { $0.drawStart - $0.input }
                let draw = mine.map { $0.commit - $0.drawStart }
                let tag: [(String, Any)] = [("tiles", tiles)]
                if !presented.isEmpty {
                    Bench.emit(base + [("metric", "\(kind)_input_to_present_ms")] + tag + stats(presented))
                }
                var missed = 0, observed = 0
                for g in perGesture {
                    let m = LatencyLog.missedRefreshes(g, period: period)
                    missed += m.missed
                    observed += m.observed
                }
                Bench.emit(base + [("metric", "\(kind)_missed_refreshes")] + tag + [("median", missed), ("runs", observed)])
                let late = LatencyLog.shownARefreshLate(mine, period: period)
                // Count in `median`, of `runs` input frames.
                Bench.emit(base + [("metric", "\(kind)_shown_a_refresh_late")] + tag + [("median", late), ("runs", presented.count)])
                Bench.emit(base + [("metric", "\(kind)_input_to_commit_ms")] + tag + stats(toCommit))
                Bench.emit(base + [("metric", "\(kind)_wait_before_drawing_ms")] + tag + stats(wait))
                Bench.emit(base + [("metric", "\(kind)_draw_to_commit_ms")] + tag + stats(draw))
                if kind == "pan" && tiles == "warm" {
                    // The live loop's own work for a frame in which only the map moved, tiles cached.
                    Bench.emit(base + [("metric", "window_warm_pan_frame_ms")] + stats(draw))
                }
                if kind == "fling" {
                    // After the lift: the glide and the bounce, commits that show no input.
                    let glide = gestureWindows.flatMap { w in
                        entries.filter { $0.kind == "motion" && $0.drawStart > w.end && $0.drawStart <= w.settled }
                    }
                    if !glide.isEmpty {
                        let glideDraw = glide.map { $0.commit - $0.drawStart }
                        Bench.emit(base + [("metric", "fling_glide_draw_to_commit_ms")] + tag + stats(glideDraw))
                        Bench.progress("latency \(mode) \(refreshHz) Hz, \(pacing), \(scrollOffsets) offsets: fling (\(tiles)) glide: "
                            + "\(glide.count) frames, draw→commit median \(Bench.format(Bench.quantile(glideDraw, 0.5))) ms, "
                            + "p99 \(Bench.format(Bench.quantile(glideDraw, 0.99))) ms")
                    }
                }
                let frames = Set(mine.map(\.commit)).count
                let arrivals = mine.map(\.input).sorted()
                let gaps = zip(arrivals.dropFirst(), arrivals).map { $0 - $1 }.filter { $0 < 100 }
                rows.append(Row(kind: kind, tiles: tiles, mode: modeLabel, refreshHz: refreshHz, pacing: pacing, offsets: scrollOffsets,
                                median: Bench.quantile(presented, 0.5), p99: Bench.quantile(presented, 0.99),
                                missed: missed, observed: observed, inputFrames: mine.count, commits: frames, late: late,
                                inputGap: gaps.isEmpty ? .nan : Bench.quantile(gaps, 0.5)))
                let allCommits = gestureWindows.reduce(0) { $0 + $1.commits }
                Bench.progress("latency \(modeLabel) \(refreshHz) Hz, \(pacing): \(kind) (\(tiles)): \(mine.count) touch frames shown by \(frames) commits, "
                    + "\(allCommits) commits in all while injecting, \(mine.count - presented.count) with no presentation time; "
                    + "input→present median \(Bench.format(Bench.quantile(presented, 0.5))) ms, p99 \(Bench.format(Bench.quantile(presented, 0.99))) ms, "
                    + "missed \(missed) of \(observed) refreshes")
            }
        }
    }

    // MARK: finding the programs

    /// The package this bench was built from: up from the executable to Package.swift, else the
    /// working directory.
    static func packageRoot() -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        }
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir.path }
            dir = dir.deletingLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath
    }

    /// `meridian` beside this executable (the same build configuration); built when missing.
    static func meridianBinary(root: String) throws(BenchUnavailable) -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let candidate = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("meridian").path
        if access(candidate, X_OK) == 0 { return candidate }
        Bench.progress("latency compositor: \(candidate) missing; building it (swift build -c release --product meridian)")
        let status = runTool("/usr/bin/env", ["swift", "build", "-c", "release", "--product", "meridian"], in: root, timeout: 1200)
        guard status == 0, access(candidate, X_OK) == 0 else {
            throw BenchUnavailable("no release meridian binary at \(candidate) (swift build -c release --product meridian: status \(status))")
        }
        return candidate
    }

    /// The test compositor, built by scripts/build-test-compositor.sh when missing or stale.
    /// `MERIDIAN_LATENCY_COMPOSITOR=/path` runs that binary instead (another build of it, say
    /// one from an older commit, to compare under the same client).
    static func testCompositor(root: String) throws(BenchUnavailable) -> String {
        if let other = ProcessInfo.processInfo.environment["MERIDIAN_LATENCY_COMPOSITOR"], !other.isEmpty {
            guard access(other, X_OK) == 0 else { throw BenchUnavailable("MERIDIAN_LATENCY_COMPOSITOR=\(other) is not an executable") }
            return other
        }
        let binary = root + "/.build/test-compositor/meridian-test-compositor"
        let status = runTool(root + "/scripts/build-test-compositor.sh", [], in: root, timeout: 600)
        guard status == 0, access(binary, X_OK) == 0 else {
            throw BenchUnavailable("scripts/build-test-compositor.sh failed (status \(status)); no \(binary)")
        }
        return binary
    }

    /// Runs a tool to completion with its output on our stderr; its exit status, or -1.
    static func runTool(_ path: String, _ arguments: [String], in directory: String, timeout: Double) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        p.standardOutput = FileHandle.standardError
        do { try p.run() } catch { return -1 }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning {
            p.terminate()
            return -1
        }
        return p.terminationStatus
    }
}
