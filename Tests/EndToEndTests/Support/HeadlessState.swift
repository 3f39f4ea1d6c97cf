import Foundation
import XCTest

extension TestCompositor {
    /// The page's starting state (`--state-out` of a headless run of the same binary over an
    /// empty trace, at the default size): where the map, pins and buttons are before any input.
    func headlessStartState() throws -> [String: Any] {
        let dir = runtimeDirectory
        let empty = dir + "/empty.trace"
        try "meridian-trace 1\n0 wait\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let headless = try spawnClient(executable: try PackagePaths.meridianExecutable(),
                                       arguments: ["--headless", "--replay", empty, "--state-out", dir + "/initial.json"])
        XCTAssertEqual(try headless.waitForExit(timeout: 20), .exited(0), headless.standardError)
        return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/initial.json"))) as? [String: Any] ?? [:]
    }

    /// Meridian started live with `--state-out` (`runtimeDirectory`/state.json, written when it
    /// exits), mapped and settled; returns it and that path.
    func spawnSettledMeridian() throws -> (app: ClientProcess, stateFile: String) {
        let stateFile = runtimeDirectory + "/state.json"
        let app = try spawnClient(executable: try PackagePaths.meridianExecutable(), arguments: ["--state-out", stateFile])
        try waitMap()
        try waitIdle(quiet: 0.5, timeout: 20)
        return (app, stateFile)
    }
}
