import Foundation
import Glibc

/// How a child process ended.
enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    var description: String {
        switch self {
        case .exited(let code): return "exit status \(code)"
        case .signalled(let signal): return "killed by signal \(signal)"
        }
    }
}

/// An error from the end-to-end harness, with a message that says what to look at.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where a child's standard stream goes.
enum ChildStream {
    case null
    case file(String)
    case fd(Int32)
}

/// A process started with posix_spawn in its own process group, reaped by whoever ends it.
///
/// Its own process group, so that ending it also ends whatever it started (the compositor's
/// `exec`ed clients). Every wait has a deadline; nothing here can block a test for ever.
final class ChildProcess {
    let pid: pid_t
    let executable: String
    private(set) var status: ExitStatus?

    /// Starts `executable` (looked up in PATH when it has no slash) with exactly `environment`.
    init(executable: String, arguments: [String], environment: [String: String],
         stdin: ChildStream, stdout: ChildStream, stderr: ChildStream) throws {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(stdin, STDIN_FILENO), (stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)] {
            switch stream {
            case .null:
                let flags = target == STDIN_FILENO ? O_RDONLY : O_WRONLY
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", flags, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .fd(let fd):
                // dup2 clears close-on-exec on the copy, so only the child's standard stream survives.
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner may ignore SIGPIPE or block signals; children get the defaults.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGCHLD, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw HarnessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    deinit {
        terminate()
    }

    /// The exit status if the process has ended, without waiting.
    func poll() -> ExitStatus? {
        if let status { return status }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        if result == pid {
            status = Self.decode(raw)
        } else if result < 0 && errno == ECHILD {
            status = .exited(-1) // reaped elsewhere; nothing more to learn
        }
        return status
    }

    /// Waits until the process ends or `timeout` seconds pass (then throws; the process keeps running).
    @discardableResult
    func wait(timeout: Double) throws -> ExitStatus {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            if let status = poll() { return status }
            if ContinuousClock.now >= deadline {
                throw HarnessError("\(executable) (pid \(pid)) still running after \(timeout) s")
            }
            usleep(2_000)
        }
    }

    /// Waits until this compositor has made its Wayland socket at `socket` (then its clients can
    /// connect), polling every `interval` µs; throws with its log at `log` if it ends first or
    /// `timeout` seconds pass.
    func waitForSocket(_ socket: String, timeout: Double, interval: UInt32, log: String, name: String) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while access(socket, F_OK) != 0 {
            guard Date() < deadline, poll() == nil else {
                throw HarnessError("\(name) did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            usleep(interval)
        }
    }

    /// Sends `signal` to the process and everything in its process group.
    func signalGroup(_ signal: Int32) {
        guard poll() == nil else { return }
        if Glibc.kill(-pid, signal) != 0 {
            _ = Glibc.kill(pid, signal)
        }
    }

    /// Ends the process group now (SIGKILL) and reaps the process; safe to call more than once.
    func terminate() {
        guard poll() == nil else { return }
        signalGroup(SIGKILL)
        _ = try? wait(timeout: 5)
    }

    private static func decode(_ raw: Int32) -> ExitStatus {
        // The W* macros are not imported into Swift; these are their glibc definitions.
        let signal = raw & 0x7f
        return signal == 0 ? .exited((raw >> 8) & 0xff) : .signalled(signal)
    }
}

/// A client started under the test compositor, with its output captured into files.
final class ClientProcess {
    let process: ChildProcess
    let stdoutPath: String
    let stderrPath: String

    init(process: ChildProcess, stdoutPath: String, stderrPath: String) {
        self.process = process
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
    }

    var pid: pid_t { process.pid }

    /// Everything the client wrote to stdout so far.
    var standardOutput: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// Everything the client wrote to stderr so far.
    var standardError: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The exit status if the client has ended.
    var exitStatus: ExitStatus? { process.poll() }

    /// Waits for the client to end, throwing (with its stderr) after `timeout` seconds.
    @discardableResult
    func waitForExit(timeout: Double = 10) throws -> ExitStatus {
        do {
            return try process.wait(timeout: timeout)
        } catch {
            throw HarnessError("\(error); its stderr:\n\(standardError.suffix(2000))")
        }
    }

    /// Sends a signal to the client (SIGTERM by default).
    func signal(_ signal: Int32 = SIGTERM) {
        process.signalGroup(signal)
    }

    /// Kills the client now and reaps it.
    func terminate() {
        process.terminate()
    }
}
