import JSONText
import Glibc

/// What identifies one version of a file on disk: a save by anyone (a rename over it, or a
/// write in place) changes at least one of these.
public struct FileFingerprint: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modifiedSeconds = st.st_mtim.tv_sec
        modifiedNanoseconds = st.st_mtim.tv_nsec
    }
}

/// A file problem, naming the file (and where in it, for text that is not GeoJSON).
public struct DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var location: TextPosition?
    public var message: String

    public init(path: String, location: TextPosition? = nil, message: String) {
        self.path = path
        self.location = location
        self.message = message
    }

    public var description: String {
        if let l = location { return "\(path):\(l.line):\(l.column): \(message)" }
        return "\(path): \(message)"
    }
}

/// Reading a whole file and replacing one atomically: the bytes go to a temporary file in the
/// same folder (created 0600, so nobody reads a half-written copy), which is fsynced, given the
/// original's permissions and renamed over the file; then the folder is fsynced so the rename
/// itself survives a power cut. At every instant the path names the old file or the new one.
public enum AtomicFile {
    static func errorText() -> String { String(cString: strerror(errno)) }

    /// The file's bytes and the fingerprint and mode of exactly what was read.
    public static func read(_ path: String) throws(DocumentError) -> (bytes: [UInt8], fingerprint: FileFingerprint, mode: mode_t) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DocumentError(path: path, message: "cannot open: \(errorText())") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw DocumentError(path: path, message: "cannot stat: \(errorText())") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw DocumentError(path: path, message: "not a regular file") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(st.st_size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw DocumentError(path: path, message: "cannot read: \(errorText())")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return (bytes, FileFingerprint(st), st.st_mode & 0o7777)
    }

    /// The fingerprint of what `path` names now, or nil when it does not exist.
    public static func fingerprint(_ path: String) -> FileFingerprint? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileFingerprint(st)
    }

    /// Replaces (or creates) `path` with `bytes`, atomically. `mode` is the permission bits the
    /// file ends with (the original's, or 0644 for a new file).
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(DocumentError) -> FileFingerprint {
        let (folder, base) = split(path)
        var template = Array("\(folder)/.\(base).save-\(getpid())-XXXXXX".utf8CString)
        // mkstemp creates the file 0600: nobody else can read a half-written copy.
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw DocumentError(path: path, message: "cannot create a temporary file in \(folder): \(errorText())") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ what: String) -> DocumentError {
            let reason = errorText()
            close(fd)
            unlink(temporary)
            return DocumentError(path: path, message: "\(what): \(reason); the file on disk is unchanged")
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("cannot write")
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw fail("cannot flush to disk") }
        guard fchmod(fd, mode) == 0 else { throw fail("cannot set permissions") }
        guard close(fd) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw DocumentError(path: path, message: "cannot write: \(reason); the file on disk is unchanged")
        }
        guard rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw DocumentError(path: path, message: "cannot replace the file: \(reason); it is unchanged")
        }
        syncFolder(folder)
        return fingerprint(path) ?? FileFingerprint(stat())
    }

    /// fsync on the folder makes the rename durable. A folder that cannot be opened (odd
    /// filesystems) still has the rename; there is nothing better to do than go on.
    static func syncFolder(_ folder: String) {
        let dfd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return }
        fsync(dfd)
        close(dfd)
    }

    /// Temporary files a killed save left behind (their process is gone), removed.
    public static func removeStaleTemporaries(of path: String) {
        let (folder, base) = split(path)
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        let prefix = ".\(base).save-"
        var stale: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { stale.append("\(folder)/\(name)") }
        }
        for s in stale { unlink(s) }
    }

    /// The folder and file name of a path (the folder is "." for a bare name).
    public static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// `path` made absolute with symbolic links resolved, so that a save replaces the file the
    /// link points to rather than the link; the path itself when it does not exist yet.
    public static func resolved(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return path }
        defer { free(r) }
        return String(cString: r)
    }

    /// Creates `folder` and its parents (mode 0700, as the XDG base directories ask).
    public static func makeFolders(_ folder: String) throws(DocumentError) {
        var partial = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            partial += "/\(component)"
            if mkdir(partial, 0o700) != 0, errno != EEXIST {
                throw DocumentError(path: partial, message: "cannot create the folder: \(errorText())")
            }
        }
    }
}
