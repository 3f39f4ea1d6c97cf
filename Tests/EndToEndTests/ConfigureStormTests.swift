import Foundation
import Glibc
import XCTest

/// A compositor may send configures in bursts: the same size and states again and again, or a
/// resize in many small steps. Under the real test compositor, counting the commits that carry
/// a buffer (a frame drawn) apart from bare commits: a configure that changes nothing costs no
/// frame, a burst of resizes draws at most once per refresh and ends at the last size, and every
/// configure is acked all the same.
final class ConfigureStormTests: XCTestCase {
    struct Session {
        let compositor: TestCompositor
        let app: ClientProcess
        let stateFile: String
    }

    /// Meridian in a 600x900 kiosk, with every tile drawn (nothing left for it to draw).
    private func start() throws -> Session {
        let compositor = try TestCompositor(width: 600, height: 900, kiosk: true)
        let stateFile = compositor.runtimeDirectory + "/state.json"
        let app = try compositor.spawnClient(executable: try PackagePaths.meridianExecutable(),
                                             arguments: ["--state-out", stateFile])
        try compositor.waitMap()
        try compositor.waitIdle(quiet: 1.5, timeout: 30)
        return Session(compositor: compositor, app: app, stateFile: stateFile)
    }

    private func finish(_ s: Session) throws -> [String: Any] {
        s.app.signal(SIGTERM)
        XCTAssertEqual(try s.app.waitForExit(timeout: 10), .exited(0), s.app.standardError)
        XCTAssertFalse(s.app.standardError.contains("protocol error"), s.app.standardError)
        let data = try Data(contentsOf: URL(fileURLWithPath: s.stateFile))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func unackedConfigures(_ c: TestCompositor) throws -> Int {
        let text = try c.status()["unacked-configures"]
        return try XCTUnwrap(text.flatMap { Int($0) }, "status has unacked-configures")
    }

    private func windowSize(_ state: [String: Any]) -> (Int, Int) {
        let w = state["window"] as? [String: Any] ?? [:]
        return (w["width"] as? Int ?? -1, w["height"] as? Int ?? -1)
    }

    func testTwoHundredConfiguresThatChangeNothingDrawNoFrameAndAreAllAcked() throws {
        let s = try start()
        _ = try s.compositor.buffers(reset: true)
        let commits = try s.compositor.commits()
        // The size and states the window already has, 200 times, each its own configure.
        try s.compositor.send("configure-burst 200 1 600 900", timeout: 30)
        try s.compositor.waitIdle(quiet: 0.3, timeout: 10)
        let b = try s.compositor.buffers()
        XCTAssertEqual(b.count, 0, "a configure that changes nothing is acked without a new frame")
        XCTAssertGreaterThanOrEqual(try s.compositor.commits() - commits, 1, "but it is acked with a commit")
        XCTAssertEqual(try unackedConfigures(s.compositor), 0, "every configure acked")
        XCTAssertEqual(b.size, "600x900")
        let (w, h) = windowSize(try finish(s))
        XCTAssertEqual(w, 600)
        XCTAssertEqual(h, 900)
    }

    func testABurstOfResizesDrawsAtMostOncePerRefreshAndEndsAtTheLastSize() throws {
        let s = try start()
        _ = try s.compositor.buffers(reset: true)
        // 120 sizes 1 ms apart, several per 60 Hz refresh; small, so a frame draws quickly
        // and nothing but the pacing keeps it from drawing one per configure.
        try s.compositor.send("configure-burst 120 1 200 200 320 380", timeout: 30)
        try s.compositor.waitIdle(quiet: 0.5, timeout: 10)
        let b = try s.compositor.buffers()
        XCTAssertGreaterThanOrEqual(b.count, 1, "the resize was drawn")
        XCTAssertEqual(b.mostPerRefresh, 1, "never two frames for one refresh (\(b.count) frames in all)")
        XCTAssertEqual(b.size, "320x380", "the last frame has the last size")
        XCTAssertEqual(b.buffer, "320x380")
        XCTAssertEqual(try unackedConfigures(s.compositor), 0, "the last configure acked")
        let (w, h) = windowSize(try finish(s))
        XCTAssertEqual(w, 320)
        XCTAssertEqual(h, 380)
    }

    /// With frame callbacks withheld (a hidden window, a stalled compositor) a resize cannot
    /// wait for the next refresh forever: it is drawn and acked anyway, a moment later.
    func testAResizeIsDrawnAndAckedWhileFrameCallbacksAreWithheld() throws {
        let s = try start()
        try s.compositor.send("hold-buffers on")
        _ = try s.compositor.buffers(reset: true)
        try s.compositor.send("configure-burst 20 2 400 600 500 700", timeout: 30)
        // Window.configureGrace is 0.5 s later; waited for by the size drawn, up to 10 s.
        var b = try s.compositor.buffers()
        let deadline = ContinuousClock.now + .seconds(10)
        while try b.size != "500x700" || unackedConfigures(s.compositor) != 0, ContinuousClock.now < deadline {
            try s.compositor.sleep(0.02)   // between polls only: no frames come while callbacks are held
            b = try s.compositor.buffers()
        }
        XCTAssertEqual(b.size, "500x700", "the last size drawn without a frame callback")
        XCTAssertEqual(try unackedConfigures(s.compositor), 0)
        try s.compositor.send("hold-buffers off")
        let (w, h) = windowSize(try finish(s))
        XCTAssertEqual(w, 500)
        XCTAssertEqual(h, 700)
    }
}
