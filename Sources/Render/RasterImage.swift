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
    /// system (see `init`).
    private let pixels: UnsafeMutableRawPointer
    private let mappedBytes: Int

    /// A new image, cleared to black, or nil when the memory cannot be had.
    ///
    /// The pixels are an anonymous mmap rather than cairo's malloc: after the first large
    /// block is freed, glibc raises its mmap threshold and serves the next tiles from its
    /// heaps, where the churn of a tile cache (and one heap per worker thread) leaves freed
    /// tiles counted in RSS: the render bench peaked at 135 MB RSS that way, 86 MB with this.
    /// A few freed mappings are kept for reuse (`PixelPool`): mapping fresh pages for every
    /// tile spent 17 % of a cold street-level screen in the kernel's page faults.
    public init?(width: Int, height: Int, opaque: Bool = true) {
        let format = opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
        guard width > 0, height > 0, width < 1 << 15, height < 1 << 15 else { return nil }
        let stride = Int(cairo_format_stride_for_width(format, Int32(width)))
        let bytes = stride * height
        guard stride > 0, let mapped = PixelPool.shared.take(bytes: bytes) else { return nil }
        guard let s = cairo_image_surface_create_for_data(mapped.assumingMemoryBound(to: UInt8.self), format,
                                                          Int32(width), Int32(height), Int32(stride))
        else {
            PixelPool.shared.give(mapped, bytes: bytes)
            return nil
        }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            PixelPool.shared.give(mapped, bytes: bytes)
            return nil
        }
        surface = s
        pixels = mapped
        mappedBytes = bytes
        self.width = width
        self.height = height
    }

    deinit {
        cairo_surface_destroy(surface)
        PixelPool.shared.give(pixels, bytes: mappedBytes)
    }

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

/// Recently freed pixel mappings, reused (cleared) for the next image of the same size.
final class PixelPool: Sendable {
    static let shared = PixelPool()
    /// At most this many bytes wait for reuse (32 tiles at scale 1); beyond, freed maps go back
    /// to the system.
    static let capacityBytes = 8 << 20
    // Addresses are kept as integers: raw pointers are not Sendable, and only this pool
    // touches a mapping between its owners.
    private let free = Mutex<(bySize: [Int: [UInt]], bytes: Int)>(([:], 0))

    /// A zeroed mapping of `bytes`, reused when one is free; nil when the system has no memory.
    func take(bytes: Int) -> UnsafeMutableRawPointer? {
        let reused = free.withLock { f -> UInt? in
            guard let address = f.bySize[bytes]?.popLast() else { return nil }
            f.bytes -= bytes
            return address
        }
        if let reused, let p = UnsafeMutableRawPointer(bitPattern: reused) {
            memset(p, 0, bytes)
            return p
        }
        guard let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED else {
            return nil
        }
        return mapped
    }

    func give(_ p: UnsafeMutableRawPointer, bytes: Int) {
        let kept = free.withLock { f -> Bool in
            guard f.bytes + bytes <= Self.capacityBytes else { return false }
            f.bySize[bytes, default: []].append(UInt(bitPattern: p))
            f.bytes += bytes
            return true
        }
        if !kept { munmap(p, bytes) }
    }
}
