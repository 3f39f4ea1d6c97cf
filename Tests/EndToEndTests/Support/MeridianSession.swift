import Foundation
import Glibc
import XCTest

/// Runs of the real binary on a places file under the test compositor, shared by the
/// document tests: each run ends with SIGTERM (a clean close) and returns its state dump.
extension TestCompositor {
    /// One input frame: a 16 ms pause (a display frame), the commands, `frame`.
    func frame(_ commands: [String]) throws {
        try send("sleep 16")
        for command in commands { try send(command) }
        try send("frame")
    }

    /// Runs Meridian on `file` until the compositor is idle, does `input`, closes it; returns its dump.
    func runMeridian(_ file: String, name: String, input: (TestCompositor) throws -> Void = { _ in },
                     file line: StaticString = #filePath, line number: UInt = #line) throws -> [String: Any] {
        let state = runtimeDirectory + "/\(name).json"
        let app = try spawnClient(executable: try PackagePaths.meridianExecutable(), arguments: ["--state-out", state, file])
        try waitMap()
        try waitIdle(quiet: 0.5, timeout: 20)
        try input(self)
        try settle(quiet: 0.6)
        app.signal(SIGTERM)
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(0), app.standardError, file: line, line: number)
        return try readJSON(state)
    }
}

func readJSON(_ path: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
}

/// The place `id` in a dump's `document` section.
func documentPlace(_ dump: [String: Any], _ id: String) -> [String: Any]? {
    ((dump["document"] as? [String: Any])?["places"] as? [[String: Any]])?.first { $0["id"] as? String == id }
}
