import Foundation

/// Runs scripts/bench/mapnik_render.py (Debian's python3-mapnik) and collects its times.
enum MapnikPeer {
    static let python = "/usr/bin/python3"
    static let script = "scripts/bench/mapnik_render.py"

    /// Median ms per size label ("1920x1200") and view name; empty when the script fails
    /// (its error goes to stderr and the figures go out without a peer). Call
    /// `ensureInstalled()` first.
    static func measure(sources: [String], sizes: [[Int]], views: [[Any]]) -> [String: [String: Double]] {
        let job: [String: Any] = ["sources": sources, "sizes": sizes, "views": views, "runs": 5]
        guard let input = try? JSONSerialization.data(withJSONObject: job) else { return [:] }
        Bench.progress("render: drawing the same views with Mapnik AGG at \(sizes.map { "\($0[0])x\($0[1])" }.joined(separator: ", "))…")
        guard let out = runPython([script], input: input) else { return [:] }
        var result: [String: [String: Double]] = [:]
        for line in out.split(separator: "\n") {
            guard let data = line.data(using: .utf8),
                  let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let size = obj["size"] as? String, let view = obj["view"] as? String, let ms = obj["ms"] as? Double
            else { continue }
            result[size, default: [:]][view] = ms
        }
        return result
    }

    /// Whether `import mapnik` works, installing python3-mapnik with apt when it does not and
    /// we may (root).
    static func ensureInstalled() -> Bool {
        if runPython(["-c", "import mapnik"], input: Data()) != nil { return true }
        guard getuid() == 0 else {
            Bench.progress("render: python3-mapnik missing; install it with apt-get install python3-mapnik for the peer figures")
            return false
        }
        Bench.progress("render: installing python3-mapnik for the peer figures…")
        let apt = Process()
        apt.executableURL = URL(fileURLWithPath: "/usr/bin/apt-get")
        apt.arguments = ["install", "-y", "--no-install-recommends", "python3-mapnik"]
        apt.standardOutput = FileHandle.nullDevice
        do { try apt.run() } catch {
            Bench.progress("render: apt-get: \(error)")
            return false
        }
        apt.waitUntilExit()
        return runPython(["-c", "import mapnik"], input: Data()) != nil
    }

    /// stdout of `python3 args…` fed `input`, or nil (with stderr passed through) on failure.
    static func runPython(_ args: [String], input: Data) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = args
        let stdin = Pipe(), stdout = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        do { try p.run() } catch {
            Bench.progress("render: \(python): \(error)")
            return nil
        }
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
