import Foundation

/// Runs scripts/bench/maplibre_render.py (MapLibre Native through PyPI pymgl, software GL)
/// on the shipped styles and files, and collects its cold frame times.
enum MapLibrePeer {
    static let script = "scripts/bench/maplibre_render.py"

    /// The venv's python (scripts/maplibre-venv.sh makes it), or nil with the reason said.
    static func python() -> String? {
        if let p = ProcessInfo.processInfo.environment["MERIDIAN_MAPLIBRE_PYTHON"] { return p }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["scripts/maplibre-venv.sh"]
        let out = Pipe()
        p.standardOutput = out
        do { try p.run() } catch {
            Bench.progress("render: scripts/maplibre-venv.sh: \(error)")
            return nil
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            Bench.progress("render: MapLibre Native (pymgl) could not be installed; no MapLibre peer figures")
            return nil
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Best-of-runs cold frame ms per size label and view name; empty when the script fails.
    static func measure(python: String, layers: [[String]], sizes: [[Int]], views: [[Any]]) -> [String: [String: Double]] {
        let job: [String: Any] = ["layers": layers, "sizes": sizes, "views": views, "runs": 3, "mode": "time"]
        guard let input = try? JSONSerialization.data(withJSONObject: job) else { return [:] }
        Bench.progress("render: drawing the same views with MapLibre Native (llvmpipe) at \(sizes.map { "\($0[0])x\($0[1])" }.joined(separator: ", "))…")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [script]
        let stdin = Pipe(), stdout = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch {
            Bench.progress("render: \(python): \(error)")
            return [:]
        }
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        var result: [String: [String: Double]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let size = obj["size"] as? String, let view = obj["view"] as? String, let ms = obj["ms"] as? Double
            else { continue }
            result[size, default: [:]][view] = ms
        }
        return result
    }
}
