import Foundation
import Glibc
import XCTest

/// Under stock KWin 5.27 (`kwin_wayland --virtual`, headless, software rendering), the one
/// compositor here that offers xdg_wm_base v4 and so sends `xdg_toplevel.configure_bounds`
/// (the wlroots 0.15 test compositor offers v2; wlroots has no `set_bounds` before 0.16): the
/// default window opens at a size that fits the bounds it is given, and `--size` still wins.
final class KWinWindowFitTests: XCTestCase {
    final class KWin {
        let runtimeDirectory: String
        let socket = "meridian-kwin"
        let process: ChildProcess
        var environment: [String: String] {
            ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socket, "PATH": "/usr/bin:/bin",
             "XDG_DATA_HOME": runtimeDirectory + "/data", "XDG_STATE_HOME": runtimeDirectory + "/state"]
        }

        init(width: Int, height: Int) throws {
            guard let kwin = PackagePaths.which("kwin_wayland"), let session = PackagePaths.which("dbus-run-session") else {
                throw HarnessError("kwin_wayland or dbus-run-session not found; scripts/install-deps.sh test installs them")
            }
            var template = Array("/tmp/meridian-kwin-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
            runtimeDirectory = String(cString: made)
            // Debian ships kwin_wayland with a file capability (cap_sys_resource), which the
            // kernel refuses to exec here ("Operation not permitted"); a plain copy has none.
            let copy = runtimeDirectory + "/kwin_wayland"
            try FileManager.default.copyItem(atPath: kwin, toPath: copy)
            // Its configuration and caches go to the run's own folder, never the user's.
            process = try ChildProcess(
                executable: session,
                arguments: [copy, "--virtual", "--width", "\(width)", "--height", "\(height)",
                            "--socket", socket, "--no-lockscreen"],
                environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "PATH": "/usr/bin:/bin", "HOME": runtimeDirectory,
                              "XDG_CONFIG_HOME": runtimeDirectory + "/config", "XDG_CACHE_HOME": runtimeDirectory + "/cache"],
                stdin: .null, stdout: .null, stderr: .file(runtimeDirectory + "/kwin.log"))
            try process.waitForSocket(runtimeDirectory + "/" + socket, timeout: 30, interval: 20_000,
                                      log: runtimeDirectory + "/kwin.log", name: "KWin")
        }

        /// Runs meridian (with WAYLAND_DEBUG, so the test sees what KWin sent) until it has acked
        /// a configure and drawn, then ends it and returns its state dump and its protocol log.
        func runMeridian(_ arguments: [String]) throws -> (window: (Int, Int), log: String) {
            let base = runtimeDirectory + "/meridian"
            let state = runtimeDirectory + "/state.json"
            let p = try ChildProcess(executable: try PackagePaths.meridianExecutable(), arguments: arguments + ["--state-out", state],
                                     environment: environment.merging(["WAYLAND_DEBUG": "1"]) { $1 },
                                     stdin: .null, stdout: .file(base + ".out"), stderr: .file(base + ".err"))
            let app = ClientProcess(process: p, stdoutPath: base + ".out", stderrPath: base + ".err")
            let deadline = Date().addingTimeInterval(20)
            while !(app.standardError.contains("ack_configure(") && app.standardError.contains(".attach(wl_buffer@")) {
                guard Date() < deadline, app.exitStatus == nil else {
                    throw HarnessError("meridian drew no frame under KWin: \(app.standardError.suffix(2000))")
                }
                usleep(50_000)
            }
            usleep(500_000)   // any configure KWin sends once the window is mapped
            app.signal(SIGTERM)
            XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), String(app.standardError.suffix(2000)))
            let data = try Data(contentsOf: URL(fileURLWithPath: state))
            let dump = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            let w = dump["window"] as? [String: Any] ?? [:]
            return ((w["width"] as? Int ?? -1, w["height"] as? Int ?? -1), app.standardError)
        }

        deinit {
            process.terminate()
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }
    }

    /// The bounds in the first `configure_bounds` meridian received.
    private func bounds(in log: String) throws -> (Int, Int) {
        let line = try XCTUnwrap(log.split(separator: "\n").first { $0.contains(".configure_bounds(") },
                                 "KWin sent configure_bounds (xdg_wm_base v4)")
        let inside = line.split(separator: "(").last?.split(separator: ")").first ?? ""
        let numbers = inside.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        XCTAssertEqual(numbers.count, 2, String(line))
        return (numbers.first ?? -1, numbers.last ?? -1)
    }

    /// KWin's bounds are its output's size here (no panels): the default 800x1280 window must
    /// open at `expected` inside them.
    private func assertTheDefaultFits(output: (Int, Int), expected: (Int, Int), file: StaticString = #filePath, line: UInt = #line) throws {
        let kwin = try KWin(width: output.0, height: output.1)
        let run = try kwin.runMeridian([])
        let (bw, bh) = try bounds(in: run.log)
        XCTAssertEqual([bw, bh], [output.0, output.1], "the bounds KWin sent", file: file, line: line)
        XCTAssertEqual([run.window.0, run.window.1], [expected.0, expected.1], "the window inside them", file: file, line: line)
    }

    func testThePortraitDefaultFitsA720By1280Bound() throws {
        try assertTheDefaultFits(output: (720, 1280), expected: (720, 1280))   // 800 px narrowed
    }

    func testThePortraitDefaultFitsA1280By720Bound() throws {
        try assertTheDefaultFits(output: (1280, 720), expected: (800, 720))    // 1280 px shortened
    }

    func testAnExplicitSizeWinsOverTheBounds() throws {
        let kwin = try KWin(width: 720, height: 1280)
        let run = try kwin.runMeridian(["--size", "800x1280"])
        _ = try bounds(in: run.log)
        XCTAssertEqual(run.window.0, 800)
        XCTAssertEqual(run.window.1, 1280)
    }
}
