import Foundation
import Glibc
import XCTest

/// A stock wlroots compositor from Debian 12 — phoc (Phosh), sway or cage — started headless
/// on the pixman renderer in a private runtime directory, with `meridian` as its client and
/// `grim` (wlr-screencopy) for screenshots.
///
/// sway and cage refuse to run as root, so with `user` set the compositor, meridian and grim all
/// run as that uid (`setpriv`, no user account needed) and the runtime directory belongs to it.
/// A compositor that is not installed or does not start fails the test with its log: CI installs
/// all of them (scripts/install-deps.sh test).
final class StockCompositor {
    let name: String
    let runtimeDirectory: String
    let user: uid_t?
    let process: ChildProcess
    private(set) var socket = ""
    private var clients: [ClientProcess] = []

    /// The environment of every client: the run's own folders, never the user's.
    var environment: [String: String] {
        var env = ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socket, "PATH": "/usr/bin:/bin",
                   "HOME": runtimeDirectory, "XDG_CACHE_HOME": runtimeDirectory + "/cache",
                   "XDG_DATA_HOME": runtimeDirectory + "/data", "XDG_STATE_HOME": runtimeDirectory + "/state"]
        if user != nil { env["MERIDIAN_DATA_DIR"] = Self.stagedDataDirectory(runtimeDirectory) }
        return env
    }

    /// The meridian to run as `user`: as root the build's own; as another uid a copy in the
    /// runtime directory, with a copy of the shipped data beside it (`MERIDIAN_DATA_DIR`), since
    /// the checkout may sit in a folder only root can enter (a CI clone in a mode-0700 mktemp
    /// folder: there the build's meridian could not read its map, and sway showed no tiles).
    static func meridian(in runtimeDirectory: String, user: uid_t?) throws -> String {
        let built = try PackagePaths.meridianExecutable()
        guard user != nil else { return built }
        let fm = FileManager.default
        let bin = runtimeDirectory + "/bin", staged = bin + "/meridian", data = stagedDataDirectory(runtimeDirectory)
        if !fm.fileExists(atPath: staged) {
            do {
                try fm.createDirectory(atPath: bin, withIntermediateDirectories: true)
                try fm.copyItem(atPath: built, toPath: staged)
                try fm.createDirectory(atPath: data, withIntermediateDirectories: true)
                let shipped = PackagePaths.root + "/data"
                for item in try fm.contentsOfDirectory(atPath: shipped) where !["test", "recordings"].contains(item) {
                    try fm.copyItem(atPath: shipped + "/" + item, toPath: data + "/" + item)
                }
            } catch {
                throw HarnessError("cannot copy meridian and its data into \(runtimeDirectory) for uid \(user!): \(error)")
            }
            _ = chmod(staged, 0o755)
        }
        return staged
    }

    static func stagedDataDirectory(_ runtimeDirectory: String) -> String { runtimeDirectory + "/shipped-data" }

    /// Makes a runtime directory (mode 0700, owned by `user`), where the caller writes the
    /// compositor's configuration before starting it.
    static func makeRuntimeDirectory(_ name: String, user: uid_t?) throws -> String {
        var template = Array("/tmp/meridian-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        let directory = String(cString: made)
        if let user, chown(directory, user, user) != 0 {
            throw HarnessError("cannot give \(directory) to uid \(user): \(String(cString: strerror(errno))) (the test must run as root)")
        }
        return directory
    }

    /// Starts `arguments` (the compositor's command line, its executable first) in
    /// `runtimeDirectory` and waits for its Wayland socket. `socket`: the name it will use, or
    /// nil to take the first `wayland-N` that appears.
    init(name: String, runtimeDirectory: String, user: uid_t?, arguments: [String], socket: String? = nil,
         environment extra: [String: String] = [:], timeout: Double = 20) throws {
        guard let executable = PackagePaths.which(arguments[0]) else {
            throw HarnessError("\(arguments[0]) not found; scripts/install-deps.sh test installs it")
        }
        self.name = name
        self.runtimeDirectory = runtimeDirectory
        self.user = user
        let log = runtimeDirectory + "/\(name).log"
        let env = ["XDG_RUNTIME_DIR": runtimeDirectory, "PATH": "/usr/bin:/bin", "HOME": runtimeDirectory,
                   "XDG_CONFIG_HOME": runtimeDirectory + "/config", "XDG_CACHE_HOME": runtimeDirectory + "/cache",
                   "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]
            .merging(extra) { $1 }
        let (program, argv) = try Self.command(user: user, [executable] + arguments.dropFirst())
        process = try ChildProcess(executable: program, arguments: argv, environment: env,
                                   stdin: .null, stdout: .file(log), stderr: .file(log))
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let socket {
                if access(runtimeDirectory + "/" + socket, F_OK) == 0 { self.socket = socket; break }
            } else if let found = Self.waylandSocket(in: runtimeDirectory) {
                self.socket = found
                break
            }
            guard Date() < deadline, process.poll() == nil else {
                let status = process.poll().map { "\($0)" } ?? "no socket after \(timeout) s"
                throw HarnessError("\(name) did not start (\(status)): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            usleep(10_000)
        }
    }

    /// The first `wayland-N` socket in `directory` (not its `.lock`).
    private static func waylandSocket(in directory: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }.sorted().first
    }

    /// `argv` as it runs: through `setpriv` as `user` (its own group, no supplementary groups),
    /// or as it is.
    static func command(user: uid_t?, _ argv: [String]) throws -> (String, [String]) {
        guard let user else { return (argv[0], Array(argv.dropFirst())) }
        guard let setpriv = PackagePaths.which("setpriv") else { throw HarnessError("setpriv (util-linux) not found") }
        return (setpriv, ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] + argv)
    }

    /// Starts `meridian ARGUMENTS` as a client, as the compositor's uid, with its protocol log
    /// (WAYLAND_DEBUG) in its stderr when `protocolLog`.
    func spawnMeridian(_ arguments: [String], protocolLog: Bool = true, name: String = "meridian") throws -> ClientProcess {
        let base = runtimeDirectory + "/" + name
        let (program, argv) = try Self.command(user: user, [try Self.meridian(in: runtimeDirectory, user: user)] + arguments)
        var env = environment
        if protocolLog { env["WAYLAND_DEBUG"] = "1" }
        let p = try ChildProcess(executable: program, arguments: argv, environment: env,
                                 stdin: .null, stdout: .file(base + ".out"), stderr: .file(base + ".err"))
        let client = ClientProcess(process: p, stdoutPath: base + ".out", stderrPath: base + ".err")
        clients.append(client)
        return client
    }

    /// A screenshot of the whole output through grim (wlr-screencopy), in physical pixels.
    func screenshot() throws -> Image {
        guard let grim = PackagePaths.which("grim") else { throw HarnessError("grim not found; scripts/install-deps.sh test installs it") }
        let path = runtimeDirectory + "/shot.png"
        unlink(path)
        let (program, argv) = try Self.command(user: user, [grim, path])
        let shooter = try ChildProcess(executable: program, arguments: argv, environment: environment,
                                       stdin: .null, stdout: .null, stderr: .file(runtimeDirectory + "/grim.err"))
        let status = try shooter.wait(timeout: 10)
        guard status == .exited(0) else {
            throw HarnessError("grim failed (\(status)): \((try? String(contentsOfFile: runtimeDirectory + "/grim.err", encoding: .utf8)) ?? "")")
        }
        return try Image(contentsOfPNG: path)
    }

    /// The compositor's log so far.
    var log: String { (try? String(contentsOfFile: runtimeDirectory + "/\(name).log", encoding: .utf8)) ?? "" }

    deinit {
        clients.forEach { $0.terminate() }
        process.terminate()
        if ProcessInfo.processInfo.environment["MERIDIAN_E2E_KEEP"] == nil {
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }
    }
}

/// What the tests read from meridian's protocol log (WAYLAND_DEBUG=1 on its stderr).
struct ProtocolLog {
    let text: String

    /// The lines that mention `fragment`, in order.
    func lines(_ fragment: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(fragment) }
    }

    /// The integer arguments of a line such as `wl_shm_pool@18.create_buffer(new id wl_buffer@19, 0, 720, 1440, 2880, 1)`.
    static func numbers(_ line: Substring) -> [Int] {
        let inside = line.split(separator: "(", maxSplits: 1).last?.split(separator: ")").first ?? ""
        return inside.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Width and height of the first wl_buffer meridian created.
    var firstBufferSize: (Int, Int)? {
        guard let line = lines(".create_buffer(").first else { return nil }
        let n = Self.numbers(line)   // offset, width, height, stride, format
        return n.count == 5 ? (n[1], n[2]) : nil
    }
}

/// Voluntary plus involuntary context switches of a process so far: each wakeup adds one.
func contextSwitches(of pid: pid_t) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    return status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
        .compactMap { Int($0.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") }
        .reduce(0, +)
}

/// The state dump meridian wrote at exit, and where its targets are.
struct StateDump {
    let json: [String: Any]

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], "a JSON object in \(path)")
    }

    var window: (width: Int, height: Int, scale: Int) {
        let w = json["window"] as? [String: Any] ?? [:]
        return (w["width"] as? Int ?? -1, w["height"] as? Int ?? -1, w["scale"] as? Int ?? -1)
    }

    /// A target's frame in the window, in logical px (`zoomIn`, `zoomOut`, ...).
    func target(_ id: String) -> PixelRect? {
        let targets = json["targets"] as? [[String: Any]] ?? []
        guard let f = targets.first(where: { $0["id"] as? String == id })?["frame"] as? [String: Int] else { return nil }
        return PixelRect(x: f["x"] ?? 0, y: f["y"] ?? 0, width: f["width"] ?? 0, height: f["height"] ?? 0)
    }

    /// The map's frame in the window, in logical px (whole pixels inside it).
    var mapFrame: PixelRect? {
        guard let f = (json["map"] as? [String: Any])?["frame"] as? [String: Double],
              let fx = f["x"], let fy = f["y"], let fw = f["width"], let fh = f["height"] else { return nil }
        let x = Int(fx.rounded(.up)), y = Int(fy.rounded(.up))
        return PixelRect(x: x, y: y, width: Int((fx + fw).rounded(.down)) - x, height: Int((fy + fh).rounded(.down)) - y)
    }
}
