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

/// phoc nested in the test compositor (wlroots' wayland backend): the only way here to give
/// phoc's seat a real keyboard (its headless seat has none). Keyboard focus leaves meridian
/// when that keyboard goes away (phoc first releases the keys held on it) and comes back with
/// a new wl_keyboard; meridian keeps running and the keys after it act unshifted.
final class PhocKeyboardTests: XCTestCase {
    func testUnderPhocTheKeyboardCanGoAndComeBackAndKeysStillActUnshifted() throws {
        let outer = try TestCompositor(width: 720, height: 1440, kiosk: true)
        guard let phocPath = PackagePaths.which("phoc") else {
            throw HarnessError("phoc not found; scripts/install-deps.sh test installs it")
        }
        let ini = outer.runtimeDirectory + "/phoc.ini"
        try "[core]\nxwayland=false\n\n[output:WL-1]\nscale=2\n".write(toFile: ini, atomically: true, encoding: .utf8)
        let phoc = try outer.spawnClient(executable: phocPath, arguments: ["-C", ini],
                                         environment: ["WLR_BACKENDS": "wayland", "WLR_RENDERER": "pixman",
                                                       "HOME": outer.runtimeDirectory, "XDG_CONFIG_HOME": outer.runtimeDirectory + "/config"])
        // phoc's own socket, in the same runtime directory as the test compositor's. (Its
        // window maps only once it has something to draw: meridian.)
        let socketDeadline = Date().addingTimeInterval(10)
        while access(outer.runtimeDirectory + "/wayland-0", F_OK) != 0 {
            guard Date() < socketDeadline, phoc.exitStatus == nil else {
                throw HarnessError("phoc made no socket: \(phoc.standardError.suffix(2000))")
            }
            usleep(10_000)
        }
        let state = outer.runtimeDirectory + "/state.json"
        let app = try outer.spawnClient(executable: try PackagePaths.meridianExecutable(), arguments: ["--state-out", state],
                                        environment: ["WAYLAND_DISPLAY": "wayland-0", "WAYLAND_DEBUG": "1"])
        try outer.waitMap(timeout: 20)
        let enterDeadline = Date().addingTimeInterval(20)
        while ProtocolLog(text: app.standardError).lines("wl_keyboard@").filter({ $0.contains(".enter(") }).isEmpty {
            guard Date() < enterDeadline, app.exitStatus == nil else {
                throw HarnessError("meridian got no keyboard focus from phoc: \(app.standardError.suffix(2000))")
            }
            usleep(50_000)
        }
        // Each step waits until meridian's protocol log shows what phoc passed on.
        func keyboardEvents() -> [Substring] { ProtocolLog(text: app.standardError).lines("wl_keyboard@").filter { !$0.contains("->") } }
        func waitForKeyboard(_ what: String, _ seen: ([Substring]) -> Bool) throws {
            let deadline = Date().addingTimeInterval(20)
            while !seen(keyboardEvents()) {
                guard Date() < deadline, app.exitStatus == nil else {
                    throw HarnessError("meridian never got \(what) from phoc: \(app.standardError.suffix(2000))")
                }
                usleep(20_000)   // between polls only
            }
        }
        try outer.send("key 42 press")                    // Shift held...
        try waitForKeyboard("Shift's press") { $0.contains { $0.contains(".key(") && $0.hasSuffix(", 42, 1)") } }
        try outer.send("seat-caps pointer,touch")         // ...when phoc's keyboard goes: leave
        try waitForKeyboard("a leave") { $0.contains { $0.contains(".leave(") } }
        try outer.send("key 42 release")                  // released where meridian cannot see it
        try outer.send("seat-caps pointer,keyboard,touch") // the keyboard is back: enter
        try waitForKeyboard("a second enter") { $0.filter { $0.contains(".enter(") }.count >= 2 }
        try outer.send("key 57 press")                    // space: a page down, not up
        try outer.send("key 57 release")
        try waitForKeyboard("space's release") { $0.contains { $0.contains(".key(") && $0.hasSuffix(", 57, 0)") } }
        // And until the page shows it: the header (144 px at scale 2) leaves the top once the
        // page has scrolled by more than its 72 px.
        let header = RGBA(r: 33, g: 51, b: 74)
        XCTAssertFalse(try outer.screenshot { !$0.pixel(x: 10, y: 0).isClose(to: header) }.pixel(x: 10, y: 0).isClose(to: header),
                       "the page scrolled")
        XCTAssertNil(app.exitStatus, "meridian survives the leave: \(app.standardError.suffix(2000))")
        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), String(app.standardError.suffix(2000)))

        let log = ProtocolLog(text: app.standardError)
        let events = log.lines("wl_keyboard@").filter { !$0.contains("->") }
        XCTAssertGreaterThanOrEqual(events.filter { $0.contains(".leave(") }.count, 1, "phoc sent wl_keyboard.leave")
        XCTAssertGreaterThanOrEqual(events.filter { $0.contains(".enter(") }.count, 2, "and focus came back")
        let dump = try StateDump(path: state)
        let page = dump.json["page"] as? [String: Any] ?? [:]
        XCTAssertGreaterThan((page["scrollY"] as? Double) ?? 0, 72, "space after the leave scrolled down: Shift was not held over")
        XCTAssertEqual((dump.json["input"] as? [String: Int])?["keyPresses"], 2, "Shift and space reached the page")
    }
}
