import Foundation
import Glibc
import XCTest

/// Under stock phoc 0.24 (Phosh's compositor on the Librem 5 and PinePhone; wlroots 0.15),
/// headless, with the phone's screen: one 720x1440 output at scale 2, so 360x720 logical px.
/// phoc runs as root; its headless seat has no input devices, so meridian sees no keyboard.
final class PhocTests: XCTestCase {
    /// The style's building fill: map tiles are drawn (not only the water background).
    static let building = RGBA(r: 219, g: 210, b: 202)
    static let header = RGBA(r: 33, g: 51, b: 74)

    private func startPhoc() throws -> StockCompositor {
        let directory = try StockCompositor.makeRuntimeDirectory("phoc", user: nil)
        // No Xwayland: it is not needed, and as root it would make /tmp/.X11-unix 0755, where
        // cage's Xwayland (run as another uid) can then no longer make its socket.
        try "[core]\nxwayland=false\n\n[output:HEADLESS-1]\nmode=720x1440\nscale=2\n"
            .write(toFile: directory + "/phoc.ini", atomically: true, encoding: .utf8)
        return try StockCompositor(name: "phoc", runtimeDirectory: directory, user: nil,
                                   arguments: ["phoc", "-C", directory + "/phoc.ini"])
    }

    /// Meridian maps at the logical 360x720 phoc gives it and draws a 1440-px-tall buffer at
    /// scale 2 with both zoom buttons on the screen; once everything is drawn it neither
    /// commits nor wakes up.
    func testAtScaleTwoMeridianFillsThePhoneScreenWithADoubleSizeBufferAndIdlesWithoutWakeups() throws {
        let phoc = try startPhoc()
        let state = phoc.runtimeDirectory + "/state.json"
        let app = try phoc.spawnMeridian(["--state-out", state])

        // Wait until the map's tiles are on the screen (grim reads what phoc composited).
        var shot = try phoc.screenshot()
        let deadline = Date().addingTimeInterval(30)
        while shot.count(of: Self.building, tolerance: 3) < 20_000 {
            guard Date() < deadline, app.exitStatus == nil else {
                XCTFail("meridian drew no map tiles under phoc (\(app.exitStatus.map { "\($0)" } ?? "still running")): \(app.standardError.suffix(1500))")
                return
            }
            usleep(200_000)
            shot = try phoc.screenshot()
        }
        XCTAssertEqual([shot.width, shot.height], [720, 1440], "grim shows the whole output in physical px")

        // Idle: nothing more on the wire (WAYLAND_DEBUG logs every message) for a second, then
        // not one wakeup in the next one and a half.
        var size = app.standardError.utf8.count
        let quietDeadline = Date().addingTimeInterval(20)
        while true {
            usleep(1_000_000)
            let now = app.standardError.utf8.count
            if now == size { break }
            size = now
            guard Date() < quietDeadline else { XCTFail("meridian kept talking to phoc for 20 s: \(app.standardError.suffix(1500))"); break }
        }
        let switches = try contextSwitches(of: app.pid)
        usleep(1_500_000)
        XCTAssertEqual(try contextSwitches(of: app.pid), switches, "no wakeups at all while idle under phoc")
        XCTAssertEqual(app.standardError.utf8.count, size, "and no protocol traffic")

        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), String(app.standardError.suffix(2000)))
        let log = ProtocolLog(text: app.standardError)
        let configure = try XCTUnwrap(log.lines("xdg_toplevel@").first { $0.contains(".configure(") }, "phoc configured the toplevel")
        XCTAssertEqual(ProtocolLog.numbers(configure).prefix(2), [360, 720], "phoc maximizes to the logical output: \(configure)")
        let first = try XCTUnwrap(log.firstBufferSize, "meridian created a buffer")
        XCTAssertEqual([first.0, first.1], [720, 1440], "the first buffer is already 2x the logical size")
        let scaleLine = try XCTUnwrap(log.lines(".set_buffer_scale(").first, "meridian set a buffer scale")
        XCTAssertEqual(ProtocolLog.numbers(scaleLine), [2], String(scaleLine))

        let dump = try StateDump(path: state)
        XCTAssertEqual([dump.window.width, dump.window.height, dump.window.scale], [360, 720, 2])
        // phoc puts the maximized window at the output's origin: logical px times 2 are
        // screenshot px.
        XCTAssertTrue(shot.pixel(x: 10, y: 10).isClose(to: Self.header, tolerance: 3), "the page's header at the top: \(shot.pixel(x: 10, y: 10))")
        for id in ["zoomIn", "zoomOut"] {
            let frame = try XCTUnwrap(dump.target(id), "\(id) in the state dump")
            let onScreen = PixelRect(x: frame.x * 2, y: frame.y * 2, width: frame.width * 2, height: frame.height * 2)
            XCTAssertTrue(onScreen.x >= 0 && onScreen.x + onScreen.width <= 720 && onScreen.y >= 0 && onScreen.y + onScreen.height <= 1440,
                          "\(id) at \(onScreen) on the 720x1440 screen")
            XCTAssertGreaterThan(shot.count(of: .white, tolerance: 4, in: onScreen), onScreen.width * onScreen.height / 2,
                                 "\(id) is drawn there (a white button)")
        }
    }
}
