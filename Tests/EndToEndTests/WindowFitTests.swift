import Foundation
import Glibc
import XCTest

/// The window's default size fits the screen it opens on, `--size` still wins, and the
/// compositor repeating what we already know (an output enter at the same scale) costs no frame.
final class WindowFitTests: XCTestCase {
    /// Meridian on a desktop-style (not kiosk) compositor, where the client chooses its size.
    private func run(width: Int, height: Int, arguments: [String] = [],
                     between: (TestCompositor) throws -> Void = { _ in }) throws -> [String: Any] {
        let c = try TestCompositor(width: width, height: height, kiosk: false)
        let state = c.runtimeDirectory + "/state.json"
        let app = try c.spawnClient(executable: try PackagePaths.meridianExecutable(), arguments: arguments + ["--state-out", state])
        try c.waitMap()
        try c.waitIdle(quiet: 0.5, timeout: 20)
        try between(c)
        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), app.standardError)
        let data = try Data(contentsOf: URL(fileURLWithPath: state))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func windowSize(_ state: [String: Any]) -> (Int, Int) {
        let w = state["window"] as? [String: Any] ?? [:]
        return (w["width"] as? Int ?? -1, w["height"] as? Int ?? -1)
    }

    func testTheDefaultWindowShrinksToA720PixelWideOutput() throws {
        let (w, h) = windowSize(try run(width: 720, height: 1100))
        XCTAssertEqual(w, 720, "the 800 px default would put the zoom buttons off-screen")
        XCTAssertEqual(h, 1100)
    }

    func testTheDefaultWindowKeepsItsSizeWhereItFits() throws {
        let (w, h) = windowSize(try run(width: 1920, height: 1400))
        XCTAssertEqual(w, 800)
        XCTAssertEqual(h, 1280)
    }

    func testAnExplicitSizeWinsOverTheScreen() throws {
        let (w, h) = windowSize(try run(width: 720, height: 1100, arguments: ["--size", "800x1280"]))
        XCTAssertEqual(w, 800)
        XCTAssertEqual(h, 1280)
    }

    /// An output goes and a new one of the same scale comes (a dock unplugged and replugged):
    /// the surface leaves one output and enters another, nothing about the picture changed, so
    /// no redraw and no commit. (The same path made one extra full redraw at every start-up,
    /// when the compositor first reports the output the window is on.)
    func testLeavingAndEnteringOutputsOfTheSameScaleCommitsNothing() throws {
        _ = try run(width: 720, height: 1100) { c in
            // Every tile drawn first (on a busy machine the last ones land late).
            try c.waitIdle(quiet: 1.5, timeout: 20)
            let before = try c.commits()
            try c.send("output-remove")
            try c.send("output-add")   // wl_surface.enter of the new output, scale still 1
            try c.waitIdle(quiet: 0.3, timeout: 5)
            XCTAssertEqual(try c.commits(), before, "a leave and an enter that change no scale draw nothing")
        }
    }
}
