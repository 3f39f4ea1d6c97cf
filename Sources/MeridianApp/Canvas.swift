import CCairo

/// Wraps pixel memory (XRGB8888 = cairo RGB24) in a cairo context scaled to logical px, so the
/// live window and the headless runner draw through exactly the same code.
enum Canvas {
    static func draw(_ scene: Scene, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                     scale: Double) -> Rect? {
        guard let surface = cairo_image_surface_create_for_data(
            pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))
        else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        let changed = scene.draw(cr)
        cairo_surface_flush(surface)
        return changed
    }

    /// A logical rectangle as whole buffer pixels covering it, clipped to the buffer.
    static func pixelRect(_ r: Rect, scale: Double, width: Int, height: Int) -> (x: Int, y: Int, w: Int, h: Int)? {
        let x0 = max(0, Int((r.x * scale).rounded(.down))), y0 = max(0, Int((r.y * scale).rounded(.down)))
        let x1 = min(width, Int(((r.x + r.width) * scale).rounded(.up)))
        let y1 = min(height, Int(((r.y + r.height) * scale).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
