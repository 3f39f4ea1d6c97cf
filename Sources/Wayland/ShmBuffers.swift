import CWaylandClient
import CWaylandShims
import Glibc

/// One `wl_buffer` backed by its own sealed memfd, mapped into our address space.
final class ShmBuffer {
    let width: Int
    let height: Int
    let stride: Int
    let pixels: UnsafeMutableRawPointer
    private let size: Int
    private let fd: Int32
    private let pool: OpaquePointer
    let proxy: OpaquePointer
    /// True from the commit that hands it to the compositor until `wl_buffer.release`.
    fileprivate(set) var busy = false
    /// Set when the buffer is no longer wanted (resize) but the compositor still holds it.
    fileprivate var retired = false
    fileprivate weak var set: BufferSet?
    /// The frame (`DamageHistory.frame`) whose picture this buffer holds; nil until drawn.
    var drawnFrame: UInt64?
    /// The title bar drawn at the top of this buffer, if any.
    var titleBar: TitleBar.State?

    init(shm: OpaquePointer, width: Int, height: Int) throws(WaylandError) {
        self.width = width
        self.height = height
        stride = width * 4
        size = stride * height
        fd = meridian_create_shm_file(size)
        guard fd >= 0 else { throw WaylandError("cannot create shared memory for a \(width)x\(height) buffer: \(String(cString: strerror(errno)))") }
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw WaylandError("cannot map a \(width)x\(height) buffer: \(reason)")
        }
        pixels = map
        guard let pool = wl_shm_create_pool(shm, fd, Int32(size)),
              let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                                     WL_SHM_FORMAT_XRGB8888.rawValue)
        else {
            munmap(map, size)
            close(fd)
            throw WaylandError("the compositor refused a \(width)x\(height) shm buffer")
        }
        self.pool = pool
        proxy = buffer
        wl_buffer_add_listener(buffer, ShmBuffer.listener.pointer, opaque(self))
    }

    fileprivate func markBusy() { busy = true }

    func destroy() {
        wl_buffer_destroy(proxy)
        wl_shm_pool_destroy(pool)
        munmap(pixels, size)
        close(fd)
    }

    static let listener = ListenerTable(wl_buffer_listener(
        release: { data, _ in
            guard let b = owner(data, as: ShmBuffer.self) else { return }
            b.busy = false
            b.set?.released(b)
        }
    ))
}

/// Two or three buffers of the window's current size, so that we never draw into a buffer the
/// compositor still reads. A resize retires the old buffers; busy ones are destroyed on release.
final class BufferSet {
    private let shm: OpaquePointer
    private var buffers: [ShmBuffer] = []
    private var retired: [ShmBuffer] = []
    static let maximumCount = 3

    init(shm: OpaquePointer) { self.shm = shm }

    /// A free buffer of exactly this size, or nil when all are busy (wait for a release).
    func acquire(width: Int, height: Int) throws(WaylandError) -> ShmBuffer? {
        if let first = buffers.first, first.width != width || first.height != height {
            for b in buffers {
                if b.busy {
                    b.retired = true
                    retired.append(b)
                } else {
                    b.destroy()
                }
            }
            buffers.removeAll()
        }
        // Of the free buffers, the one with the newest picture has the least to redraw.
        if let free = buffers.filter({ !$0.busy }).max(by: { ($0.drawnFrame ?? 0) < ($1.drawnFrame ?? 0) }) { return free }
        guard buffers.count < BufferSet.maximumCount else { return nil }
        let b = try ShmBuffer(shm: shm, width: width, height: height)
        b.set = self
        buffers.append(b)
        return b
    }

    func attached(_ b: ShmBuffer) { b.markBusy() }

    fileprivate func released(_ b: ShmBuffer) {
        if b.retired {
            retired.removeAll { $0 === b }
            b.destroy()
        }
    }

    /// Buffers alive now (for tests and the resize-storm check).
    var liveCount: Int { buffers.count + retired.count }

    func destroyAll() {
        for b in buffers + retired { b.destroy() }
        buffers.removeAll()
        retired.removeAll()
    }
}
