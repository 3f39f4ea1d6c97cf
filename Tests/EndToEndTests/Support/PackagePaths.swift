import Foundation
import Glibc
import Synchronization

/// Where the end-to-end tests find the package, the test compositor and the meridian binary.
enum PackagePaths {
    /// The package root: this file is Tests/EndToEndTests/Support/PackagePaths.swift.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static var buildScript: String { root + "/scripts/build-test-compositor.sh" }
    static var compositor: String { root + "/.build/test-compositor/meridian-test-compositor" }

    /// The build script runs once per test process: it is quick when up to date, and running it
    /// always (not only when the binary is missing) keeps an edited compositor from going stale.
    private static let built = Mutex<Bool>(false)

    /// Builds the test compositor if needed (installing Debian packages on a fresh machine).
    static func ensureCompositorBuilt() throws {
        try built.withLock { done in
            if done { return }
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-build-\(getpid()).log").path
            let build = try ChildProcess(
                executable: "/bin/bash", arguments: [buildScript],
                environment: ProcessInfo.processInfo.environment.merging(["DEBIAN_FRONTEND": "noninteractive"]) { $1 },
                stdin: .null, stdout: .file(log), stderr: .file(log))
            // A fresh machine downloads ~100 MB of packages; give it time, but not for ever.
            let status = try build.wait(timeout: 900)
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: log)
            guard status == .exited(0), access(compositor, X_OK) == 0 else {
                throw HarnessError("scripts/build-test-compositor.sh failed (\(status)):\n\(output.suffix(4000))")
            }
            done = true
        }
    }

    /// The meridian executable under test: $MERIDIAN_BIN, else .build/debug/meridian.
    static func meridianExecutable() throws -> String {
        if let path = ProcessInfo.processInfo.environment["MERIDIAN_BIN"], !path.isEmpty {
            guard access(path, X_OK) == 0 else {
                throw HarnessError("MERIDIAN_BIN=\(path) is not an executable file")
            }
            return path
        }
        let path = root + "/.build/debug/meridian"
        guard access(path, X_OK) == 0 else {
            throw HarnessError("\(path) not found: run `swift build --product meridian` first, or set MERIDIAN_BIN")
        }
        return path
    }

    /// The full path of a program in PATH, or nil.
    static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
