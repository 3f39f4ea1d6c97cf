import CCairo
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An opaque raster owned by Swift: one cairo image surface, freed when the value's last
/// reference goes.
///
/// Tiles use `CAIRO_FORMAT_RGB24`: the same 32-bit pixel as ARGB32 and `WL_SHM_FORMAT_XRGB8888`,
/// but pixman knows it is opaque, so compositing it with OVER becomes a plain copy (the
/// reference's 0.19 ms full-screen blit relies on that).
public final class RasterImage: @unchecked Sendable {
    // Sendable: after the rasterizer finishes drawing, the surface is only ever read (used as
    // a source pattern), and cairo allows concurrent reads of one image surface from several
    // contexts.

    /// The cairo surface; borrowed, valid as long as this object lives.
    public let surface: OpaquePointer
    public let width: Int
    public let height: Int
    /// The pixels, mapped by us so freeing a tile gives its memory straight back to the
    /// system or to its pool (see `init`).
    private let pixels: UnsafeMutableRawPointer
    private let mappedBytes: Int
    private let pool: PixelPool

    /// A new image, or nil when the memory cannot be had.
    ///
    /// The pixels are an anonymous mmap rather than cairo's malloc: after the first large
    /// block is freed, glibc raises its mmap threshold and serves the next tiles from its
    /// heaps, where the churn of a tile cache (and one heap per worker thread) leaves freed
    /// tiles counted in RSS: the render bench peaked at 135 MB RSS that way, 86 MB with this.
    /// Freed mappings go back to `pool` for the next image: mapping fresh pages for every
    /// tile spent 17 % of a cold screen in the kernel's page faults.
    ///
    /// - Parameter cleared: whether the pixels must start black. Pass false when the caller
    ///   paints every pixel anyway (a tile paints its background first): a reused mapping then
    ///   keeps its old bytes instead of being cleared for nothing.
    public init?(width: Int, height: Int, opaque: Bool = true, pool: PixelPool = .shared, cleared: Bool = true) {
        let format = opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
        guard width > 0, height > 0, width < 1 << 15, height < 1 << 15 else { return nil }
        let stride = Int(cairo_format_stride_for_width(format, Int32(width)))
        let bytes = stride * height
        guard stride > 0, let mapped = pool.take(bytes: bytes, cleared: cleared) else { return nil }
        guard let s = cairo_image_surface_create_for_data(mapped.pointer.assumingMemoryBound(to: UInt8.self), format,
                                                          Int32(width), Int32(height), Int32(stride))
        else {
            pool.give(mapped.pointer, bytes: mapped.bytes)
            return nil
        }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            pool.give(mapped.pointer, bytes: mapped.bytes)
            return nil
        }
        surface = s
        pixels = mapped.pointer
        mappedBytes = mapped.bytes
        self.pool = pool
        self.width = width
        self.height = height
    }

    deinit {
        cairo_surface_destroy(surface)
        pool.give(pixels, bytes: mappedBytes)
    }

    /// Bytes of memory the image holds: its pixels, or a little more when it reuses a larger
    /// freed mapping (what the tile cache counts against its budget).
    public var memoryBytes: Int { mappedBytes }

    /// Bytes the pixels take (what the tile cache counts against its budget).
    public var byteCount: Int { Int(cairo_image_surface_get_stride(surface)) * height }

    /// The colour at a pixel as 0xRRGGBB (alpha ignored), or nil outside the image.
    public func rgb(x: Int, y: Int) -> UInt32? {
        guard x >= 0, y >= 0, x < width, y < height, let data = cairo_image_surface_get_data(surface) else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let word = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        return word & 0x00FF_FFFF
    }

    /// The raw pixel bytes, row by row (stride padding included), for comparisons and hashing.
    public func bytes() -> [UInt8] {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: byteCount))
    }

    /// Writes the image as PNG; returns false with cairo's reason when it cannot.
    public func writePNG(to path: String) -> String? {
        let status = cairo_surface_write_to_png(surface, path)
        return status == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(status))
    }
}

/// Freed pixel mappings kept for the next images, so drawing a tile rarely maps (and the
/// kernel faults in and zeroes) fresh pages.
///
/// A tile cache owns one pool whose limit is its budget minus the bytes its tiles hold, so
/// tiles and the pool together stay within the budget: in a full cache every evicted tile's
/// memory becomes the next tile's. Images outside a cache use `shared` (at most 8 MiB kept).
/// A mapping serves any request from its own size down to two thirds of it: crisp zooms draw
/// tiles of slightly different sizes (181…362 px at scale 1), and a near fit beats a fresh map.
public final class PixelPool: Sendable {
    /// The pool for images that no cache owns.
    public static let shared = PixelPool(limitBytes: 8 << 20)

    private struct Free {
        /// Mapping sizes → addresses (integers: raw pointers are not Sendable, and only this
        /// pool touches a mapping between its owners).
        var bySize: [Int: [UInt]] = [:]
        var bytes = 0
        var limit: Int
    }
    private let free: Mutex<Free>

    public init(limitBytes: Int) { free = Mutex(Free(limit: max(0, limitBytes))) }

    deinit {
        // Images hold their pool, so none is alive now: whatever is kept goes back to the system.
        setLimit(0)
    }

    /// Bytes waiting for reuse.
    public var keptBytes: Int { free.withLock { $0.bytes } }

    /// A mapping of at least `bytes` (and at most 1.5 × `bytes`), reused when one is free,
    /// zeroed when `cleared` (fresh mappings always are); nil when the system has no memory.
    func take(bytes: Int, cleared: Bool) -> (pointer: UnsafeMutableRawPointer, bytes: Int)? {
        let reused = free.withLock { f -> (UInt, Int)? in
            // The smallest kept size that fits; sizes are few (one or two per zoom), so a scan is cheap.
            guard let size = f.bySize.keys.filter({ $0 >= bytes && $0 <= bytes + bytes / 2 }).min(),
                  let address = f.bySize[size]?.popLast() else { return nil }
            if f.bySize[size]?.isEmpty == true { f.bySize[size] = nil }
            f.bytes -= size
            return (address, size)
        }
        if let (address, size) = reused, let p = UnsafeMutableRawPointer(bitPattern: address) {
            if cleared { memset(p, 0, size) }
            return (p, size)
        }
        // MAP_POPULATE: the kernel fills in every page in this one call instead of one fault
        // per 4 KiB page as the tile is first painted.
        guard let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0),
              mapped != MAP_FAILED else {
            return nil
        }
        return (mapped, bytes)
    }

    /// Takes a mapping back: kept when it fits under the limit, otherwise unmapped.
    func give(_ p: UnsafeMutableRawPointer, bytes: Int) {
        let kept = free.withLock { f -> Bool in
            guard f.bytes + bytes <= f.limit else { return false }
            f.bySize[bytes, default: []].append(UInt(bitPattern: p))
            f.bytes += bytes
            return true
        }
        if !kept { munmap(p, bytes) }
    }

    /// Sets how many bytes may wait for reuse, unmapping kept mappings beyond it.
    func setLimit(_ limit: Int) {
        let released = free.withLock { f -> [(UInt, Int)] in
            f.limit = max(0, limit)
            var out: [(UInt, Int)] = []
            while f.bytes > f.limit, let size = f.bySize.keys.max(), let address = f.bySize[size]?.popLast() {
                if f.bySize[size]?.isEmpty == true { f.bySize[size] = nil }
                f.bytes -= size
                out.append((address, size))
            }
            return out
        }
        for (address, size) in released {
            if let p = UnsafeMutableRawPointer(bitPattern: address) { munmap(p, size) }
        }
    }
}
