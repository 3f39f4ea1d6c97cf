import Foundation
import Glibc
import XCTest

/// Bring-up smoke tests under stock weston 10 (headless, pixman): a second compositor
/// implementation with its own quirks — no server-side decorations, so Meridian draws its own
/// title bar; no seat at all on the headless backend.
final class WestonSmokeTests: XCTestCase {
    /// TitleBar.inactiveColor: headless weston has no seat, so nothing ever has the focus and it
    /// never sends the `activated` state.
    static let titleBar = RGBA(r: 0x6B, g: 0x73, b: 0x80)
    static let header = RGBA(r: 33, g: 51, b: 74)

    final class Weston {
        let runtimeDirectory: String
        let socket = "weston-smoke"
        let process: ChildProcess
        /// The default places file and saved views live in the run's own folder, never the user's.
        var environment: [String: String] {
            ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socket,
             "XDG_DATA_HOME": runtimeDirectory + "/data", "XDG_STATE_HOME": runtimeDirectory + "/state"]
        }

        init(width: Int = 1024, height: Int = 1024) throws {
            guard let weston = PackagePaths.which("weston") else {
                throw HarnessError("weston not found; scripts/install-deps.sh test installs it")
            }
            var template = Array("/tmp/meridian-weston-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
            runtimeDirectory = String(cString: made)
            process = try ChildProcess(
                executable: weston,
                arguments: ["--backend=headless-backend.so", "--socket=\(socket)", "--use-pixman", "--debug",
                            "--width=\(width)", "--height=\(height)", "--idle-time=0"],
                environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "PATH": "/usr/bin:/bin"],
                stdin: .null, stdout: .null, stderr: .file(runtimeDirectory + "/weston.log"))
            try process.waitForSocket(runtimeDirectory + "/" + socket, timeout: 10, interval: 10_000,
                                      log: runtimeDirectory + "/weston.log", name: "weston")
        }

        func spawn(_ executable: String, _ arguments: [String], name: String) throws -> ClientProcess {
            let base = runtimeDirectory + "/" + name
            let p = try ChildProcess(executable: executable, arguments: arguments,
                                     environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 },
                                     stdin: .null, stdout: .file(base + ".out"), stderr: .file(base + ".err"))
            return ClientProcess(process: p, stdoutPath: base + ".out", stderrPath: base + ".err")
        }

        /// A screenshot of the whole output through weston-screenshooter (needs --debug).
        func screenshot() throws -> Image {
            guard let tool = PackagePaths.which("weston-screenshooter") else { throw HarnessError("no weston-screenshooter") }
            let before = Set((try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? [])
            let shooter = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "cd '\(runtimeDirectory)' && exec '\(tool)'"],
                                           environment: environment, stdin: .null, stdout: .null, stderr: .null)
            XCTAssertEqual(try shooter.wait(timeout: 10), .exited(0))
            let after = Set((try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? [])
            guard let png = after.subtracting(before).first(where: { $0.hasSuffix(".png") }) else {
                throw HarnessError("weston-screenshooter wrote no PNG")
            }
            return try Image(contentsOfPNG: runtimeDirectory + "/" + png)
        }

        /// Screenshots until two in a row are the same: the window has stopped changing (its
        /// size, where weston put it, its tiles). The last one either way.
        func settledScreenshot(timeout: Double = 20) throws -> Image {
            var last = try screenshot()
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                usleep(100_000)   // between polls only
                let next = try screenshot()
                if next.pixels == last.pixels { return next }
                last = next
            }
            return last
        }

        /// Screenshots until the page's header shows (`pixels` of it at least), or 10 s.
        func screenshotWithThePage(pixels: Int) throws -> Image {
            var shot = try screenshot()
            let deadline = Date().addingTimeInterval(10)
            while shot.count(of: WestonSmokeTests.header, tolerance: 3) < pixels, Date() < deadline {
                usleep(100_000)   // between polls only
                shot = try screenshot()
            }
            return shot
        }

        deinit {
            process.terminate()
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }
    }

    func testMeridianMapsUnderWestonWithItsOwnTitleBarAndClosesCleanly() throws {
        let weston = try Weston()
        let state = weston.runtimeDirectory + "/state.json"
        let app = try weston.spawn(try PackagePaths.meridianExecutable(),
                                   ["--size", "400x600", "--verbose", "--state-out", state], name: "meridian")
        // weston has no event to wait on from outside: poll the screenshot until the window shows.
        var shot = try weston.screenshot()
        let deadline = Date().addingTimeInterval(10)
        while shot.count(of: Self.titleBar, tolerance: 2) < 400 * 20, Date() < deadline {
            usleep(100_000)
            shot = try weston.screenshot()
        }
        XCTAssertGreaterThanOrEqual(shot.count(of: Self.titleBar, tolerance: 2), 400 * 20,
                                    "a 400-px wide title bar is drawn (weston offers no server-side decorations)")
        XCTAssertGreaterThan(shot.count(of: Self.header, tolerance: 3), 400 * 60, "and the page's header below it")
        XCTAssertFalse(app.standardError.contains("zxdg_decoration_manager_v1"), "weston offers no decoration manager")
        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), app.standardError)
        let dump = try String(contentsOfFile: state, encoding: .utf8)
        XCTAssertTrue(dump.contains("\"window\": {\"width\": 400, \"height\": 568"), "the title bar's 32 px come off the page: \(dump)")
    }

    /// Stock weston 10 offers xdg_wm_base v3, so no configure_bounds: the default window fits
    /// a 720-px-wide output by the output's own size, and both zoom buttons are on screen (with
    /// the 800 px default they were 80 px past its right edge).
    func testOnA720PixelWideOutputTheZoomButtonsAreOnScreen() throws {
        let weston = try Weston(width: 720, height: 1280)
        let state = weston.runtimeDirectory + "/state.json"
        let app = try weston.spawn(try PackagePaths.meridianExecutable(), ["--state-out", state], name: "meridian")
        _ = try weston.screenshotWithThePage(pixels: 600 * 60)
        let shot = try weston.settledScreenshot()
        // Where weston put the window: it is taller than the output less weston's 32 px panel,
        // which covers its title bar on some runs, so the page's header (72 px at the top of
        // the content) says where the content starts.
        let header = try XCTUnwrap(shot.bounds(of: Self.header, tolerance: 3, in: PixelRect(x: 0, y: 0, width: shot.width, height: 240)),
                                   "the page's header is on screen")
        let content = (x: header.x, y: header.y + header.height - 72)
        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), app.standardError)
        let data = try Data(contentsOf: URL(fileURLWithPath: state))
        let dump = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual((dump["window"] as? [String: Any])?["width"] as? Int, 720, "the default narrowed to the output")
        let targets = dump["targets"] as? [[String: Any]] ?? []
        for id in ["zoomIn", "zoomOut"] {
            let frame = try XCTUnwrap(targets.first { $0["id"] as? String == id }?["frame"] as? [String: Int], "\(id) in the state dump")
            let onScreen = PixelRect(x: content.x + (frame["x"] ?? 0), y: content.y + (frame["y"] ?? 0),
                                     width: frame["width"] ?? 0, height: frame["height"] ?? 0)
            XCTAssertTrue(onScreen.x >= 0 && onScreen.x + onScreen.width <= shot.width
                          && onScreen.y >= 0 && onScreen.y + onScreen.height <= shot.height, "\(id) at \(onScreen) on the 720x1280 output")
            XCTAssertGreaterThan(shot.count(of: RGBA(r: 255, g: 255, b: 255), tolerance: 4, in: onScreen),
                                 onScreen.width * onScreen.height / 2, "\(id) is drawn there (a white button)")
        }
    }

    func testWestonGoingAwayEndsMeridianWithStatusOne() throws {
        let weston = try Weston()
        let app = try weston.spawn(try PackagePaths.meridianExecutable(), [], name: "meridian")
        // Gone while meridian shows its page, not while it is still starting.
        XCTAssertGreaterThan(try weston.screenshotWithThePage(pixels: 400 * 60).count(of: Self.header, tolerance: 3), 400 * 60,
                             app.standardError)
        XCTAssertNil(app.exitStatus, app.standardError)
        weston.process.signalGroup(SIGKILL)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(1))
        XCTAssertTrue(app.standardError.contains("meridian: "), app.standardError)
    }
}
