import Glibc

/// Where Meridian keeps the user's files, per the XDG Base Directory specification: data
/// (the default places file) under `$XDG_DATA_HOME/meridian`, state (the view each document
/// was left at) under `$XDG_STATE_HOME/meridian`. A variable that is unset, empty or not an
/// absolute path is ignored, as the specification says.
public struct XDGPaths: Sendable, Equatable {
    public var dataHome: String
    public var stateHome: String

    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        func base(_ variable: String, _ fallback: String) -> String {
            if let v = environment[variable], v.hasPrefix("/") { return v }
            return "\(home)/\(fallback)"
        }
        dataHome = base("XDG_DATA_HOME", ".local/share")
        stateHome = base("XDG_STATE_HOME", ".local/state")
    }

    /// The current process's environment; with no usable HOME, the user's home from the
    /// password database.
    public static var current: XDGPaths {
        var env: [String: String] = [:]
        for name in ["HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"] {
            if let v = getenv(name) { env[name] = String(cString: v) }
        }
        if !(env["HOME"]?.hasPrefix("/") ?? false), let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir {
            env["HOME"] = String(cString: dir)
        }
        return XDGPaths(environment: env)
    }

    /// The places file opened when none is named.
    public var defaultPlacesFile: String { "\(dataHome)/meridian/places.geojson" }

    /// The view state file for the document at `documentPath` (absolute): one file per document,
    /// named by a hash of its path so two files called `places.geojson` do not share a view.
    public func viewStateFile(for documentPath: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a, 64 bit
        for b in documentPath.utf8 {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "\(stateHome)/meridian/views/\(String(repeating: "0", count: 16 - hex.count) + hex).json"
    }
}
