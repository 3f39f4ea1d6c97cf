import CCairo

/// One pixel's colour, 8 bits per channel, not premultiplied.
struct RGBA: Equatable, Hashable, Sendable, CustomStringConvertible {
    var r: UInt8
    var g: UInt8
    var b: UInt8
    var a: UInt8 = 255

    static let red = RGBA(r: 255, g: 0, b: 0)
    static let yellow = RGBA(r: 255, g: 255, b: 0)
    static let blue = RGBA(r: 0, g: 0, b: 255)
    static let black = RGBA(r: 0, g: 0, b: 0)
    static let white = RGBA(r: 255, g: 255, b: 255)

    /// True when every channel differs from `other` by at most `tolerance`.
    func isClose(to other: RGBA, tolerance: Int = 8) -> Bool {
        abs(Int(r) - Int(other.r)) <= tolerance && abs(Int(g) - Int(other.g)) <= tolerance
            && abs(Int(b) - Int(other.b)) <= tolerance && abs(Int(a) - Int(other.a)) <= tolerance
    }

    var description: String { "(\(r),\(g),\(b),\(a))" }
}

/// A rectangle of pixels: x, y of the top-left corner, then size.
struct PixelRect: Equatable, Sendable, CustomStringConvertible {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The square of side 2*radius+1 centred on x, y.
    static func around(x: Int, y: Int, radius: Int) -> PixelRect {
        PixelRect(x: x - radius, y: y - radius, width: 2 * radius + 1, height: 2 * radius + 1)
    }

    var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A screenshot read back from a PNG, with helpers for asserting what a user would see.
struct Image: Sendable {
    let width: Int
    let height: Int
    /// Row-major pixels, straight (not premultiplied) alpha.
    let pixels: [RGBA]

    /// Reads a PNG file through cairo.
    init(contentsOfPNG path: String) throws {
        guard let surface = cairo_image_surface_create_from_png(path) else {
            throw HarnessError("cannot read \(path)")
        }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw HarnessError("cannot read \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else {
            throw HarnessError("\(path): unexpected cairo pixel format \(format.rawValue)")
        }
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            throw HarnessError("\(path): no pixel data")
        }
        let opaque = format == CAIRO_FORMAT_RGB24
        var pixels = [RGBA]()
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            // Cairo stores native-endian 32-bit words: A in the top byte, then R, G, B.
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                pixels.append(Self.unpremultiply(row[x], opaque: opaque))
            }
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The colour at x, y (top-left origin).
    func pixel(x: Int, y: Int) -> RGBA {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel \(x),\(y) outside \(width)x\(height)")
        return pixels[y * width + x]
    }

    /// How many pixels in `rect` (default: the whole image) are within `tolerance` of `colour`.
    func count(of colour: RGBA, tolerance: Int = 8, in rect: PixelRect? = nil) -> Int {
        var count = 0
        forEachPixel(in: rect) { _, _, pixel in
            if pixel.isClose(to: colour, tolerance: tolerance) { count += 1 }
        }
        return count
    }

    /// The smallest rectangle holding every pixel close to `colour`, or nil when there is none.
    func bounds(of colour: RGBA, tolerance: Int = 8, in rect: PixelRect? = nil) -> PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        forEachPixel(in: rect) { x, y, pixel in
            guard pixel.isClose(to: colour, tolerance: tolerance) else { return }
            minX = min(minX, x); maxX = max(maxX, x)
            minY = min(minY, y); maxY = max(maxY, y)
        }
        guard minX <= maxX else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The most frequent colour in `rect` (default: the whole image).
    func dominantColour(in rect: PixelRect? = nil) -> RGBA? {
        var histogram: [RGBA: Int] = [:]
        forEachPixel(in: rect) { _, _, pixel in histogram[pixel, default: 0] += 1 }
        return histogram.max { $0.value < $1.value }?.key
    }

    private func forEachPixel(in rect: PixelRect?, _ body: (Int, Int, RGBA) -> Void) {
        let area = rect ?? PixelRect(x: 0, y: 0, width: width, height: height)
        let x0 = max(0, area.x), y0 = max(0, area.y)
        let x1 = min(width, area.x + area.width), y1 = min(height, area.y + area.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 {
                body(x, y, pixels[y * width + x])
            }
        }
    }

    private static func unpremultiply(_ word: UInt32, opaque: Bool) -> RGBA {
        let a = opaque ? 255 : UInt32((word >> 24) & 0xff)
        var r = (word >> 16) & 0xff, g = (word >> 8) & 0xff, b = word & 0xff
        if a == 0 { return RGBA(r: 0, g: 0, b: 0, a: 0) }
        if a < 255 {
            r = min(255, (r * 255 + a / 2) / a)
            g = min(255, (g * 255 + a / 2) / a)
            b = min(255, (b * 255 + a / 2) / a)
        }
        return RGBA(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: UInt8(a))
    }
}
