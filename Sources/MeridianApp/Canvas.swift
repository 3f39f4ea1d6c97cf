import CCairo

/// Wraps pixel memory (XRGB8888 = cairo RGB24) in a cairo context scaled to logical px, so the
/// live window and the headless runner draw through exactly the same code.
enum Canvas {
    static func draw(_ core: AppCore, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                     scale: Double) {
        guard let surface = cairo_image_surface_create_for_data(
            pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))
        else { return }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        core.draw(cr)
        cairo_surface_flush(surface)
    }
}
