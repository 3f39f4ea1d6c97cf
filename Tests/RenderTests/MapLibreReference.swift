import Foundation
import XCTest

/// The reference renderer both MapLibre comparisons run: the python of scripts/maplibre-venv.sh
/// (PyPI pymgl). MERIDIAN_MAPLIBRE_PYTHON names it (the README's test command sets it), else
/// the venv the script makes in .build is used. With neither, the comparison fails rather than
/// skips: a skip would read as a pass.
enum MapLibreReference {
    static func python(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        if let python = ProcessInfo.processInfo.environment["MERIDIAN_MAPLIBRE_PYTHON"] { return python }
        let repo = ShippedDataTests.dataDirectory.deletingLastPathComponent()
        let venv = repo.appendingPathComponent(".build/maplibre-venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: venv) { return venv }
        XCTFail("no MapLibre Native to compare with: run scripts/maplibre-venv.sh (scripts/test.sh does) or set MERIDIAN_MAPLIBRE_PYTHON",
                file: file, line: line)
        throw Missing()
    }

    struct Missing: Error {}

    /// Runs `script` (a path in the repository) with that python, `input` on its standard input,
    /// its standard output dropped; its exit status.
    static func run(_ script: String, arguments: [String] = [], input: Data? = nil) throws -> Int32 {
        let repo = ShippedDataTests.dataDirectory.deletingLastPathComponent()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try python())
        p.arguments = [repo.appendingPathComponent(script).path] + arguments
        let stdin = Pipe()
        p.standardInput = stdin
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
