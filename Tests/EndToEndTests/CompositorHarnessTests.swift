import Glibc
import XCTest

/// The test compositor itself, checked with Debian's weston demo clients: if these fail, the
/// end-to-end tests of meridian cannot be trusted either.
///
/// weston-simple-touch draws a small square under every touch point (id 0 red, 1 yellow, 2 blue)
/// on a grey 600x500 window; weston-simple-shm animates on frame callbacks.
final class CompositorHarnessTests: XCTestCase {
    private func client(_ name: String) throws -> String {
        guard let path = PackagePaths.which(name) else {
            throw HarnessError("\(name) not found; scripts/build-test-compositor.sh installs the weston package")
        }
        return path
    }

    /// A compositor with weston-simple-touch mapped at 0,0 and settled.
    private func touchClientSession() throws -> (TestCompositor, ClientProcess) {
        let compositor = try TestCompositor(width: 800, height: 600)
        let touch = try compositor.spawnClient(executable: try client("weston-simple-touch"))
        try compositor.waitMap()
        try compositor.waitIdle(quiet: 0.1)
        return (compositor, touch)
    }

    /// Injects a touch sequence and waits until the client has drawn it.
    private func touch(_ compositor: TestCompositor, _ commands: [String]) throws {
        let mark = try compositor.commits()
        for command in commands { try compositor.send(command) }
        try compositor.waitCommit(since: mark)
        try compositor.waitIdle(quiet: 0.1)
    }

    /// `wait-sync` answers only once the client has read what was sent before it: not while the
    /// client is stopped, at once when it runs again; and it refuses when there is no toplevel.
    func testWaitSyncWaitsForTheClientToReadItsEvents() throws {
        let empty = try TestCompositor()
        XCTAssertThrowsError(try empty.sync(timeout: 1)) { error in
            XCTAssertEqual((error as? TestCompositor.CommandError)?.reason, "no toplevel")
        }
        let (compositor, touch) = try touchClientSession()
        try compositor.sync()
        kill(touch.pid, SIGSTOP)
        defer { kill(touch.pid, SIGCONT) }
        try compositor.send("down 0 100 100")
        try compositor.send("frame")
        XCTAssertThrowsError(try compositor.sync(timeout: 0.5), "a stopped client cannot have read the touch") { error in
            XCTAssertTrue((error as? TestCompositor.CommandError)?.reason.hasPrefix("timeout") ?? false, "\(error)")
        }
        // The ping is still out: a new one is refused until the pong.
        XCTAssertThrowsError(try compositor.sync(timeout: 0.5))
        kill(touch.pid, SIGCONT)
        let deadline = ContinuousClock.now + .seconds(10)
        var answered = false
        while !answered, ContinuousClock.now < deadline {
            do { try compositor.sync(timeout: 1); answered = true } catch let e as TestCompositor.CommandError where e.reason.contains("outstanding") {
                try compositor.sleep(0.02)   // between polls only: the old ping's pong is on its way
            }
        }
        XCTAssertTrue(answered, "the client answers once it runs")
    }

    func testClientsSeeTheProtocolsMeridianBindsAndTheOutputScale() throws {
        let compositor = try TestCompositor(width: 640, height: 480)
        try compositor.send("output-scale 2")
        let info = try compositor.spawnClient(executable: try client("weston-info"))
        XCTAssertEqual(try info.waitForExit(timeout: 10), .exited(0), info.standardError)
        let globals = info.standardOutput
        for interface in [
            "wl_compositor", "wl_subcompositor", "wl_shm", "xdg_wm_base", "wl_seat", "wl_output",
            "wp_viewporter", "zxdg_decoration_manager_v1", "zwp_pointer_gestures_v1", "zxdg_output_manager_v1",
        ] {
            XCTAssertTrue(globals.contains("interface: '\(interface)'"), "\(interface) missing:\n\(globals)")
        }
        XCTAssertTrue(globals.contains("name: seat0"), globals)
        XCTAssertTrue(globals.contains("capabilities: pointer keyboard touch"), globals)
        XCTAssertTrue(globals.contains("scale: 2"), "wl_output carries the scale:\n\(globals)")
    }

    func testTouchesLeaveSquaresExactlyWhereTheFingersWere() throws {
        let (compositor, _) = try touchClientSession()
        let before = try compositor.screenshot()
        XCTAssertEqual(before.count(of: .red), 0, "nothing is red before any touch")
        let windowGrey = before.pixel(x: 100, y: 100)

        try touch(compositor, [
            "down 0 100 100", "down 1 300 200", "frame",
            "motion 0 140 120", "frame",
            "up 0", "up 1", "frame",
        ])
        let after = try compositor.screenshot()

        XCTAssertTrue(after.pixel(x: 100, y: 100).isClose(to: .red), "finger 0 went down at 100,100: \(after.pixel(x: 100, y: 100))")
        XCTAssertTrue(after.pixel(x: 140, y: 120).isClose(to: .red), "finger 0 moved to 140,120")
        XCTAssertTrue(after.pixel(x: 300, y: 200).isClose(to: .yellow), "finger 1 went down at 300,200")
        // Every red pixel lies near finger 0's path, every yellow one near finger 1.
        let red = try XCTUnwrap(after.bounds(of: .red))
        XCTAssertTrue(red.x >= 95 && red.y >= 95 && red.x + red.width <= 146 && red.y + red.height <= 126, "red at \(red)")
        let yellow = try XCTUnwrap(after.bounds(of: .yellow))
        XCTAssertTrue(yellow.x >= 295 && yellow.y >= 195 && yellow.x + yellow.width <= 306 && yellow.y + yellow.height <= 206,
                      "yellow at \(yellow)")
        XCTAssertEqual(after.pixel(x: 200, y: 300), windowGrey, "untouched parts of the window stay grey")
    }

    func testATouchIdCanBeReusedAfterCancel() throws {
        let (compositor, _) = try touchClientSession()
        try compositor.send("down 2 400 300")
        try compositor.send("frame")
        try compositor.send("cancel")
        XCTAssertEqual(try compositor.status()["touch-points"], "0", "cancel drops the client's touch points")

        try touch(compositor, ["down 2 420 320", "frame", "motion 2 440 340", "frame", "up 2", "frame"])
        let image = try compositor.screenshot()
        XCTAssertTrue(image.pixel(x: 420, y: 320).isClose(to: .blue), "reused id 2 drew at 420,320: \(image.pixel(x: 420, y: 320))")
        XCTAssertTrue(image.pixel(x: 440, y: 340).isClose(to: .blue), "and followed the motion to 440,340")
    }

    func testDroppingAndRestoringTouchKeepsCompositorAndClientAlive() throws {
        let (compositor, touchClient) = try touchClientSession()
        try compositor.send("seat-caps pointer,keyboard")
        XCTAssertEqual(try compositor.status()["caps"], "pointer,keyboard")
        XCTAssertThrowsError(try compositor.send("down 0 100 100"), "no touch capability, no touch") { error in
            XCTAssertTrue("\(error)".contains("no touch capability"), "\(error)")
        }

        try compositor.send("seat-caps pointer,keyboard,touch")
        try compositor.waitIdle(quiet: 0.1)
        try touch(compositor, ["down 0 200 150", "frame", "up 0", "frame"])
        XCTAssertTrue(try compositor.screenshot().pixel(x: 200, y: 150).isClose(to: .red), "touch works again after restore")
        XCTAssertNil(touchClient.exitStatus, "the client survived losing wl_touch: \(touchClient.standardError)")
        XCTAssertNil(compositor.exitStatus)
    }

    func testBadCommandsAnswerErrorAndTheCompositorCarriesOn() throws {
        let (compositor, _) = try touchClientSession()
        let refused: [(String, String)] = [
            ("bogus", "unknown command"),
            ("down 0 100", "usage"),
            ("down x 100 100", "usage"),
            ("up 7", "touch id 7 not down"),
            ("down 3 790 590", "no surface at 790,590"),
            ("button left press", "no pointer focus"),
            ("seat-caps pointer,trackball", "unknown capability"),
            ("wait-map nope", "usage"),
        ]
        for (command, reason) in refused {
            XCTAssertThrowsError(try compositor.send(command), command) { error in
                guard let refusal = error as? TestCompositor.CommandError else {
                    return XCTFail("\(command): \(error)")
                }
                XCTAssertTrue(refusal.reason.contains(reason), "\(command): \(refusal.reason)")
            }
        }
        XCTAssertEqual(try compositor.status()["mapped"], "1", "still serving its client")
    }

    func testPointerAndKeysReachTheClientInSurfaceCoordinates() throws {
        let compositor = try TestCompositor()
        // Without a border the window's top-left corner is the output's, so coordinates match.
        let demo = try compositor.spawnClient(executable: try client("weston-eventdemo"), arguments: ["--no-border"])
        try compositor.waitMap()
        try compositor.waitIdle(quiet: 0.1)
        for command in [
            "pointer-move 100 100", "pointer-move 110 105", "button left press", "button left release",
            "axis vertical 10", "key 42 press", "key 30 press", "key 30 release", "key 42 release",
        ] {
            try compositor.send(command)
        }
        try compositor.waitIdle(quiet: 0.1)
        // The demo flushes its log when it ends, and it ends when disconnected.
        try compositor.send("kill-client")
        try demo.waitForExit(timeout: 5)
        let log = demo.standardOutput
        XCTAssertTrue(log.contains("motion time: "), log)
        XCTAssertTrue(log.contains("x: 110.000000, y: 105.000000"), "motion in surface coordinates: \(log)")
        XCTAssertTrue(log.contains("button: 272, state: pressed, x: 110, y: 105"), log)
        XCTAssertTrue(log.contains("button: 272, state: released"), log)
        XCTAssertTrue(log.contains("axis: vertical, value: 10.000000"), log)
        XCTAssertTrue(log.contains("key: 30, unicode: 65, state: pressed, modifiers: 0x1"), "shift held gives 'A': \(log)")
    }

    func testAnIdleClientCommitsNothing() throws {
        let (compositor, _) = try touchClientSession()
        let before = try compositor.commits()
        try compositor.sleep(0.3)
        XCTAssertEqual(try compositor.commits(), before, "weston-simple-touch only redraws on touch")
        try touch(compositor, ["down 0 100 100", "frame", "up 0", "frame"])
        XCTAssertGreaterThan(try compositor.commits(), before, "a touch makes it commit")
    }

    func testHeldFrameCallbacksStopAnAnimatingClientUntilReleased() throws {
        let compositor = try TestCompositor()
        _ = try compositor.spawnClient(executable: try client("weston-simple-shm"))
        try compositor.waitMap()
        try compositor.waitCommit()
        try compositor.waitCommit() // animating: commits keep coming

        try compositor.send("hold-buffers on")
        try compositor.waitIdle(quiet: 0.1) // a frame already in flight may still land
        let held = try compositor.commits()
        try compositor.sleep(0.3)
        XCTAssertEqual(try compositor.commits(), held, "no frame callback, no new frame")
        XCTAssertNotEqual(try compositor.status()["held"], "0", "the current buffer is held")

        try compositor.send("hold-buffers off")
        try compositor.waitCommit(since: held)
        XCTAssertGreaterThan(try compositor.commits(), held, "frames resume once released")
        XCTAssertEqual(try compositor.status()["held"], "0")
    }

    func testOutputCanBeRemovedAndAddedBack() throws {
        let (compositor, touchClient) = try touchClientSession()
        try compositor.send("output-remove")
        try compositor.waitForEvent("output-removed")
        XCTAssertEqual(try compositor.status()["output"], "none")
        XCTAssertThrowsError(try compositor.screenshot(), "no output, no screenshot")

        try compositor.send("output-add")
        XCTAssertEqual(try compositor.waitForEvent("output-added"), "output-added 800x600")
        try touch(compositor, ["down 1 250 250", "frame", "up 1", "frame"])
        XCTAssertTrue(try compositor.screenshot().pixel(x: 250, y: 250).isClose(to: .yellow))
        XCTAssertNil(touchClient.exitStatus)
    }

    func testKioskModeSizesTheWindowToTheOutput() throws {
        let compositor = try TestCompositor(width: 640, height: 480, kiosk: true)
        _ = try compositor.spawnClient(executable: try client("weston-eventdemo"))
        try compositor.waitMap()
        let map = try compositor.waitForEvent("map")
        XCTAssertTrue(map.hasSuffix(" 640x480"), map)
        let mark = try compositor.commits()
        try compositor.send("output-scale 2")
        try compositor.waitCommit(since: mark) // the client redraws for its new size
        XCTAssertEqual(try compositor.status()["scale"], "2")
    }

    func testKillClientDisconnectsIt() throws {
        let (compositor, touchClient) = try touchClientSession()
        try compositor.send("kill-client")
        try compositor.waitForEvent("destroy")
        try touchClient.waitForExit(timeout: 5) // it notices the lost connection and ends
        XCTAssertEqual(try compositor.status()["toplevels"], "0")
    }

    func testQuitEndsTheCompositorCleanly() throws {
        let (compositor, _) = try touchClientSession()
        XCTAssertEqual(try compositor.quit(), .exited(0))
    }
}
