import Glibc

/// Tells when a file may have been replaced or rewritten by another program: an inotify watch
/// on its folder (an editor's save renames a new file over the old one, which a watch on the
/// file itself would lose), filtered to the file's name. The descriptor is non-blocking, for
/// the app's poll loop; nothing polls on a timer, so an idle window still sleeps.
public final class FolderWatch {
    public let fileDescriptor: Int32
    private let name: String

    public init?(file path: String) {
        let (folder, name) = AtomicFile.split(path)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(fd, folder, mask) >= 0 else {
            close(fd)
            return nil
        }
        fileDescriptor = fd
        self.name = name
    }

    deinit { close(fileDescriptor) }

    /// Reads every pending event; true when one was about the file.
    public func drain() -> Bool {
        var hit = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if n <= 0 { return hit }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let length = buffer.withUnsafeBytes { raw -> Int in
                    Int(raw.loadUnaligned(fromByteOffset: offset + MemoryLayout<inotify_event>.offset(of: \.len)!, as: UInt32.self))
                }
                let nameStart = offset + header
                let nameEnd = min(n, nameStart + length)
                let eventName = String(decoding: buffer[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
                if eventName == name { hit = true }
                offset = nameEnd
            }
        }
    }
}
