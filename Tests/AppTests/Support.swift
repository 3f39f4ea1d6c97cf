import CCairo
import Glibc

/// A scratch directory for one test, removed at the end.
final class ScratchDirectory {
    let path: String

    init() {
        var template = Array("/tmp/meridian-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buf -> String? in
            guard let base = buf.baseAddress, let p = mkdtemp(base) else { return nil }
            return String(cString: p)
        }
        if let made {
            path = made
        } else {
            // Never fall back to a shared directory: deinit empties what it is given.
            path = "/tmp/meridian-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            mkdir(path, 0o700)
        }
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) -> String {
        let p = file(name)
        if let f = fopen(p, "w") {
            fputs(text, f)
            fclose(f)
        }
        return p
    }

    func exists(_ name: String) -> Bool { access(file(name), F_OK) == 0 }

    func read(_ name: String) -> String? {
        guard let f = fopen(file(name), "r") else { return nil }
        defer { fclose(f) }
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            out += buf[0..<n]
            if n < buf.count { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every file name in the directory.
    var contents: [String] {
        guard let d = opendir(path) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    deinit {
        for n in contents { unlink(file(n)) }
        rmdir(path)
    }
}

/// A PNG read back with cairo, for looking at pixels.
struct PNGImage {
    let width: Int
    let height: Int
    private let pixels: [UInt32]

    init?(path: String) {
        guard let s = cairo_image_surface_create_from_png(path), cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            return nil
        }
        defer { cairo_surface_destroy(s) }
        width = Int(cairo_image_surface_get_width(s))
        height = Int(cairo_image_surface_get_height(s))
        let stride = Int(cairo_image_surface_get_stride(s))
        guard let data = cairo_image_surface_get_data(s) else { return nil }
        var px = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).bindMemory(to: UInt32.self, capacity: width)
            for x in 0..<width { px[y * width + x] = row[x] }
        }
        pixels = px
    }

    /// (r, g, b) in 0…255 at a pixel.
    func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let p = pixels[y * width + x]
        return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
    }

    func isClose(_ x: Int, _ y: Int, to c: (r: Double, g: Double, b: Double), tolerance: Int = 6) -> Bool {
        let p = rgb(x, y)
        return abs(p.r - Int(c.r * 255)) <= tolerance && abs(p.g - Int(c.g * 255)) <= tolerance
            && abs(p.b - Int(c.b * 255)) <= tolerance
    }
}
