import Foundation
import Glibc
import XCTest

/// Under stock sway 1.7 and cage 0.1.4 (the kiosk compositor), headless. Both refuse to run as
/// root, so they, meridian and grim run as uid 65534 (nobody) with a runtime directory of its own.
final class SwayAndCageTests: XCTestCase {
    static let nobody: uid_t = 65534
    static let header = RGBA(r: 33, g: 51, b: 74)

    /// Polls grim until the map's tiles show (a screenshot of a surface covering the whole
    /// output can come back black or stale on wlroots 0.15; a fresh one then shows it).
    private func screenshotWithTheMap(_ compositor: StockCompositor, app: () -> ClientProcess?) throws -> Image {
        var shot = try compositor.screenshot()
        let deadline = Date().addingTimeInterval(30)
        while shot.count(of: PhocTests.building, tolerance: 3) < 20_000 {
            let client = app()
            guard Date() < deadline, client?.exitStatus == nil else {
                throw HarnessError("\(compositor.name): no map tiles on the screen after 30 s (dominant colour \(shot.dominantColour().map { "\($0)" } ?? "-"));"
                                   + " meridian: \(client?.standardError.suffix(1500) ?? "not started")\n\(compositor.name): \(compositor.log.suffix(1500))")
            }
            usleep(200_000)
            shot = try compositor.screenshot()
        }
        return shot
    }

    /// What the user sees: the page's header along the top of the output and the map's tiles
    /// inside the map's frame (the state dump's, in logical px = screenshot px at scale 1).
    private func assertThePageFills(_ shot: Image, _ dump: StateDump, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(shot.pixel(x: 8, y: 8).isClose(to: Self.header, tolerance: 3)
                      && shot.pixel(x: shot.width - 8, y: 8).isClose(to: Self.header, tolerance: 3),
                      "the header spans the top of the output: \(shot.pixel(x: 8, y: 8)) \(shot.pixel(x: shot.width - 8, y: 8))", file: file, line: line)
        let map = try XCTUnwrap(dump.mapFrame, "the map's frame in the state dump", file: file, line: line)
        let inside = shot.count(of: PhocTests.building, tolerance: 3, in: map)
        XCTAssertGreaterThan(inside, map.width * map.height / 10, "buildings drawn in the map's frame \(map)", file: file, line: line)
        XCTAssertGreaterThan(inside, shot.count(of: PhocTests.building, tolerance: 3) * 9 / 10, "and not elsewhere", file: file, line: line)
    }

    // MARK: sway

    func testUnderSwayMeridianFitsTheOutputFromItsFirstFrameAndExitsCleanly() throws {
        let directory = try StockCompositor.makeRuntimeDirectory("sway", user: Self.nobody)
        let config = directory + "/sway.conf"
        try "output HEADLESS-1 resolution 720x1280 position 0,0\ndefault_border none\nxwayland disable\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let sway = try StockCompositor(name: "sway", runtimeDirectory: directory, user: Self.nobody, arguments: ["sway", "-c", config])
        let state = directory + "/state.json"
        let app = try sway.spawnMeridian(["--state-out", state])
        let shot = try screenshotWithTheMap(sway) { app }
        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), String(app.standardError.suffix(2000)))

        // sway's first configure is 0x0 (the client chooses); meridian's default 800x1280
        // would be wider than the screen, so it chose the output's size from the start.
        let log = ProtocolLog(text: app.standardError)
        let first = try XCTUnwrap(log.firstBufferSize, "meridian created a buffer")
        XCTAssertEqual([first.0, first.1], [720, 1280], "the first buffer fits the 720x1280 output")
        let dump = try StateDump(path: state)
        XCTAssertEqual([dump.window.width, dump.window.height, dump.window.scale], [720, 1280, 1])
        XCTAssertEqual([shot.width, shot.height], [720, 1280])
        try assertThePageFills(shot, dump)
        XCTAssertNil(sway.process.poll(), "sway is still running: \(sway.log.suffix(1500))")
    }

    // MARK: cage

    func testUnderCageRotatedToPortraitMeridianFillsTheScreenAndCageEndsWithIt() throws {
        try Self.prepareXServerSocketDirectory()
        let directory = try StockCompositor.makeRuntimeDirectory("cage", user: Self.nobody)
        let state = directory + "/state.json"
        // cage runs one application and ends with it; a shell in between reports meridian's
        // pid (to signal it) and exit status (cage's own does not say it).
        let meridian = try StockCompositor.meridian(in: directory, user: Self.nobody)
        let wrapper = "WAYLAND_DEBUG=1 \"$0\" \"$@\" 2> '\(directory)/meridian.err' & echo $! > '\(directory)/pid'; wait $!; echo $? > '\(directory)/status'"
        // The headless output is 1280x720; -r turns it to portrait, 720x1280.
        let cage = try StockCompositor(name: "cage", runtimeDirectory: directory, user: Self.nobody,
                                       arguments: ["cage", "-d", "-r", "--", "/bin/sh", "-c", wrapper, meridian, "--state-out", state],
                                       environment: ["XDG_DATA_HOME": directory + "/data", "XDG_STATE_HOME": directory + "/state",
                                                     "MERIDIAN_DATA_DIR": StockCompositor.stagedDataDirectory(directory)])
        let errors = directory + "/meridian.err"
        let pidDeadline = Date().addingTimeInterval(10)
        var pid: pid_t = 0
        while pid == 0 {
            pid = pid_t((try? String(contentsOfFile: directory + "/pid", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            guard pid != 0 || (Date() < pidDeadline && cage.process.poll() == nil) else {
                XCTFail("cage did not start meridian: \(cage.log.suffix(2000))")
                return
            }
            usleep(20_000)
        }
        let shot = try screenshotWithTheMap(cage) { nil }
        XCTAssertEqual(kill(pid, SIGTERM), 0)
        // Meridian quits on SIGTERM, and cage with it.
        XCTAssertEqual(try cage.process.wait(timeout: 10), .exited(0), cage.log.suffix(2000).description)
        let status = (try? String(contentsOfFile: directory + "/status", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        XCTAssertEqual(status, "0", "meridian's exit status: \(stderr.suffix(2000))")

        let log = ProtocolLog(text: stderr)
        let mode = try XCTUnwrap(log.lines("wl_output@").first { $0.contains(".mode(") }, "cage sent the output's mode")
        XCTAssertEqual(ProtocolLog.numbers(mode).dropFirst().prefix(2), [1280, 720], "the mode stays landscape: \(mode)")
        let geometry = try XCTUnwrap(log.lines("wl_output@").first { $0.contains(".geometry(") }, "and its geometry")
        XCTAssertEqual(ProtocolLog.numbers(geometry).last, 1, "with transform 90 (WL_OUTPUT_TRANSFORM_90): \(geometry)")
        // Its first configure is 0x0: the portrait size meridian chose is the rotated output's.
        let first = try XCTUnwrap(log.firstBufferSize, "meridian created a buffer")
        XCTAssertEqual([first.0, first.1], [720, 1280], "the first buffer fits the portrait screen")
        let dump = try StateDump(path: state)
        XCTAssertEqual([dump.window.width, dump.window.height, dump.window.scale], [720, 1280, 1])
        XCTAssertEqual([shot.width, shot.height], [720, 1280], "grim shows the rotated output upright")
        try assertThePageFills(shot, dump)
    }

    /// cage 0.1.4 cannot run without Xwayland, which makes its X socket in /tmp/.X11-unix; a
    /// directory some root process made 0755 (wlroots does when Xwayland starts as root) keeps
    /// uid 65534 out. Give it the mode X servers expect (1777, as systemd-tmpfiles makes it).
    static func prepareXServerSocketDirectory() throws {
        let path = "/tmp/.X11-unix"
        var info = stat()
        if lstat(path, &info) != 0 {
            guard mkdir(path, 0o1777) == 0 || errno == EEXIST else {
                throw HarnessError("cannot make \(path): \(String(cString: strerror(errno)))")
            }
        } else if info.st_mode & 0o1777 == 0o1777 {
            return
        }
        // mkdir's mode goes through the umask; chmod's does not.
        guard chmod(path, 0o1777) == 0 else {
            throw HarnessError("cannot make \(path) mode 1777 (cage's Xwayland needs it): \(String(cString: strerror(errno)))")
        }
    }
}
