import Foundation
import Glibc
import XCTest

/// Behaviours 1, 2 and 4 end to end: the real binary under the wlroots test compositor,
/// fingers injected by the compositor, checked by the pixels it reads back and by the state the
/// binary reports when it closes. Geometry comes from a headless dump of the same page.
final class PageUnderCompositorTests: XCTestCase {
    static let header = RGBA(r: 33, g: 51, b: 74)
    static let pinRed = RGBA(r: 217, g: 56, b: 41)

    private struct Session {
        let compositor: TestCompositor
        let app: ClientProcess
        let stateFile: String
        let initial: [String: Any]
    }

    /// With `touchFrames: false` the compositor sends no `wl_touch.frame` at all, as cage 0.1.4.
    private func start(touchFrames: Bool = true) throws -> Session {
        let compositor = try TestCompositor(width: 800, height: 1280, kiosk: true)
        if !touchFrames { try compositor.send("touch-frames off") }
        // The page's starting geometry, from the same binary, headless.
        let initial = try compositor.headlessStartState()
        let (app, stateFile) = try compositor.spawnSettledMeridian()
        return Session(compositor: compositor, app: app, stateFile: stateFile, initial: initial)
    }

    private func finish(_ s: Session) throws -> [String: Any] {
        s.app.signal(SIGTERM)
        XCTAssertEqual(try s.app.waitForExit(timeout: 10), .exited(0), s.app.standardError)
        return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: s.stateFile))) as? [String: Any] ?? [:]
    }

    /// Sends one touch frame, 16 ms after the previous one (a 60 Hz touchscreen).
    private func frame(_ s: Session, _ commands: [String]) throws {
        try s.compositor.send("sleep 16")
        for c in commands { try s.compositor.send(c) }
        try s.compositor.send("frame")
    }

    private func map(_ state: [String: Any]) -> [String: Any] { state["map"] as? [String: Any] ?? [:] }
    private func mapFrame(_ state: [String: Any]) -> (x: Double, y: Double, w: Double, h: Double) {
        let f = map(state)["frame"] as? [String: Double] ?? [:]
        return (f["x"] ?? 0, f["y"] ?? 0, f["width"] ?? 0, f["height"] ?? 0)
    }
    private func scrollY(_ state: [String: Any]) -> Double { (state["page"] as? [String: Any])?["scrollY"] as? Double ?? -1 }

    /// A point on the map far from every pin and button.
    private func freePoint(_ state: [String: Any]) -> (Double, Double) {
        let f = mapFrame(state)
        let pins = (state["pins"] as? [[String: Any]] ?? []).compactMap { $0["frame"] as? [String: Double] }
        var best = (f.x + f.w / 2, f.y + f.h / 2), bestClear = -1.0
        for y in stride(from: f.y + 120, to: f.y + f.h - 120, by: 20) {
            for x in stride(from: f.x + 120, to: f.x + f.w - 160, by: 20) {
                var clear = 1e9
                for p in pins {
                    let px: Double = (p["x"] ?? 0) + 10, py: Double = (p["y"] ?? 0) + 10
                    clear = min(clear, hypot(px - x, py - y))
                }
                if clear > bestClear { best = (x, y); bestClear = clear }
            }
        }
        return best
    }

    func testOneFingerOnTheMapScrollsThePageAndLeavesTheMapAlone() throws {
        try oneFingerScrollsThePage(touchFrames: true)
    }

    /// cage 0.1.4 never sends wl_touch.frame: each read from the socket is one frame.
    func testWithoutTouchFramesAOneFingerDragScrollsThePage() throws {
        try oneFingerScrollsThePage(touchFrames: false)
    }

    private func oneFingerScrollsThePage(touchFrames: Bool) throws {
        let s = try start(touchFrames: touchFrames)
        let (x, y) = freePoint(s.initial)
        try frame(s, ["down 0 \(x) \(y)"])
        for i in 1...12 { try frame(s, ["motion 0 \(x) \(y - 15 * Double(i))"]) }
        try s.compositor.send("sleep 80")
        try frame(s, ["up 0"])
        try s.compositor.settle()
        let shot = try s.compositor.screenshot { !$0.pixel(x: 400, y: 5).isClose(to: Self.header) }
        XCTAssertFalse(shot.pixel(x: 400, y: 5).isClose(to: Self.header), "the header scrolled off the top")
        let end = try finish(s)
        XCTAssertGreaterThan(scrollY(end), 100)
        XCTAssertEqual(map(end)["center"] as? [String: Double], map(s.initial)["center"] as? [String: Double], "the map did not move")
        XCTAssertTrue((end["log"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "cooperativeHint" })
    }

    func testTwoFingersPanTheMapAndNotThePage() throws {
        try twoFingersPanTheMap(touchFrames: true)
    }

    func testWithoutTouchFramesTwoFingersPanTheMap() throws {
        try twoFingersPanTheMap(touchFrames: false)
    }

    private func twoFingersPanTheMap(touchFrames: Bool) throws {
        let s = try start(touchFrames: touchFrames)
        let (x, y) = freePoint(s.initial)
        try frame(s, ["down 0 \(x - 50) \(y)", "down 1 \(x + 50) \(y)"])
        for i in 1...10 {
            let dx = 8 * Double(i), dy = 6 * Double(i)
            try frame(s, ["motion 0 \(x - 50 + dx) \(y + dy)", "motion 1 \(x + 50 + dx) \(y + dy)"])
        }
        try s.compositor.send("sleep 80")
        try frame(s, ["up 0", "up 1"])
        try s.compositor.settle()
        let shot = try s.compositor.screenshot()
        XCTAssertTrue(shot.pixel(x: 400, y: 5).isClose(to: Self.header), "the page stayed at the top")
        let end = try finish(s)
        XCTAssertEqual(scrollY(end), 0)
        let before = map(s.initial)["center"] as? [String: Double] ?? [:], after = map(end)["center"] as? [String: Double] ?? [:]
        XCTAssertNotEqual(before["lon"], after["lon"], "the map moved")
        XCTAssertLessThan(after["lon"] ?? 0, before["lon"] ?? 0, "content dragged right shows what lies west")
    }

    func testADoubleTapZoomsInOneLevel() throws {
        try doubleTapZooms(touchFrames: true)
    }

    func testWithoutTouchFramesADoubleTapZoomsInOneLevel() throws {
        try doubleTapZooms(touchFrames: false)
    }

    private func doubleTapZooms(touchFrames: Bool) throws {
        let s = try start(touchFrames: touchFrames)
        let (x, y) = freePoint(s.initial)
        for _ in 0..<2 {
            try frame(s, ["down 0 \(x) \(y)"])
            try s.compositor.send("sleep 40")
            try frame(s, ["up 0"])
            try s.compositor.send("sleep 60")
        }
        try s.compositor.settle(quiet: 0.6)
        let end = try finish(s)
        XCTAssertEqual(map(end)["zoom"] as? Double, (map(s.initial)["zoom"] as? Double ?? 0) + 1)
        XCTAssertEqual((end["log"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "doubleTapZoom" }.count, 1)
    }

    func testTwoFingersSpreadingApartZoomIn() throws {
        try pinchZoomsIn(touchFrames: true)
    }

    func testWithoutTouchFramesAPinchZoomsIn() throws {
        try pinchZoomsIn(touchFrames: false)
    }

    private func pinchZoomsIn(touchFrames: Bool) throws {
        let s = try start(touchFrames: touchFrames)
        let (x, y) = freePoint(s.initial)
        try frame(s, ["down 0 \(x - 40) \(y)", "down 1 \(x + 40) \(y)"])
        for i in 1...12 {
            let d = 40 + 6 * Double(i)
            try frame(s, ["motion 0 \(x - d) \(y)", "motion 1 \(x + d) \(y)"])
        }
        try s.compositor.send("sleep 80")
        try frame(s, ["up 0", "up 1"])
        try s.compositor.settle()
        let end = try finish(s)
        let before = map(s.initial)["zoom"] as? Double ?? 0, after = map(end)["zoom"] as? Double ?? 0
        // The fingers went from 80 to 224 px apart: about 1.5 zoom levels.
        XCTAssertGreaterThan(after, before + 1, "the map zoomed in under the spreading fingers")
        XCTAssertEqual(scrollY(end), 0, "the page did not scroll")
    }

    func testAPinFollowsTheFingerThatDragsIt() throws {
        let s = try start()
        let f = mapFrame(s.initial)
        let pins = (s.initial["pins"] as? [[String: Any]] ?? []).filter { pin in
            let p = pin["frame"] as? [String: Double] ?? [:]
            return (p["x"] ?? 0) > f.x + 60 && (p["x"] ?? 0) < f.x + f.w - 200 && (p["y"] ?? 0) > f.y + 60 && (p["y"] ?? 0) < f.y + f.h - 140
        }
        let pin = try XCTUnwrap(pins.first)
        let id = try XCTUnwrap(pin["id"] as? String)
        let pf = pin["frame"] as? [String: Double] ?? [:]
        let (px, py) = ((pf["x"] ?? 0) + 10, (pf["y"] ?? 0) + 10)
        try frame(s, ["down 0 \(px) \(py)"])
        for i in 1...10 { try frame(s, ["motion 0 \(px + 9 * Double(i)) \(py + 9 * Double(i))"]) }
        try s.compositor.send("sleep 80")
        try frame(s, ["up 0"])
        try s.compositor.settle()
        let shot = try s.compositor.screenshot { $0.pixel(x: Int(px + 90), y: Int(py + 90)).isClose(to: Self.pinRed, tolerance: 30) }
        XCTAssertTrue(shot.pixel(x: Int(px + 90), y: Int(py + 90)).isClose(to: Self.pinRed, tolerance: 30),
                      "the pin is drawn where the finger left it: \(shot.pixel(x: Int(px + 90), y: Int(py + 90)))")
        let end = try finish(s)
        let moved = (end["pins"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }
        let mf = moved?["frame"] as? [String: Double] ?? [:]
        XCTAssertEqual((mf["x"] ?? 0) + 10, px + 90, accuracy: 1)
        XCTAssertEqual((mf["y"] ?? 0) + 10, py + 90, accuracy: 1)
        XCTAssertEqual(scrollY(end), 0)
    }
}
