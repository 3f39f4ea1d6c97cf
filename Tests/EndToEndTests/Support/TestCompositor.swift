import Foundation
import Glibc
import Synchronization

/// A running meridian-test-compositor (tests/compositor), driven through its stdin command language.
///
/// Each instance has a private XDG_RUNTIME_DIR (mode 0700) and its own socket, so tests never touch
/// a real session. Every wait has a deadline, and the compositor, its clients and the runtime
/// directory go away in `deinit` (set MERIDIAN_E2E_KEEP=1 to keep the directory, with the
/// screenshots and logs, for a look after a failure).
///
///     let c = try TestCompositor(width: 800, height: 1280, kiosk: true)
///     let app = try c.spawnClient(executable: try PackagePaths.meridianExecutable())
///     try c.waitMap()
///     try c.send("down 0 100 100"); try c.send("frame")
///     let image = try c.screenshot()
final class TestCompositor {
    /// An `error ...` answer: the command was understood but refused, with the compositor's reason.
    struct CommandError: Error, CustomStringConvertible {
        let command: String
        let reason: String
        var description: String { "compositor refused '\(command)': \(reason)" }
    }

    let width: Int
    let height: Int
    let runtimeDirectory: String
    let socketName: String
    /// Time from spawn to the `ready` line.
    private(set) var startupDuration: Duration = .zero
    /// Every `event ...` line so far, without the `event ` prefix, oldest first.
    private(set) var events: [String] = []

    private let process: ChildProcess
    private var commandFD: Int32  // our end of the compositor's stdin
    private let outputFD: Int32   // our end of its stdout
    private var pending: [UInt8] = []
    private var eventCursor = 0
    private var clients: [ClientProcess] = []
    private var screenshotCount = 0
    private var clientCount = 0
    private static let counter = AtomicCounter()

    /// Starts the compositor (building it first if needed) and waits for `ready`. `environment`
    /// adds to its environment (`XKB_DEFAULT_LAYOUT`/`_VARIANT` choose the seat's keymap).
    /// `refreshHz`: the output's refresh (`-R`; the compositor's default, 60 Hz, when nil).
    init(width: Int = 800, height: Int = 600, kiosk: Bool = false, verbose: Bool = false, refreshHz: Int? = nil,
         startupTimeout: Double = 10, environment: [String: String] = [:]) throws {
        try PackagePaths.ensureCompositorBuilt()
        // A test process writing to a dead compositor must get EPIPE, not die.
        signal(SIGPIPE, SIG_IGN)
        self.width = width
        self.height = height

        var template = Array("/tmp/meridian-e2e-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        runtimeDirectory = String(cString: created) // mkdtemp makes it 0700, as Wayland wants
        socketName = "meridian-test-\(getpid())-\(Self.counter.next())"

        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        // pipe2 is hidden behind _GNU_SOURCE; close-on-exec keeps our ends out of every child,
        // so the compositor sees EOF on stdin as soon as this process closes it or dies.
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            throw HarnessError("pipe failed: \(String(cString: strerror(errno)))")
        }
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var arguments = ["-W", "\(width)", "-H", "\(height)", "-S", socketName, "-f", "-"]
        if kiosk { arguments.append("-k") }
        if verbose { arguments.append("-v") }
        if let refreshHz { arguments += ["-R", "\(refreshHz)"] }
        let started = ContinuousClock.now
        do {
            process = try ChildProcess(
                executable: PackagePaths.compositor, arguments: arguments,
                environment: Self.baseEnvironment(runtimeDirectory: runtimeDirectory).merging(environment) { $1 },
                stdin: .fd(input[0]), stdout: .fd(output[1]), stderr: .file(runtimeDirectory + "/compositor.log"))
        } catch {
            input.forEach { close($0) }
            output.forEach { close($0) }
            throw error
        }
        close(input[0])
        close(output[1])
        commandFD = input[1]
        outputFD = output[0]

        let deadline = started + .milliseconds(Int(startupTimeout * 1000))
        while true {
            guard let line = try readLine(until: deadline, waitingFor: "ready") else { continue }
            if line == "ready" { break }
            record(line)
        }
        startupDuration = ContinuousClock.now - started
    }

    deinit {
        shutdown()
    }

    // MARK: Commands

    /// Sends one command and waits for its answer; returns the result text after `ok <cmd>: `
    /// (empty for commands without one). Throws `CommandError` on an `error` answer.
    @discardableResult
    func send(_ command: String, timeout: Double = 15) throws -> String {
        let trimmed = command.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains("\n"), !trimmed.hasPrefix("#") else {
            throw HarnessError("not a single command: \(command.debugDescription)")
        }
        try write(trimmed + "\n")
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            guard let line = try readLine(until: deadline, waitingFor: "the answer to '\(trimmed)'") else { continue }
            if line == "ok \(trimmed)" { return "" }
            if line.hasPrefix("ok \(trimmed): ") { return String(line.dropFirst("ok \(trimmed): ".count)) }
            if line.hasPrefix("error \(trimmed): ") {
                throw CommandError(command: trimmed, reason: String(line.dropFirst("error \(trimmed): ".count)))
            }
            record(line)
        }
    }

    /// Waits until a toplevel is mapped.
    func waitMap(timeout: Double = 10) throws {
        try send("wait-map \(Int(timeout * 1000))", timeout: timeout + 5)
    }

    /// Waits for a commit of a toplevel surface: the next one, or with `since` (a `commits()` count
    /// read before injecting input) any commit made after that count, so that a client reacting
    /// faster than this call arrives is not missed.
    func waitCommit(since: Int? = nil, timeout: Double = 5) throws {
        let mark = since.map { " \($0)" } ?? ""
        try send("wait-commit \(Int(timeout * 1000))\(mark)", timeout: timeout + 5)
    }

    /// Waits until toplevels have made no commit for `quiet` seconds, counted from now.
    func waitIdle(quiet: Double = 0.1, timeout: Double = 5) throws {
        try send("wait-idle \(Int(quiet * 1000)) \(Int(timeout * 1000))", timeout: timeout + 5)
    }

    /// Waits until the client has read every event sent so far (`sync`) and has then made no
    /// commit for `quiet` seconds: the motion the input set off (a glide, an animated zoom, a
    /// fade) has ended. From outside, commits stopping is the only sign of that; the sync first
    /// keeps a client that has not even read the input yet from passing for settled.
    func settle(quiet: Double = 0.5, timeout: Double = 20) throws {
        try sync(timeout: timeout)
        try waitIdle(quiet: quiet, timeout: timeout)
    }

    /// Waits for the next output frame (a render pass and frame callbacks).
    func waitFrame(timeout: Double = 5) throws {
        try send("wait-frame \(Int(timeout * 1000))", timeout: timeout + 5)
    }

    /// Waits until the newest toplevel's client has read and dispatched every event sent so far
    /// (it answers a ping sent after them): injected input has reached the app.
    func sync(timeout: Double = 10) throws {
        try send("wait-sync \(Int(timeout * 1000))", timeout: timeout + 5)
    }

    /// Lets `seconds` pass inside the compositor (clients keep running; events keep arriving).
    func sleep(_ seconds: Double) throws {
        try send("sleep \(Int(seconds * 1000))", timeout: seconds + 5)
    }

    /// Takes a screenshot of the whole output, in physical pixels.
    func screenshot(named name: String? = nil) throws -> Image {
        screenshotCount += 1
        let path = "\(runtimeDirectory)/\(name ?? "screenshot-\(screenshotCount)").png"
        try send("screenshot \(path)")
        return try Image(contentsOfPNG: path)
    }

    /// Takes screenshots until one shows what `shows` looks for, or until `timeout` passes; returns
    /// the last one either way, for the caller's assertions to say what is wrong with it. The wait
    /// for a picture is the picture itself: a commit, or a quiet spell after one, need not be the
    /// frame that reacted to the input (docs/TEST-COMPOSITOR.md, quirk 1).
    func screenshot(timeout: Double = 10, until shows: (Image) -> Bool) throws -> Image {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            let shot = try screenshot(named: "polled")
            if shows(shot) || ContinuousClock.now >= deadline { return shot }
            try waitFrame()
        }
    }

    /// The `status` line as key/value pairs (toplevels, mapped, touch-points, caps, output, ...).
    func status() throws -> [String: String] {
        var result: [String: String] = [:]
        for field in try send("status").split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }

    /// How many commits toplevel surfaces have made since the compositor started.
    func commits() throws -> Int {
        let text = try send("commits")
        guard let count = Int(text) else { throw HarnessError("commits answered \(text.debugDescription)") }
        return count
    }

    /// What `buffers` reports: commits that attached a buffer (bare commits not counted), the
    /// most of them between two refreshes, those with empty damage, and the newest one's
    /// logical and buffer size.
    struct BufferCount: Equatable {
        var count: Int
        var mostPerRefresh: Int
        var emptyDamage: Int
        var size: String
        var buffer: String
    }

    /// The buffer counts so far; `reset` zeroes the count and the most-per-refresh first.
    func buffers(reset: Bool = false) throws -> BufferCount {
        let text = try send(reset ? "buffers reset" : "buffers")
        var fields: [String: String] = [:]
        for field in text.split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let count = fields["count"].flatMap({ Int($0) }), let most = fields["most-per-refresh"].flatMap({ Int($0) }),
              let empty = fields["empty-damage"].flatMap({ Int($0) }), let size = fields["size"], let buffer = fields["buffer"]
        else { throw HarnessError("buffers answered \(text.debugDescription)") }
        return BufferCount(count: count, mostPerRefresh: most, emptyDamage: empty, size: size, buffer: buffer)
    }

    // MARK: Events

    /// Waits for the next `event` line (after those already returned) that starts with `prefix`,
    /// and returns it without the `event ` prefix.
    @discardableResult
    func waitForEvent(_ prefix: String, timeout: Double = 10) throws -> String {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            while eventCursor < events.count {
                let event = events[eventCursor]
                eventCursor += 1
                if event.hasPrefix(prefix) { return event }
            }
            if let line = try readLine(until: deadline, waitingFor: "event '\(prefix)'") { record(line) }
        }
    }

    // MARK: Clients

    /// Starts a Wayland client of this compositor, with DISPLAY and any outer WAYLAND_DISPLAY removed.
    /// Its stdout and stderr are captured in files; it is killed when the compositor is torn down.
    func spawnClient(executable: String, arguments: [String] = [], environment: [String: String] = [:]) throws
        -> ClientProcess
    {
        clientCount += 1
        let base = "\(runtimeDirectory)/client-\(clientCount)"
        var env = Self.baseEnvironment(runtimeDirectory: runtimeDirectory)
        env["WAYLAND_DISPLAY"] = socketName
        env.merge(environment) { $1 }
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: env,
            stdin: .null, stdout: .file(base + ".out"), stderr: .file(base + ".err"))
        let client = ClientProcess(process: process, stdoutPath: base + ".out", stderrPath: base + ".err")
        clients.append(client)
        return client
    }

    // MARK: Ending

    /// Asks the compositor to quit and waits for it to exit; returns its exit status.
    @discardableResult
    func quit(timeout: Double = 5) throws -> ExitStatus {
        try send("quit", timeout: timeout)
        return try process.wait(timeout: timeout)
    }

    /// Kills the compositor abruptly (SIGKILL), as a crash would, leaving its clients running.
    func kill() {
        process.signalGroup(SIGKILL)
        _ = try? process.wait(timeout: 5)
    }

    /// The compositor's exit status if it has ended.
    var exitStatus: ExitStatus? { process.poll() }

    /// The compositor's stderr so far (wlroots log; debug level with `verbose`).
    var log: String { (try? String(contentsOfFile: runtimeDirectory + "/compositor.log", encoding: .utf8)) ?? "" }

    /// Kills clients and compositor and removes the runtime directory; safe to call more than once.
    func shutdown() {
        clients.forEach { $0.terminate() }
        if commandFD >= 0 {
            close(commandFD) // EOF: the compositor quits by itself
            commandFD = -1
        }
        if process.poll() == nil {
            _ = try? process.wait(timeout: 1)
        }
        process.terminate()
        if outputFD >= 0 { close(outputFD) }
        if ProcessInfo.processInfo.environment["MERIDIAN_E2E_KEEP"] == nil {
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }
    }

    // MARK: Plumbing

    private static func baseEnvironment(runtimeDirectory: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "WAYLAND_DEBUG"] { env[name] = nil }
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        // Each session gets its own default places file (made from the sample) and saved views:
        // a test that drags a pin must not move it for the next test, nor touch the user's.
        env["XDG_DATA_HOME"] = runtimeDirectory + "/data"
        env["XDG_STATE_HOME"] = runtimeDirectory + "/state"
        return env
    }

    private func record(_ line: String) {
        if line.hasPrefix("event ") {
            events.append(String(line.dropFirst("event ".count)))
        }
    }

    private func write(_ text: String) throws {
        guard commandFD >= 0 else { throw HarnessError("the compositor has been shut down") }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(commandFD, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw HarnessError("cannot send to the compositor (\(String(cString: strerror(errno)))); \(deathNote())")
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Reads one line from the compositor, or returns nil to let the caller re-check; throws at the
    /// deadline or when the compositor has gone.
    private func readLine(until deadline: ContinuousClock.Instant, waitingFor what: String) throws -> String? {
        if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            return line
        }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else {
            throw HarnessError("timed out waiting for \(what); compositor log:\n\(log.suffix(2000))")
        }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        var descriptor = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&descriptor, 1, min(milliseconds, 1000))
        if ready < 0 && errno != EINTR {
            throw HarnessError("poll failed: \(String(cString: strerror(errno)))")
        }
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(outputFD, $0.baseAddress, $0.count) }
        if count > 0 {
            pending.append(contentsOf: buffer[..<count])
            return nil
        }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return nil }
        throw HarnessError("compositor closed its output while waiting for \(what); \(deathNote())")
    }

    private func deathNote() -> String {
        _ = try? process.wait(timeout: 1)
        let status = process.poll().map { "\($0)" } ?? "still running"
        return "compositor \(status); its log:\n\(log.suffix(2000))"
    }
}

/// A process-wide counter for unique socket names.
private final class AtomicCounter: Sendable {
    private let value = Mutex<Int>(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
