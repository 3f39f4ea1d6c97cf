import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a benchmark mode could not run, in one line for the report.
struct BenchUnavailable: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The test compositor (docs/TEST-COMPOSITOR.md) running headless with a private
/// `XDG_RUNTIME_DIR`, driven through its stdin/stdout command language.
final class CompositorSession {
    let runtimeDirectory: String
    static let socketName = "meridian-latency"
    let socket = CompositorSession.socketName
    let logPath: String
    private let process: Process
    private let commandFD: Int32
    private let answerFD: Int32
    private var pending: [UInt8] = []
    private var stopped = false
    /// The answer to the last command sent.
    private(set) var lastAnswer = ""

    /// Starts `binary` with a `width` x `height` kiosk output refreshing at `refreshHz` and
    /// waits for `ready`.
    /// `client` is a shell command the compositor starts once ready (a nested compositor).
    init(binary: String, width: Int, height: Int, refreshHz: Int = 60, client: String? = nil) throws(BenchUnavailable) {
        signal(SIGPIPE, SIG_IGN)   // a compositor that dies must be an error here, not our death
        var template = Array("/tmp/meridian-latency-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw BenchUnavailable("mkdtemp failed: \(String(cString: strerror(errno)))") }
        runtimeDirectory = String(cString: dir)
        logPath = runtimeDirectory + "/compositor.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let stdin = Pipe(), stdout = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-W", "\(width)", "-H", "\(height)", "-R", "\(refreshHz)", "-k", "-S", socket, "-f", "-"]
            + (client.map { ["-s", $0] } ?? [])
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        process.environment = env
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle(forWritingAtPath: logPath)
        do {
            try process.run()
        } catch {
            throw BenchUnavailable("cannot start \(binary): \(error)")
        }
        commandFD = stdin.fileHandleForWriting.fileDescriptor
        answerFD = stdout.fileHandleForReading.fileDescriptor
        guard readLine(timeout: 10) == "ready" else {
            let tail = logTail()
            stop()
            throw BenchUnavailable("the test compositor did not get ready: \(tail)")
        }
    }

    /// The environment a client needs to connect: this compositor's runtime directory and socket,
    /// and no outer display.
    func clientEnvironment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_SOCKET", "WAYLAND_DEBUG"] { env[key] = nil }
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["WAYLAND_DISPLAY"] = socket
        // The default places file and saved views of this run only: a benchmark's pin drags
        // must not edit the user's places.
        env["XDG_DATA_HOME"] = runtimeDirectory + "/data"
        env["XDG_STATE_HOME"] = runtimeDirectory + "/state"
        return env
    }

    /// Sends `commands` at once and reads one answer per command (skipping `event` lines).
    /// Returns the answers that were errors.
    @discardableResult
    func send(_ commands: [String], timeout: Double) throws(BenchUnavailable) -> [String] {
        let text = Array(commands.map { $0 + "\n" }.joined().utf8)
        var written = 0
        while written < text.count {
            let n = text.withUnsafeBytes { write(commandFD, $0.baseAddress.map { $0 + written }, text.count - written) }
            if n <= 0 { throw BenchUnavailable("the test compositor stopped reading commands: \(logTail())") }
            written += n
        }
        var errors: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        var answered = 0
        while answered < commands.count {
            guard let line = readLine(timeout: deadline.timeIntervalSinceNow) else {
                throw BenchUnavailable("no answer from the test compositor to '\(commands[answered])': \(logTail())")
            }
            if line.hasPrefix("event ") { continue }
            if line.hasPrefix("error ") { errors.append(line) }
            lastAnswer = line
            answered += 1
        }
        return errors
    }

    /// How many commits toplevels have made so far (`commits`).
    func commits() throws(BenchUnavailable) -> Int {
        let errors = try send(["commits"], timeout: 5)
        guard errors.isEmpty, let n = lastAnswer.split(separator: " ").last.flatMap({ Int($0) }) else {
            throw BenchUnavailable("the test compositor did not count commits: \(errors.first ?? lastAnswer)")
        }
        return n
    }

    /// One line of the compositor's output, or nil after `timeout` seconds or at its end.
    private func readLine(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var p = pollfd(fd: answerFD, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(min(left * 1000, 60_000)) + 1) > 0 else { continue }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = read(answerFD, &buf, buf.count)
            guard n > 0 else { return nil }
            pending += buf[0..<n]
        }
    }

    /// The last lines of the compositor's log, for error messages.
    func logTail() -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: " | ")
    }

    /// Quits the compositor (closing its stdin is enough) and removes the runtime directory
    /// (kept when `MERIDIAN_E2E_KEEP` is set).
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? send(["quit"], timeout: 5)
        close(commandFD)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        // MERIDIAN_E2E_KEEP=1 keeps the logs for a look, as the end-to-end tests do.
        if getenv("MERIDIAN_E2E_KEEP") != nil {
            Bench.progress("kept \(runtimeDirectory) (compositor.log, meridian.log, latency.log)")
        } else {
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }
    }
}
