import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The latency suite's compositor mode: the release `meridian` filling a 1920x1200 kiosk output
/// of the test compositor, with `MERIDIAN_LATENCY_LOG` on (Sources/Wayland/LatencyProbe.swift).
/// Touch frames are injected 16 ms apart; the probe's log gives, per touch frame that changed
/// the screen, its arrival, the start of the drawing that shows it (after any wait for the
/// frame callback) and that frame's commit. The compositor's own latency and scanout are not in it.
enum LatencyUnderCompositor {
    static func run(mapFrame: (x: Double, y: Double, width: Double, height: Double)) {
        do {
            try measure(mapFrame: mapFrame)
        } catch {
            Bench.progress("latency compositor: not run: \(error)")
        }
    }

    /// Each gesture pair (there and back) is played this many times: about 240 frames a metric.
    static let rounds = 2

    /// One gesture's injection: which metric, and the monotonic ms between which its frames arrived.
    struct Window {
        var kind: String
        var start: Double
        var end: Double
        /// Commits the client made meanwhile, for input or not (tiles landing, animations).
        var commits: Int
    }

    /// Not `--fullscreen`: the kiosk compositor configures toplevels maximized and never grants
    /// fullscreen, and a window that asked for fullscreen negotiates no server-side decorations,
    /// so it would draw its own 32 px title bar above a 1920x1168 page. Maximized with server-side
    /// decorations (which the compositor grants and does not draw) is the full 1920x1200, as on a
    /// kiosk's real fullscreen output.
    static let arguments = ["--size", LatencyBench.size]

    static func measure(mapFrame: (x: Double, y: Double, width: Double, height: Double)) throws(BenchUnavailable) {
        let root = packageRoot()
        let meridian = try meridianBinary(root: root)
        let compositorBinary = try testCompositor(root: root)
        Bench.progress("latency compositor: \(compositorBinary) -W \(LatencyBench.width) -H \(LatencyBench.height) -k, "
            + "client \(meridian) \(arguments.joined(separator: " "))")
        let session = try CompositorSession(binary: compositorBinary, width: LatencyBench.width, height: LatencyBench.height)
        defer { session.stop() }
        let logPath = session.runtimeDirectory + "/latency.log"
        let clientLog = session.runtimeDirectory + "/meridian.log"
        _ = FileManager.default.createFile(atPath: clientLog, contents: nil)

        let client = Process()
        client.executableURL = URL(fileURLWithPath: meridian)
        client.arguments = arguments
        var env = session.clientEnvironment()
        env["MERIDIAN_LATENCY_LOG"] = logPath
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

        if let e = try session.send(["wait-map 10000"], timeout: 15).first { throw BenchUnavailable("meridian did not map: \(e)") }
        let settleStart = Bench.now()
        // Settled: every visible tile drawn, nothing animating, no commit for half a second.
        _ = try session.send(["wait-idle 500 30000"], timeout: 35)
        Bench.progress("latency compositor: mapped and settled in \(Bench.format(Double(Bench.now() - settleStart) / 1e6)) ms")

        var windows: [Window] = []
        let pans = LatencyGestures.pans(map: mapFrame)
        let scrolls = LatencyGestures.scrolls(width: Double(LatencyBench.width), height: Double(LatencyBench.height))
        let gestures = (0..<rounds).flatMap { _ in pans } + (0..<rounds).flatMap { _ in scrolls }
        for g in gestures {
            let before = try session.commits()
            let start = Double(Bench.now()) / 1e6
            let errors = try session.send(g.frames.flatMap(LatencyGestures.commands), timeout: 30)
            let end = Double(Bench.now()) / 1e6
            windows.append(Window(kind: g.kind, start: start, end: end, commits: try session.commits() - before))
            Bench.progress("latency compositor: \(g.kind) \(windows.count): \(g.frames.count) touch frames injected, "
                + "\(windows[windows.count - 1].commits) commits")
            if let e = errors.first { Bench.progress("latency compositor: \(g.kind): \(errors.count) commands refused, first: \(e)") }
            _ = try session.send(["wait-idle 300 20000"], timeout: 25)   // fling over, tiles in
        }

        client.terminate()   // SIGTERM: a clean exit through the loop, which flushes the probe's log
        let deadline = Date().addingTimeInterval(10)
        while client.isRunning && Date() < deadline { usleep(10_000) }
        if client.isRunning { throw BenchUnavailable("meridian did not exit on SIGTERM within 10 s") }

        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else {
            throw BenchUnavailable("meridian wrote no latency log (\(logPath)); its output: "
                + ((try? String(contentsOfFile: clientLog, encoding: .utf8)) ?? ""))
        }
        report(LatencyLog.parse(text), windows: windows, binary: meridian)
    }

    static func report(_ entries: [LatencyLog.Entry], windows: [Window], binary: String) {
        if entries.isEmpty {
            Bench.progress("latency compositor: the latency log is empty — is \(binary) older than the probe? "
                + "(swift build -c release --product meridian)")
        }
        for kind in ["pan", "scroll"] {
            let mine = entries.filter { e in
                e.kind == "touch" && windows.contains { $0.kind == kind && e.input >= $0.start && e.input <= $0.end }
            }
            guard !mine.isEmpty else {
                Bench.progress("latency compositor: \(kind): no touch frame changed the screen")
                continue
            }
            let total = mine.map { $0.commit - $0.input }
            let wait = mine.map { $0.drawStart - $0.input }
            let draw = mine.map { $0.commit - $0.drawStart }
            Bench.emit([("suite", "latency"), ("metric", "\(kind)_input_to_commit_ms"), ("size", LatencyBench.size),
                        ("mode", "compositor"), ("median", Bench.quantile(total, 0.5)), ("p90", Bench.quantile(total, 0.9)),
                        ("p99", Bench.quantile(total, 0.99)), ("runs", total.count)])
            Bench.emit([("suite", "latency"), ("metric", "\(kind)_wait_for_frame_callback_ms"), ("size", LatencyBench.size),
                        ("mode", "compositor"), ("median", Bench.quantile(wait, 0.5)), ("p90", Bench.quantile(wait, 0.9)),
                        ("p99", Bench.quantile(wait, 0.99)), ("runs", wait.count)])
            Bench.emit([("suite", "latency"), ("metric", "\(kind)_draw_to_commit_ms"), ("size", LatencyBench.size),
                        ("mode", "compositor"), ("median", Bench.quantile(draw, 0.5)), ("p90", Bench.quantile(draw, 0.9)),
                        ("p99", Bench.quantile(draw, 0.99)), ("runs", draw.count)])
            let frames = Set(mine.map(\.commit)).count
            let allCommits = windows.filter { $0.kind == kind }.reduce(0) { $0 + $1.commits }
            let waited = wait.filter { $0 > 1 }.count
            Bench.progress("latency compositor: \(kind): \(mine.count) touch frames shown by \(frames) commits, "
                + "\(allCommits) commits in all while injecting; \(waited) frames waited > 1 ms for a frame callback")
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
    static func testCompositor(root: String) throws(BenchUnavailable) -> String {
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
