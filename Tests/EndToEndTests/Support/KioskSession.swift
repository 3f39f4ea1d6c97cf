import Foundation
import Glibc
import XCTest

/// The real meridian binary mapped fullscreen-size in a kiosk test compositor with
/// `--show-touches`, and what the touch tests do with it: inject input, look for the finger
/// markers, close it and read its state dump.
struct KioskSession {
    /// The --show-touches marker colour of a finger (Sources/MeridianApp/TouchOverlay.swift).
    static let touchMarker = RGBA(r: 217, g: 26, b: 38)

    let compositor: TestCompositor
    let app: ClientProcess
    let stateFile: String

    /// Starts meridian with `--show-touches --state-out` and the `arguments` made for the
    /// compositor's runtime directory, and waits until it is mapped and has settled a little
    /// (input waits by state from then on, see `inject`).
    init(width: Int = 600, height: Int = 900, arguments: (_ runtimeDirectory: String) -> [String] = { _ in [] }) throws {
        compositor = try TestCompositor(width: width, height: height, kiosk: true)
        stateFile = compositor.runtimeDirectory + "/state.json"
        app = try compositor.spawnClient(executable: try PackagePaths.meridianExecutable(),
                                         arguments: ["--show-touches", "--state-out", stateFile] + arguments(compositor.runtimeDirectory))
        try compositor.waitMap()
        try compositor.waitIdle(quiet: 0.15)
    }

    /// Sends commands and waits until meridian has read them. What it then draws is waited for
    /// by the picture itself (`compositor.screenshot(until:)`): under load the frame that shows
    /// the input can come well after some other commit and a quiet spell.
    func inject(_ commands: [String]) throws {
        for c in commands { try compositor.send(c) }
        try compositor.sync()
    }

    /// Closes meridian the way a session manager would (SIGTERM): it must exit 0 with no
    /// protocol error; returns the state it reports.
    func finish(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), app.standardError, file: file, line: line)
        XCTAssertFalse(app.standardError.contains("protocol error"), app.standardError, file: file, line: line)
        let data = try Data(contentsOf: URL(fileURLWithPath: stateFile))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], file: file, line: line)
    }

    /// The state dump's input counts.
    static func input(_ state: [String: Any]) -> [String: Int] {
        (state["input"] as? [String: Int]) ?? [:]
    }
}

extension Image {
    /// A finger's --show-touches marker at (x, y) (physical pixels).
    func showsTouchMarker(x: Int, y: Int) -> Bool {
        pixel(x: x, y: y).isClose(to: KioskSession.touchMarker)
    }

    /// How many pixels have a finger marker's colour.
    var touchMarkerPixels: Int { count(of: KioskSession.touchMarker, tolerance: 10) }
}
