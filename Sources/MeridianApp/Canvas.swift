import CCairo
import Gestures

/// Wraps pixel memory (XRGB8888 = cairo RGB24) in a cairo context scaled to logical px, so the
/// live window and the headless runner draw through exactly the same code.
enum Canvas {
    /// Returns the logical region that changed (nil: everything).
    @discardableResult
    /// With `clip` (buffer pixels) only those rectangles are drawn: the rest of the buffer is
    /// left as it was, which must already be the newest picture there (buffer age).
    static func draw(_ core: AppCore, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                     scale: Double, clip: [(x: Int, y: Int, w: Int, h: Int)]? = nil) -> Rect? {
        guard let surface = cairo_image_surface_create_for_data(
            pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))
        else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        if let clip {
            // Whole device pixels, before the scale: inside the clip cairo draws exactly what it
            // would draw unclipped.
            for r in clip { cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.w), Double(r.h)) }
            cairo_clip(cr)
        }
        cairo_scale(cr, scale, scale)
        let damage = core.draw(cr)
        cairo_surface_flush(surface)
        return damage
    }

    /// A logical rectangle as the whole buffer pixels covering it, clipped to the buffer.
    static func pixelRect(_ r: Rect, scale: Double, width: Int, height: Int) -> (x: Int, y: Int, w: Int, h: Int)? {
        let x0 = max(0, Int((r.minX * scale).rounded(.down))), y0 = max(0, Int((r.minY * scale).rounded(.down)))
        let x1 = min(width, Int((r.maxX * scale).rounded(.up))), y1 = min(height, Int((r.maxY * scale).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
