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

    /// Sends commands and waits until meridian has read them. What it then draws is waited for
    /// by the picture itself (`screenshot(until:)`): under load the frame that shows the input can
    /// come well after some other commit and a quiet spell.
    private func inject(_ s: Session, _ commands: [String]) throws {
        for c in commands { try s.compositor.send(c) }
        try s.compositor.sync()
    }

    private func touchMarker(in shot: Image, x: Int, y: Int) -> Bool {
        shot.pixel(x: x, y: y).isClose(to: Self.touchMarker)
    }

    private func touchMarkers(in shot: Image) -> Int {
        shot.count(of: Self.touchMarker, tolerance: 10)
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
        var shot = try s.compositor.screenshot { touchMarker(in: $0, x: 150, y: 200) && touchMarker(in: $0, x: 450, y: 700) }
        XCTAssertTrue(touchMarker(in: shot, x: 150, y: 200), "\(shot.pixel(x: 150, y: 200))")
        XCTAssertTrue(touchMarker(in: shot, x: 450, y: 700))
        try inject(s, ["motion 0 200 260", "frame"])
        // Where the finger was (the marker's 24 px radius: (130, 180), checked before, lay outside it).
        let oldPlace = { (shot: Image) in shot.pixel(x: 150, y: 200).isClose(to: Self.touchMarker, tolerance: 10) }
        shot = try s.compositor.screenshot { touchMarker(in: $0, x: 200, y: 260) && !oldPlace($0) }
        XCTAssertTrue(touchMarker(in: shot, x: 200, y: 260), "the marker moved with the finger")
        XCTAssertFalse(oldPlace(shot), "and left its old place")
        try inject(s, ["up 0", "up 1", "frame"])
        shot = try s.compositor.screenshot { touchMarkers(in: $0) == 0 }
        XCTAssertEqual(touchMarkers(in: shot), 0, "no marker once every finger is up")
        let counts = input(try finish(s))
        XCTAssertEqual(counts["touchDowns"], 2)
        XCTAssertEqual(counts["touchUps"], 2)
    }

    func testCancelClearsEveryFingerAndIdsCanBeReused() throws {
        let s = try start()
        try inject(s, ["down 0 100 100", "down 1 300 300", "frame"])
        try inject(s, ["cancel"])
        var shot = try s.compositor.screenshot { touchMarkers(in: $0) == 0 }
        XCTAssertEqual(touchMarkers(in: shot), 0)
        try inject(s, ["down 0 400 500", "frame"])
        shot = try s.compositor.screenshot { touchMarker(in: $0, x: 400, y: 500) }
        XCTAssertTrue(touchMarker(in: shot, x: 400, y: 500))
        try inject(s, ["up 0", "frame"])
        let counts = input(try finish(s))
        XCTAssertEqual(counts["touchCancels"], 1)
        XCTAssertEqual(counts["touchDowns"], 3)
    }

    func testLosingTouchMidGestureCancelsItAndRegainingItWorks() throws {
        let s = try start()
        try inject(s, ["down 0 200 200", "frame"])
        try inject(s, ["seat-caps pointer,keyboard"])
        XCTAssertEqual(touchMarkers(in: try s.compositor.screenshot { touchMarkers(in: $0) == 0 }), 0,
                       "the finger's marker goes with the device")
        try inject(s, ["seat-caps pointer,keyboard,touch"])   // read: its new wl_touch reached the compositor first
        try inject(s, ["down 3 250 300", "frame"])
        XCTAssertTrue(touchMarker(in: try s.compositor.screenshot { touchMarker(in: $0, x: 250, y: 300) }, x: 250, y: 300))
        XCTAssertNil(s.app.exitStatus, "still running")
        _ = try finish(s)
    }

    func testPointerKeysAndTouchpadPinchArrive() throws {
        let s = try start()
        try inject(s, ["pointer-move 320 400"])
        let pointerShown = { (shot: Image) in shot.pixel(x: 320, y: 400).isClose(to: Self.pointerMarker) }
        let shot = try s.compositor.screenshot(until: pointerShown)
        XCTAssertTrue(pointerShown(shot), "\(shot.pixel(x: 320, y: 400))")
        try inject(s, ["button left press", "button left release", "axis vertical 15 1",
                       "key 30 press", "key 30 release",   // KEY_A
                       "pinch-begin 2", "pinch-update 1 0 1.25 0", "pinch-end"])
        let counts = input(try finish(s))
        XCTAssertEqual(counts["buttonPresses"], 1)
        XCTAssertEqual(counts["axisEvents"], 1)
        XCTAssertEqual(counts["keyPresses"], 1)
        XCTAssertEqual(counts["touchpadEvents"], 3)
    }

    /// The page's header at the top of the window: the page has scrolled by less than the
    /// header's 72 px (Down scrolls 48 px a press or repeat).
    private func headerAtTop(_ shot: Image) -> Bool {
        shot.pixel(x: 10, y: 0).isClose(to: Self.header)
    }

    func testAHeldKeyRepeatsUntilReleased() throws {
        let s = try start()
        try inject(s, ["key 108 press"])   // Down, held: once 48 px, then again at each repeat
        // Released once the page shows a repeat (past the seat's repeat delay), however late
        // meridian's timers run; no repeat in 10 s leaves the header in view and fails below.
        let shot = try s.compositor.screenshot { !headerAtTop($0) }
        try inject(s, ["key 108 release"])
        XCTAssertFalse(headerAtTop(shot), "the page scrolled more than one Down's 48 px")
        let counts = input(try finish(s))
        XCTAssertEqual(counts["keyPresses"], 1)
        XCTAssertGreaterThanOrEqual(counts["keyRepeats"] ?? 0, 1, "a held key repeats")
    }

    /// phoc 0.24 was reported to send wl_keyboard.leave twice for one surface (not reproduced
    /// here; docs/LATENCY.md): two leaves in a row stop a held key's repeat, and keys after the
    /// focus comes back act as usual.
    func testASecondKeyboardLeaveForTheSameSurfaceChangesNothing() throws {
        let s = try start()
        try inject(s, ["key 108 press"])                  // Down: a held key...
        try inject(s, ["keyboard-leave twice"])           // ...when the focus goes, twice
        try s.compositor.sleep(1.0)                       // held past the repeat delay: the input itself
        try s.compositor.send("key 108 release")          // where meridian cannot see it
        try s.compositor.send("keyboard-enter")
        try inject(s, ["key 57 press", "key 57 release"]) // space: a page down
        let shot = try s.compositor.screenshot { !headerAtTop($0) }
        XCTAssertFalse(headerAtTop(shot), "space after the focus came back paged down (Down alone scrolls 48 px)")
        XCTAssertNil(s.app.exitStatus, s.app.standardError)
        let state = try finish(s)
        XCTAssertEqual(input(state)["keyRepeats"], 0, "the held key stopped repeating at the first leave")
        XCTAssertEqual(input(state)["keyPresses"], 2)
        let scrollY = try XCTUnwrap((state["page"] as? [String: Any])?["scrollY"] as? Double)
        XCTAssertGreaterThan(scrollY, 72, "and the state says so")
    }

    func testAtOutputScaleTwoTheMarkerStaysUnderTheFinger() throws {
        let s = try start(width: 400, height: 600)
        try inject(s, ["output-scale 2"])
        try inject(s, ["down 0 100 150", "frame"])
        // Screenshots are in physical pixels; commands in logical ones.
        let shot = try s.compositor.screenshot { touchMarker(in: $0, x: 200, y: 300) }
        XCTAssertTrue(touchMarker(in: shot, x: 200, y: 300), "\(shot.width)x\(shot.height) \(shot.pixel(x: 200, y: 300))")
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
        // Until meridian has drawn the last size (or 10 s passed: the assertions below say so).
        let deadline = ContinuousClock.now + .seconds(10)
        while try s.compositor.buffers().size != "520x760", ContinuousClock.now < deadline { try s.compositor.waitFrame() }
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
