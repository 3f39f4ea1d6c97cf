import Foundation
import Glibc
import XCTest

/// A frame whose damage is empty shows nothing new, so it costs the compositor nothing: no
/// buffer is committed for it. Before, tiles landing for a map just scrolled out of view made
/// one buffer each with empty damage (12 of 13 buffers in the run below).
final class UnchangedFrameTests: XCTestCase {
    func testTilesLandingForAMapScrolledOutOfViewCommitNoBuffer() throws {
        let c = try TestCompositor(width: 600, height: 900, kiosk: true)
        let state = c.runtimeDirectory + "/state.json"
        let app = try c.spawnClient(executable: try PackagePaths.meridianExecutable(), arguments: ["--state-out", state])
        try c.waitMap()
        // At once, while the map's tiles are still being drawn: a swipe that scrolls the page
        // until the map is off the top of the window.
        _ = try c.buffers(reset: true)
        for command in ["down 0 300 860", "frame", "motion 0 300 700", "frame", "motion 0 300 500", "frame",
                        "motion 0 300 300", "frame", "motion 0 300 100", "frame", "up 0", "frame"] {
            try c.send(command)
        }
        try c.waitIdle(quiet: 2, timeout: 30)
        let b = try c.buffers()
        XCTAssertGreaterThanOrEqual(b.count, 1, "the scroll was drawn")
        XCTAssertEqual(b.emptyDamage, 0, "no buffer without damage (\(b.count) buffers)")

        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), app.standardError)
        let data = try Data(contentsOf: URL(fileURLWithPath: state))
        let dump = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        // The map's frame in window coordinates, the scroll applied: above the window's top.
        let frame = try XCTUnwrap((dump["map"] as? [String: Any])?["frame"] as? [String: Any])
        let bottom = ((frame["y"] as? NSNumber)?.doubleValue ?? 0) + ((frame["height"] as? NSNumber)?.doubleValue ?? 0)
        XCTAssertLessThanOrEqual(bottom, 0, "the map was scrolled out of view: \(frame)")
    }
}
