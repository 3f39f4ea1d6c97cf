import Glibc
import Testing
@testable import Places

/// Kills a real process in the middle of saving, many times, and reads what is left.
struct CrashSafetyTests {
    /// The package root: this file is Tests/PlacesTests/CrashSafetyTests.swift.
    static var root: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    static var saveLoop: String {
        if let p = getenv("MERIDIAN_SAVE_LOOP_BIN") { return String(cString: p) }
        return root + "/.build/debug/places-save-loop"
    }

    /// Starts `places-save-loop` with `arguments`; returns its pid and the read end of its stdout.
    static func spawnSaveLoop(_ arguments: [String]) throws -> (pid: pid_t, stdout: Int32) {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw CrashTestError("no pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([saveLoop] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        let status = posix_spawn(&pid, saveLoop, &actions, nil, argv, environ)
        close(pipeFDs[1])
        guard status == 0 else {
            close(pipeFDs[0])
            throw CrashTestError("cannot start \(saveLoop): \(String(cString: strerror(status)))")
        }
        return (pid, pipeFDs[0])
    }

    /// Starts the saver on `path` and waits for its first save ("ready" on its stdout).
    func startSaver(_ path: String) throws -> pid_t {
        let (pid, out) = try CrashSafetyTests.spawnSaveLoop([path])
        defer { close(out) }
        var byte: UInt8 = 0
        let n = read(out, &byte, 1)   // blocks until the first save is done
        guard n == 1 else { throw CrashTestError("the saver ended before its first save") }
        return pid
    }

    struct CrashTestError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    @Test func aSaveKilledAtAnyMomentLeavesTheOldFileOrTheNewOneWhole() throws {
        #expect(access(CrashSafetyTests.saveLoop, X_OK) == 0,
                "\(CrashSafetyTests.saveLoop) is missing: run `swift build` (scripts/test.sh does)")
        let folder = TemporaryFolder()
        let path = folder.write("trip.geojson", richGeoJSON, mode: 0o640)
        let placeCount = try PlacesDocument(path: path).places.count
        var rng = SystemRandomNumberGenerator()
        var seen: Set<String> = []
        let kills = 150
        for round in 0..<kills {
            let pid = try startSaver(path)
            // Anywhere from at once to a few dozen saves in.
            usleep(UInt32.random(in: 0...20_000, using: &rng))
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            // The file is always a whole version: it parses, every place carries one letter.
            let text = try #require(readText(path), "round \(round): the file is gone")
            let d: PlacesDocument
            do {
                d = try PlacesDocument(path: path)
            } catch {
                Issue.record("round \(round): a kill left a damaged file: \(error)\n\(text.prefix(400))")
                return
            }
            #expect(d.places.count == placeCount)
            let letters = Set(d.places.map { $0.name.prefix(2) })
            #expect(letters.count == 1, "round \(round): a mix of versions: \(d.places.map(\.name))")
            seen.formUnion(letters.map(String.init))
            #expect(fileMode(path) == 0o640, "round \(round): permissions changed")
            // A temporary file a kill left is the owner's alone and goes on the next open.
            for name in folder.names() where name != "trip.geojson" {
                #expect(name.hasPrefix(".trip.geojson.save-"))
                #expect(fileMode("\(folder.path)/\(name)") == 0o600, "\(name) is readable by others")
            }
        }
        // Both versions were seen, so kills landed between saves of each kind.
        #expect(seen == ["A ", "B "])
        _ = try PlacesDocument(path: path)
        #expect(folder.names() == ["trip.geojson"])
    }
}

/// A save the disk refuses (the file size limit stands in for a full disk) loses nothing.
struct RefusedSaveTests {
    @Test func aSaveTheDiskRefusesLeavesTheFileAndFolderAsTheyWereAndTheEditsUnsaved() throws {
        #expect(access(CrashSafetyTests.saveLoop, X_OK) == 0, "\(CrashSafetyTests.saveLoop) is missing: run `swift build`")
        let folder = TemporaryFolder()
        let path = folder.write("trip.geojson", richGeoJSON, mode: 0o640)
        // Room for the start of the new file, not for all of it.
        let (pid, out) = try CrashSafetyTests.spawnSaveLoop(["--file-size-limit", "512", path])
        defer { close(out) }
        var output = [UInt8](repeating: 0, count: 4096)
        var got = 0
        while true {
            let n = output.withUnsafeMutableBytes { read(out, $0.baseAddress! + got, $0.count - got) }
            if n <= 0 { break }
            got += n
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let said = String(decoding: output[0..<got], as: UTF8.self)
        #expect(said.hasPrefix("failed("), "the save did not report a failure: \(said)")
        #expect(said.contains("the file on disk is unchanged"))
        #expect(said.contains("dirty=true"))
        #expect(readText(path) == richGeoJSON)
        #expect(fileMode(path) == 0o640)
        #expect(folder.names() == ["trip.geojson"], "a temporary file was left behind")
    }
}
