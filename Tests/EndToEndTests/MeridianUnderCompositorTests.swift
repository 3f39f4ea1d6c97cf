import Foundation
import Glibc
import XCTest

/// The real meridian binary under the real wlroots test compositor: touch, pointer, keys and
/// touchpad gestures injected by the compositor, checked by pixels read back from the
/// compositor and by the state the binary reports when it closes.
final class MeridianUnderCompositorTests: XCTestCase {
    /// The --show-touches marker colours (Sources/MeridianApp/TouchOverlay.swift) and the page header.
    static let touchMarker = RGBA(r: 217, g: 26, b: 38)
    static let pointerMarker = RGBA(r: 26, g: 77, b: 217)
    static let header = RGBA(r: 33, g: 51, b: 74)

    struct Session {
        let compositor: TestCompositor
        let app: ClientProcess
        let stateFile: String
    }

    /// A kiosk compositor with meridian mapped fullscreen-size and settled.
    private func start(width: Int = 600, height: Int = 900, record: Bool = false) throws -> Session {
        let compositor = try TestCompositor(width: width, height: height, kiosk: true)
        let stateFile = compositor.runtimeDirectory + "/state.json"
        var arguments = ["--verbose", "--show-touches", "--state-out", stateFile]
        if record { arguments += ["--record", compositor.runtimeDirectory + "/live.trace"] }
        let app = try compositor.spawnClient(executable: try PackagePaths.meridianExecutable(), arguments: arguments)
        try compositor.waitMap()
        try compositor.waitIdle(quiet: 0.15)
        return Session(compositor: compositor, app: app, stateFile: stateFile)
    }

    /// Sends commands and waits until meridian has drawn their effect.
    private func inject(_ s: Session, _ commands: [String]) throws {
        let mark = try s.compositor.commits()
        for c in commands { try s.compositor.send(c) }
        try s.compositor.waitCommit(since: mark)
        try s.compositor.waitIdle(quiet: 0.1)
    }

    /// Closes meridian the way a session manager would and reads the state it reports.
    private func finish(_ s: Session) throws -> [String: Any] {
        s.app.signal(SIGTERM)
        XCTAssertEqual(try s.app.waitForExit(timeout: 10), .exited(0), s.app.standardError)
        let data = try Data(contentsOf: URL(fileURLWithPath: s.stateFile))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func input(_ state: [String: Any]) -> [String: Int] {
        (state["input"] as? [String: Int]) ?? [:]
    }

    func testTheWindowFillsTheKioskOutputAndBindsWhatItImplements() throws {
        let s = try start()
        let shot = try s.compositor.screenshot()
        XCTAssertTrue(shot.pixel(x: 10, y: 10).isClose(to: Self.header), "the page's header is at the output's top: \(shot.pixel(x: 10, y: 10))")
        XCTAssertTrue(shot.pixel(x: 590, y: 10).isClose(to: Self.header), "and spans its width")
        let state = try finish(s)
        let window = try XCTUnwrap(state["window"] as? [String: Any])
        XCTAssertEqual(window["width"] as? Int, 600)
        XCTAssertEqual(window["height"] as? Int, 900, "server-side decorations: no title bar taken from the page")
        let log = s.app.standardError
        for bound in ["wl_compositor v4", "wl_seat v7", "xdg_wm_base v2", "zxdg_decoration_manager_v1 v1",
                      "wp_viewporter v1", "zwp_pointer_gestures_v1 v", "wl_output v"] {
            XCTAssertTrue(log.contains(bound), "expected '\(bound)' in: \(log)")
        }
    }

    func testAMarkerFollowsEachFingerAndLeavesWhenItLifts() throws {
        let s = try start()
        try inject(s, ["down 0 150 200", "down 1 450 700", "frame"])
        var shot = try s.compositor.screenshot()
        XCTAssertTrue(shot.pixel(x: 150, y: 200).isClose(to: Self.touchMarker), "\(shot.pixel(x: 150, y: 200))")
        XCTAssertTrue(shot.pixel(x: 450, y: 700).isClose(to: Self.touchMarker))
        try inject(s, ["motion 0 200 260", "frame"])
        shot = try s.compositor.screenshot()
        XCTAssertTrue(shot.pixel(x: 200, y: 260).isClose(to: Self.touchMarker), "the marker moved with the finger")
        XCTAssertFalse(shot.pixel(x: 150 - 20, y: 200 - 20).isClose(to: Self.touchMarker, tolerance: 10), "and left its old place")
        try inject(s, ["up 0", "up 1", "frame"])
        shot = try s.compositor.screenshot()
        XCTAssertEqual(shot.count(of: Self.touchMarker, tolerance: 10), 0, "no marker once every finger is up")
        let counts = input(try finish(s))
        XCTAssertEqual(counts["touchDowns"], 2)
        XCTAssertEqual(counts["touchUps"], 2)
    }

    func testCancelClearsEveryFingerAndIdsCanBeReused() throws {
        let s = try start()
        try inject(s, ["down 0 100 100", "down 1 300 300", "frame"])
        try inject(s, ["cancel"])
        var shot = try s.compositor.screenshot()
        XCTAssertEqual(shot.count(of: Self.touchMarker, tolerance: 10), 0)
        try inject(s, ["down 0 400 500", "frame"])
        shot = try s.compositor.screenshot()
        XCTAssertTrue(shot.pixel(x: 400, y: 500).isClose(to: Self.touchMarker))
        try inject(s, ["up 0", "frame"])
        let counts = input(try finish(s))
        XCTAssertEqual(counts["touchCancels"], 1)
        XCTAssertEqual(counts["touchDowns"], 3)
    }

    func testLosingTouchMidGestureCancelsItAndRegainingItWorks() throws {
        let s = try start()
        try inject(s, ["down 0 200 200", "frame"])
        try inject(s, ["seat-caps pointer,keyboard"])
        XCTAssertEqual(try s.compositor.screenshot().count(of: Self.touchMarker, tolerance: 10), 0,
                       "the finger's marker goes with the device")
        try s.compositor.send("seat-caps pointer,keyboard,touch")
        try s.compositor.waitIdle(quiet: 0.1)
        try inject(s, ["down 3 250 300", "frame"])
        XCTAssertTrue(try s.compositor.screenshot().pixel(x: 250, y: 300).isClose(to: Self.touchMarker))
        XCTAssertNil(s.app.exitStatus, "still running")
        _ = try finish(s)
    }

    func testPointerKeysAndTouchpadPinchArrive() throws {
        let s = try start()
        try inject(s, ["pointer-move 320 400"])
        XCTAssertTrue(try s.compositor.screenshot().pixel(x: 320, y: 400).isClose(to: Self.pointerMarker))
        try s.compositor.send("button left press")
        try s.compositor.send("button left release")
        try s.compositor.send("axis vertical 15 1")
        try s.compositor.send("key 30 press")     // KEY_A
        try s.compositor.send("key 30 release")
        try s.compositor.send("pinch-begin 2")
        try s.compositor.send("pinch-update 1 0 1.25 0")
        try s.compositor.send("pinch-end")
        try s.compositor.waitIdle(quiet: 0.15)
        let counts = input(try finish(s))
        XCTAssertEqual(counts["buttonPresses"], 1)
        XCTAssertEqual(counts["axisEvents"], 1)
        XCTAssertEqual(counts["keyPresses"], 1)
        XCTAssertEqual(counts["touchpadEvents"], 3)
    }

    func testAHeldKeyRepeatsUntilReleased() throws {
        let s = try start()
        try s.compositor.send("key 30 press")
        try s.compositor.sleep(1.0)   // past the compositor's repeat delay
        try s.compositor.send("key 30 release")
        try s.compositor.sleep(0.3)
        let counts = input(try finish(s))
        XCTAssertEqual(counts["keyPresses"], 1)
        XCTAssertGreaterThanOrEqual(counts["keyRepeats"] ?? 0, 1, "a held key repeats")
    }

    /// phoc 0.24 was reported to send wl_keyboard.leave twice for one surface (not reproduced
    /// here; docs/LATENCY.md): two leaves in a row stop a held key's repeat, and keys after the
    /// focus comes back act as usual.
    func testASecondKeyboardLeaveForTheSameSurfaceChangesNothing() throws {
        let s = try start()
        try s.compositor.send("key 108 press")            // Down: a held key...
        try s.compositor.sleep(0.2)
        try s.compositor.send("keyboard-leave twice")     // ...when the focus goes, twice
        try s.compositor.sleep(1.0)                       // past the repeat delay
        try s.compositor.send("key 108 release")          // where meridian cannot see it
        try s.compositor.send("keyboard-enter")
        try inject(s, ["key 57 press", "key 57 release"]) // space: a page down
        XCTAssertNil(s.app.exitStatus, s.app.standardError)
        let state = try finish(s)
        XCTAssertEqual(input(state)["keyRepeats"], 0, "the held key stopped repeating at the first leave")
        XCTAssertEqual(input(state)["keyPresses"], 2)
        let scrollY = try XCTUnwrap((state["page"] as? [String: Any])?["scrollY"] as? Double)
        XCTAssertGreaterThan(scrollY, 100, "space after the focus came back paged down (Down alone scrolls 48 px)")
    }

    func testAtOutputScaleTwoTheMarkerStaysUnderTheFinger() throws {
        let s = try start(width: 400, height: 600)
        try inject(s, ["output-scale 2"])
        try inject(s, ["down 0 100 150", "frame"])
        let shot = try s.compositor.screenshot()
        // Screenshots are in physical pixels; commands in logical ones.
        XCTAssertTrue(shot.pixel(x: 200, y: 300).isClose(to: Self.touchMarker), "\(shot.width)x\(shot.height) \(shot.pixel(x: 200, y: 300))")
        try inject(s, ["up 0", "frame"])
        let window = try XCTUnwrap(try finish(s)["window"] as? [String: Any])
        XCTAssertEqual(window["scale"] as? Int, 2)
    }

    func testAnIdleWindowCommitsNothingAndNeverWakesUp() throws {
        let s = try start()
        try s.compositor.waitIdle(quiet: 1.0, timeout: 20)   // every map tile drawn and shown
        let commits = try s.compositor.commits()
        let switches = try contextSwitches(of: s.app.pid)
        try s.compositor.sleep(1.5)
        XCTAssertEqual(try s.compositor.commits(), commits, "no frames while nothing changes")
        XCTAssertEqual(try contextSwitches(of: s.app.pid), switches, "no wakeups at all while idle")
        _ = try finish(s)
    }

    func testAResizeStormEndsWithoutProtocolErrorsAtTheLastSize() throws {
        let s = try start()
        for i in 0..<200 { try s.compositor.send("configure \(400 + (i % 50) * 4) \(500 + (i % 40) * 5)") }
        try s.compositor.send("configure 520 760")
        try s.compositor.waitIdle(quiet: 0.3, timeout: 10)
        XCTAssertNil(s.app.exitStatus, "meridian survived: \(s.app.standardError)")
        let state = try finish(s)
        let window = try XCTUnwrap(state["window"] as? [String: Any])
        XCTAssertEqual(window["width"] as? Int, 520)
        XCTAssertEqual(window["height"] as? Int, 760)
        XCTAssertFalse(s.app.standardError.contains("protocol error"), s.app.standardError)
    }

    func testKillingTheCompositorEndsMeridianWithStatusOneAndAMessage() throws {
        let s = try start()
        try inject(s, ["down 0 100 100", "frame"])   // mid-gesture
        s.compositor.kill()
        let status = try s.app.waitForExit(timeout: 10)
        XCTAssertEqual(status, .exited(1))
        XCTAssertTrue(s.app.standardError.contains("meridian: the compositor closed the connection"), s.app.standardError)
    }

    func testARecordedTraceReplaysHeadlessToTheSamePicture() throws {
        let s = try start(record: true)
        let dir = s.compositor.runtimeDirectory
        let trace = dir + "/live.trace"
        // The first view's tiles all in first: a placement settled with some of them still on the
        // workers is not preferred later, so touching sooner makes the labels a matter of how fast
        // the workers were (seen: a touch 190 ms after start ended 1495 px apart from the replay,
        // one missing street label; MAP-ENGINE "The stability rule").
        try s.compositor.waitIdle(quiet: 0.5, timeout: 15)
        try inject(s, ["down 0 150 200", "down 1 400 600", "frame"])
        try inject(s, ["motion 0 180 260", "motion 1 420 650", "frame"])
        try inject(s, ["up 1", "frame"])
        try inject(s, ["pointer-move 300 300"])
        try s.compositor.waitIdle(quiet: 0.5, timeout: 15)   // any glide and every tile settled
        let live = try s.compositor.screenshot()
        _ = try finish(s)
        let replayed = dir + "/replayed.png"
        let headless = try s.compositor.spawnClient(executable: try PackagePaths.meridianExecutable(), arguments: [
            "--headless", "--replay", trace, "--size", "600x900", "--screenshot", replayed, "--show-touches"])
        XCTAssertEqual(try headless.waitForExit(timeout: 20), .exited(0), headless.standardError)
        let picture = try Image(contentsOfPNG: replayed)
        XCTAssertEqual(picture.width, live.width)
        XCTAssertEqual(picture.height, live.height)
        var differing = 0
        for (a, b) in zip(live.pixels, picture.pixels) where !a.isClose(to: b, tolerance: 2) { differing += 1 }
        XCTAssertEqual(differing, 0, "the replayed picture is the live one")
        XCTAssertTrue(picture.pixel(x: 180, y: 260).isClose(to: Self.touchMarker))
    }
}
