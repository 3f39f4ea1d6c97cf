import Foundation
import Glibc
import XCTest

/// A pinch from a touch panel faster than the display (240 Hz touch frames, a 120 Hz output of
/// the test compositor): the client folds the touch frames that arrive between two refreshes
/// into one frame instead of drawing each, never commits two buffers for one refresh, and the
/// map ends zoomed by the fingers' spread.
final class PinchPacingUnderCompositorTests: XCTestCase {
    func testAPinchFromA240HzPanelIsDrawnAtMostOncePerRefreshAt120Hz() throws {
        let compositor = try TestCompositor(width: 800, height: 1280, kiosk: true, refreshHz: 120)
        let initial = try compositor.headlessStartState()
        let (app, stateFile) = try compositor.spawnSettledMeridian()

        let map = try XCTUnwrap(initial["map"] as? [String: Any])
        let f = try XCTUnwrap(map["frame"] as? [String: Double])
        // Low in the middle of the map, away from the zoom buttons (top right) and the header.
        let x = ((f["x"] ?? 0) + 0.45 * (f["width"] ?? 0)).rounded(), y = ((f["y"] ?? 0) + 0.7 * (f["height"] ?? 0)).rounded()
        _ = try compositor.buffers(reset: true)
        try compositor.send("down 0 \(x - 50) \(y)")
        try compositor.send("down 1 \(x + 50) \(y)")
        try compositor.send("frame")
        let moves = 96   // about 0.4 s of 240 Hz touch frames, 100 → 292 px apart
        for i in 1...moves {
            try compositor.send("sleep 4")
            let d = 50 + Double(i)
            try compositor.send("motion 0 \(x - d) \(y)")
            try compositor.send("motion 1 \(x + d) \(y)")
            try compositor.send("frame")
        }
        let during = try compositor.buffers()
        try compositor.send("sleep 40")
        try compositor.send("up 0")
        try compositor.send("up 1")
        try compositor.send("frame")
        try compositor.settle()

        XCTAssertGreaterThanOrEqual(during.count, 5, "the pinch was drawn as it went (\(during.count) frames)")
        XCTAssertLessThan(during.count, moves, "touch frames between two refreshes were folded into one frame (\(during.count) frames for \(moves) touch frames)")
        XCTAssertEqual(during.mostPerRefresh, 1, "never two frames for one refresh (\(during.count) frames in all)")

        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), app.standardError)
        let end = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stateFile))) as? [String: Any])
        let before = map["zoom"] as? Double ?? 0, after = (end["map"] as? [String: Any])?["zoom"] as? Double ?? 0
        // 100 → 292 px apart: log2(2.92), about 1.5 levels.
        XCTAssertEqual(after - before, log2(292.0 / 100), accuracy: 0.1, "the map zoomed by the fingers' spread")
    }
}
