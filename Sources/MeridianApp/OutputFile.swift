import Glibc

/// Writes a file so that it either appears whole or not at all: into a temporary name beside
/// it, then renamed. A failed run never leaves a partial output behind.
enum OutputFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ path: String, _ produce: (String) -> Bool) throws(Failure) {
        let temporary = "\(path).partial-\(getpid())"
        guard produce(temporary) else {
            unlink(temporary)
            throw Failure(description: "cannot write \(path)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot write \(path): \(reason)")
        }
    }

    static func write(_ path: String, text: String) throws(Failure) {
        try write(path) { temporary in
            guard let f = fopen(temporary, "w") else { return false }
            let ok = fputs(text, f) >= 0
            return fclose(f) == 0 && ok
        }
    }

    /// The whole contents of a file as UTF-8 text, or a message saying why not.
    static func read(_ path: String) throws(Failure) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        guard st.st_mode & S_IFMT != S_IFDIR else { throw Failure(description: "cannot read \(path): it is a directory") }
        guard let f = fopen(path, "r") else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(f) != 0 { throw Failure(description: "cannot read \(path): read error") }
                break
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(description: "\(path): not UTF-8 text")
        }
        return text
    }
}
